// SPDX-License-Identifier: Apache-2.0
// tb_mixcolumn_top: simulation top for the MixColumns tests (tb/common/prim_tests.py).
//
// One aes_mixcolumn per DIR value, all driven by the same column and inv.
// Ports
//   col_in   : input column (row r at bits [8r+7:8r])
//   inv      : direction select, connected to every instance (only DIR=2 may use it)
//   out_fwd  : aes_mixcolumn DIR=0 (MixColumns only)
//   out_inv  : aes_mixcolumn DIR=1 (InvMixColumns only)
//   out_both : aes_mixcolumn DIR=2 (inv selects)
// Purely combinational.
`timescale 1ns / 1ps
`default_nettype none
module tb_mixcolumn_top (
    input  wire [31:0] col_in,
    input  wire        inv,
    output wire [31:0] out_fwd,
    output wire [31:0] out_inv,
    output wire [31:0] out_both
);
    aes_mixcolumn #(.DIR(0)) u_fwd (.in(col_in), .inv(inv), .out(out_fwd));
    aes_mixcolumn #(.DIR(1)) u_inv (.in(col_in), .inv(inv), .out(out_inv));
    aes_mixcolumn #(.DIR(2)) u_both (.in(col_in), .inv(inv), .out(out_both));
endmodule
`default_nettype wire
