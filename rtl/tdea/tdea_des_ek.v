// SPDX-License-Identifier: Apache-2.0
// tdea_des_ek: first half of a DES round (FIPS 46-3 / NIST SP 800-67): the expansion E
// of the right half, XORed with the round's subkey. Combinational. The right half may be
// given as two terms (r xor rx): tdea_pipe_stage passes the previous round's L and f, so
// that each S-box input is one XOR of three bits, in one LUT4 when the module keeps its
// hierarchy; tdea_iter passes rx = 0.
//
// Bit order: DES numbers bits from 1 at the most significant end, so DES bit k of an
// n-bit vector v is v[n-k] (the same in every tdea_* module).
// Ports
//   r, rx  : right half R = r xor rx (32 bits each)
//   subkey : the round's 48-bit subkey (PC-2 output)
//   x      : E(R) xor subkey (48 bits), the S-box inputs of tdea_des_f
`timescale 1ns / 1ps
`default_nettype none
module tdea_des_ek (
    input  wire [31:0] r,
    input  wire [31:0] rx,
    input  wire [47:0] subkey,
    output wire [47:0] x
);
    // E bit-selection table: output bit i (1..48) is R bit E_T[i]; entry 1 first (MSB)
    localparam [383:0] E_T = {
        8'd32, 8'd1, 8'd2, 8'd3, 8'd4, 8'd5, 8'd4, 8'd5, 8'd6, 8'd7, 8'd8, 8'd9,
        8'd8, 8'd9, 8'd10, 8'd11, 8'd12, 8'd13, 8'd12, 8'd13, 8'd14, 8'd15, 8'd16, 8'd17,
        8'd16, 8'd17, 8'd18, 8'd19, 8'd20, 8'd21, 8'd20, 8'd21, 8'd22, 8'd23, 8'd24, 8'd25,
        8'd24, 8'd25, 8'd26, 8'd27, 8'd28, 8'd29, 8'd28, 8'd29, 8'd30, 8'd31, 8'd32, 8'd1
    };

    wire [47:0] e;
    genvar i;
    generate
        for (i = 0; i < 48; i = i + 1) begin : g_e
            localparam integer SRC = 32 - {24'd0, E_T[(47-i)*8 +: 8]};   // constant bit index
            assign e[47-i] = r[SRC] ^ rx[SRC];
        end
    endgenerate
    assign x = e ^ subkey;
endmodule
`default_nettype wire
