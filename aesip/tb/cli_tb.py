# SPDX-License-Identifier: Apache-2.0
"""cocotb module that the `aesip` CLI runs inside the simulator for a bare block-cipher
core: the block-core records of `aesip bench` and part 1 of `aesip demo` (`aesip run`
and the CCM parts use the mode engine through aesip.tb.engine_cli_tb).

It is a plain command executor for one block-cipher core (docs/cores.md): the host
side (aesip.bench / aesip.demo through aesip.session) plans the work and checks the results; this
module only drives the ports and records what the hardware returned. It never computes
any cryptography.

Environment:
  AESIP_CLI_REQ   path of the request file: {"commands": [...]}
  AESIP_CLI_RESP  path of the response file written at the end: {"results": [...]}

Commands (byte strings as hex, byte n of a block/key = tdata/key_data bits [8n+7:8n]):
  {"cmd": "key", "slot": s, "key": hex}
      load `key` into slot s; its length goes on key_bytes unchanged (the core checks it).
      -> {}
  {"cmd": "blocks", "items": [[hex16, dec, slot], ...]}
      stream the blocks (no gaps, no backpressure) and collect as many outputs.
      -> {"out": [[hex16, err], ...], "cycles": first input to last output}
  {"cmd": "chain", "slot": s, "iv": hex16, "blocks": [hex16, ...]}
      CBC encryption as a serial chain: each block (plaintext XOR the previous output,
      the IV for the first) is sent only after the previous output has been taken.
      -> {"out": [[hex16, err], ...], "in_cycles": [...], "out_cycles": [...]}
  {"cmd": "bench", "slot": s, "dec": bool, "single": hex16, "blocks": [hex16, ...]}
      latency of `single` sent alone into the idle core, then `blocks` back to back.
      -> {"latency": n, "single": [hex16, err], "out": [[hex16, err], ...],
          "in_cycles": [...], "out_cycles": [...]}   (cycle numbers of the handshakes)

Every output block must carry the tag of its input block (tags count up modulo
2**TAG_W), otherwise the test fails. A stuck core fails the test by timeout.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import cocotb
from cocotb.triggers import ClockCycles, with_timeout

from aesip.tb.coredrv import CoreDriver

PERIOD_NS = 10
# Generous per-block bound for the timeout (the slowest core needs 60 cycles/block).
MAX_CYCLES_PER_BLOCK = 200
MAX_KEY_LOAD_CYCLES = 400


class Session:
    def __init__(self, dut):
        self.dut = dut
        self.drv = CoreDriver(dut, period_ns=PERIOD_NS)
        self.tag = 0

    def _next_tag(self) -> int:
        t = self.tag
        self.tag = (self.tag + 1) % (2 ** self.drv.tag_w)
        return t

    def _check_slot(self, slot: int) -> int:
        n = 2 ** self.drv.slot_w
        if not 0 <= slot < n:
            raise ValueError(f"key slot {slot} out of range (core has {n} slots)")
        return slot

    async def _timed(self, coro, cycles: int):
        return await with_timeout(coro, cycles * PERIOD_NS, "ns")

    async def key(self, cmd: dict) -> dict:
        key = bytes.fromhex(cmd["key"])
        await self._timed(self.drv.load_key(self._check_slot(cmd["slot"]), key), MAX_KEY_LOAD_CYCLES)
        return {}

    async def _stream(self, items: list[tuple[bytes, bool, int]]) -> list[list]:
        tagged = [(blk, dec, self._check_slot(slot), self._next_tag()) for blk, dec, slot in items]
        outs = await self._timed(self.drv.run_blocks(tagged), 1000 + MAX_CYCLES_PER_BLOCK * len(tagged))
        res = []
        for k, (o, it) in enumerate(zip(outs, tagged)):
            assert o.tag == it[3], f"output {k}: tag {o.tag}, expected {it[3]} (block lost, duplicated or reordered)"
            res.append([o.data.hex(), o.err])
        return res

    async def blocks(self, cmd: dict) -> dict:
        items = [(bytes.fromhex(h), bool(dec), int(slot)) for h, dec, slot in cmd["items"]]
        i0, o0 = len(self.drv.in_cycles), len(self.drv.out_cycles)
        out = await self._stream(items)
        cyc = 0
        if items:
            cyc = self.drv.out_cycles[o0 + len(items) - 1] - self.drv.in_cycles[i0] + 1
        return {"out": out, "cycles": cyc}

    async def chain(self, cmd: dict) -> dict:
        slot = int(cmd["slot"])
        drv = self.drv
        await ClockCycles(self.dut.clk, 2)
        i0, o0 = len(drv.in_cycles), len(drv.out_cycles)
        prev = bytes.fromhex(cmd["iv"])
        out = []
        for h in cmd["blocks"]:
            x = bytes(a ^ b for a, b in zip(bytes.fromhex(h), prev))
            res = (await self._stream([(x, False, slot)]))[0]
            out.append(res)
            prev = bytes.fromhex(res[0])
        n = len(out)
        return {"out": out, "in_cycles": drv.in_cycles[i0:i0 + n], "out_cycles": drv.out_cycles[o0:o0 + n]}

    async def bench(self, cmd: dict) -> dict:
        slot, dec = int(cmd["slot"]), bool(cmd["dec"])
        drv = self.drv
        await ClockCycles(self.dut.clk, 2)
        i0, o0 = len(drv.in_cycles), len(drv.out_cycles)
        single = await self._stream([(bytes.fromhex(cmd["single"]), dec, slot)])
        latency = drv.out_cycles[o0] - drv.in_cycles[i0]
        await ClockCycles(self.dut.clk, 2)
        items = [(bytes.fromhex(h), dec, slot) for h in cmd["blocks"]]
        i0, o0 = len(drv.in_cycles), len(drv.out_cycles)
        out = await self._stream(items)
        n = len(items)
        return {
            "latency": latency,
            "single": single[0],
            "out": out,
            "in_cycles": drv.in_cycles[i0:i0 + n],
            "out_cycles": drv.out_cycles[o0:o0 + n],
        }


@cocotb.test()
async def cli_session(dut):
    """Execute the commands of $AESIP_CLI_REQ and write what the core returned."""
    req = json.loads(Path(os.environ["AESIP_CLI_REQ"]).read_text())
    resp_path = Path(os.environ["AESIP_CLI_RESP"])
    s = Session(dut)
    await s.drv.start()
    handlers = {"key": s.key, "blocks": s.blocks, "bench": s.bench, "chain": s.chain}
    results = []
    for k, cmd in enumerate(req["commands"]):
        if cmd["cmd"] not in handlers:
            raise ValueError(f"command {k}: unknown command {cmd['cmd']!r}")
        results.append(await handlers[cmd["cmd"]](cmd))
    await ClockCycles(dut.clk, 20)
    assert s.drv.sink.empty(), "the core produced more output blocks than it accepted"
    tmp = resp_path.with_name(resp_path.name + ".tmp")
    tmp.write_text(json.dumps({"results": results, "cycles": s.drv.cycle}))
    tmp.replace(resp_path)
    dut._log.info("executed %d commands in %d cycles", len(results), s.drv.cycle)
