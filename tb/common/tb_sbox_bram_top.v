// SPDX-License-Identifier: Apache-2.0
// tb_sbox_bram_top: simulation top for the block-RAM S-box tests
// (tb/common/test_aes_sbox_bram.py): aes_sbox_bram with DIR 0, 1 and 2, all driven by the
// same port inputs, in the simulation model (no AESIP_BRAM_* define: the inferred ROM);
// each with OUT_REG = 1 (the default, two clocks) and OUT_REG = 0 (one clock).
//
// Ports
//   clk                : clock
//   a_in, a_inv, a_clr, a_en : port A inputs of the six instances
//   b_in, b_inv, b_clr, b_en : port B inputs of the six instances
//   a_out0 / b_out0    : DIR=0 (forward only) outputs
//   a_out1 / b_out1    : DIR=1 (inverse only) outputs
//   a_out2 / b_out2    : DIR=2 (inv selects) outputs
//   a_q0 .. b_q2       : the same three with OUT_REG = 0
//   a_x2 / b_x2        : DIR=2 with X4 = 1 (16 bits: the S-box byte, {04} x InvS above it)
`timescale 1ns / 1ps
`default_nettype none
module tb_sbox_bram_top (
    input  wire       clk,
    input  wire [7:0] a_in,
    input  wire       a_inv,
    input  wire       a_clr,
    input  wire       a_en,
    input  wire [7:0] b_in,
    input  wire       b_inv,
    input  wire       b_clr,
    input  wire       b_en,
    output wire [7:0] a_out0,
    output wire [7:0] b_out0,
    output wire [7:0] a_out1,
    output wire [7:0] b_out1,
    output wire [7:0] a_out2,
    output wire [7:0] b_out2,
    output wire [7:0] a_q0,
    output wire [7:0] b_q0,
    output wire [7:0] a_q1,
    output wire [7:0] b_q1,
    output wire [7:0] a_q2,
    output wire [7:0] b_q2,
    output wire [15:0] a_x2,
    output wire [15:0] b_x2
);
    aes_sbox_bram #(.DIR(0)) u_fwd (
        .clk(clk), .a_in(a_in), .a_inv(a_inv), .a_clr(a_clr), .a_en(a_en), .a_out(a_out0),
        .b_in(b_in), .b_inv(b_inv), .b_clr(b_clr), .b_en(b_en), .b_out(b_out0));
    aes_sbox_bram #(.DIR(1)) u_inv (
        .clk(clk), .a_in(a_in), .a_inv(a_inv), .a_clr(a_clr), .a_en(a_en), .a_out(a_out1),
        .b_in(b_in), .b_inv(b_inv), .b_clr(b_clr), .b_en(b_en), .b_out(b_out1));
    aes_sbox_bram #(.DIR(2)) u_both (
        .clk(clk), .a_in(a_in), .a_inv(a_inv), .a_clr(a_clr), .a_en(a_en), .a_out(a_out2),
        .b_in(b_in), .b_inv(b_inv), .b_clr(b_clr), .b_en(b_en), .b_out(b_out2));
    aes_sbox_bram #(.DIR(0), .OUT_REG(0)) u_fwd_q (
        .clk(clk), .a_in(a_in), .a_inv(a_inv), .a_clr(a_clr), .a_en(a_en), .a_out(a_q0),
        .b_in(b_in), .b_inv(b_inv), .b_clr(b_clr), .b_en(b_en), .b_out(b_q0));
    aes_sbox_bram #(.DIR(1), .OUT_REG(0)) u_inv_q (
        .clk(clk), .a_in(a_in), .a_inv(a_inv), .a_clr(a_clr), .a_en(a_en), .a_out(a_q1),
        .b_in(b_in), .b_inv(b_inv), .b_clr(b_clr), .b_en(b_en), .b_out(b_q1));
    aes_sbox_bram #(.DIR(2), .OUT_REG(0)) u_both_q (
        .clk(clk), .a_in(a_in), .a_inv(a_inv), .a_clr(a_clr), .a_en(a_en), .a_out(a_q2),
        .b_in(b_in), .b_inv(b_inv), .b_clr(b_clr), .b_en(b_en), .b_out(b_q2));
    aes_sbox_bram #(.DIR(2), .X4(1)) u_both_x4 (
        .clk(clk), .a_in(a_in), .a_inv(a_inv), .a_clr(a_clr), .a_en(a_en), .a_out(a_x2),
        .b_in(b_in), .b_inv(b_inv), .b_clr(b_clr), .b_en(b_en), .b_out(b_x2));
endmodule
`default_nettype wire
