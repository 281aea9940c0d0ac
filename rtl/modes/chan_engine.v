// SPDX-License-Identifier: Apache-2.0
// chan_engine: the multi-channel block-mode engine. Up to 2**CH_W independent channels
// share one pipelined block core (aes_pipe or tdea_pipe), one block per clock across the
// channels, so CBC encryption, whose single stream can use only one pipeline slot in
// every loop, fills the pipeline when enough channels run at once (docs/channels.md).
//
// A channel is a packet context held in a context RAM indexed by the channel number:
// op, key slot, blocks to come, chaining value or counter. Commands (the 512-bit command
// beat of the mode engines, data/mode_engine.yaml) and data beats name their channel in
// tdest; data beats of different channels may interleave beat by beat. Each block is
// issued to the core the clock it is taken from s_axis, with its context read and
// written back in that clock; what the result needs afterwards (channel, flags, the
// value it is XORed with) goes into an in-flight FIFO beside the core, which returns
// blocks in issue order, so results need no tag. Results leave on m_axis (and the
// packet's status on m_axis_sts) in the order they were issued, named by tdest.
//
// Ops: AES (CORE "aes"): ECB encrypt/decrypt, CBC encrypt/decrypt, CBC-MAC, CTR; TDEA
// (CORE "tdea"): TDEA ECB/CBC encrypt/decrypt. CBC encryption and CBC-MAC keep one block
// of a channel in the core (the next block needs its result); ECB, CBC decryption and
// CTR stream a channel at one block per clock. CCM stays with aes_mode_engine /
// aes_mode_multi. Scheduling and order rules, errors, zeroize: docs/channels.md.
//
// Parameters (limits checked at elaboration, AESIP_CHECK)
//   CORE       : "aes" = aes_pipe (128-bit blocks, keys of 16/24/32 bytes) or "tdea" =
//                tdea_pipe (64-bit blocks, keys of 24 or 16 bytes)
//   CH_W       : channel index width, 1 .. 8: 2**CH_W channel contexts
//   SLOT_W     : key-slot index width, 1 .. 8: 2**SLOT_W key slots in the core
//   LEN_W      : payload length width, 8 .. 32: payloads of 2**LEN_W bytes or more are
//                rejected with LENGTH
//   NR_MAX     : AES only: 10, 12 or 14, the largest key (aes_pipe)
//   ROUND_REGS : registers per round: aes_pipe 1 .. 4 (ROUND_REGS), tdea_pipe 1 .. 2
//                (RND_REGS)
//   SBOX_IMPL  : AES only: 0 table S-boxes, 1 composite-field S-boxes
// Ports (BLK_W = 128 for AES, 64 for TDEA; BB = BLK_W / 8)
//   clk, rst            : clock, synchronous active-high reset (every context closed, the
//                         context, chaining and in-flight RAMs scrubbed: 2**max(CH_W, 7)
//                         clocks during which nothing is taken)
//   zeroize             : one-cycle pulse: every key slot unusable, every packet whose
//                         status has not been taken aborted (status ZEROIZED, blocks in
//                         flight come out as zero beats with tuser = 1, the rest of an open
//                         packet's data is dropped up to its tlast), RAMs scrubbed as at rst
//   key_valid/ready/slot/bytes/data : key load into the core (key_data[BLK_W... ] see
//                         docs/channels.md: AES 16/24/32 bytes, TDEA bytes 0..23).
//                         key_ready is low while a packet on key_slot is open or in flight;
//                         while key_valid is high a command for key_slot waits
//   s_axis_cmd_tvalid/tready/tdata[511:0]/tdest[CH_W-1:0] : one command beat per packet
//                         (docs/mode_engine.md layout: op, slot, aad_len = 0, payload_len,
//                         iv); tdest = channel. A command waits while its channel still
//                         takes data of its previous packet
//   s_axis_tvalid/tready/tdata[BLK_W-1:0]/tlast/tdest : payload blocks, byte 0 in bits
//                         [7:0]; tlast on a packet's last beat; tdest = channel. A beat
//                         waits while its channel has no open packet, or (CBC encryption,
//                         CBC-MAC) while the channel's previous block is in the core
//   m_axis_tvalid/tready/tdata/tkeep[BB-1:0]/tlast/tuser/tdest : result blocks (none for
//                         CBC-MAC); tkeep marks the bytes of a short last CTR block (their
//                         other bytes are zero); tuser = 1: a zero beat of an aborted block
//   m_axis_sts_tvalid/tready/tdata[135:0]/tdest : one status beat per packet, after its
//                         last result: [135:128] error code, [127:0] value (CBC encryption
//                         and CBC-MAC: the last ciphertext block = the MAC; else 0)
// Timing: a block taken at edge E enters the core at E; the core's latency (aes_pipe
//   NR_MAX * ROUND_REGS, tdea_pipe 48 * ROUND_REGS + 3) plus one output register later it
//   is on m_axis (data handshake to result handshake: 16 clocks for aes_pipe NR_MAX 14,
//   ROUND_REGS 1; 52 for tdea_pipe RND_REGS 1). A CBC-encryption channel can issue its
//   next block the clock after its result leaves the core: one block per 16 (52)
//   clocks, so 16 (52) channels fill the pipeline (docs/channels.md, "Timing").
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module chan_engine #(
    parameter [31:0] CORE       = "aes",
    parameter        CH_W       = 4,
    parameter        SLOT_W     = 2,
    parameter        LEN_W      = 16,
    parameter        NR_MAX     = 14,
    parameter        ROUND_REGS = 1,
    parameter        SBOX_IMPL  = 0
) (
    input  wire                                     clk,
    input  wire                                     rst,
    input  wire                                     zeroize,
    // key load
    input  wire                                     key_valid,
    output wire                                     key_ready,
    input  wire [SLOT_W-1:0]                        key_slot,
    input  wire [5:0]                               key_bytes,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [255:0]                             key_data,     // TDEA: bits 191:0
    /* verilator lint_on UNUSEDSIGNAL */
    // commands
    input  wire                                     s_axis_cmd_tvalid,
    output wire                                     s_axis_cmd_tready,
    input  wire [511:0]                             s_axis_cmd_tdata,
    input  wire [CH_W-1:0]                          s_axis_cmd_tdest,
    // data in
    input  wire                                     s_axis_tvalid,
    output wire                                     s_axis_tready,
    input  wire [((CORE == "tdea") ? 64 : 128)-1:0] s_axis_tdata,
    input  wire                                     s_axis_tlast,
    input  wire [CH_W-1:0]                          s_axis_tdest,
    // data out
    output reg                                      m_axis_tvalid,
    input  wire                                     m_axis_tready,
    output reg  [((CORE == "tdea") ? 64 : 128)-1:0] m_axis_tdata,
    output reg  [((CORE == "tdea") ? 8 : 16)-1:0]   m_axis_tkeep,
    output reg                                      m_axis_tlast,
    output reg                                      m_axis_tuser,
    output reg  [CH_W-1:0]                          m_axis_tdest,
    // status out
    output reg                                      m_axis_sts_tvalid,
    input  wire                                     m_axis_sts_tready,
    output reg  [135:0]                             m_axis_sts_tdata,
    output reg  [CH_W-1:0]                          m_axis_sts_tdest
);
    `include "aes_mode_if.vh"   // command/status layout, op and error codes (data/mode_engine.yaml)

    localparam TDEA  = (CORE == "tdea");
    localparam BLK_W = TDEA ? 64 : 128;
    localparam BB    = BLK_W / 8;
    localparam BLG   = TDEA ? 3 : 4;           // log2 of the block size in bytes
    localparam BL_W  = LEN_W - BLG + 1;        // block counts (up to 2**(LEN_W-BLG))
    localparam NCH   = 1 << CH_W;
    localparam NSLOT = 1 << SLOT_W;
    localparam IAW   = 7;                      // in-flight FIFO: 128 entries
    localparam SCR_W = ((CH_W > IAW) ? CH_W : IAW) + 1;
    localparam [SCR_W-1:0] SCR_N = 1 << (SCR_W - 1);   // scrub: one RAM word per clock

    generate
        `AESIP_CHECK(CORE == "aes" || CORE == "tdea", chan_engine_CORE_unknown,
                     "chan_engine: CORE must be aes or tdea")
        `AESIP_CHECK(CH_W >= 1 && CH_W <= 8, chan_engine_CH_W_not_1_to_8,
                     "chan_engine: CH_W must be 1 .. 8")
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, chan_engine_SLOT_W_not_1_to_8,
                     "chan_engine: SLOT_W must be 1 .. 8")
        `AESIP_CHECK(LEN_W >= 8 && LEN_W <= 32, chan_engine_LEN_W_not_8_to_32,
                     "chan_engine: LEN_W must be 8 .. 32")
        `AESIP_CHECK(CORE == "tdea" || ROUND_REGS >= 1 && ROUND_REGS <= 4, chan_engine_ROUND_REGS_aes,
                     "chan_engine: ROUND_REGS must be 1 .. 4 for aes")
        `AESIP_CHECK(CORE == "aes" || ROUND_REGS >= 1 && ROUND_REGS <= 2, chan_engine_ROUND_REGS_tdea,
                     "chan_engine: ROUND_REGS must be 1 or 2 for tdea")
    endgenerate

    `include "aes_mode_func.vh"   // reverse_bytes

    // ------------------------------------------------------------------ scrub after rst / zeroize
    reg  [SCR_W-1:0] scr;                      // words left to scrub
    wire             scrub = (scr != {SCR_W{1'b0}});
    wire [SCR_W-2:0] scr_a = scr[SCR_W-2:0] - 1'b1;
    always @(posedge clk) begin
        if (rst || zeroize) scr <= SCR_N;
        else if (scrub)     scr <= scr - 1'b1;
    end

    // ------------------------------------------------------------------ key slots
    wire core_key_ready;
    wire [NSLOT-1:0] usable;
    wire [NSLOT-1:0] slot_idle;                // no packet on the slot (command to status)
    wire key_slot_idle = slot_idle[key_slot];
    assign key_ready = core_key_ready && key_slot_idle;
    wire key_go = key_valid && key_ready;
    generate
        if (TDEA) begin : g_tslots
            reg [NSLOT-1:0] ok;
            always @(posedge clk) begin
                if (rst || zeroize) ok <= {NSLOT{1'b0}};
                else if (key_go) ok[key_slot] <= (key_bytes == 6'd24) || (key_bytes == 6'd16);
            end
            assign usable = ok;
        end else begin : g_aslots
            aes_key_slots #(.SLOT_W(SLOT_W), .NR_MAX(NR_MAX)) u_slots (
                .clk(clk), .rst(rst), .zeroize(zeroize), .load(key_go), .load_slot(key_slot),
                .load_bytes(key_bytes), .usable(usable));
        end
    endgenerate

    // ------------------------------------------------------------------ channel state (flops)
    reg [NCH-1:0] open;      // a packet is open: its command taken, not all its data
    reg [NCH-1:0] drop;      // ... and its data is dropped up to tlast (error / zeroize)
    reg [NCH-1:0] zab;       // ... because of a zeroize
    reg [NCH-1:0] busy;      // a CBC-encryption / CBC-MAC block of the channel is in the core

    // ------------------------------------------------------------------ context RAM
    // {op, slot, rem (blocks to come), tail (bytes of a short last block, 0 = whole),
    //  first (no block issued yet), ecode, chain (IV / chaining value / counter)}
    localparam CTX_W = 4 + SLOT_W + BL_W + BLG + 1 + 8 + BLK_W;
    reg  [CTX_W-1:0] ctx_ram [0:NCH-1];
    reg  [BLK_W-1:0] cout_ram [0:NCH-1];       // CBC encryption: the last result per channel
    reg              ctx_we;
    reg  [CH_W-1:0]  ctx_wa;
    reg  [CTX_W-1:0] ctx_wd;
    always @(posedge clk) if (ctx_we) ctx_ram[ctx_wa] <= ctx_wd;

    // ------------------------------------------------------------------ in-flight FIFO
    // meta: {ch, data, last, fb, tok, code, keep_n, rel, slot}; xor: the value the result
    // is XORed with (CBC decryption: previous ciphertext; CTR: the input block)
    localparam MW = CH_W + 4 + 8 + (BLG + 1) + 1 + SLOT_W;
    reg  [MW-1:0]    meta_ram [0:(1 << IAW)-1];
    reg  [BLK_W-1:0] xor_ram  [0:(1 << IAW)-1];
    reg  [IAW:0]     wr_ptr, rd_ptr;
    wire [IAW:0]     f_cnt  = wr_ptr - rd_ptr;
    wire             f_full = f_cnt[IAW];
    reg  [IAW:0]     zleft;                    // entries aborted by the last zeroize

    // ------------------------------------------------------------------ core
    wire             core_s_ready;
    reg              core_s_valid;
    reg  [BLK_W-1:0] core_s_data;
    reg              core_s_dec;
    reg  [SLOT_W-1:0] core_s_slot;
    wire             core_m_valid;
    wire             core_m_ready;
    wire [BLK_W-1:0] core_m_data;
    wire             core_m_err;
    wire             issue_free = core_s_ready && !f_full && !scrub && !zeroize;

    // ------------------------------------------------------------------ command decode
    wire [CH_W-1:0] cc        = s_axis_cmd_tdest;
    wire [3:0]      d_op      = s_axis_cmd_tdata[CMD_OP_LSB +: CMD_OP_W];
    wire            d_cut     = s_axis_cmd_tdata[CMD_CUT_LSB];
    wire [7:0]      d_slotf   = s_axis_cmd_tdata[CMD_SLOT_LSB +: CMD_SLOT_W];
    wire [63:0]     d_aad_len = s_axis_cmd_tdata[CMD_AAD_LEN_LSB +: CMD_AAD_LEN_W];
    wire [63:0]     d_pay_len = s_axis_cmd_tdata[CMD_PAYLOAD_LEN_LSB +: CMD_PAYLOAD_LEN_W];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [127:0]    d_ivf     = s_axis_cmd_tdata[CMD_IV_LSB +: CMD_IV_W];   // TDEA: bytes 0..7
    /* verilator lint_on UNUSEDSIGNAL */
    wire [SLOT_W-1:0] d_slot  = d_slotf[SLOT_W-1:0];
    wire d_known = TDEA ? (d_op >= OP_TDEA_ECB_ENC && d_op <= OP_TDEA_CBC_DEC) : (d_op <= OP_CBC_MAC);
    wire d_ctr   = !TDEA && (d_op == OP_CTR);
    wire d_fit   = ((d_pay_len >> LEN_W) == 64'd0);
    wire d_whole = (d_pay_len[BLG-1:0] == {BLG{1'b0}});
    reg  [7:0] d_err;
    always @(*) begin
        d_err = ERR_OK;
        if (!d_known || (s_axis_cmd_tdata & CMD_RSVD_MASK) != {CMD_W{1'b0}} || d_cut)
            d_err = ERR_OP;
        else if (d_aad_len != 64'd0 || !d_fit || (!d_ctr && !d_whole))
            d_err = ERR_LENGTH;
        else if ((d_slotf >> SLOT_W) != 8'd0 || !usable[d_slot])
            d_err = ERR_KEY;
    end
    wire            d_has_data = (d_aad_len != 64'd0) || (d_pay_len != 64'd0);
    wire            d_ok       = (d_err == ERR_OK);
    // a status with no data: an empty packet, or a refused one with no data beats
    wire            d_tok      = d_ok ? (d_pay_len == 64'd0) : !d_has_data;
    wire [BL_W-1:0] d_nblk     = {1'b0, d_pay_len[LEN_W-1:BLG]} + {{(BL_W-1){1'b0}}, !d_whole};
    wire [BLG-1:0]  d_tail     = d_pay_len[BLG-1:0];
    wire            cmd_hold   = key_valid && (d_slotf == {{(8-SLOT_W){1'b0}}, key_slot});
    wire cmd_pre = !open[cc] && !cmd_hold && !scrub && !zeroize;
    wire sel_cmd = s_axis_cmd_tvalid && cmd_pre;   // the command has the context port this clock
    assign s_axis_cmd_tready = cmd_pre && (!d_tok || issue_free);
    wire cmd_go = s_axis_cmd_tvalid && s_axis_cmd_tready;

    // ------------------------------------------------------------------ data head: its context
    wire [CH_W-1:0]  dc = s_axis_tdest;
    wire [CTX_W-1:0] cx = ctx_ram[dc];
    wire [BLK_W-1:0] c_chain = cx[BLK_W-1:0];
    wire [7:0]       c_ecode = cx[BLK_W +: 8];
    wire             c_first = cx[BLK_W + 8];
    wire [BLG-1:0]   c_tail  = cx[BLK_W + 9 +: BLG];
    wire [BL_W-1:0]  c_rem   = cx[BLK_W + 9 + BLG +: BL_W];
    wire [SLOT_W-1:0] c_slot = cx[BLK_W + 9 + BLG + BL_W +: SLOT_W];
    wire [3:0]       c_op    = cx[CTX_W-1 -: 4];
    wire [BLK_W-1:0] c_cout  = cout_ram[dc];
    wire c_cbce = TDEA ? (c_op == OP_TDEA_CBC_ENC) : (c_op == OP_CBC_ENC || c_op == OP_CBC_MAC);
    wire c_cbcd = TDEA ? (c_op == OP_TDEA_CBC_DEC) : (c_op == OP_CBC_DEC);
    wire c_mac  = !TDEA && (c_op == OP_CBC_MAC);
    wire c_ctr  = !TDEA && (c_op == OP_CTR);
    wire c_dec  = TDEA ? (c_op == OP_TDEA_ECB_DEC || c_op == OP_TDEA_CBC_DEC)
                       : (c_op == OP_ECB_DEC || c_op == OP_CBC_DEC);
    wire c_lastx = (c_rem == {{(BL_W-1){1'b0}}, 1'b1});      // this beat must carry tlast
    wire c_mism  = (s_axis_tlast != c_lastx);
    // the counter block's successor (128-bit big-endian integer, byte 0 first)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [127:0] c_ctr_next;                   // TDEA: unused (no CTR)
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (TDEA) begin : g_noctr
            assign c_ctr_next = 128'd0;
        end else begin : g_ctr
            assign c_ctr_next = reverse_bytes(reverse_bytes(c_chain[127:0]) + 128'd1);
        end
    endgenerate

    // what the head beat does this clock (a presented command has the context port first)
    wire d_can  = open[dc] && !sel_cmd && !scrub && !zeroize;
    wire d_drop = drop[dc];
    wire d_blk  = !d_drop && !c_mism;                         // a block to the core
    wire d_need = d_blk ? (issue_free && !(c_cbce && busy[dc]))
                        : (!s_axis_tlast || issue_free);      // a status token at tlast
    assign s_axis_tready = d_can && d_need;
    wire d_go = s_axis_tvalid && s_axis_tready;

    // ------------------------------------------------------------------ issue
    reg  [MW-1:0]    f_meta;
    reg  [BLK_W-1:0] f_xor;
    reg  [CH_W-1:0]  f_ch;
    reg              f_data, f_last, f_fb, f_tok, f_rel;
    reg  [7:0]       f_code;
    reg  [BLG:0]     f_keep;
    reg  [SLOT_W-1:0] f_slot;
    reg              set_busy;
    reg              inc_use;                  // a packet opens on d_slot
    // The core's input values come from the presented command or head beat alone (not
    // from the handshake): the core's s_axis_tready looks at the block's slot.
    always @(*) begin
        core_s_slot = sel_cmd ? d_slot : c_slot;
        core_s_dec  = !sel_cmd && d_blk && c_dec;
        core_s_data = (sel_cmd || !d_blk) ? {BLK_W{1'b0}}
                    : c_cbce ? (s_axis_tdata ^ (c_first ? c_chain : c_cout))
                    : c_ctr  ? c_chain : s_axis_tdata;
    end
    always @(*) begin
        core_s_valid = 1'b0;
        f_ch = dc; f_data = 1'b0; f_last = 1'b1; f_fb = 1'b0; f_tok = 1'b1; f_rel = 1'b0;
        f_code = ERR_OK; f_keep = {(BLG+1){1'b0}}; f_slot = c_slot; f_xor = {BLK_W{1'b0}};
        ctx_we = 1'b0; ctx_wa = dc; ctx_wd = cx; set_busy = 1'b0; inc_use = 1'b0;
        if (scrub) begin
            ctx_we = 1'b1; ctx_wa = scr_a[CH_W-1:0]; ctx_wd = {CTX_W{1'b0}};
        end else if (cmd_go) begin
            ctx_wa = cc;
            if (d_tok) begin                       // status now: through the core, in order
                core_s_valid = 1'b1;
                f_ch = cc; f_code = d_err;
            end else if (!d_ok) begin              // refused, drop its data up to tlast
                ctx_we = 1'b1; ctx_wd = {{(CTX_W-BLK_W-8){1'b0}}, d_err, {BLK_W{1'b0}}};
            end else begin
                ctx_we = 1'b1; inc_use = 1'b1;
                ctx_wd = {d_op, d_slot, d_nblk, d_tail, 1'b1, ERR_OK, d_ivf[BLK_W-1:0]};
            end
        end else if (d_go) begin
            if (d_drop || c_mism) begin
                if (s_axis_tlast) begin            // the packet's status
                    core_s_valid = 1'b1;
                    f_code = d_drop ? (zab[dc] ? ERR_ZEROIZED : c_ecode) : ERR_FRAMING;
                    f_rel  = d_drop ? (!zab[dc] && c_ecode == ERR_FRAMING) : 1'b1;
                end else if (!d_drop) begin        // tlast missing: drop to tlast
                    ctx_we = 1'b1; ctx_wd = {cx[CTX_W-1:BLK_W+8], ERR_FRAMING, c_chain};
                end
            end else begin
                core_s_valid = 1'b1;
                f_tok = 1'b0; f_data = !c_mac; f_last = c_lastx; f_fb = c_cbce; f_rel = c_lastx;
                f_keep = (c_lastx && c_tail != {BLG{1'b0}}) ? {1'b0, c_tail} : {1'b1, {BLG{1'b0}}};
                f_xor = c_cbcd ? c_chain : c_ctr ? s_axis_tdata : {BLK_W{1'b0}};
                set_busy = c_cbce;
                ctx_we = 1'b1;
                ctx_wd = {c_op, c_slot, c_rem - 1'b1, c_tail, 1'b0, ERR_OK,
                          c_cbcd ? s_axis_tdata : c_ctr ? c_ctr_next[BLK_W-1:0] : c_chain};
            end
        end
        f_meta = {f_ch, f_data, f_last, f_fb, f_tok, f_code, f_keep, f_rel, f_slot};
    end

    wire issue = core_s_valid;   // core_s_ready is part of every condition that sets it
    always @(posedge clk) begin
        if (issue) meta_ram[wr_ptr[IAW-1:0]] <= f_meta;
        if (scrub) xor_ram[scr_a[IAW-1:0]] <= {BLK_W{1'b0}};
        else if (issue) xor_ram[wr_ptr[IAW-1:0]] <= f_xor;
    end

    // ------------------------------------------------------------------ results
    wire [MW-1:0]    h_meta = meta_ram[rd_ptr[IAW-1:0]];
    wire [BLK_W-1:0] h_xor  = xor_ram[rd_ptr[IAW-1:0]];
    wire [SLOT_W-1:0] h_slot = h_meta[SLOT_W-1:0];
    wire             h_rel  = h_meta[SLOT_W];
    wire [BLG:0]     h_keep = h_meta[SLOT_W+1 +: BLG+1];
    wire [7:0]       h_code = h_meta[SLOT_W+BLG+2 +: 8];
    wire             h_tok  = h_meta[SLOT_W+BLG+10];
    wire             h_fb   = h_meta[SLOT_W+BLG+11];
    wire             h_last = h_meta[SLOT_W+BLG+12];
    wire             h_data = h_meta[SLOT_W+BLG+13];
    wire [CH_W-1:0]  h_ch   = h_meta[MW-1 -: CH_W];
    wire             h_ab   = (zleft != {(IAW+1){1'b0}});       // aborted by a zeroize
    wire             h_bad  = h_ab || (core_m_err && !h_tok);
    assign core_m_ready = (!m_axis_tvalid || m_axis_tready) && (!m_axis_sts_tvalid || m_axis_sts_tready);
    wire take = core_m_valid && core_m_ready;
    reg  [BLK_W-1:0] kmask;
    reg  [BB-1:0]    kbits;
    integer k;
    always @(*) begin
        for (k = 0; k < BB; k = k + 1) begin
            kbits[k] = (k < h_keep);
            kmask[8*k +: 8] = {8{kbits[k]}};
        end
    end
    wire [BLK_W-1:0] h_out  = h_bad ? {BLK_W{1'b0}} : ((core_m_data ^ h_xor) & kmask);
    wire [7:0]       h_scode = h_tok ? ((h_ab && h_code == ERR_OK) ? ERR_ZEROIZED : h_code)
                                     : (h_bad ? ERR_ZEROIZED : ERR_OK);
    wire [127:0]     h_sval = (h_fb && !h_bad) ? {{(128-BLK_W){1'b0}}, core_m_data} : 128'd0;
    wire             dec_use = take && h_last && h_rel && !h_ab;

    always @(posedge clk) begin
        if (scrub) cout_ram[scr_a[CH_W-1:0]] <= {BLK_W{1'b0}};
        else if (take && h_fb) cout_ram[h_ch] <= h_bad ? {BLK_W{1'b0}} : core_m_data;
    end

    // output registers
    always @(posedge clk) begin
        if (rst) begin
            m_axis_tvalid <= 1'b0; m_axis_sts_tvalid <= 1'b0;
            m_axis_tdata <= {BLK_W{1'b0}}; m_axis_tkeep <= {BB{1'b0}}; m_axis_tlast <= 1'b0;
            m_axis_tuser <= 1'b0; m_axis_tdest <= {CH_W{1'b0}};
            m_axis_sts_tdata <= 136'd0; m_axis_sts_tdest <= {CH_W{1'b0}};
        end else begin
            if (m_axis_tready) m_axis_tvalid <= 1'b0;
            if (m_axis_sts_tready) m_axis_sts_tvalid <= 1'b0;
            if (take && h_data) begin
                m_axis_tvalid <= 1'b1;
                m_axis_tdata  <= h_out;
                m_axis_tkeep  <= kbits;
                m_axis_tlast  <= h_last;
                m_axis_tuser  <= h_bad;
                m_axis_tdest  <= h_ch;
            end
            if (take && h_last) begin
                m_axis_sts_tvalid <= 1'b1;
                m_axis_sts_tdata  <= {h_scode, h_sval};
                m_axis_sts_tdest  <= h_ch;
            end
        end
    end

    // ------------------------------------------------------------------ state updates
    always @(posedge clk) begin
        if (rst) begin
            wr_ptr <= {(IAW+1){1'b0}}; rd_ptr <= {(IAW+1){1'b0}}; zleft <= {(IAW+1){1'b0}};
            open <= {NCH{1'b0}}; drop <= {NCH{1'b0}}; zab <= {NCH{1'b0}}; busy <= {NCH{1'b0}};
        end else begin
            if (issue) wr_ptr <= wr_ptr + 1'b1;
            if (take)  rd_ptr <= rd_ptr + 1'b1;
            if (zeroize) zleft <= f_cnt - {{IAW{1'b0}}, take};
            else if (take && h_ab) zleft <= zleft - 1'b1;
            // busy: set at issue, cleared when the result leaves the core
            if (take && h_fb) busy[h_ch] <= 1'b0;
            if (set_busy) busy[dc] <= 1'b1;
            if (zeroize) begin
                drop <= drop | open;
                zab  <= zab | open;
            end else if (cmd_go) begin
                if (!d_tok) begin
                    open[cc] <= 1'b1;
                    drop[cc] <= !d_ok;
                end
            end else if (d_go) begin
                if (d_drop || c_mism) begin
                    if (s_axis_tlast) begin
                        open[dc] <= 1'b0; drop[dc] <= 1'b0; zab[dc] <= 1'b0;
                    end else begin
                        drop[dc] <= 1'b1;
                    end
                end else if (c_lastx) begin
                    open[dc] <= 1'b0;
                end
            end
        end
    end

    // per-slot packet counts (key_ready)
    genvar s;
    generate
        for (s = 0; s < NSLOT; s = s + 1) begin : g_use
            wire up = inc_use && (d_slot == s);
            wire dn = dec_use && (h_slot == s);
            reg [CH_W:0] cnt;
            always @(posedge clk) begin
                if (rst || zeroize) cnt <= {(CH_W+1){1'b0}};
                else if (up && !dn) cnt <= cnt + 1'b1;
                else if (dn && !up) cnt <= cnt - 1'b1;
            end
            assign slot_idle[s] = (cnt == {(CH_W+1){1'b0}});
        end
    endgenerate

    // ------------------------------------------------------------------ the core
    generate
        if (TDEA) begin : g_tdea
            /* verilator lint_off UNUSEDSIGNAL */
            wire [1:0] m_user;
            /* verilator lint_on UNUSEDSIGNAL */
            tdea_pipe #(.SLOT_W(SLOT_W), .TAG_W(1), .RND_REGS(ROUND_REGS)) u_core (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_valid && key_slot_idle), .key_ready(core_key_ready),
                .key_slot(key_slot), .key_bytes(key_bytes), .key_data(key_data[191:0]),
                .s_axis_tvalid(core_s_valid), .s_axis_tready(core_s_ready),
                .s_axis_tdata(core_s_data), .s_axis_tuser({1'b0, core_s_slot, core_s_dec}),
                .m_axis_tvalid(core_m_valid), .m_axis_tready(core_m_ready),
                .m_axis_tdata(core_m_data), .m_axis_tuser(m_user));
            assign core_m_err = m_user[0];
        end else begin : g_aes
            /* verilator lint_off UNUSEDSIGNAL */
            wire [1:0] m_user;
            /* verilator lint_on UNUSEDSIGNAL */
            aes_pipe #(.SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .TAG_W(1), .NR_MAX(NR_MAX),
                       .DIRECTION(2), .ROUND_REGS(ROUND_REGS)) u_core (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_valid && key_slot_idle), .key_ready(core_key_ready),
                .key_slot(key_slot), .key_bytes(key_bytes), .key_data(key_data),
                .s_axis_tvalid(core_s_valid), .s_axis_tready(core_s_ready),
                .s_axis_tdata(core_s_data), .s_axis_tuser({1'b0, core_s_slot, core_s_dec}),
                .m_axis_tvalid(core_m_valid), .m_axis_tready(core_m_ready),
                .m_axis_tdata(core_m_data), .m_axis_tuser(m_user));
            assign core_m_err = m_user[0];
        end
    endgenerate
endmodule
`default_nettype wire
