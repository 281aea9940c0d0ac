# SPDX-License-Identifier: Apache-2.0
"""Python driver for the register map of aesip_top (rdl/aesip_csr.rdl, docs/soc.md).

Addresses, field positions and reset values come from the RDL itself (compiled by
systemrdl-compiler through aesip.gen_csr.register_map), never typed here. The driver is
bus-neutral: `Csr(bus)` takes any object with `async read(addr) -> int` and
`async write(addr, value)` for 32-bit registers (aesip.tb.csrbus adapts cocotbext-axi's
AxiLiteMaster; a board would adapt /dev/mem or a debug bridge). Host side: no cocotb here.

Procedures (docs/soc.md): `bring_up` (wait for the power-up known-answer self-test, refuse
a failed one, clear INTR_STATUS), `run_selftest` / `wait_selftest` / `selftest`, `load_key`
(write the 8 key words, KEY_CTRL with the length and commit, optionally wait until the slot
is no longer pending), `zeroize` (write 1, poll until it reads 0), `counters`, interrupt
helpers, and the board test blocks: `board_test` (configure, enable, start, wait, read the
results), `test_enable` / `test_start` / `test_wait` / `test_results` / `test_disable`.
"""
from __future__ import annotations

import asyncio
from typing import Protocol

from aesip import gen_csr

CORE_IDS = {1: "iter128", 2: "iter32", 3: "pipe"}


class Bus(Protocol):
    async def read(self, addr: int) -> int: ...
    async def write(self, addr: int, value: int) -> None: ...


def regmap(n_slots: int = gen_csr.N_SLOTS) -> dict[str, dict]:
    """Register path -> {"addr", "fields": {name: {"lsb", "width", "reset", "sw", ...}}}."""
    return gen_csr.register_map(n_slots)


def addr(name: str, n_slots: int = gen_csr.N_SLOTS) -> int:
    return regmap(n_slots)[name]["addr"]


def field(reg: str, name: str, value: int, n_slots: int = gen_csr.N_SLOTS) -> int:
    """Extract field `name` of register `reg` from a read value."""
    f = regmap(n_slots)[reg]["fields"][name]
    return (value >> f["lsb"]) & ((1 << f["width"]) - 1)


def pack(reg: str, n_slots: int = gen_csr.N_SLOTS, **fields: int) -> int:
    """A register value with the given fields (the others 0)."""
    v = 0
    for name, x in fields.items():
        f = regmap(n_slots)[reg]["fields"][name]
        if not 0 <= x < 1 << f["width"]:
            raise ValueError(f"{reg}.{name} = {x} does not fit in {f['width']} bits")
        v |= x << f["lsb"]
    return v


def reset_value(reg: str, n_slots: int = gen_csr.N_SLOTS) -> int:
    """The RDL reset value of a register (fields without a reset, driven by hardware, as 0)."""
    return sum((f["reset"] or 0) << f["lsb"] for f in regmap(n_slots)[reg]["fields"].values())


INTR_BITS = ["pkt_done", "auth_fail", "framing_err", "key_err", "key_loaded", "zeroize_done",
             "selftest_done", "selftest_fail", "test_done"]

# the known-answer tests of the self-test, by SELFTEST.fail_index (rtl/soc/aesip_selftest.v)
SELFTEST_NAMES = ["AES-128 ECB encrypt", "AES-128 ECB decrypt", "AES-192 ECB encrypt", "AES-192 ECB decrypt",
                  "AES-256 ECB encrypt", "AES-256 ECB decrypt", "CCM encrypt", "CCM decrypt"]


class SelfTestError(RuntimeError):
    """The known-answer self-test failed (SELFTEST.fail): the IP accepts no command."""


class BoardTestError(RuntimeError):
    """A board test run did not complete (timeout, or stopped early: TEST_CTRL.aborted)."""


TEST_COUNTERS = {"pkts": "TEST_PKTS", "errs": "TEST_ERRS", "auth_fails": "TEST_AUTH_FAILS",
                 "data_errs": "TEST_DATA_ERRS", "cycles": "TEST_CYCLES"}


class Csr:
    def __init__(self, bus: Bus, n_slots: int = gen_csr.N_SLOTS):
        self.bus = bus
        self.n_slots = n_slots
        self.map = regmap(n_slots)

    async def read(self, reg: str) -> int:
        return await self.bus.read(self.map[reg]["addr"])

    async def write(self, reg: str, value: int) -> None:
        await self.bus.write(self.map[reg]["addr"], value)

    async def read_field(self, reg: str, name: str) -> int:
        return field(reg, name, await self.read(reg), self.n_slots)

    async def features(self) -> dict:
        v = await self.read("FEATURES")
        f = {n: field("FEATURES", n, v, self.n_slots) for n in self.map["FEATURES"]["fields"]}
        f["core_name"] = CORE_IDS.get(f["core"], "?")
        return f

    async def selftest(self) -> dict:
        """SELFTEST as a dict: busy, pass, fail, fail_index, tests (bit i = test i runs)."""
        v = await self.read("SELFTEST")
        return {n: field("SELFTEST", n, v, self.n_slots) for n in ("busy", "pass", "fail", "fail_index", "tests")}

    async def wait_selftest(self, poll=None, max_polls: int = 100_000) -> dict:
        """Poll SELFTEST until busy = 0 (the power-up run starts at reset; an on-demand one
        at SELFTEST.run); returns selftest()."""
        for _ in range(max_polls):
            st = await self.selftest()
            if not st["busy"]:
                return st
            await (poll() if poll else asyncio.sleep(0))
        raise TimeoutError("self-test still busy")

    async def run_selftest(self, wait: bool = True, poll=None) -> dict | None:
        """Write SELFTEST.run = 1 (re-run on demand: zeroizes every slot first, docs/soc.md);
        (wait) poll until it is over and return the result."""
        await self.write("SELFTEST", pack("SELFTEST", self.n_slots, run=1))
        return await self.wait_selftest(poll) if wait else None

    async def bring_up(self, poll=None) -> dict:
        """The first step after reset (docs/soc.md, Bring-up): wait for the power-up self-test,
        raise SelfTestError if it failed, clear INTR_STATUS (its selftest_done event among
        others). Returns the SELFTEST fields."""
        st = await self.wait_selftest(poll)
        if st["fail"] or not st["pass"]:
            i = st["fail_index"]
            raise SelfTestError(f"self-test failed: test {i} ({SELFTEST_NAMES[i]})")
        await self.write("INTR_STATUS", (1 << len(INTR_BITS)) - 1)
        return st

    async def commit_key(self, slot: int, key: bytes, length: int | None = None) -> None:
        """Write the key words of `slot` and commit them (the key goes to the engine as soon
        as no packet on the slot runs; KEY_STATUS.pending until then)."""
        kb = key.ljust(32, b"\0")[:32]
        for i in range(8):
            await self.write(f"SLOT[{slot}].KEY[{i}]", int.from_bytes(kb[4 * i:4 * i + 4], "little"))
        n = len(key) if length is None else length
        await self.write(f"SLOT[{slot}].KEY_CTRL", pack("SLOT[0].KEY_CTRL", self.n_slots, len=n, commit=1))

    async def slot_status(self, slot: int) -> tuple[int, int]:
        """(loaded, pending) of a slot."""
        v = await self.read(f"SLOT[{slot}].KEY_STATUS")
        return field("SLOT[0].KEY_STATUS", "loaded", v), field("SLOT[0].KEY_STATUS", "pending", v)

    async def load_key(self, slot: int, key: bytes, length: int | None = None, wait: bool = True,
                       poll=None, max_polls: int = 100_000) -> None:
        """commit_key, then (wait) poll KEY_STATUS until the commit is no longer pending.
        `poll`: an awaitable factory called between polls (e.g. a few clock cycles)."""
        await self.commit_key(slot, key, length)
        if wait:
            await self.wait_committed(slot, poll, max_polls)

    async def wait_committed(self, slot: int, poll=None, max_polls: int = 100_000) -> None:
        """Poll KEY_STATUS of `slot` until its commit is no longer pending (the key is in the
        engine, or refused for its length: see `slot_status`)."""
        for _ in range(max_polls):
            if not (await self.slot_status(slot))[1]:
                return
            await (poll() if poll else asyncio.sleep(0))
        raise TimeoutError(f"key commit of slot {slot} still pending")

    async def zeroize(self, wait: bool = True, poll=None, max_polls: int = 100_000) -> None:
        """Write CTRL.zeroize = 1; (wait) poll until it reads 0 (zeroize complete)."""
        await self.write("CTRL", pack("CTRL", self.n_slots, zeroize=1))
        if wait:
            for _ in range(max_polls):
                if not await self.read_field("CTRL", "zeroize"):
                    return
                await (poll() if poll else asyncio.sleep(0))
            raise TimeoutError("zeroize not complete")

    async def counters(self) -> dict[str, int]:
        return {r: await self.read(r) for r in ("PKT_COUNT", "AUTH_FAIL_COUNT", "FRAMING_ERR_COUNT",
                                                 "KEY_ERR_COUNT")}

    @staticmethod
    def intr_mask(*names: str) -> int:
        return sum(1 << INTR_BITS.index(n) for n in names)

    # ------------------------------------------------------------ board test blocks
    async def test_ctrl(self) -> dict:
        """TEST_CTRL as a dict: enable, busy, done, own, aborted, slot, cut."""
        v = await self.read("TEST_CTRL")
        return {n: field("TEST_CTRL", n, v, self.n_slots)
                for n in ("enable", "busy", "done", "own", "aborted", "slot", "cut")}

    async def test_configure(self, slot: int, size: int, count: int, seed: int = 1, cut: bool = False,
                             inject: dict | None = None) -> None:
        """Write TEST_SIZE, TEST_COUNT, TEST_SEED, TEST_ERR_INJ (`inject`: {"bitpos", "beat",
        "every"} to enable the error inserter, None to disable it) and TEST_CTRL's slot and
        cut (enable = 0). Sizes above TEST_SIZE.max are clamped by the hardware."""
        await self.write("TEST_SIZE", pack("TEST_SIZE", self.n_slots, bytes=size))
        await self.write("TEST_COUNT", count)
        await self.write("TEST_SEED", seed)
        inj = pack("TEST_ERR_INJ", self.n_slots, en=1, **inject) if inject else \
            pack("TEST_ERR_INJ", self.n_slots, every=1)
        await self.write("TEST_ERR_INJ", inj)
        await self.write("TEST_CTRL", pack("TEST_CTRL", self.n_slots, slot=slot, cut=int(cut)))

    async def test_enable(self, start: bool = True) -> None:
        """TEST_CTRL.enable = 1 (test mode: user commands held off) and, with `start`, start a
        run (it begins once the test blocks own the engine). Keeps slot and cut."""
        v = await self.read("TEST_CTRL")
        keep = v & pack("TEST_CTRL", self.n_slots, slot=0xFF, cut=1)
        await self.write("TEST_CTRL", keep | pack("TEST_CTRL", self.n_slots, enable=1, start=int(start)))

    async def test_disable(self, poll=None, max_polls: int = 100_000) -> None:
        """TEST_CTRL.enable = 0; poll until the test blocks have given the engine back (own = 0)."""
        v = await self.read("TEST_CTRL")
        await self.write("TEST_CTRL", v & pack("TEST_CTRL", self.n_slots, slot=0xFF, cut=1))
        for _ in range(max_polls):
            if not (await self.test_ctrl())["own"]:
                return
            await (poll() if poll else asyncio.sleep(0))
        raise TimeoutError("board test blocks still own the engine")

    async def test_wait(self, poll=None, max_polls: int = 1_000_000) -> dict:
        """Poll TEST_CTRL until done = 1 and busy = 0; returns test_ctrl()."""
        for _ in range(max_polls):
            c = await self.test_ctrl()
            if c["done"] and not c["busy"]:
                return c
            await (poll() if poll else asyncio.sleep(0))
        raise TimeoutError("board test run not done")

    async def test_results(self) -> dict[str, int]:
        """The counters of the current or last run: pkts, errs, auth_fails, data_errs, cycles."""
        return {k: await self.read(r) for k, r in TEST_COUNTERS.items()}

    async def board_test(self, slot: int, size: int, count: int, seed: int = 1, cut: bool = False,
                         inject: dict | None = None, poll=None, disable: bool = True) -> dict:
        """The bring-up loopback (docs/soc.md, Board test blocks): configure, enable and
        start, wait for the end, read the counters, (disable) give the engine back. The key
        of `slot` must be loaded. Raises BoardTestError when the run was stopped early.
        Returns test_results()."""
        await self.test_configure(slot, size, count, seed, cut, inject)
        await self.test_enable(start=True)
        c = await self.test_wait(poll)
        res = await self.test_results()
        if disable:
            await self.test_disable(poll)
        if c["aborted"]:
            raise BoardTestError(f"board test stopped after {res['pkts']} of {count} packets")
        return res
