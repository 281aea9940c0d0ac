// SPDX-License-Identifier: Apache-2.0
// aes_mixcolumn: MixColumns / InvMixColumns on one state column (FIPS-197 5.1.3, 5.3.3).
//
// The column is a 32-bit word with row r at bits [8r+7:8r] (byte 0 = row 0 in the LSBs).
// InvMixColumns is computed as MixColumns applied to a pre-processed column
// (a0 ^= 4(a0^a2), a1 ^= 4(a1^a3), a2 ^= 4(a0^a2), a3 ^= 4(a1^a3)), because the
// InvMixColumns matrix equals the MixColumns matrix times {04}x^2+{05}; so the forward
// network is shared when both directions are built.
//
// Parameters
//   DIR : 0 = MixColumns only, 1 = InvMixColumns only, 2 = both (inv selects)
// Ports
//   in  : input column;  inv : 1 = InvMixColumns (used when DIR=2);  out : output column
// Purely combinational.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_mixcolumn #(
    parameter DIR = 2
) (
    input  wire [31:0] in,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire        inv,   // unused unless DIR=2
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [31:0] out
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(DIR == 0 || DIR == 1 || DIR == 2, aes_mixcolumn_DIR_not_0_1_2,
                     "aes_mixcolumn: DIR must be 0 or 1 or 2")
    endgenerate

    function automatic [7:0] xt;  // multiply by {02} in GF(2^8)
        input [7:0] a;
        xt = {a[6:0], 1'b0} ^ (a[7] ? 8'h1b : 8'h00);
    endfunction

    wire [7:0] a0 = in[7:0], a1 = in[15:8], a2 = in[23:16], a3 = in[31:24];
    wire       do_inv = (DIR == 1) ? 1'b1 : (DIR == 0) ? 1'b0 : inv;
    wire [7:0] u = xt(xt(a0 ^ a2));
    wire [7:0] v = xt(xt(a1 ^ a3));
    wire [7:0] b0 = do_inv ? a0 ^ u : a0;
    wire [7:0] b1 = do_inv ? a1 ^ v : a1;
    wire [7:0] b2 = do_inv ? a2 ^ u : a2;
    wire [7:0] b3 = do_inv ? a3 ^ v : a3;
    // MixColumns: r_i = 2 b_i ^ 3 b_{i+1} ^ b_{i+2} ^ b_{i+3}
    wire [7:0] t  = b0 ^ b1 ^ b2 ^ b3;
    wire [7:0] r0 = b0 ^ t ^ xt(b0 ^ b1);
    wire [7:0] r1 = b1 ^ t ^ xt(b1 ^ b2);
    wire [7:0] r2 = b2 ^ t ^ xt(b2 ^ b3);
    wire [7:0] r3 = b3 ^ t ^ xt(b3 ^ b0);
    assign out = {r3, r2, r1, r0};
endmodule
`default_nettype wire
