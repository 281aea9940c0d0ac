// SPDX-License-Identifier: Apache-2.0
// tdea_mode_engine: AXI4-Stream engine for TDEA (Triple DES, NIST SP 800-67) in the modes
// ECB and CBC (SP 800-38A), encryption and decryption, on one TDEA block core
// (tdea_iter or tdea_pipe, docs/tdea.md), behind the command/status interface of the
// AES mode engines (data/mode_engine.yaml; docs/mode_engine.md, docs/tdea.md).
//
// A sibling of aes_mode_engine, not a copy of its lane: it shares the command and status
// beats, the op and error codes (the generated rtl/modes/aes_mode_if.vh, ops
// OP_TDEA_*), the key-slot rules (a slot is usable after a legal load; rst, zeroize and
// an illegal length make it unusable; a slot in use is never reloaded) and the output
// buffer (axis_commit_fifo, also used as the in-flight FIFO of the CBC-decryption
// previous blocks). The sequencer is its own: one 64-bit block per beat, ECB and CBC
// decryption stream (one block per clock on tdea_pipe), CBC encryption waits for each
// block's result before it issues the next.
//
// Parameters (limits checked at elaboration, AESIP_CHECK)
//   CORE    : "pipe" = tdea_pipe (48 pipelined rounds), "iter" = tdea_iter (one round
//             per clock); any other name stops elaboration. Default "iter".
//   SLOT_W  : key-slot index width, 1 .. 8 (2**SLOT_W key slots in the core)
//   LEN_W   : width of the length counters, 4 .. 61; payloads of 2**LEN_W bytes or more
//             are rejected with LENGTH
//   BUF_AW  : log2 of the output buffer depth in 8-byte beats, >= 1 (default 6: 64 beats)
//   INFL_AW : log2 of the most blocks in flight in the core, 1 .. 8 (default 6: 64; the
//             pipe needs 52 to stream at one block per clock)
// Ports
//   clk, rst                          : clock, sync active-high reset
//   zeroize                           : one-cycle pulse: clears every key slot, aborts the
//                                       packet whose status is not yet presented (status
//                                       ZEROIZED), wipes the buffers (docs/tdea.md)
//   key_valid/ready/slot/bytes/data   : key load into the core (key_data 192 bits:
//                                       key_bytes 24 = keying option 1, 16 = option 2,
//                                       anything else makes the slot unusable). key_ready
//                                       is low while the packet in the engine uses
//                                       key_slot; while key_valid is high a command for
//                                       key_slot is not accepted (the load goes first)
//   s_axis_cmd_*  (tdata 512 bits)    : one command beat per packet (docs/mode_engine.md)
//   s_axis_*      (tdata 64, tkeep 8) : payload, one 8-byte block per beat, tlast on the
//                                       packet's last beat; tkeep must be 8'hff
//   m_axis_*      (tdata 64, tkeep 8, tlast, tuser) : output payload, one block per beat;
//                                       tuser=1 on a terminator beat (failed packet)
//   m_axis_sts_*  (tdata 136 bits)    : one status beat per packet: [63:0] last ciphertext
//                                       block (CBC), [135:128] error code
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module tdea_mode_engine #(
    parameter [63:0] CORE = "iter",
    parameter SLOT_W  = 2,
    parameter LEN_W   = 32,
    parameter BUF_AW  = 6,
    parameter INFL_AW = 6
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              zeroize,
    // key load
    input  wire              key_valid,
    output wire              key_ready,
    input  wire [SLOT_W-1:0] key_slot,
    input  wire [5:0]        key_bytes,
    input  wire [191:0]      key_data,
    // command
    input  wire              s_axis_cmd_tvalid,
    output wire              s_axis_cmd_tready,
    input  wire [511:0]      s_axis_cmd_tdata,
    // data in
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire [63:0]       s_axis_tdata,
    input  wire [7:0]        s_axis_tkeep,
    input  wire              s_axis_tlast,
    // data out
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire [63:0]       m_axis_tdata,
    output wire [7:0]        m_axis_tkeep,
    output wire              m_axis_tlast,
    output wire              m_axis_tuser,
    // status out
    output wire              m_axis_sts_tvalid,
    input  wire              m_axis_sts_tready,
    output wire [135:0]      m_axis_sts_tdata
);
    `include "aes_mode_if.vh"   // command/status beat layout, op and error codes (data/mode_engine.yaml)

    // ---------------------------------------------------------------- parameter checks
    generate
        `AESIP_CHECK(CORE == "iter" || CORE == "pipe", tdea_mode_engine_CORE_unknown,
                     "tdea_mode_engine: CORE must be iter or pipe")
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, tdea_mode_engine_SLOT_W_not_1_to_8,
                     "tdea_mode_engine: SLOT_W must be 1 .. 8")
        `AESIP_CHECK(LEN_W >= 4 && LEN_W <= 61, tdea_mode_engine_LEN_W_out_of_range,
                     "tdea_mode_engine: LEN_W must be 4 .. 61")
        `AESIP_CHECK(BUF_AW >= 1, tdea_mode_engine_BUF_AW_below_1, "tdea_mode_engine: BUF_AW must be >= 1")
        `AESIP_CHECK(INFL_AW >= 1 && INFL_AW <= 8, tdea_mode_engine_INFL_AW_not_1_to_8,
                     "tdea_mode_engine: INFL_AW must be 1 .. 8")
    endgenerate

    localparam OUT_W = 64 + 8 + 1 + 1;   // {tuser, tlast, tkeep, tdata}
    localparam CNT_W = INFL_AW + 2;

    // ---------------------------------------------------------------- key slots
    // (the aes_key_slots rule with the TDEA lengths: 24 = option 1, 16 = option 2)
    reg  [(1 << SLOT_W)-1:0] usable;
    reg                      busy;       // a packet is in the engine (command to status)
    reg  [SLOT_W-1:0]        c_slot;
    wire core_key_ready;
    assign key_ready = core_key_ready && !(busy && c_slot == key_slot);
    wire key_go = key_valid && key_ready;
    always @(posedge clk) begin
        if (rst || zeroize) usable <= {(1 << SLOT_W){1'b0}};
        else if (key_go) usable[key_slot] <= (key_bytes == 6'd24) || (key_bytes == 6'd16);
    end

    // ---------------------------------------------------------------- command decode
    wire [3:0]  d_op      = s_axis_cmd_tdata[CMD_OP_LSB +: CMD_OP_W];
    wire        d_cut     = s_axis_cmd_tdata[CMD_CUT_LSB];
    wire [7:0]  d_slotf   = s_axis_cmd_tdata[CMD_SLOT_LSB +: CMD_SLOT_W];
    wire [63:0] d_aad_len = s_axis_cmd_tdata[CMD_AAD_LEN_LSB +: CMD_AAD_LEN_W];
    wire [63:0] d_pay_len = s_axis_cmd_tdata[CMD_PAYLOAD_LEN_LSB +: CMD_PAYLOAD_LEN_W];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [127:0] d_ivf    = s_axis_cmd_tdata[CMD_IV_LSB +: CMD_IV_W];   // bytes 0..7 used
    /* verilator lint_on UNUSEDSIGNAL */
    wire [SLOT_W-1:0] d_slot = d_slotf[SLOT_W-1:0];
    wire d_ecb_e = (d_op == OP_TDEA_ECB_ENC);
    wire d_ecb_d = (d_op == OP_TDEA_ECB_DEC);
    wire d_cbc_e = (d_op == OP_TDEA_CBC_ENC);
    wire d_cbc_d = (d_op == OP_TDEA_CBC_DEC);
    wire d_known = d_ecb_e || d_ecb_d || d_cbc_e || d_cbc_d;
    wire d_fit   = ((d_pay_len >> LEN_W) == 64'd0);
    reg  [7:0] d_err;
    always @(*) begin
        d_err = ERR_OK;
        if (!d_known || (s_axis_cmd_tdata & CMD_RSVD_MASK) != {CMD_W{1'b0}} || d_cut
            || s_axis_cmd_tdata[CMD_TAG_BEAT_LSB])
            d_err = ERR_OP;
        else if (d_aad_len != 64'd0 || !d_fit || d_pay_len[2:0] != 3'd0)
            d_err = ERR_LENGTH;
        else if ((d_slotf >> SLOT_W) != 8'd0 || !usable[d_slot])
            d_err = ERR_KEY;
    end
    // (a command with tag_beat, refused with OP above, still brings its tag beat)
    wire d_has_data = (d_aad_len != 64'd0) || (d_pay_len != 64'd0) || s_axis_cmd_tdata[CMD_TAG_BEAT_LSB];

    // a pending key load for the command's slot goes first (no starvation by traffic)
    wire cmd_hold = key_valid && ({8'd0, d_slotf} == {{(16-SLOT_W){1'b0}}, key_slot});
    assign s_axis_cmd_tready = !busy && !cmd_hold;
    wire cmd_go = s_axis_cmd_tvalid && s_axis_cmd_tready;

    // ---------------------------------------------------------------- packet state
    reg              c_dec;      // decrypt (core direction)
    reg              c_cbc;      // CBC
    reg  [7:0]       c_err;      // first error of the packet (ZEROIZED overrides)
    reg  [LEN_W-1:0] n_blk;      // payload blocks
    reg  [LEN_W-1:0] in_cnt;     // payload beats accepted
    reg  [LEN_W-1:0] res_cnt;    // results taken from the core
    reg              in_done;    // the input is consumed up to tlast (or there is none)
    reg              kdrop;      // a core key error: drop every result from now on
    reg              zdrop;      // zeroized: drop every result, nothing is written
    reg  [CNT_W-1:0] infl;       // blocks issued, result not yet taken
    reg  [63:0]      chain;      // CBC: chaining value (IV, then the last ciphertext)
    reg              wr_any;     // a beat of this packet went to m_axis (or will)
    reg              wr_last;    // ... and its tlast beat
    reg              vis_any;    // a beat of this packet has been presented on m_axis
    reg              vis_last;   // ... its tlast beat
    reg  [BUF_AW+1:0] opend;     // beats written into the output buffer, not yet taken
    reg              sts_v;
    reg  [135:0]     sts_d;

    wire drain = (c_err != ERR_OK);                // consume input to tlast, issue nothing
    wire drop  = kdrop || zdrop;

    // ---------------------------------------------------------------- buffers
    wire mask_ready, mask_valid;
    wire [63:0] mask_data;
    wire out_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire mask_wiping, out_wiping;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [OUT_W-1:0] out_data;

    // ---------------------------------------------------------------- issue
    wire core_s_ready;
    wire beat_last_exp = (in_cnt == n_blk - 1'b1);
    wire beat_ok = (s_axis_tkeep == 8'hff) && (s_axis_tlast == beat_last_exp);
    wire cbc_enc = c_cbc && !c_dec;
    wire can_issue = core_s_ready && mask_ready && !zeroize && (!cbc_enc || infl == {CNT_W{1'b0}});
    assign s_axis_tready = busy && !in_done && (drain || can_issue);
    wire in_go  = s_axis_tvalid && s_axis_tready;
    wire issue  = in_go && !drain && beat_ok;
    wire core_s_valid = s_axis_tvalid && busy && !in_done && !drain && beat_ok && can_issue;
    wire [63:0] core_in = cbc_enc ? (s_axis_tdata ^ chain) : s_axis_tdata;
    // what the result is XORed with: CBC decryption the previous ciphertext block
    wire [63:0] mask_in = (c_cbc && c_dec) ? chain : 64'd0;

    // ---------------------------------------------------------------- results
    wire        core_m_valid;
    wire [63:0] core_m_data;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [1:0]  core_m_user;   // {tag (unused), err}
    /* verilator lint_on UNUSEDSIGNAL */
    wire core_m_ready = zdrop || (mask_valid && (kdrop || out_ready));
    wire res_go  = core_m_valid && core_m_ready;
    wire res_err = core_m_user[0];
    wire res_wr  = res_go && !drop && !res_err;
    wire res_last = (res_cnt == n_blk - 1'b1);

    // ---------------------------------------------------------------- finish
    wire all_back  = in_done && (infl == {CNT_W{1'b0}});
    wire need_term = (c_err != ERR_OK) && wr_any && !wr_last;
    wire term_wr   = busy && all_back && need_term && out_ready;
    wire out_wr    = res_wr || term_wr;
    wire [OUT_W-1:0] out_wdata = term_wr ? {1'b1, 1'b1, 8'h01, 64'd0}
                                         : {1'b0, res_last, 8'hff, core_m_data ^ mask_data};
    wire out_take = m_axis_tvalid && m_axis_tready;
    wire finish = busy && all_back && !need_term && (opend == {(BUF_AW+2){1'b0}}) && !sts_v && !zeroize;

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; c_slot <= {SLOT_W{1'b0}}; c_dec <= 1'b0; c_cbc <= 1'b0; c_err <= ERR_OK;
            n_blk <= {LEN_W{1'b0}}; in_cnt <= {LEN_W{1'b0}}; res_cnt <= {LEN_W{1'b0}};
            in_done <= 1'b0; kdrop <= 1'b0; zdrop <= 1'b0; infl <= {CNT_W{1'b0}};
            chain <= 64'd0; wr_any <= 1'b0; wr_last <= 1'b0; vis_any <= 1'b0; vis_last <= 1'b0;
            opend <= {(BUF_AW+2){1'b0}};
            sts_v <= 1'b0; sts_d <= 136'd0;
        end else begin
            // in-flight blocks
            infl <= infl + {{(CNT_W-1){1'b0}}, issue} - {{(CNT_W-1){1'b0}}, res_go};
            if (res_go) res_cnt <= res_cnt + 1'b1;
            // input
            if (in_go) begin
                in_cnt <= in_cnt + 1'b1;
                if (s_axis_tlast) in_done <= 1'b1;
                if (!drain && !beat_ok) c_err <= ERR_FRAMING;
                if (issue) chain <= cbc_enc ? chain : (c_cbc ? s_axis_tdata : 64'd0);
            end
            // results
            if (res_go && !drop && res_err) begin
                kdrop <= 1'b1;
                if (c_err == ERR_OK || (in_go && !drain && !beat_ok)) c_err <= ERR_KEY;
            end
            if (res_wr && cbc_enc) chain <= core_m_data;
            // output bookkeeping
            if (out_wr) wr_any <= 1'b1;
            if (res_wr && res_last) wr_last <= 1'b1;
            if (term_wr) wr_last <= 1'b1;
            if (busy && m_axis_tvalid) vis_any <= 1'b1;
            if (busy && m_axis_tvalid && m_axis_tlast) vis_last <= 1'b1;
            opend <= opend + {{(BUF_AW+1){1'b0}}, out_wr} - {{(BUF_AW+1){1'b0}}, out_take};
            // status
            if (m_axis_sts_tvalid && m_axis_sts_tready) begin
                sts_v <= 1'b0;
                sts_d <= 136'd0;
            end
            if (finish) begin
                sts_v <= 1'b1;
                sts_d <= {c_err, 64'd0, (c_err == ERR_OK && c_cbc) ? chain : 64'd0};
                busy  <= 1'b0;
                chain <= 64'd0;
                kdrop <= 1'b0;
                zdrop <= 1'b0;
                c_err <= ERR_OK;
            end
            // command
            if (cmd_go) begin
                busy    <= 1'b1;
                c_slot  <= d_slot;
                c_dec   <= d_ecb_d || d_cbc_d;
                c_cbc   <= d_cbc_e || d_cbc_d;
                c_err   <= d_err;
                n_blk   <= d_pay_len[LEN_W-1:0] >> 3;
                in_cnt  <= {LEN_W{1'b0}};
                res_cnt <= {LEN_W{1'b0}};
                in_done <= !d_has_data;
                chain   <= (d_cbc_e || d_cbc_d) ? d_ivf[63:0] : 64'd0;
                wr_any  <= 1'b0; wr_last <= 1'b0; vis_any <= 1'b0; vis_last <= 1'b0;
            end
            // zeroize: abort the packet in the engine (or being accepted); wipe the buffers
            if (zeroize) begin
                chain <= 64'd0;
                if (busy || cmd_go) begin
                    c_err <= ERR_ZEROIZED;
                    zdrop <= 1'b1;
                    // the output buffer keeps only a beat already presented
                    wr_any  <= busy && (vis_any || m_axis_tvalid);
                    wr_last <= busy && (vis_last || (m_axis_tvalid && m_axis_tlast));
                end
                opend <= {{(BUF_AW+1){1'b0}}, m_axis_tvalid && !m_axis_tready};
            end
        end
    end

    // ---------------------------------------------------------------- buffers
    // previous blocks of the blocks in flight (every write committed); its depth bounds
    // the blocks in flight
    axis_commit_fifo #(.WIDTH(64), .AW(INFL_AW), .KEEP_OUT(0)) u_mask (
        .clk(clk), .rst(rst), .clear(zeroize),
        .wr_valid(issue), .wr_ready(mask_ready), .wr_data(mask_in), .wr_commit(1'b1),
        .commit(1'b0), .rollback(1'b0),
        .m_valid(mask_valid), .m_ready(res_go && mask_valid), .m_data(mask_data), .wiping(mask_wiping));
    // output buffer (every beat committed when written)
    wire out_valid;
    axis_commit_fifo #(.WIDTH(OUT_W), .AW(BUF_AW), .KEEP_OUT(1)) u_out (
        .clk(clk), .rst(rst), .clear(zeroize),
        .wr_valid(out_wr), .wr_ready(out_ready), .wr_data(out_wdata), .wr_commit(1'b1),
        .commit(1'b0), .rollback(1'b0),
        .m_valid(out_valid), .m_ready(m_axis_tready), .m_data(out_data), .wiping(out_wiping));
    assign m_axis_tvalid = out_valid;
    assign m_axis_tdata  = out_data[63:0];
    assign m_axis_tkeep  = out_data[71:64];
    assign m_axis_tlast  = out_data[72];
    assign m_axis_tuser  = out_data[73];
    assign m_axis_sts_tvalid = sts_v;
    assign m_axis_sts_tdata  = sts_d;

    // ---------------------------------------------------------------- the TDEA core
    generate
        if (CORE == "pipe") begin : g_pipe
            tdea_pipe #(.SLOT_W(SLOT_W), .TAG_W(1)) u_core (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_go), .key_ready(core_key_ready), .key_slot(key_slot),
                .key_bytes(key_bytes), .key_data(key_data),
                .s_axis_tvalid(core_s_valid), .s_axis_tready(core_s_ready), .s_axis_tdata(core_in),
                .s_axis_tuser({1'b0, c_slot, c_dec}),
                .m_axis_tvalid(core_m_valid), .m_axis_tready(core_m_ready), .m_axis_tdata(core_m_data),
                .m_axis_tuser(core_m_user));
        end else begin : g_iter
            tdea_iter #(.SLOT_W(SLOT_W), .TAG_W(1)) u_core (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_go), .key_ready(core_key_ready), .key_slot(key_slot),
                .key_bytes(key_bytes), .key_data(key_data),
                .s_axis_tvalid(core_s_valid), .s_axis_tready(core_s_ready), .s_axis_tdata(core_in),
                .s_axis_tuser({1'b0, c_slot, c_dec}),
                .m_axis_tvalid(core_m_valid), .m_axis_tready(core_m_ready), .m_axis_tdata(core_m_data),
                .m_axis_tuser(core_m_user));
        end
    endgenerate
endmodule
`default_nettype wire
