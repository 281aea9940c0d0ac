# SPDX-License-Identifier: Apache-2.0
"""aes_mixcolumn (every DIR) through the test top tb/common/tb_mixcolumn_top.v.

This file holds the cocotb tests and the pytest entry that builds and runs them (on
Verilator and Icarus). Expected values come from the FIPS-197 definitions and printed
values (tb/common/fips197.py, aesip.ref.fips197_sbox) and from `cryptography`
(OpenSSL); never from the RTL.
"""
from __future__ import annotations

from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import Timer

from aesip import ref, rtl, sim
from aesip.tb.seed import run_seed, test_rng
from tb.common.fips197 import INV_MIX, MIX, mix_ref, printed

HERE = Path(__file__).resolve().parent


# FIPS-197 Appendix B, round 1: columns after ShiftRows -> after MixColumns
APPX_B = [("d4bf5d30", "046681e5"), ("e0b452ae", "e0cb199a"),
          ("b84111f1", "48f8d37a"), ("1e2798e5", "2806264c")]


def structured_columns() -> list[int]:
    cols = [0, 0xFFFFFFFF]
    for pos in range(4):
        cols += [v << (8 * pos) for v in range(1, 256)]   # one non-zero byte (all single bits too)
    cols += [v * 0x01010101 for v in range(1, 255)]       # four equal bytes
    cols += [printed(i) for i, _ in APPX_B]
    return cols


async def mix_eval(dut, col: int, inv: int) -> tuple[int, int, int]:
    dut.col_in.value = col
    dut.inv.value = inv
    await Timer(1, "ns")
    return int(dut.out_fwd.value), int(dut.out_inv.value), int(dut.out_both.value)


@cocotb.test()
async def mixcolumn_vectors(dut):
    """Structured and random columns, both values of inv, DIR 0/1/2 against the FIPS-197
    matrices; plus the FIPS-197 Appendix B round-1 columns."""
    rng = test_rng()
    for i, o in APPX_B:
        assert mix_ref(printed(i), MIX) == printed(o), "reference disagrees with FIPS-197 Appendix B"
        f, _, b = await mix_eval(dut, printed(i), 0)
        assert f == printed(o) and b == printed(o), f"MixColumns({i}) != {o} (FIPS-197 App. B)"
        _, r, b = await mix_eval(dut, printed(o), 1)
        assert r == printed(i) and b == printed(i), f"InvMixColumns({o}) != {i} (FIPS-197 App. B)"
    cols = structured_columns() + [rng.getrandbits(32) for _ in range(1500)]
    for col in cols:
        em, ei = mix_ref(col, MIX), mix_ref(col, INV_MIX)
        for inv in (0, 1):
            f, r, b = await mix_eval(dut, col, inv)
            assert f == em, f"DIR=0 inv={inv} Mix({col:08x}) = {f:08x}, expected {em:08x}"
            assert r == ei, f"DIR=1 inv={inv} InvMix({col:08x}) = {r:08x}, expected {ei:08x}"
            exp = ei if inv else em
            assert b == exp, f"DIR=2 inv={inv} in={col:08x}: got {b:08x}, expected {exp:08x}"
    dut._log.info("checked %d columns x 2 directions", len(cols))


@cocotb.test()
async def mixcolumn_roundtrip(dut):
    """InvMix(Mix(x)) == x and Mix(InvMix(x)) == x through the RTL (DIR=2 instance and the
    DIR=0/1 instances)."""
    rng = test_rng()
    cols = structured_columns()[::5] + [rng.getrandbits(32) for _ in range(500)]
    for x in cols:
        f, _, y = await mix_eval(dut, x, 0)
        _, r, z = await mix_eval(dut, y, 1)
        assert z == x, f"DIR=2: InvMix(Mix({x:08x})) = {z:08x}"
        assert r == x and f == y, f"DIR=1(DIR=0({x:08x})) = {r:08x}"
        _, r, y = await mix_eval(dut, x, 1)
        f, _, z = await mix_eval(dut, y, 0)
        assert z == x, f"DIR=2: Mix(InvMix({x:08x})) = {z:08x}"
        assert f == x and r == y, f"DIR=0(DIR=1({x:08x})) = {f:08x}"


# ------------------------------------------------------------------------ pytest entry
CASES = [pytest.param(s, {}, id=s) for s in sim.SIMULATORS]


@pytest.mark.parametrize("simulator,parameters", CASES)
def test_aes_mixcolumn(simulator, parameters):
    """Every MixColumns test on tb_mixcolumn_top, on each simulator."""
    sim.require(simulator)
    sim.run_and_check(
        toplevel="tb_mixcolumn_top",
        sources=rtl.sources() + [HERE / "tb_mixcolumn_top.v"],
        test_module=__name__,
        sim=simulator,
        parameters=parameters,
        seed=run_seed(),
        quiet=True,
    )
