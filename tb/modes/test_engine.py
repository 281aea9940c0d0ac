# SPDX-License-Identifier: Apache-2.0
"""pytest entry for the mode engine (tb/modes/engine_tests.py) on each core and simulator,
and for aes_mode_multi (several packets in flight on one shared pair of cores), which must
pass the very same tests."""
from __future__ import annotations

import os

import pytest

from aesip import rtl, sim

CASES = [
    pytest.param("iter128", 0, "verilator", "all", "300", id="iter128-verilator"),
    pytest.param("iter128", 0, "icarus", "some", "40", id="iter128-icarus"),
    pytest.param("iter32", 1, "verilator", "some", "80", id="iter32-sbox1-verilator"),
    pytest.param("pipe", 0, "verilator", "some", "150", id="pipe-verilator"),
]


@pytest.mark.parametrize("core,sbox,simulator,cavp,nrand", CASES)
def test_engine(core, sbox, simulator, cavp, nrand):
    sim.require(simulator)
    sim.run_and_check(
        toplevel="aes_mode_engine",
        sources=rtl.mode_engine_sources(core),
        test_module="tb.modes.engine_tests",
        sim=simulator,
        parameters={"CORE": core, "SBOX_IMPL": sbox, "SLOT_W": 2},
        extra_env={"AESIP_CAVP": cavp, "AESIP_NRAND": nrand},
        quiet=True,
    )


# aes_mode_multi: LANES lanes on one core A + one core B (CORE "pipe" = aes_pipe, "iter128" = aes_iter128).
# (core, lanes, in_aw, simulator, cavp, nrand, throughput test too)
MULTI_CASES = [
    pytest.param("pipe", 4, 7, "verilator", "some", "200", True, id="multi-pipe-lanes4-verilator"),
    pytest.param("iter128", 3, 2, "icarus", "some", "30", False, id="multi-iter128-lanes3-in4-icarus"),
]


def _run_multi(core, lanes, in_aw, simulator, modules, env):
    sim.require(simulator)
    sim.run_and_check(
        toplevel=rtl.MULTI_TOP,
        sources=rtl.multi_sources(core),
        test_module=",".join(modules),
        sim=simulator,
        parameters={"CORE": core, "SBOX_IMPL": 0, "SLOT_W": 2, "LANES": lanes, "IN_AW": in_aw},
        extra_env=dict(env, AESIP_LANES=str(lanes)),
        quiet=True,
    )


@pytest.mark.parametrize("core,lanes,in_aw,simulator,cavp,nrand,tput", MULTI_CASES)
def test_multi(core, lanes, in_aw, simulator, cavp, nrand, tput):
    """The engine tests (CAVP CCM, SP 800-38A, random with gaps/backpressure on every
    port, bad-input campaign) on aes_mode_multi, plus the throughput test
    (tb/modes/multi_tput.py: 16 x 1500-byte CCM packets, checked against `cryptography`,
    cycles within the design's bound). The Icarus case uses 4-beat input FIFOs (IN_AW=2:
    correctness must not depend on the FIFO depth) and 3 lanes (not a power of two)."""
    mods = ["tb.modes.engine_tests"] + (["tb.modes.multi_tput"] if tput else [])
    _run_multi(core, lanes, in_aw, simulator, mods, {"AESIP_CAVP": cavp, "AESIP_NRAND": nrand})


def test_multi_throughput_lanes16():
    """16 lanes (one step per lane per pipeline latency + 1: the pipelines can be full):
    16 x 1500-byte CCM packets within the bound of tb/modes/multi_tput.py."""
    _run_multi("pipe", 16, 7, "verilator", ["tb.modes.multi_tput"], {})


# Fail-closed tests and the short soak (tb/modes/security_tests.py) on both engines and
# both simulators; NR_MAX = 10 builds check keys larger than the engine supports.
# (top, core, nr_max, lanes, simulator, soak packets in make test, soak packets in make soak)
SECURITY_CASES = [
    pytest.param("aes_mode_engine", "iter128", 14, 0, "verilator", 300, 100_000, id="engine-iter128-verilator"),
    pytest.param("aes_mode_engine", "pipe", 10, 0, "verilator", 300, 20_000, id="engine-pipe-nr10-verilator"),
    pytest.param("aes_mode_engine", "iter32", 14, 0, "verilator", 60, 1_000, id="engine-iter32-verilator"),
    pytest.param("aes_mode_engine", "iter128", 10, 0, "icarus", 60, 10_000, id="engine-iter128-nr10-icarus"),
    pytest.param(rtl.MULTI_TOP, "pipe", 14, 4, "verilator", 300, 100_000, id="multi-pipe-lanes4-verilator"),
    pytest.param(rtl.MULTI_TOP, "iter128", 10, 3, "icarus", 60, 10_000, id="multi-iter128-lanes3-nr10-icarus"),
]


@pytest.mark.parametrize("top,core,nr_max,lanes,simulator,npk,nsoak", SECURITY_CASES)
def test_security(top, core, nr_max, lanes, simulator, npk, nsoak):
    """Command-time key checks, rekey of a slot in use, no state left behind, and the
    randomized soak with zeroize and rekey events: short here, long with AESIP_SOAK=1
    (`make soak`: 100 000 packets per engine on Verilator, 10 000 on Icarus)."""
    sim.require(simulator)
    multi = top == rtl.MULTI_TOP
    params = {"CORE": core, "SBOX_IMPL": 0, "SLOT_W": 2, "NR_MAX": nr_max}
    if multi:
        params.update(LANES=lanes, IN_AW=4)
    soak = os.environ.get("AESIP_SOAK", "") not in ("", "0")
    sim.run_and_check(
        toplevel=top,
        sources=rtl.multi_sources(core) if multi else rtl.mode_engine_sources(core),
        test_module="tb.modes.security_tests",
        sim=simulator,
        parameters=params,
        extra_env={"AESIP_SOAK_PACKETS": str(nsoak if soak else npk),
                   "AESIP_NR_MAX": str(nr_max), "AESIP_LANES": str(lanes),
                   "AESIP_CORE": core},
        quiet=True,
    )
