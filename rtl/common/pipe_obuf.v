// SPDX-License-Identifier: Apache-2.0
// pipe_obuf: output buffer of the free-running block pipelines aes_pipe (DW 128) and
// tdea_pipe (DW 64). The pipeline in front of it runs free (no clock enable); the core
// admits a block only while it holds a credit, so every block that leaves the last round
// finds room here, and the m_axis_tready -> s_axis_tready path of a globally enabled
// pipeline does not exist.
//
// Structure, oldest block first: the output register O (m_axis_*), a skid register S,
// a head register R and a FIFO of 2**DAW entries (data and tags in distributed RAM, the
// data RAM wiped after kill; one err flag per entry in flip-flops, kill sets them all).
//   * R loads only from the RAM, at the registered read pointer, with nothing but its
//     enable and a synchronous clear between the RAM read and the register; O never
//     reads the RAM. (Before, O loaded the RAM read through the err mask and the
//     pop/bypass multiplexer: read pointer -> LUT-RAM -> logic -> O was the critical path
//     on ECP5.)
//   * A block arriving while O is free (or being taken) and nothing is buffered goes
//     straight into O, so the buffer adds no latency. A block arriving while S and R will
//     be empty after the edge and the FIFO is empty goes into S (O is taken from S, then
//     R, then the arriving block); any other block is pushed into the FIFO.
//   * So a FIFO entry is never needed by O before R holds it (S holds an older block
//     whenever R is empty and the FIFO is not), and O takes one block per clock from S,
//     R or the input: the m_axis timing is that of a plain FIFO with an output register.
//   * S and R read zero while empty, when they hold an err block, and after kill.
//
// Parameters
//   DW    : block width in bits (>= 1, default 128)
//   DAW   : FIFO address width (>= 1): 2**DAW entries, plus the O, S and R registers
//   TAG_W : tag width (>= 1)
// Ports
//   clk, rst      : clock; synchronous reset (empties the buffer, starts the wipe)
//   kill          : one-cycle pulse (zeroize): every block in S, R and the FIFO, and a
//                   block entering them in the same cycle, is marked err (its data reads
//                   zero); the block in the output register after the edge, i.e. already
//                   there or moving in at this edge, is kept (AXI4-Stream: valid data do
//                   not change until taken); the data RAM is then wiped
//   in_valid      : a block leaves the last round this cycle (never more than the
//                   credits the core handed out, so the buffer cannot overflow)
//   in_err/in_tag/in_data : that block; in_data must already be zero when in_err is set
//   m_axis_*      : output stream; tuser = {tag, err}; tdata is zero when err is set
//   taken         : m_axis_tvalid && m_axis_tready (one credit returns)
//   wiping        : the data RAM is being wiped (2**DAW clocks after rst or kill)
// Timing: a block with in_valid at edge E is presented on m_axis from edge E (output
// register free) or after the blocks ahead of it; one block per clock in and out.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module pipe_obuf #(
    parameter DW    = 128,
    parameter DAW   = 4,
    parameter TAG_W = 8
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             kill,
    input  wire             in_valid,
    input  wire             in_err,
    input  wire [TAG_W-1:0] in_tag,
    input  wire [DW-1:0]     in_data,
    output wire             m_axis_tvalid,
    input  wire             m_axis_tready,
    output wire [DW-1:0]     m_axis_tdata,
    output wire [TAG_W:0]   m_axis_tuser,
    output wire             taken,
    output wire             wiping
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(DAW >= 1, pipe_obuf_DAW_below_1, "pipe_obuf: DAW must be >= 1")
        `AESIP_CHECK(DW >= 1, pipe_obuf_DW_below_1, "pipe_obuf: DW must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, pipe_obuf_TAG_W_below_1, "pipe_obuf: TAG_W must be >= 1")
    endgenerate

    localparam DEPTH = 1 << DAW;

    // distributed RAM: an inferred block RAM has no output register in Yosys (its
    // clock-to-out would cap m_axis near 134 MHz on ECP5, see docs/synthesis.md)
    (* ram_style = "distributed" *) reg [DW-1:0]     data_mem [0:DEPTH-1];
    (* ram_style = "distributed" *) reg [TAG_W-1:0] tag_mem  [0:DEPTH-1];
    reg [DEPTH-1:0] err_flags;
    reg [DAW:0]     wr_ptr, rd_ptr;        // one wrap bit: empty when equal
    reg             wipe_busy;
    reg [DAW-1:0]   wipe_addr;

    reg             s_valid, s_err;        // skid register S (from the input)
    reg [TAG_W-1:0] s_tag;
    reg [DW-1:0]     s_data;
    reg             r_valid, r_err;        // head register R (from the RAM)
    reg [TAG_W-1:0] r_tag;
    reg [DW-1:0]     r_data;
    reg             out_valid, out_err;    // output register O
    reg [TAG_W-1:0] out_tag;
    reg [DW-1:0]     out_data;

    wire fifo_empty = (wr_ptr == rd_ptr);
    wire out_free   = !out_valid || m_axis_tready;
    // O loads the oldest block: S, else R, else the arriving block (nothing buffered)
    wire s_to_o     = out_free && s_valid;
    wire r_to_o     = out_free && !s_valid && r_valid;
    wire in_to_o    = out_free && !s_valid && !r_valid && fifo_empty && in_valid;
    // an arriving block that does not go to O goes to S if S and R are empty after the
    // edge and the FIFO is empty (it is then the youngest block), else into the FIFO
    wire s_empty_nx = !s_valid || out_free;
    wire r_empty_nx = !r_valid || r_to_o;
    wire in_to_s    = in_valid && !in_to_o && fifo_empty && s_empty_nx && r_empty_nx;
    wire push       = in_valid && !in_to_o && !in_to_s;
    // R loads the FIFO head whenever it is empty after the edge
    wire pop        = !fifo_empty && r_empty_nx;

    wire [DAW-1:0]   wr_addr  = wr_ptr[DAW-1:0];
    wire [DAW-1:0]   rd_addr  = rd_ptr[DAW-1:0];
    wire [DW-1:0]     head_data = data_mem[rd_addr];
    wire [TAG_W-1:0] head_tag  = tag_mem[rd_addr];
    wire             head_err  = err_flags[rd_addr];

    // RAM write ports: every arriving block is written into the free entry at wr_addr,
    // whether it is pushed or goes into O or S (then wr_ptr does not move and the entry
    // stays free). The credits guarantee that entry is free whenever in_valid is high
    // (the FIFO, S, R and O together never hold more than 2**DAW + 1 blocks, and O is
    // full whenever the FIFO is not empty, so the FIFO never fills).
    // The write enable is therefore the registered in_valid alone, not the push decision
    // that depends on m_axis_tready: that path crossed the whole device to the RAM
    // write enables. The wipe has priority on the data RAM (a block pushed while the RAM
    // is wiped carries err, so its data is not needed: it reads as zero through its flag).
    always @(posedge clk) begin
        if (wipe_busy) data_mem[wipe_addr] <= {DW{1'b0}};
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

    // valid bits (reset)
    always @(posedge clk) begin
        if (rst) begin
            s_valid   <= 1'b0;
            r_valid   <= 1'b0;
            out_valid <= 1'b0;
        end else begin
            if (in_to_s) s_valid <= 1'b1;
            else if (s_to_o) s_valid <= 1'b0;
            if (pop) r_valid <= 1'b1;
            else if (r_to_o) r_valid <= 1'b0;
            if (out_free) out_valid <= s_valid || r_valid || in_to_o;
        end
    end

    // S: loads the arriving block; zero while empty and after kill (err set)
    always @(posedge clk) begin
        if (rst || kill || (s_to_o && !in_to_s)) s_data <= {DW{1'b0}};
        else if (in_to_s) s_data <= in_data;
    end
    always @(posedge clk) begin
        if (kill) s_err <= 1'b1;
        else if (in_to_s) s_err <= in_err;
    end
    always @(posedge clk) begin
        if (in_to_s) s_tag <= in_tag;
    end

    // R: loads the RAM read at the registered pointer, with nothing after the RAM but
    // the register's enable and clear; zero while empty, for an err entry and after kill
    always @(posedge clk) begin
        if (rst || kill || (pop && head_err) || (r_to_o && !pop)) r_data <= {DW{1'b0}};
        else if (pop) r_data <= head_data;
    end
    always @(posedge clk) begin
        if (kill) r_err <= 1'b1;
        else if (pop) r_err <= head_err;
    end
    always @(posedge clk) begin
        if (pop) r_tag <= head_tag;
    end

    // output register: data and tag load only when a block enters, else zero once free.
    // A block moving in at a kill edge keeps its err flag and data (as O's own block).
    always @(posedge clk) begin
        if (rst) begin
            out_err  <= 1'b0;
            out_tag  <= {TAG_W{1'b0}};
            out_data <= {DW{1'b0}};
        end else if (s_to_o) begin
            out_err  <= s_err;
            out_tag  <= s_tag;
            out_data <= s_data;
        end else if (r_to_o) begin
            out_err  <= r_err;
            out_tag  <= r_tag;
            out_data <= r_data;
        end else if (in_to_o) begin
            out_err  <= in_err;
            out_tag  <= in_tag;
            out_data <= in_data;
        end else if (out_free) begin
            out_err  <= 1'b0;
            out_tag  <= {TAG_W{1'b0}};
            out_data <= {DW{1'b0}};
        end
    end

    assign m_axis_tvalid = out_valid;
    assign m_axis_tdata  = out_data;
    assign m_axis_tuser  = {out_tag, out_err};
    assign taken         = out_valid && m_axis_tready;
    assign wiping        = wipe_busy;
endmodule
`default_nettype wire
