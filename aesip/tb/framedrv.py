# SPDX-License-Identifier: Apache-2.0
"""Driver for a protocol front end on a mode engine (rtl/proto/*_top.v: wimax_top,
ccmp_top): cocotbext-axi sources and sinks on its sideband, frame input, output and status
streams, and the engine's key port. The sideband and status layouts come from the
front end's generated interface module (aesip.wimax_iface, aesip.ccmp_iface). It drives
ports only; no cryptography."""
from __future__ import annotations

import random
from types import ModuleType

from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from aesip.tb.coredrv import clock_and_reset, load_key, random_pause, set_pause


def frame_of(data: bytes, keep: list | None = None) -> AxiStreamFrame:
    """A frame as one AXI4-Stream frame (tkeep explicit). An empty frame is one beat with
    tkeep = 0 (the front ends report SHORT)."""
    if not data:
        return AxiStreamFrame(tdata=b"\0", tkeep=[0])
    return AxiStreamFrame(tdata=data, tkeep=keep if keep is not None else [1] * len(data))


class FrameDriver:
    def __init__(self, dut, iface: ModuleType, period_ns: int = 10):
        self.dut = dut
        self.iface = iface
        self.period_ns = period_ns
        self.cmd = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_cmd"), dut.clk, dut.rst)
        self.src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.out = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
        self.sts = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis_sts"), dut.clk, dut.rst)
        for x in (self.cmd, self.src, self.out, self.sts):
            x.log.setLevel("WARNING")

    async def start(self) -> None:
        await clock_and_reset(self.dut, self.period_ns)

    async def load_key(self, slot: int, key: bytes) -> None:
        await load_key(self.dut, slot, key)

    def set_gaps(self, rng: random.Random, p_gap: float = 0.0, p_bp: float = 0.0) -> None:
        for s in (self.cmd, self.src):
            set_pause(s, random_pause(rng, p_gap) if p_gap > 0 else None)
        for s in (self.out, self.sts):
            set_pause(s, random_pause(rng, p_bp) if p_bp > 0 else None)

    async def submit_frame(self, op: str, frame: bytes, *, rsvd: int = 0, keep: list | None = None,
                           **fields) -> None:
        """Queue one frame: its sideband beat (`fields` of the command beat, `op` by its
        name) and the frame (`rsvd`: raw bits ORed into the sideband beat, for bad-input
        tests; `keep`: explicit tkeep list)."""
        f = self.iface
        beat = int.from_bytes(f.pack_command(op=f.OPS[op], **fields), "little") | rsvd
        await self.cmd.send(AxiStreamFrame(tdata=beat.to_bytes(f.CMD_W // 8, "little")))
        await self.src.send(frame_of(frame, keep))

    async def status(self) -> dict:
        """The next status beat's fields and its cycle time ("t")."""
        fr = await self.sts.recv()
        d = self.iface.unpack_status(fr.tdata)
        d["t"] = fr.sim_time_end
        return d

    async def output(self) -> tuple[bytes, int]:
        """The next output frame and the tuser of its last beat."""
        fr = await self.out.recv()
        tu = fr.tuser if isinstance(fr.tuser, int) else (fr.tuser[-1] if fr.tuser else 0)
        return bytes(fr.tdata), int(tu or 0)
