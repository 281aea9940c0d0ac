# SPDX-License-Identifier: Apache-2.0
"""cocotb module that the `aesip` CLI runs inside the simulator for the drop-in IP
aesip_top (rtl/soc/aesip_top.sv, docs/soc.md): the live-rekey record of `aesip bench`
and `aesip demo --top`.

A plain command executor like aesip.tb.engine_cli_tb (whose Session it extends: the same
`pkt` and `sync` commands on the same streams), with the key slots reached through the
AXI4-Lite register block (aesip.csr.Csr over cocotbext-axi's AxiLiteMaster) instead of a
key port. It computes no cryptography and compares nothing: the host side plans the
commands and checks every result against aesip.ref.

Environment: AESIP_CLI_REQ / AESIP_CLI_RESP as in aesip.tb.engine_cli_tb. The response
adds "loads": [[cycle, slot], ...], every key handshake at the engine's key port (the
edge from which the new key is in force for the slot's next command).

Commands (in order, one result each; cycles as in engine_cli_tb):
  {"cmd": "bring_up"}  wait for the power-up self-test (aesip.csr.Csr.wait_selftest), then
      clear INTR_STATUS -> {"selftest": SELFTEST fields, "cycle"}; nothing is checked here
  {"cmd": "read", "reg": name}  -> {"value": int, "resp": "OKAY" / "SLVERR" / ...}
  {"cmd": "write", "reg": name, "value": int}  -> {"resp"}
  {"cmd": "key", "slot": s, "key": hex, "len": n (optional)}  key words + KEY_CTRL
      len|commit over AXI4-Lite, then poll KEY_STATUS until not pending -> {"cycle"}
  {"cmd": "rekey", "slot": s, "key": hex, "after": n}  a live rekey, in the background:
      once n packets of this session have their results, commit `key` as `key` does; the
      rekeys run one after another in command order, while the packets go on ->
      {"t_commit": cycle the KEY_CTRL write completed, "t_done": cycle the poll saw
       pending = 0} (filled in when done; `sync` waits for them)
  {"cmd": "pkt", ...}, {"cmd": "sync", "idle": n}  as in engine_cli_tb (sync also waits
      for the background rekeys)
  {"cmd": "zeroize"}  write CTRL.zeroize = 1, poll CTRL until zeroize reads 0 ->
      {"first": the first CTRL value read after the write, "cycles": write start to the
       read of 0, "polls"}
"""
from __future__ import annotations

import cocotb
from cocotb.queue import Queue
from cocotb.triggers import ClockCycles, RisingEdge

from aesip import csr as csrmod
from aesip.tb.csrbus import AxiLiteCsrBus
from aesip.tb.engdrv import sel_engine
from aesip.tb.engine_cli_tb import Session, execute

MAX_POLLS = 20_000


def engine(dut):
    """The mode engine inside aesip_top (its aes_mode_sel u_engine): aes_mode_engine
    (LANES = 1) or aes_mode_multi (LANES >= 2), same ports."""
    return sel_engine(dut.u_engine)


class TopSession(Session):
    def __init__(self, dut):
        super().__init__(dut, nslots=2 ** len(engine(dut).key_slot))
        self.bus = AxiLiteCsrBus(dut)
        self.csr = csrmod.Csr(self.bus, self.nslots)
        self.loads: list[list[int]] = []
        self.rekeys: Queue = Queue()
        self.rekeys_pending = 0

    def idle_inputs(self) -> None:
        """aesip_top has no key port or zeroize input (the registers drive them)."""

    async def start(self) -> None:
        await super().start()
        cocotb.start_soon(self._key_monitor())
        cocotb.start_soon(self._rekeyer())

    def poll(self):
        return ClockCycles(self.dut.clk, 4)

    async def _key_monitor(self) -> None:
        """Key handshakes at the engine's key port (sampled like Session._monitor)."""
        e = engine(self.dut)
        edge = RisingEdge(self.dut.clk)
        while True:
            await edge
            if int(e.key_valid.value) and int(e.key_ready.value):
                self.loads.append([self.cycle, int(e.key_slot.value)])

    async def _commit(self, slot: int, key: bytes, length: int | None = None) -> tuple[int, int]:
        """Csr.load_key, returning (cycle the KEY_CTRL write completed, cycle the poll saw
        pending = 0)."""
        await self.csr.commit_key(slot, key, length)
        t_commit = self.cycle
        await self.csr.wait_committed(slot, self.poll, MAX_POLLS)
        return t_commit, self.cycle

    async def _rekeyer(self) -> None:
        try:
            while True:
                cmd, res = await self.rekeys.get()
                await self._wait_until(lambda: self.completed >= int(cmd["after"]))
                t_commit, t_done = await self._commit(self._check_slot(int(cmd["slot"])), bytes.fromhex(cmd["key"]))
                res.update(t_commit=t_commit, t_done=t_done)
                self.rekeys_pending -= 1
                self._notify()
        except Exception as e:  # noqa: BLE001 -- handed to the command loop
            self.failure = e
            self._notify()

    # ------------------------------------------------------------------ commands
    async def bring_up(self, cmd: dict) -> dict:
        st = await self.csr.wait_selftest(self.poll)
        await self.csr.write("INTR_STATUS", (1 << len(csrmod.INTR_BITS)) - 1)
        return {"selftest": st, "cycle": self.cycle}

    async def read(self, cmd: dict) -> dict:
        v = await self.csr.read(cmd["reg"])
        return {"value": v, "resp": self.bus.last_resp.name}

    async def write(self, cmd: dict) -> dict:
        await self.csr.write(cmd["reg"], int(cmd["value"]))
        return {"resp": self.bus.last_resp.name}

    async def key(self, cmd: dict) -> dict:
        slot = self._check_slot(int(cmd["slot"]))
        length = cmd.get("len")
        await self._commit(slot, bytes.fromhex(cmd["key"]), None if length is None else int(length))
        return {"cycle": self.cycle}

    async def rekey(self, cmd: dict) -> dict:
        res: dict = {}
        self.rekeys_pending += 1
        self.rekeys.put_nowait((cmd, res))
        return res  # filled in by the rekeyer

    async def sync(self, cmd: dict) -> dict:
        await self._wait_until(lambda: self.rekeys_pending == 0)
        return await super().sync(cmd)

    async def zeroize(self, cmd: dict) -> dict:
        t0 = self.cycle
        await self.csr.write("CTRL", csrmod.pack("CTRL", self.nslots, zeroize=1))
        first = None
        for n in range(1, MAX_POLLS + 1):
            v = await self.csr.read("CTRL")
            first = v if first is None else first
            if not csrmod.field("CTRL", "zeroize", v, self.nslots):
                return {"first": first, "cycles": self.cycle - t0, "polls": n}
            await self.poll()
        raise TimeoutError("CTRL.zeroize still 1")


@cocotb.test()
async def top_session(dut):
    """Execute the commands of $AESIP_CLI_REQ on aesip_top and write what it returned."""
    s = TopSession(dut)
    await s.start()
    await execute(dut, s, {"bring_up": s.bring_up, "read": s.read, "write": s.write, "key": s.key,
                           "rekey": s.rekey, "pkt": s.pkt, "sync": s.sync, "zeroize": s.zeroize},
                  extra=lambda: {"loads": s.loads})
