// SPDX-License-Identifier: Apache-2.0
// aes_mode_lane: one packet context of the mode engine (docs/mode_engine.md): command
// decode and checks (aes_mode_cmd_decode), the step sequencer of AES-CCM (SP 800-38C) and ECB/CBC/CTR/CBC-MAC,
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
//   DEC_OPS   : 1 (default) = ECB and CBC decryption are accepted (core B decrypts);
//               0 = core B is built encrypt-only and those ops are refused with ERR_OP
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
    parameter ZDRAIN = 1,
    parameter DEC_OPS = 1
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
        `AESIP_CHECK(DEC_OPS == 0 || DEC_OPS == 1, aes_mode_lane_DEC_OPS_not_0_or_1,
                     "aes_mode_lane: DEC_OPS must be 0 or 1")
    endgenerate

    // ---------------------------------------------------------------- op and error codes
    // (generated from data/mode_engine.yaml: OP_*, ERR_*, CMD_* and STS_* field positions)
    `include "aes_mode_if.vh"


    // ---------------------------------------------------------------- helpers
    // reverse_bytes, low_bytes_mask (byte helpers shared with aes_mode_cmd_decode)
    `include "aes_mode_func.vh"

    function automatic [15:0] keepmask;
        input [4:0] n;
        integer i;
        begin
            for (i = 0; i < 16; i = i + 1) keepmask[i] = (i < n);
        end
    endfunction

    // ---------------------------------------------------------------- command decode
    // (fields, command-time checks, step counts, initial values: aes_mode_cmd_decode)
    wire [3:0]        cmd_op;
    wire              cmd_cut, cmd_tag_beat;
    wire [SLOT_W-1:0] cmd_slot;
    wire [4:0]        cmd_tag_len;
    wire [1:0]        cmd_aad_code;
    wire [7:0]        cmd_err;
    wire              cmd_is_ccm, cmd_has_data, cmd_no_payload;
    wire [LEN_W:0]    cmd_aad_steps, cmd_aad_beats, cmd_pay_beats, cmd_aad_len, cmd_pay_len;
    wire [127:0]      cmd_chain_init, cmd_counter_init, cmd_iv, cmd_recv_tag;
    wire [79:0]       cmd_aad_carry;
    aes_mode_cmd_decode #(.SLOT_W(SLOT_W), .LEN_W(LEN_W), .BUF_AW(BUF_AW), .DEC_OPS(DEC_OPS)) u_decode (
        .cmd(s_axis_cmd_tdata), .key_usable(key_usable),
        .op(cmd_op), .cut(cmd_cut), .tag_beat(cmd_tag_beat), .slot(cmd_slot), .tag_len(cmd_tag_len), .aad_code(cmd_aad_code),
        .err(cmd_err), .is_ccm(cmd_is_ccm), .has_data(cmd_has_data), .no_payload(cmd_no_payload),
        .aad_steps(cmd_aad_steps), .aad_beats(cmd_aad_beats), .pay_beats(cmd_pay_beats),
        .aad_len(cmd_aad_len), .pay_len(cmd_pay_len),
        .chain_init(cmd_chain_init), .counter_init(cmd_counter_init), .iv(cmd_iv),
        .aad_carry(cmd_aad_carry), .recv_tag(cmd_recv_tag));

    // ---------------------------------------------------------------- packet state
    // ST_ABORT: the packet failed closed (core key error or zeroize): nothing more is
    // issued or written; the lane waits for its outstanding core results and discards them.
    // ST_TAG: CCM decryption with tag_beat: every step is done, the tag beat is taken;
    // ST_TAGW: one clock for the tag comparison (tag_diff) to see the received tag.
    localparam [2:0] ST_IDLE = 3'd0, ST_RUN = 3'd1, ST_ABORT = 3'd2, ST_DRAIN = 3'd3, ST_FLUSH = 3'd4,
                     ST_TAG = 3'd5, ST_TAGW = 3'd6;
    // output buffer entry: {tuser, tlast, tkeep[15:0], tdata[127:0]}
    localparam integer BUF_KEEP_LSB = 128;
    localparam integer BUF_LAST_BIT = BUF_KEEP_LSB + 16;
    localparam integer BUF_USER_BIT = BUF_LAST_BIT + 1;
    localparam integer BUF_W        = BUF_USER_BIT + 1;
    localparam [1:0] PH_INIT = 2'd0, PH_AAD = 2'd1, PH_PRE = 2'd2, PH_PAY = 2'd3;

    reg [2:0] state;
    reg [1:0] phase;
    reg [3:0] op;
    reg [SLOT_W-1:0] slot;
    reg [4:0] tag_len;
    reg [1:0] aad_code;
    reg [7:0] err;
    reg [LEN_W:0] aad_steps, aad_beats, pay_beats;       // formatted AAD blocks, AAD beats, payload beats
    reg [LEN_W:0] aad_step, pay_step;                    // AAD step index, payload step index (0-based)
    reg [LEN_W:0] aad_left, pay_left;                    // bytes not yet received
    reg [127:0] chain_value;                             // CBC-MAC / CBC chaining value
    reg [127:0] keystream;                               // keystream block for the current payload step
    reg [127:0] tag_keystream;                           // CCM: E(Ctr0)
    reg [127:0] counter;                                 // next counter block
    reg [127:0] prev_block;                              // CBC-dec: previous ciphertext (IV first)
    reg [79:0] aad_carry_reg;                            // CCM AAD realignment: top 10 bytes of the previous beat
    reg [127:0] received_tag;                            // CCM-dec: received tag
    reg plan_active;                                     // steps remain to be issued
    reg in_open;                                         // input beats of the packet remain, up to tlast
    reg a_sent, b_sent;
    reg a_in_core, b_in_core;                            // a block of this lane is inside core A / core B
    // fail-closed bookkeeping
    reg abort;                                           // the packet failed closed: no further output beat
    reg zeroize_abort;                                   // ... because of zeroize (the buffer was wiped)
    reg wrote_beat;                                      // a beat of this packet is in the buffer (or has left)
    reg close_frame;                                     // abort: close this packet's frame with a null beat
    reg terminator_now;                                  // zeroize: close the pending status's frame now
    reg status_valid;                                    // status register full
    reg status_hold;                                     // ... but its packet's tlast beat has not left yet
    reg frame_open;                                      // a frame has begun on m_axis and its tlast has not left
    // the step in flight (issued, results not yet consumed)
    reg flight_valid, flight_a, flight_b, flight_init, flight_keystream, flight_output;
    reg [127:0] flight_beat;                             // its input beat (masked)
    reg [4:0] flight_bytes;                              // valid bytes in flight_beat
    // output staging: the last beat of a packet is held until the packet's result is known
    reg [127:0] held_data;
    reg [15:0] held_keep;

    // Per-packet op flags, registered when the command is accepted (they depend on op and
    // tag_len only, which change only then), so the issue logic starts from registers.
    // CCM* encryption only (tag length 0, IEEE 802.15.4 M = 0): no CBC-MAC at all (core A
    // idle, the AAD consumed and ignored), the counter starts at Ctr1 (aes_mode_cmd_decode),
    // no E(Ctr0), no tag; decryption has nothing to verify, so it is never buffered
    reg ccm_mac;          // CCM with a tag (t > 0): CBC-MAC on core A
    reg uses_keystream;   // CCM or CTR: core B runs the counter blocks
    reg store_forward;    // CCM decryption, store-and-forward, with a tag
    reg has_out;          // the op has output beats (all but CBC-MAC)
    reg a_pay;            // payload steps use core A (CCM with a tag, CBC encrypt, CBC-MAC)
    reg b_blk;            // payload steps send the beat itself to core B (ECB, CBC decrypt)
    reg b_dec;            // core B decrypts (ECB decrypt, CBC decrypt)
    reg pay_any;          // the packet has payload beats
    reg tag_in;           // CCM decryption: the received tag follows as the last data beat
    wire cmd_ccm_mac = cmd_is_ccm && (cmd_tag_len != 5'd0);
    always @(posedge clk) begin
        if (rst) begin
            ccm_mac <= 1'b0; uses_keystream <= 1'b0; store_forward <= 1'b0; has_out <= 1'b0;
            a_pay <= 1'b0; b_blk <= 1'b0; b_dec <= 1'b0; pay_any <= 1'b0; tag_in <= 1'b0;
        end else if (state == ST_IDLE && s_axis_cmd_tvalid) begin
            ccm_mac        <= cmd_ccm_mac;
            uses_keystream <= cmd_is_ccm || (cmd_op == OP_CTR);
            store_forward  <= (cmd_op == OP_CCM_DEC) && !cmd_cut && cmd_ccm_mac;
            has_out        <= (cmd_op != OP_CBC_MAC);
            a_pay          <= cmd_ccm_mac || (cmd_op == OP_CBC_ENC) || (cmd_op == OP_CBC_MAC);
            b_blk          <= (cmd_op == OP_ECB_ENC) || (cmd_op == OP_ECB_DEC) || (cmd_op == OP_CBC_DEC);
            b_dec          <= (cmd_op == OP_ECB_DEC) || (cmd_op == OP_CBC_DEC);
            pay_any        <= !cmd_no_payload;
            tag_in         <= cmd_tag_beat;
        end
    end

    assign active      = (state != ST_IDLE);
    assign active_slot = slot;

    // ---------------------------------------------------------------- step plan
    // The step's flags are registers kept up to date at the edges that change the step
    // counters (command accept, step issue), so that nothing wide is computed between the
    // lane's registers and the cores' inputs:
    //   last_aad_step = (aad_step + 1 == aad_steps), last_pay_step = (pay_step + 1 == pay_beats),
    //   aad_beat = (aad_step < aad_beats), beat_bytes = min(16, bytes left in the segment
    //   of the next beat), in_mask = low_bytes_mask(beat_bytes)
    reg last_aad_step, last_pay_step, aad_beat;
    reg [4:0] beat_bytes;
    reg [127:0] in_mask;
    wire need_beat = (phase == PH_PAY) || (phase == PH_AAD && aad_beat);
    wire in_aad_beat = (phase == PH_AAD);
    wire [127:0] beat = s_axis_tdata & in_mask;
    wire expect_last = !tag_in && (in_aad_beat ? ((aad_left <= 16) && !pay_any) : (pay_left <= 16));

    // core A (chain): CCM MAC, CBC encryption, CBC-MAC
    // (PH_INIT and PH_AAD are CCM only; with t = 0 they issue no block to core A)
    wire a_use = ((phase == PH_INIT || phase == PH_AAD) && ccm_mac) || (phase == PH_PAY && a_pay);
    // core B (parallel): counter blocks (CCM/CTR, one step ahead; E(Ctr0) only with a MAC),
    // ECB, CBC decryption
    wire b_use = (phase == PH_INIT && ccm_mac) || (phase == PH_PRE) ||
                 (phase == PH_AAD && last_aad_step && pay_any) ||
                 (phase == PH_PAY && (uses_keystream ? !last_pay_step : b_blk));
    assign b_s_dec = b_dec;
    assign a_s_dec = 1'b0;
    assign a_s_slot = slot;
    assign b_s_slot = slot;

    // formatted AAD block: previous beat's top s bytes, then this beat's first 16-s bytes
    wire [111:0] aad_part = aad_beat ? beat[111:0] : 112'd0;
    wire [127:0] aad_block = (aad_code == 2'd0) ? {aad_part[111:0], aad_carry_reg[79:64]} :
                           (aad_code == 2'd1) ? {aad_part[79:0],  aad_carry_reg[79:32]} :
                                            {aad_part[47:0],  aad_carry_reg[79:0]};
    // Steps overlap: the next step is issued in the cycle its predecessor's results are
    // consumed, taking the chaining value and keystream straight from the core outputs.
    wire buf_wr_ready;
    wire buf_ready = buf_wr_ready && !terminator_now;   // the lane's own writes wait for a terminator
    reg  held_valid;
    wire complete_now = flight_valid && (!flight_a || a_m_valid) && (!flight_b || b_m_valid) &&
                        (!(flight_output && held_valid) || buf_ready);
    // a core flagged a key error on a result of this step: fail closed (nothing computed
    // from this step or later is written, nothing more is issued)
    wire err_now = complete_now && ((flight_a && a_m_err) || (flight_b && b_m_err));
    wire [127:0] chain_now = (flight_valid && flight_a) ? a_m_data : chain_value;
    wire [127:0] keystream_now = (flight_valid && flight_keystream) ? b_m_data : keystream;
    wire [127:0] pay_plain = (op == OP_CCM_DEC) ? ((beat ^ keystream_now) & in_mask) : beat;
    wire [127:0] a_block = (phase == PH_INIT) ? 128'd0 /* chain_value holds B0 */ :
                         (phase == PH_AAD)  ? aad_block : pay_plain;
    assign a_s_data = chain_now ^ a_block;
    assign b_s_data = uses_keystream ? counter : beat;

    wire beat_ok = !need_beat || s_axis_tvalid;
    wire can_start = (state == ST_RUN) && plan_active && beat_ok && (!flight_valid || complete_now) &&
                     !err_now && !zeroize;
    assign a_s_valid = can_start && a_use && !a_sent;
    assign b_s_valid = can_start && b_use && !b_sent;
    wire a_done_now = !a_use || a_sent || a_s_ready;
    wire b_done_now = !b_use || b_sent || b_s_ready;
    wire issue_done = can_start && a_done_now && b_done_now;
    // the packet's last step has issued (or the packet ended early)
    wire step_last = (phase == PH_INIT) ? (aad_steps == 0 && !pay_any) :
                     (phase == PH_AAD)  ? (last_aad_step && !pay_any) :
                     (phase == PH_PRE)  ? 1'b0 : last_pay_step;

    // step-plan flags: loaded from the command when it is accepted, updated when a step
    // issues (for the step after it); the values are those of the formulas above
    function automatic [4:0] min16;
        input [LEN_W:0] x;
        begin
            min16 = (x >= 16) ? 5'd16 : x[4:0];
        end
    endfunction
    wire [LEN_W:0] aad_step_n = aad_step + 1;
    wire [LEN_W:0] pay_step_n = pay_step + 1;
    wire [LEN_W:0] aad_left_n = aad_left - 16;   // after a full AAD beat (used when aad_left > 16)
    wire [LEN_W:0] pay_left_n = pay_left - 16;   // after a full payload beat
    wire accept_cmd = (state == ST_IDLE) && s_axis_cmd_tvalid;
    wire bytes_load = accept_cmd || (issue_done && need_beat);
    wire [4:0] bytes_next = accept_cmd ? min16((cmd_aad_len != 0) ? cmd_aad_len : cmd_pay_len) :
                            !in_aad_beat ? min16(pay_left_n) :
                            (aad_left > 16) ? min16(aad_left_n) : min16(pay_left);
    always @(posedge clk) begin
        if (rst) begin
            last_aad_step <= 1'b0; last_pay_step <= 1'b0; aad_beat <= 1'b0;
            beat_bytes <= 5'd0; in_mask <= 128'd0;
        end else begin
            if (accept_cmd) begin
                last_aad_step <= (cmd_aad_steps == 1);
                last_pay_step <= (cmd_pay_beats == 1);
                aad_beat      <= (cmd_aad_beats != 0);
            end else if (issue_done) begin
                if (phase == PH_AAD) begin
                    last_aad_step <= (aad_step_n + 1 == aad_steps);
                    aad_beat      <= (aad_step_n < aad_beats);
                end
                if (phase == PH_PAY) last_pay_step <= (pay_step_n + 1 == pay_beats);
            end
            if (bytes_load) begin
                beat_bytes <= bytes_next;
                in_mask    <= low_bytes_mask(bytes_next);
            end
        end
    end

    // output beat of the completing step (payload steps of ops with output)
    wire [127:0] out_now = (op == OP_CBC_ENC) ? a_m_data :
                           (op == OP_ECB_ENC || op == OP_ECB_DEC) ? b_m_data :
                           (op == OP_CBC_DEC) ? (b_m_data ^ prev_block) : (flight_beat ^ keystream);
    wire step_out = (phase == PH_PAY) && has_out;

    // output buffer
    reg  buf_wr_valid, buf_wr_commit, buf_commit, buf_rollback, buf_wr_last, buf_wr_user;
    reg  [127:0] buf_wr_data;
    reg  [15:0]  buf_wr_keep;
    wire [BUF_W-1:0] buf_m_data;
    wire buf_m_valid;
    wire buf_m_last = buf_m_data[BUF_LAST_BIT];
    wire out_taken = buf_m_valid && m_axis_tready;

    // CCM tag. The comparison is split over two clocks, always over all 16 bytes (its time
    // does not depend on where the tags differ): tag_diff holds one bit per byte, computed
    // at every edge from the chaining value and E(Ctr0) as they are after that edge
    // (chain_now / tag_ks_now take a result consumed in that cycle), so in ST_FLUSH, which
    // is entered at the edge that consumes the last CBC-MAC result (or later), it is the
    // final tag's; tag_ok reduces the 16 bits.
    wire [127:0] tag_mask = low_bytes_mask(tag_len);
    wire [127:0] tag_computed = (chain_value ^ tag_keystream) & tag_mask;
    wire [127:0] tag_ks_now = (flight_valid && flight_b && flight_init) ? b_m_data : tag_keystream;
    wire [127:0] tag_xor = (chain_now ^ tag_ks_now ^ received_tag) & tag_mask;
    reg  [15:0]  tag_diff;
    integer tb;
    always @(posedge clk) begin
        if (rst) tag_diff <= 16'd0;
        else for (tb = 0; tb < 16; tb = tb + 1) tag_diff[tb] <= |tag_xor[8*tb +: 8];
    end
    wire         tag_ok   = (tag_diff == 16'd0);
    wire [7:0]   final_err  = (err != ERR_OK) ? err :
                            ((op == OP_CCM_DEC && !tag_ok) ? ERR_AUTH : ERR_OK);

    // ---------------------------------------------------------------- ready signals
    assign s_axis_cmd_tready = (state == ST_IDLE);
    assign s_axis_tready = (state == ST_DRAIN) || (state == ST_TAG) || (issue_done && need_beat);
    assign m_axis_sts_tvalid = status_valid && !status_hold;
    wire status_taken = m_axis_sts_tvalid && m_axis_sts_tready;

    // counter + 1 (big-endian 128-bit): four 32-bit increments, each carrying in when every
    // bit below it is 1, so the longest carry chain is 32 bits, not 128
    wire [127:0] ctr_be = reverse_bytes(counter);
    wire [127:0] ctr_be_inc;
    genvar ci;
    generate
        for (ci = 0; ci < 4; ci = ci + 1) begin : g_ctr_inc
            if (ci == 0) begin : g_lo
                assign ctr_be_inc[31:0] = ctr_be[31:0] + 32'd1;
            end else begin : g_hi
                wire cin = &ctr_be[32*ci-1:0];
                assign ctr_be_inc[32*ci +: 32] = ctr_be[32*ci +: 32] + {31'd0, cin};
            end
        end
    endgenerate
    wire [127:0] counter_next = reverse_bytes(ctr_be_inc);

    // An aborted packet whose frame has begun on m_axis is closed with a terminator beat:
    // one zero byte (a beat of null bytes only could be removed by AXI4-Stream
    // infrastructure, and its tuser with it), tlast = 1, tuser = 1.
    localparam [15:0] TERM_KEEP = 16'h0001;

    // FLUSH proceeds only when the status register is free, so it happens exactly once
    wire flush_go = (state == ST_FLUSH) && (!status_valid || status_taken) && !zeroize;
    // What a write carries is chosen from registers alone, apart from whether and when it
    // is written (below), so that no handshake reaches the buffer's data inputs: a
    // terminator, or the null beat closing an aborted packet's frame, whenever one of
    // them can be the write (terminator_now, or abort: an aborted packet writes nothing
    // else); otherwise the held beat, the packet's last one when it is written at the
    // flush (ST_FLUSH has no step in flight, so the flush write is the only write there).
    wire wr_null = terminator_now || abort;
    always @(*) begin
        buf_wr_data = wr_null ? 128'd0 : held_data;
        buf_wr_keep = wr_null ? TERM_KEEP : held_keep;
        buf_wr_last = terminator_now || (state == ST_FLUSH);
        buf_wr_user = terminator_now || ((state == ST_FLUSH) && (abort || final_err != ERR_OK));
    end
    always @(*) begin
        buf_wr_valid = 1'b0; buf_wr_commit = 1'b0; buf_commit = 1'b0; buf_rollback = 1'b0;
        if (terminator_now) begin
            // terminator closing the frame of a packet aborted by zeroize
            buf_wr_valid = 1'b1; buf_wr_commit = 1'b1;
        end else if (complete_now && flight_output && held_valid && !err_now) begin
            buf_wr_valid = 1'b1;
            buf_wr_commit = !store_forward;
        end else if (flush_go) begin
            if (abort) begin
                buf_rollback = store_forward && !zeroize_abort;
                if (close_frame) begin
                    buf_wr_valid = 1'b1; buf_wr_commit = 1'b1;
                end
            end else if (store_forward && final_err != ERR_OK) begin
                buf_rollback = 1'b1;
            end else if (held_valid) begin
                buf_wr_valid = 1'b1;
                buf_wr_commit = 1'b1;
            end else begin
                buf_commit = 1'b1;
            end
        end
    end
    // The flush completes only when the buffer could take a beat, whether or not it
    // writes one: flush_done (the clock enable of the status register and the lane's
    // state) then depends on registers and handshakes only, not on the final error
    // (tag check) that decides the write. At the flush every beat of earlier packets has
    // left the buffer (the status register is free), so it waits only for the consumer
    // to drain this packet's own committed beats, or for a wipe after zeroize to end.
    wire flush_done = flush_go && buf_ready;

    // the frame on m_axis is open once the beat presented now (if any) has left
    wire frame_open_now = buf_m_valid ? !buf_m_last : frame_open;
    // the open frame belongs to the finished packet whose status waits for its tlast
    wire frame_of_pending = status_valid && status_hold;

    // ---------------------------------------------------------------- sequencing
    always @(posedge clk) begin
        if (rst) begin
            state <= ST_IDLE; phase <= PH_INIT; op <= 4'd0; slot <= {SLOT_W{1'b0}};
            tag_len <= 5'd0; aad_code <= 2'd0; err <= ERR_OK;
            aad_steps <= 0; aad_beats <= 0; pay_beats <= 0; aad_step <= 0; pay_step <= 0; aad_left <= 0; pay_left <= 0;
            chain_value <= 128'd0; keystream <= 128'd0; tag_keystream <= 128'd0; counter <= 128'd0; prev_block <= 128'd0;
            aad_carry_reg <= 80'd0; received_tag <= 128'd0; flight_beat <= 128'd0; flight_bytes <= 5'd0; plan_active <= 1'b0;
            flight_valid <= 1'b0; flight_a <= 1'b0; flight_b <= 1'b0; flight_init <= 1'b0; flight_keystream <= 1'b0; flight_output <= 1'b0;
            in_open <= 1'b0; a_sent <= 1'b0; b_sent <= 1'b0;
            abort <= 1'b0; zeroize_abort <= 1'b0; wrote_beat <= 1'b0; close_frame <= 1'b0;
            held_valid <= 1'b0; held_data <= 128'd0; held_keep <= 16'd0;
        end else begin
            case (state)
            ST_IDLE: begin
              // leave no keystream, MAC state or tag behind: the previous packet's
              // datapath registers are cleared in the idle clock after its flush (a
              // command accepted in that clock loads its own values over them). Not at
              // the flush itself, so that the wide clock enables of these registers do
              // not depend on the flush handshake (status and output buffer).
              chain_value <= 128'd0; keystream <= 128'd0; tag_keystream <= 128'd0; counter <= 128'd0; prev_block <= 128'd0;
              aad_carry_reg <= 80'd0; received_tag <= 128'd0; flight_beat <= 128'd0; held_data <= 128'd0;
              if (s_axis_cmd_tvalid) begin
                op <= cmd_op; slot <= cmd_slot; tag_len <= cmd_tag_len; aad_code <= cmd_aad_code;
                err <= cmd_err;
                aad_steps <= cmd_aad_steps; aad_beats <= cmd_aad_beats; pay_beats <= cmd_pay_beats;
                aad_step <= 0; pay_step <= 0; aad_left <= cmd_aad_len; pay_left <= cmd_pay_len;
                chain_value <= cmd_chain_init;
                counter <= cmd_counter_init;
                prev_block <= cmd_iv;
                aad_carry_reg <= cmd_aad_carry;
                received_tag <= cmd_recv_tag;
                in_open <= cmd_has_data; a_sent <= 1'b0; b_sent <= 1'b0;
                abort <= 1'b0; zeroize_abort <= 1'b0; wrote_beat <= 1'b0; close_frame <= 1'b0;
                held_valid <= 1'b0; flight_valid <= 1'b0; plan_active <= 1'b1;
                if (cmd_err != ERR_OK) begin
                    state <= cmd_has_data ? ST_DRAIN : ST_FLUSH;
                end else if (cmd_is_ccm) begin
                    state <= ST_RUN; phase <= PH_INIT;
                end else if (cmd_no_payload) begin
                    state <= ST_FLUSH;
                end else begin
                    state <= ST_RUN; phase <= (cmd_op == OP_CTR) ? PH_PRE : PH_PAY;
                end
              end
            end
            ST_RUN: begin
                // consume the results of the step in flight
                if (complete_now) begin
                    if (flight_a) chain_value <= a_m_data;
                    if (flight_b) begin
                        if (flight_init) tag_keystream <= b_m_data;
                        else if (flight_keystream) keystream <= b_m_data;
                    end
                    if (flight_output && !err_now) begin
                        held_valid <= 1'b1;
                        held_data <= out_now & low_bytes_mask(flight_bytes);
                        held_keep <= keepmask(flight_bytes);
                        if (op == OP_CBC_DEC) prev_block <= flight_beat;
                    end
                    if (flight_output && held_valid && !err_now) wrote_beat <= 1'b1;
                    flight_valid <= 1'b0;
                end
                if (err_now) begin
                    // fail closed: drop the held beat, close a frame already begun
                    abort <= 1'b1;
                    if (err == ERR_OK) err <= ERR_KEY;
                    close_frame <= wrote_beat && !store_forward;
                    held_valid <= 1'b0;
                    plan_active <= 1'b0;
                    state <= ST_ABORT;
                end
                // issue the next step
                if (a_s_valid && a_s_ready) a_sent <= 1'b1;
                if (b_s_valid && b_s_ready) b_sent <= 1'b1;
                if (b_s_valid && b_s_ready && uses_keystream) counter <= counter_next;
                if (issue_done) begin
                    a_sent <= 1'b0; b_sent <= 1'b0;
                    flight_valid <= 1'b1;
                    flight_a <= a_use; flight_b <= b_use;
                    flight_init <= (phase == PH_INIT);
                    flight_keystream <= b_use && uses_keystream && (phase != PH_INIT);
                    flight_output <= step_out;
                    flight_beat <= beat;
                    flight_bytes <= beat_bytes;
                    if (step_last) plan_active <= 1'b0;
                    if (need_beat) begin
                        if (in_aad_beat) begin
                            aad_carry_reg <= beat[127:48];
                            aad_left <= aad_left - {{(LEN_W-4){1'b0}}, beat_bytes};
                        end else begin
                            pay_left <= pay_left - {{(LEN_W-4){1'b0}}, beat_bytes};
                        end
                        if ((s_axis_tlast != expect_last) || (s_axis_tkeep != keepmask(beat_bytes))) begin
                            if (err == ERR_OK) err <= ERR_FRAMING;
                        end
                        if (s_axis_tlast) in_open <= 1'b0;
                        if (s_axis_tlast && !expect_last) plan_active <= 1'b0;   // packet ended early
                    end
                    case (phase)
                    PH_INIT: begin
                        if (aad_steps != 0) phase <= PH_AAD;
                        else if (pay_beats != 0) phase <= PH_PRE;
                    end
                    PH_AAD: begin
                        aad_step <= aad_step + 1;
                        if (last_aad_step && pay_beats != 0) phase <= PH_PAY;
                    end
                    PH_PRE: phase <= PH_PAY;
                    default: pay_step <= pay_step + 1;
                    endcase
                end
                // all steps issued and the last one consumed
                if (!plan_active && (!flight_valid || complete_now) && !err_now)
                    state <= !in_open ? ST_FLUSH : (tag_in && err == ERR_OK) ? ST_TAG : ST_DRAIN;
            end
            ST_ABORT: if (!a_in_core && !b_in_core) begin
                state <= (in_open && (ZDRAIN != 0 || !zeroize_abort)) ? ST_DRAIN : ST_FLUSH;
            end
            ST_TAG: if (s_axis_tvalid) begin
                // the received tag: t bytes, the packet's last beat
                received_tag <= s_axis_tdata & low_bytes_mask(tag_len);
                if (!s_axis_tlast || s_axis_tkeep != keepmask(tag_len))
                    err <= ERR_FRAMING;
                if (s_axis_tlast) in_open <= 1'b0;
                state <= s_axis_tlast ? ST_TAGW : ST_DRAIN;
            end
            ST_TAGW: state <= ST_FLUSH;
            ST_DRAIN: if (s_axis_tvalid && s_axis_tlast) begin
                in_open <= 1'b0;
                state <= ST_FLUSH;
            end
            ST_FLUSH: if (flush_done) begin   // (the status register is written below)
                held_valid <= 1'b0;
                state <= ST_IDLE;             // (the datapath registers are cleared there)
            end
            default: state <= ST_IDLE;
            endcase

            // ------------------------------------------------ zeroize: fail closed, wipe
            if (zeroize) begin
                chain_value <= 128'd0; keystream <= 128'd0; tag_keystream <= 128'd0; counter <= 128'd0; prev_block <= 128'd0;
                aad_carry_reg <= 80'd0; received_tag <= 128'd0; flight_beat <= 128'd0; held_data <= 128'd0;
                held_valid <= 1'b0; flight_valid <= 1'b0; plan_active <= 1'b0;
                a_sent <= 1'b0; b_sent <= 1'b0;
                if (state != ST_IDLE || s_axis_cmd_tvalid) begin
                    // the packet in the lane (or accepted in this cycle) is aborted
                    state <= ST_ABORT;
                    abort <= 1'b1;
                    zeroize_abort <= 1'b1;
                    err <= ERR_ZEROIZED;
                    close_frame <= frame_open_now && !frame_of_pending;
                end
            end
        end
    end

    // ---------------------------------------------------------------- blocks inside the cores
    // (results are always collected, also after an abort)
    always @(posedge clk) begin
        if (rst) begin
            a_in_core <= 1'b0;
            b_in_core <= 1'b0;
        end else begin
            a_in_core <= (a_in_core && !(a_m_valid && a_m_ready)) || (a_s_valid && a_s_ready);
            b_in_core <= (b_in_core && !(b_m_valid && b_m_ready)) || (b_s_valid && b_s_ready);
        end
    end

    // ---------------------------------------------------------------- status register and frame
    // The status is written when the packet is flushed and waits (status_hold) until the
    // packet's tlast beat (if it wrote one) has left. A zeroize fails a finished packet
    // whose status is not presented yet (frame_of_pending) too: its frame is closed with a
    // terminator beat first, or, when none of its beats left, its status is released now.
    // (flush_done never coincides with zeroize.) One if/else chain per register.
    wire zeroize_pending = zeroize && frame_of_pending;
    wire [127:0] status_value = (final_err != ERR_OK) ? 128'd0 :
                                (op == OP_CCM_ENC) ? tag_computed :
                                (op == OP_CBC_ENC || op == OP_CBC_MAC) ? chain_value :
                                (op == OP_CBC_DEC) ? prev_block :
                                (op == OP_CTR) ? counter : 128'd0;
    always @(posedge clk) begin
        if (rst)               status_valid <= 1'b0;
        else if (flush_done)   status_valid <= 1'b1;
        else if (status_taken) status_valid <= 1'b0;

        if (rst)               status_hold <= 1'b0;
        else if (zeroize_pending && !frame_open_now && !buf_m_valid) status_hold <= 1'b0;
        else if (flush_done)   status_hold <= buf_wr_valid && buf_wr_last;
        else if (out_taken && buf_m_last) status_hold <= 1'b0;

        if (rst) begin
            m_axis_sts_tdata <= {STS_W{1'b0}};
        end else if (zeroize_pending) begin
            m_axis_sts_tdata <= {ERR_ZEROIZED, 128'd0};
        end else if (flush_done) begin
            m_axis_sts_tdata[STS_ERR_LSB +: STS_ERR_W] <= final_err;
            m_axis_sts_tdata[STS_VALUE_LSB +: STS_VALUE_W] <= status_value;
        end else if (status_taken) begin
            m_axis_sts_tdata <= {STS_W{1'b0}};   // leave no tag or MAC behind
        end

        // no output beats: none produced, a store-and-forward rollback, or an abort that
        // had nothing to close
        if (rst)               m_axis_sts_empty <= 1'b0;
        else if (zeroize_pending && frame_open_now) m_axis_sts_empty <= 1'b0;
        else if (zeroize_pending && !buf_m_valid)   m_axis_sts_empty <= 1'b1;
        else if (flush_done)   m_axis_sts_empty <= abort ? !close_frame : (!held_valid || buf_rollback);

        if (rst)               terminator_now <= 1'b0;
        else if (zeroize_pending && frame_open_now) terminator_now <= 1'b1;
        else if (terminator_now && buf_wr_ready)    terminator_now <= 1'b0;

        if (rst)               frame_open <= 1'b0;
        else if (out_taken)    frame_open <= !buf_m_last;
    end

    // ---------------------------------------------------------------- output buffer
    /* verilator lint_off UNUSEDSIGNAL */
    wire buf_wiping;   // the buffer's wipe is visible through buf_wr_ready
    /* verilator lint_on UNUSEDSIGNAL */
    axis_commit_fifo #(.WIDTH(BUF_W), .AW(BUF_AW)) u_buf (
        .clk(clk), .rst(rst), .clear(zeroize),
        .wr_valid(buf_wr_valid), .wr_ready(buf_wr_ready),
        .wr_data({buf_wr_user, buf_wr_last, buf_wr_keep, buf_wr_data}),
        .wr_commit(buf_wr_commit), .commit(buf_commit), .rollback(buf_rollback),
        .m_valid(buf_m_valid), .m_ready(m_axis_tready), .m_data(buf_m_data),
        .wiping(buf_wiping)
    );
    assign m_axis_tvalid = buf_m_valid;
    assign m_axis_tdata  = buf_m_data[0 +: 128];
    assign m_axis_tkeep  = buf_m_data[BUF_KEEP_LSB +: 16];
    assign m_axis_tlast  = buf_m_last;
    assign m_axis_tuser  = buf_m_data[BUF_USER_BIT];

    // ---------------------------------------------------------------- core results taken
    // while aborting, every result that arrives for this lane is taken and dropped
    assign a_m_ready = (state == ST_ABORT) ? a_in_core : (complete_now && flight_a);
    assign b_m_ready = (state == ST_ABORT) ? b_in_core : (complete_now && flight_b);
endmodule
`default_nettype wire
