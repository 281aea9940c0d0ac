"""pytest entry for the mode engine (tb/modes/engine_tests.py) on each core and simulator."""
from __future__ import annotations

import pytest

from aesip import rtl, sim

CASES = [
    pytest.param(0, 0, "verilator", "all", "300", id="iter128-verilator"),
    pytest.param(0, 0, "icarus", "some", "40", id="iter128-icarus"),
    pytest.param(1, 1, "verilator", "some", "80", id="iter32-sbox1-verilator"),
    pytest.param(2, 0, "verilator", "some", "150", id="pipe-verilator"),
]


@pytest.mark.parametrize("core,sbox,simulator,cavp,nrand", CASES)
def test_engine(core, sbox, simulator, cavp, nrand):
    if not sim.available(simulator):
        pytest.skip(f"{simulator} not installed")
    sim.run_and_check(
        toplevel="aes_mode_engine",
        sources=rtl.engine_sources(core),
        test_module="tb.modes.engine_tests",
        sim=simulator,
        parameters={"CORE": core, "SBOX_IMPL": sbox, "SLOT_W": 2},
        extra_env={"AESIP_CAVP": cavp, "AESIP_NRAND": nrand},
        quiet=True,
    )
