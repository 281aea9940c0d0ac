// SPDX-License-Identifier: Apache-2.0
// aes_subword: four S-boxes applied to a 32-bit word (byte n at bits [8n+7:8n]).
// Parameters IMPL and DIR and port inv: as in aes_sbox. Purely combinational.
`timescale 1ns / 1ps
`default_nettype none
module aes_subword #(
    parameter IMPL = 0,
    parameter DIR  = 2
) (
    input  wire [31:0] in,
    input  wire        inv,
    output wire [31:0] out
);
    genvar i;
    generate
        for (i = 0; i < 4; i = i + 1) begin : g_byte
            aes_sbox #(.IMPL(IMPL), .DIR(DIR)) u_sbox (.in(in[8*i +: 8]), .inv(inv), .out(out[8*i +: 8]));
        end
    endgenerate
endmodule
`default_nettype wire
