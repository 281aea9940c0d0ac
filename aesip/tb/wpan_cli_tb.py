# SPDX-License-Identifier: Apache-2.0
"""cocotb module that `aesip run` runs inside the simulator for the IEEE 802.15.4 CCM*
front end (rtl/proto/wpan_top.v, docs/wpan.md): the shared executor aesip.tb.frame_cli on
aesip.tb.wpandrv. No cryptography.

Commands (see aesip.tb.frame_cli):
  {"cmd": "key", "slot": s, "key": hex}  -> {"cycle": n}
  {"cmd": "frame", "op": "wpan-encrypt" | "wpan-decrypt", "slot": s, "src_valid": 0 | 1,
   "src_addr": n (64-bit, most significant byte = the address's first byte), "frame": hex}
   -> {"err", "eng_err", "frame", "level", "out": hex or null, "flag"}
"""
from __future__ import annotations

import cocotb

from aesip.tb.frame_cli import session
from aesip.tb.wpandrv import WpanDriver

PERIOD_NS = 10


@cocotb.test()
async def wpan_session(dut):
    await session(dut, WpanDriver(dut, period_ns=PERIOD_NS), "frame", "frame", ("slot", "src_valid", "src_addr"))
