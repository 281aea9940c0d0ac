# SPDX-License-Identifier: Apache-2.0
"""pytest entry for the aes_iter32-specific cycle-exact tests (tb/cores/iter32_tests.py):
default parameters on Icarus and Verilator, and a variant with 4 key slots, a 3-bit tag
and composite-field S-boxes on Icarus."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from aesip import rtl, sim
from aesip.rtl import ROOT

CASES = [  # simulator, parameters, soak cycles
    pytest.param("icarus", {"SBOX_IMPL": 0}, 12000, id="icarus-default"),
    pytest.param("verilator", {"SBOX_IMPL": 0}, 30000, id="verilator-default"),
    pytest.param("icarus", {"SBOX_IMPL": 1, "SLOT_W": 2, "TAG_W": 3}, 6000, id="icarus-slot4-tag3-comp"),
]


@pytest.mark.parametrize("simulator,params,cycles", CASES)
def test_iter32(simulator, params, cycles):
    sim.require(simulator)
    sim.run_and_check(
        toplevel=rtl.core_top("iter32"),
        sources=rtl.core_sources("iter32"),
        test_module="tb.cores.iter32_tests",
        sim=simulator,
        parameters=params,
        extra_env={"AESIP_I32_CYCLES": str(cycles)},
        quiet=True,
        # own build directories: test_cores.py builds the same parameter sets
        build_base=Path(os.environ.get("AESIP_BUILD_DIR", ROOT / "sim_build")) / "iter32_tests",
    )
