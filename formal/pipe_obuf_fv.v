// SPDX-License-Identifier: Apache-2.0
// pipe_obuf_fv: formal harness for pipe_obuf (read by formal/pipe_obuf.sby only).
//
// The environment (assumed): a reset in the first cycle; no block during a reset cycle;
// the core's credit rule (after any edge the buffer holds at most CAP = 2**DAW + 1
// blocks); in_data is zero without a block and for an err block (the cores gate it at
// their last register); every block arriving while the data RAM is wiped carries err
// (the cores' keys are gone then). Everything else (in_valid, in_data, in_tag, in_err,
// kill, m_axis_tready) is free.
// Asserted: the m_axis stream rules (axis_props); tdata zero while tvalid is low and
// with err; never more blocks out than in; the block numbered F_N (a solver-chosen
// constant) leaves as output number F_N with its tag, and with its data unless it
// leaves err; it leaves err if it was sent with err, or if a kill came while it was in
// the buffer but not in the output register. pipe_obuf's own properties (its FORMAL
// section) are checked with it.
//
// Parameters
//   DW, DAW, TAG_W : as pipe_obuf (small widths keep the proof fast)
//   BANK_AW, SLICE_W : as pipe_obuf; the defaults here (1, 1) split the RAM into two
//                    banks of two one-bit slices, so the banking is part of the proof
//   CNT_W          : width of the block counters (no wrap within the proof depth)
// Ports: clk only; every other input is a free value of the solver.
`default_nettype none
module pipe_obuf_fv #(
    parameter DW    = 2,
    parameter DAW   = 2,
    parameter TAG_W = 2,
    parameter CNT_W = 5,
    parameter BANK_AW = 1,
    parameter SLICE_W = 1
) (
    input wire clk
);
    localparam CAP = (1 << DAW) + 1;
    (* anyseq *) reg             rst, kill, in_valid, in_err, m_axis_tready;
    (* anyseq *) reg [TAG_W-1:0] in_tag;
    (* anyseq *) reg [DW-1:0]    in_data;
    (* anyconst *) reg [CNT_W-1:0] f_n;

    wire             m_axis_tvalid, taken, wiping, wiping_nx;
    wire [DW-1:0]    m_axis_tdata;
    wire [TAG_W:0]   m_axis_tuser;

    pipe_obuf #(.DW(DW), .DAW(DAW), .TAG_W(TAG_W), .BANK_AW(BANK_AW), .SLICE_W(SLICE_W)) dut (
        .clk(clk), .rst(rst), .kill(kill),
        .in_valid(in_valid), .in_err(in_err), .in_tag(in_tag), .in_data(in_data),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
        .m_axis_tdata(m_axis_tdata), .m_axis_tuser(m_axis_tuser),
        .taken(taken), .wiping(wiping), .wiping_nx(wiping_nx));

    wire [CNT_W-1:0] out_cnt;
    wire             f_past;
    axis_props #(.DATA_W(DW), .USER_W(TAG_W + 1), .CNT_W(CNT_W), .ASSUME_IN(0)) u_m (
        .clk(clk), .rst(rst), .flush(1'b0),
        .tvalid(m_axis_tvalid), .tready(m_axis_tready), .tdata(m_axis_tdata),
        .tkeep(1'b1), .tlast(1'b1), .tuser(m_axis_tuser), .count(out_cnt), .f_past(f_past));

    reg [CNT_W-1:0] in_cnt;
    initial in_cnt = {CNT_W{1'b0}};
    always @(posedge clk)
        if (rst) in_cnt <= {CNT_W{1'b0}};
        else if (in_valid) in_cnt <= in_cnt + 1'b1;
    wire [CNT_W-1:0] occ = in_cnt - out_cnt;       // blocks in the buffer

    // environment
    always @(*) begin
        if (!f_past) assume(rst);
        if (rst) assume(!in_valid);
        if (in_valid) assume({1'b0, occ} + 1'b1 - {{CNT_W{1'b0}}, taken} <= CAP);
        if (!in_valid || in_err) assume(in_data == {DW{1'b0}});
        if (in_valid && wiping) assume(in_err);
    end

    // block F_N: what was sent, and whether a kill caught it inside the buffer
    reg             f_sent, f_err, f_killed, f_pkill;
    reg [TAG_W-1:0] f_tag;
    reg [DW-1:0]    f_data;
    initial begin
        f_sent = 1'b0; f_killed = 1'b0; f_pkill = 1'b0;
    end
    // the cycle after a kill edge: F_N is inside (sent, not taken) but not in O
    wire f_inside = (out_cnt <= f_n) && (f_n < in_cnt);
    wire f_in_o   = m_axis_tvalid && (out_cnt == f_n);
    wire f_kill_now = f_pkill && f_inside && !f_in_o;
    always @(posedge clk) begin
        f_pkill <= kill && !rst;
        if (rst) begin
            f_sent <= 1'b0;
            f_killed <= 1'b0;
        end else begin
            if (in_valid && (in_cnt == f_n)) begin
                f_sent <= 1'b1;
                f_err  <= in_err;
                f_tag  <= in_tag;
                f_data <= in_data;
            end
            if (f_kill_now) f_killed <= 1'b1;
        end
    end

    always @(*) if (f_past && !rst) begin
        if (!m_axis_tvalid) assert(m_axis_tdata == {DW{1'b0}});
        if (m_axis_tvalid && m_axis_tuser[0]) assert(m_axis_tdata == {DW{1'b0}});
        if (m_axis_tvalid) assert(occ != {CNT_W{1'b0}});
        assert(occ <= CAP);
        if (f_in_o) begin
            assert(f_sent);
            assert(m_axis_tuser[TAG_W:1] == f_tag);
            if (f_err || f_killed || f_kill_now) assert(m_axis_tuser[0]);
            if (!m_axis_tuser[0]) assert(m_axis_tdata == f_data);
        end
    end

    // covers: a block taken from the FIFO path, a kill while blocks wait
    always @(*) if (f_past && !rst) begin
        cover(f_in_o && taken && !m_axis_tuser[0] && f_n == 6);
        cover(f_in_o && taken && f_killed && f_n == 5);
    end
endmodule
`default_nettype wire
