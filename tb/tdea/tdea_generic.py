# SPDX-License-Identifier: Apache-2.0
"""Cocotb tests shared by the two TDEA block cores (tdea_pipe, tdea_iter; docs/tdea.md).

Run by the pytest entries of tb/tdea/test_tdea_pipe.py and tb/tdea/test_tdea_iter.py
(`run_tdea`), together with each core's own tests. The core is recognised by the DUT's
module name; its parameters are read from the DUT. Expected values come only from the
NIST CAVP TDES files (`cryptography_vectors`) and from `cryptography`'s TripleDES
(aesip.ref.tdea_ecb), never from the RTL. Environment (test sizes only):
  AESIP_KAT     'all' (every TDES ECB KAT/MMT record), 'some' (every 5th record) or a
                number n (every n-th record)
  AESIP_CBC     'all' (every TDES CBC MMT record, default) or a number n (every n-th)
  AESIP_NRAND   random blocks in test_random (default 400)
"""
from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge

from aesip import ref, rtl, sim, vectors
from aesip.tb.coredrv import CoreDriver, dut_params
from aesip.tb.seed import run_seed, test_rng

KEY_SIZES = (16, 24)   # keying option 2 (K1 K2, K3 = K1) and option 1 (K1 K2 K3)
BAD_KEY_BYTES = (0, 1, 8, 15, 17, 23, 32, 63)
GENERIC = ["test_cavp_ecb", "test_cavp_cbc_mmt", "test_random", "test_latency_and_throughput",
           "test_bad_keys_and_zeroize", "test_key_ready_timing"]


def core_of(dut) -> str:
    """TDEA core name (aesip.rtl.TDEA_CORES) of the DUT, from its module name."""
    return next(c for c in rtl.TDEA_CORE_NAMES if rtl.core_top(c) == dut._name)


def expected_timing(dut) -> tuple[int, int]:
    """(latency, cycles per block back to back) each core promises (docs/tdea.md),
    from the DUT's parameters."""
    if core_of(dut) == "tdea-pipe":
        return 48 * dut_params(dut, ["RND_REGS"])["RND_REGS"] + 3, 1
    return 49, 48


def _step(var: str) -> int:
    """Record step from an environment variable: 'all' 1, 'some' 5, or a number."""
    v = os.environ.get(var, "all")
    return {"all": 1, "some": 5}.get(v) or int(v)


def scrub_cycles(dut) -> int:
    """Clocks of the subkey-memory scrub after rst / zeroize (docs/tdea.md)."""
    slot_w = len(dut.key_slot)
    return 2 ** (slot_w + 1) if core_of(dut) == "tdea-pipe" else 2 ** (slot_w + 6)


def key_for(rec: dict, variant: int) -> bytes:
    """The key to load for a CAVP record: option 2 records as 16 bytes (K1 K2), option 1
    as 24 bytes, option 3 (all keys equal) alternately as 24 and 16 bytes."""
    k = rec["key"]
    if rec["opt"] == 2 or (rec["opt"] == 3 and variant & 1):
        return k[:16]
    return k


def run_tdea(core: str, module: str, simulator: str, parameters: dict, generic: list[str],
             own: list[str], env: dict) -> None:
    """pytest side: build TDEA core `core` with `parameters` on `simulator` and run, in one
    simulation, the tests `generic` of this module and `own` of the core's test module."""
    sim.require(simulator)
    mods = [module] + ([__name__] if generic else [])
    tests = [f"{module.rsplit('.', 1)[-1]}.{t}" for t in own]
    tests += [f"{__name__.rsplit('.', 1)[-1]}.{t}" for t in generic]
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
        internals=False,   # the top module's own signals only (aesip/sim.py run())
    )


async def axi_stability_monitor(dut, errors: list[str]) -> None:
    """AXI4-Stream rule on m_axis: once tvalid is high, tvalid, tdata and tuser stay
    unchanged until the transfer. Violations are appended to `errors`."""
    held = None
    cycle = 0
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        cycle += 1
        v = int(dut.m_axis_tvalid.value)
        if held is not None:
            now = (v, int(dut.m_axis_tdata.value), int(dut.m_axis_tuser.value))
            if now != held:
                errors.append(f"cycle {cycle}: output changed or dropped before its transfer")
        if v and not int(dut.m_axis_tready.value):
            held = (1, int(dut.m_axis_tdata.value), int(dut.m_axis_tuser.value))
        else:
            held = None


async def start(dut) -> tuple[CoreDriver, list[str]]:
    drv = CoreDriver(dut)
    await drv.start()
    errors: list[str] = []
    cocotb.start_soon(axi_stability_monitor(dut, errors))
    return drv, errors


@cocotb.test()
async def test_cavp_ecb(dut):
    """Every NIST CAVP TDES ECB KAT (invperm, permop, subtab, varkey, vartext) and MMT
    record (keying options 1, 2 and 3), encrypt and decrypt, directly on the core; keys
    alternate between slots; option-3 keys alternately as 24 and 16 bytes."""
    drv, errors = await start(dut)
    recs = vectors.tdes_records("ECB")[::_step("AESIP_KAT")]
    nslots = 2 ** drv.slot_w
    checked = 0
    for i, r in enumerate(recs):
        slot = i % nslots
        await drv.load_key(slot, key_for(r, i))
        src, exp = (r["ct"], r["pt"]) if r["dec"] else (r["pt"], r["ct"])
        blocks = [src[k:k + 8] for k in range(0, len(src), 8)]
        outs = await drv.run_blocks([(b, r["dec"], slot, (i + k) % (2 ** drv.tag_w))
                                     for k, b in enumerate(blocks)])
        assert all(o.err == 0 for o in outs), r["name"]
        got = b"".join(o.data for o in outs)
        assert got == exp, f"{r['name']}: got {got.hex()} expected {exp.hex()}"
        checked += len(blocks)
    dut._log.info("checked %d blocks from %d CAVP TDES ECB records", checked, len(recs))
    assert checked >= len(recs) and not errors, errors[:5]


@cocotb.test()
async def test_cavp_cbc_mmt(dut):
    """Every NIST CAVP TDES CBC MMT record (TCBCMMT1/2/3: keying options 3, 2 and 1),
    with the CBC chaining done by the testbench around the core's ECB blocks: encryption
    block by block (each input depends on the previous output), decryption with all
    blocks of a record in flight together."""
    drv, errors = await start(dut)
    every = vectors.tdes_records("CBC", kinds=("MMT1", "MMT2", "MMT3"))
    recs = every[::_step("AESIP_CBC")]
    nslots = 2 ** drv.slot_w
    nblocks = 0
    for i, r in enumerate(recs):
        slot = (i + 1) % nslots
        await drv.load_key(slot, key_for(r, i))
        if r["dec"]:
            ct = r["ct"]
            blocks = [ct[k:k + 8] for k in range(0, len(ct), 8)]
            outs = await drv.run_blocks([(b, True, slot, k % (2 ** drv.tag_w)) for k, b in enumerate(blocks)])
            prev = [r["iv"]] + blocks[:-1]
            got = b"".join(bytes(a ^ b for a, b in zip(o.data, p)) for o, p in zip(outs, prev))
            exp = r["pt"]
        else:
            pt = r["pt"]
            c = r["iv"]
            got = b""
            for k in range(0, len(pt), 8):
                x = bytes(a ^ b for a, b in zip(pt[k:k + 8], c))
                (o,) = await drv.run_blocks([(x, False, slot, k // 8 % (2 ** drv.tag_w))])
                assert o.err == 0, r["name"]
                c = o.data
                got += c
            exp = r["ct"]
        assert got == exp, f"{r['name']}: got {got.hex()} expected {exp.hex()}"
        nblocks += len(exp) // 8
    dut._log.info("checked %d CBC MMT records (%d blocks)", len(recs), nblocks)
    assert len(every) == 60 and recs and not errors, errors[:5]


@cocotb.test()
async def test_random(dut):
    """Random keys (keying options 1 and 2), random slot, direction and tag per block,
    random input gaps and output backpressure, key changes between batches; every block
    cross-checked against `cryptography`'s TripleDES; tags in order, nothing lost or
    duplicated, m_axis stable while not accepted."""
    rng = test_rng()
    drv, errors = await start(dut)
    nslots = 2 ** drv.slot_w
    keys = {}
    for s in range(nslots):
        keys[s] = rng.randbytes(rng.choice(KEY_SIZES))
        await drv.load_key(s, keys[s])
    n = int(os.environ.get("AESIP_NRAND", "400"))
    done = 0
    while done < n:
        batch = min(n - done, rng.randint(8, 100))
        drv.set_gaps(rng, p_gap=rng.choice([0.0, 0.3, 0.7]), p_backpressure=rng.choice([0.0, 0.3, 0.7]))
        items, exp = [], []
        for _ in range(batch):
            slot = rng.randrange(nslots)
            dec = rng.random() < 0.5
            blk = rng.randbytes(8)
            tag = rng.randrange(2 ** drv.tag_w)
            items.append((blk, dec, slot, tag))
            exp.append((ref.tdea_ecb(keys[slot], blk, dec), tag))
        outs = await drv.run_blocks(items)
        for k, (o, (e, tag)) in enumerate(zip(outs, exp)):
            assert o.err == 0, f"block {done + k}: unexpected err"
            assert o.tag == tag, f"block {done + k}: tag {o.tag} expected {tag} (reordered, lost or duplicated)"
            assert o.data == e, f"block {done + k}: data {o.data.hex()} expected {e.hex()}"
        done += batch
        s = rng.randrange(nslots)
        keys[s] = rng.randbytes(rng.choice(KEY_SIZES))
        await drv.load_key(s, keys[s])
    drv.set_gaps(rng)
    await ClockCycles(dut.clk, 120)
    assert drv.sink.empty(), "extra output blocks (duplicates)"
    assert len(drv.in_cycles) == len(drv.out_cycles) == n
    assert not errors, errors[:5]


@cocotb.test()
async def test_latency_and_throughput(dut):
    """Latency is the documented constant for every key, data and direction, and back to
    back blocks come out at the documented rate. Prints the measured figures."""
    rng = test_rng()
    drv, errors = await start(dut)
    lat_exp, cpb_exp = expected_timing(dut)
    lats = set()
    for trial in range(6):
        kb = KEY_SIZES[trial % 2]
        key = [bytes(kb), b"\xff" * kb, rng.randbytes(kb)][trial % 3]
        await drv.load_key(0, key)
        for dec in (False, True):
            blk = [bytes(8), b"\xff" * 8, rng.randbytes(8)][(trial + dec) % 3]
            i0, o0 = len(drv.in_cycles), len(drv.out_cycles)
            await drv.send(blk, dec, 0, 1)
            out = await drv.recv()
            assert out.data == ref.tdea_ecb(key, blk, dec)
            lats.add(drv.out_cycles[o0] - drv.in_cycles[i0])
    assert lats == {lat_exp}, f"latency {sorted(lats)}, documented {lat_exp}"
    n = 64
    o0 = len(drv.out_cycles)
    i0 = len(drv.in_cycles)
    items = [(rng.randbytes(8), bool(k & 1), 0, k % (2 ** drv.tag_w)) for k in range(n)]
    outs = await drv.run_blocks(items)
    for (blk, dec, _, _), o in zip(items, outs):
        assert o.data == ref.tdea_ecb(key, blk, dec)
    oc = drv.out_cycles[o0:]
    ic = drv.in_cycles[i0:]
    cpb = (oc[-1] - oc[0]) / (n - 1)
    dut._log.info("RESULT core=%s latency=%d cycles_per_block=%.2f", core_of(dut), lat_exp, cpb)
    assert cpb == cpb_exp and (ic[-1] - ic[0]) / (n - 1) == cpb_exp, f"{cpb} cycles/block"
    assert not errors, errors[:5]


@cocotb.test()
async def test_bad_keys_and_zeroize(dut):
    """A never-loaded slot, every illegal key length (0, 1, 8, 15, 17, 23, 32, 63 bytes)
    and a zeroized slot give err = 1 with zero data and the block's tag; the next good key
    and block are right."""
    rng = test_rng()
    drv, errors = await start(dut)
    blk = rng.randbytes(8)
    await drv.send(blk, False, 0, 3)
    o = await drv.recv()
    assert (o.err, o.data, o.tag) == (1, bytes(8), 3), "block on a never-loaded slot"
    for bad_len in BAD_KEY_BYTES:
        good = rng.randbytes(rng.choice(KEY_SIZES))
        await drv.load_key(0, good)
        await drv.load_key(0, rng.randbytes(min(bad_len, 24)), key_bytes=bad_len)
        await drv.send(blk, bool(bad_len & 1), 0, 5)
        o = await drv.recv()
        assert (o.err, o.data, o.tag) == (1, bytes(8), 5), f"key of {bad_len} bytes accepted"
        await drv.load_key(0, good)
        await drv.send(blk, False, 0, 6)
        o = await drv.recv()
        assert (o.err, o.tag) == (0, 6) and o.data == ref.tdea_ecb(good, blk, False)
    await drv.zeroize()
    await drv.send(blk, False, 0, 7)
    o = await drv.recv()
    assert (o.err, o.data) == (1, bytes(8)), "key survived zeroize"
    good = rng.randbytes(24)
    await drv.load_key(0, good)
    await drv.send(blk, True, 0, 4)   # tags below 8: TAG_W may be 3
    o = await drv.recv()
    assert (o.err, o.tag) == (0, 4) and o.data == ref.tdea_ecb(good, blk, True)
    assert not errors, errors[:5]


async def zeroize_in_stream(dut, rng: random.Random, drv: CoreDriver, n: int,
                            window: tuple[int, int]) -> list:
    """Stream `n` blocks on every slot (all loaded) and pulse zeroize `window` (a random
    number of clocks in that range) after the stream starts. Returns the
    (expected good output, output) pairs after checking: every output is either right
    (err 0) or err 1 with zero data, with its tag, in order; after the first err every
    output is err (zeroize is a cut); at least one block before and one after the cut."""
    nslots = 2 ** drv.slot_w
    keys = {s: rng.randbytes(rng.choice(KEY_SIZES)) for s in range(nslots)}
    for s, k in keys.items():
        await drv.load_key(s, k)
    items = [(rng.randbytes(8), rng.random() < 0.5, rng.randrange(nslots), k % (2 ** drv.tag_w))
             for k in range(n)]

    async def pulse():
        await ClockCycles(dut.clk, rng.randint(*window))
        await drv.zeroize()

    cocotb.start_soon(pulse())
    outs = await drv.run_blocks(items)
    cut = None
    for k, ((blk, dec, slot, tag), o) in enumerate(zip(items, outs)):
        assert o.tag == tag, f"block {k}: tag {o.tag} expected {tag}"
        if o.err:
            assert o.data == bytes(8), f"block {k}: err with data"
            cut = k if cut is None else cut
        else:
            assert cut is None, f"block {k}: good output after the zeroize cut at {cut}"
            assert o.data == ref.tdea_ecb(keys[slot], blk, dec), f"block {k}: data"
    assert cut is not None and 0 < cut < n, f"zeroize cut at {cut} of {n}"
    dut._log.info("zeroize: %d blocks delivered, %d with err", cut, n - cut)
    return outs


async def _key_ready_low_run(dut) -> int:
    """Clocks (ReadOnly samples) with key_ready low from now until it is high."""
    n = 0
    while True:
        await ReadOnly()
        if int(dut.key_ready.value):
            return n
        n += 1
        await RisingEdge(dut.clk)


@cocotb.test()
async def test_key_ready_timing(dut):
    """key_ready stays low for exactly the documented load time after a legal key
    handshake (both keying options: 50 clocks on tdea_pipe, 48 subkeys and its 2-clock
    write pipeline; 48 on tdea_iter), stays high after an illegal one, and is low for the zeroize cycle plus the
    documented scrub time (2**(SLOT_W+1) / 2**(SLOT_W+6) clocks)."""
    rng = test_rng()
    drv, errors = await start(dut)
    await RisingEdge(dut.clk)
    await _key_ready_low_run(dut)          # the scrub after reset
    await RisingEdge(dut.clk)
    load = 50 if core_of(dut) == "tdea-pipe" else 48
    for nbytes, exp in ((24, load), (16, load), (20, 0), (32, 0)):
        dut.key_slot.value = 0
        dut.key_bytes.value = nbytes
        dut.key_data.value = int.from_bytes(rng.randbytes(24), "little")
        dut.key_valid.value = 1
        await ReadOnly()
        assert int(dut.key_ready.value), "key_ready low while idle"
        await RisingEdge(dut.clk)          # the handshake edge
        dut.key_valid.value = 0
        low = await _key_ready_low_run(dut)
        assert low == exp, f"key_bytes={nbytes}: key_ready low for {low} clocks, documented {exp}"
        await RisingEdge(dut.clk)
    dut.zeroize.value = 1
    await ReadOnly()
    assert not int(dut.key_ready.value), "key_ready high during zeroize"
    await RisingEdge(dut.clk)              # the zeroize edge
    dut.zeroize.value = 0
    low = await _key_ready_low_run(dut)
    assert low == scrub_cycles(dut), f"scrub: key_ready low for {low} clocks, documented {scrub_cycles(dut)}"
    assert not errors, errors[:5]
