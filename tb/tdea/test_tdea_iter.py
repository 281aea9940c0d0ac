# SPDX-License-Identifier: Apache-2.0
"""tdea_iter (docs/tdea.md): its own cocotb test, and the pytest entry that runs it
together with the TDEA generic tests (tb/tdea/tdea_generic.py: CAVP TDES ECB KAT/MMT,
CBC MMT chained in the testbench, random traffic with gaps and backpressure, latency and
throughput, bad keys and zeroize). Parameters are read from the DUT. Expected values
come only from the CAVP files and `cryptography` (aesip.ref.tdea_ecb).
"""
from __future__ import annotations

import cocotb
import pytest

from aesip import ref, sim
from aesip.tb.seed import test_rng
from tb.tdea.tdea_generic import GENERIC, run_tdea, start, zeroize_in_stream


@cocotb.test()
async def test_zeroize_in_stream(dut):
    """zeroize while blocks stream: the block in the datapath and every later one come
    out with err = 1 and zero data, in order with their tags; a reload then works."""
    rng = test_rng()
    drv, errors = await start(dut)
    # 48 clocks per block: the pulse falls while block 3 .. 6 is in the datapath
    await zeroize_in_stream(dut, rng, drv, 12, (3 * 48, 6 * 48))
    key = rng.randbytes(24)
    await drv.load_key(1, key)
    blk = rng.randbytes(8)
    (o,) = await drv.run_blocks([(blk, True, 1, 1)])
    assert o.err == 0 and o.data == ref.tdea_ecb(key, blk, True)
    assert not errors, errors[:5]


OWN = ["test_zeroize_in_stream"]
# simulator, parameters, generic tests, own tests, environment (test sizes)
CASES = [
    ("verilator", {}, GENERIC, OWN, {"AESIP_KAT": "all", "AESIP_NRAND": "400"}),
    ("verilator", {"SLOT_W": 2, "TAG_W": 3}, GENERIC, OWN, {"AESIP_KAT": "some", "AESIP_NRAND": "300"}),
    ("icarus", {}, GENERIC, OWN, {"AESIP_KAT": "some", "AESIP_CBC": "3", "AESIP_NRAND": "100"}),
]


@pytest.mark.parametrize("simulator,parameters,generic,own,env",
                         [pytest.param(*c, id=sim.case_id(c[0], c[1])) for c in CASES])
def test_tdea_iter(simulator, parameters, generic, own, env):
    run_tdea("tdea-iter", __name__, simulator, parameters, generic, own, env)
