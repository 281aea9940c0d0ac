# SPDX-License-Identifier: Apache-2.0
"""pytest entry for the shared primitives (rtl/common): S-boxes (both implementations,
every DIR), SubWord, MixColumns (every DIR) and the key expansion (both S-box
implementations), each on Verilator and Icarus. The cocotb tests are in
tb/common/prim_tests.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from aesip import rtl, sim

HERE = Path(__file__).resolve().parent

SBOX_TESTS = ["sbox_exhaustive", "sbox_fips197_values", "subword_random"]
MIX_TESTS = ["mixcolumn_vectors", "mixcolumn_roundtrip"]
KE_TESTS = ["key_expand_fips197", "key_expand_random_encrypt",
            "key_expand_start_ignored_while_busy", "key_expand_abort"]

# (id, toplevel, extra sources, parameters, testcases); each runs on both simulators
TARGETS = [
    ("sbox", "tb_sbox_top", ["tb_sbox_top.v"], {}, SBOX_TESTS),  # both IMPLs, every DIR
    ("mixcolumn", "tb_mixcolumn_top", ["tb_mixcolumn_top.v"], {}, MIX_TESTS),
    ("keyexp-sbox0", "aes_key_expand", [], {"SBOX_IMPL": 0}, KE_TESTS),
    ("keyexp-sbox1", "aes_key_expand", [], {"SBOX_IMPL": 1}, KE_TESTS),
]

CASES = [pytest.param(*t[1:], s, id=f"{t[0]}-{s}") for t in TARGETS for s in sim.SIMULATORS]


@pytest.mark.parametrize("toplevel,extra,parameters,testcases,simulator", CASES)
def test_primitive(toplevel, extra, parameters, testcases, simulator):
    sim.require(simulator)
    sim.run_and_check(
        toplevel=toplevel,
        sources=rtl.sources() + [HERE / f for f in extra],
        test_module="tb.common.prim_tests",
        testcase=testcases,
        sim=simulator,
        parameters=parameters,
        quiet=True,
    )
