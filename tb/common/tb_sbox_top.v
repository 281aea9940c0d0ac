// SPDX-License-Identifier: Apache-2.0
// tb_sbox_top: simulation top for the S-box tests (tb/common/prim_tests.py).
//
// Instantiates aes_sbox for both implementations (IMPL 0 and 1) and every direction
// parameter (DIR 0, 1, 2), all driven by the same byte and inv, the half tables
// (aes_sbox_half) for every DIR and HALF, plus one aes_subword
// (DIR=2) per implementation on a separate 32-bit word, so that a single build covers
// every S-box configuration.
//
// Ports
//   byte_in   : input byte of the six aes_sbox instances
//   inv       : direction select, connected to every instance (only DIR=2 may use it)
//   out_fwd0  : aes_sbox IMPL=0 DIR=0 (forward only)     out_fwd1  : same, IMPL=1
//   out_inv0  : aes_sbox IMPL=0 DIR=1 (inverse only)     out_inv1  : same, IMPL=1
//   out_both0 : aes_sbox IMPL=0 DIR=2 (inv selects)      out_both1 : same, IMPL=1
//   word_in   : input word of the two aes_subword instances (DIR=2, same inv)
//   word_out0 : aes_subword IMPL=0                       word_out1 : aes_subword IMPL=1
//   clk, pok  : clock and "byte valid" of the pipelined composite S-boxes below (pok is
//               delayed here so that ok[k] describes the byte entering register k)
//   out_pipe  : aes_sbox_comp REGS = r (1 .. 3), DIR = d (0 .. 2) at bits
//               [8*(3*(r-1)+d) +: 8], fed with byte_in and inv; out_pipe is the result
//               for the byte that entered r clocks earlier
//   out_half  : aes_sbox_half DIR = d (0 .. 2), HALF = h (0, 1) at bits [8*(2*d+h) +: 8],
//               fed with byte_in[6:0] and inv (byte_in[7] is not connected to them)
// Combinational except for the pipelined composite S-boxes.
`timescale 1ns / 1ps
`default_nettype none
module tb_sbox_top (
    input  wire [7:0]  byte_in,
    input  wire        inv,
    output wire [7:0]  out_fwd0,
    output wire [7:0]  out_inv0,
    output wire [7:0]  out_both0,
    output wire [7:0]  out_fwd1,
    output wire [7:0]  out_inv1,
    output wire [7:0]  out_both1,
    input  wire [31:0] word_in,
    output wire [31:0] word_out0,
    output wire [31:0] word_out1,
    input  wire        clk,
    input  wire        pok,
    output wire [71:0] out_pipe,
    output wire [47:0] out_half
);
    aes_sbox #(.IMPL(0), .DIR(0)) u_fwd0 (.in(byte_in), .inv(inv), .out(out_fwd0));
    aes_sbox #(.IMPL(0), .DIR(1)) u_inv0 (.in(byte_in), .inv(inv), .out(out_inv0));
    aes_sbox #(.IMPL(0), .DIR(2)) u_both0 (.in(byte_in), .inv(inv), .out(out_both0));
    aes_sbox #(.IMPL(1), .DIR(0)) u_fwd1 (.in(byte_in), .inv(inv), .out(out_fwd1));
    aes_sbox #(.IMPL(1), .DIR(1)) u_inv1 (.in(byte_in), .inv(inv), .out(out_inv1));
    aes_sbox #(.IMPL(1), .DIR(2)) u_both1 (.in(byte_in), .inv(inv), .out(out_both1));
    aes_subword #(.IMPL(0), .DIR(2)) u_word0 (.in(word_in), .inv(inv), .out(word_out0));
    aes_subword #(.IMPL(1), .DIR(2)) u_word1 (.in(word_in), .inv(inv), .out(word_out1));

    genvar h;
    generate
        for (h = 0; h < 6; h = h + 1) begin : g_half
            aes_sbox_half #(.DIR(h / 2), .HALF(h % 2)) u_h (
                .in(byte_in[6:0]), .inv(inv), .out(out_half[8*h +: 8]));
        end
    endgenerate

    reg [1:0] pok_d;     // pok one and two clocks ago
    always @(posedge clk) pok_d <= {pok_d[0], pok};
    wire [2:0] okv = {pok_d, pok};
    genvar r, d;
    generate
        for (r = 1; r <= 3; r = r + 1) begin : g_r
            for (d = 0; d <= 2; d = d + 1) begin : g_d
                aes_sbox_comp #(.DIR(d), .REGS(r)) u_p (
                    .clk(clk), .ok(okv[r-1:0]), .in(byte_in), .inv(inv),
                    .out(out_pipe[8*(3*(r-1)+d) +: 8]));
            end
        end
    endgenerate
endmodule
`default_nettype wire
