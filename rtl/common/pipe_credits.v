// SPDX-License-Identifier: Apache-2.0
// pipe_credits: credit counter of the free-running block pipelines aes_pipe and tdea_pipe.
// A block may enter the pipeline only while `room` is high: the count of blocks accepted
// and not yet taken on the output stream is below CAP, the number of blocks the
// pipeline's output buffer (pipe_obuf) and output register can hold. So every block that
// leaves the last round finds room, and the pipeline needs no global clock enable.
//
// Both `room` and the count are registers, and the count does not follow in_acc itself
// but its registered copy acc_q: in_acc (s_axis_tvalid && s_axis_tready) is decided late
// in the cycle by the input port's logic, which the placer puts wherever its many loads
// pull it, so a counter fed by it directly closes a loop room -> s_axis_tready -> in_acc
// -> count/room across the device (the ECP5 critical path of tdea_pipe at 121.6 MHz).
// The count w holds the blocks accepted before the previous cycle and not yet taken (the
// true count minus acc_q), and room is computed as if a block were accepted in every
// cycle: room = w + 1 < CAP after the edge. Since the true count is at most w + 1, a
// block accepted while room is high still finds a place (the count never exceeds CAP),
// and the only late input of the count and of room is out_taken (m_axis_tvalid &&
// m_axis_tready): their next values are chosen among values computed from the registers
// alone. The cost: after a cycle without an accept, the last credit stays unused until
// a block is taken (at most CAP - 1 blocks are then accepted and not yet taken). With
// an accept in every cycle room is exact, and a pipeline whose buffer holds its whole
// latency (CAP - 1 >= blocks in flight at one block per clock) keeps one block per clock.
//
// With TAKEN_REG = 1 the count follows out_taken's registered copy too (a credit
// returns one clock after its block is taken), so out_taken, formed at the output
// register at the far end of the pipeline, has no path into the counter within a clock
// (aes_pipe on ECP5: O's valid bit -> a 5.6-6.1 ns route -> the count -> room, 8.1-8.5
// ns). The count then over-states the blocks outstanding by that one, which is safe;
// a pipeline keeps one block per clock if CAP - 2 >= blocks in flight.
//
// Parameters
//   CW        : counter width in bits (>= 2); CAP must fit: CAP < 2**CW
//   CAP       : credits, >= 1 (blocks accepted and not yet taken)
//   TAKEN_REG : 0 out_taken counts in its own cycle, 1 one cycle later (default 0)
// Ports
//   clk, rst  : clock; synchronous active-high reset (count 0, room 1)
//   in_acc    : a block is accepted this cycle (must be low while room is low)
//   out_taken : a block is taken on the output stream this cycle (at the earliest two
//               cycles after its accept: every pipeline has a latency of two or more)
//   room      : register, a block may be accepted this cycle (see above: the count of
//               blocks accepted and not yet taken, plus one unless a block was accepted
//               in the previous cycle, is below CAP)
// Timing: room falls in the cycle after the accept that uses the last credit, and rises
// in the cycle after a block is taken (one credit returns per block taken); after a
// cycle without an accept it may fall one credit early (above).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module pipe_credits #(
    parameter CW  = 8,
    parameter CAP = 129,
    parameter TAKEN_REG = 0
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
        `AESIP_CHECK(TAKEN_REG == 0 || TAKEN_REG == 1, pipe_credits_TAKEN_REG_not_0_or_1,
                     "pipe_credits: TAKEN_REG must be 0 or 1")
    endgenerate

    localparam [CW-1:0] CAPC = CAP;
    localparam [CW:0] CAPV = {1'b0, CAPC};
    localparam [CW:0] ONE  = 1;
    localparam [CW:0] TWO  = 2;
    localparam [CW:0] CAP_M1 = CAPV - ONE;                       // CAP >= 1
    localparam [CW:0] CAP_M2 = (CAP >= 2) ? CAPV - TWO : {(CW + 1){1'b0}};   // 0: never room

    reg          acc_q;                                 // in_acc of the previous cycle
    reg          tk_q;                                  // out_taken of the previous cycle
    wire         tk = (TAKEN_REG != 0) ? tk_q : out_taken;   // the take the count follows
    reg [CW-1:0] w;                                     // accepted and not yet taken, minus acc_q

    // next values, from the registers alone. room's three candidates compare w with
    // constants (w + 2 < CAP is w < CAP - 2, false when CAP < 2; w + 1 < CAP is
    // w < CAP - 1), so no adder stands in front of a compare: written as
    // (w + 2) < CAP, Yosys built an adder carry chain and a compare carry chain in
    // series, and that path (w -> two chains -> room) was critical on ECP5 (aes_pipe
    // aes128-enc, 7.1 ns, and tdea_pipe RND_REGS 2).
    wire [CW-1:0] w_up   = w + 1'b1;
    wire [CW-1:0] w_dn   = w - 1'b1;
    wire [CW:0]   w_x    = {1'b0, w};
    wire          room_up = w_x < CAP_M2;                // after w + 1: (w + 1) + 1 < CAP
    wire          room_eq = w_x < CAP_M1;                // after w:      w + 1 < CAP
    wire          room_dn = w_x < CAPV;                  // after w - 1: (w - 1) + 1 < CAP

    always @(posedge clk) begin
        if (rst) begin
            acc_q <= 1'b0;
            tk_q  <= 1'b0;
            w     <= {CW{1'b0}};
            room  <= 1'b1;
        end else begin
            acc_q <= in_acc;
            tk_q  <= out_taken;
            case ({acc_q, tk})
                2'b10:   begin w <= w_up; room <= room_up; end
                2'b01:   begin w <= w_dn; room <= room_dn; end
                default: room <= room_eq;               // none, or one in and one out
            endcase
        end
    end

`ifdef FORMAL
    // the true count of blocks accepted and not yet taken (f_used) is w + acc_q, and room
    // implies a free credit, so the count never exceeds CAP (proven inside the aes_pipe
    // and pipe_credits proofs, which read this module)
    reg          f_rst_seen = 1'b0;
    reg [CW:0]   f_used = {(CW + 1){1'b0}};
    always @(posedge clk) begin
        if (rst) f_rst_seen <= 1'b1;
        if (rst) f_used <= {(CW + 1){1'b0}};
        else     f_used <= f_used + {{CW{1'b0}}, in_acc} - {{CW{1'b0}}, out_taken};
    end
    // the module's input rules: an accept only with room, and a block is taken at the
    // earliest two cycles after its accept (assumed when this module is the top of the
    // proof, formal/pipe_credits.sby; else asserted, as the core guarantees them)
    wire f_in_ok = (!in_acc || room) && (!out_taken || f_used > {{CW{1'b0}}, acc_q});
    always @(*) if (f_rst_seen) begin
`ifdef PIPE_CREDITS_TOP
        assume(f_in_ok);
`else
        assert(f_in_ok);
`endif
        // (with TAKEN_REG the count still includes the block taken in the last cycle)
        assert(f_used + {{CW{1'b0}}, (TAKEN_REG != 0) && tk_q} == {1'b0, w} + {{CW{1'b0}}, acc_q});
        if (room) assert(f_used < CAPV);
        assert(f_used <= CAPV);
    end
`endif
endmodule
`default_nettype wire
