# SPDX-License-Identifier: Apache-2.0
"""cocotb module that `aesip run` runs inside the simulator for the 802.16e front end
(rtl/proto/wimax_top.v, docs/wimax.md). A plain command executor: the host side
(aesip.wimax_run) plans key loads and PDUs; this module drives the ports through
aesip.tb.wimaxdrv and records what the hardware returned. No cryptography.

Environment: AESIP_CLI_REQ (request file {"commands": [...]}), AESIP_CLI_RESP (response
file written at the end: {"results": [...], "cycles": n}).

Commands, executed in order, one result each:
  {"cmd": "key", "slot": s, "key": hex}  -> {"cycle": n}   load a key (length unchanged on key_bytes)
  {"cmd": "pdu", "op": "wimax-encrypt" | "wimax-decrypt", "slot": s, "pn": n, "pdu": hex}
      -> {"err", "eng_err", "pn", "frame", "out": hex or null, "flag": tuser of the last
          output beat}; PDUs run one at a time (the front end holds one PDU).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import cocotb
from cocotb.triggers import ClockCycles, with_timeout
from cocotb.utils import get_sim_time

from aesip.tb.wimaxdrv import WimaxDriver

PERIOD_NS = 10
# bound per PDU: receive + (iter32, AES-256: ~60 cycles per block) x 130 blocks + output
MAX_PDU_CYCLES = 40_000


@cocotb.test()
async def wimax_session(dut):
    req = json.loads(Path(os.environ["AESIP_CLI_REQ"]).read_text())
    resp_path = Path(os.environ["AESIP_CLI_RESP"])
    drv = WimaxDriver(dut, period_ns=PERIOD_NS)
    await drv.start()
    results = []
    for k, cmd in enumerate(req["commands"]):
        if cmd["cmd"] == "key":
            await with_timeout(drv.load_key(int(cmd["slot"]), bytes.fromhex(cmd["key"])), 20_000, "ns")
            results.append({"cycle": int(get_sim_time("ns") // PERIOD_NS)})
        elif cmd["cmd"] == "pdu":
            pdu = bytes.fromhex(cmd["pdu"])
            await drv.submit(cmd["op"], int(cmd["slot"]), int(cmd["pn"]), pdu)
            s = await with_timeout(drv.status(), MAX_PDU_CYCLES * PERIOD_NS + 20 * len(pdu) * PERIOD_NS, "ns")
            res = {"err": s["err"], "eng_err": s["eng_err"], "pn": s["pn"], "frame": s["frame"],
                   "out": None, "flag": 0}
            if s["frame"]:
                data, flag = await with_timeout(drv.output(), 100_000, "ns")
                res.update(out=data.hex(), flag=flag)
            results.append(res)
        else:
            raise ValueError(f"command {k}: unknown command {cmd['cmd']!r}")
    await ClockCycles(dut.clk, 10)
    assert drv.out.empty(), "the front end produced more output frames than expected"
    assert drv.sts.empty(), "the front end produced more status beats than PDUs"
    tmp = resp_path.with_name(resp_path.name + ".tmp")
    tmp.write_text(json.dumps({"results": results, "cycles": int(get_sim_time("ns") // PERIOD_NS)}))
    tmp.replace(resp_path)
