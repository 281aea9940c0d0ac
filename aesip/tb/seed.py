# SPDX-License-Identifier: Apache-2.0
"""Reproducible randomness for cocotb tests.

cocotb seeds each test with (regression seed + SHA-1 of the test's full name). Tests take
their random.Random from `test_rng`, which logs the regression seed; re-running with
AESIP_SEED=<that number> (aesip.sim passes it to cocotb) replays the same stimulus."""
from __future__ import annotations

import hashlib
import random

import cocotb


def test_rng(fullname: str) -> random.Random:
    seed = cocotb.RANDOM_SEED
    regression_seed = seed - int(hashlib.sha1(fullname.encode()).hexdigest(), 16)
    cocotb.log.info("%s: random seed %d; replay with AESIP_SEED=%d", fullname, seed, regression_seed)
    return random.Random(seed)
