# SPDX-License-Identifier: Apache-2.0
"""Generator for rtl/common/aes_sbox_comp.v, the composite-field GF((2^4)^2) AES S-box.

Usage (from the repository root):
    python -m aesip.gen_sbox_comp > rtl/common/aes_sbox_comp.v
    python -m aesip.gen_sbox_comp --check     # regenerate and compare with the file

Derivation (all arithmetic here is plain GF(2) linear algebra, checked at the end
against the FIPS-197 S-box computed by aesip.ref):
  * GF(2^4) = GF(2)[z]/(z^4 + z + 1), polynomial basis, nibble bit j = coefficient of z^j.
  * GF((2^4)^2) = GF(2^4)[y]/(y^2 + y + LAMBDA); an element ah*y + al is the byte
    {ah, al} (ah in bits [7:4]).  Its inverse is
        d  = LAMBDA*ah^2 + ah*al + al^2          (in GF(2^4))
        (ah*y + al)^-1 = (ah*d^-1)*y + ((ah+al)*d^-1).
  * The AES field GF(2^8) = GF(2)[x]/(x^8+x^4+x^3+x+1) maps to the composite field by
    the GF(2)-linear isomorphism x^i -> g^i, where g is a root of the AES polynomial in
    the composite field.  Every (LAMBDA, g) pair is tried; the one whose four folded
    matrices have the fewest ones is used.
  * Forward S-box:  out = A * Mout * INV(Min * in) + 63h
    Inverse S-box:  out =     Mout * INV(Min * A^-1 * in + Min * 05h)
    where A is the FIPS-197 affine matrix (A^-1 * 63h = 05h).  So the RTL computes one
    of two input matrices (Min, Min*A^-1 plus a constant), one shared inverter, and one
    of two output matrices (A*Mout plus 63h, Mout).
"""
from __future__ import annotations

import sys
from pathlib import Path

AES_POLY = 0x11B
GF16_POLY = 0x13  # z^4 + z + 1


# ---------------------------------------------------------------- field arithmetic
def gf16_mul(a: int, b: int) -> int:
    r = 0
    for i in range(4):
        if (b >> i) & 1:
            r ^= a << i
    for i in (6, 5, 4):
        if (r >> i) & 1:
            r ^= GF16_POLY << (i - 4)
    return r


def gf16_inv(a: int) -> int:
    if a == 0:
        return 0
    return next(b for b in range(1, 16) if gf16_mul(a, b) == 1)


def comp_mul(a: int, b: int, lam: int) -> int:
    ah, al, bh, bl = a >> 4, a & 15, b >> 4, b & 15
    hh = gf16_mul(ah, bh)
    # (ah y + al)(bh y + bl) = hh y^2 + (ah bl + al bh) y + al bl,  y^2 = y + lam
    hi = hh ^ gf16_mul(ah, bl) ^ gf16_mul(al, bh)
    lo = gf16_mul(hh, lam) ^ gf16_mul(al, bl)
    return (hi << 4) | lo


def comp_inv(a: int, lam: int) -> int:
    ah, al = a >> 4, a & 15
    d = gf16_mul(lam, gf16_mul(ah, ah)) ^ gf16_mul(ah, al) ^ gf16_mul(al, al)
    di = gf16_inv(d)
    return (gf16_mul(ah, di) << 4) | gf16_mul(ah ^ al, di)


def aes_mul(a: int, b: int) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        if a & 0x100:
            a ^= AES_POLY
        b >>= 1
    return r


# ---------------------------------------------------------------- GF(2) matrices
# A matrix is a list of 8 row masks: output bit i = parity(row[i] & input).
def mat_apply(m: list[int], v: int) -> int:
    return sum((bin(m[i] & v).count("1") & 1) << i for i in range(len(m)))


def mat_from_columns(cols: list[int]) -> list[int]:
    return [sum(((cols[j] >> i) & 1) << j for j in range(8)) for i in range(8)]


def mat_mul(a: list[int], b: list[int]) -> list[int]:
    cols = [mat_apply(a, mat_apply(b, 1 << j)) for j in range(8)]
    return mat_from_columns(cols)


def mat_inv(m: list[int]) -> list[int]:
    rows = [(m[i], 1 << i) for i in range(8)]
    for c in range(8):
        p = next(r for r in range(c, 8) if (rows[r][0] >> c) & 1)
        rows[c], rows[p] = rows[p], rows[c]
        for r in range(8):
            if r != c and (rows[r][0] >> c) & 1:
                rows[r] = (rows[r][0] ^ rows[c][0], rows[r][1] ^ rows[c][1])
    return [rows[i][1] for i in range(8)]


def weight(m: list[int]) -> int:
    return sum(bin(r).count("1") for r in m)


AFFINE = [((1 << i) | (1 << ((i + 4) % 8)) | (1 << ((i + 5) % 8)) | (1 << ((i + 6) % 8)) | (1 << ((i + 7) % 8)))
          for i in range(8)]
AFFINE_C = 0x63


def candidates():
    """All (lam, Min, Mout) with y^2+y+lam irreducible over GF(2^4) and Min an isomorphism."""
    for lam in range(1, 16):
        if any(gf16_mul(t, t) ^ t ^ lam == 0 for t in range(16)):
            continue  # reducible
        for g in range(2, 256):
            # g must satisfy g^8 + g^4 + g^3 + g + 1 = 0 in the composite field
            p = [1]
            for _ in range(8):
                p.append(comp_mul(p[-1], g, lam))
            if p[8] ^ p[4] ^ p[3] ^ p[1] ^ p[0]:
                continue
            m_in = mat_from_columns(p[:8])  # AES bit i (x^i) -> g^i
            yield lam, g, m_in, mat_inv(m_in)


def choose():
    a_inv = mat_inv(AFFINE)
    best = None
    for lam, g, m_in, m_out in candidates():
        f_in, r_in = m_in, mat_mul(m_in, a_inv)
        f_out, r_out = mat_mul(AFFINE, m_out), m_out
        cost = weight(f_in) + weight(r_in) + weight(f_out) + weight(r_out)
        if best is None or cost < best[0]:
            best = (cost, lam, g, f_in, r_in, mat_apply(m_in, mat_apply(a_inv, AFFINE_C)), f_out, r_out)
    return best[1:]


# ---------------------------------------------------------------- verification
def model(x: int, inverse: bool, lam, f_in, r_in, r_c, f_out, r_out) -> int:
    if inverse:
        return mat_apply(r_out, comp_inv(mat_apply(r_in, x) ^ r_c, lam))
    return mat_apply(f_out, comp_inv(mat_apply(f_in, x), lam)) ^ AFFINE_C


def verify(params) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from aesip.ref import fips197_inv_sbox, fips197_sbox

    fwd, inv = fips197_sbox(), fips197_inv_sbox()
    for x in range(256):
        assert model(x, False, *params) == fwd[x], hex(x)
        assert model(x, True, *params) == inv[x], hex(x)
    # the isomorphism really is one (multiplicative)
    lam, f_in = params[0], params[1]
    for a in range(0, 256, 7):
        for b in range(0, 256, 11):
            assert mat_apply(f_in, aes_mul(a, b)) == comp_mul(mat_apply(f_in, a), mat_apply(f_in, b), lam)


# ---------------------------------------------------------------- Verilog emission
def xor_terms(row: int, name: str, const_bit: int = 0) -> str:
    terms = [f"{name}[{j}]" for j in range(8) if (row >> j) & 1]
    s = " ^ ".join(terms) if terms else "1'b0"
    return f"~({s})" if const_bit else s


def emit_matrix(lines: list[str], wire: str, m: list[int], src: str, const: int = 0) -> None:
    lines.append(f"    wire [7:0] {wire};")
    for i in range(8):
        lines.append(f"    assign {wire}[{i}] = {xor_terms(m[i], src, (const >> i) & 1)};")


def gf16_anf(fn) -> list[list[int]]:
    """Algebraic normal form of each output bit of a 4-bit -> 4-bit function:
    list of monomials (input-bit masks) per output bit (Moebius transform)."""
    out = []
    for bit in range(4):
        t = [(fn(v) >> bit) & 1 for v in range(16)]
        for i in range(4):
            for v in range(16):
                if (v >> i) & 1:
                    t[v] ^= t[v ^ (1 << i)]
        out.append([v for v in range(16) if t[v]])
    return out


def mono(v: int, name: str) -> str:
    bits = [f"{name}[{j}]" for j in range(4) if (v >> j) & 1]
    if not bits:
        return "1'b1"
    return bits[0] if len(bits) == 1 else "(" + " & ".join(bits) + ")"


def generate() -> str:
    lam, g, f_in, r_in, r_c, f_out, r_out = choose()
    params = (lam, f_in, r_in, r_c, f_out, r_out)
    verify(params)

    # linear part of d: LAMBDA*ah^2 + al^2 as a GF(2) map of the byte {ah, al} to a nibble
    sq_rows = []
    for i in range(4):
        row = 0
        for j in range(8):
            v = 1 << j
            ah, al = v >> 4, v & 15
            r = gf16_mul(lam, gf16_mul(ah, ah)) ^ gf16_mul(al, al)
            row |= ((r >> i) & 1) << j
        sq_rows.append(row)

    # GF(2^4) multiplication: c_i = XOR of a_j & b_k over the (j, k) pairs that reach bit i
    mul_terms = [[] for _ in range(4)]
    for j in range(4):
        for k in range(4):
            p = gf16_mul(1 << j, 1 << k)
            for i in range(4):
                if (p >> i) & 1:
                    mul_terms[i].append((j, k))
    inv_anf = gf16_anf(gf16_inv)

    L = []
    L.append("// SPDX-License-Identifier: Apache-2.0")
    L.append("// aes_sbox_comp: AES S-box (forward and/or inverse) as a composite-field circuit.")
    L.append("//")
    L.append("// GENERATED by `python -m aesip.gen_sbox_comp > rtl/common/aes_sbox_comp.v`; do not edit.")
    L.append("//")
    L.append("// The byte is mapped by a GF(2)-linear isomorphism from the AES field")
    L.append("// GF(2^8)/(x^8+x^4+x^3+x+1) into GF((2^4)^2): GF(2^4) = GF(2)[z]/(z^4+z+1)")
    L.append(f"// (polynomial basis) and GF(2^8) = GF(2^4)[y]/(y^2+y+L) with L = {lam:#x};")
    L.append(f"// the AES element x (02h) maps to the composite element {g:#04x}. The inverse of")
    L.append("// ah*y+al is (ah*d^-1)*y + (ah+al)*d^-1 with d = L*ah^2 + ah*al + al^2, which needs")
    L.append("// three GF(2^4) multipliers and one GF(2^4) inverter (0 maps to 0, as AES requires).")
    L.append("// The input isomorphism (for the inverse S-box: composed with the inverse affine")
    L.append("// map) and the output isomorphism (for the forward S-box: composed with the affine")
    L.append("// map) are folded into one XOR matrix per direction, so both directions share the")
    L.append("// single GF(2^8) inverter: forward = A*Mout*INV(Min*in)+63h,")
    L.append("// inverse = Mout*INV(Min*A^-1*(in+63h)).")
    L.append("//")
    L.append("// Pipelined use (REGS > 0, for deep LUT-only pipelines such as aes_pipe with")
    L.append("// ROUND_REGS 5 .. 7): registers cut the circuit into REGS + 1 pieces of a few LUT")
    L.append("// levels each; the direction select travels with the data.")
    L.append("//   REGS = 1 : in -> d | d^-1, products, output map")
    L.append("//   REGS = 2 : in -> d | d^-1, products | output map")
    L.append("//   REGS = 3 : in -> input map | d | d^-1, products | output map")
    L.append("// (d = the GF(2^4) norm below). Register k loads zero unless ok[k] is set, so a")
    L.append("// bubble carries no data and nothing of a block stays behind once it has passed.")
    L.append("//")
    L.append("// Parameters")
    L.append("//   DIR  : 0 = forward S-box only (inv is ignored), 1 = inverse S-box only (inv is")
    L.append("//          ignored), 2 = both, inv selects (0 = SubBytes, 1 = InvSubBytes)")
    L.append("//   REGS : 0 .. 3 internal registers (0: purely combinational, clk and ok unused)")
    L.append("// Ports")
    L.append("//   clk : clock of the internal registers (REGS > 0)")
    L.append("//   ok  : ok[k] = the byte entering internal register k at the next edge is valid")
    L.append("//         (register k loads zero otherwise); width max(REGS, 1)")
    L.append("//   in  : input byte (bit i = coefficient of x^i, FIPS-197 3.2)")
    L.append("//   inv : direction select of that byte, only used when DIR = 2")
    L.append("//   out : S(in) or InvS(in) of the byte that entered REGS clocks earlier")
    L.append("// Timing: REGS clocks from in to out (REGS = 0: combinational); no tables, no reset.")
    L.append("`timescale 1ns / 1ps")
    L.append("`default_nettype none")
    L.append("`include \"aesip_check.vh\"")
    L.append("module aes_sbox_comp #(")
    L.append("    parameter DIR  = 2,")
    L.append("    parameter REGS = 0")
    L.append(") (")
    L.append("    /* verilator lint_off UNUSEDSIGNAL */")
    L.append("    input  wire                                 clk,   // unused when REGS = 0")
    L.append("    input  wire [((REGS > 0) ? REGS : 1)-1:0]   ok,    // unused when REGS = 0")
    L.append("    /* verilator lint_on UNUSEDSIGNAL */")
    L.append("    input  wire [7:0] in,")
    L.append("    /* verilator lint_off UNUSEDSIGNAL */")
    L.append("    input  wire       inv,   // unused unless DIR=2")
    L.append("    /* verilator lint_on UNUSEDSIGNAL */")
    L.append("    output wire [7:0] out")
    L.append(");")
    L.append("    // parameter limits (documented above), checked at elaboration")
    L.append("    generate")
    L.append("        `AESIP_CHECK(DIR == 0 || DIR == 1 || DIR == 2, aes_sbox_comp_DIR_not_0_1_2,")
    L.append("                     \"aes_sbox_comp: DIR must be 0 or 1 or 2\")")
    L.append("        `AESIP_CHECK(REGS >= 0 && REGS <= 3, aes_sbox_comp_REGS_not_0_to_3,")
    L.append("                     \"aes_sbox_comp: REGS must be 0 .. 3\")")
    L.append("    endgenerate")
    L.append("")
    L.append("    // GF(2^4) multiplication, z^4 = z + 1")
    L.append("    function automatic [3:0] gf16_mul;")
    L.append("        input [3:0] a;")
    L.append("        input [3:0] b;")
    L.append("        begin")
    for i in range(4):
        t = " ^ ".join(f"(a[{j}] & b[{k}])" for j, k in mul_terms[i])
        L.append(f"            gf16_mul[{i}] = {t};")
    L.append("        end")
    L.append("    endfunction")
    L.append("")
    L.append("    // GF(2^4) inversion (0 -> 0), algebraic normal form")
    L.append("    function automatic [3:0] gf16_inv;")
    L.append("        input [3:0] a;")
    L.append("        begin")
    for i in range(4):
        t = " ^ ".join(mono(v, "a") for v in inv_anf[i])
        L.append(f"            gf16_inv[{i}] = {t};")
    L.append("        end")
    L.append("    endfunction")
    L.append("")
    L.append("    wire sel_inv = (DIR == 1) ? 1'b1 : (DIR == 0) ? 1'b0 : inv;")
    L.append("")
    L.append("    // input maps: forward = Min*in; inverse = Min*A^-1*in + Min*05h")
    emit_matrix(L, "fin", f_in, "in")
    emit_matrix(L, "rin", r_in, "in", r_c)
    L.append("    wire [7:0] a0 = sel_inv ? rin : fin;")
    L.append("")
    L.append("    // optional registers: after the input map (REGS = 3, register 0), after d")
    L.append("    // (REGS >= 1, register KD) and after the products (REGS >= 2, register KB); each")
    L.append("    // carries the direction select along; an unused cut is a pass-through wire")
    L.append("    localparam KD = (REGS == 3) ? 1 : 0;")
    L.append("    localparam KB = KD + 1;")
    L.append("    wire [7:0] a;")
    L.append("    wire       inv_a;")
    L.append("    generate")
    L.append("        if (REGS == 3) begin : g_ra")
    L.append("            reg [7:0] a_q;")
    L.append("            reg       inv_q;")
    L.append("            always @(posedge clk) begin")
    L.append("                a_q   <= ok[0] ? a0 : 8'd0;")
    L.append("                inv_q <= ok[0] && sel_inv;")
    L.append("            end")
    L.append("            assign a = a_q;")
    L.append("            assign inv_a = inv_q;")
    L.append("        end else begin : g_na")
    L.append("            assign a = a0;")
    L.append("            assign inv_a = sel_inv;")
    L.append("        end")
    L.append("    endgenerate")
    L.append("")
    L.append("    // shared GF((2^4)^2) inverter")
    L.append("    wire [3:0] sq;  // L*ah^2 + al^2 (linear)")
    for i in range(4):
        L.append(f"    assign sq[{i}] = {xor_terms(sq_rows[i], 'a')};")
    L.append("    wire [3:0] d0 = sq ^ gf16_mul(a[7:4], a[3:0]);")
    L.append("    wire [3:0] ah, al, d;")
    L.append("    wire       inv_d;")
    L.append("    generate")
    L.append("        if (REGS >= 1) begin : g_rd")
    L.append("            reg [11:0] q;")
    L.append("            reg        inv_q;")
    L.append("            always @(posedge clk) begin")
    L.append("                q     <= ok[KD] ? {a, d0} : 12'd0;")
    L.append("                inv_q <= ok[KD] && inv_a;")
    L.append("            end")
    L.append("            assign {ah, al, d} = q;")
    L.append("            assign inv_d = inv_q;")
    L.append("        end else begin : g_nd")
    L.append("            assign {ah, al, d} = {a, d0};")
    L.append("            assign inv_d = inv_a;")
    L.append("        end")
    L.append("    endgenerate")
    L.append("    wire [3:0] di = gf16_inv(d);")
    L.append("    wire [7:0] b0 = {gf16_mul(ah, di), gf16_mul(ah ^ al, di)};")
    L.append("    wire [7:0] b;")
    L.append("    wire       inv_b;")
    L.append("    generate")
    L.append("        if (REGS >= 2) begin : g_rb")
    L.append("            reg [7:0] b_q;")
    L.append("            reg       inv_q;")
    L.append("            always @(posedge clk) begin")
    L.append("                b_q   <= ok[KB] ? b0 : 8'd0;")
    L.append("                inv_q <= ok[KB] && inv_d;")
    L.append("            end")
    L.append("            assign b = b_q;")
    L.append("            assign inv_b = inv_q;")
    L.append("        end else begin : g_nb")
    L.append("            assign b = b0;")
    L.append("            assign inv_b = inv_d;")
    L.append("        end")
    L.append("    endgenerate")
    L.append("")
    L.append("    // output maps: forward = A*Mout*b + 63h; inverse = Mout*b")
    emit_matrix(L, "fout", f_out, "b", AFFINE_C)
    emit_matrix(L, "rout", r_out, "b")
    L.append("    assign out = inv_b ? rout : fout;")
    L.append("endmodule")
    L.append("`default_nettype wire")
    return "\n".join(L) + "\n"


def generated_file_main(argv: list[str], text: str, path: Path) -> int:
    """Command line of a generator of one committed file: print `text`, or with --check
    compare it with `path` (exit 1 when they differ)."""
    if "--check" in argv:
        same = path.read_text() == text
        print("up to date" if same else f"{path} differs from the generator output")
        return 0 if same else 1
    sys.stdout.write(text)
    return 0


def main(argv: list[str]) -> int:
    path = Path(__file__).resolve().parent.parent / "rtl" / "common" / "aes_sbox_comp.v"
    return generated_file_main(argv, generate(), path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
