# SPDX-License-Identifier: Apache-2.0
"""`python -m aesip ...` = the `aesip` command (aesip.cli)."""
import sys

from aesip.cli import main

sys.exit(main())
