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
  {"cmd": "burst", "idle": n, "frames": [{"op", "slot", <sideband fields>, <frame field>}, ...]}
      -> {"frames": [{<status fields>, "out", "flag", "t_cmd", "t_sts", "t_out"}, ...]}
      after n idle cycles, all frames queued at once (back to back, no gaps or
      backpressure: the benchmark of `aesip bench`); t_cmd, t_sts, t_out: cycles of the
      sideband beat's handshake, the status handshake and the last output beat's
      handshake (null without output frame).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotb.utils import get_sim_steps, get_sim_time

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
        elif cmd["cmd"] == "burst":
            await ClockCycles(dut.clk, int(cmd.get("idle", 0)))
            results.append(await burst(dut, drv, cmd["frames"], frame_field, fields))
        else:
            raise ValueError(f"command {k}: unknown command {cmd['cmd']!r}")
    await ClockCycles(dut.clk, 10)
    assert drv.out.empty(), "the front end produced more output frames than expected"
    assert drv.sts.empty(), "the front end produced more status beats than frames"
    tmp = resp_path.with_name(resp_path.name + ".tmp")
    tmp.write_text(json.dumps({"results": results, "cycles": int(get_sim_time("ns") // period)}))
    tmp.replace(resp_path)


async def burst(dut, drv: FrameDriver, frames: list[dict], frame_field: str, fields: tuple[str, ...]) -> dict:
    """Queue `frames` at once and collect their statuses and outputs with the cycles of
    the handshakes (the "burst" command)."""
    step = get_sim_steps(drv.period_ns, "ns")
    t_cmd: list[int] = []

    async def monitor() -> None:
        edge = RisingEdge(dut.clk)
        while True:
            await edge
            if int(dut.s_axis_cmd_tvalid.value) and int(dut.s_axis_cmd_tready.value):
                t_cmd.append(int(get_sim_time() // step))

    mon = cocotb.start_soon(monitor())
    for f in frames:
        await drv.submit_frame(f["op"], bytes.fromhex(f[frame_field]), **{x: int(f[x]) for x in fields})
    out = []
    for f in frames:
        bound = MAX_FRAME_CYCLES * drv.period_ns + 20 * len(f[frame_field]) * drv.period_ns
        s = await with_timeout(drv.status(), bound, "ns")
        res = {k: v for k, v in s.items() if k != "t"}
        res.update(out=None, flag=0, t_sts=int(s["t"] // step), t_out=None)
        if s["frame"]:
            o = await with_timeout(drv.out.recv(), 100_000, "ns")
            tu = o.tuser if isinstance(o.tuser, int) else (o.tuser[-1] if o.tuser else 0)
            res.update(out=bytes(o.tdata).hex(), flag=int(tu or 0), t_out=int(o.sim_time_end // step))
        out.append(res)
    mon.cancel()
    assert len(t_cmd) == len(frames), f"{len(t_cmd)} sideband handshakes for {len(frames)} frames"
    for res, t in zip(out, t_cmd):
        res["t_cmd"] = t
    return {"frames": out}
