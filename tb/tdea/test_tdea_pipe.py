# SPDX-License-Identifier: Apache-2.0
"""tdea_pipe (docs/tdea.md): its own cocotb tests, and the pytest entry that runs them
together with the TDEA generic tests (tb/tdea/tdea_generic.py: CAVP TDES ECB KAT/MMT,
CBC MMT chained in the testbench, random traffic with gaps and backpressure, latency and
throughput, bad keys and zeroize). Parameters are read from the DUT. Expected values
come only from the CAVP files and `cryptography` (aesip.ref.tdea_ecb).
Environment (test sizes): AESIP_NBLOCKS blocks of the streaming tests (default 400).
"""
from __future__ import annotations

import os

import cocotb
import pytest
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge

from aesip import ref, sim
from aesip.tb.seed import test_rng
from tb.tdea.tdea_generic import GENERIC, KEY_SIZES, expected_timing, run_tdea, start, zeroize_in_stream


@cocotb.test()
async def test_key_load_while_streaming(dut):
    """A key load into slot 1 while slot 0 streams back to back: the stream keeps one
    block per clock (no bubble in or out), every block is right, and slot 1 then uses the
    new key."""
    rng = test_rng()
    drv, errors = await start(dut)
    k0 = rng.randbytes(rng.choice(KEY_SIZES))
    await drv.load_key(0, k0)
    await drv.load_key(1, rng.randbytes(24))
    n = int(os.environ.get("AESIP_NBLOCKS", "400"))
    items = [(rng.randbytes(8), rng.random() < 0.5, 0, k % (2 ** drv.tag_w)) for k in range(n)]
    k1 = rng.randbytes(rng.choice(KEY_SIZES))
    i0, o0 = len(drv.in_cycles), len(drv.out_cycles)

    async def reload():
        await ClockCycles(dut.clk, 60)
        await drv.load_key(1, k1)

    cocotb.start_soon(reload())
    outs = await drv.run_blocks(items)
    for k, ((blk, dec, _, tag), o) in enumerate(zip(items, outs)):
        assert (o.err, o.tag) == (0, tag) and o.data == ref.tdea_ecb(k0, blk, dec), f"block {k}"
    ic, oc = drv.in_cycles[i0:], drv.out_cycles[o0:]
    assert ic[-1] - ic[0] == n - 1 and oc[-1] - oc[0] == n - 1, "bubble while a key loaded"
    await ClockCycles(dut.clk, 60)
    blk = rng.randbytes(8)
    (o,) = await drv.run_blocks([(blk, True, 1, 2)])
    assert o.err == 0 and o.data == ref.tdea_ecb(k1, blk, True), "slot 1 does not use its new key"
    assert not errors, errors[:5]


@cocotb.test()
async def test_key_reload_same_slot_in_stream(dut):
    """A key load into the slot that is streaming back to back: the request holds off new
    blocks of the slot; the handshake comes exactly 48 x RND_REGS + 4 clocks after the
    last block accepted before it (key_ready rises 3 clocks after that block has left the
    last register with a round ahead of it, docs/tdea.md), never earlier (a load must not
    overtake a block in flight); every block accepted before the handshake comes out
    under the old key, every later one under the new key."""
    rng = test_rng()
    drv, errors = await start(dut)
    lat, _ = expected_timing(dut)
    k0 = rng.randbytes(rng.choice(KEY_SIZES))
    k1 = rng.randbytes(rng.choice(KEY_SIZES))
    await drv.load_key(0, k0)
    n = int(os.environ.get("AESIP_NBLOCKS", "400"))
    items = [(rng.randbytes(8), rng.random() < 0.5, 0, k % (2 ** drv.tag_w)) for k in range(n)]
    hs: list[int] = []

    async def watch():
        while True:
            await RisingEdge(dut.clk)
            await ReadOnly()
            if int(dut.key_valid.value) and int(dut.key_ready.value):
                hs.append(drv.cycle)

    async def reload():
        await ClockCycles(dut.clk, rng.randint(10, 40))
        await drv.load_key(0, k1)

    i0 = len(drv.in_cycles)
    cocotb.start_soon(watch())
    cocotb.start_soon(reload())
    outs = await drv.run_blocks(items)
    ic = drv.in_cycles[i0:]
    assert len(hs) == 1, f"key handshakes in cycles {hs}"
    nb = sum(1 for c in ic if c < hs[0])
    assert 0 < nb < n, f"{nb} of {n} blocks accepted before the key handshake"
    assert hs[0] - ic[nb - 1] == lat + 1, \
        f"handshake {hs[0] - ic[nb - 1]} clocks after the last block of the slot, documented {lat + 1}"
    for k, ((blk, dec, _, tag), o) in enumerate(zip(items, outs)):
        key = k0 if k < nb else k1
        assert (o.err, o.tag) == (0, tag) and o.data == ref.tdea_ecb(key, blk, dec), f"block {k} of {nb} before"
    # a single block on an idle slot, the request 1 .. 4 clocks after its handshake (the
    # block has just entered the pipeline): same rule
    keys = [k1]
    for gap in range(4):
        keys.append(rng.randbytes(rng.choice(KEY_SIZES)))
        i0, h0 = len(drv.in_cycles), len(hs)

        async def request(gap=gap, key=keys[-1], i0=i0):
            while len(drv.in_cycles) == i0:
                await RisingEdge(dut.clk)
                await ReadOnly()
            await RisingEdge(dut.clk)
            if gap:
                await ClockCycles(dut.clk, gap)
            await drv.load_key(0, key)

        done = cocotb.start_soon(request())
        blk, dec = rng.randbytes(8), rng.random() < 0.5
        (o,) = await drv.run_blocks([(blk, dec, 0, gap)])
        await done
        assert len(hs) == h0 + 1 and hs[-1] - drv.in_cycles[i0] == lat + 1, \
            f"request {gap + 1} clocks after the block: handshake {hs[h0:]}, block {drv.in_cycles[i0]}"
        assert (o.err, o.tag) == (0, gap) and o.data == ref.tdea_ecb(keys[-2], blk, dec), f"gap {gap}"
    assert not errors, errors[:5]


@cocotb.test()
async def test_zeroize_in_stream(dut):
    """zeroize in the middle of a back-to-back stream: blocks that reached the output
    register are delivered, every later block comes out with err = 1 and zero data, in
    order with its tag; a reload then works."""
    rng = test_rng()
    drv, errors = await start(dut)
    n = int(os.environ.get("AESIP_NBLOCKS", "400"))
    # the pulse falls after the first results have left (latency 48 x RND_REGS + 3) and while
    # blocks still stream (at most n // 2 blocks later): the cut is strictly inside
    lat, _ = expected_timing(dut)
    await zeroize_in_stream(dut, rng, drv, n, (lat + 5, lat + n // 2))
    key = rng.randbytes(16)
    await drv.load_key(0, key)
    blk = rng.randbytes(8)
    (o,) = await drv.run_blocks([(blk, False, 0, 1)])
    assert o.err == 0 and o.data == ref.tdea_ecb(key, blk, False)
    assert not errors, errors[:5]


OWN = ["test_key_load_while_streaming", "test_key_reload_same_slot_in_stream", "test_zeroize_in_stream"]
# simulator, parameters, generic tests, own tests, environment (test sizes):
#   the default build with every CAVP ECB record; SLOT_W=2 RND_REGS=2 TAG_W=5 with every
#   5th; one Icarus run (every 25th ECB and every 6th CBC record, fewer random blocks:
#   Icarus runs this core at about 100-200 clocks per second).
CASES = [
    ("verilator", {}, GENERIC, OWN, {"AESIP_KAT": "all", "AESIP_NRAND": "600"}),
    ("verilator", {"SLOT_W": 2, "RND_REGS": 2, "TAG_W": 5}, GENERIC, OWN,
     {"AESIP_KAT": "some", "AESIP_NRAND": "600"}),
    ("icarus", {}, GENERIC, OWN, {"AESIP_KAT": "12", "AESIP_CBC": "3", "AESIP_NRAND": "30",
                                  "AESIP_NBLOCKS": "60"}),
]


@pytest.mark.parametrize("simulator,parameters,generic,own,env",
                         [pytest.param(*c, id=sim.case_id(c[0], c[1])) for c in CASES])
def test_tdea_pipe(simulator, parameters, generic, own, env):
    run_tdea("tdea-pipe", __name__, simulator, parameters, generic, own, env)
