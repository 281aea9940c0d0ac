# SPDX-License-Identifier: Apache-2.0
"""aes_core_share (rtl/modes/aes_core_share.v): one block core behind the two core-role
ports A and B of the mode engines (aes_mode_engine CORES = 1). Built through
tb/modes/tb_aes_core_share.v, which gives the role ports AXI4-Stream names for
cocotbext-axi.

Tests
  test_random     random blocks on both sides at once (keys of every size the build takes
                  in both slots; decryption on the sides at random where the core has it),
                  random input gaps and random output backpressure on each side; every
                  result checked in order, per side, against `cryptography` (AES-ECB)
  test_one_side_stalled  side A's results are not taken at all while side B streams:
                  B's results all arrive (A holds at most DEPTH outstanding, so the core
                  never stalls on A); then A is released and its results are right
  test_key_errors a block on an empty slot comes out on its own side with err = 1 and
                  zero data, between good blocks on both sides
  test_zeroize    results held in both sides' FIFOs (outputs stalled) and blocks in the
                  core when zeroize pulses: every one of them comes out with err = 1 and
                  zero data, no FIFO entry holds anything after they are taken, and blocks
                  after a key reload are right
Expected values come only from aesip.ref (`cryptography`).
Environment: AESIP_NRAND blocks per side in test_random (default 400).
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


def key_sizes(nr_max: int) -> list[int]:
    """Key lengths in bytes that a build with NR_MAX `nr_max` takes (aesip.ref.ROUNDS)."""
    return [n for n, nr in ref.ROUNDS.items() if nr <= nr_max]


class Share(TwoSides):
    """Both sides of aes_core_share (aesip.tb.twoside) and the build's parameters."""

    def __init__(self, dut):
        super().__init__(dut, "side")
        self.slot_w = int(dut.SLOT_W.value)
        self.depth = int(dut.DEPTH.value)
        self.nr_max = int(dut.NR_MAX.value)
        self.direction = int(dut.DIRECTION.value)

    def can_decrypt(self, side: str) -> bool:
        # side A is the chaining role: the engines never ask it to decrypt
        return side == "b" and self.direction == 2

    def fifo_nonzero(self) -> list[str]:
        u = self.dut.u_share
        return [f"{nm}[{i}]" for nm in ("a_mem", "b_mem") for i in range(self.depth)
                if int(getattr(u, nm)[i].value) != 0]


async def setup(dut, keys: dict[int, bytes]) -> Share:
    await start(dut)
    sh = Share(dut)
    for slot, key in keys.items():
        await load_key(dut, slot, key)
    return sh


@cocotb.test()
async def test_random(dut):
    rng = test_rng("test_random")
    n = int(os.environ.get("AESIP_NRAND", "400"))
    await start(dut)
    sh = Share(dut)
    keys = {}
    for slot in range(min(2, 1 << sh.slot_w)):
        keys[slot] = rng.randbytes(rng.choice(key_sizes(sh.nr_max)))
        await load_key(dut, slot, keys[slot])
    for s in SIDES:
        set_pause(sh.src[s], random_pause(rng, rng.choice((0.0, 0.3, 0.7))))
        set_pause(sh.snk[s], random_pause(rng, rng.choice((0.0, 0.3, 0.7))))

    async def feed(side: str) -> None:
        for _ in range(n):
            slot = rng.choice(list(keys))
            dec = sh.can_decrypt(side) and rng.random() < 0.5
            await sh.send(side, slot, dec, rng.randbytes(16), keys[slot])

    feeders = [cocotb.start_soon(feed(s)) for s in SIDES]
    checkers = [cocotb.start_soon(sh.check(s, n)) for s in SIDES]
    for t in feeders + checkers:
        await t
    await ClockCycles(dut.clk, 5)
    assert not sh.fifo_nonzero(), f"FIFO entries not cleared after their results were taken: {sh.fifo_nonzero()}"


@cocotb.test()
async def test_one_side_stalled(dut):
    rng = test_rng("test_one_side_stalled")
    key = rng.randbytes(16)
    sh = await setup(dut, {0: key})
    sh.snk["a"].pause = True
    n_a = sh.depth + 3            # more than side A may have outstanding
    for _ in range(n_a):
        await sh.send("a", 0, False, rng.randbytes(16), key)
    for _ in range(40):
        await sh.send("b", 0, sh.can_decrypt("b") and rng.random() < 0.5, rng.randbytes(16), key)
    await sh.check("b", 40)       # all of B while A's results wait
    assert sh.snk["a"].empty(), "side A delivered a result while its output was stalled"
    sh.snk["a"].pause = False
    await sh.check("a", n_a)


@cocotb.test()
async def test_key_errors(dut):
    rng = test_rng("test_key_errors")
    key = rng.randbytes(rng.choice(key_sizes(int(dut.NR_MAX.value))))
    sh = await setup(dut, {0: key})
    assert sh.slot_w >= 1
    for _ in range(30):
        for s in SIDES:
            if rng.random() < 0.4:
                await sh.send(s, 1, sh.can_decrypt(s) and rng.random() < 0.5, rng.randbytes(16), None)
            else:
                await sh.send(s, 0, sh.can_decrypt(s) and rng.random() < 0.5, rng.randbytes(16), key)
    await sh.check("a", len(sh.expected["a"]))
    await sh.check("b", len(sh.expected["b"]))


@cocotb.test()
async def test_zeroize(dut):
    rng = test_rng("test_zeroize")
    sh = await setup(dut, {})
    # zeroize k clocks after the last block went in, for every k from 0 to past the
    # core's latency: blocks still in the core, results in the core's output and results
    # held in the FIFOs all come out as errors with zero data
    for k in range(40):
        key = rng.randbytes(16)
        await load_key(dut, 0, key)
        for s in SIDES:
            sh.snk[s].pause = True
        for _ in range(sh.depth):
            for s in SIDES:
                await sh.send(s, 0, False, rng.randbytes(16), key)
        while not all(sh.src[s].empty() and not sh.src[s].active for s in SIDES):
            await RisingEdge(dut.clk)
        await ClockCycles(dut.clk, k)
        dut.zeroize.value = 1
        await RisingEdge(dut.clk)
        dut.zeroize.value = 0
        await ClockCycles(dut.clk, 60)
        for s in SIDES:
            sh.expected[s] = [None] * len(sh.expected[s])   # all of them: err, zero data
            sh.snk[s].pause = False
        try:
            await sh.check("a", sh.depth)
            await sh.check("b", sh.depth)
        except AssertionError as e:
            raise AssertionError(f"zeroize {k} clocks after the last block: {e}") from None
        await ClockCycles(dut.clk, 5)
        assert not sh.fifo_nonzero(), f"FIFO entries not cleared: {sh.fifo_nonzero()}"
    # the key is gone: a block on slot 0 fails; after a reload it is right again
    await sh.send("a", 0, False, rng.randbytes(16), None)
    await sh.check("a", 1)
    key = rng.randbytes(16)
    await load_key(dut, 0, key)
    for s in SIDES:
        await sh.send(s, 0, False, rng.randbytes(16), key)
        await sh.check(s, 1)


# --------------------------------------------------------------------------- pytest entry
TESTS = ["test_random", "test_one_side_stalled", "test_key_errors", "test_zeroize"]
CASES = [
    # the mode engine's CORES = 1 build: two-stage aes_iter128, both directions, DEPTH 2,
    # input registers; and without them
    ("verilator", {"CORE": "iter128", "ROUND_STAGES": 2, "DEPTH": 2}),
    ("verilator", {"CORE": "iter128", "ROUND_STAGES": 2, "DEPTH": 2, "IN_REG": 0}),
    ("verilator", {"CORE": "iter128", "ROUND_STAGES": 2, "DEPTH": 1}),
    # one block per clock and a long latency: the FIFOs and credits with many in flight
    ("verilator", {"CORE": "pipe", "ROUND_STAGES": 1, "NR_MAX": 10, "DEPTH": 8, "IN_REG": 0}),
    ("verilator", {"CORE": "pipe", "ROUND_STAGES": 1, "NR_MAX": 10, "DEPTH": 5}),
    ("icarus", {"CORE": "iter128", "ROUND_STAGES": 2, "DIRECTION": 0, "DEPTH": 3}),
    ("icarus", {"CORE": "iter128", "ROUND_STAGES": 2, "DEPTH": 1, "IN_REG": 0}),
]


@pytest.mark.parametrize("simulator,parameters", CASES, ids=[sim.case_id(s, p) for s, p in CASES])
def test_aes_core_share(simulator, parameters):
    sim.require(simulator)
    core = parameters["CORE"]
    sim.run_and_check(
        toplevel="tb_aes_core_share",
        sources=rtl.sources(rtl.CORES[core][1] + ["cores/aes_core.v", "modes/aes_core_share.v"])
        + [rtl.ROOT / "tb" / "modes" / "tb_aes_core_share.v"],
        test_module=__name__,
        testcase=TESTS,
        sim=simulator,
        parameters=parameters,
        extra_env={"AESIP_NRAND": "150" if simulator == "icarus" else "400"},
        seed=run_seed(),
        quiet=True,
        internals=("aes_core_share",),
    )
