// SPDX-License-Identifier: Apache-2.0
// aes_pipe_obuf: output buffer of aes_pipe. The pipeline in front of it runs free (no
// clock enable); aes_pipe admits a block only while it holds a credit, so every block
// that leaves the last round finds room here, and the m_axis_tready -> s_axis_tready
// path of a globally enabled pipeline does not exist.
//
// Structure: an output register (m_axis_*) and, behind it, a FIFO of 2**DAW entries:
// data in distributed RAM (wiped after kill), tags in distributed RAM, one err flag per
// entry in flip-flops (kill sets them all). A block arriving while the FIFO is empty and
// the output register is free (or being taken) goes straight into the output register,
// so the buffer adds no latency.
//
// Parameters
//   DAW   : FIFO address width (>= 1): 2**DAW entries, plus the output register
//   TAG_W : tag width (>= 1)
// Ports
//   clk, rst      : clock; synchronous reset (empties the buffer, starts the wipe)
//   kill          : one-cycle pulse (zeroize): every block in the FIFO, and a block
//                   written in the same cycle, is marked err (its data reads zero); the
//                   block already in the output register is kept (AXI4-Stream: valid data
//                   do not change until taken); the data RAM is then wiped
//   in_valid      : a block leaves the last round this cycle (never more than the
//                   credits aes_pipe handed out, so the buffer cannot overflow)
//   in_err/in_tag/in_data : that block; in_data must already be zero when in_err is set
//   m_axis_*      : output stream; tuser = {tag, err}; tdata is zero when err is set
//   taken         : m_axis_tvalid && m_axis_tready (one credit returns)
//   wiping        : the data RAM is being wiped (2**DAW clocks after rst or kill)
// Timing: a block with in_valid at edge E is presented on m_axis from edge E (output
// register free) or after the blocks ahead of it; one block per clock in and out.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_pipe_obuf #(
    parameter DAW   = 4,
    parameter TAG_W = 8
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             kill,
    input  wire             in_valid,
    input  wire             in_err,
    input  wire [TAG_W-1:0] in_tag,
    input  wire [127:0]     in_data,
    output wire             m_axis_tvalid,
    input  wire             m_axis_tready,
    output wire [127:0]     m_axis_tdata,
    output wire [TAG_W:0]   m_axis_tuser,
    output wire             taken,
    output wire             wiping
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(DAW >= 1, aes_pipe_obuf_DAW_below_1, "aes_pipe_obuf: DAW must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, aes_pipe_obuf_TAG_W_below_1, "aes_pipe_obuf: TAG_W must be >= 1")
    endgenerate

    localparam DEPTH = 1 << DAW;

    // distributed RAM: an inferred block RAM has no output register in Yosys (its
    // clock-to-out would cap m_axis near 134 MHz on ECP5, see docs/synthesis.md)
    (* ram_style = "distributed" *) reg [127:0]     data_mem [0:DEPTH-1];
    (* ram_style = "distributed" *) reg [TAG_W-1:0] tag_mem  [0:DEPTH-1];
    reg [DEPTH-1:0] err_flags;
    reg [DAW:0]     wr_ptr, rd_ptr;        // one wrap bit: empty when equal
    reg             wipe_busy;
    reg [DAW-1:0]   wipe_addr;

    reg             out_valid;
    reg             out_err;
    reg [TAG_W-1:0] out_tag;
    reg [127:0]     out_data;

    wire fifo_empty = (wr_ptr == rd_ptr);
    wire out_free   = !out_valid || m_axis_tready;
    wire pop        = out_free && !fifo_empty;
    wire bypass     = out_free && fifo_empty && in_valid;
    wire push       = in_valid && !bypass;

    wire [DAW-1:0] wr_addr = wr_ptr[DAW-1:0];
    wire [DAW-1:0] rd_addr = rd_ptr[DAW-1:0];
    wire           head_err = err_flags[rd_addr];

    // RAM write ports: every arriving block is written into the free entry at wr_addr,
    // whether it is pushed or bypasses into the output register (then wr_ptr does not
    // move and the entry stays free). The credits guarantee that entry is free whenever
    // in_valid is high (a full FIFO implies a full output register, and no credit).
    // The write enable is therefore the registered in_valid alone, not the push decision
    // that depends on m_axis_tready: that path crossed the whole device to the RAM
    // write enables. The wipe has priority on the data RAM (a block pushed while the RAM
    // is wiped carries err, so its data is not needed: it reads as zero through its flag).
    always @(posedge clk) begin
        if (wipe_busy) data_mem[wipe_addr] <= 128'd0;
        else if (in_valid) data_mem[wr_addr] <= in_data;
    end
    always @(posedge clk) begin
        if (in_valid) tag_mem[wr_addr] <= in_tag;
    end

    always @(posedge clk) begin
        if (rst) begin
            wr_ptr    <= {(DAW + 1){1'b0}};
            rd_ptr    <= {(DAW + 1){1'b0}};
            wipe_busy <= 1'b1;
            wipe_addr <= {DAW{1'b0}};
        end else begin
            if (push) wr_ptr <= wr_ptr + 1'b1;
            if (pop) rd_ptr <= rd_ptr + 1'b1;
            if (kill) begin
                wipe_busy <= 1'b1;
                wipe_addr <= {DAW{1'b0}};
            end else if (wipe_busy) begin
                wipe_addr <= wipe_addr + 1'b1;
                if (&wipe_addr) wipe_busy <= 1'b0;
            end
        end
    end

    always @(posedge clk) begin
        if (rst || kill) err_flags <= {DEPTH{1'b1}};
        else if (push) err_flags[wr_addr] <= in_err;
    end

    // output register: valid is reset; data and tag load only when a block enters
    always @(posedge clk) begin
        if (rst) out_valid <= 1'b0;
        else if (out_free) out_valid <= !fifo_empty || in_valid;
    end
    always @(posedge clk) begin
        if (pop) begin
            out_err  <= head_err;
            out_tag  <= tag_mem[rd_addr];
            out_data <= head_err ? 128'd0 : data_mem[rd_addr];
        end else if (bypass) begin
            out_err  <= in_err;
            out_tag  <= in_tag;
            out_data <= in_data;
        end else if (out_free || rst) begin
            out_err  <= 1'b0;
            out_tag  <= {TAG_W{1'b0}};
            out_data <= 128'd0;
        end
    end

    assign m_axis_tvalid = out_valid;
    assign m_axis_tdata  = out_data;
    assign m_axis_tuser  = {out_tag, out_err};
    assign taken         = out_valid && m_axis_tready;
    assign wiping        = wipe_busy;
endmodule
`default_nettype wire
