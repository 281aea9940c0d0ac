// SPDX-License-Identifier: Apache-2.0
// aes_mode_lane: one packet context of the mode engine (docs/mode_engine.md): command
// decode and checks, the step sequencer of AES-CCM (SP 800-38C) and ECB/CBC/CTR/CBC-MAC,
// the output commit buffer and the status register. It owns no AES core: it sends at
// most one block at a time to each of two block-cipher ports, core A (chaining: CCM's
// CBC-MAC, CBC encryption, CBC-MAC) and core B (counter blocks, ECB, CBC decryption),
// and takes each block's result back on a result port.
//
// aes_mode_engine is one lane wired straight to two cores; aes_mode_multi runs several
// lanes on one shared pair of cores.
//
// Parameters
//   SLOT_W    : key-slot index width, 1 .. 8 (the slot field must be < 2**SLOT_W)
//   LEN_W     : width of the internal length counters, BUF_AW + 4 .. 61; AAD or payload
//               lengths of 2**LEN_W bytes or more are rejected with ERR_LENGTH
//   BUF_AW    : log2 of the output buffer depth in 16-byte beats (>= 1); store-and-forward
//               CCM decryption accepts payloads up to 16 * 2**BUF_AW bytes
//   ZDRAIN    : 1 = after a zeroize the lane itself consumes the rest of an aborted
//               packet's input up to tlast (aes_mode_engine: the lane reads s_axis
//               directly); 0 = it does not (aes_mode_multi: the input FIFO in front of
//               the lane is cleared and the demultiplexer drops the rest)
// Ports
//   clk, rst                          : clock, synchronous active-high reset (clears all state)
//   zeroize                           : one-cycle pulse: aborts the packet in the lane and a
//                                       finished packet whose status is not yet presented
//                                       (status ZEROIZED), wipes the lane's registers and
//                                       its output buffer (docs/mode_engine.md, "Security")
//   key_usable                        : bit s = key slot s holds a usable key (aes_key_slots);
//                                       checked when a command is accepted
//   active, active_slot               : the lane holds a packet (command accepted, status not
//                                       yet written) and that packet's key slot: a key load
//                                       into that slot must wait
//   s_axis_cmd_tvalid/tready/tdata    : one 512-bit command beat per packet; tready = the
//                                       lane is idle (one packet at a time)
//   s_axis_tvalid/tready/tdata/tkeep/tlast : the packet's AAD beats, then payload beats
//                                       (segments start on a beat boundary), tlast on the last;
//                                       a packet with aad_len = payload_len = 0 consumes no
//                                       beat, any other packet consumes beats up to tlast
//   m_axis_tvalid/tready/tdata/tkeep/tlast/tuser : output payload from the commit buffer;
//                                       tuser = 1 on the last beat of a failed packet
//   m_axis_sts_tvalid/tready/tdata    : one status beat per packet: [127:0] value,
//                                       [135:128] error code; presented only after the
//                                       packet's last output beat (if any) has been taken
//   m_axis_sts_empty                  : with m_axis_sts_tvalid: the packet put no beat
//                                       into the output buffer (so none will follow on
//                                       m_axis for it)
//   a_s_valid/ready/data/slot/dec     : block request to core A (AXI4-Stream rules:
//                                       valid never waits for ready, data held until taken);
//                                       dec is always 0
//   a_m_valid/ready/data/err          : core A result of this lane's outstanding block;
//                                       err = the core's key error flag
//   b_s_valid/ready/data/slot/dec, b_m_valid/ready/data/err : the same for core B
// At most one block per core is outstanding: a new block is requested only in or after
// the cycle the previous one's result is taken (a_m_ready / b_m_ready).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_mode_lane #(
    parameter SLOT_W = 2,
    parameter LEN_W  = 32,
    parameter BUF_AW = 8,
    parameter ZDRAIN = 1
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          zeroize,
    input  wire [(1 << SLOT_W)-1:0] key_usable,
    output wire          active,
    output wire [SLOT_W-1:0] active_slot,
    // command
    input  wire          s_axis_cmd_tvalid,
    output wire          s_axis_cmd_tready,
    input  wire [511:0]  s_axis_cmd_tdata,
    // data in
    input  wire          s_axis_tvalid,
    output wire          s_axis_tready,
    input  wire [127:0]  s_axis_tdata,
    input  wire [15:0]   s_axis_tkeep,
    input  wire          s_axis_tlast,
    // data out
    output wire          m_axis_tvalid,
    input  wire          m_axis_tready,
    output wire [127:0]  m_axis_tdata,
    output wire [15:0]   m_axis_tkeep,
    output wire          m_axis_tlast,
    output wire          m_axis_tuser,
    // status out
    output wire          m_axis_sts_tvalid,
    input  wire          m_axis_sts_tready,
    output reg  [135:0]  m_axis_sts_tdata,
    output reg           m_axis_sts_empty,
    // core A block request / result
    output wire              a_s_valid,
    input  wire              a_s_ready,
    output wire [127:0]      a_s_data,
    output wire [SLOT_W-1:0] a_s_slot,
    output wire              a_s_dec,
    input  wire              a_m_valid,
    output wire              a_m_ready,
    input  wire [127:0]      a_m_data,
    input  wire              a_m_err,
    // core B block request / result
    output wire              b_s_valid,
    input  wire              b_s_ready,
    output wire [127:0]      b_s_data,
    output wire [SLOT_W-1:0] b_s_slot,
    output wire              b_s_dec,
    input  wire              b_m_valid,
    output wire              b_m_ready,
    input  wire [127:0]      b_m_data,
    input  wire              b_m_err
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, aes_mode_lane_SLOT_W_not_1_to_8,
                     "aes_mode_lane: SLOT_W must be 1 .. 8")
        `AESIP_CHECK(BUF_AW >= 1, aes_mode_lane_BUF_AW_below_1,
                     "aes_mode_lane: BUF_AW must be >= 1")
        `AESIP_CHECK(LEN_W >= BUF_AW + 4 && LEN_W <= 61, aes_mode_lane_LEN_W_out_of_range,
                     "aes_mode_lane: LEN_W must be BUF_AW + 4 .. 61")
        `AESIP_CHECK(ZDRAIN == 0 || ZDRAIN == 1, aes_mode_lane_ZDRAIN_not_0_or_1,
                     "aes_mode_lane: ZDRAIN must be 0 or 1")
    endgenerate

    // ---------------------------------------------------------------- op and error codes
    // (generated from data/mode_engine.yaml: OP_*, ERR_*, CMD_* and STS_* field positions)
    `include "aes_mode_if.vh"


    // ---------------------------------------------------------------- helpers
    function automatic [127:0] bswap;   // reverse the 16 bytes (LE lanes <-> BE integer)
        input [127:0] x;
        integer i;
        begin
            for (i = 0; i < 16; i = i + 1) bswap[8*i +: 8] = x[8*(15-i) +: 8];
        end
    endfunction

    function automatic [127:0] bytemask;  // bytes 0..n-1 set (n = 0..16)
        input [4:0] n;
        integer i;
        begin
            for (i = 0; i < 16; i = i + 1) bytemask[8*i +: 8] = (i < n) ? 8'hff : 8'h00;
        end
    endfunction

    function automatic [15:0] keepmask;
        input [4:0] n;
        integer i;
        begin
            for (i = 0; i < 16; i = i + 1) keepmask[i] = (i < n);
        end
    endfunction

    // ---------------------------------------------------------------- command decode
    wire [3:0]   c_op    = s_axis_cmd_tdata[CMD_OP_LSB +: CMD_OP_W];
    wire         c_cut   = s_axis_cmd_tdata[CMD_CUT_LSB];
    wire [7:0]   c_slot  = s_axis_cmd_tdata[CMD_SLOT_LSB +: CMD_SLOT_W];
    wire [3:0]   c_nlen  = s_axis_cmd_tdata[CMD_NONCE_LEN_LSB +: CMD_NONCE_LEN_W];
    wire [4:0]   c_tlen  = s_axis_cmd_tdata[CMD_TAG_LEN_LSB +: CMD_TAG_LEN_W];
    wire [63:0]  c_alen  = s_axis_cmd_tdata[CMD_AAD_LEN_LSB +: CMD_AAD_LEN_W];
    wire [63:0]  c_plen  = s_axis_cmd_tdata[CMD_PAYLOAD_LEN_LSB +: CMD_PAYLOAD_LEN_W];
    wire [127:0] c_iv    = s_axis_cmd_tdata[CMD_IV_LSB +: CMD_IV_W];
    wire [127:0] c_rtag  = s_axis_cmd_tdata[CMD_TAG_LSB +: CMD_TAG_W];

    wire c_is_ccm = (c_op == OP_CCM_ENC) || (c_op == OP_CCM_DEC);
    wire [3:0] c_q = 4'd15 - c_nlen;                       // L
    wire c_nonce_ok = (c_nlen >= 4'd7) && (c_nlen <= 4'd13);
    wire c_tag_ok = (c_tlen >= 5'd4) && (c_tlen <= 5'd16) && !c_tlen[0];
    // payload must fit in the L-byte length field: plen < 2^(8L); L >= 8 always fits
    wire c_plen_fits_q = (c_q >= 4'd8) ? 1'b1 : ((c_plen >> {c_q[2:0], 3'b000}) == 64'd0);
    wire c_len_fit = ((c_alen >> LEN_W) == 64'd0) && ((c_plen >> LEN_W) == 64'd0);
    wire c_whole = (c_plen[3:0] == 4'd0);
    wire c_slot_ok = ((c_slot >> SLOT_W) == 8'd0) && key_usable[c_slot[SLOT_W-1:0]];
    wire c_has_data = (c_alen != 64'd0) || (c_plen != 64'd0);   // the packet has data beats
    wire [LEN_W:0] c_buf_max = (1 << (BUF_AW + 4));

    reg [7:0] c_err;
    always @(*) begin
        c_err = ERR_OK;
        if (c_op > OP_CCM_DEC || (s_axis_cmd_tdata & CMD_RSVD_MASK) != {CMD_W{1'b0}}
            || (c_cut && c_op != OP_CCM_DEC))
            c_err = ERR_OP;
        else if (c_is_ccm && !c_nonce_ok)
            c_err = ERR_NONCE;
        else if (c_is_ccm && !c_tag_ok)
            c_err = ERR_TAG_LEN;
        else if (!c_len_fit || (c_is_ccm && !c_plen_fits_q) || (!c_is_ccm && c_alen != 64'd0)
                 || ((c_op != OP_CTR) && !c_is_ccm && !c_whole))
            c_err = ERR_LENGTH;
        else if (c_op == OP_CCM_DEC && !c_cut && ({1'b0, c_plen[LEN_W-1:0]} > c_buf_max))
            c_err = ERR_BUFFER;
        else if (!c_slot_ok)
            c_err = ERR_KEY;
    end

    // nonce bytes 0..n-1 only
    /* verilator lint_off UNUSEDSIGNAL */
    wire [127:0] c_nonce = c_iv & bytemask({1'b0, c_nlen});   // <= 13 bytes when legal: byte 15 unused
    /* verilator lint_on UNUSEDSIGNAL */
    wire [7:0]   c_flags = {1'b0, (c_alen != 64'd0), c_tlen[3:1] - 3'd1, c_q[2:0] - 3'd1};
    wire [127:0] c_b0    = {c_nonce[119:0], c_flags} | bswap({64'd0, c_plen});
    wire [127:0] c_ctr0  = {c_nonce[119:0], 5'd0, c_q[2:0] - 3'd1};
    // AAD length encoding (SP 800-38C A.2.2): 2, 6 or 10 bytes
    wire [1:0]   c_ssel  = (c_alen < 64'hff00) ? 2'd0 : (c_alen[63:32] == 32'd0) ? 2'd1 : 2'd2;
    wire [4:0]   c_s     = (c_ssel == 2'd0) ? 5'd2 : (c_ssel == 2'd1) ? 5'd6 : 5'd10;
    // length-encoding bytes placed in the top s lanes of the carry register
    wire [79:0]  c_lenc_hi = (c_ssel == 2'd0) ? {c_alen[7:0], c_alen[15:8], 64'd0} :
                             (c_ssel == 2'd1) ? {c_alen[7:0], c_alen[15:8], c_alen[23:16], c_alen[31:24],
                                                 8'hfe, 8'hff, 32'd0} :
                             {c_alen[7:0], c_alen[15:8], c_alen[23:16], c_alen[31:24], c_alen[39:32],
                              c_alen[47:40], c_alen[55:48], c_alen[63:56], 8'hff, 8'hff};
    wire [LEN_W:0] c_alen_w = {1'b0, c_alen[LEN_W-1:0]};
    wire [LEN_W:0] c_plen_w = {1'b0, c_plen[LEN_W-1:0]};
    wire [LEN_W:0] c_nb_aad = (c_alen_w + 15) >> 4;
    wire [LEN_W:0] c_nb_pay = (c_plen_w + 15) >> 4;
    wire [LEN_W:0] c_k_aad  = (c_alen == 64'd0) ? {(LEN_W+1){1'b0}} : ((c_alen_w + {{(LEN_W-4){1'b0}}, c_s} + 15) >> 4);

    // ---------------------------------------------------------------- packet state
    // ST_ABORT: the packet failed closed (core key error or zeroize): nothing more is
    // issued or written; the lane waits for its outstanding core results and discards them.
    localparam [2:0] ST_IDLE = 3'd0, ST_RUN = 3'd1, ST_ABORT = 3'd2, ST_DRAIN = 3'd3, ST_FLUSH = 3'd4;
    localparam [1:0] PH_INIT = 2'd0, PH_AAD = 2'd1, PH_PRE = 2'd2, PH_PAY = 2'd3;

    reg [2:0]   state;
    reg [1:0]   phase;
    reg [3:0]   op;
    reg         cut;
    reg [SLOT_W-1:0] slot;
    reg [4:0]   tlen;
    reg [1:0]   ssel;
    reg [7:0]   err;
    reg [LEN_W:0] k_aad, nb_aad, nb_pay;   // formatted AAD blocks, AAD beats, payload beats
    reg [LEN_W:0] k, j;                    // AAD step index, payload step index (0-based)
    reg [LEN_W:0] aad_rem, pay_rem;        // bytes not yet received
    reg [127:0] x_reg;                     // CBC-MAC / CBC chaining value
    reg [127:0] s_reg;                     // keystream block for the current payload step
    reg [127:0] s0_reg;                    // CCM: E(Ctr0)
    reg [127:0] ctr;                       // next counter block
    reg [127:0] prev;                      // CBC-dec: previous ciphertext (IV first)
    reg [79:0]  carry;                     // CCM AAD realignment: top 10 bytes of the previous beat
    reg [127:0] rtag;                      // CCM-dec: received tag
    reg         plan_active;               // steps remain to be issued
    reg         in_open;                   // input beats of the packet remain, up to tlast
    reg         a_sent, b_sent;
    reg         a_out, b_out;              // a block of this lane is inside core A / core B
    // fail-closed bookkeeping
    reg         abort;                     // the packet failed closed: no further output beat
    reg         zab;                       // ... because of zeroize (the buffer was wiped)
    reg         cur_wrote;                 // a beat of this packet is in the buffer (or has left)
    reg         cur_term;                  // abort: close this packet's frame with a null beat
    reg         term_now;                  // zeroize: close the pending status's frame now
    reg         sts_valid;                 // status register full
    reg         sts_hold;                  // ... but its packet's tlast beat has not left yet
    reg         out_open;                  // a frame has begun on m_axis and its tlast has not left
    // the step in flight (issued, results not yet consumed)
    reg         fl_valid, fl_a, fl_b, fl_init, fl_ks, fl_out;
    reg [127:0] fl_cur;                    // its input beat (masked)
    reg [4:0]   fl_n;                      // valid bytes in fl_cur
    // output staging: the last beat of a packet is held until the packet's result is known
    reg [127:0] pend_data;
    reg [15:0]  pend_keep;

    wire is_ccm  = (op == OP_CCM_ENC) || (op == OP_CCM_DEC);
    wire is_ctrk = is_ccm || (op == OP_CTR);      // uses a keystream
    wire sf      = (op == OP_CCM_DEC) && !cut;    // store-and-forward
    wire has_out = (op != OP_CBC_MAC);

    assign active      = (state != ST_IDLE);
    assign active_slot = slot;

    // ---------------------------------------------------------------- step plan
    wire last_aad_step = (k + 1 == k_aad);
    wire last_pay_step = (j + 1 == nb_pay);
    wire need_beat = (phase == PH_PAY) || (phase == PH_AAD && k < nb_aad);
    wire in_aad_beat = (phase == PH_AAD);
    wire [LEN_W:0] rem = in_aad_beat ? aad_rem : pay_rem;
    wire [4:0]  nvalid = (rem >= 16) ? 5'd16 : rem[4:0];
    wire [127:0] in_mask = bytemask(nvalid);
    wire [127:0] beat = s_axis_tdata & in_mask;
    wire exp_last = in_aad_beat ? ((aad_rem <= 16) && (nb_pay == 0)) : (pay_rem <= 16);

    // core A (chain): CCM MAC, CBC encryption, CBC-MAC
    wire a_use = (phase == PH_INIT) || (phase == PH_AAD) ||
                 (phase == PH_PAY && (is_ccm || op == OP_CBC_ENC || op == OP_CBC_MAC));
    // core B (parallel): counter blocks (CCM/CTR, one step ahead), ECB, CBC decryption
    wire b_use = (phase == PH_INIT) || (phase == PH_PRE) ||
                 (phase == PH_AAD && last_aad_step && nb_pay != 0) ||
                 (phase == PH_PAY && (is_ctrk ? !last_pay_step :
                                      (op == OP_ECB_ENC || op == OP_ECB_DEC || op == OP_CBC_DEC)));
    assign b_s_dec = (op == OP_ECB_DEC) || (op == OP_CBC_DEC);
    assign a_s_dec = 1'b0;
    assign a_s_slot = slot;
    assign b_s_slot = slot;

    // formatted AAD block: previous beat's top s bytes, then this beat's first 16-s bytes
    wire [111:0] aad_cur = (k < nb_aad) ? beat[111:0] : 112'd0;
    wire [127:0] aad_fmt = (ssel == 2'd0) ? {aad_cur[111:0], carry[79:64]} :
                           (ssel == 2'd1) ? {aad_cur[79:0],  carry[79:32]} :
                                            {aad_cur[47:0],  carry[79:0]};
    // Steps overlap: the next step is issued in the cycle its predecessor's results are
    // consumed, taking the chaining value and keystream straight from the core outputs.
    wire buf_wr_ready;
    wire buf_ready = buf_wr_ready && !term_now;   // the lane's own writes wait for a terminator
    reg  pend_valid;
    wire complete_now = fl_valid && (!fl_a || a_m_valid) && (!fl_b || b_m_valid) &&
                        (!(fl_out && pend_valid) || buf_ready);
    // a core flagged a key error on a result of this step: fail closed (nothing computed
    // from this step or later is written, nothing more is issued)
    wire err_now = complete_now && ((fl_a && a_m_err) || (fl_b && b_m_err));
    wire [127:0] x_eff = (fl_valid && fl_a) ? a_m_data : x_reg;
    wire [127:0] s_eff = (fl_valid && fl_ks) ? b_m_data : s_reg;
    wire [127:0] pay_plain = (op == OP_CCM_DEC) ? ((beat ^ s_eff) & in_mask) : beat;
    wire [127:0] a_blk = (phase == PH_INIT) ? 128'd0 /* x_reg holds B0 */ :
                         (phase == PH_AAD)  ? aad_fmt : pay_plain;
    assign a_s_data = x_eff ^ a_blk;
    assign b_s_data = is_ctrk ? ctr : beat;

    wire beat_ok = !need_beat || s_axis_tvalid;
    wire can_start = (state == ST_RUN) && plan_active && beat_ok && (!fl_valid || complete_now) &&
                     !err_now && !zeroize;
    assign a_s_valid = can_start && a_use && !a_sent;
    assign b_s_valid = can_start && b_use && !b_sent;
    wire a_done_now = !a_use || a_sent || a_s_ready;
    wire b_done_now = !b_use || b_sent || b_s_ready;
    wire issue_done = can_start && a_done_now && b_done_now;
    // the packet's last step has issued (or the packet ended early)
    wire step_last = (phase == PH_INIT) ? (k_aad == 0 && nb_pay == 0) :
                     (phase == PH_AAD)  ? (last_aad_step && nb_pay == 0) :
                     (phase == PH_PRE)  ? 1'b0 : last_pay_step;

    // output beat of the completing step (payload steps of ops with output)
    wire [127:0] out_now = (op == OP_CBC_ENC) ? a_m_data :
                           (op == OP_ECB_ENC || op == OP_ECB_DEC) ? b_m_data :
                           (op == OP_CBC_DEC) ? (b_m_data ^ prev) : (fl_cur ^ s_reg);
    wire step_out = (phase == PH_PAY) && has_out;

    // output buffer
    reg  buf_wr_valid, buf_wr_commit, buf_commit, buf_rollback, buf_wr_last, buf_wr_user;
    reg  [127:0] buf_wr_data;
    reg  [15:0]  buf_wr_keep;
    wire [145:0] buf_m_data;
    wire buf_m_valid;
    wire buf_m_last = buf_m_data[144];
    wire out_hs = buf_m_valid && m_axis_tready;

    // CCM tag
    wire [127:0] tag_mask = bytemask(tlen);
    wire [127:0] tag_calc = (x_reg ^ s0_reg) & tag_mask;
    wire         tag_ok   = ((tag_calc ^ (rtag & tag_mask)) == 128'd0);  // one wide compare: constant time
    wire [7:0]   fin_err  = (err != ERR_OK) ? err :
                            ((op == OP_CCM_DEC && !tag_ok) ? ERR_AUTH : ERR_OK);

    // ---------------------------------------------------------------- ready signals
    assign s_axis_cmd_tready = (state == ST_IDLE);
    assign s_axis_tready = (state == ST_DRAIN) || (issue_done && need_beat);
    assign m_axis_sts_tvalid = sts_valid && !sts_hold;
    wire sts_hs = m_axis_sts_tvalid && m_axis_sts_tready;

    wire [127:0] ctr_inc = bswap(bswap(ctr) + 128'd1);

    // An aborted packet whose frame has begun on m_axis is closed with a terminator beat:
    // one zero byte (a beat of null bytes only could be removed by AXI4-Stream
    // infrastructure, and its tuser with it), tlast = 1, tuser = 1.
    localparam [15:0] TERM_KEEP = 16'h0001;

    // FLUSH proceeds only when the status register is free, so it happens exactly once
    wire fl_go = (state == ST_FLUSH) && (!sts_valid || sts_hs) && !zeroize;
    always @(*) begin
        buf_wr_valid = 1'b0; buf_wr_commit = 1'b0; buf_commit = 1'b0; buf_rollback = 1'b0;
        buf_wr_last = 1'b0; buf_wr_user = 1'b0; buf_wr_data = pend_data; buf_wr_keep = pend_keep;
        if (term_now) begin
            // terminator closing the frame of a packet aborted by zeroize
            buf_wr_valid = 1'b1; buf_wr_commit = 1'b1; buf_wr_last = 1'b1; buf_wr_user = 1'b1;
            buf_wr_data = 128'd0; buf_wr_keep = TERM_KEEP;
        end else if (complete_now && fl_out && pend_valid && !err_now) begin
            buf_wr_valid = 1'b1;
            buf_wr_commit = !sf;
        end else if (fl_go) begin
            if (abort) begin
                buf_rollback = sf && !zab;
                if (cur_term) begin
                    buf_wr_valid = 1'b1; buf_wr_commit = 1'b1; buf_wr_last = 1'b1; buf_wr_user = 1'b1;
                    buf_wr_data = 128'd0; buf_wr_keep = TERM_KEEP;
                end
            end else if (sf && fin_err != ERR_OK) begin
                buf_rollback = 1'b1;
            end else if (pend_valid) begin
                buf_wr_valid = 1'b1;
                buf_wr_commit = 1'b1;
                buf_wr_last = 1'b1;
                buf_wr_user = (fin_err != ERR_OK);
            end else begin
                buf_commit = 1'b1;
            end
        end
    end
    wire flush_done = fl_go && (!buf_wr_valid || buf_ready);

    // the frame on m_axis is open once the beat presented now (if any) has left
    wire open_eff = buf_m_valid ? !buf_m_last : out_open;
    // the open frame belongs to the finished packet whose status waits for its tlast
    wire open_pending = sts_valid && sts_hold;

    // ---------------------------------------------------------------- sequencing
    always @(posedge clk) begin
        if (rst) begin
            state <= ST_IDLE; phase <= PH_INIT; op <= 4'd0; cut <= 1'b0; slot <= {SLOT_W{1'b0}};
            tlen <= 5'd0; ssel <= 2'd0; err <= ERR_OK;
            k_aad <= 0; nb_aad <= 0; nb_pay <= 0; k <= 0; j <= 0; aad_rem <= 0; pay_rem <= 0;
            x_reg <= 128'd0; s_reg <= 128'd0; s0_reg <= 128'd0; ctr <= 128'd0; prev <= 128'd0;
            carry <= 80'd0; rtag <= 128'd0; fl_cur <= 128'd0; fl_n <= 5'd0; plan_active <= 1'b0;
            fl_valid <= 1'b0; fl_a <= 1'b0; fl_b <= 1'b0; fl_init <= 1'b0; fl_ks <= 1'b0; fl_out <= 1'b0;
            in_open <= 1'b0; a_sent <= 1'b0; b_sent <= 1'b0; a_out <= 1'b0; b_out <= 1'b0;
            abort <= 1'b0; zab <= 1'b0; cur_wrote <= 1'b0; cur_term <= 1'b0; term_now <= 1'b0;
            sts_valid <= 1'b0; sts_hold <= 1'b0; out_open <= 1'b0;
            pend_valid <= 1'b0; pend_data <= 128'd0; pend_keep <= 16'd0;
            m_axis_sts_tdata <= 136'd0; m_axis_sts_empty <= 1'b0;
        end else begin
            // blocks inside the cores (results are always collected, also after an abort)
            a_out <= (a_out && !(a_m_valid && a_m_ready)) || (a_s_valid && a_s_ready);
            b_out <= (b_out && !(b_m_valid && b_m_ready)) || (b_s_valid && b_s_ready);
            // output side: frame tracking, status release after the packet's tlast has left
            if (out_hs) begin
                out_open <= !buf_m_last;
                if (buf_m_last) sts_hold <= 1'b0;
            end
            if (sts_hs) begin
                sts_valid <= 1'b0;
                m_axis_sts_tdata <= 136'd0;   // leave no tag or MAC behind
            end
            if (term_now && buf_wr_ready) term_now <= 1'b0;
            case (state)
            ST_IDLE: if (s_axis_cmd_tvalid) begin
                op <= c_op; cut <= c_cut; slot <= c_slot[SLOT_W-1:0]; tlen <= c_tlen; ssel <= c_ssel;
                err <= c_err;
                k_aad <= c_k_aad; nb_aad <= c_nb_aad; nb_pay <= c_nb_pay;
                k <= 0; j <= 0; aad_rem <= c_alen_w; pay_rem <= c_plen_w;
                x_reg <= ((c_op == OP_CBC_ENC) || (c_op == OP_CBC_MAC)) ? c_iv :
                         (c_is_ccm ? c_b0 : 128'd0);
                ctr <= c_is_ccm ? c_ctr0 : c_iv;
                prev <= c_iv;
                carry <= c_lenc_hi;
                rtag <= c_rtag;
                in_open <= c_has_data; a_sent <= 1'b0; b_sent <= 1'b0;
                abort <= 1'b0; zab <= 1'b0; cur_wrote <= 1'b0; cur_term <= 1'b0;
                pend_valid <= 1'b0; fl_valid <= 1'b0; plan_active <= 1'b1;
                if (c_err != ERR_OK) begin
                    state <= c_has_data ? ST_DRAIN : ST_FLUSH;
                end else if (c_is_ccm) begin
                    state <= ST_RUN; phase <= PH_INIT;
                end else if (c_plen == 64'd0) begin
                    state <= ST_FLUSH;
                end else begin
                    state <= ST_RUN; phase <= (c_op == OP_CTR) ? PH_PRE : PH_PAY;
                end
            end
            ST_RUN: begin
                // consume the results of the step in flight
                if (complete_now) begin
                    if (fl_a) x_reg <= a_m_data;
                    if (fl_b) begin
                        if (fl_init) s0_reg <= b_m_data;
                        else if (fl_ks) s_reg <= b_m_data;
                    end
                    if (fl_out && !err_now) begin
                        pend_valid <= 1'b1;
                        pend_data <= out_now & bytemask(fl_n);
                        pend_keep <= keepmask(fl_n);
                        if (op == OP_CBC_DEC) prev <= fl_cur;
                    end
                    if (fl_out && pend_valid && !err_now) cur_wrote <= 1'b1;
                    fl_valid <= 1'b0;
                end
                if (err_now) begin
                    // fail closed: drop the held beat, close a frame already begun
                    abort <= 1'b1;
                    if (err == ERR_OK) err <= ERR_KEY;
                    cur_term <= cur_wrote && !sf;
                    pend_valid <= 1'b0;
                    plan_active <= 1'b0;
                    state <= ST_ABORT;
                end
                // issue the next step
                if (a_s_valid && a_s_ready) a_sent <= 1'b1;
                if (b_s_valid && b_s_ready) b_sent <= 1'b1;
                if (b_s_valid && b_s_ready && is_ctrk) ctr <= ctr_inc;
                if (issue_done) begin
                    a_sent <= 1'b0; b_sent <= 1'b0;
                    fl_valid <= 1'b1;
                    fl_a <= a_use; fl_b <= b_use;
                    fl_init <= (phase == PH_INIT);
                    fl_ks <= b_use && is_ctrk && (phase != PH_INIT);
                    fl_out <= step_out;
                    fl_cur <= beat;
                    fl_n <= nvalid;
                    if (step_last) plan_active <= 1'b0;
                    if (need_beat) begin
                        if (in_aad_beat) begin
                            carry <= beat[127:48];
                            aad_rem <= aad_rem - {{(LEN_W-4){1'b0}}, nvalid};
                        end else begin
                            pay_rem <= pay_rem - {{(LEN_W-4){1'b0}}, nvalid};
                        end
                        if ((s_axis_tlast != exp_last) || (s_axis_tkeep != keepmask(nvalid))) begin
                            if (err == ERR_OK) err <= ERR_FRAMING;
                        end
                        if (s_axis_tlast) in_open <= 1'b0;
                        if (s_axis_tlast && !exp_last) plan_active <= 1'b0;   // packet ended early
                    end
                    case (phase)
                    PH_INIT: begin
                        if (k_aad != 0) phase <= PH_AAD;
                        else if (nb_pay != 0) phase <= PH_PRE;
                    end
                    PH_AAD: begin
                        k <= k + 1;
                        if (last_aad_step && nb_pay != 0) phase <= PH_PAY;
                    end
                    PH_PRE: phase <= PH_PAY;
                    default: j <= j + 1;
                    endcase
                end
                // all steps issued and the last one consumed
                if (!plan_active && (!fl_valid || complete_now) && !err_now)
                    state <= in_open ? ST_DRAIN : ST_FLUSH;
            end
            ST_ABORT: if (!a_out && !b_out) begin
                state <= (in_open && (ZDRAIN != 0 || !zab)) ? ST_DRAIN : ST_FLUSH;
            end
            ST_DRAIN: if (s_axis_tvalid && s_axis_tlast) begin
                in_open <= 1'b0;
                state <= ST_FLUSH;
            end
            ST_FLUSH: if (flush_done) begin
                sts_valid <= 1'b1;
                // the status waits until the packet's tlast beat (if it wrote one) has left
                sts_hold <= buf_wr_valid && buf_wr_last;
                // no output beats: none produced, a store-and-forward rollback, or an abort
                // that had nothing to close
                m_axis_sts_empty <= abort ? !cur_term : (!pend_valid || buf_rollback);
                m_axis_sts_tdata[STS_ERR_LSB +: STS_ERR_W] <= fin_err;
                m_axis_sts_tdata[STS_VALUE_LSB +: STS_VALUE_W] <=
                    (fin_err != ERR_OK) ? 128'd0 :
                    (op == OP_CCM_ENC) ? tag_calc :
                    (op == OP_CBC_ENC || op == OP_CBC_MAC) ? x_reg :
                    (op == OP_CBC_DEC) ? prev :
                    (op == OP_CTR) ? ctr : 128'd0;
                pend_valid <= 1'b0;
                // leave no keystream, MAC state or tag behind
                x_reg <= 128'd0; s_reg <= 128'd0; s0_reg <= 128'd0; ctr <= 128'd0; prev <= 128'd0;
                carry <= 80'd0; rtag <= 128'd0; fl_cur <= 128'd0; pend_data <= 128'd0;
                state <= ST_IDLE;
            end
            default: state <= ST_IDLE;
            endcase

            // ------------------------------------------------ zeroize: fail closed, wipe
            if (zeroize) begin
                x_reg <= 128'd0; s_reg <= 128'd0; s0_reg <= 128'd0; ctr <= 128'd0; prev <= 128'd0;
                carry <= 80'd0; rtag <= 128'd0; fl_cur <= 128'd0; pend_data <= 128'd0;
                pend_valid <= 1'b0; fl_valid <= 1'b0; plan_active <= 1'b0;
                a_sent <= 1'b0; b_sent <= 1'b0;
                if (state != ST_IDLE || s_axis_cmd_tvalid) begin
                    // the packet in the lane (or accepted in this cycle) is aborted
                    state <= ST_ABORT;
                    abort <= 1'b1;
                    zab <= 1'b1;
                    err <= ERR_ZEROIZED;
                    cur_term <= open_eff && !open_pending;
                end
                if (open_pending) begin
                    // a finished packet whose status is not presented yet: it fails too
                    m_axis_sts_tdata <= {ERR_ZEROIZED, 128'd0};
                    if (open_eff) begin
                        term_now <= 1'b1;             // close its frame, then release the status
                        m_axis_sts_empty <= 1'b0;
                    end else if (!buf_m_valid) begin
                        sts_hold <= 1'b0;             // none of its beats left: release now
                        m_axis_sts_empty <= 1'b1;
                    end
                end
            end
        end
    end

    // ---------------------------------------------------------------- output buffer
    /* verilator lint_off UNUSEDSIGNAL */
    wire buf_wiping;   // the buffer's wipe is visible through buf_wr_ready
    /* verilator lint_on UNUSEDSIGNAL */
    axis_commit_fifo #(.WIDTH(146), .AW(BUF_AW)) u_buf (
        .clk(clk), .rst(rst), .clear(zeroize),
        .wr_valid(buf_wr_valid), .wr_ready(buf_wr_ready),
        .wr_data({buf_wr_user, buf_wr_last, buf_wr_keep, buf_wr_data}),
        .wr_commit(buf_wr_commit), .commit(buf_commit), .rollback(buf_rollback),
        .m_valid(buf_m_valid), .m_ready(m_axis_tready), .m_data(buf_m_data),
        .wiping(buf_wiping)
    );
    assign m_axis_tvalid = buf_m_valid;
    assign m_axis_tdata  = buf_m_data[127:0];
    assign m_axis_tkeep  = buf_m_data[143:128];
    assign m_axis_tlast  = buf_m_last;
    assign m_axis_tuser  = buf_m_data[145];

    // ---------------------------------------------------------------- core results taken
    // while aborting, every result that arrives for this lane is taken and dropped
    assign a_m_ready = (state == ST_ABORT) ? a_out : (complete_now && fl_a);
    assign b_m_ready = (state == ST_ABORT) ? b_out : (complete_now && fl_b);
endmodule
`default_nettype wire
