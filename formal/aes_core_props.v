// SPDX-License-Identifier: Apache-2.0
// aes_core_props: properties of the common block-core interface (docs/cores.md), shared
// by aes_iter32, aes_iter128 and aes_pipe (formal only; instantiated in their
// `ifdef FORMAL sections, read by formal/<core>.sby).
//
//   * s_axis (input) and the key port follow the AXI4-Stream rules (axis_props):
//     assumed when ASSUME_IN = 1 (the core is the top of the proof), asserted otherwise;
//     m_axis (output) follows them (asserted)
//   * every accepted block produces exactly one output block, in order: outputs never
//     outnumber inputs, at most CAP blocks are inside the core, m_axis_tvalid implies a
//     block inside, and the output with number n carries the tag of input number n
//     (one block number chosen by the solver, anyconst)
//   * an output with err = 1 has all-zero data
//   * bounded response: while the consumer has been ready in every cycle since reset,
//     a block inside the core leaves within LAT clocks of the later of its acceptance
//     and the previous output (f_lat counts those clocks)
//   * cover: a block is accepted and its result taken
//
// Parameters: TAG_W, SLOT_W (as the core), CAP (blocks the core can hold), LAT (bound),
//             ASSUME_IN (1 = the core is the top of the proof)
`default_nettype none
module aes_core_props #(
    parameter TAG_W     = 8,
    parameter SLOT_W    = 1,
    parameter CAP       = 2,
    parameter LAT       = 16,
    parameter ASSUME_IN = 1
) (
    input wire                  clk,
    input wire                  rst,
    input wire                  key_valid,
    input wire                  key_ready,
    input wire [SLOT_W-1:0]     key_slot,
    input wire [5:0]            key_bytes,
    input wire [255:0]          key_data,
    input wire                  s_valid,
    input wire                  s_ready,
    input wire [127:0]          s_data,
    input wire [TAG_W+SLOT_W:0] s_user,
    input wire                  m_valid,
    input wire                  m_ready,
    input wire [127:0]          m_data,
    input wire [TAG_W:0]        m_user
);
    localparam CW = 6;
    wire [CW-1:0] f_in, f_out;
    wire f_past;

    axis_props #(.DATA_W(128), .USER_W(TAG_W + SLOT_W + 1), .CNT_W(CW), .ASSUME_IN(ASSUME_IN)) f_s (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(s_valid), .tready(s_ready), .tdata(s_data),
        .tkeep(1'b1), .tlast(1'b0), .tuser(s_user), .count(f_in), .f_past(f_past));
    /* verilator lint_off PINCONNECTEMPTY */
    axis_props #(.DATA_W(256), .KEEP_W(6), .USER_W(SLOT_W), .CNT_W(CW), .ASSUME_IN(ASSUME_IN)) f_k (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(key_valid), .tready(key_ready), .tdata(key_data),
        .tkeep(key_bytes), .tlast(1'b0), .tuser(key_slot), .count(), .f_past());
    /* verilator lint_on PINCONNECTEMPTY */
    axis_props #(.DATA_W(128), .USER_W(TAG_W + 1), .CNT_W(CW), .ASSUME_IN(0)) f_m (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(m_valid), .tready(m_ready), .tdata(m_data),
        .tkeep(1'b1), .tlast(1'b0), .tuser(m_user), .count(f_out), .f_past());

    generate if (ASSUME_IN) begin : g_top
        always @(*) if (!f_past) assume(rst);
    end endgenerate

    wire [CW-1:0] f_inside = f_in - f_out;
    always @(*) if (f_past && !rst) begin
        assert(f_inside <= CAP);                 // never more outputs than inputs, bounded
        if (m_valid) assert(f_inside != 0);      // an output is an accepted block
        if (m_valid && m_user[0]) assert(m_data == 128'd0);
    end

    // tag of the chosen block number
    (* anyconst *) reg [CW-1:0] f_n;
    reg [TAG_W-1:0] f_tag;
    reg             f_have = 1'b0;
    always @(posedge clk) begin
        if (rst) f_have <= 1'b0;
        else if (s_valid && s_ready && f_in == f_n) begin
            f_have <= 1'b1;
            f_tag  <= s_user[TAG_W+SLOT_W:SLOT_W+1];
        end else if (m_valid && m_ready && f_out == f_n) f_have <= 1'b0;
    end
    always @(*) if (f_past && !rst) begin
        assert(f_have == ((f_n - f_out) < f_inside));
        if (m_valid && f_out == f_n) assert(m_user[TAG_W:1] == f_tag);
    end

    // bounded response with an always-ready consumer
    reg        f_rdy_all = 1'b1;                 // m_ready high in every cycle since reset
    reg [7:0]  f_lat = 8'd0;
    always @(posedge clk) begin
        if (rst) f_rdy_all <= 1'b1;
        else if (!m_ready) f_rdy_all <= 1'b0;
        if (rst || (m_valid && m_ready) || (f_inside == 0 && !(s_valid && s_ready))) f_lat <= 8'd0;
        else if (f_lat != 8'hff) f_lat <= f_lat + 1'b1;
    end
    always @(*) if (f_past && !rst && f_rdy_all) assert(f_lat <= LAT);

    always @(posedge clk) if (f_past && !rst) cover(m_valid && m_ready && f_out == 0);
endmodule
`default_nettype wire
