# SPDX-License-Identifier: Apache-2.0
"""cocotb module that `aesip run` runs inside the simulator for the 802.16e front end
(rtl/proto/wimax_top.v, docs/wimax.md): the shared executor aesip.tb.frame_cli on
aesip.tb.wimaxdrv. No cryptography.

Commands (see aesip.tb.frame_cli):
  {"cmd": "key", "slot": s, "key": hex}  -> {"cycle": n}
  {"cmd": "pdu", "op": "wimax-encrypt" | "wimax-decrypt", "slot": s, "pn": n, "pdu": hex}
      -> {"err", "eng_err", "pn", "frame", "out": hex or null, "flag"}
"""
from __future__ import annotations

import cocotb

from aesip.tb.frame_cli import session
from aesip.tb.wimaxdrv import WimaxDriver

PERIOD_NS = 10


@cocotb.test()
async def wimax_session(dut):
    await session(dut, WimaxDriver(dut, period_ns=PERIOD_NS), "pdu", "pdu", ("slot", "pn"))
