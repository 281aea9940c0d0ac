# SPDX-License-Identifier: Apache-2.0
"""cocotb command executor for the multi-channel engine chan_engine (through its wrapper
tb/modes/tb_chan_engine.v): the channel records of `aesip bench` (aesip.chan_bench) and
`aesip run --engine chan`. It only drives the ports and records what came out; the host
side plans the packets and checks the results against aesip.ref.

Environment: AESIP_CLI_REQ (request file {"commands": [...]}), AESIP_CLI_RESP (response
file written at the end: {"results": [...]}).

Commands (byte strings as hex, byte n of a block = tdata bits [8n+7:8n]):
  {"cmd": "key", "slot": s, "key": hex}            load a key (its length on key_bytes) -> {}
  {"cmd": "packets", "items": [{"ch", "op", "slot", "iv", "data"}, ...], "order": "rr"}
      send every packet, beats of the channels interleaved round robin ("rr") or in a
      random order ("random", with "seed"), and wait for one status per packet.
      -> {"channels": {ch: {"beats": [[hex, keep, fail, last], ...], "sts": [[err, hex], ...]}},
          "cycles": clocks from the first command handshake to the last status handshake,
          "latency": clocks from the first data handshake to the first result handshake}
"""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

import cocotb
from cocotb.triggers import RisingEdge

from aesip.tb.chandrv import ChanDriver, ChanPacket


class Watch:
    """Cycle numbers of the first command / data handshake and the first result."""

    def __init__(self, dut, drv: ChanDriver):
        self.dut, self.drv = dut, drv
        self.first_cmd = self.first_in = self.first_out = None
        self.last_sts = None

    def reset(self) -> None:
        self.first_cmd = self.first_in = self.first_out = self.last_sts = None

    async def run(self) -> None:
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            c = self.drv.cycle
            if self.first_cmd is None and int(d.s_axis_cmd_tvalid.value) and int(d.s_axis_cmd_tready.value):
                self.first_cmd = c
            if self.first_in is None and int(d.s_axis_tvalid.value) and int(d.s_axis_tready.value):
                self.first_in = c
            if self.first_out is None and int(d.m_axis_tvalid.value) and int(d.m_axis_tready.value):
                self.first_out = c
            if int(d.m_axis_sts_tvalid.value) and int(d.m_axis_sts_tready.value):
                self.last_sts = c


@cocotb.test()
async def chan_session(dut):
    req = json.loads(Path(os.environ["AESIP_CLI_REQ"]).read_text())
    resp_path = Path(os.environ["AESIP_CLI_RESP"])
    drv = ChanDriver(dut)
    await drv.start()
    w = Watch(dut, drv)
    cocotb.start_soon(w.run())
    results = []
    for k, cmd in enumerate(req["commands"]):
        if cmd["cmd"] == "key":
            await drv.load_key(int(cmd["slot"]), bytes.fromhex(cmd["key"]))
            results.append({})
        elif cmd["cmd"] == "packets":
            pkts = [ChanPacket(ch=int(i["ch"]), op=i["op"], slot=int(i.get("slot", 0)),
                               iv=bytes.fromhex(i.get("iv", "")).ljust(16, b"\0")[:16],
                               data=bytes.fromhex(i.get("data", ""))) for i in cmd["items"]]
            rng = random.Random(cmd.get("seed", 1)) if cmd.get("order") == "random" else None
            w.reset()
            n0 = drv.n_sts
            drv.send(drv.schedule(pkts, rng))
            await drv.wait_results(n0 + len(pkts), timeout=100 * sum(len(p.data) for p in pkts) + 100000)
            await drv.wait_idle(quiet=30)
            beats, stss = drv.take()
            chans = {}
            for ch in sorted(set(beats) | set(stss)):
                chans[str(ch)] = {
                    "beats": [[b[0].hex(), b[1], b[2], b[3]] for b in beats.get(ch, [])],
                    "sts": [[e, v.hex()] for e, v in stss.get(ch, [])],
                }
            results.append({
                "channels": chans,
                "cycles": (w.last_sts - w.first_cmd + 1) if w.first_cmd is not None and w.last_sts is not None else 0,
                "latency": (w.first_out - w.first_in) if w.first_in is not None and w.first_out is not None else None,
            })
        else:
            raise ValueError(f"command {k}: unknown command {cmd['cmd']!r}")
    tmp = resp_path.with_name(resp_path.name + ".tmp")
    tmp.write_text(json.dumps({"results": results, "cycles": drv.cycle}))
    tmp.replace(resp_path)
