// SPDX-License-Identifier: Apache-2.0
// aes_sbox: one AES S-box, forward and/or inverse, with a selectable implementation.
//
// Parameters
//   IMPL : 0 (LUT)  - 256-entry tables (aes_sbox_lut_fwd / aes_sbox_lut_inv); fastest on
//                   6-input-LUT FPGAs.
//          1 (COMP) - composite-field GF((2^4)^2) circuit (aes_sbox_comp); the forward and
//                   inverse directions share one GF(2^8) inverter, so DIR=2 costs
//                   little more than one direction. Smallest in ASIC and on 4-LUT FPGAs.
//   DIR  : 0 (ENC)  - forward S-box only (inv is ignored)
//          1 (DEC)  - inverse S-box only (inv is ignored)
//          2 (BOTH) - inv selects: 0 = SubBytes, 1 = InvSubBytes
// Ports
//   in  : input byte
//   inv : direction select (only used when DIR=2)
//   out : output byte
// Purely combinational; no clock.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_sbox #(
    parameter IMPL = 0,
    parameter DIR  = 2
) (
    input  wire [7:0] in,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire       inv,   // unused unless DIR=2
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [7:0] out
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(IMPL == 0 || IMPL == 1, aes_sbox_IMPL_not_0_or_1,
                     "aes_sbox: IMPL must be 0 or 1")
        `AESIP_CHECK(DIR == 0 || DIR == 1 || DIR == 2, aes_sbox_DIR_not_0_1_2,
                     "aes_sbox: DIR must be 0 or 1 or 2")
    endgenerate

    generate
        if (IMPL == 1) begin : g_comp
            aes_sbox_comp #(.DIR(DIR), .REGS(0)) u_comp (
                .clk(1'b0), .ok(1'b0), .in(in), .inv(inv), .out(out));
        end else if (DIR == 0) begin : g_fwd
            aes_sbox_lut_fwd u_fwd (.in(in), .out(out));
        end else if (DIR == 1) begin : g_inv
            aes_sbox_lut_inv u_inv (.in(in), .out(out));
        end else begin : g_both
            wire [7:0] f, r;
            aes_sbox_lut_fwd u_fwd (.in(in), .out(f));
            aes_sbox_lut_inv u_inv (.in(in), .out(r));
            assign out = inv ? r : f;
        end
    endgenerate
endmodule
`default_nettype wire
