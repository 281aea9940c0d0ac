# SPDX-License-Identifier: Apache-2.0
"""aes_sbox (both implementations, every DIR) and aes_subword, through the test top
tb/common/tb_sbox_top.v (one build covers every S-box configuration).

This file holds the cocotb tests and the pytest entry that builds and runs them (on
Verilator and Icarus). Expected values come from the FIPS-197 definitions and printed
values (tb/common/fips197.py, aesip.ref.fips197_sbox) and from `cryptography`
(OpenSSL); never from the RTL.
"""
from __future__ import annotations

from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, Timer

from aesip import ref, rtl, sim
from aesip.tb.seed import run_seed, test_rng
from tb.common.fips197 import INV_SBOX, SBOX, printed

HERE = Path(__file__).resolve().parent


# Entries printed in FIPS-197 Figure 7 (S-box) and Figure 14 (inverse S-box).
FIG7 = {0x00: 0x63, 0x01: 0x7C, 0x10: 0xCA, 0x53: 0xED, 0x9A: 0xB8, 0xFF: 0x16}
FIG14 = {0x00: 0x52, 0x01: 0x09, 0x10: 0x7C, 0xED: 0x53, 0x9A: 0x37, 0xFF: 0x7D}


IMPLS = (0, 1)


async def sbox_eval(dut, x: int, inv: int) -> dict[int, tuple[int, int, int]]:
    """{IMPL: (DIR=0, DIR=1, DIR=2 outputs)} of tb_sbox_top for byte x and direction inv."""
    dut.byte_in.value = x
    dut.inv.value = inv
    await Timer(1, "ns")
    return {i: (int(getattr(dut, f"out_fwd{i}").value), int(getattr(dut, f"out_inv{i}").value),
                int(getattr(dut, f"out_both{i}").value)) for i in IMPLS}


@cocotb.test()
async def sbox_exhaustive(dut):
    """Both implementations: all 256 inputs x both values of inv for DIR 0, 1 and 2
    against the S-box computed from its FIPS-197 definition. DIR 0/1 must ignore inv."""
    n = 0
    for inv in (0, 1):
        for x in range(256):
            outs = await sbox_eval(dut, x, inv)
            for impl, (f, r, b) in outs.items():
                where = f"IMPL={impl} inv={inv}"
                assert f == SBOX[x], f"{where} DIR=0: S({x:02x}) = {f:02x}, expected {SBOX[x]:02x}"
                assert r == INV_SBOX[x], f"{where} DIR=1: InvS({x:02x}) = {r:02x}, expected {INV_SBOX[x]:02x}"
                exp = INV_SBOX[x] if inv else SBOX[x]
                assert b == exp, f"{where} DIR=2: in={x:02x} got {b:02x}, expected {exp:02x}"
                n += 1
    dut._log.info("checked %d (impl, input, inv) cases on DIR 0/1/2", n)
    assert n == 2 * 256 * len(IMPLS)


@cocotb.test()
async def sbox_half_exhaustive(dut):
    """aes_sbox_half, DIR 0, 1, 2 and HALF 0, 1: every seven-bit input with both values
    of inv; the half with top bit h must give the FIPS-197 S-box (inverse S-box) of
    (h << 7) | input, and DIR 0/1 must ignore inv. Together the two halves cover all 256
    inputs of each table."""
    n = 0
    for inv in (0, 1):
        for x in range(128):
            dut.byte_in.value = x
            dut.inv.value = inv
            await Timer(1, "ns")
            out = int(dut.out_half.value)
            for d in (0, 1, 2):
                for h in (0, 1):
                    got = (out >> (8 * (2 * d + h))) & 0xFF
                    y = (h << 7) | x
                    use_inv = inv if d == 2 else d
                    exp = INV_SBOX[y] if use_inv else SBOX[y]
                    assert got == exp, (f"aes_sbox_half DIR={d} HALF={h} inv={inv} in={x:02x}: "
                                        f"got {got:02x}, expected {exp:02x} (table entry {y:02x})")
                    n += 1
    dut._log.info("checked %d half-table cases", n)
    assert n == 2 * 128 * 6


@cocotb.test()
async def sbox_fips197_values(dut):
    """Spot checks of both implementations against values printed in FIPS-197 Figures 7
    and 14 (these also guard the computed reference tables)."""
    for x, s in FIG7.items():
        assert SBOX[x] == s, "reference S-box disagrees with FIPS-197 Figure 7"
        for inv in (0, 1):
            for impl, (f, _, b) in (await sbox_eval(dut, x, inv)).items():
                assert f == s, f"IMPL={impl} DIR=0: S({x:02x}) = {f:02x}, FIPS-197 Fig. 7 says {s:02x}"
                if not inv:
                    assert b == s, f"IMPL={impl} DIR=2: S({x:02x}) = {b:02x}, FIPS-197 Fig. 7 says {s:02x}"
    for x, s in FIG14.items():
        assert INV_SBOX[x] == s, "reference inverse S-box disagrees with FIPS-197 Figure 14"
        for inv in (0, 1):
            for impl, (_, r, b) in (await sbox_eval(dut, x, inv)).items():
                assert r == s, f"IMPL={impl} DIR=1: InvS({x:02x}) = {r:02x}, FIPS-197 Fig. 14 says {s:02x}"
                if inv:
                    assert b == s, f"IMPL={impl} DIR=2: InvS({x:02x}) = {b:02x}, FIPS-197 Fig. 14 says {s:02x}"


@cocotb.test()
async def subword_random(dut):
    """aes_subword (DIR=2, both implementations): the FIPS-197 Appendix A.1 SubWord
    example (i = 4: cf4f3c09 -> 8a84eb01) both ways, then random words both ways."""
    rng = test_rng()
    cases = [(printed("cf4f3c09"), 0), (printed("8a84eb01"), 1)]
    cases += [(rng.getrandbits(32), rng.getrandbits(1)) for _ in range(300)]
    for i, (w, inv) in enumerate(cases):
        dut.word_in.value = w
        dut.inv.value = inv
        await Timer(1, "ns")
        tab = INV_SBOX if inv else SBOX
        exp = sum(tab[(w >> (8 * k)) & 0xFF] << (8 * k) for k in range(4))
        if i == 0:
            assert exp == printed("8a84eb01"), "reference disagrees with FIPS-197 A.1"
        for impl in IMPLS:
            got = int(getattr(dut, f"word_out{impl}").value)
            assert got == exp, f"IMPL={impl} SubWord inv={inv} {w:08x}: got {got:08x}, expected {exp:08x}"


@cocotb.test()
async def sbox_comp_pipelined(dut):
    """aes_sbox_comp with REGS = 1, 2, 3 internal registers, DIR 0, 1, 2: every input
    byte with both values of inv, fed one per clock in random order with random gaps
    (pok = 0), comes out REGS clocks later as the FIPS-197 S-box / inverse S-box value;
    a gap comes out as the S-box of an all-zero state (every internal register zero:
    S(0) = 63h, the forward output map of zero)."""
    rng = test_rng()
    cocotb.start_soon(Clock(dut.clk, 10, "ns").start())
    items = [(x, inv, 1) for x in range(256) for inv in (0, 1)]
    rng.shuffle(items)
    stream = []
    for it in items:
        while rng.random() < 0.2:
            stream.append((rng.getrandbits(8), rng.getrandbits(1), 0))
        stream.append(it)
    stream += [(0, 0, 0)] * 4
    sent: list[tuple[int, int, int]] = []
    n = 0
    for cyc, (x, inv, ok) in enumerate(stream):
        await FallingEdge(dut.clk)
        # the outputs now show the byte that entered r clocks ago (clock edges since)
        # (as bits, MSB first: Icarus starts the registers as X, before any byte reached them)
        out = str(dut.out_pipe.value)
        for r in (1, 2, 3):
            if cyc - r < 0:
                continue
            px, pinv, pok = sent[cyc - r]
            for d in (0, 1, 2):
                k = 3 * (r - 1) + d
                got = int(out[72 - 8 * (k + 1):72 - 8 * k], 2)
                if not pok:
                    exp = SBOX[0]
                else:
                    use_inv = pinv if d == 2 else d
                    exp = INV_SBOX[px] if use_inv else SBOX[px]
                    n += 1
                assert got == exp, (f"REGS={r} DIR={d} byte {px:02x} inv={pinv} ok={pok}: "
                                    f"got {got:02x}, expected {exp:02x}")
        dut.byte_in.value = x
        dut.inv.value = inv
        dut.pok.value = ok
        sent.append((x, inv, ok))
    dut._log.info("checked %d pipelined (REGS, DIR, input, inv) cases", n)
    assert n == 3 * 3 * 512


# ------------------------------------------------------------------------ pytest entry
CASES = [pytest.param(s, {}, id=s) for s in sim.SIMULATORS]


@pytest.mark.parametrize("simulator,parameters", CASES)
def test_aes_sbox(simulator, parameters):
    """Every S-box test on tb_sbox_top, on each simulator."""
    sim.require(simulator)
    sim.run_and_check(
        toplevel="tb_sbox_top",
        sources=rtl.sources() + [HERE / "tb_sbox_top.v"],
        test_module=__name__,
        sim=simulator,
        parameters=parameters,
        seed=run_seed(),
        quiet=True,
    )
