// SPDX-License-Identifier: Apache-2.0
// axis_commit_fifo: FIFO whose writes become visible to the reader only when committed.
//
// Used as the output buffer of the mode engine: beats of a packet that must not be
// released before it is verified (store-and-forward CCM decryption) are written
// tentatively and then either committed (all become readable at once) or rolled back
// (all vanish, their space is freed). Beats that need no verification are written with
// wr_commit=1 and are readable the cycle after. Also used as the mode engines' input
// FIFO (every write committed).
//
// Parameters
//   WIDTH : bits per entry (>= 1)
//   AW    : log2 of the depth (DEPTH = 2**AW entries; >= 1)
//   KEEP_OUT : 1 (default) = clear keeps a beat already presented on the read side
//              until it is taken (AXI4-Stream: valid and data hold until the handshake);
//              0 = clear drops it too (for a FIFO whose reader is aborted with it)
// Ports
//   clk, rst  : clock, synchronous active-high reset: empties the FIFO (the memory, a RAM
//               without reset, keeps its old contents, unreachable; clear wipes it)
//   clear     : one-cycle pulse (zeroize): every entry not yet in the output register is
//               discarded, and the memory is overwritten with zeros, one entry per clock
//               (2**AW clocks; wr_ready is low and nothing new is readable meanwhile).
//               With KEEP_OUT = 1 a beat already presented on the read side (m_valid
//               high) stays there until it is taken, as AXI4-Stream requires.
//   wr_valid  : write wr_data this cycle (only when wr_ready)
//   wr_ready  : a free entry exists (committed-unread + tentative entries < DEPTH) and
//               no wipe is running
//   wr_commit : with a write: commit everything written so far including this entry
//   commit    : commit all tentative entries (may coincide with a write; then the
//               written entry is committed too)
//   rollback  : discard all tentative entries (must not coincide with wr_valid/commit)
//   m_valid / m_ready / m_data : read side, AXI4-Stream style; shows committed entries only.
//               m_data is zero whenever m_valid is low (a taken entry leaves no copy in
//               the output register).
//   wiping    : the wipe after clear is running
// Timing: a committed entry is readable the cycle after its commit. Memory read is
// registered through an output register (no combinational path from m_ready to the RAM).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module axis_commit_fifo #(
    parameter WIDTH = 146,
    parameter AW    = 8,
    parameter KEEP_OUT = 1
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             clear,
    input  wire             wr_valid,
    output wire             wr_ready,
    input  wire [WIDTH-1:0] wr_data,
    input  wire             wr_commit,
    input  wire             commit,
    input  wire             rollback,
    output reg              m_valid,
    input  wire             m_ready,
    output reg  [WIDTH-1:0] m_data,
    output reg              wiping
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(WIDTH >= 1, axis_commit_fifo_WIDTH_below_1,
                     "axis_commit_fifo: WIDTH must be >= 1")
        `AESIP_CHECK(AW >= 1, axis_commit_fifo_AW_below_1, "axis_commit_fifo: AW must be >= 1")
        `AESIP_CHECK(KEEP_OUT == 0 || KEEP_OUT == 1, axis_commit_fifo_KEEP_OUT_not_0_or_1,
                     "axis_commit_fifo: KEEP_OUT must be 0 or 1")
    endgenerate


    reg [WIDTH-1:0] mem [0:(1<<AW)-1];
    reg [AW:0] wptr;   // next write position
    reg [AW:0] cptr;   // end of committed data
    reg [AW:0] rptr;   // next read position (into the output register)
    reg [AW-1:0] wipe_addr;

    wire [AW:0] used = wptr - rptr;
    assign wr_ready = (used < (1 << AW)) && !wiping;
    wire do_wr = wr_valid && wr_ready;
    wire have_committed = (cptr != rptr) && !wiping;
    wire load_out = have_committed && (!m_valid || m_ready);

    always @(posedge clk) begin
        if (wiping) mem[wipe_addr] <= {WIDTH{1'b0}};
        else if (do_wr) mem[wptr[AW-1:0]] <= wr_data;
    end

    always @(posedge clk) begin
        if (rst) begin
            wptr <= 0; cptr <= 0; rptr <= 0;
            m_valid <= 1'b0;
            m_data <= {WIDTH{1'b0}};
            wiping <= 1'b0;
            wipe_addr <= {AW{1'b0}};
        end else if (clear) begin
            wptr <= 0; cptr <= 0; rptr <= 0;
            wiping <= 1'b1;
            wipe_addr <= {AW{1'b0}};
            if ((m_valid && m_ready) || KEEP_OUT == 0) begin
                m_valid <= 1'b0;
                m_data <= {WIDTH{1'b0}};
            end
        end else begin
            if (wiping) begin
                wipe_addr <= wipe_addr + 1'b1;
                if (&wipe_addr) wiping <= 1'b0;
            end
            if (rollback) begin
                wptr <= cptr;
            end else begin
                if (do_wr) wptr <= wptr + 1'b1;
                if (commit || (do_wr && wr_commit)) cptr <= do_wr ? wptr + 1'b1 : wptr;
            end
            if (load_out) begin
                m_data  <= mem[rptr[AW-1:0]];
                m_valid <= 1'b1;
                rptr    <= rptr + 1'b1;
            end else if (m_ready) begin
                m_valid <= 1'b0;
                m_data  <= {WIDTH{1'b0}};
            end
        end
    end
endmodule
`default_nettype wire
