# SPDX-License-Identifier: Apache-2.0
"""cocotb module that the `aesip` CLI runs inside the simulator for the mode engines
(rtl/modes/aes_mode_engine.v, aes_mode_multi.v, docs/mode_engine.md; and
tdea_mode_engine.v, docs/tdea.md, with 8-byte data beats): `aesip run`, the CCM part of
`aesip bench` and of `aesip demo`.

It is a plain command executor: the host side plans the packets and key loads and
checks every result against aesip.ref; this module only drives the ports, records what
the hardware returned and when (cycle numbers of the handshakes). It computes no
cryptography and compares nothing.

Environment:
  AESIP_CLI_REQ   path of the request file: {"commands": [...]}
  AESIP_CLI_RESP  path of the response file written at the end: {"results": [...], "cycles": n}

Commands, executed in order (byte strings as hex; one result per command):
  {"cmd": "key", "slot": s, "key": hex}
      Load `key` into slot s (its length goes on key_bytes unchanged; the cores check it).
      Waits first until no packet that uses slot s is in flight (submitted, status not
      yet received). -> {"cycle": cycle when the load finished}
  {"cmd": "pkt", "op": engine op name, "slot": s, "iv": hex, "nonce_len": n, "aad": hex,
   "data": hex, "tag_len": t, "rtag": hex, "cut": bool}
      Submit one packet (command beat + data beats, docs/mode_engine.md framing) without
      waiting: packets stream back to back. ->
      {"err": status error code, "value": hex16 status value, "out": hex or null (no
       output frame), "flag": tuser of the last output beat, "t_cmd", "t_sts", "t_out":
       cycles of the command handshake, the status handshake and the last output beat's
       handshake (null without output)}
  {"cmd": "sync", "idle": n}
      Wait until every packet submitted so far has its status (and output), then n idle
      cycles. -> {"cycle": cycle}

Whether a packet has an output frame follows docs/mode_engine.md ("Output"): not for an
empty payload, CBC-MAC, errors found from the command alone (codes 1-5, 7) or a failed
store-and-forward decryption. An output frame of the wrong length, a FRAMING status for
a well-framed packet or a stuck engine fail the run.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.queue import Queue
from cocotb.triggers import ClockCycles, Event, RisingEdge, with_timeout
from cocotb.utils import get_sim_steps, get_sim_time

from aesip import iface
from aesip.tb.engdrv import EngineDriver, Packet

PERIOD_NS = 10
# generous bound per 16-byte step (iter32 with AES-256 needs ~60 cycles)
MAX_CYCLES_PER_STEP = 300
MAX_KEY_LOAD_CYCLES = 2000


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


class Session:
    def __init__(self, dut, nslots: int | None = None):
        self.dut = dut
        self.drv = EngineDriver(dut, period_ns=PERIOD_NS)
        self.nslots = nslots or 2 ** len(dut.key_slot)
        self.period = get_sim_steps(PERIOD_NS, "ns")
        self.cmd_cycles: list[int] = []   # cycle of each command handshake
        self.queue: Queue = Queue()       # submitted packets awaiting their results
        self.inflight = [0] * self.nslots  # per slot
        self.submitted = 0
        self.completed = 0
        self.changed = Event()
        self.failure: BaseException | None = None

    @property
    def cycle(self) -> int:
        """Clock edges since time 0 (cycle numbers below are edges at which a handshake
        happened, sampled like the cocotbext-axi sinks do)."""
        return int(get_sim_time() // self.period)

    def _cycle_of(self, t: float) -> int:
        return int(t // self.period)

    async def start(self) -> None:
        # (EngineDriver.start without its per-cycle counter: simulation speed)
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk, PERIOD_NS, unit="ns").start())
        dut.rst.value = 1
        self.idle_inputs()
        await ClockCycles(dut.clk, 5)
        dut.rst.value = 0
        await RisingEdge(dut.clk)
        cocotb.start_soon(self._monitor())
        cocotb.start_soon(self._collector())

    def idle_inputs(self) -> None:
        """Drive the inputs besides the streams idle during reset (the engines' key port and zeroize)."""
        dut = self.dut
        dut.zeroize.value = 0
        dut.key_valid.value = 0
        dut.key_slot.value = 0
        dut.key_bytes.value = 0
        dut.key_data.value = 0

    async def _monitor(self) -> None:
        """Command handshakes (the status and output sinks time-stamp their frames)."""
        d = self.dut
        edge = RisingEdge(d.clk)
        while True:
            await edge
            if int(d.s_axis_cmd_tvalid.value) and int(d.s_axis_cmd_tready.value):
                self.cmd_cycles.append(self.cycle)

    def _notify(self) -> None:
        self.changed.set()
        self.changed = Event()

    async def _wait_until(self, cond) -> None:
        while not cond():
            if self.failure is not None:
                raise self.failure
            await self.changed.wait()
        if self.failure is not None:
            raise self.failure

    async def _collector(self) -> None:
        try:
            while True:
                idx, pkt, res = await self.queue.get()
                steps = 4 + _cdiv(len(pkt.aad) + 10, 16) + _cdiv(len(pkt.data), 16)
                bound = 2000 + MAX_CYCLES_PER_STEP * steps
                f = await with_timeout(self.drv.sts.recv(), bound * PERIOD_NS, "ns")
                err, value = iface.unpack_status(f.tdata)
                assert err != iface.ERR_FRAMING, f"packet {idx}: the engine reported FRAMING for a well-framed packet"
                has_out = (len(pkt.data) > 0 and pkt.op != "cbc-mac" and err not in iface.COMMAND_TIME_ERRORS
                           and not (pkt.op == "ccm-decrypt" and not pkt.cut and err != iface.ERR_OK))
                res.update(err=err, value=value.hex(), out=None, flag=0,
                           t_cmd=self.cmd_cycles[idx], t_sts=self._cycle_of(f.sim_time_end), t_out=None)
                if has_out:
                    o = await with_timeout(self.drv.out.recv(), 4000 * PERIOD_NS, "ns")
                    data = bytes(o.tdata)
                    flag = int(o.tuser[-1]) if isinstance(o.tuser, list) and o.tuser else int(o.tuser or 0)
                    assert len(data) == len(pkt.data), \
                        f"packet {idx}: output frame of {len(data)} bytes for a {len(pkt.data)}-byte payload"
                    res.update(out=data.hex(), flag=flag, t_out=self._cycle_of(o.sim_time_end))
                self.inflight[pkt.slot] -= 1
                self.completed += 1
                self._notify()
        except Exception as e:  # noqa: BLE001 -- handed to the command loop (not CancelledError)
            self.failure = e
            self._notify()

    # ------------------------------------------------------------------ commands
    def _check_slot(self, slot: int) -> int:
        if not 0 <= slot < self.nslots:
            raise ValueError(f"key slot {slot} out of range (the engine has {self.nslots} slots)")
        return slot

    async def key(self, cmd: dict) -> dict:
        slot = self._check_slot(int(cmd["slot"]))
        await self._wait_until(lambda: self.inflight[slot] == 0)
        await with_timeout(self.drv.load_key(slot, bytes.fromhex(cmd["key"])),
                           MAX_KEY_LOAD_CYCLES * PERIOD_NS, "ns")
        return {"cycle": self.cycle}

    async def pkt(self, cmd: dict) -> dict:
        p = Packet(cmd["op"], self._check_slot(int(cmd["slot"])), iv=bytes.fromhex(cmd.get("iv", "")),
                   aad=bytes.fromhex(cmd.get("aad", "")), data=bytes.fromhex(cmd.get("data", "")),
                   tag_len=int(cmd.get("tag_len", 0)), rtag=bytes.fromhex(cmd.get("rtag", "")),
                   cut=bool(cmd.get("cut", False)), nonce_len=int(cmd.get("nonce_len", 0)))
        res: dict = {}
        self.inflight[p.slot] += 1
        idx = self.submitted
        self.submitted += 1
        self.queue.put_nowait((idx, p, res))
        await self.drv.submit(p)
        return res  # filled in by the collector

    async def sync(self, cmd: dict) -> dict:
        await self._wait_until(lambda: self.completed == self.submitted)
        await ClockCycles(self.dut.clk, int(cmd.get("idle", 0)) + 1)
        return {"cycle": self.cycle}


@cocotb.test()
async def engine_session(dut):
    """Execute the commands of $AESIP_CLI_REQ and write what the engine returned."""
    s = Session(dut)
    await s.start()
    await execute(dut, s, {"key": s.key, "pkt": s.pkt, "sync": s.sync})


async def execute(dut, s: Session, handlers: dict, extra=None) -> None:
    """Run the commands of $AESIP_CLI_REQ through `handlers` (command name -> coroutine
    function), wait for every packet, check that nothing unexpected came out, and write
    the response {"results", "cycles"} plus `extra()` (a dict) to $AESIP_CLI_RESP."""
    req = json.loads(Path(os.environ["AESIP_CLI_REQ"]).read_text())
    resp_path = Path(os.environ["AESIP_CLI_RESP"])
    results = []
    for k, cmd in enumerate(req["commands"]):
        if cmd["cmd"] not in handlers:
            raise ValueError(f"command {k}: unknown command {cmd['cmd']!r}")
        results.append(await handlers[cmd["cmd"]](cmd))
    await s.sync({"idle": 20})
    assert s.drv.out.empty(), "the DUT produced more output frames than expected"
    assert s.drv.sts.empty(), "the DUT produced more status beats than packets"
    assert len(s.cmd_cycles) == s.submitted, "command handshakes do not match the packets"
    tmp = resp_path.with_name(resp_path.name + ".tmp")
    tmp.write_text(json.dumps({"results": results, "cycles": s.cycle, **(extra() if extra else {})}))
    tmp.replace(resp_path)
    dut._log.info("executed %d commands (%d packets) in %d cycles", len(results), s.submitted, s.cycle)
