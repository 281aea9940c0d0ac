# SPDX-License-Identifier: Apache-2.0
"""Driver for the IEEE 802.11 CCMP front end on a mode engine (rtl/proto/ccmp_top.v,
docs/ccmp.md): aesip.tb.framedrv.FrameDriver with the ccmp sideband. It drives ports
only; no cryptography."""
from __future__ import annotations

from aesip import ccmp_iface
from aesip.tb.framedrv import FrameDriver


class CcmpDriver(FrameDriver):
    def __init__(self, dut, period_ns: int = 10):
        super().__init__(dut, ccmp_iface, period_ns)

    async def submit(self, op: str, slot: int, pn: int, mpdu: bytes, *, key_id: int = 0, rsvd: int = 0,
                     keep: list | None = None, frame_len: int = 0) -> None:
        """Queue one MPDU: its sideband beat and its frame (`frame_len`: the sideband's
        declared length, 0 = not given; given, the MPDU runs cut-through)."""
        await self.submit_frame(op, mpdu, rsvd=rsvd, keep=keep, slot=slot, pn=pn, key_id=key_id,
                                frame_len=frame_len)
