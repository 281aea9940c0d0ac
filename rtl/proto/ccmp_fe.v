// SPDX-License-Identifier: Apache-2.0
// ccmp_fe: IEEE 802.11-2016 CCMP (12.5.3, CCMP-128) MPDU protection front end for a mode
// engine (aes_mode_engine or aes_mode_multi: same command, data and status ports).
// Full description (sideband, status, error codes, construction, timing): docs/ccmp.md.
// Structure as wimax_fe (docs/wimax.md): store-and-forward input buffer, checks before the
// engine, two axis_realign instances into and out of the engine framing; but here the
// input buffer has two banks and three sides run in parallel (receive, issue, collect;
// see "state" below), so MPDU n+1 is received and checked while MPDU n is in the engine.
//
// Per MPDU: one sideband beat on s_axis_cmd (op, key slot, PN, Key ID), the MPDU on s_axis
// (128-bit beats, tkeep on the last beat; without FCS), the result on m_axis and one
// status beat on m_axis_sts.
//   MAC header: FC, Duration, A1, A2, A3, SC (24 bytes), A4 when ToDS = FromDS = 1 (data),
//   QoS Control on QoS data subtypes, HT Control (4 bytes, header, not in the AAD) when
//   Order is set on QoS data and management frames.
//   AAD: FC (data: subtype bits 4..6 = 0; Retry, PwrMgt, MoreData = 0; Protected = 1;
//   QoS data: Order = 0) || A1 A2 A3 || SC (sequence number 0, fragment kept) || A4 ||
//   QC (TID only).  Nonce: {0, mgmt, 0 , TID or 0} || A2 || PN5 .. PN0.  M = 8, L = 2.
//   encrypt: header (Protected set) || PN0 PN1 00 (0x20 | KeyID << 6) PN2..PN5 ||
//            ciphertext || MIC (8)
//   decrypt: the reverse; the engine decrypts cut-through into this front end's output
//            buffer, released only after the engine has verified the MIC (no plaintext
//            of a failing MPDU leaves); PN and Key ID on the status.
// Cut-through: an MPDU whose sideband gives its frame length (frame_len != 0) is handed
// to the engine once its first three beats (the MAC header) are in; the reader then
// follows the receive side through the bank. A decryption's engine command then says
// tag_beat: the received MIC (the frame's last 8 bytes) goes to the engine as the last
// data beat, after the body. The frame's framing and length are known only at tlast: a
// verdict FIFO carries them to the collect side, which holds an encryption's MIC beat
// (a decryption's release) until the verdict is in; a failing encryption ends flagged
// with tuser = 1, a failing decryption releases nothing (FRAMING, LEN, FLEN). Beats the
// frame does not have are fed to the engine as zeros.
// Replay: per key slot one 48-bit counter per TID (16) and one for management frames,
// with a valid bit; a received PN not greater than the counter is REPLAY (the frame does
// not reach the engine); the counter takes the PN only after the MIC verifies; a key load
// into the slot, zeroize and reset clear the slot's (all) counters. A decryption is checked
// only when no earlier decryption in flight has the same counter and a PN not lower than
// its own (whose outcome would decide REPLAY).
//
// Parameters
//   SLOT_W : key-slot index width, 1 .. 8 (as the engine's): 2**SLOT_W * 17 replay
//            counters; a sideband slot >= 2**SLOT_W is KEY
//   QDEPTH : entries of the record queue from the issue to the collect side, 2 .. 32
//            (checked; default 2): with the MPDU being collected, at most QDEPTH + 1
//            MPDUs between their check and their status (ccmp_top: 2 on aes_mode_engine,
//            LANES on aes_mode_multi, so the front end keeps every lane busy)
//   ENG_SF : 0 or 1 (checked; default 0): where a decryption's plaintext waits for its MIC.
//            0: the engine runs it cut-through into this front end's output buffer, which
//            is released after the engine has verified the MIC (the single engine is free
//            for the next MPDU meanwhile). 1: the engine runs it store-and-forward in its
//            own output buffer and the verified plaintext streams out as an encryption's
//            output does (aes_mode_multi: each lane has its buffer, so one lane's release
//            overlaps the others' work and the next MPDU's output waits for no copy)
//   RIN_REG: 0 or 1 (checked; default 1): the input realigner (reader -> engine s_axis)
//            with its two-entry input register (axis_realign IN_REG = 2: the beat
//            normalized in front of the register). 1: the engine's
//            s_axis_tready reaches only that register and the realigner's output stage,
//            not the reader and the packing logic (the body waits one clock more in the
//            realigner, hidden behind the command and AAD beats on one MPDU alone).
//            0: the reader feeds the packing logic directly (one clock less between
//            decryptions in a burst on aes_mode_multi; ccmp_top chooses 1 on aes_mode_engine,
//            0 on aes_mode_multi; docs/ccmp.md, "Timing" and "Limits")
// Ports
//   clk, rst                               : clock, synchronous active-high reset
//   s_axis_cmd_* (tdata 80)                : sideband beat per MPDU (rtl/proto/ccmp_if.vh)
//   key_load, key_load_slot, zeroize       : a key accepted into a slot / zeroize (clear
//                                            the replay counters)
//   s_axis_* (tdata 128, tkeep 16, tlast)  : MPDU in
//   m_axis_* (tdata 128, tkeep, tlast, tuser) : MPDU out; tuser = 1 on the last beat: failed
//   m_axis_sts_* (tdata 80)                : status per MPDU, after its output frame
//   m_axis_eng_cmd_*, m_axis_eng_*         : to the mode engine's s_axis_cmd / s_axis
//   s_axis_eng_*, s_axis_eng_sts_*         : from the mode engine's m_axis / m_axis_sts
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module ccmp_fe #(
    parameter SLOT_W = 2,
    parameter QDEPTH = 2,
    parameter ENG_SF = 0,
    parameter RIN_REG = 1
) (

    input  wire          clk,
    input  wire          rst,
    // sideband (command) beat
    input  wire          s_axis_cmd_tvalid,
    output wire          s_axis_cmd_tready,
    input  wire [79:0]   s_axis_cmd_tdata,
    // key loads and zeroize seen by the engine (they clear replay counters)
    input  wire          key_load,
    input  wire [SLOT_W-1:0] key_load_slot,
    input  wire          zeroize,
    // PDU in
    input  wire          s_axis_tvalid,
    output wire          s_axis_tready,
    input  wire [127:0]  s_axis_tdata,
    input  wire [15:0]   s_axis_tkeep,
    input  wire          s_axis_tlast,
    // PDU out
    output wire          m_axis_tvalid,
    input  wire          m_axis_tready,
    output wire [127:0]  m_axis_tdata,
    output wire [15:0]   m_axis_tkeep,
    output wire          m_axis_tlast,
    output wire          m_axis_tuser,
    // status
    output wire          m_axis_sts_tvalid,
    input  wire          m_axis_sts_tready,
    output wire [79:0]   m_axis_sts_tdata,
    // mode engine: command
    output wire          m_axis_eng_cmd_tvalid,
    input  wire          m_axis_eng_cmd_tready,
    output wire [511:0]  m_axis_eng_cmd_tdata,
    // mode engine: data in
    output wire          m_axis_eng_tvalid,
    input  wire          m_axis_eng_tready,
    output wire [127:0]  m_axis_eng_tdata,
    output wire [15:0]   m_axis_eng_tkeep,
    output wire          m_axis_eng_tlast,
    // mode engine: data out
    input  wire          s_axis_eng_tvalid,
    output wire          s_axis_eng_tready,
    input  wire [127:0]  s_axis_eng_tdata,
    input  wire [15:0]   s_axis_eng_tkeep,
    input  wire          s_axis_eng_tlast,
    input  wire          s_axis_eng_tuser,
    // mode engine: status
    input  wire          s_axis_eng_sts_tvalid,
    output wire          s_axis_eng_sts_tready,
    input  wire [135:0]  s_axis_eng_sts_tdata
);
    `include "aes_mode_if.vh"   // the engine's command/status beats (data/mode_engine.yaml)
    `include "ccmp_if.vh"       // this front end's sideband/status beats (same file)

    generate
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, ccmp_fe_SLOT_W_not_1_to_8, "ccmp_fe: SLOT_W must be 1 .. 8")
        `AESIP_CHECK(QDEPTH >= 2 && QDEPTH <= 32, ccmp_fe_QDEPTH_not_2_to_32, "ccmp_fe: QDEPTH must be 2 .. 32")
        `AESIP_CHECK(ENG_SF == 0 || ENG_SF == 1, ccmp_fe_ENG_SF_not_0_or_1, "ccmp_fe: ENG_SF must be 0 or 1")
        `AESIP_CHECK(RIN_REG == 0 || RIN_REG == 1, ccmp_fe_RIN_REG_not_0_or_1, "ccmp_fe: RIN_REG must be 0 or 1")
    endgenerate

    localparam [7:0] BUF_BEATS = 8'd160;           // 2560 bytes >= 36 + 8 + 2304 + 8
    localparam integer NRC = 17 << SLOT_W;         // replay counters: 16 TIDs + management per slot
    localparam integer RCW = SLOT_W + 5;           // their index width (17 * 2**SLOT_W < 2**RCW)
    localparam integer QAW = $clog2(QDEPTH);       // record queue index width
    localparam integer QLASTI = QDEPTH - 1;
    localparam [QAW-1:0] QLAST = QLASTI[QAW-1:0];  // its last entry

    // ---------------------------------------------------------------- state
    // Three sides. The receive side (rs) takes the sideband beat and the frame into input
    // bank wb and holds the parsed beats (R_HOLD). The issue side (ist), when idle, checks
    // the held MPDU (hand-off: every check and the replay comparison), queues its record
    // for the collect side, and feeds the engine (command, AAD, body from bank rb); the
    // receive side meanwhile takes the next MPDU into the other bank. The collect side
    // (cst) turns the records, in order, into output MPDUs and status beats.
    localparam [1:0] R_IDLE = 2'd0, R_RECV = 2'd1, R_HOLD = 2'd2;
    reg [1:0] rs;
    reg       wb;              // bank being received into

    // receive side: the held MPDU's sideband and frame registers
    reg        dec;
    reg        op_err;
    reg [7:0]  slot;
    reg [47:0] pn_cmd;
    reg [1:0]  kid_cmd;
    reg [11:0] decl;           // the sideband's frame_len (0: not given)
    reg        cut_rx;         // the frame being received went to the issue side early
    reg [7:0]  nbeat;          // beats received, saturating at 255
    reg        ferr;
    reg [4:0]  lastk;
    reg [383:0] hdr;           // the first three beats: MAC header + CCMP header (<= 44 bytes)
    reg [127:0] beat_prev, beat_last;

    reg [127:0] mem [0:2*BUF_BEATS-1];   // two banks of BUF_BEATS beats

    // replay counters
    reg [47:0]    rc [0:NRC-1];
    reg [NRC-1:0] rcv;

    // ---------------------------------------------------------------- sideband and receive
    // the next sideband beat is taken in the clock that hands the held MPDU off (its
    // registers are read by the checks in that clock and loaded at its end)
    wire hand_off, hand_e;
    wire cut_last;             // the last beat of a cut-through frame is taken
    assign s_axis_cmd_tready = (rs == R_IDLE) || hand_off || cut_last;   // hand_off implies R_HOLD
    wire cmd_take = s_axis_cmd_tvalid && s_axis_cmd_tready;
    assign s_axis_tready = (rs == R_RECV);
    wire in_take = s_axis_tvalid && s_axis_tready;
    wire cut_now = cut_rx || hand_e;
    assign cut_last = in_take && s_axis_tlast && cut_now;

    wire keep_low_run = ((s_axis_tkeep & (s_axis_tkeep + 16'h0001)) == 16'h0000);
    reg [4:0] keep_cnt;
    integer j;
    always @(*) begin
        keep_cnt = 5'd0;
        for (j = 0; j < 16; j = j + 1)
            keep_cnt = keep_cnt + {4'd0, s_axis_tkeep[j]};
    end

    wire [8:0] waddr = {1'b0, nbeat} + (wb ? {1'b0, BUF_BEATS} : 9'd0);
    always @(posedge clk) begin
        if (in_take && nbeat < BUF_BEATS)
            mem[waddr] <= s_axis_tdata;
    end

    // ---------------------------------------------------------------- header parsing
    wire [7:0] fc0 = hdr[7:0], fc1 = hdr[15:8];
    wire       is_data = (fc0[3:2] == 2'b10);
    wire       is_mgmt = (fc0[3:2] == 2'b00);
    wire       bad_type = (fc0[1:0] != 2'b00) || !(is_data || is_mgmt);
    wire       has_a4 = is_data && fc1[0] && fc1[1];
    wire       has_qc = is_data && fc0[7];
    wire       has_htc = fc1[7] && (has_qc || is_mgmt);
    wire       prot = fc1[6];
    wire [5:0] hlen = 6'd24 + (has_a4 ? 6'd6 : 6'd0) + (has_qc ? 6'd2 : 6'd0) + (has_htc ? 6'd4 : 6'd0);
    wire [5:0] alen = 6'd22 + (has_a4 ? 6'd6 : 6'd0) + (has_qc ? 6'd2 : 6'd0);
    wire [3:0] tid = has_a4 ? hdr[243:240] : hdr[195:192];   // QC byte 0 at 30 or 24
    wire [4:0] ridx = is_mgmt ? 5'd16 : (has_qc ? {1'b0, tid} : 5'd0);
    wire [383:0] hdr_sh = hdr >> {hlen, 3'b000};
    wire [63:0] ccmph = hdr_sh[63:0];                          // received CCMP header
    wire        extiv = ccmph[29];
    wire [1:0]  kid_rx = ccmph[31:30];
    wire [47:0] pn_rx = {ccmph[63:32], ccmph[15:0]};
    wire [47:0] pn = dec ? pn_rx : pn_cmd;
    wire [1:0]  kid = dec ? kid_rx : kid_cmd;

    // AAD (alen bytes, byte 0 in bits 7:0; two engine beats)
    reg [255:0] aad;
    always @(*) begin
        aad = 256'd0;
        aad[7:0] = is_data ? (fc0 & 8'h8f) : fc0;
        aad[15:8] = ((fc1 & 8'hc7) | 8'h40) & (has_qc ? 8'h7f : 8'hff);
        aad[159:16] = hdr[175:32];                 // A1 A2 A3
        aad[167:160] = {4'd0, hdr[179:176]};       // SC: fragment number only
        if (has_a4) begin
            aad[223:176] = hdr[239:192];           // A4
            if (has_qc) aad[231:224] = {4'd0, tid};
        end else if (has_qc) begin
            aad[183:176] = {4'd0, tid};
        end
    end
    wire [7:0]   nflag = {3'b000, is_mgmt, (has_qc ? tid : 4'd0)};
    wire [127:0] nonce = {24'd0, pn[7:0], pn[15:8], pn[23:16], pn[31:24], pn[39:32], pn[47:40],
                          hdr[127:80], nflag};

    // lengths and checks
    wire [11:0] flen = {nbeat, 4'b0000} - 12'd16 + {7'd0, lastk};
    // at a hand-off from R_RECV (cut-through: hand_e) the declared length, else the frame's
    wire [11:0] flen_h = (rs == R_RECV) ? decl : flen;
    wire [11:0] hl12 = {6'd0, hlen};
    wire [11:0] e_start_w = dec ? hl12 + 12'd8 : hl12;
    wire [11:0] e_end_w = dec ? flen_h - 12'd8 : flen_h;
    wire [11:0] plen = e_end_w - e_start_w;
    wire [11:0] nb_w = (e_end_w + 12'd15) >> 4;
    wire        slot_hi = (SLOT_W < 8) && ((slot >> SLOT_W) != 8'd0);
    wire [SLOT_W-1:0] slot_s = slot[SLOT_W-1:0];
    // replay counter index slot * 17 + ridx (a shift and two adds, not a multiplier)
    wire [RCW-1:0] rc_i = {1'b0, slot_s, 4'b0000} + {5'd0, slot_s} + {{SLOT_W{1'b0}}, ridx};
    // The checks are computed a clock ahead into registers (chk_q, rwait_q, valid when
    // chk_vld is set); the hand-off uses only them. chk_vld is set for the clock after
    // (a) a clock in R_HOLD without hand-off, or (b) the clock that takes the frame's last
    // beat when that beat is beat 3 or later, unless a key load into the held slot or a
    // zeroize came in that clock. In both cases every input of the check is final in the
    // computing clock: the sideband registers (loaded by cmd_take, long before), the first
    // three beats (hdr: beats 0..2, taken before a last beat 3 or later) and, for (b), the
    // frame's length and framing flags from the beat being taken (nbeat_c, lastk_c,
    // ferr_c). A frame of at most 3 beats (48 bytes) is checked in its first R_HOLD clock
    // and handed off a clock later. What can change between the computing clock T and
    // the hand-off clock T+1: a record leaving the queue or the collect side (rwait_q may
    // then be 1 one clock too long: a clock later, never wrong); a counter cleared in T
    // (chk_vld is then 0 in T+1 and the check is redone); a counter updated in T by a
    // verified decryption R: if R could decide this MPDU's REPLAY (same counter, a PN not
    // lower than this one's) then R is in the collect side in T and rwait_q is 1 in T+1;
    // otherwise R's PN is lower than this one's and higher than the counter it replaces
    // (R passed its own replay check, and an earlier record of the same counter finishes
    // before R), so the REPLAY outcome is the same before and after the update.
    // The counter and its valid bit are read a clock early into rc_q / rcv_q (below:
    // rc_q / rcv_q hold, at the start of each clock, rc[] / rcv[] as they are then at
    // the index rc_i had in the previous clock; a write in that clock is forwarded). The
    // check uses them as rc[rc_i] / rcv[rc_i]: the same values whenever REPLAY can be the
    // outcome. Proof: REPLAY needs a decryption that passed the length checks, so
    // flen >= hlen + 16 >= 40 bytes, i.e. at least 3 input beats. rc_i depends only on
    // slot (loaded by cmd_take), fc (beat 0) and the QoS TID (beat 1). In a clock T in
    // which the check is computed (R_HOLD, or taking a last beat 3 or later), the clock
    // T-1 either was R_HOLD without a hand-off (no cmd_take, no input beat: nothing
    // changes) or took a beat 2 or later (hdr[383:256] or nothing): rc_i is the same in
    // T-1 and T. The counter writes (rc_upd; key load / zeroize clears) in T-1 are
    // forwarded into rc_q / rcv_q with the always blocks' priority (a clear wins over an
    // update). For shorter frames the check ends before REPLAY (SHORT or an earlier
    // error), so a stale rc_q does not matter.
    reg  [47:0] rc_q;
    reg         rcv_q;
    wire        replay = rcv_q && (pn_rx <= rc_q);
    // the check's length and framing inputs: in the clock that takes the frame's last
    // beat, the values that beat gives; otherwise the registers
    wire        last_in = in_take && s_axis_tlast;
    wire        beat_bad = s_axis_tlast ? !keep_low_run : (s_axis_tkeep != 16'hffff);
    wire [7:0]  nbeat_c = (last_in && nbeat != 8'hff) ? nbeat + 8'd1 : nbeat;
    wire [4:0]  lastk_c = last_in ? keep_cnt : lastk;
    wire        ferr_c = ferr || (last_in && beat_bad);
    wire        over_c = (nbeat_c > BUF_BEATS);
    wire [11:0] flen_c = {nbeat_c, 4'b0000} - 12'd16 + {7'd0, lastk_c};
    reg  [7:0]  chk_err;
    always @(*) begin
        chk_err = CCMP_ERR_OK;
        if (op_err)                                     chk_err = CCMP_ERR_OP;
        else if (ferr_c)                                chk_err = CCMP_ERR_FRAMING;
        else if (over_c)                                chk_err = CCMP_ERR_LEN;
        else if (decl != 12'd0 && flen_c != decl)       chk_err = CCMP_ERR_FLEN;
        else if (flen_c < 12'd2)                        chk_err = CCMP_ERR_SHORT;
        else if (bad_type)                              chk_err = CCMP_ERR_TYPE;
        else if (flen_c < hl12)                         chk_err = CCMP_ERR_SHORT;
        else if (prot != dec)                           chk_err = CCMP_ERR_PROT;
        else if (dec && flen_c < hl12 + 12'd16)         chk_err = CCMP_ERR_SHORT;
        else if (dec && !extiv)                         chk_err = CCMP_ERR_EXTIV;
        else if (slot_hi)                               chk_err = CCMP_ERR_KEY;
        else if (dec && replay)                         chk_err = CCMP_ERR_REPLAY;
    end

    // cut-through: the early check (an MPDU with a declared length whose header is in: no
    // error any later check of the header and the declared length could find; framing and
    // the real length follow at tlast, as the verdict). A decryption also needs its replay
    // check passed (and none waiting: rwait), and no key load into its slot in this clock.
    wire [11:0] buf_bytes = {BUF_BEATS, 4'b0000};
    wire        rwait;
    wire        clr_slot;
    wire        e_ok = (decl != 12'd0) && !op_err && !ferr && (decl <= buf_bytes)
                    && !bad_type && (prot == dec) && !slot_hi
                    && (dec ? ((decl >= hl12 + 12'd16) && extiv && !replay && !rwait && !clr_slot)
                            : (decl >= hl12));
    wire [1:0]  v_code_w = ferr_c ? 2'd1 : over_c ? 2'd2 : (flen_c != decl) ? 2'd3 : 2'd0;

    // output prefix: the header (Protected set / cleared) and, encrypting, the CCMP header
    wire [63:0]  ccmp_out = {pn_cmd[47:16], kid_cmd, 1'b1, 5'b00000, 8'h00, pn_cmd[15:0]};
    wire [383:0] hmask = ~({384{1'b1}} << {hlen, 3'b000});
    wire [383:0] hdr_o = ((hdr & hmask) & ~(384'd1 << 14)) | (dec ? 384'd0 : (384'd1 << 14));
    wire [383:0] pfx_next = dec ? hdr_o : (hdr_o | ({320'd0, ccmp_out} << {hlen, 3'b000}));
    wire [5:0]   pl_next = dec ? hlen : hlen + 6'd8;

    // the received MIC: the frame's last 8 bytes
    wire [255:0] tail = {beat_last, beat_prev};
    wire [255:0] tail_sh = tail >> {lastk + 5'd8, 3'b000};
    wire [63:0]  mic_rx = tail_sh[63:0];

    wire unused_bits = ^{s_axis_eng_sts_tdata[127:64], nb_w[11:8], tail_sh[255:64], hdr_sh[383:64],
                         ccmph[28:16], plen};

    // ================================================================ issue side
    // Takes the held MPDU (hand-off: check, replay comparison, engine command), sends the
    // command, the two AAD beats and the body from its bank, then takes the next one.
    localparam [1:0] I_IDLE = 2'd0, I_CMD = 2'd1, I_FEED = 2'd2;
    reg [1:0]   ist;
    reg         rb;            // bank being read
    reg [511:0] ecmd;
    reg [11:0]  e_start, e_end;
    reg [255:0] aad_r;
    reg [3:0]   aad_k1;        // bytes of the AAD's second beat (6 .. 14)
    reg [1:0]   aad_ph;        // AAD beats still to send (2, 1, 0)

    // per-MPDU records from the issue side to the collect side: a QDEPTH-entry FIFO
    reg [QDEPTH-1:0] q_vld;    // entry holds a record
    reg [QAW-1:0] qwp, qrp;
    reg         q_eng [0:QDEPTH-1];   // went to the engine (the checks passed)
    reg         q_dec [0:QDEPTH-1];
    reg         q_cut [0:QDEPTH-1];   // cut-through: its verdict comes through the verdict FIFO
    reg [7:0]   q_err [0:QDEPTH-1];
    reg [47:0]  q_pn [0:QDEPTH-1];
    reg [1:0]   q_kid [0:QDEPTH-1];
    reg [RCW-1:0] q_rc [0:QDEPTH-1];
    reg [SLOT_W-1:0] q_slot [0:QDEPTH-1];
    reg [QDEPTH-1:0] q_kill;   // its slot was reloaded / zeroized since the check: no counter update
    reg [383:0] q_pfx [0:QDEPTH-1];
    reg [5:0]   q_pl [0:QDEPTH-1];
    wire        q_full = &q_vld;
    wire        q_empty = ~|q_vld;
    wire [QAW-1:0] qwp_next = (qwp == QLAST) ? {QAW{1'b0}} : qwp + 1'b1;
    wire [QAW-1:0] qrp_next = (qrp == QLAST) ? {QAW{1'b0}} : qrp + 1'b1;

    // collect side registers (below) needed by the replay wait
    localparam [1:0] C_IDLE = 2'd0, C_RUN = 2'd1;
    reg [1:0]   cst;
    reg         c_dec;
    reg         c_eng;
    reg         c_cut;
    reg [47:0]  pn_sts;
    reg [RCW-1:0] rc_r;        // replay counter of the MPDU being collected

    // Replay order: a decryption is checked only when no earlier decryption still in flight
    // (queued or being collected, its counter not yet updated) has the same counter and a
    // PN not lower than this one's; otherwise its outcome would decide REPLAY. Such an MPDU
    // waits until that one has finished (and updated the counter or not).
    reg  w_q;
    integer wi;
    always @(*) begin
        w_q = 1'b0;
        for (wi = 0; wi < QDEPTH; wi = wi + 1)
            if (q_vld[wi] && q_eng[wi] && q_dec[wi] && (q_rc[wi] == rc_i) && (pn_rx <= q_pn[wi]))
                w_q = 1'b1;
    end
    wire w_c  = (cst != C_IDLE) && c_eng && c_dec && (rc_r == rc_i) && (pn_rx <= pn_sts);
    assign rwait = dec && (w_q || w_c);
    // the checks a clock ahead (see rc_q above for why they are valid with chk_vld)
    assign clr_slot = zeroize || (key_load && key_load_slot == slot_s);
    reg  [7:0] chk_q;
    reg        rwait_q;
    reg        chk_vld;            // chk_q / rwait_q hold the held MPDU's checks
    always @(posedge clk) begin
        if (rst) begin
            chk_q <= CCMP_ERR_OK;
            rwait_q <= 1'b0;
            chk_vld <= 1'b0;
        end else begin
            chk_q <= chk_err;
            rwait_q <= rwait;
            chk_vld <= !clr_slot && (((rs == R_HOLD) && !hand_off) || (last_in && nbeat >= 8'd3 && !cut_now));
        end
    end
    // cut-through: the early check a clock ahead, in a clock that does not take the last beat
    reg ce_vld;
    always @(posedge clk) begin
        if (rst)
            ce_vld <= 1'b0;
        else
            ce_vld <= (rs == R_RECV) && !cut_now && (nbeat >= 8'd3) && !last_in && e_ok;
    end
    // the issue side takes the held MPDU (chk_vld implies R_HOLD) when idle: from the
    // clock after the previous MPDU's last engine beat (feed_end), so that the engine's
    // s_axis_tready is not in the hand-off decision
    wire feed_end;
    assign hand_off = (ist == I_IDLE) && chk_vld && !q_full && !rwait_q;
    assign hand_e = (ist == I_IDLE) && ce_vld && !cut_rx && !q_full;   // ce_vld implies R_RECV
    wire q_push = hand_off || hand_e;
    wire [7:0] h_err = hand_e ? CCMP_ERR_OK : chk_q;
    wire q_pop;

    // buffer reader -> engine
    reg [7:0]   rd_i, nb;
    reg         q_valid;
    reg [127:0] mem_q;
    wire        rin_ready;
    wire        rin_valid, rin_last;
    wire [127:0] rin_data;
    wire [15:0] rin_keep;
    wire        unused_rin_user, unused_rin_busy;
    wire        q_adv = !q_valid || rin_ready;
    // the reader fills the realigner from the command clock on (it holds the payload's
    // first beats while the command and the AAD beats go to the engine)
    wire        rd_on = (ist == I_CMD) || (ist == I_FEED);
    wire        rin_go = (ist == I_FEED) && (aad_ph == 2'd0);   // the AAD beats have gone
    wire [8:0]  raddr = {1'b0, rd_i} + (rb ? {1'b0, BUF_BEATS} : 9'd0);
    // cut-through: the reader follows the receive side (chase: beats 0 .. rd_lim-1 are in
    // the bank); once the frame has ended, beats it did not have are read as zeros (q_zero)
    reg         chase;
    reg  [7:0]  rd_lim;
    reg         q_zero;
    // cut-through decryption: after the body the reader reads the MIC (bytes e_end ..
    // e_end+7 of the bank) as a frame of its own through the realigner: the engine's tag
    // beat. tagb: the MPDU being fed has it; mic_pend: the reader has not started it;
    // mic_out: the realigner's output is the MIC frame (the body's tlast, not the engine's)
    reg         tagb, mic_pend, mic_out;
    wire [11:0] mic_end = e_end + 12'd8;
    wire [11:0] mic_nb_w = (mic_end + 12'd15) >> 4;
    wire        unused_mic_nb = ^mic_nb_w[11:8];
    wire        rd_have = !chase || (rd_i < rd_lim);
    wire        rd_go = rd_on && q_adv && (rd_i < nb) && rd_have;
    wire [7:0]  nbeat_w = (in_take && nbeat != 8'hff) ? nbeat + 8'd1 : nbeat;
    always @(posedge clk) begin
        if (rd_go)
            mem_q <= mem[raddr];
    end
    // tkeep / tlast of the beat being read (rd_i), registered with it (q_keep, q_last)
    wire [11:0] r_base = {rd_i, 4'b0000};
    wire [11:0] r_hi_w = e_end - r_base;
    wire [4:0]  r_hi = (r_hi_w > 12'd16) ? 5'd16 : r_hi_w[4:0];
    wire [3:0]  r_lo = (rd_i == e_start[11:4]) ? e_start[3:0] : 4'd0;
    reg  [15:0] r_keep;
    integer m;
    always @(*) begin
        for (m = 0; m < 16; m = m + 1)
            r_keep[m] = (m >= r_lo) && (m < r_hi);
    end
    wire        r_last = (e_end <= r_base + 12'd16);
    reg  [15:0] q_keep;
    reg         q_last;

    // RIN_REG = 1: the realigner's input register (s_tready registered: the engine's
    // s_axis_tready stays out of q_adv, the reader's read enable and the packing logic),
    // the beat normalized in front of it (IN_REG = 2: the register then feeds the packing
    // logic directly)
    axis_realign #(.BYTES(16), .IN_REG(2 * RIN_REG)) u_rin (
        .clk(clk), .rst(rst),
        .s_tvalid(q_valid), .s_tready(rin_ready), .s_tdata(q_zero ? 128'd0 : mem_q), .s_tkeep(q_keep),
        .s_tlast(q_last), .s_tuser(1'b0),
        .m_tvalid(rin_valid), .m_tready(m_axis_eng_tready && rin_go), .m_tdata(rin_data),
        .m_tkeep(rin_keep), .m_tlast(rin_last), .m_tuser(unused_rin_user),
        .busy(unused_rin_busy)
    );
    // the two AAD beats go first, straight to the engine, then the realigned payload
    reg [15:0] aad_keep1;
    integer k;
    always @(*) begin
        for (k = 0; k < 16; k = k + 1)
            aad_keep1[k] = (k < aad_k1);
    end
    wire aad_go = (ist == I_FEED) && (aad_ph != 2'd0);
    assign m_axis_eng_tvalid = aad_go ? 1'b1 : (rin_valid && rin_go);
    assign m_axis_eng_tdata = aad_go ? ((aad_ph == 2'd2) ? aad_r[127:0] : aad_r[255:128]) : rin_data;
    assign m_axis_eng_tkeep = aad_go ? ((aad_ph == 2'd2) ? 16'hffff : aad_keep1) : rin_keep;
    assign m_axis_eng_tlast = aad_go ? ((aad_ph == 2'd1) && (nb == 8'd0) && !tagb)
                                     : (rin_last && (!tagb || mic_out));
    assign feed_end = (ist == I_FEED) && m_axis_eng_tvalid && m_axis_eng_tready && m_axis_eng_tlast;

    assign m_axis_eng_cmd_tvalid = (ist == I_CMD);
    assign m_axis_eng_cmd_tdata = ecmd;

    wire [79:0] cmd_rsvd = s_axis_cmd_tdata & CCMP_CMD_RSVD_MASK;
    // ENG_SF = 0: decryption runs cut-through in the engine: its plaintext is held in this
    // front end's output buffer until the status says the MIC verified (store-and-forward
    // here), so the engine is free for the next MPDU while the plaintext is released.
    // ENG_SF = 1: store-and-forward in the engine (cut = 0), streamed like an encryption.
    // A cut-through decryption (hand_e) sends its MIC as the tag beat (tag_beat, tag 0).
    localparam        ENG_CUT = (ENG_SF == 0);
    wire [511:0] ecmd_next =
          ({{(512-CMD_OP_W){1'b0}}, (dec ? OP_CCM_DEC : OP_CCM_ENC)} << CMD_OP_LSB)
        | ({{(512-1){1'b0}}, dec && ENG_CUT} << CMD_CUT_LSB)
        | ({{(512-1){1'b0}}, dec && hand_e} << CMD_TAG_BEAT_LSB)
        | ({{(512-8){1'b0}}, slot} << CMD_SLOT_LSB)
        | ({{(512-4){1'b0}}, 4'd13} << CMD_NONCE_LEN_LSB)
        | ({{(512-5){1'b0}}, 5'd8} << CMD_TAG_LEN_LSB)
        | ({{(512-6){1'b0}}, alen} << CMD_AAD_LEN_LSB)
        | ({{(512-12){1'b0}}, plen} << CMD_PAYLOAD_LEN_LSB)
        | ({{(512-128){1'b0}}, nonce} << CMD_IV_LSB)
        | ({{(512-64){1'b0}}, ((dec && !hand_e) ? mic_rx : 64'd0)} << CMD_TAG_LSB);

    // ================================================================ receive side
    always @(posedge clk) begin
        if (rst) begin
            rs <= R_IDLE;
            wb <= 1'b0;
            dec <= 1'b0;
            op_err <= 1'b0;
            slot <= 8'd0;
            pn_cmd <= 48'd0;
            kid_cmd <= 2'd0;
            decl <= 12'd0;
            cut_rx <= 1'b0;
            nbeat <= 8'd0;
            ferr <= 1'b0;
            lastk <= 5'd0;
            hdr <= 384'd0;
            beat_prev <= 128'd0;
            beat_last <= 128'd0;
        end else begin
            if (hand_e)
                cut_rx <= 1'b1;
            case (rs)
                R_IDLE: if (cmd_take)
                    rs <= R_RECV;
                R_RECV: if (in_take) begin
                    if (nbeat == 8'd0) hdr[127:0] <= s_axis_tdata;
                    if (nbeat == 8'd1) hdr[255:128] <= s_axis_tdata;
                    if (nbeat == 8'd2) hdr[383:256] <= s_axis_tdata;
                    beat_prev <= beat_last;
                    beat_last <= s_axis_tdata;
                    if (nbeat != 8'hff)
                        nbeat <= nbeat + 8'd1;
                    if (beat_bad)
                        ferr <= 1'b1;
                    if (s_axis_tlast) begin
                        lastk <= keep_cnt;
                        if (cut_now) begin
                            // cut-through: already handed off; its verdict goes to the
                            // collect side and the next frame goes into the other bank
                            cut_rx <= 1'b0;
                            wb <= !wb;
                            rs <= cmd_take ? R_RECV : R_IDLE;
                        end else begin
                            rs <= R_HOLD;
                        end
                    end
                end
                R_HOLD: if (hand_off) begin
                    wb <= !wb;      // the other bank: the issue side has read it all
                    rs <= cmd_take ? R_RECV : R_IDLE;
                end
                default: rs <= R_IDLE;
            endcase
            // after the case: in a cut-through frame's last clock the next beat wins
            if (cmd_take) begin
                dec <= s_axis_cmd_tdata[CCMP_CMD_OP_LSB];
                op_err <= (cmd_rsvd != 80'd0);
                slot <= s_axis_cmd_tdata[CCMP_CMD_SLOT_LSB +: 8];
                pn_cmd <= s_axis_cmd_tdata[CCMP_CMD_PN_LSB +: 48];
                kid_cmd <= s_axis_cmd_tdata[CCMP_CMD_KEY_ID_LSB +: 2];
                decl <= s_axis_cmd_tdata[CCMP_CMD_FRAME_LEN_LSB +: 12];
                nbeat <= 8'd0;
                ferr <= 1'b0;
                hdr <= 384'd0;
                beat_prev <= 128'd0;
                beat_last <= 128'd0;
            end
        end
    end

    // ================================================================ issue side registers
    integer qi;
    always @(posedge clk) begin
        if (rst) begin
            ist <= I_IDLE;
            rb <= 1'b0;
            ecmd <= 512'd0;
            e_start <= 12'd0;
            e_end <= 12'd0;
            aad_r <= 256'd0;
            aad_k1 <= 4'd0;
            aad_ph <= 2'd0;
            rd_i <= 8'd0;
            nb <= 8'd0;
            q_valid <= 1'b0;
            q_keep <= 16'd0;
            q_last <= 1'b0;
            q_zero <= 1'b0;
            chase <= 1'b0;
            rd_lim <= 8'd0;
            tagb <= 1'b0;
            mic_pend <= 1'b0;
            mic_out <= 1'b0;
            q_vld <= {QDEPTH{1'b0}};
            qwp <= {QAW{1'b0}};
            qrp <= {QAW{1'b0}};
            q_kill <= {QDEPTH{1'b0}};
            for (qi = 0; qi < QDEPTH; qi = qi + 1) begin
                q_eng[qi] <= 1'b0;
                q_dec[qi] <= 1'b0;
                q_cut[qi] <= 1'b0;
                q_err[qi] <= 8'd0;
                q_pn[qi] <= 48'd0;
                q_kid[qi] <= 2'd0;
                q_rc[qi] <= {RCW{1'b0}};
                q_slot[qi] <= {SLOT_W{1'b0}};
                q_pfx[qi] <= 384'd0;
                q_pl[qi] <= 6'd0;
            end
        end else begin
            // a key load into a queued MPDU's slot / zeroize cancels its counter update
            for (qi = 0; qi < QDEPTH; qi = qi + 1)
                if (zeroize || (key_load && key_load_slot == q_slot[qi]))
                    q_kill[qi] <= 1'b1;
            if (q_push) begin
                q_eng[qwp] <= (h_err == CCMP_ERR_OK);
                q_dec[qwp] <= dec;
                q_cut[qwp] <= hand_e;
                q_err[qwp] <= h_err;
                q_pn[qwp] <= (h_err == CCMP_ERR_OK) ? pn : 48'd0;
                q_kid[qwp] <= (h_err == CCMP_ERR_OK) ? kid : 2'd0;
                q_rc[qwp] <= rc_i;
                q_slot[qwp] <= slot_s;
                q_kill[qwp] <= clr_slot;   // a load in the check's clock: counters just read are cleared
                q_pfx[qwp] <= pfx_next;
                q_pl[qwp] <= pl_next;
                qwp <= qwp_next;
            end
            // push and pop never address the same entry: a pop needs a record, a push room
            if (q_pop)
                qrp <= qrp_next;
            for (qi = 0; qi < QDEPTH; qi = qi + 1)
                if (q_push && qwp == qi[QAW-1:0])
                    q_vld[qi] <= 1'b1;
                else if (q_pop && qrp == qi[QAW-1:0])
                    q_vld[qi] <= 1'b0;
            if (rd_on && q_adv) begin
                if (rd_i < nb && rd_have) begin
                    q_valid <= 1'b1;
                    q_keep <= r_keep;
                    q_last <= r_last;
                    q_zero <= (rd_i >= rd_lim);
                    rd_i <= rd_i + 8'd1;
                end else begin
                    q_valid <= 1'b0;
                    if (mic_pend && rd_i >= nb) begin
                        // the body is read: the MIC next
                        mic_pend <= 1'b0;
                        e_start <= e_end;
                        e_end <= mic_end;
                        rd_i <= e_end[11:4];
                        nb <= mic_nb_w[7:0];
                    end
                end
            end
            // the body's last beat has gone to the engine: the realigner's next frame is the MIC
            if (rin_valid && rin_go && m_axis_eng_tready && rin_last)
                mic_out <= 1'b1;
            // the reader's limit: while the frame being read is still being received, the
            // beats written so far; then all it has (a short frame: the rest read as zeros)
            if (chase) begin
                rd_lim <= nbeat_w;
                if (last_in)
                    chase <= 1'b0;
            end
            case (ist)
                I_IDLE: ;
                I_CMD: if (m_axis_eng_cmd_tready) begin
                    ecmd <= 512'd0;
                    ist <= I_FEED;
                end
                I_FEED: begin
                    if (aad_go && m_axis_eng_tready)
                        aad_ph <= aad_ph - 2'd1;
                    if (feed_end)
                        ist <= I_IDLE;
                end
                default: ist <= I_IDLE;
            endcase
            // hand-off (when idle: the previous MPDU's reader and realigner are empty)
            if ((hand_off && chk_q == CCMP_ERR_OK) || hand_e) begin
                chase <= hand_e && !last_in;
                rd_lim <= hand_e ? nbeat_w : 8'hff;
                tagb <= hand_e && dec;
                mic_pend <= hand_e && dec;
                mic_out <= (plen == 12'd0);
                rb <= wb;
                ecmd <= ecmd_next;
                e_start <= e_start_w;
                e_end <= e_end_w;
                nb <= (plen == 12'd0) ? 8'd0 : nb_w[7:0];
                rd_i <= e_start_w[11:4];
                q_valid <= 1'b0;
                aad_r <= aad;
                aad_k1 <= alen[3:0];
                aad_ph <= 2'd2;
                ist <= I_CMD;
            end
        end
    end

    // ================================================================ verdict FIFO
    // One entry per cut-through frame, pushed at its last beat (0 OK, 1 FRAMING, 2 LEN,
    // 3 FLEN), popped when the collect side finishes that frame. Such a frame's record is
    // pushed before its last beat and the entry is popped with the record's end, so at
    // most QDEPTH + 1 entries (the queued records and the one being collected) are held.
    localparam integer VD = QDEPTH + 1;
    localparam integer VAW = $clog2(VD + 1);
    localparam integer VLASTI = VD - 1;
    localparam [VAW-1:0] VLAST = VLASTI[VAW-1:0];
    reg [1:0]     vf [0:VD-1];
    reg [VAW-1:0] vwp, vrp, vcnt;
    wire          v_any = (vcnt != {VAW{1'b0}});
    wire [1:0]    v_head = vf[vrp];
    wire          v_pop;
    always @(posedge clk) begin
        if (cut_last)
            vf[vwp] <= v_code_w;
    end
    always @(posedge clk) begin
        if (rst) begin
            vwp <= {VAW{1'b0}};
            vrp <= {VAW{1'b0}};
            vcnt <= {VAW{1'b0}};
        end else begin
            if (cut_last)
                vwp <= (vwp == VLAST) ? {VAW{1'b0}} : vwp + 1'b1;
            if (v_pop)
                vrp <= (vrp == VLAST) ? {VAW{1'b0}} : vrp + 1'b1;
            vcnt <= vcnt + {{(VAW-1){1'b0}}, cut_last} - {{(VAW-1){1'b0}}, v_pop};
        end
    end

    // ================================================================ collect side
    // Takes the records in order: an MPDU that failed its checks gets its status at once;
    // otherwise the engine's output becomes the output MPDU. Encryption: prefix, engine
    // beats, MIC, streamed. Decryption: the engine's (cut-through) plaintext beats go into
    // the output buffer; only when the engine's status says OK are the prefix and the
    // buffer released (nothing of a failing MPDU leaves), then the counter is updated.
    localparam [2:0] O_WAIT = 3'd0, O_DATA = 3'd1, O_END = 3'd2, O_DONE = 3'd3, O_BUF = 3'd4,
                     O_REL = 3'd5;
    localparam [7:0] OBUF_BEATS = BUF_BEATS;       // any body that fits the input buffer
    reg [2:0]   ost;
    reg [383:0] prefix;
    reg [5:0]   pfx_len;
    reg [1:0]   pidx;          // prefix beat being sent
    reg [7:0]   err, eng_err;
    reg         frame_sent;
    reg [1:0]   kid_sts;
    reg         rc_kill;       // its slot was reloaded / zeroized meanwhile: no update
    reg [SLOT_W-1:0] c_slot;

    reg [127:0] obuf [0:OBUF_BEATS-1];
    reg [7:0]   ow;            // plaintext beats written
    reg [15:0]  okeep;         // tkeep of the last one
    reg [7:0]   or_i;          // next beat to read
    reg         ob_valid;      // ob_q holds beat ob_idx
    reg [7:0]   ob_idx;
    reg [127:0] ob_q;
    reg         pfx_done;      // O_REL: the prefix has been sent
    reg         rel_kill;      // zeroize during a decryption: its release is aborted
    // status register (the finished MPDU's status beat) and output frame accounting
    reg         sts_pend;      // holds a status
    reg [7:0]   s_err, s_eng;
    reg [47:0]  s_pn;
    reg [1:0]   s_kid;
    reg         s_frame;
    reg [1:0]   s_wait;        // output frames to leave before the status may (0 .. 2)
    reg [1:0]   ofr;           // frames whose last beat is in the output realigner (0 .. 2)

    // The MPDU being collected ends (c_fin) in the clock its last beat enters the output
    // realigner (O_END), or later in O_DONE: its status goes into the status register
    // (free, or being taken), the replay counter is updated and the next record is taken
    // in the same clock; the status leaves once the frame's last beat has left the
    // realigner (s_wait), so the next MPDU's prefix follows the frame without a gap.
    wire        sts_take = m_axis_sts_tvalid && m_axis_sts_tready;
    wire        sts_free = !sts_pend || sts_take;
    wire        v_rdy = !c_cut || v_any;            // a cut-through frame's verdict is in
    wire        v_bad = c_cut && (v_head != 2'd0);
    wire        c_fin = (cst == C_RUN) && sts_free && v_rdy
                      && ((ost == O_DONE) || ((ost == O_END) && eng_s_ready));
    assign v_pop = c_fin && c_cut;
    wire [7:0]  fin_eng = (ost == O_DONE) ? eng_err : eng_code;
    assign q_pop = ((cst == C_IDLE) || c_fin) && !q_empty;

    wire        eng_ok = (s_axis_eng_sts_tdata[STS_ERR_LSB +: STS_ERR_W] == ERR_OK);
    wire [7:0]  eng_code = s_axis_eng_sts_tdata[STS_ERR_LSB +: STS_ERR_W];
    wire [63:0] mic_tx = s_axis_eng_sts_tdata[STS_VALUE_LSB +: 64];
    wire [5:0]  pfx_rem = pfx_len - {pidx, 4'b0000};
    wire        pfx_lastb = (pfx_rem <= 6'd16);
    reg  [15:0] pfx_keep;
    integer n;
    always @(*) begin
        for (n = 0; n < 16; n = n + 1)
            pfx_keep[n] = (n < pfx_rem);
    end
    wire [127:0] pfx_beat = (pidx == 2'd0) ? prefix[127:0] : (pidx == 2'd1) ? prefix[255:128] : prefix[383:256];
    wire         ob_last = (ob_idx + 8'd1 == ow);
    reg         ro_valid;
    reg [127:0] ro_data;
    reg [15:0]  ro_keep;
    reg         ro_last;
    reg         ro_user;
    reg         eng_m_ready;
    reg         eng_s_ready;
    wire        ro_ready;
    wire        unused_ro_busy;   // the status waits for its frame by count (s_wait)
    always @(*) begin
        ro_valid = 1'b0;
        ro_data = 128'd0;
        ro_keep = 16'd0;
        ro_last = 1'b0;
        ro_user = 1'b0;
        eng_m_ready = 1'b0;
        eng_s_ready = 1'b0;
        if (cst == C_RUN) begin
            case (ost)
                O_WAIT: begin     // encryption: the prefix, once the engine has output
                    if (c_dec && !v_rdy) begin
                        // a cut-through decryption (ENG_SF = 1): nothing before its verdict
                    end else if (c_dec && v_bad) begin
                        // ... which failed at tlast: drop whatever the engine releases
                        eng_m_ready = 1'b1;
                        eng_s_ready = s_axis_eng_sts_tvalid && !s_axis_eng_tvalid;
                    end else if (s_axis_eng_tvalid) begin
                        ro_valid = 1'b1;
                        ro_data = pfx_beat;
                        ro_keep = pfx_keep;
                    end else if (s_axis_eng_sts_tvalid && eng_ok) begin
                        ro_valid = 1'b1;          // empty body: prefix, then the MIC (encryption)
                        ro_data = pfx_beat;
                        ro_keep = pfx_keep;
                        ro_last = c_dec && pfx_lastb;
                    end else if (s_axis_eng_sts_tvalid && pidx == 2'd0) begin
                        eng_s_ready = 1'b1;       // failed without output: no frame at all
                    end
                end
                O_DATA: begin
                    ro_valid = s_axis_eng_tvalid;
                    ro_data = s_axis_eng_tdata;
                    // a decryption (ENG_SF = 1) ends with the engine's last beat; an aborted
                    // one with the engine's terminator beat (tuser): sent empty, flagged
                    ro_keep = (c_dec && s_axis_eng_tuser) ? 16'h0000 : s_axis_eng_tkeep;
                    ro_last = c_dec && s_axis_eng_tlast;
                    ro_user = s_axis_eng_tuser;
                    eng_m_ready = ro_ready;
                end
                O_END: begin
                    if (c_dec) begin
                        eng_s_ready = s_axis_eng_sts_tvalid;   // decryption: no MIC to append
                    end else if (s_axis_eng_sts_tvalid && v_rdy) begin
                        // the MIC; a cut-through frame's once its verdict is in (a bad
                        // verdict ends the frame flagged)
                        ro_valid = 1'b1;
                        ro_data = {64'd0, mic_tx};
                        ro_keep = 16'h00ff;
                        ro_last = 1'b1;
                        ro_user = !eng_ok || v_bad;
                        eng_s_ready = ro_ready;
                    end
                end
                O_BUF: begin      // decryption: plaintext into the buffer, then the status
                    eng_m_ready = 1'b1;   // (and a cut-through one's verdict)
                    eng_s_ready = !s_axis_eng_tvalid && v_rdy;
                end
                O_REL: begin
                    if (rel_kill) begin
                        // zeroized: end a begun frame with an empty beat flagged tuser
                        ro_valid = frame_sent;
                        ro_last = 1'b1;
                        ro_user = 1'b1;
                    end else if (!pfx_done) begin
                        ro_valid = 1'b1;
                        ro_data = pfx_beat;
                        ro_keep = pfx_keep;
                        ro_last = pfx_lastb && (ow == 8'd0);
                    end else begin
                        ro_valid = ob_valid;
                        ro_data = ob_q;
                        ro_keep = ob_last ? okeep : 16'hffff;
                        ro_last = ob_last;
                    end
                end
                default: ;
            endcase
        end
    end
    assign s_axis_eng_tready = eng_m_ready;
    assign s_axis_eng_sts_tready = eng_s_ready;

    axis_realign #(.BYTES(16), .IN_REG(1)) u_rout (
        .clk(clk), .rst(rst),
        .s_tvalid(ro_valid), .s_tready(ro_ready), .s_tdata(ro_data), .s_tkeep(ro_keep),
        .s_tlast(ro_last), .s_tuser(ro_user),
        .m_tvalid(m_axis_tvalid), .m_tready(m_axis_tready), .m_tdata(m_axis_tdata),
        .m_tkeep(m_axis_tkeep), .m_tlast(m_axis_tlast), .m_tuser(m_axis_tuser),
        .busy(unused_ro_busy)
    );

    // output buffer: written from the engine in O_BUF, read ahead in O_REL
    wire ob_we = (cst == C_RUN) && (ost == O_BUF) && s_axis_eng_tvalid && (ow < OBUF_BEATS);
    always @(posedge clk) begin
        if (ob_we)
            obuf[ow] <= s_axis_eng_tdata;
    end
    wire ob_take = (cst == C_RUN) && (ost == O_REL) && pfx_done && ob_valid && ro_ready;
    wire ob_adv = (!ob_valid || ob_take) && (or_i < ow);
    always @(posedge clk) begin
        if ((cst == C_RUN) && (ost == O_REL) && ob_adv)
            ob_q <= obuf[or_i];
    end

    assign m_axis_sts_tvalid = sts_pend && (s_wait == 2'd0);
    assign m_axis_sts_tdata = ({{(CCMP_STS_W-48){1'b0}}, s_pn} << CCMP_STS_PN_LSB)
                            | ({{(CCMP_STS_W-8){1'b0}}, s_err} << CCMP_STS_ERR_LSB)
                            | ({{(CCMP_STS_W-8){1'b0}}, s_eng} << CCMP_STS_ENG_ERR_LSB)
                            | ({{(CCMP_STS_W-2){1'b0}}, s_kid} << CCMP_STS_KEY_ID_LSB)
                            | ({{(CCMP_STS_W-1){1'b0}}, s_frame} << CCMP_STS_FRAME_LSB);

    // output frames in the realigner: every frame given an ro_last beat carries bytes (it
    // begins with the prefix), so it leaves with one m_axis tlast beat
    wire       ofr_in = ro_valid && ro_ready && ro_last;
    wire       ofr_out = m_axis_tvalid && m_axis_tready && m_axis_tlast;
    wire [1:0] ofr_next = ofr + {1'b0, ofr_in} - {1'b0, ofr_out};
    wire       fin_ok = (fin_eng == ERR_OK);
    always @(posedge clk) begin
        if (rst) begin
            sts_pend <= 1'b0;
            s_err <= 8'd0;
            s_eng <= 8'd0;
            s_pn <= 48'd0;
            s_kid <= 2'd0;
            s_frame <= 1'b0;
            s_wait <= 2'd0;
            ofr <= 2'd0;
        end else begin
            ofr <= ofr_next;
            if (sts_pend && ofr_out && s_wait != 2'd0)
                s_wait <= s_wait - 2'd1;
            if (sts_take)
                sts_pend <= 1'b0;
            if (c_fin) begin
                sts_pend <= 1'b1;
                s_wait <= ofr_next;
                s_frame <= frame_sent;
                if (!c_eng) begin            // failed its checks: no engine, no frame
                    s_err <= err;
                    s_eng <= 8'd0;
                    s_pn <= pn_sts;
                    s_kid <= kid_sts;
                end else if (v_bad && (fin_ok || fin_eng == ERR_AUTH)) begin
                    // cut-through frame failed at tlast (a decryption's AUTH is its effect)
                    s_err <= (v_head == 2'd1) ? CCMP_ERR_FRAMING
                           : (v_head == 2'd2) ? CCMP_ERR_LEN : CCMP_ERR_FLEN;
                    s_eng <= fin_eng;
                    s_pn <= 48'd0;
                    s_kid <= 2'd0;
                end else begin
                    s_err <= fin_ok ? CCMP_ERR_OK
                           : (fin_eng == ERR_AUTH) ? CCMP_ERR_AUTH
                           : (fin_eng == ERR_KEY) ? CCMP_ERR_KEY : CCMP_ERR_ENGINE;
                    s_eng <= fin_eng;
                    s_pn <= fin_ok ? pn_sts : 48'd0;
                    s_kid <= fin_ok ? kid_sts : 2'd0;
                end
            end
        end
    end

    // replay counters: update when a verified decryption ends (its last beat has entered
    // the output realigner), clear on key load / zeroize
    wire rc_upd = c_fin && c_eng && c_dec && fin_ok && !rc_kill && !v_bad;
    integer t;
    always @(posedge clk) begin
        if (rc_upd)
            rc[rc_r] <= pn_sts;
    end
    // the early read for the hand-off's replay check (see rc_q above)
    wire [RCW-1:0] kl_base = {1'b0, key_load_slot, 4'b0000} + {5'd0, key_load_slot};
    always @(posedge clk) begin
        rc_q <= (rc_upd && rc_r == rc_i) ? pn_sts : rc[rc_i];
        if (rst || zeroize || (key_load && key_load_slot == slot_s))
            rcv_q <= 1'b0;
        else
            rcv_q <= (rc_upd && rc_r == rc_i) ? 1'b1 : rcv[rc_i];
    end
    always @(posedge clk) begin
        if (rst || zeroize) begin
            rcv <= {NRC{1'b0}};
        end else begin
            if (rc_upd)
                rcv[rc_r] <= 1'b1;
            if (key_load)
                for (t = 0; t < 17; t = t + 1)
                    rcv[kl_base + t[RCW-1:0]] <= 1'b0;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            cst <= C_IDLE;
            ost <= O_WAIT;
            c_dec <= 1'b0;
            c_eng <= 1'b0;
            c_cut <= 1'b0;
            c_slot <= {SLOT_W{1'b0}};
            prefix <= 384'd0;
            pfx_len <= 6'd0;
            pidx <= 2'd0;
            err <= 8'd0;
            eng_err <= 8'd0;
            frame_sent <= 1'b0;
            pn_sts <= 48'd0;
            kid_sts <= 2'd0;
            rc_r <= {RCW{1'b0}};
            rc_kill <= 1'b0;
            ow <= 8'd0;
            okeep <= 16'd0;
            or_i <= 8'd0;
            ob_valid <= 1'b0;
            ob_idx <= 8'd0;
            pfx_done <= 1'b0;
            rel_kill <= 1'b0;
        end else begin
            if (zeroize || (key_load && key_load_slot == c_slot))
                rc_kill <= 1'b1;
            if (zeroize && cst == C_RUN && c_dec)
                rel_kill <= 1'b1;
            case (cst)
                C_RUN: case (ost)
                    O_WAIT: begin
                        if (ro_valid && ro_ready) begin
                            frame_sent <= 1'b1;
                            if (!pfx_lastb) pidx <= pidx + 2'd1;
                            else if (s_axis_eng_tvalid) ost <= O_DATA;
                            else ost <= O_END;
                        end
                        if (eng_s_ready) begin
                            eng_err <= eng_code;
                            ost <= O_DONE;
                        end
                    end
                    O_DATA: if (s_axis_eng_tvalid && eng_m_ready && s_axis_eng_tlast)
                        ost <= O_END;
                    O_END: if (eng_s_ready) begin
                        eng_err <= eng_code;
                        ost <= O_DONE;
                    end
                    O_BUF: begin
                        if (s_axis_eng_tvalid) begin
                            if (ow < OBUF_BEATS)
                                ow <= ow + 8'd1;
                            okeep <= s_axis_eng_tkeep;
                        end
                        if (eng_s_ready && s_axis_eng_sts_tvalid) begin
                            eng_err <= eng_code;
                            ost <= (eng_ok && !v_bad) ? O_REL : O_DONE;
                        end
                    end
                    O_REL: if (rel_kill) begin
                        if (!frame_sent || ro_ready) begin
                            eng_err <= ERR_ZEROIZED;
                            ost <= O_DONE;
                        end
                    end else begin
                        if (ob_adv) begin
                            ob_valid <= 1'b1;
                            ob_idx <= or_i;
                            or_i <= or_i + 8'd1;
                        end else if (ob_take) begin
                            ob_valid <= 1'b0;
                        end
                        if (ro_valid && ro_ready) begin
                            frame_sent <= 1'b1;
                            if (!pfx_done) begin
                                if (!pfx_lastb) pidx <= pidx + 2'd1;
                                else if (ow == 8'd0) ost <= O_DONE;
                                else pfx_done <= 1'b1;
                            end else if (ob_last) begin
                                ost <= O_DONE;
                            end
                        end
                    end
                    default: ;   // O_DONE: waits for the status register (c_fin)
                endcase
                default: ;   // C_IDLE
            endcase
            // the MPDU ends (its status into the status register): take the next record
            if (c_fin)
                cst <= C_IDLE;
            if (q_pop) begin
                c_eng <= q_eng[qrp];
                c_dec <= q_dec[qrp];
                c_cut <= q_cut[qrp];
                c_slot <= q_slot[qrp];
                err <= q_err[qrp];
                eng_err <= 8'd0;
                frame_sent <= 1'b0;
                pn_sts <= q_pn[qrp];
                kid_sts <= q_kid[qrp];
                rc_r <= q_rc[qrp];
                rc_kill <= q_kill[qrp] || zeroize || (key_load && key_load_slot == q_slot[qrp]);
                prefix <= q_pfx[qrp];
                pfx_len <= q_pl[qrp];
                pidx <= 2'd0;
                // failed its checks: straight to its status (O_DONE)
                ost <= !q_eng[qrp] ? O_DONE : (q_dec[qrp] && ENG_CUT) ? O_BUF : O_WAIT;
                ow <= 8'd0;
                or_i <= 8'd0;
                ob_valid <= 1'b0;
                pfx_done <= 1'b0;
                rel_kill <= zeroize;
                cst <= C_RUN;
            end
        end
    end
endmodule
`default_nettype wire
