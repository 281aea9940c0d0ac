// SPDX-License-Identifier: Apache-2.0
// pipe_credits: credit counter of the free-running block pipelines aes_pipe and tdea_pipe.
// A block may enter the pipeline only while `room` is high: the count of blocks accepted
// and not yet taken on the output stream is below CAP, the number of blocks the
// pipeline's output buffer (pipe_obuf) and output register can hold. So every block that
// leaves the last round finds room, and the pipeline needs no global clock enable.
//
// Both the count and `room` are registers, and neither has an adder after the late
// inputs: in_acc (s_axis_tvalid && s_axis_tready) and out_taken (m_axis_tvalid &&
// m_axis_tready) arrive at the end of the cycle from the stream ports, so the count's
// next value is chosen among the register, its increment and its decrement (both
// computed from the register alone), and room's among 1, "count < CAP - 1" (from the
// register alone) and its own value.
//
// Parameters
//   CW  : counter width in bits (>= 2); CAP must fit: CAP < 2**CW
//   CAP : credits, >= 1 (blocks accepted and not yet taken)
// Ports
//   clk, rst  : clock; synchronous active-high reset (count 0, room 1)
//   in_acc    : a block is accepted this cycle (must be low while room is low)
//   out_taken : a block is taken on the output stream this cycle
//   room      : register, count < CAP: a block may be accepted this cycle
// Timing: room falls in the cycle after the accept that uses the last credit, and rises
// in the cycle after a block is taken (one credit returns per block taken).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module pipe_credits #(
    parameter CW  = 8,
    parameter CAP = 129
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          in_acc,
    input  wire          out_taken,
    output reg           room
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(CW >= 2, pipe_credits_CW_below_2, "pipe_credits: CW must be >= 2")
        `AESIP_CHECK(CAP >= 1 && CAP < (1 << CW), pipe_credits_CAP_range,
                     "pipe_credits: CAP must be 1 .. 2**CW - 1")
    endgenerate

    localparam [CW-1:0] CAPV = CAP;

    reg [CW-1:0] used;                                  // accepted and not yet taken

    wire [CW-1:0] used_up   = used + 1'b1;              // from the register alone
    wire [CW-1:0] used_dn   = used - 1'b1;
    wire          below_cm1 = used < CAPV - 1'b1;       // one more in leaves room

    always @(posedge clk) begin
        if (rst) begin
            used <= {CW{1'b0}};
            room <= 1'b1;
        end else begin
            case ({in_acc, out_taken})
                2'b10:   begin used <= used_up; room <= below_cm1; end
                2'b01:   begin used <= used_dn; room <= 1'b1;      end
                default: ;                                  // none, or one in and one out
            endcase
        end
    end
endmodule
`default_nettype wire
