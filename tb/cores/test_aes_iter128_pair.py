# SPDX-License-Identifier: Apache-2.0
"""Two aes_iter128 cores with one key expansion (KX_EXT, docs/iter128.md "Shared key
expansion"), wired as the mode engines wire cores A and B (tb/cores/tb_aes_iter128_pair.v).

Core B has no key expander: its round-key stores are written from core A's expansion.
Every result of both cores is checked against `cryptography` (aesip.ref), and after every
key load the two cores' round-key stores and first-key stores are compared word by word.
- test_rekey_under_traffic: keys of every legal size (and illegal ones) loaded into one
  slot while both cores stream blocks of the other slots (core B in both directions) with
  random gaps and backpressure; blocks of the loaded slot offered right after the load
  edge must wait for the end of the expansion and use the new key; the share port's word is
  zero once the expansion has ended.
- test_zeroize_during_expansion: zeroize at every clock of an expansion; afterwards the
  slots are invalid on both cores (err results) and a reload works on both.
"""
from __future__ import annotations

import os

import cocotb
import pytest
from cocotb.triggers import ClockCycles, RisingEdge

from aesip import ref, rtl, sim
from aesip.tb.coredrv import load_key, random_pause, set_pause
from aesip.tb.seed import run_seed, test_rng
from aesip.tb.twoside import SIDES, TwoSides, start


class Pair(TwoSides):
    """Both cores' block ports (aesip.tb.twoside), their directions and their key stores."""

    def __init__(self, dut):
        super().__init__(dut, "core")
        self.slot_w = int(dut.SLOT_W.value)
        self.dir = {"a": int(dut.DIRECTION_A.value), "b": int(dut.DIRECTION_B.value)}

    def pick_dec(self, side: str, rng) -> bool:
        d = self.dir[side]
        return d == 1 or (d == 2 and rng.random() < 0.5)

    def stores_differ(self) -> list[str]:
        """Rows where core B's round-key or first-key store differs from core A's."""
        diff = []
        for b in range(4):
            ba = self.dut.u_a.g_bank[b]
            bb = self.dut.u_b.g_bank[b]
            for name, a_mem, b_mem in (("fk", ba.fk, bb.fk), ("mem", ba.g_one.mem, bb.g_one.mem)):
                for i in range(len(a_mem)):
                    if int(a_mem[i].value) != int(b_mem[i].value):
                        diff.append(f"bank {b} {name}[{i}]")
        return diff


async def start_pair(dut) -> Pair:
    await start(dut)
    return Pair(dut)


@cocotb.test()
async def test_rekey_under_traffic(dut):
    rng = test_rng("test_rekey_under_traffic")
    rounds = int(os.environ.get("AESIP_NRAND", "24"))
    p = await start_pair(dut)
    nslot = 1 << p.slot_w
    keys: dict[int, bytes | None] = {}
    for slot in range(nslot):
        keys[slot] = rng.randbytes(rng.choice(list(ref.ROUNDS)))
        await load_key(dut, slot, keys[slot])
    assert not p.stores_differ(), p.stores_differ()
    for s in SIDES:
        set_pause(p.src[s], random_pause(rng, rng.choice((0.0, 0.3))))
        set_pause(p.snk[s], random_pause(rng, rng.choice((0.0, 0.3, 0.6))))
    for r in range(rounds):
        slot = rng.randrange(nslot)
        # a legal key of any size, now and then an illegal length (the slot becomes invalid)
        size = rng.choice(list(ref.ROUNDS) + ([20] if r % 6 == 5 else []))
        key = rng.randbytes(size)
        others = [s for s in range(nslot) if s != slot]

        async def feed(side: str) -> None:
            for _ in range(rng.randrange(4, 12)):
                o = rng.choice(others)
                await p.send(side, o, p.pick_dec(side, rng), rng.randbytes(16), keys[o])

        feeders = [cocotb.start_soon(feed(s)) for s in SIDES]
        await load_key(dut, slot, key, wait_done=False)
        keys[slot] = key if size in ref.ROUNDS else None
        # blocks of the slot offered right after the load edge: each core holds them off
        # until the expansion it sees (core B: core A's) has finished, then uses the new key
        for s in SIDES:
            for _ in range(2):
                await p.send(s, slot, p.pick_dec(s, rng), rng.randbytes(16), keys[slot])
        for t in feeders:
            await t
        for s in SIDES:
            await p.check(s)
        while not bool(dut.key_ready.value):
            await RisingEdge(dut.clk)
        diff = p.stores_differ()
        assert not diff, f"round {r}: core B's stores differ from core A's after a {size}-byte load: {diff[:6]}"
        # no key material stays on the share port between expansions (its word field)
        assert int(dut.u_a.kx_out.value) & 0xFFFFFFFF == 0, f"round {r}: kx_out's word not zero after the expansion"
        # the new key (or the invalid slot) on both cores
        for _ in range(3):
            for s in SIDES:
                await p.send(s, slot, p.pick_dec(s, rng), rng.randbytes(16), keys[slot])
        for s in SIDES:
            await p.check(s)


@cocotb.test()
async def test_zeroize_during_expansion(dut):
    rng = test_rng("test_zeroize_during_expansion")
    p = await start_pair(dut)
    # AES-256: 60 clocks of expansion; zeroize k clocks after the load edge
    for k in range(0, 64, 3):
        key = rng.randbytes(32)
        await load_key(dut, 0, key, wait_done=False)
        await ClockCycles(dut.clk, k)
        dut.zeroize.value = 1
        await RisingEdge(dut.clk)
        dut.zeroize.value = 0
        for s in SIDES:
            await p.send(s, 0, False, rng.randbytes(16), None)
            await p.check(s)
        while not bool(dut.key_ready.value):
            await RisingEdge(dut.clk)
        diff = p.stores_differ()
        assert not diff, f"zeroize {k} clocks into an expansion: stores differ: {diff[:6]}"
        key = rng.randbytes(rng.choice(list(ref.ROUNDS)))
        await load_key(dut, 0, key)
        for s in SIDES:
            await p.send(s, 0, p.pick_dec(s, rng), rng.randbytes(16), key)
            await p.check(s)
        assert not p.stores_differ()


# --------------------------------------------------------------------------- pytest entry
TESTS = ["test_rekey_under_traffic", "test_zeroize_during_expansion"]
CASES = [
    # the mode engine's default pair: A encrypt-only, B both directions
    ("verilator", {"SLOT_W": 2}),
    ("icarus", {"SLOT_W": 2}),
    # ccm-iter128 enc: both encrypt-only
    ("verilator", {"SLOT_W": 1, "DIRECTION_B": 0}),
    # two-stage cores (aes_mode_multi with ROUND_STAGES = 2 shares the expansion as well)
    ("verilator", {"SLOT_W": 2, "ROUND_STAGES": 2}),
]


@pytest.mark.parametrize("simulator,parameters", CASES, ids=[sim.case_id(s, p) for s, p in CASES])
def test_aes_iter128_pair(simulator, parameters):
    sim.require(simulator)
    sim.run_and_check(
        toplevel="tb_aes_iter128_pair",
        sources=rtl.core_sources("iter128") + [rtl.ROOT / "tb" / "cores" / "tb_aes_iter128_pair.v"],
        test_module=__name__,
        testcase=TESTS,
        sim=simulator,
        parameters=parameters,
        extra_env={"AESIP_NRAND": "12" if simulator == "icarus" else "24"},
        seed=run_seed(),
        quiet=True,
        internals=("aes_iter128",),
    )
