// SPDX-License-Identifier: Apache-2.0
// dup_reg: a register kept as its own module (keep_hierarchy), for copies of a
// high-fan-out control register. Synthesis merges flip-flops that have the same inputs
// (Yosys opt_merge does so even when the register carries the keep attribute), so a
// plain second copy of a register disappears and its loads go back to the original,
// wherever the placer put it. Each dup_reg instance stays a cell of its own, so N copies
// of the same next value can each sit beside the group of loads they drive: a long
// route from one flip-flop to loads spread over the device becomes a route into each
// copy plus a short one out of it.
//
// Parameters
//   W    : width in bits (>= 1)
//   INIT : value loaded by clr (default 0)
// Ports
//   clk : clock
//   clr : synchronous clear (q <= INIT), above ce
//   ce  : clock enable (q <= d)
//   d   : next value
//   q   : the register
// Timing: q takes INIT at the edge where clr is high, else d where ce is high, else holds.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
(* keep_hierarchy *)
module dup_reg #(
    parameter W = 1,
    parameter [W-1:0] INIT = {W{1'b0}}
) (
    input  wire         clk,
    input  wire         clr,
    input  wire         ce,
    input  wire [W-1:0] d,
    output reg  [W-1:0] q
);
    generate
        `AESIP_CHECK(W >= 1, dup_reg_W_below_1, "dup_reg: W must be >= 1")
    endgenerate
    always @(posedge clk) begin
        if (clr)     q <= INIT;
        else if (ce) q <= d;
    end
endmodule
`default_nettype wire
