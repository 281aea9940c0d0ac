# SPDX-License-Identifier: Apache-2.0
"""The command executor shared by the front ends' `aesip run` cocotb modules
(aesip.tb.wimax_cli_tb, aesip.tb.ccmp_cli_tb). A plain executor: the host side plans key
loads and frames; this drives the ports through a aesip.tb.framedrv.FrameDriver and
records what the hardware returned. No cryptography.

Environment: AESIP_CLI_REQ (request file {"commands": [...]}), AESIP_CLI_RESP (response
file written at the end: {"results": [...], "cycles": n}).

Commands, executed in order, one result each:
  {"cmd": "key", "slot": s, "key": hex}  -> {"cycle": n}   load a key
  {"cmd": <frame command>, "op": ..., "slot": s, <sideband fields>, <frame field>: hex}
      -> {<status fields>, "out": hex or null, "flag": tuser of the last output beat};
      frames run one at a time (the front ends hold one frame).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from cocotb.triggers import ClockCycles, with_timeout
from cocotb.utils import get_sim_time

from aesip.tb.framedrv import FrameDriver

# bound per frame: receive + (iter32, AES-256: ~60 cycles per block) x 150 blocks + output
MAX_FRAME_CYCLES = 40_000


async def session(dut, drv: FrameDriver, frame_cmd: str, frame_field: str, fields: tuple[str, ...]) -> None:
    """Run the request file's commands on `drv` (started here). `frame_cmd`: the command
    name of a frame; `frame_field`: its hex frame field; `fields`: its sideband fields
    (besides op), passed to FrameDriver.submit_frame."""
    period = drv.period_ns
    req = json.loads(Path(os.environ["AESIP_CLI_REQ"]).read_text())
    resp_path = Path(os.environ["AESIP_CLI_RESP"])
    await drv.start()
    results = []
    for k, cmd in enumerate(req["commands"]):
        if cmd["cmd"] == "key":
            await with_timeout(drv.load_key(int(cmd["slot"]), bytes.fromhex(cmd["key"])), 20_000, "ns")
            results.append({"cycle": int(get_sim_time("ns") // period)})
        elif cmd["cmd"] == frame_cmd:
            frame = bytes.fromhex(cmd[frame_field])
            await drv.submit_frame(cmd["op"], frame, **{f: int(cmd[f]) for f in fields})
            s = await with_timeout(drv.status(), MAX_FRAME_CYCLES * period + 20 * len(frame) * period, "ns")
            res = {k2: v for k2, v in s.items() if k2 != "t"}
            res.update(out=None, flag=0)
            if s["frame"]:
                data, flag = await with_timeout(drv.output(), 100_000, "ns")
                res.update(out=data.hex(), flag=flag)
            results.append(res)
        else:
            raise ValueError(f"command {k}: unknown command {cmd['cmd']!r}")
    await ClockCycles(dut.clk, 10)
    assert drv.out.empty(), "the front end produced more output frames than expected"
    assert drv.sts.empty(), "the front end produced more status beats than frames"
    tmp = resp_path.with_name(resp_path.name + ".tmp")
    tmp.write_text(json.dumps({"results": results, "cycles": int(get_sim_time("ns") // period)}))
    tmp.replace(resp_path)
