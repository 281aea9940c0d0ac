# SPDX-License-Identifier: Apache-2.0
"""Driver for the IEEE 802.15.4 CCM* front end on a mode engine (rtl/proto/wpan_top.v,
docs/wpan.md): aesip.tb.framedrv.FrameDriver with the wpan sideband. It drives ports
only; no cryptography."""
from __future__ import annotations

from aesip import wpan_iface
from aesip.tb.framedrv import FrameDriver


class WpanDriver(FrameDriver):
    def __init__(self, dut, period_ns: int = 10):
        super().__init__(dut, wpan_iface, period_ns)

    async def submit(self, op: str, slot: int, frame: bytes, src_addr: bytes | None = None, *,
                     rsvd: int = 0, keep: list | None = None) -> None:
        """Queue one frame: its sideband beat (`src_addr`: the 8-byte extended source
        address, most significant byte first, or None) and the frame."""
        src = 0 if src_addr is None else int.from_bytes(src_addr, "big")
        await self.submit_frame(op, frame, rsvd=rsvd, keep=keep, slot=slot,
                                src_valid=int(src_addr is not None), src_addr=src)
