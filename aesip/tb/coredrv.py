# SPDX-License-Identifier: Apache-2.0
"""Drivers for the common block-cipher core interface (aes_iter32, aes_iter128, aes_pipe).

See docs/cores.md for the interface. `CoreDriver`: blocks go in and out through
cocotbext-axi AXI4-Stream models (one beat per block, tuser carries {tag, slot, dec} in
and {tag, err} out); the key-load port is a plain valid/ready handshake driven here.
`CycleBench`: the same ports driven cycle by cycle for the cycle-exact tests. Both use
the port helpers below (`tuser_in`, `drive_key`, `load_key`) and `dut_params`.
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource


def dut_params(dut, names) -> dict[str, int]:
    """Parameters of the build under test, read from the DUT itself (parameters are
    visible to cocotb on Icarus, and on Verilator through the --public-flat-rw that
    cocotb's runner passes)."""
    return {n: int(getattr(dut, n).value) for n in names}


def tuser_in(slot_w: int, dec: bool, slot: int = 0, tag: int = 0) -> int:
    """s_axis_tuser = {tag, slot, dec} (docs/cores.md)."""
    return (tag << (slot_w + 1)) | (slot << 1) | int(bool(dec))


def key_port_bytes(dut) -> int:
    """Bytes of the key_data port (32 on the AES cores and engines, 24 on the TDEA cores)."""
    return len(dut.key_data) // 8


def drive_key(dut, slot: int, key: bytes | None) -> None:
    """Present a key-load request on the key port (None: no request)."""
    dut.key_valid.value = int(key is not None)
    kb = key_port_bytes(dut)
    if key is not None:
        dut.key_slot.value = slot
        dut.key_bytes.value = len(key)
    dut.key_data.value = 0 if key is None else int.from_bytes(key[:kb].ljust(kb, b"\0"), "little")


async def clock_and_reset(dut, period_ns: int) -> None:
    """Start the clock, hold rst for 5 clocks with zeroize low and the key port idle, and
    return one clock after rst falls (the cores, the engines and the front-end tops share
    these ports)."""
    cocotb.start_soon(Clock(dut.clk, period_ns, unit="ns").start())
    dut.rst.value = 1
    dut.zeroize.value = 0
    dut.key_valid.value = 0
    dut.key_slot.value = 0
    dut.key_bytes.value = 0
    dut.key_data.value = 0
    for _ in range(5):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)


@dataclass
class BlockOut:
    data: bytes
    tag: int
    err: int


def random_pause(rng: random.Random, p: float):
    """Pause generator for cocotbext-axi: True (pause) with probability p each cycle."""
    while True:
        yield rng.random() < p


def set_pause(model, generator) -> None:
    """Install a pause generator on a cocotbext-axi source/sink, or remove it. Removing
    one leaves the model's last pause value in place (it may stay paused forever), so
    clear it explicitly."""
    model.set_pause_generator(generator)
    if generator is None:
        model.pause = False


async def load_key(dut, slot: int, key: bytes, wait_done: bool = True,
                   key_bytes: int | None = None) -> None:
    """Drive the key-load port (key_valid/key_ready/key_slot/key_bytes/key_data) shared by
    the cores and the mode engine; optionally wait until the expansion has finished.
    `key_bytes` overrides the length put on key_bytes (default len(key)), for lengths
    the key_data port cannot hold."""
    kb = key_port_bytes(dut)
    if len(key) > kb:
        raise ValueError(f"key longer than {kb} bytes cannot be encoded on key_data")
    dut.key_slot.value = slot
    dut.key_bytes.value = len(key) if key_bytes is None else key_bytes
    dut.key_data.value = int.from_bytes(key.ljust(kb, b"\0"), "little")
    dut.key_valid.value = 1
    while True:
        await RisingEdge(dut.clk)
        if int(dut.key_ready.value):
            break
    dut.key_valid.value = 0
    dut.key_data.value = 0
    if wait_done:
        await ReadOnly()
        while not int(dut.key_ready.value):
            await RisingEdge(dut.clk)
            await ReadOnly()
        await RisingEdge(dut.clk)


class CoreDriver:
    def __init__(self, dut, period_ns: int = 10):
        self.dut = dut
        self.slot_w = len(dut.key_slot)
        self.tag_w = len(dut.m_axis_tuser) - 1
        self.block_bytes = len(dut.s_axis_tdata) // 8   # 16 (AES) or 8 (TDEA)
        self.period_ns = period_ns
        self.cycle = 0
        self.in_cycles: list[int] = []   # cycle of each input handshake, in order
        self.out_cycles: list[int] = []  # cycle of each output handshake, in order
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
        self.source.log.setLevel("WARNING")
        self.sink.log.setLevel("WARNING")

    async def start(self) -> None:
        await clock_and_reset(self.dut, self.period_ns)
        cocotb.start_soon(self._monitor())

    async def _monitor(self) -> None:
        dut = self.dut
        while True:
            await RisingEdge(dut.clk)
            self.cycle += 1
            await ReadOnly()
            if int(dut.s_axis_tvalid.value) and int(dut.s_axis_tready.value):
                self.in_cycles.append(self.cycle)
            if int(dut.m_axis_tvalid.value) and int(dut.m_axis_tready.value):
                self.out_cycles.append(self.cycle)

    def set_gaps(self, rng: random.Random, p_gap: float = 0.0, p_backpressure: float = 0.0) -> None:
        """Random input gaps (source pauses) and output backpressure (sink pauses)."""
        set_pause(self.source, random_pause(rng, p_gap) if p_gap > 0 else None)
        set_pause(self.sink, random_pause(rng, p_backpressure) if p_backpressure > 0 else None)
        # cocotbext-axi keeps the last `pause` value when its generator is removed
        if p_gap <= 0:
            self.source.pause = False
        if p_backpressure <= 0:
            self.sink.pause = False

    async def load_key(self, slot: int, key: bytes, wait_done: bool = True,
                       key_bytes: int | None = None) -> None:
        """Load `key` (up to the key_data width; its length, or `key_bytes`, goes on
        key_bytes, the core checks it) into key slot `slot`."""
        await load_key(self.dut, slot, key, wait_done, key_bytes)

    async def zeroize(self) -> None:
        self.dut.zeroize.value = 1
        await RisingEdge(self.dut.clk)
        self.dut.zeroize.value = 0

    def tuser_in(self, dec: bool, slot: int = 0, tag: int = 0) -> int:
        return tuser_in(self.slot_w, dec, slot, tag)

    async def send(self, block: bytes, dec: bool, slot: int = 0, tag: int = 0) -> None:
        assert len(block) == self.block_bytes
        await self.source.send(AxiStreamFrame(tdata=block, tuser=self.tuser_in(dec, slot, tag)))

    async def recv(self) -> BlockOut:
        f = await self.sink.recv()
        tuser = f.tuser if isinstance(f.tuser, int) else f.tuser[0]
        return BlockOut(bytes(f.tdata), tuser >> 1, tuser & 1)

    async def run_blocks(self, items: list[tuple[bytes, bool, int, int]]) -> list[BlockOut]:
        """Send (block, dec, slot, tag) items while collecting as many outputs."""

        async def feed():
            for blk, dec, slot, tag in items:
                await self.send(blk, dec, slot, tag)

        cocotb.start_soon(feed())
        return [await self.recv() for _ in items]


@dataclass
class KeyLoad:
    """One key-load request of a CycleBench and the cycles it saw."""
    slot: int
    key: bytes
    hs_cycle: int = -1          # cycle of the key_valid && key_ready handshake
    done_cycle: int = -1        # first later cycle with key_ready high again


class CycleBench:
    """Cycle-level driver of the common core interface, for the tests that check exact
    cycle numbers (tb/cores/test_aes_iter128.py, test_aes_pipe.py).

    One coroutine, one pass per clock: right after each rising edge it drives the next
    queued block (held until accepted; optional random input gaps), m_axis_tready
    (optional random backpressure), the next queued key load (one at a time: the next
    is presented once key_ready has come back after the previous handshake) and
    zeroize; then, in ReadOnly, it records key_ready and calls the test bench's hooks
    `sample_output` (output side), `on_key_accepted` (key handshake) and `sample_input`
    (input side), which record and check the block handshakes. A handshake seen in cycle c completes at the edge closing c; cycle
    numbers count rising edges since reset was released. Blocks are objects with
    data/dec/slot/tag attributes. (The generic tests use CoreDriver, on cocotbext-axi.)"""

    def __init__(self, dut, rng: random.Random):
        self.dut = dut
        self.rng = rng              # input gaps and output backpressure
        self.slot_w = len(dut.key_slot)
        self.tag_w = len(dut.m_axis_tuser) - 1
        self.nslots = 2 ** self.slot_w
        self.cycle = 0
        self.tx = deque()           # blocks waiting to be presented
        self.cur = None             # block presented, not yet accepted
        self.keyq: deque[KeyLoad] = deque()
        self.kcur: KeyLoad | None = None    # key load presented
        self.kwait: KeyLoad | None = None   # key accepted, key_ready not back yet
        self.zeroize_at = -1
        self.zeroize_cycles: list[int] = []
        self.p_gap = 0.0
        self.p_bp = 0.0
        self.key_ready_hist: list[int] = []

    async def start(self, reset_cycles: int = 3) -> None:
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        for sig in (dut.zeroize, dut.key_valid, dut.key_slot, dut.key_bytes, dut.key_data,
                    dut.s_axis_tvalid, dut.s_axis_tdata, dut.s_axis_tuser):
            sig.value = 0
        dut.m_axis_tready.value = 1
        await ClockCycles(dut.clk, reset_cycles)
        dut.rst.value = 0
        cocotb.start_soon(self._run())

    # ---- stimulus ------------------------------------------------------------------
    def set_gaps(self, p_gap: float = 0.0, p_bp: float = 0.0) -> None:
        self.p_gap, self.p_bp = p_gap, p_bp

    def send(self, item) -> None:
        self.tx.append(item)

    def load_key(self, slot: int, key: bytes) -> KeyLoad:
        kl = KeyLoad(slot, key)
        self.keyq.append(kl)
        return kl

    def zeroize_next(self) -> None:
        """Pulse zeroize in the next cycle."""
        self.zeroize_at = self.cycle + 1

    async def wait_keys(self) -> None:
        """Until every queued key load has been accepted and key_ready is back."""
        while self.keyq or self.kcur is not None or self.kwait is not None:
            await RisingEdge(self.dut.clk)
        await RisingEdge(self.dut.clk)

    # ---- the clock loop --------------------------------------------------------------
    def sample_output(self, c: int, zero: bool, key_ready: int) -> None:
        """Called in ReadOnly of every cycle c, before the key handshakes: override."""

    def on_key_accepted(self, kl: KeyLoad, c: int) -> None:
        """Called when a key load's handshake happens in cycle c: override if needed."""

    def sample_input(self, c: int, zero: bool, key_ready: int) -> None:
        """Called in ReadOnly of every cycle c, after the key handshakes: override."""

    async def _run(self) -> None:
        dut = self.dut
        while True:
            await RisingEdge(dut.clk)
            self.cycle += 1
            c = self.cycle
            if self.cur is None and self.tx and not (self.p_gap and self.rng.random() < self.p_gap):
                self.cur = self.tx.popleft()
            if self.cur is not None:
                it = self.cur
                dut.s_axis_tvalid.value = 1
                dut.s_axis_tdata.value = int.from_bytes(it.data, "little")
                dut.s_axis_tuser.value = tuser_in(self.slot_w, it.dec, it.slot, it.tag)
            else:
                dut.s_axis_tvalid.value = 0
            dut.m_axis_tready.value = 0 if (self.p_bp and self.rng.random() < self.p_bp) else 1
            if self.kcur is None and self.kwait is None and self.keyq:
                self.kcur = self.keyq.popleft()
            if self.kcur is not None:
                drive_key(dut, self.kcur.slot, self.kcur.key)
            else:
                drive_key(dut, 0, None)
            zero = self.zeroize_at == c
            dut.zeroize.value = int(zero)
            if zero:
                self.zeroize_cycles.append(c)

            await ReadOnly()
            kr = int(dut.key_ready.value)
            self.key_ready_hist.append(kr)
            self.sample_output(c, zero, kr)
            if self.kwait is not None and kr:
                self.kwait.done_cycle = c
                self.kwait = None
            if self.kcur is not None and kr:
                kl = self.kcur
                kl.hs_cycle = c
                self.kcur = None
                self.kwait = kl
                self.on_key_accepted(kl, c)
            self.sample_input(c, zero, kr)


def obuf_ram_nonzero(obuf, bank_aw: int = 5, slice_w: int = 32) -> list[str]:
    """Names of the data-RAM words of a pipe_obuf (rtl/common/pipe_obuf.v, parameters
    BANK_AW / SLICE_W as given) that do not read zero. The RAM is built of banks
    g_bank[b] of slices g_slice[s], each a `mem` array; the counts follow from the widths
    of `rd_ptr` (DAW + 1) and `s_data` (DW). An empty list: the whole data RAM reads zero."""
    daw, dw = len(obuf.rd_ptr) - 1, len(obuf.s_data)
    nb, ns = 2 ** (daw - min(bank_aw, daw)), -(-dw // slice_w)
    bad = []
    for b in range(nb):
        for s in range(ns):
            mem = obuf.g_bank[b].g_slice[s].mem
            for i in range(2 ** min(bank_aw, daw)):
                if int(mem[i].value) != 0:
                    bad.append(f"{obuf._path}.g_bank[{b}].g_slice[{s}].mem[{i}]")
                    break
    return bad
