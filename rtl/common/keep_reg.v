// SPDX-License-Identifier: Apache-2.0
// keep_reg: a register that synthesis keeps as flip-flops of its own.
//
// A design that splits a large fan-out over several copies of one register (each copy
// placed beside the logic it drives) must stop synthesis from merging the copies: Yosys
// merges flip-flops with the same inputs (opt_merge), and a (* keep *) attribute on the
// register's wire does not prevent that (measured: aes_pipe's output-buffer address
// copies came out as one flip-flop each). This module is kept as its own hierarchy level
// (keep_hierarchy), so each instance keeps its own flip-flops; nextpnr places them
// separately. It holds no other logic: the caller computes the next value.
//
// Parameters
//   W   : width in bits (>= 1, default 1)
//   RST : value loaded while rst is high (default 0)
// Ports
//   clk : clock
//   rst : synchronous reset (loads RST; tie low for a register without reset)
//   d   : next value, loaded at every rising edge of clk while rst is low
//   q   : the register
// Timing: q follows d one clock later, as any flip-flop.
`timescale 1ns / 1ps
`default_nettype none
(* keep_hierarchy *)
module keep_reg #(
    parameter W = 1,
    parameter [W-1:0] RST = {W{1'b0}}
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [W-1:0] d,
    output reg  [W-1:0] q
);
    always @(posedge clk) begin
        if (rst) q <= RST;
        else     q <= d;
    end
endmodule
`default_nettype wire
