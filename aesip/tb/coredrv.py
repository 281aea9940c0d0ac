# SPDX-License-Identifier: Apache-2.0
"""Driver for the common block-cipher core interface (aes_iter32, aes_iter128, aes_pipe).

See docs/cores.md for the interface. Blocks go in and out through cocotbext-axi
AXI4-Stream models (one beat per block, tuser carries {tag, slot, dec} in and {tag, err}
out); the key-load port is a plain valid/ready handshake driven here.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource


def dut_params(dut, names) -> dict[str, int]:
    """Parameters of the build under test, read from the DUT itself (parameters are
    visible to cocotb on Icarus, and on Verilator through the --public-flat-rw that
    cocotb's runner passes)."""
    return {n: int(getattr(dut, n).value) for n in names}


def tuser_in(slot_w: int, dec: bool, slot: int = 0, tag: int = 0) -> int:
    """s_axis_tuser = {tag, slot, dec} (docs/cores.md)."""
    return (tag << (slot_w + 1)) | (slot << 1) | int(bool(dec))


def drive_key(dut, slot: int, key: bytes | None) -> None:
    """Present a key-load request on the key port (None: no request)."""
    dut.key_valid.value = int(key is not None)
    if key is not None:
        dut.key_slot.value = slot
        dut.key_bytes.value = len(key)
    dut.key_data.value = 0 if key is None else int.from_bytes(key[:32].ljust(32, b"\0"), "little")


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


async def load_key(dut, slot: int, key: bytes, wait_done: bool = True) -> None:
    """Drive the key-load port (key_valid/key_ready/key_slot/key_bytes/key_data) shared by
    the cores and the mode engine; optionally wait until the expansion has finished."""
    if len(key) > 32:
        raise ValueError("key longer than 32 bytes cannot be encoded on key_data")
    dut.key_slot.value = slot
    dut.key_bytes.value = len(key)
    dut.key_data.value = int.from_bytes(key.ljust(32, b"\0"), "little")
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
        self.period_ns = period_ns
        self.cycle = 0
        self.in_cycles: list[int] = []   # cycle of each input handshake, in order
        self.out_cycles: list[int] = []  # cycle of each output handshake, in order
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
        self.source.log.setLevel("WARNING")
        self.sink.log.setLevel("WARNING")

    async def start(self) -> None:
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk, self.period_ns, unit="ns").start())
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

    async def load_key(self, slot: int, key: bytes, wait_done: bool = True) -> None:
        """Load `key` (up to 32 bytes; its length goes on key_bytes, the core checks it)
        into key slot `slot`."""
        await load_key(self.dut, slot, key, wait_done)

    async def zeroize(self) -> None:
        self.dut.zeroize.value = 1
        await RisingEdge(self.dut.clk)
        self.dut.zeroize.value = 0

    def tuser_in(self, dec: bool, slot: int = 0, tag: int = 0) -> int:
        return tuser_in(self.slot_w, dec, slot, tag)

    async def send(self, block: bytes, dec: bool, slot: int = 0, tag: int = 0) -> None:
        assert len(block) == 16
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
