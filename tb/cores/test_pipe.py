# SPDX-License-Identifier: Apache-2.0
"""pytest entry for the aes_pipe-specific tests (tb/cores/pipe_tests.py).

The default build is covered by the generic tests (tb/cores/test_cores.py). Here:
  slot2   : SLOT_W=2: keys of different sizes switching every block, key loads while
            streaming, zeroize in a stream
  mct     : SLOT_W=3, SUB_STAGES=2, composite S-boxes: interleaved NIST CBC Monte Carlo
            chains (enc/dec x 128/192/256), key loads while streaming
  enc10   : NR_MAX=10 DIRECTION=0 SUB_STAGES=2 and
  dec     : DIRECTION=1 SUB_STAGES=1: the generic tests rewritten for a core that
            supports only part of the key sizes/directions (unsupported -> err=1)
  icarus  : one small Icarus run (SLOT_W=2, NR_MAX=12, SUB_STAGES=1)
"""
from __future__ import annotations

import json

import pytest

from aesip import rtl, sim

VARIANT_TESTS = ["test_nist_ecb", "test_random_mixed", "test_latency_and_throughput",
                 "test_bad_keys_and_zeroize"]

CASES = [
    # id, simulator, parameters, testcases, extra env
    ("slot2", "verilator", {"SLOT_W": 2},
     ["test_slot_switch_every_block", "test_key_load_while_streaming", "test_bad_keys_and_zeroize"],
     {"AESIP_NBLOCKS": "3000"}),
    ("mct", "verilator", {"SLOT_W": 3, "SUB_STAGES": 2, "SBOX_IMPL": 1},
     ["test_cbc_mct", "test_key_load_while_streaming", "test_slot_switch_every_block"],
     {"AESIP_MCT_RECORDS": "4", "AESIP_NBLOCKS": "1000"}),
    ("enc10", "verilator", {"NR_MAX": 10, "DIRECTION": 0, "SUB_STAGES": 2},
     VARIANT_TESTS, {"AESIP_NBLOCKS": "1500"}),
    ("dec", "verilator", {"DIRECTION": 1, "SUB_STAGES": 1},
     VARIANT_TESTS, {"AESIP_NBLOCKS": "1500"}),
    ("icarus", "icarus", {"SLOT_W": 2, "NR_MAX": 12, "SUB_STAGES": 1},
     ["test_slot_switch_every_block"], {"AESIP_NBLOCKS": "200"}),
]


@pytest.mark.parametrize("name,simulator,params,tests,env", CASES, ids=[c[0] for c in CASES])
def test_pipe(name, simulator, params, tests, env):
    sim.require(simulator)
    sim.run_and_check(
        toplevel=rtl.core_top("pipe"),
        sources=rtl.core_sources("pipe"),
        test_module="tb.cores.pipe_tests",
        sim=simulator,
        parameters=params,
        testcase=tests,
        extra_env={"AESIP_PIPE_PARAMS": json.dumps(params), **env},
        quiet=True,
    )
