# SPDX-License-Identifier: Apache-2.0
"""Exceptions and exit statuses shared by the `aesip` commands (no imports of our own, so
every layer can use them)."""
from __future__ import annotations

EXIT_INPUT = 1   # malformed input / unknown op (`run`), wrong results (`bench`, `demo`)
EXIT_USAGE = 2   # usage error
EXIT_SIM = 3     # build or simulation failure


class SimError(Exception):
    """Build or simulation failure (with a hint where the log is)."""


class UsageError(Exception):
    """A bad option value found after argument parsing."""
