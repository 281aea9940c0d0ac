# SPDX-License-Identifier: Apache-2.0
"""pytest entry for the aes_iter128-specific tests (tb/cores/iter128_tests.py).

The default build with both S-boxes is covered by the generic tests
(tb/cores/test_cores.py). Here, on Icarus (quick builds), parameter sets the generic tests
do not reach:
  default : exact timing, key loads while streaming, zeroize (default parameters)
  enc     : DIRECTION=0, SLOT_W=2, TAG_W=3 (decrypt blocks -> err=1)
  dec     : DIRECTION=1, composite S-boxes (encrypt blocks -> err=1)
  slot3   : SLOT_W=3, TAG_W=1, composite S-boxes
"""
from __future__ import annotations

import json

import pytest

from aesip import rtl, sim

ALL = ["test_exact_timing", "test_random", "test_zeroize"]

CASES = [
    # id, parameters, testcases, extra env
    ("default", {"SBOX_IMPL": 0, "DIRECTION": 2}, ALL, {"AESIP_NBLOCKS": "500"}),
    ("enc", {"DIRECTION": 0, "SLOT_W": 2, "TAG_W": 3}, ALL, {"AESIP_NBLOCKS": "300"}),
    ("dec", {"DIRECTION": 1, "SBOX_IMPL": 1}, ALL, {"AESIP_NBLOCKS": "150"}),
    ("slot3", {"SLOT_W": 3, "TAG_W": 1, "SBOX_IMPL": 1}, ["test_random", "test_zeroize"],
     {"AESIP_NBLOCKS": "150"}),
]


@pytest.mark.parametrize("name,params,tests,env", CASES, ids=[c[0] for c in CASES])
def test_iter128(name, params, tests, env):
    sim.require("icarus")
    sim.run_and_check(
        toplevel=rtl.core_top("iter128"),
        sources=rtl.core_sources("iter128"),
        test_module="tb.cores.iter128_tests",
        sim="icarus",
        parameters=params,
        testcase=tests,
        extra_env={"AESIP_ITER128_PARAMS": json.dumps(params), **env},
        quiet=True,
    )
