# SPDX-License-Identifier: Apache-2.0
"""Driver for the IEEE 802.16e front end on a mode engine (rtl/proto/wimax_top.v,
docs/wimax.md): aesip.tb.framedrv.FrameDriver with the wimax sideband. It drives ports
only; no cryptography."""
from __future__ import annotations

from aesip import wimax_iface
from aesip.tb.framedrv import FrameDriver, frame_of

pdu_frame = frame_of


class WimaxDriver(FrameDriver):
    def __init__(self, dut, period_ns: int = 10):
        super().__init__(dut, wimax_iface, period_ns)

    async def submit(self, op: str, slot: int, pn: int, pdu: bytes, *, rsvd: int = 0,
                     keep: list | None = None) -> None:
        """Queue one PDU: its sideband beat and its frame (`rsvd`: raw bits ORed into the
        sideband beat, for bad-input tests; `keep`: explicit tkeep list)."""
        await self.submit_frame(op, pdu, rsvd=rsvd, keep=keep, slot=slot, pn=pn)
