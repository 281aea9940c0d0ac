// SPDX-License-Identifier: Apache-2.0
// tdea_blk_reg: one pipeline register of tdea_pipe: a valid bit, the block's sideband
// and its data, with the zeroize marking used by every stage of that pipeline.
//
// The valid bit loads every clock; the sideband and the data load only when a valid
// block enters (so an idle register keeps its last contents, which kill or reset has
// zeroed if the block was secret). kill sets the sideband's err bit (bit 0) and clears
// the data, whether or not a block enters at the same edge: a block entering or held at
// a kill edge leaves with err set and data zero.
//
// Parameters
//   SBW : sideband width (>= 1); bit 0 is the err flag (the tdea_pipe sideband layout:
//         bit 0 err, bit 1 dec, then slot and tag)
//   DW  : data width (>= 1)
// Ports
//   clk, rst  : clock; synchronous reset (valid, sideband and data cleared)
//   kill      : zeroize pulse (err set, data cleared)
//   in_valid/in_sb/in_d    : the block entering at this edge
//   out_valid/out_sb/out_d : the register
// Latency: 1 clock.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module tdea_blk_reg #(
    parameter SBW = 4,
    parameter DW  = 64
) (
    input  wire           clk,
    input  wire           rst,
    input  wire           kill,
    input  wire           in_valid,
    input  wire [SBW-1:0] in_sb,
    input  wire [DW-1:0]  in_d,
    output reg            out_valid,
    output reg  [SBW-1:0] out_sb,
    output reg  [DW-1:0]  out_d
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SBW >= 1, tdea_blk_reg_SBW_below_1, "tdea_blk_reg: SBW must be >= 1")
        `AESIP_CHECK(DW >= 1, tdea_blk_reg_DW_below_1, "tdea_blk_reg: DW must be >= 1")
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            out_valid <= 1'b0;
            out_sb    <= {SBW{1'b0}};
            out_d     <= {DW{1'b0}};
        end else begin
            out_valid <= in_valid;
            if (in_valid) begin
                out_sb <= in_sb;
                out_d  <= in_d;
            end
            if (kill) begin
                out_sb[0] <= 1'b1;
                out_d     <= {DW{1'b0}};
            end
        end
    end
endmodule
`default_nettype wire
