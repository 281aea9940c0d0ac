# SPDX-License-Identifier: Apache-2.0
"""The one seed scheme of the test suite.

Host side (pytest): `run_seed()` takes the seed from AESIP_SEED or draws one, prints it
with the replay command, and aesip.sim.run hands it to cocotb (COCOTB_RANDOM_SEED).
Simulator side (cocotb): cocotb seeds each test with (run seed + SHA-1 of the test's full
name); `test_rng()` returns a random.Random on that per-test seed and logs the run seed,
so re-running with AESIP_SEED=<run seed> replays the same stimulus. Every randomized
test takes its random numbers from here (never from a constant seed)."""
from __future__ import annotations

import os
import random


def run_seed() -> int:
    """Host side: the run seed (AESIP_SEED or a fresh random one), printed for replay."""
    s = int(os.environ.get("AESIP_SEED") or random.SystemRandom().randrange(2**32))
    print(f"seed {s} (replay with AESIP_SEED={s})")
    return s


def test_rng(name: str | None = None) -> random.Random:
    """Simulator side: a random.Random for the running cocotb test. `name` only labels
    the log line (cocotb already derives the per-test seed from the test's name)."""
    import cocotb

    from cocotb import regression

    manager = getattr(regression, "_manager_inst", None)
    seed = cocotb.RANDOM_SEED
    run = os.environ.get("COCOTB_RANDOM_SEED")
    if run is None:  # no seed given: cocotb drew the run seed itself
        run = getattr(manager, "_regression_seed", "?")
    if name is None:
        name = getattr(getattr(manager, "_test", None), "fullname", "test")
    cocotb.log.info("%s: random seed %d; replay with AESIP_SEED=%s", name, seed, run)
    return random.Random(seed)


test_rng.__test__ = False  # not a pytest test
