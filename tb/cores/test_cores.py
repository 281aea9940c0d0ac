# SPDX-License-Identifier: Apache-2.0
"""pytest entry: every core x S-box implementation x simulator runs the generic tests in
tb/cores/core_tests.py (full NIST KATs on Verilator, a sample on Icarus)."""
from __future__ import annotations

import pytest

from aesip import rtl, sim

CASES = []
for engine in rtl.ENGINES:
    for sbox in (0, 1):
        CASES.append(pytest.param(engine, sbox, "verilator", id=f"{engine}-sbox{sbox}-verilator"))
    # Icarus runs the table S-boxes: the composite-field netlist is slow in an event-driven
    # simulator, and it is covered exhaustively on Icarus in tb/common and here on Verilator
    CASES.append(pytest.param(engine, 0, "icarus", id=f"{engine}-sbox0-icarus"))


@pytest.mark.parametrize("engine,sbox,simulator", CASES)
def test_core(engine, sbox, simulator):
    sim.require(simulator)
    icarus = simulator == "icarus"
    sim.run_and_check(
        toplevel=rtl.core_top(engine),
        sources=rtl.core_sources(engine),
        test_module="tb.cores.core_tests",
        sim=simulator,
        parameters={"SBOX_IMPL": sbox},
        extra_env={
            "AESIP_ENGINE": engine,
            # every CAVP record with the table S-boxes on Verilator; a sample otherwise
            "AESIP_KAT": "all" if (sbox == 0 and not icarus) else "some",
            "AESIP_NRAND": "150" if icarus else "600",
        },
        quiet=True,
    )
