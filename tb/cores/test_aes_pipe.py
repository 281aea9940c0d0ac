# SPDX-License-Identifier: Apache-2.0
"""aes_pipe (docs/pipe.md): its own cocotb tests, and the pytest entry that runs them
together with the generic core tests (tb/cores/core_generic.py).

A light cycle-based bench drives the core directly (one coroutine, one pass per clock)
so that cycle-exact properties can be checked: no bubbles, fixed latency, key-slot
rules, AXI output stability. Expected values come only from `cryptography` (aesip.ref)
and the NIST CAVP files (aesip.vectors), never from the RTL.

The build's parameters (NR_MAX, DIRECTION, ROUND_REGS, ...) are read from the DUT
(`load_params`). Environment (test sizes, set by the pytest entry below):
  AESIP_MCT_RECORDS  CBC Monte Carlo records per chain (default 3)
  AESIP_NBLOCKS      blocks for the streaming tests (default 2000)
"""
from __future__ import annotations

import os
import random
from collections import deque
from dataclasses import dataclass

import cocotb
import pytest
from cocotb.triggers import ClockCycles, RisingEdge

from aesip import ref, sim, vectors
from aesip.tb.coredrv import CycleBench, dut_params, obuf_ram_nonzero
from aesip.tb.seed import test_rng
from tb.cores.core_generic import run_core

NR = ref.ROUNDS
# Parameters of the build under test, read from the DUT by load_params (one build per
# simulation), and what follows from them.
P: dict[str, int] = {}
NR_MAX = DIRECTION = R = 0
LATENCY = 0        # cycles between the input handshake cycle and the first output-valid cycle
AW = 0             # round-key memory address width
SCRUB_CYCLES = 0   # clocks of the key-memory scrub after rst / zeroize


def load_params(dut) -> None:
    global NR_MAX, DIRECTION, R, LATENCY, AW, SCRUB_CYCLES
    P.update(dut_params(dut, ("SBOX_IMPL", "SLOT_W", "TAG_W", "NR_MAX", "DIRECTION", "ROUND_REGS",
                              "IN_REG")))
    NR_MAX, DIRECTION, R = P["NR_MAX"], P["DIRECTION"], P["ROUND_REGS"]
    regs = NR_MAX * R + P["IN_REG"]      # registers a block passes before the output buffer
    LATENCY = 1 + regs
    AW = P["SLOT_W"] + (1 if DIRECTION == 2 else 0)
    SCRUB_CYCLES = 2 ** AW
    # builds of 64 pipeline registers or more also hold key loads off during the output
    # buffer's wipe (2**DAW clocks, DAW = clog2(NR_MAX * R + IN_REG + 2), at least 4):
    # docs/pipe.md
    daw = max(4, (regs + 1).bit_length())
    if 2 ** daw > 46 + regs:
        SCRUB_CYCLES = max(SCRUB_CYCLES, 2 ** daw)


def load_clocks(kb: int) -> int:
    """Clocks key_ready stays low after a legal load's handshake (docs/pipe.md): 4 Nr + 10."""
    return 4 * NR[kb] + 10


def key_supported(key: bytes | None) -> bool:
    return key is not None and len(key) in NR and NR[len(key)] <= NR_MAX


def dir_supported(dec: bool) -> bool:
    return DIRECTION == 2 or DIRECTION == int(dec)


def expect(key: bytes | None, blk: bytes, dec: bool) -> tuple[int, bytes]:
    """(err, data) the core must produce for `blk` with the key held in its slot."""
    if not key_supported(key) or not dir_supported(dec):
        return 1, bytes(16)
    return 0, ref.ecb(key, blk, dec)


def supported_sizes() -> list[int]:
    return [kb for kb in (16, 24, 32) if NR[kb] <= NR_MAX]


def supported_dirs() -> list[bool]:
    return [d for d in (False, True) if dir_supported(d)]


def rng_for_test(dut) -> random.Random:
    """The test's random numbers (aesip.tb.seed); reads the build's parameters first."""
    load_params(dut)
    cocotb.log.info("parameters %s", P)
    return test_rng()


@dataclass
class Item:
    data: bytes
    dec: bool
    slot: int
    tag: int
    ctx: object = None          # test bookkeeping (expected value, chain, ...)
    in_cycle: int = -1


@dataclass
class Out:
    data: bytes
    tag: int
    err: int
    cycle: int


class Bench(CycleBench):
    """aes_pipe's checks on the shared cycle-level driver (aesip.tb.coredrv): every
    output handshake is matched to the oldest block in flight (nothing without an
    input), outputs stay stable until taken, and `on_out` lets a test react to each
    output (the CBC Monte Carlo chains)."""

    def __init__(self, dut, rng: random.Random):
        super().__init__(dut, rng)
        self.sent: list[Item] = []
        self.outs: list[Out] = []
        self.on_out = None          # callback(Out, Item) after each output handshake
        self.tready_low_cycles = 0  # cycles with a block presented but not accepted
        self._held: tuple | None = None
        self.inflight: deque[Item] = deque()

    async def start(self) -> None:
        await super().start(reset_cycles=4)

    def sample_output(self, c: int, zero: bool, key_ready: int) -> None:
        dut = self.dut
        mv = int(dut.m_axis_tvalid.value)
        mr = int(dut.m_axis_tready.value)
        if mv:
            held = (int(dut.m_axis_tdata.value), int(dut.m_axis_tuser.value))
            if self._held is not None:
                assert held == self._held, f"cycle {c}: output changed while not accepted"
            self._held = None if mr else held
            if mr:
                tu = held[1]
                o = Out(held[0].to_bytes(16, "little"), tu >> 1, tu & 1, c)
                assert self.inflight, f"cycle {c}: output without an input (duplicate)"
                it = self.inflight.popleft()
                self.outs.append(o)
                if self.on_out is not None:
                    self.on_out(o, it)
        else:
            assert self._held is None, f"cycle {c}: m_axis_tvalid dropped before the transfer"

    def sample_input(self, c: int, zero: bool, key_ready: int) -> None:
        if self.cur is not None:
            if int(self.dut.s_axis_tready.value):
                self.cur.in_cycle = c
                self.sent.append(self.cur)
                self.inflight.append(self.cur)
                self.cur = None
            else:
                self.tready_low_cycles += 1

    async def wait_outputs(self, n: int, limit: int = 2_000_000) -> None:
        start = self.cycle
        while len(self.outs) < n:
            await ClockCycles(self.dut.clk, 16)
            assert self.cycle - start < limit, f"timeout waiting for {n} outputs (have {len(self.outs)})"

    async def wait_accepted(self) -> None:
        while self.tx or self.cur is not None:
            await RisingEdge(self.dut.clk)

    async def drain(self) -> None:
        await self.wait_outputs(len(self.sent) + len(self.tx) + (self.cur is not None))
        await ClockCycles(self.dut.clk, LATENCY + 4)
        assert len(self.outs) == len(self.sent), "extra output blocks"


def check_outputs(bench: Bench, items: list[Item], outs: list[Out], what: str) -> None:
    """Every item came out once, in order, with its tag and the expected (err, data)
    stored in item.ctx."""
    assert len(outs) == len(items), f"{what}: {len(outs)} outputs for {len(items)} inputs"
    for k, (it, o) in enumerate(zip(items, outs)):
        err, data = it.ctx
        assert o.tag == it.tag, f"{what} #{k}: tag {o.tag} expected {it.tag} (lost/duplicated/reordered)"
        assert o.err == err, f"{what} #{k}: err {o.err} expected {err}"
        assert o.data == data, f"{what} #{k}: data {o.data.hex()} expected {data.hex()}"


def random_key(rng: random.Random, sizes=None) -> bytes:
    return rng.randbytes(rng.choice(sizes or supported_sizes()))


# ---------------------------------------------------------------------------------
@cocotb.test()
async def test_slot_switch_every_block(dut):
    """Keys of different sizes in 4 slots; every block uses a different slot than the one
    before. Back to back (one block accepted and delivered every clock, fixed latency),
    then with random input gaps and output backpressure. Data, err, tags and order are
    checked for every block."""
    rng = rng_for_test(dut)
    b = Bench(dut, rng)
    await b.start()
    nslots = min(4, b.nslots)
    assert nslots == 4, "this test needs SLOT_W >= 2"
    sizes = supported_sizes()
    keys = {}
    for s in range(nslots):
        keys[s] = rng.randbytes(sizes[s % len(sizes)])
        b.load_key(s, keys[s])
    await b.wait_keys()
    dirs = supported_dirs()
    n = int(os.environ.get("AESIP_NBLOCKS", "2000"))
    tagmod = 2 ** b.tag_w

    def make(count: int, first: int) -> list[Item]:
        out, slot = [], rng.randrange(nslots)
        for k in range(count):
            slot = (slot + rng.randrange(1, nslots)) % nslots
            blk, dec = rng.randbytes(16), rng.choice(dirs)
            out.append(Item(blk, dec, slot, (first + k) % tagmod, expect(keys[slot], blk, dec)))
        return out

    # 1) back to back, no gaps, no backpressure
    items = make(n // 2, 0)
    for it in items:
        b.send(it)
    await b.drain()
    check_outputs(b, items, b.outs, "back-to-back")
    ic = [it.in_cycle for it in items]
    oc = [o.cycle for o in b.outs]
    assert ic == list(range(ic[0], ic[0] + len(ic))), "input bubble: a block was not accepted every clock"
    assert oc == list(range(oc[0], oc[0] + len(oc))), "output bubble"
    lats = {o - i for i, o in zip(ic, oc)}
    assert lats == {LATENCY}, f"latency {sorted(lats)}, expected {LATENCY}"
    dut._log.info("back to back: %d blocks in %d clocks, latency %d", len(items), oc[-1] - ic[0] + 1, LATENCY)

    # 2) random gaps and backpressure
    done = len(b.outs)
    for p_gap, p_bp in ((0.0, 0.5), (0.5, 0.0), (0.3, 0.3), (0.1, 0.8), (0.7, 0.7)):
        b.set_gaps(p_gap, p_bp)
        items = make(n // 10, done)
        for it in items:
            b.send(it)
        await b.drain()
        check_outputs(b, items, b.outs[done:], f"gaps {p_gap} backpressure {p_bp}")
        done = len(b.outs)
    dut._log.info("checked %d blocks over %d slots with key sizes %s", done, nslots,
                  [len(keys[s]) * 8 for s in range(nslots)])


@cocotb.test()
async def test_key_load_while_streaming(dut):
    """A key load into one slot while blocks on the other slots stream back to back:
    no bubble for them and correct results; the loaded slot is locked for exactly
    the documented load time (load_clocks); blocks of the slot presented during the load wait and then use the
    new key; a load requested while blocks of that slot are in flight waits for them."""
    rng = rng_for_test(dut)
    b = Bench(dut, rng)
    await b.start()
    nslots = min(4, b.nslots)
    sizes = supported_sizes()
    dirs = supported_dirs()
    keys = {s: rng.randbytes(sizes[(s + 1) % len(sizes)]) for s in range(nslots)}
    for s in range(nslots):
        b.load_key(s, keys[s])
    await b.wait_keys()
    tagmod = 2 ** b.tag_w
    items: list[Item] = []

    def add(slot: int, key: bytes | None = None) -> Item:
        blk, dec = rng.randbytes(16), rng.choice(dirs)
        it = Item(blk, dec, slot, len(items) % tagmod, expect(key or keys[slot], blk, dec))
        items.append(it)
        b.send(it)
        return it

    for kb in sizes:
        # (a) stream on slots 1..n-1 back to back, load slot 0 in the middle
        first = len(items)
        for _ in range(150):
            add(rng.randrange(1, nslots))
        await ClockCycles(dut.clk, 40)
        keys[0] = rng.randbytes(kb)
        kl = b.load_key(0, keys[0])
        await b.drain()
        assert kl.hs_cycle > 0 and kl.done_cycle > 0
        locked = kl.done_cycle - kl.hs_cycle - 1
        assert locked == load_clocks(kb), f"key_ready low for {locked} clocks after the handshake, documented {load_clocks(kb)}"
        ic = [it.in_cycle for it in items[first:]]
        assert ic == list(range(ic[0], ic[0] + len(ic))), "blocks on other slots saw a bubble"
        assert ic[0] < kl.hs_cycle and kl.done_cycle < ic[-1], "the load did not overlap the stream"
        # (a2) blocks of the slot presented during a load wait until it is done
        keys[0] = rng.randbytes(kb)
        kl = b.load_key(0, keys[0])
        while kl.hs_cycle < 0:
            await RisingEdge(dut.clk)
        waiters = [add(0) for _ in range(3)]
        for _ in range(20):
            add(rng.randrange(nslots))
        await b.drain()
        assert waiters[0].in_cycle == kl.hs_cycle + load_clocks(kb) + 1, \
            f"first block of the loaded slot accepted at {waiters[0].in_cycle - kl.hs_cycle} after the handshake"
        dut._log.info("AES-%d load into slot 0 while streaming: key_ready low %d clocks", kb * 8, locked)

    # (b) load slot 1 while blocks of slot 1 are still in flight: the load waits for them;
    # the blocks sent before use the old key, those after the new key.
    old1 = keys[1]
    before = [add(1) for _ in range(8)]
    while before[-1].in_cycle < 0:
        await RisingEdge(dut.clk)
    new1 = rng.randbytes(rng.choice(sizes))
    kl = b.load_key(1, new1)
    keys[1] = new1
    after = [add(1) for _ in range(4)] + [add(2) for _ in range(4)]
    await b.drain()
    assert all(it.ctx == expect(old1, it.data, it.dec) for it in before)
    last_before = max(it.in_cycle for it in before)
    # the slot is free once the last old-key block's last round key has been read (the
    # final stage reads it one clock ahead): LATENCY - 1 clocks after its acceptance
    assert kl.hs_cycle == last_before + LATENCY - 1, \
        f"key accepted {kl.hs_cycle - last_before} clocks after the last block of its slot"
    for it in after[:4]:
        assert it.in_cycle > kl.hs_cycle
    check_outputs(b, items, b.outs, "key load while streaming")


# ---------------------------------------------------------------------------------
class MctChain:
    """One CBC Monte Carlo chain (NIST AESAVS 6.4.x) over the records of one .rsp file
    section; the CBC chaining is done here, each block cipher call on the core."""

    def __init__(self, name: str, recs: list[dict], slot: int, tag: int):
        self.name, self.recs, self.slot, self.tag = name, recs, slot, tag
        self.ri = 0
        self.checked = 0

    def start_record(self, bench: Bench) -> None:
        r = self.recs[self.ri]
        self.key, self.dec = r["key"], r["dec"]
        self.iv = r["iv"]
        self.inp = r["ct"] if self.dec else r["pt"]
        self.exp = r["pt"] if self.dec else r["ct"]
        self.j = 0
        self.prev_out = None   # output block j-1 (CT[j-1] or PT[j-1])
        self.prev_in = None    # input block j-1 (for decryption chaining)
        self.kl = bench.load_key(self.slot, self.key)

    def next_item(self) -> Item:
        x = self.inp
        if not self.dec:
            x = bytes(a ^ c for a, c in zip(x, self.iv if self.j == 0 else self.prev_out))
        return Item(x, self.dec, self.slot, self.tag, self)

    def got(self, o: Out, bench: Bench) -> bool:
        """Consume the core's output of block j. Returns True when the chain has a next
        block to send now."""
        assert o.err == 0 and o.tag == self.tag, f"{self.name}: err {o.err} tag {o.tag}"
        if self.dec:
            out = bytes(a ^ c for a, c in zip(o.data, self.iv if self.j == 0 else self.prev_in))
            # PT[j] = D(CT[j]) ^ CT[j-1]; CT[j+1] = IV (j == 0) or PT[j-1]
            nxt = self.iv if self.j == 0 else self.prev_out
            self.prev_in = self.inp
        else:
            out = o.data
            # PT[j+1] = IV (j == 0) or CT[j-1]
            nxt = self.iv if self.j == 0 else self.prev_out
        self.prev_out, self.inp = out, nxt
        self.j += 1
        if self.j < 1000:
            return True
        assert out == self.exp, f"{self.name} record {self.ri}: got {out.hex()} expected {self.exp.hex()}"
        self.checked += 1
        self.ri += 1
        return False


@cocotb.test()
async def test_cbc_mct(dut):
    """NIST CBC Monte Carlo (CBCMCT128/192/256.rsp, encrypt and decrypt) with the CBC
    chaining in the testbench: all supported chains run interleaved, each in its own
    key slot with its own tag; each record re-keys its slot while the other chains
    keep streaming. AESIP_MCT_RECORDS records per chain."""
    b = Bench(dut, rng_for_test(dut))
    await b.start()
    nrec = int(os.environ.get("AESIP_MCT_RECORDS", "3"))
    chains: list[MctChain] = []
    for bits in (128, 192, 256):
        if NR[bits // 8] > NR_MAX:
            continue
        recs = vectors.aes_cbc_mct_records(bits)
        for dec in supported_dirs():
            sel = [r for r in recs if r["dec"] == dec][:nrec]
            assert len(sel) == nrec
            chains.append(MctChain(f"CBCMCT{bits}-{'dec' if dec else 'enc'}", sel, len(chains), len(chains)))
    assert len(chains) <= b.nslots, "not enough key slots for one slot per chain"

    active = set()

    def on_out(o: Out, it: Item) -> None:
        ch = it.ctx
        if ch.got(o, b):
            b.send(ch.next_item())
        elif ch.ri < len(ch.recs):
            ch.start_record(b)
            pending.append(ch)
        else:
            active.discard(ch)

    b.on_out = on_out
    pending: list[MctChain] = []
    for ch in chains:
        ch.start_record(b)
        pending.append(ch)
        active.add(ch)
    start = b.cycle
    while active:
        # a chain's first block goes in once its key load is done (sending it earlier
        # would hold up the other chains behind it on the single input stream)
        for ch in list(pending):
            if ch.kl.done_cycle >= 0:
                pending.remove(ch)
                b.send(ch.next_item())
        await RisingEdge(dut.clk)
        assert b.cycle - start < 200_000 * nrec * len(chains), "MCT timeout"
    total = sum(c.checked for c in chains)
    dut._log.info("CBC MCT: %d chains (%s) x %d records = %d records, %d blocks, in %d clocks",
                  len(chains), ", ".join(c.name for c in chains), nrec, total, total * 1000,
                  b.cycle - start)
    assert total == nrec * len(chains)


# ---------------------------------------------------------------------------------
@cocotb.test()
async def test_nist_ecb(dut):
    """Every NIST CAVP ECB KAT and MMT record (128/192/256, encrypt and decrypt), keys
    alternating over the slots. Records this build supports must match; blocks for an
    unsupported key size or direction must come out with err=1 and zero data."""
    b = Bench(dut, rng_for_test(dut))
    await b.start()
    recs = vectors.aes_ecb_records()
    items: list[Item] = []
    nok = 0
    held: dict[int, bytes] = {}   # slot -> key it holds (records often share a key)
    nloads = 0
    for i, r in enumerate(recs):
        slot = next((s for s, k in held.items() if k == r["key"]), None)
        if slot is None:
            slot = nloads % b.nslots
            nloads += 1
            held[slot] = r["key"]
            # blocks not yet accepted must not meet a key request for their slot
            await b.wait_accepted()
            b.load_key(slot, r["key"])
            await b.wait_keys()
        src, exp = (r["ct"], r["pt"]) if r["dec"] else (r["pt"], r["ct"])
        supported = key_supported(r["key"]) and dir_supported(r["dec"])
        for k in range(0, len(src), 16):
            ctx = (0, exp[k:k + 16]) if supported else (1, bytes(16))
            it = Item(src[k:k + 16], r["dec"], slot, len(items) % (2 ** b.tag_w), ctx)
            items.append(it)
            b.send(it)
            nok += supported
        if i % 64 == 63:
            await b.drain()
    await b.drain()
    check_outputs(b, items, b.outs, "ECB")
    dut._log.info("checked %d blocks from %d CAVP records (%d supported by this build), %d key loads",
                  len(items), len(recs), nok, nloads)
    assert nok > 0


@cocotb.test()
async def test_random_mixed(dut):
    """Random keys of every length (legal, unsupported, illegal), random slots and
    directions (including unsupported ones), random gaps and backpressure; every output
    checked (data or err=1 with zero data, tag, order, count)."""
    rng = rng_for_test(dut)
    b = Bench(dut, rng)
    await b.start()
    keys: dict[int, bytes | None] = {s: None for s in range(b.nslots)}
    items: list[Item] = []
    n = int(os.environ.get("AESIP_NBLOCKS", "2000"))
    # a few blocks every build supports first (an AES-128 key, a direction it has), so the
    # run has good blocks even when the random keys and directions miss a small build
    keys[0] = rng.randbytes(16)
    b.load_key(0, keys[0])
    await b.wait_keys()
    for _ in range(4):
        blk, dec = rng.randbytes(16), not dir_supported(False)
        it = Item(blk, dec, 0, rng.randrange(2 ** b.tag_w), expect(keys[0], blk, dec))
        items.append(it)
        b.send(it)
    await b.drain()
    while len(items) < n:
        # re-key one or two slots (sizes 16/24/32 mostly, sometimes an illegal length)
        for _ in range(rng.randint(1, 2)):
            s = rng.randrange(b.nslots)
            kb = rng.choice([16, 24, 32, 16, 24, 32, rng.randrange(0, 33)])
            keys[s] = rng.randbytes(kb)
            b.load_key(s, keys[s])
        await b.wait_keys()
        b.set_gaps(rng.choice([0.0, 0.3, 0.7]), rng.choice([0.0, 0.3, 0.7]))
        for _ in range(rng.randint(10, 100)):
            s = rng.randrange(b.nslots)
            blk, dec = rng.randbytes(16), rng.random() < 0.5
            it = Item(blk, dec, s, rng.randrange(2 ** b.tag_w), expect(keys[s], blk, dec))
            items.append(it)
            b.send(it)
        await b.drain()
    check_outputs(b, items, b.outs, "random")
    nerr = sum(it.ctx[0] for it in items)
    dut._log.info("checked %d random blocks (%d expected err=1)", len(items), nerr)
    assert 0 < nerr < len(items)


@cocotb.test()
async def test_latency_and_throughput(dut):
    """Latency is LATENCY clocks for every key size, direction, key and data value, and
    back-to-back blocks come out one per clock."""
    rng = rng_for_test(dut)
    b = Bench(dut, rng)
    await b.start()
    for kb in supported_sizes():
        key = rng.randbytes(kb)
        b.load_key(0, key)
        await b.wait_keys()
        for dec in supported_dirs():
            for blk in (bytes(16), b"\xff" * 16, rng.randbytes(16)):
                it = Item(blk, dec, 0, 1, expect(key, blk, dec))
                b.send(it)
                await b.drain()
                o = b.outs[-1]
                assert (o.err, o.data) == it.ctx
                assert o.cycle - it.in_cycle == LATENCY
        first = len(b.outs)
        items = [Item(x, d, 0, k % 256, expect(key, x, d))
                 for k in range(64) for x, d in [(rng.randbytes(16), rng.choice(supported_dirs()))]]
        for it in items:
            b.send(it)
        await b.drain()
        check_outputs(b, items, b.outs[first:], "back to back")
        oc = [o.cycle for o in b.outs[first:]]
        cpb = (oc[-1] - oc[0]) / (len(oc) - 1)
        dut._log.info("RESULT core=pipe params=%s key_bits=%d latency=%d cycles_per_block=%.2f",
                      P, kb * 8, LATENCY, cpb)
        assert cpb == 1.0


@cocotb.test()
async def test_bad_keys_and_zeroize(dut):
    """Unloaded, illegal-length and unsupported keys give err=1 and zero data. Zeroize in
    the middle of a back-to-back stream: blocks whose last AddRoundKey was done before it
    are correct, every other block (in flight or later) comes out with err=1 and zero
    data, in order with its tag; key_ready stays low during the scrub, and a reload
    works again."""
    rng = rng_for_test(dut)
    b = Bench(dut, rng)
    await b.start()
    items: list[Item] = []

    def add(slot, key, dec=None):
        blk = rng.randbytes(16)
        dec = rng.choice(supported_dirs()) if dec is None else dec
        it = Item(blk, dec, slot, len(items) % 256, expect(key, blk, dec))
        items.append(it)
        b.send(it)
        return it

    # after reset every slot is invalid and key_ready is low during the scrub
    await ClockCycles(dut.clk, SCRUB_CYCLES + 3)
    kr = b.key_ready_hist[:SCRUB_CYCLES + 2]
    assert kr == [0] * (SCRUB_CYCLES - 1) + [1] * 3, f"key_ready after reset: {kr}"
    add(0, None)
    for bad in (0, 1, 8, 15, 17, 20, 31):
        b.load_key(0, rng.randbytes(bad))
        await b.wait_keys()
        add(0, None, False)
        add(0, None, True)
    for kb in (16, 24, 32):
        key = rng.randbytes(kb)
        b.load_key(1, key)
        await b.wait_keys()
        add(1, key, False)
        add(1, key, True)
        # (a key request for a slot holds back that slot's blocks not yet accepted)
        await b.drain()
    check_outputs(b, items, b.outs, "bad keys")

    # zeroize during a stream
    keys = {s: rng.randbytes(rng.choice(supported_sizes())) for s in range(b.nslots)}
    for s, k in keys.items():
        b.load_key(s, k)
    await b.wait_keys()
    first = len(items)
    stream = [add(rng.randrange(b.nslots), None) for _ in range(3 * LATENCY)]
    await ClockCycles(dut.clk, LATENCY + 3)
    b.zeroize_next()
    await b.drain()
    z = b.zeroize_cycles[-1]
    for it in stream:
        # unaffected iff the block reached the output register at or before the zeroize edge
        if it.in_cycle <= z - LATENCY + 1:
            it.ctx = expect(keys[it.slot], it.data, it.dec)
        else:
            it.ctx = (1, bytes(16))
    check_outputs(b, items[first:], b.outs[first:], "zeroize")
    assert any(it.ctx[0] == 0 for it in stream) and any(it.ctx[0] == 1 and it.in_cycle < z for it in stream)
    kr = b.key_ready_hist[z - 1:z + SCRUB_CYCLES]
    assert kr == [0] * (SCRUB_CYCLES + 1), f"key_ready during zeroize and scrub: {kr}"
    # the output buffer's RAM is wiped (2**DAW clocks), and every block after the zeroize
    # was written with zero data: no result of the old keys is left in it
    await ClockCycles(dut.clk, 2 ** (len(dut.u_obuf.rd_ptr) - 1))
    left = obuf_ram_nonzero(dut.u_obuf)
    assert not left, f"output buffer RAM not wiped by zeroize: {left}"
    # every slot is empty now; then a reload works
    for s in range(b.nslots):
        add(s, None)
    await b.drain()
    key = rng.randbytes(rng.choice(supported_sizes()))
    b.load_key(b.nslots - 1, key)
    await b.wait_keys()
    for dec in (False, True):
        add(b.nslots - 1, key, dec)
    await b.drain()
    check_outputs(b, items, b.outs, "after zeroize")


# ------------------------------------------------------------------------ pytest entry
SLOT_SWITCH = ["test_slot_switch_every_block"]
VARIANT = ["test_nist_ecb", "test_random_mixed", "test_latency_and_throughput", "test_bad_keys_and_zeroize"]

# simulator, parameters, generic tests too, own tests, environment (test sizes).
# The generic tests on the default build with both S-boxes (every CAVP ECB record with
# the table S-boxes on Verilator, every 7th elsewhere), then this file's tests:
#   SLOT_W=2: keys of different sizes switching every block, key loads while streaming,
#     zeroize in a stream;
#   SLOT_W=3 ROUND_REGS=3 composite S-boxes: interleaved NIST CBC Monte Carlo chains
#     (enc/dec x 128/192/256), key loads while streaming;
#   NR_MAX=10 DIRECTION=0 ROUND_REGS=4 (chan-aes's core; with IN_REG=1 below, the
#     aes128-enc synthesis variant) and DIRECTION=1 ROUND_REGS=4: the generic tests
#     rewritten for a core that supports only part of the key sizes/directions
#     (unsupported -> err=1);
#   IN_REG=1 (the input register): the aes128-enc build, the full-size core on Icarus,
#     and the 7-register deep pipeline (below);
#   SLOT_W=2 ROUND_REGS=4: the full-size table build (half-table S-boxes, both
#     directions, bypassed stages): key sizes switching, zeroize;
#   one small Icarus run (SLOT_W=2, NR_MAX=12, ROUND_REGS=2);
#   SBOX_IMPL=2 ROUND_REGS=4 (block-RAM S-boxes): full size with the generic tests and
#     key changes (on Icarus with IN_REG=1: the bram / bram-ir synthesis variants), and
#     NR_MAX=10 DIRECTION=0 (aes128-enc-bram) on Icarus; DIRECTION=1 (decrypt only);
#   the deep pipeline, ROUND_REGS 5 .. 7 with composite-field S-boxes (below).
CASES = [
    ("verilator", {"SBOX_IMPL": 0}, True, [], {"AESIP_KAT": "all", "AESIP_NRAND": "600"}),
    # composite-field S-boxes (SBOX_IMPL=1) on the full-size core: the ROUND_REGS 3 and 5
    # cases below (both directions, every key size); the S-box itself is checked
    # exhaustively in tb/common/test_aes_sbox.py
    ("icarus", {"SBOX_IMPL": 0}, True, [], {"AESIP_KAT": "some", "AESIP_NRAND": "150"}),
    ("verilator", {"SLOT_W": 2}, False,
     SLOT_SWITCH + ["test_key_load_while_streaming", "test_bad_keys_and_zeroize"], {"AESIP_NBLOCKS": "3000"}),
    ("verilator", {"SBOX_IMPL": 1, "SLOT_W": 3, "ROUND_REGS": 3}, False,
     ["test_cbc_mct", "test_key_load_while_streaming"] + SLOT_SWITCH,
     {"AESIP_MCT_RECORDS": "2", "AESIP_NBLOCKS": "500"}),
    ("verilator", {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 4}, False, VARIANT, {"AESIP_NBLOCKS": "1500"}),
    ("verilator", {"DIRECTION": 1, "ROUND_REGS": 4}, False, VARIANT, {"AESIP_NBLOCKS": "1500"}),
    # the input register (IN_REG=1, one clock more latency): the aes128-enc build, and the
    # full-size core on Icarus with key sizes switching every block, key loads while
    # streaming (a block in the input register holds its slot's load off) and zeroize
    ("verilator", {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 4, "IN_REG": 1}, False, VARIANT,
     {"AESIP_NBLOCKS": "1500"}),
    ("icarus", {"SLOT_W": 2, "IN_REG": 1}, False,
     SLOT_SWITCH + ["test_key_load_while_streaming", "test_bad_keys_and_zeroize"], {"AESIP_NBLOCKS": "300"}),
    # the full-size table build with 4 registers per round (the `r4` synthesis variant):
    # half-table S-boxes in both directions, stages bypassed for AES-128/192 keys
    ("verilator", {"SLOT_W": 2, "ROUND_REGS": 4}, False,
     SLOT_SWITCH + ["test_bad_keys_and_zeroize"], {"AESIP_NBLOCKS": "1500"}),
    ("icarus", {"SLOT_W": 2, "NR_MAX": 12, "ROUND_REGS": 2}, False, SLOT_SWITCH, {"AESIP_NBLOCKS": "200"}),
    # block-RAM S-boxes (SBOX_IMPL=2, aes_sbox_bram's simulation model): the full-size core
    # (generic tests, key change every block, key loads while streaming, zeroize; on
    # Icarus with the input register, the bram-ir synthesis variant) and the AES-128
    # encrypt core (on Icarus; the Verilator run of the same build repeated it)
    ("verilator", {"SBOX_IMPL": 2, "ROUND_REGS": 4, "SLOT_W": 2}, True,
     SLOT_SWITCH + ["test_key_load_while_streaming", "test_bad_keys_and_zeroize"],
     {"AESIP_KAT": "some", "AESIP_NRAND": "600", "AESIP_NBLOCKS": "1500"}),
    ("icarus", {"SBOX_IMPL": 2, "ROUND_REGS": 4, "SLOT_W": 2, "IN_REG": 1}, True,
     SLOT_SWITCH + ["test_key_load_while_streaming", "test_bad_keys_and_zeroize"],
     {"AESIP_KAT": "some", "AESIP_NRAND": "100", "AESIP_NBLOCKS": "300"}),
    ("icarus", {"SBOX_IMPL": 2, "NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 4}, False, VARIANT,
     {"AESIP_NBLOCKS": "300"}),
    # decrypt-only block-RAM build: InvMixColumns from the RAMs' second byte (X4) alone
    ("verilator", {"SBOX_IMPL": 2, "DIRECTION": 1, "ROUND_REGS": 4}, False, VARIANT,
     {"AESIP_NBLOCKS": "1500"}),
    # block-RAM S-boxes with 5 registers per round (a register between MixColumns and
    # AddRoundKey): the full-size core (the bram-r5 synthesis variant) with the generic
    # tests, key sizes switching every block, key loads while streaming (70 positions
    # whose slots hold a load off) and zeroize; AES-128 encryption on Icarus
    ("verilator", {"SBOX_IMPL": 2, "ROUND_REGS": 5, "SLOT_W": 2}, True,
     SLOT_SWITCH + ["test_key_load_while_streaming", "test_bad_keys_and_zeroize",
                    "test_latency_and_throughput"],
     {"AESIP_KAT": "some", "AESIP_NRAND": "300", "AESIP_NBLOCKS": "1000"}),
    ("icarus", {"SBOX_IMPL": 2, "NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 5}, False, VARIANT,
     {"AESIP_NBLOCKS": "300"}),
    # the deep pipeline: ROUND_REGS 5 .. 7 (registers inside the composite-field S-boxes);
    # 14 x 5 = 70 registers (key loads wait for the output buffer's wipe), bypassed stages
    # for AES-128/192, both directions; AES-128 encryption at 7 per round (the
    # aes128-enc-comp-r7 synthesis variant's parameters) with the input register; Icarus at 6
    ("verilator", {"SBOX_IMPL": 1, "SLOT_W": 2, "ROUND_REGS": 5}, False,
     SLOT_SWITCH + ["test_bad_keys_and_zeroize", "test_latency_and_throughput"], {"AESIP_NBLOCKS": "1500"}),
    ("verilator", {"SBOX_IMPL": 1, "NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 7, "IN_REG": 1}, False,
     VARIANT, {"AESIP_NBLOCKS": "1500"}),
    ("icarus", {"SBOX_IMPL": 1, "SLOT_W": 2, "NR_MAX": 12, "ROUND_REGS": 6}, False,
     SLOT_SWITCH + ["test_bad_keys_and_zeroize"], {"AESIP_NBLOCKS": "200"}),
]


@pytest.mark.parametrize("simulator,parameters,generic,own,env",
                         [pytest.param(*c, id=sim.case_id(c[0], c[1])) for c in CASES])
def test_aes_pipe(simulator, parameters, generic, own, env):
    run_core("pipe", __name__, simulator, parameters, generic, own, env)
