// SPDX-License-Identifier: Apache-2.0
// tdea_des_sp: second half of a DES round (FIPS 46-3 / NIST SP 800-67): the eight
// S-boxes S1..S8 and the permutation P (tdea_des_f) give f(R, K) from x = E(R) xor K
// (tdea_des_ek); f is XORed into the left half. Combinational.
//
// Bit order: DES bit k of an n-bit vector v is v[n-k] (bit 1 = most significant).
// Ports
//   x    : E(R) xor subkey (48 bits; S-box j reads DES bits 6j-5 .. 6j)
//   lr   : the round's input {L, R} (64 bits)
//   swap : 1: a normal round, {L, R} -> {R, L ^ f}; 0: the last round of a DES
//          operation, {L, R} -> {L ^ f, R} (no swap, so the result is the pre-output
//          R16 L16 that the final permutation, or the next DES operation's rounds, take)
//   out  : the round's output {L', R'}
`timescale 1ns / 1ps
`default_nettype none
module tdea_des_sp (
    input  wire [47:0] x,
    input  wire [63:0] lr,
    input  wire        swap,
    output wire [63:0] out
);
    wire [31:0] f;
    tdea_des_f u_f (.x(x), .f(f));

    wire [31:0] l  = lr[63:32];
    wire [31:0] r  = lr[31:0];
    wire [31:0] lf = l ^ f;
    assign out = swap ? {r, lf} : {lf, r};
endmodule
`default_nettype wire
