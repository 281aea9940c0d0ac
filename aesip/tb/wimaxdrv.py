# SPDX-License-Identifier: Apache-2.0
"""Driver for the IEEE 802.16e front end on a mode engine (rtl/proto/wimax_top.v,
docs/wimax.md): cocotbext-axi sources and sinks on its sideband, PDU, output and status
streams, and the engine's key port. It drives ports only; no cryptography."""
from __future__ import annotations

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from aesip import wimax_iface
from aesip.tb.coredrv import load_key, random_pause, set_pause


def pdu_frame(pdu: bytes, keep: list | None = None) -> AxiStreamFrame:
    """The PDU as one AXI4-Stream frame (tkeep explicit). An empty PDU is one beat with
    tkeep = 0 (the front end reports SHORT)."""
    if not pdu:
        return AxiStreamFrame(tdata=b"\0", tkeep=[0])
    return AxiStreamFrame(tdata=pdu, tkeep=keep if keep is not None else [1] * len(pdu))


class WimaxDriver:
    def __init__(self, dut, period_ns: int = 10):
        self.dut = dut
        self.period_ns = period_ns
        self.cmd = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_cmd"), dut.clk, dut.rst)
        self.src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.out = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
        self.sts = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis_sts"), dut.clk, dut.rst)
        for x in (self.cmd, self.src, self.out, self.sts):
            x.log.setLevel("WARNING")

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

    async def load_key(self, slot: int, key: bytes) -> None:
        await load_key(self.dut, slot, key)

    def set_gaps(self, rng: random.Random, p_gap: float = 0.0, p_bp: float = 0.0) -> None:
        for s in (self.cmd, self.src):
            set_pause(s, random_pause(rng, p_gap) if p_gap > 0 else None)
        for s in (self.out, self.sts):
            set_pause(s, random_pause(rng, p_bp) if p_bp > 0 else None)

    async def submit(self, op: str, slot: int, pn: int, pdu: bytes, *, rsvd: int = 0,
                     keep: list | None = None) -> None:
        """Queue one PDU: its sideband beat and its frame (`rsvd`: raw bits ORed into the
        sideband beat, for bad-input tests; `keep`: explicit tkeep list)."""
        beat = int.from_bytes(wimax_iface.pack_command(op=wimax_iface.OPS[op], slot=slot, pn=pn), "little")
        beat |= rsvd
        await self.cmd.send(AxiStreamFrame(tdata=beat.to_bytes(wimax_iface.CMD_W // 8, "little")))
        await self.src.send(pdu_frame(pdu, keep))

    async def status(self) -> dict:
        """The next status beat's fields (pn, err, eng_err, frame) and its cycle time."""
        f = await self.sts.recv()
        d = wimax_iface.unpack_status(f.tdata)
        d["t"] = f.sim_time_end
        return d

    async def output(self) -> tuple[bytes, int]:
        """The next output frame and the tuser of its last beat."""
        f = await self.out.recv()
        tu = f.tuser if isinstance(f.tuser, int) else (f.tuser[-1] if f.tuser else 0)
        return bytes(f.tdata), int(tu or 0)
