# SPDX-License-Identifier: Apache-2.0
"""Generic cocotb tests for every block-cipher core (common interface, docs/cores.md).

Shared by the three core test files (tb/cores/test_aes_iter32.py, test_aes_iter128.py,
test_aes_pipe.py), whose pytest entries run these tests on their core with both S-box
implementations (`run_core`). The core is recognised by the DUT's module name.
Expected values come from `cryptography` (OpenSSL) and the NIST CAVP files, never from
the RTL. Environment (test sizes only; the DUT's parameters are read from the DUT):
  AESIP_NRAND   number of random blocks in test_random (default 400)
  AESIP_KAT     'all' (every ECB KAT/MMT record) or 'some' (every 7th record)
"""
from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import ClockCycles

from aesip import ref, rtl, sim, vectors
from aesip.tb.coredrv import CoreDriver
from aesip.tb.seed import run_seed, test_rng

KEY_SIZES = (16, 24, 32)
NR = ref.ROUNDS
GENERIC = ["test_nist_ecb", "test_random", "test_latency_and_throughput", "test_bad_keys_and_zeroize"]


def core_of(dut) -> str:
    """Block core name (aesip.rtl.CORES) of the core under test, from its module name."""
    return next(c for c in rtl.CORE_NAMES if rtl.core_top(c) == dut._name)


def max_cycles_per_block(core: str, key_bytes: int) -> int:
    """Back-to-back throughput each core promises (docs/cores.md)."""
    nr = NR[key_bytes]
    return {"iter32": 4 * (nr + 1), "iter128": nr + 1, "pipe": 1}[core]


def rng_for_test(name: str) -> random.Random:
    return test_rng(f"{__name__}.{name}")


def run_core(core: str, module: str, simulator: str, parameters: dict, generic: bool,
             own: list[str], env: dict) -> None:
    """pytest side: build block core `core` with `parameters` on `simulator` and run, in one
    simulation, the generic tests of this module (if `generic`) and the tests `own` of
    the core's own test module `module`."""
    sim.require(simulator)
    mods = [module] + ([__name__] if generic else [])
    tests = [f"{module.rsplit('.', 1)[-1]}.{t}" for t in own]
    tests += [f"{__name__.rsplit('.', 1)[-1]}.{t}" for t in GENERIC] if generic else []
    sim.run_and_check(
        toplevel=rtl.core_top(core),
        sources=rtl.core_sources(core),
        test_module=",".join(mods),
        testcase=tests,
        sim=simulator,
        parameters=parameters,
        extra_env=env,
        seed=run_seed(),
        quiet=True,
        # the core's own signals only (aesip/sim.py run()), and for aes_pipe its output
        # buffer's (the zeroize test reads its RAM back)
        internals=("pipe_obuf",) if core == "pipe" else False,
    )


@cocotb.test()
async def test_nist_ecb(dut):
    """Every NIST CAVP ECB KAT (GFSbox, KeySbox, VarKey, VarTxt) and MMT record, 128/192/256,
    encrypt and decrypt; keys alternate between slots."""
    drv = CoreDriver(dut)
    await drv.start()
    recs = vectors.aes_ecb_records()
    if os.environ.get("AESIP_KAT", "all") != "all":
        recs = recs[::7]
    nslots = 2 ** drv.slot_w
    checked = 0
    for i, r in enumerate(recs):
        slot = i % nslots
        await drv.load_key(slot, r["key"])
        src, exp = (r["ct"], r["pt"]) if r["dec"] else (r["pt"], r["ct"])
        blocks = [src[k:k + 16] for k in range(0, len(src), 16)]
        outs = await drv.run_blocks([(b, r["dec"], slot, (i + k) % (2 ** drv.tag_w)) for k, b in enumerate(blocks)])
        got = b"".join(o.data for o in outs)
        assert all(o.err == 0 for o in outs), r["name"]
        assert got == exp, f"{r['name']}: got {got.hex()} expected {exp.hex()}"
        checked += len(blocks)
    dut._log.info("checked %d blocks from %d CAVP records", checked, len(recs))
    assert checked >= len(recs)


@cocotb.test()
async def test_random(dut):
    """Random keys (all sizes), random slots per block, random direction, random valid gaps
    and random backpressure; cross-checked against `cryptography`. Checks data, tag,
    order, and that nothing is lost or duplicated."""
    rng = rng_for_test("test_random")
    drv = CoreDriver(dut)
    await drv.start()
    nslots = 2 ** drv.slot_w
    keys = {}
    for s in range(nslots):
        keys[s] = rng.randbytes(rng.choice(KEY_SIZES))
        await drv.load_key(s, keys[s])
    n = int(os.environ.get("AESIP_NRAND", "400"))
    done = 0
    while done < n:
        batch = min(n - done, rng.randint(8, 80))
        drv.set_gaps(rng, p_gap=rng.choice([0.0, 0.3, 0.7]), p_backpressure=rng.choice([0.0, 0.3, 0.7]))
        items, exp = [], []
        for k in range(batch):
            slot = rng.randrange(nslots)
            dec = rng.random() < 0.5
            blk = rng.randbytes(16)
            tag = rng.randrange(2 ** drv.tag_w)
            items.append((blk, dec, slot, tag))
            exp.append((ref.ecb(keys[slot], blk, dec), tag))
        outs = await drv.run_blocks(items)
        for k, (o, (e, tag)) in enumerate(zip(outs, exp)):
            assert o.err == 0, f"block {done + k}: unexpected err"
            assert o.tag == tag, f"block {done + k}: tag {o.tag} expected {tag} (reordered, lost or duplicated)"
            assert o.data == e, f"block {done + k}: data {o.data.hex()} expected {e.hex()}"
        done += batch
        # change a key between batches (new size too)
        s = rng.randrange(nslots)
        keys[s] = rng.randbytes(rng.choice(KEY_SIZES))
        await drv.load_key(s, keys[s])
    drv.set_gaps(rng)
    await ClockCycles(dut.clk, 50)
    assert drv.sink.empty(), "extra output blocks (duplicates)"
    assert len(drv.in_cycles) == len(drv.out_cycles) == n


@cocotb.test()
async def test_latency_and_throughput(dut):
    """Latency is the same for every key and data value of one key size, and back-to-back
    throughput meets the core's promise. Prints the measured figures."""
    rng = rng_for_test("test_latency_and_throughput")
    drv = CoreDriver(dut)
    await drv.start()
    for kb in KEY_SIZES:
        lats = set()
        for trial in range(6):
            key = [bytes(kb), b"\xff" * kb, rng.randbytes(kb)][trial % 3]
            await drv.load_key(0, key)
            for dec in (False, True):
                blk = [bytes(16), b"\xff" * 16, rng.randbytes(16)][(trial + dec) % 3]
                i0 = len(drv.in_cycles)
                o0 = len(drv.out_cycles)
                await drv.send(blk, dec, 0, 1)
                out = await drv.recv()
                assert out.data == ref.ecb(key, blk, dec)
                lats.add(drv.out_cycles[o0] - drv.in_cycles[i0])
        assert len(lats) == 1, f"AES-{kb * 8}: latency depends on key/data: {sorted(lats)}"
        lat = lats.pop()
        # back to back: 64 blocks, no gaps, no backpressure
        n = 64
        o0 = len(drv.out_cycles)
        items = [(rng.randbytes(16), bool(k & 1), 0, k % (2 ** drv.tag_w)) for k in range(n)]
        outs = await drv.run_blocks(items)
        for (blk, dec, _, _), o in zip(items, outs):
            assert o.data == ref.ecb(key, blk, dec)
        oc = drv.out_cycles[o0:]
        cpb = (oc[-1] - oc[0]) / (n - 1)
        core = core_of(dut)
        dut._log.info("RESULT core=%s key_bits=%d latency=%d cycles_per_block=%.2f", core, kb * 8, lat, cpb)
        assert cpb <= max_cycles_per_block(core, kb), f"AES-{kb * 8}: {cpb} cycles/block"


@cocotb.test()
async def test_bad_keys_and_zeroize(dut):
    """Illegal key lengths and zeroized/unloaded slots give err=1 with zero data, and the
    next good block is still right."""
    rng = rng_for_test("test_bad_keys_and_zeroize")
    drv = CoreDriver(dut)
    await drv.start()
    blk = rng.randbytes(16)
    # never-loaded slot after reset
    await drv.send(blk, False, 0, 3)
    o = await drv.recv()
    assert (o.err, o.data, o.tag) == (1, bytes(16), 3)
    good = rng.randbytes(16)
    for bad_len in (0, 1, 15, 17, 20, 31):
        await drv.load_key(0, rng.randbytes(bad_len))
        await drv.send(blk, bool(bad_len & 1), 0, 5)
        o = await drv.recv()
        assert (o.err, o.data, o.tag) == (1, bytes(16), 5), f"key of {bad_len} bytes accepted"
        await drv.load_key(0, good)
        await drv.send(blk, False, 0, 6)
        o = await drv.recv()
        assert (o.err, o.tag) == (0, 6) and o.data == ref.ecb_encrypt(good, blk)
    await drv.zeroize()
    await drv.send(blk, False, 0, 7)
    o = await drv.recv()
    assert (o.err, o.data) == (1, bytes(16)), "key survived zeroize"
    await drv.load_key(0, good)
    await drv.send(blk, True, 0, 8)
    o = await drv.recv()
    assert o.err == 0 and o.data == ref.ecb_decrypt(good, blk)
