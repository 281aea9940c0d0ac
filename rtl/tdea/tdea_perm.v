// SPDX-License-Identifier: Apache-2.0
// tdea_perm: the DES initial permutation IP or its inverse IP^-1 (FIPS 46-3 / NIST
// SP 800-67), including the conversion between the byte order of the block ports and
// DES bit numbering. Combinational (wiring only).
//
// Block ports (docs/cores.md): byte n of the block at bits [8n+7:8n]; the first byte of
// a block is DES bits 1..8 (bit 1 = its most significant bit). Inside the cores DES bit
// k of a 64-bit vector v is v[64-k], so {L, R} has L in bits [63:32].
// Parameters
//   FINAL : 0 (default): out = IP(in), in in port byte order, out = {L0, R0};
//           1: out = IP^-1(in), in = the pre-output {R16, L16}, out in port byte order
// Ports
//   in, out : 64-bit blocks as above
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module tdea_perm #(
    parameter FINAL = 0
) (
    input  wire [63:0] in,
    output wire [63:0] out
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(FINAL == 0 || FINAL == 1, tdea_perm_FINAL_not_0_or_1, "tdea_perm: FINAL must be 0 or 1")
    endgenerate

    // IP: output bit i (1..64) is input bit IP_T[i]; IP^-1 is its inverse
    localparam [511:0] IP_T = {
        8'd58, 8'd50, 8'd42, 8'd34, 8'd26, 8'd18, 8'd10, 8'd2, 8'd60, 8'd52, 8'd44, 8'd36, 8'd28, 8'd20, 8'd12, 8'd4,
        8'd62, 8'd54, 8'd46, 8'd38, 8'd30, 8'd22, 8'd14, 8'd6, 8'd64, 8'd56, 8'd48, 8'd40, 8'd32, 8'd24, 8'd16, 8'd8,
        8'd57, 8'd49, 8'd41, 8'd33, 8'd25, 8'd17, 8'd9, 8'd1, 8'd59, 8'd51, 8'd43, 8'd35, 8'd27, 8'd19, 8'd11, 8'd3,
        8'd61, 8'd53, 8'd45, 8'd37, 8'd29, 8'd21, 8'd13, 8'd5, 8'd63, 8'd55, 8'd47, 8'd39, 8'd31, 8'd23, 8'd15, 8'd7
    };

    wire [63:0] a;   // DES bit order side ({L, R})
    wire [63:0] b;   // port side, in DES bit order (byte 0 in bits [63:56])
    genvar i;
    generate
        for (i = 0; i < 8; i = i + 1) begin : g_bytes
            if (FINAL == 0) begin : g_in
                assign b[63 - 8*i -: 8] = in[8*i +: 8];
            end else begin : g_out
                assign out[8*i +: 8] = b[63 - 8*i -: 8];
            end
        end
        for (i = 0; i < 64; i = i + 1) begin : g_ip
            if (FINAL == 0) begin : g_fwd
                // DES bit i+1 of IP(b) is DES bit IP_T[i+1] of b
                localparam integer SRC = 64 - {24'd0, IP_T[(63-i)*8 +: 8]};   // constant bit index
                assign a[63-i] = b[SRC];
            end else begin : g_inv
                // IP^-1: DES bit IP_T[i+1] of the result is DES bit i+1 of the pre-output
                localparam integer DST = 64 - {24'd0, IP_T[(63-i)*8 +: 8]};   // constant bit index
                assign b[DST] = a[63-i];
            end
        end
        if (FINAL == 0) begin : g_o
            assign out = a;
        end else begin : g_i
            assign a = in;
        end
    endgenerate
endmodule
`default_nettype wire
