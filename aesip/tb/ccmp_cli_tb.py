# SPDX-License-Identifier: Apache-2.0
"""cocotb module that `aesip run` runs inside the simulator for the 802.11 CCMP front end
(rtl/proto/ccmp_top.v, docs/ccmp.md): the shared executor aesip.tb.frame_cli on
aesip.tb.ccmpdrv. No cryptography.

Commands (see aesip.tb.frame_cli):
  {"cmd": "key", "slot": s, "key": hex}  -> {"cycle": n}
  {"cmd": "mpdu", "op": "ccmp-encrypt" | "ccmp-decrypt", "slot": s, "pn": n, "key_id": k,
   "frame_len": n (the sideband's declared length; 0 = not given), "mpdu": hex} -> {"err", "eng_err", "pn", "key_id", "frame", "out": hex or null, "flag"}
"""
from __future__ import annotations

import cocotb

from aesip.tb.ccmpdrv import CcmpDriver
from aesip.tb.frame_cli import session

PERIOD_NS = 10


@cocotb.test()
async def ccmp_session(dut):
    await session(dut, CcmpDriver(dut, period_ns=PERIOD_NS), "mpdu", "mpdu", ("slot", "pn", "key_id", "frame_len"))
