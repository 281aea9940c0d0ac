// SPDX-License-Identifier: Apache-2.0
// aes_subword: four S-boxes applied to a 32-bit word (byte n at bits [8n+7:8n]).
// Parameters IMPL and DIR and port inv: as in aes_sbox. Purely combinational.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_subword #(
    parameter IMPL = 0,
    parameter DIR  = 2
) (
    input  wire [31:0] in,
    input  wire        inv,
    output wire [31:0] out
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(IMPL == 0 || IMPL == 1, aes_subword_IMPL_not_0_or_1,
                     "aes_subword: IMPL must be 0 or 1")
        `AESIP_CHECK(DIR == 0 || DIR == 1 || DIR == 2, aes_subword_DIR_not_0_1_2,
                     "aes_subword: DIR must be 0 or 1 or 2")
    endgenerate

    genvar i;
    generate
        for (i = 0; i < 4; i = i + 1) begin : g_byte
            // keep_hierarchy: each S-box stays a table of its own in synthesis (flattened,
            // Yosys merges the surrounding registers and logic into the tables)
            (* keep_hierarchy *)
            aes_sbox #(.IMPL(IMPL), .DIR(DIR)) u_sbox (.in(in[8*i +: 8]), .inv(inv), .out(out[8*i +: 8]));
        end
    endgenerate
endmodule
`default_nettype wire
