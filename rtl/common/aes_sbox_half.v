// SPDX-License-Identifier: Apache-2.0
// aes_sbox_half: the AES S-box table on one half of its input space.
//
// The table S-box (aes_sbox IMPL 0) with the top input bit fixed to HALF: a function of
// seven inputs (eight with inv when DIR = 2). On ECP5 a seven-input function fits one
// PFU (LUT4s, PFUMX and two L6MUX21 levels) with no route between its levels; the full
// eight-input table needs a second level of slices and a route in between. aes_pipe's
// stages with table S-boxes and four registers per round (aes_pipe_stage) register both
// halves and select by the top bit one clock later, so that the S-box clock holds one
// PFU's logic. Instantiate it with (* keep_hierarchy *) so that the constant top bit is
// folded here and not merged with the other half.
//
// Parameters
//   DIR  : 0 forward S-box only, 1 inverse only, 2 both (inv selects), as aes_sbox
//   HALF : value of the top input bit, 0 or 1
// Ports
//   in  : low seven bits of the input byte (the top bit is HALF)
//   inv : direction select, used only when DIR = 2
//   out : S({HALF, in}) (or InvS with DIR = 1, or with DIR = 2 and inv = 1)
// Purely combinational; no clock.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_sbox_half #(
    parameter DIR  = 2,
    parameter HALF = 0
) (
    input  wire [6:0] in,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire       inv,   // unused unless DIR=2
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [7:0] out
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(DIR == 0 || DIR == 1 || DIR == 2, aes_sbox_half_DIR_not_0_1_2,
                     "aes_sbox_half: DIR must be 0 or 1 or 2")
        `AESIP_CHECK(HALF == 0 || HALF == 1, aes_sbox_half_HALF_not_0_or_1,
                     "aes_sbox_half: HALF must be 0 or 1")
    endgenerate

    localparam [0:0] TOP = HALF;
    aes_sbox #(.IMPL(0), .DIR(DIR)) u_sbox (.in({TOP, in}), .inv(inv), .out(out));
endmodule
`default_nettype wire
