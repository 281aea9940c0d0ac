// SPDX-License-Identifier: Apache-2.0
// chan_engine: the multi-channel block-mode engine. Up to 2**CH_W independent channels
// share one pipelined block core (aes_pipe or tdea_pipe), one block per clock across the
// channels, so CBC encryption, whose single stream can use only one pipeline slot in
// every loop, fills the pipeline when enough channels run at once (docs/channels.md).
//
// A channel is a packet context held in a context RAM indexed by the channel number:
// op, key slot, blocks to come, chaining value or counter. Commands (the 512-bit command
// beat of the mode engines, data/mode_engine.yaml) and data beats name their channel in
// tdest; data beats of different channels may interleave beat by beat. The issue is
// two-stage: a taken command (a beat: after one clock in the data input register, where
// its channel's last result is read from the block RAM) goes into a head register with
// copies of its channel's flags, context and last result, kept current by forwarding;
// the clock after, the issue
// decision, made from registers only, sends it (or its status token) through a
// two-entry buffer into the core and writes the context back through a write
// register. What the result needs afterwards (channel, flags, the value it is XORed
// with) goes into an in-flight FIFO beside the core, which returns blocks in issue
// order, so results need no tag. Results leave on m_axis (and the packet's status on
// m_axis_sts) in the order they were issued, named by tdest.
//
// Ops: AES (CORE "aes"): ECB encrypt/decrypt, CBC encrypt/decrypt, CBC-MAC, CTR (ECB/CBC
// decrypt only with DIRECTION 2); TDEA
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
//   NR_MAX     : AES only: 10, 12 or 14, the largest key (aes_pipe). A slot loaded with a
//                larger key is unusable: its packets get status KEY (aes_key_slots)
//   DIRECTION  : AES only: 2 = aes_pipe with both directions; 0 = encrypt-only aes_pipe (no
//                inverse S-boxes or inverse round keys): ECB and CBC decryption, the only
//                ops that use the inverse cipher, are refused with status OP (no output,
//                their beats dropped up to tlast). TDEA: 2 only (tdea_pipe has both)
//   ROUND_REGS : registers per round: aes_pipe 1 .. 7 (ROUND_REGS; 5 .. 7 need SBOX_IMPL 1,
//                the deep pipeline of docs/pipe.md), tdea_pipe 1 .. 2
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
//                         while key_valid is high, and in the clock after a load, a command
//                         for key_slot waits
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
// Timing: a beat taken at edge E goes into the data input register, moves into the data
//   head at E + 1 (when the head is empty or its beat goes), is decided in the clock
//   after E + 1 (a command waiting in the command head goes first), enters the core's
//   input buffer at E + 2 and the core at E + 3 when the core is ready; its result is on
//   m_axis one output register after the core presents it (core latency: aes_pipe
//   NR_MAX * ROUND_REGS + 1, tdea_pipe 48 * ROUND_REGS + 3, docs/pipe.md, docs/tdea.md).
//   Data handshake to result handshake: 19 clocks on aes_pipe NR_MAX 14, ROUND_REGS 1,
//   55 on tdea_pipe RND_REGS 1, also for a packet's first beat taken in the clock of its
//   command (the command is decided while the beat moves into the head). A
//   CBC-encryption channel's next block, waiting in the data head, enters the core 2
//   clocks after its result leaves the core: a loop of 17 (53) clocks, so 17 (53)
//   channels fill the pipeline (docs/channels.md, "Timing").
//   s_axis_cmd_tready: the command head is empty or its command leaves this clock;
//   s_axis_tready: the data input register is empty or its beat moves into the data
//   head this clock (the head is empty or its beat leaves); both need no scrub, zeroize
//   or rst and are never a function of their tvalid.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module chan_engine #(
    parameter [31:0] CORE       = "aes",
    parameter        CH_W       = 4,
    parameter        SLOT_W     = 2,
    parameter        LEN_W      = 16,
    parameter        NR_MAX     = 14,
    parameter        DIRECTION  = 2,
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
        `AESIP_CHECK(CORE == "tdea" || NR_MAX == 10 || NR_MAX == 12 || NR_MAX == 14, chan_engine_NR_MAX_not_10_12_14,
                     "chan_engine: NR_MAX must be 10 or 12 or 14")
        `AESIP_CHECK(CORE == "tdea" || DIRECTION == 0 || DIRECTION == 2, chan_engine_DIRECTION_not_0_or_2,
                     "chan_engine: DIRECTION must be 0 or 2 for aes")
        `AESIP_CHECK(CORE == "aes" || DIRECTION == 2, chan_engine_DIRECTION_tdea_not_2,
                     "chan_engine: DIRECTION must be 2 for tdea")
        `AESIP_CHECK(CORE == "tdea" || ROUND_REGS >= 1 && ROUND_REGS <= 7, chan_engine_ROUND_REGS_aes,
                     "chan_engine: ROUND_REGS must be 1 .. 7 for aes")
        `AESIP_CHECK(CORE == "aes" || ROUND_REGS >= 1 && ROUND_REGS <= 2, chan_engine_ROUND_REGS_tdea,
                     "chan_engine: ROUND_REGS must be 1 or 2 for tdea")
    endgenerate

    `include "aes_mode_func.vh"   // reverse_bytes

    // ------------------------------------------------------------------ scrub after rst / zeroize
    // scrub is a register (scr != 0): it goes into every gate of the issue decision.
    reg  [SCR_W-1:0] scr;                      // words left to scrub
    reg              scrub;                    // scr != 0
    wire [SCR_W-2:0] scr_a = scr[SCR_W-2:0] - 1'b1;
    always @(posedge clk) begin
        if (rst || zeroize) begin
            scr <= SCR_N; scrub <= 1'b1;
        end else if (scrub) begin
            scr <= scr - 1'b1; scrub <= (scr != {{(SCR_W-1){1'b0}}, 1'b1});
        end
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
    // An issue decision's change to its channel's flags waits one clock in p_* and goes
    // into the vectors the clock after (a read of the vectors forwards it).
    reg              p_v;
    reg  [CH_W-1:0]  p_ch;
    reg              p_o, p_dr, p_z, p_b;      // new open, drop, zab; busy set

    // ------------------------------------------------------------------ context RAM
    // {op, slot, rem (blocks to come), tail (bytes of a short last block, 0 = whole),
    //  lastx (rem == 1), cbce (CBC encryption / CBC-MAC), first (no block issued yet),
    //  ecode, chain (IV / chaining value / counter)}. Written one clock after the issue
    // decision from the write register cw_* (or by the scrub); a read forwards cw_*.
    localparam P_ECODE = BLK_W;
    localparam P_FIRST = BLK_W + 8;
    localparam P_CBCE  = BLK_W + 9;
    localparam P_LASTX = BLK_W + 10;
    localparam P_TAIL  = BLK_W + 11;
    localparam P_REM   = P_TAIL + BLG;
    localparam P_SLOT  = P_REM + BL_W;
    localparam CTX_W   = P_SLOT + SLOT_W + 4;
    // LUT RAM, as when it was read with the tdest address (see docs/channels.md, Synthesis)
    (* ram_style = "distributed" *)
    reg  [CTX_W-1:0] ctx_ram [0:NCH-1];
    reg  [BLK_W-1:0] cout_ram [0:NCH-1];       // CBC encryption: the last result per channel
    reg              ctx_we;                   // this clock's decision writes a context word
    reg  [CH_W-1:0]  ctx_wa;
    reg  [CTX_W-1:0] ctx_wd;
    reg              cw_v;                     // write register: the word goes in next clock
    reg  [CH_W-1:0]  cw_a;
    reg  [CTX_W-1:0] cw_d;
    always @(posedge clk) begin
        if (rst) cw_v <= 1'b0;
        else     cw_v <= scrub || ctx_we;
        cw_a <= scrub ? scr_a[CH_W-1:0] : ctx_wa;
        cw_d <= scrub ? {CTX_W{1'b0}} : ctx_wd;
        if (cw_v) ctx_ram[cw_a] <= cw_d;
    end

    // ------------------------------------------------------------------ in-flight FIFO
    // meta: {ch, data, last, fb, tok, code, keep_n, rel, slot}; xor: the value the result
    // is XORed with (CBC decryption: previous ciphertext; CTR: the input block). An entry
    // is written one clock after its issue from the write register fw_* (its result
    // comes out of the core many clocks later).
    localparam MW = CH_W + 4 + 8 + (BLG + 1) + 1 + SLOT_W;
    reg  [MW-1:0]    meta_ram [0:(1 << IAW)-1];
    reg  [BLK_W-1:0] xor_ram  [0:(1 << IAW)-1];
    reg  [IAW-1:0]   wr_ptr, rd_ptr;       // write / read pointers
    reg  [IAW:0]     f_n;                      // entries in use (issued, result not taken)
    wire             f_full = f_n[IAW];
    reg  [IAW:0]     zleft;                    // entries aborted by the last zeroize

    // ------------------------------------------------------------------ core and its input buffer
    // Issued blocks go through a two-entry buffer (main sk_m*, spare sk_k*) into the core,
    // so the issue decision sees only sk_room (a register), not the core's s_axis_tready.
    wire             core_s_ready;
    wire             core_m_valid;
    wire             core_m_ready;
    wire [BLK_W-1:0] core_m_data;
    wire             core_m_err;
    reg              sk_mv, sk_kv;
    reg  [BLK_W-1:0] sk_md, sk_kd;
    reg  [SLOT_W-1:0] sk_ms, sk_ks;
    reg              sk_mdec, sk_kdec;
    wire             sk_room = !sk_kv;
    wire             issue_free = sk_room && !f_full && !scrub && !zeroize;

    // result side, used by the forwarding below (defined under "results")
    wire             take;
    wire             h_fb;
    wire [CH_W-1:0]  h_ch;
    wire [BLK_W-1:0] cout_wd;                  // the word written to cout_ram[h_ch]
    wire             cout_we = take && h_fb;   // ... this clock

    // ------------------------------------------------------------------ command decode (input side)
    // Everything that depends on the command alone is decoded before the head register.
    wire [CH_W-1:0] ic        = s_axis_cmd_tdest;
    wire [3:0]      i_op      = s_axis_cmd_tdata[CMD_OP_LSB +: CMD_OP_W];
    wire            i_cut     = s_axis_cmd_tdata[CMD_CUT_LSB];
    wire [7:0]      i_slotf   = s_axis_cmd_tdata[CMD_SLOT_LSB +: CMD_SLOT_W];
    wire [63:0]     i_aad_len = s_axis_cmd_tdata[CMD_AAD_LEN_LSB +: CMD_AAD_LEN_W];
    wire [63:0]     i_pay_len = s_axis_cmd_tdata[CMD_PAYLOAD_LEN_LSB +: CMD_PAYLOAD_LEN_W];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [127:0]    i_ivf     = s_axis_cmd_tdata[CMD_IV_LSB +: CMD_IV_W];   // TDEA: bytes 0..7
    /* verilator lint_on UNUSEDSIGNAL */
    wire i_known = TDEA ? (i_op >= OP_TDEA_ECB_ENC && i_op <= OP_TDEA_CBC_DEC) : (i_op <= OP_CBC_MAC);
    wire i_ctr   = !TDEA && (i_op == OP_CTR);
    // ECB / CBC decryption need the inverse cipher: refused (OP) by an encrypt-only core
    wire i_noinv = !TDEA && (DIRECTION == 0) && (i_op == OP_ECB_DEC || i_op == OP_CBC_DEC);
    wire i_fit   = ((i_pay_len >> LEN_W) == 64'd0);
    wire i_whole = (i_pay_len[BLG-1:0] == {BLG{1'b0}});
    reg  [7:0] i_err0;                         // OP, LENGTH, slot out of range (KEY)
    always @(*) begin
        i_err0 = ERR_OK;
        if (!i_known || i_noinv || (s_axis_cmd_tdata & CMD_RSVD_MASK) != {CMD_W{1'b0}} || i_cut
            || s_axis_cmd_tdata[CMD_TAG_BEAT_LSB])
            i_err0 = ERR_OP;
        else if (i_aad_len != 64'd0 || !i_fit || (!i_ctr && !i_whole))
            i_err0 = ERR_LENGTH;
        else if ((i_slotf >> SLOT_W) != 8'd0)
            i_err0 = ERR_KEY;
    end
    wire [BL_W-1:0] i_nblk = {1'b0, i_pay_len[LEN_W-1:BLG]} + {{(BL_W-1){1'b0}}, !i_whole};

    // ------------------------------------------------------------------ head registers
    // The command head (hc_*) and the data head (hd_*) hold the next command and beat.
    // The flags of their channel, and the context bits the decision needs (lastx, cbce),
    // are exact copies: read when the head loads, with every change of that clock
    // forwarded, and kept up to date while the head waits. The rest of the context word
    // (hd_cx) is read at the load too; a word written in the clock of the load (or while
    // the head waits) reaches it one clock later through the write register (use_cw).
    // The issue decision uses registers only.
    reg              hc_v;                     // command head
    reg  [CH_W-1:0]  hc_ch;
    reg  [3:0]       hc_op;
    reg  [SLOT_W-1:0] hc_slot;
    reg              hc_shi;                   // slot field fits SLOT_W
    reg  [7:0]       hc_err0;
    reg              hc_has_data;              // aad_len or payload_len nonzero
    reg              hc_empty;                 // payload_len zero
    reg  [BL_W-1:0]  hc_nblk;
    reg              hc_nblk1;                 // one block
    reg              hc_cbce;                  // CBC encryption / CBC-MAC
    reg  [BLG-1:0]   hc_tail;
    reg  [BLK_W-1:0] hc_iv;
    reg              hc_o;                     // open[hc_ch]
    reg              hc_ok0;                   // hc_err0 == OK
    reg              hc_us;                    // usable[hc_slot] (see kg_v)
    reg              hd_v;                     // data head
    reg  [CH_W-1:0]  hd_ch;
    reg              hd_last;
    reg  [BLK_W-1:0] hd_data;
    reg              hd_o, hd_dr, hd_z, hd_b;  // open, drop, zab, busy [hd_ch]
    reg              hd_lx, hd_cb;             // lastx, cbce of ctx_ram[hd_ch]
    reg  [CTX_W-1:0] hd_cx;                    // ctx_ram[hd_ch] (but see use_cw)
    reg              use_cw;                   // cw_d is hd_ch's newer word
    reg  [BLK_W-1:0] hd_co;                    // cout_ram[hd_ch], exact in every clock
    // The data input register (pr_*) ahead of the data head: a beat taken on s_axis
    // waits there one clock (or while the head is full), so the channel's last result
    // can be read from the block RAM with a registered address (pr_ch) and reach the
    // head as a register (hd_co) when the beat moves into the head.
    reg              pr_v;
    reg  [CH_W-1:0]  pr_ch;
    reg              pr_last;
    reg  [BLK_W-1:0] pr_data;

    // ------------------------------------------------------------------ command decision
    // hc_us is usable[hc_slot] of the clock before. usable changes only at a key load
    // (and zeroize, rst, which scrub): a command on the slot waits in the clock of the
    // load (key_valid) and in the clock after it (kg_v), so hc_us is exact when it goes.
    reg              kg_v;                     // a key load on kg_s in the clock before
    reg  [SLOT_W-1:0] kg_s;
    wire [SLOT_W-1:0] d_slot = hc_slot;
    wire [7:0] d_err  = !hc_ok0 ? hc_err0 : hc_us ? ERR_OK : ERR_KEY;
    wire       d_ok   = hc_ok0 && hc_us;
    // a status with no data: an empty packet, or a refused one with no data beats
    wire       d_tok  = d_ok ? hc_empty : !hc_has_data;
    wire       cmd_hold = (key_valid && hc_shi && (hc_slot == key_slot)) || (kg_v && (kg_s == hc_slot));
    wire       sel_cmd  = hc_v && !hc_o && !cmd_hold && !scrub && !zeroize;   // has the issue slot
    wire       cmd_go   = sel_cmd && (!d_tok || issue_free);
    wire       cmd_open = cmd_go && !d_tok;    // opens its channel (and writes its context)
    wire [CTX_W-1:0] cmd_wd = d_ok ? {hc_op, d_slot, hc_nblk, hc_tail, hc_nblk1, hc_cbce, 1'b1, ERR_OK, hc_iv}
                                   : {{(CTX_W-BLK_W-8){1'b0}}, d_err, {BLK_W{1'b0}}};
    assign s_axis_cmd_tready = (!hc_v || cmd_go) && !scrub && !zeroize && !rst;
    wire hc_ld = s_axis_cmd_tready;

    // ------------------------------------------------------------------ data decision
    wire [CTX_W-1:0] cx = use_cw ? cw_d : hd_cx;   // the head's context word
    wire [BLK_W-1:0] c_chain = cx[BLK_W-1:0];
    wire [7:0]       c_ecode = cx[P_ECODE +: 8];
    wire             c_first = cx[P_FIRST];
    wire [BLG-1:0]   c_tail  = cx[P_TAIL +: BLG];
    wire [BL_W-1:0]  c_rem   = cx[P_REM +: BL_W];
    wire [SLOT_W-1:0] c_slot = cx[P_SLOT +: SLOT_W];
    wire [3:0]       c_op    = cx[CTX_W-1 -: 4];
    wire [BLK_W-1:0] c_cout = hd_co;           // the channel's last result (a register)
    wire c_cbcd = TDEA ? (c_op == OP_TDEA_CBC_DEC) : (c_op == OP_CBC_DEC);
    wire c_mac  = !TDEA && (c_op == OP_CBC_MAC);
    wire c_ctr  = !TDEA && (c_op == OP_CTR);
    wire c_dec  = TDEA ? (c_op == OP_TDEA_ECB_DEC || c_op == OP_TDEA_CBC_DEC)
                       : (c_op == OP_ECB_DEC || c_op == OP_CBC_DEC);
    wire c_last2 = (c_rem == {{(BL_W-2){1'b0}}, 2'd2});    // the next beat must carry tlast
    wire c_mism  = (hd_last != hd_lx);
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

    // what the head beat does this clock (a command that can go has the issue slot first)
    wire d_can  = hd_v && hd_o && !sel_cmd && !scrub && !zeroize;
    wire d_drop = hd_dr;
    wire d_blk  = !d_drop && !c_mism;                         // a block to the core
    wire d_need = d_blk ? (issue_free && !(hd_cb && hd_b))
                        : (!hd_last || issue_free);           // a status token at tlast
    wire d_go   = d_can && d_need;
    // the head loads the input register's content (a beat or nothing) when it is empty
    // or its beat goes; the input register takes a beat when it is empty or moves on
    wire hd_ld = (!hd_v || d_go) && !scrub && !zeroize && !rst;
    assign s_axis_tready = (!pr_v || hd_ld) && !scrub && !zeroize && !rst;
    // the head channel's flags after this clock's beat (the p_* update)
    wire n_o  = !hd_last;
    wire n_dr = (d_drop || c_mism) && !hd_last;
    wire n_z  = ((d_drop || c_mism) && hd_last) ? 1'b0 : hd_z;
    wire n_b  = d_blk && hd_cb;

    // ------------------------------------------------------------------ issue
    reg  [MW-1:0]    f_meta;
    reg  [BLK_W-1:0] f_xor;
    reg  [CH_W-1:0]  f_ch;
    reg              f_data, f_last, f_fb, f_tok, f_rel;
    reg  [7:0]       f_code;
    reg  [BLG:0]     f_keep;
    reg  [SLOT_W-1:0] f_slot;
    reg              issue;                    // a block or status token to the core
    reg  [BLK_W-1:0] n_data;                   // ... its input block, slot, direction
    reg  [SLOT_W-1:0] n_slot;
    reg              n_dec;
    wire             inc_use = cmd_open && d_ok;   // a packet opens on d_slot
    always @(*) begin
        n_slot = sel_cmd ? d_slot : c_slot;
        n_dec  = !sel_cmd && d_blk && c_dec;
        n_data = (sel_cmd || !d_blk) ? {BLK_W{1'b0}}
               : hd_cb ? (hd_data ^ (c_first ? c_chain : c_cout))
               : c_ctr ? c_chain : hd_data;
    end
    // The values written (FIFO entry, context word) follow sel_cmd and the head's flags
    // only; issue and ctx_we add the go decisions (room in the buffer and the FIFO). The
    // values matter only when issue / ctx_we is set, so the wide write registers do not
    // wait for the room checks.
    always @(*) begin
        issue = 1'b0;
        f_ch = hd_ch; f_data = 1'b0; f_last = 1'b1; f_fb = 1'b0; f_tok = 1'b1; f_rel = 1'b0;
        f_code = ERR_OK; f_keep = {(BLG+1){1'b0}}; f_slot = c_slot; f_xor = {BLK_W{1'b0}};
        ctx_we = 1'b0; ctx_wa = hd_ch; ctx_wd = cx;
        if (sel_cmd) begin
            ctx_wa = hc_ch; ctx_wd = cmd_wd;
            f_ch = hc_ch; f_code = d_err;
            if (d_tok) issue  = cmd_go;            // status now: through the core, in order
            else       ctx_we = cmd_go;            // opens (refused: drops its data to tlast)
        end else if (d_drop || c_mism) begin
            f_code = d_drop ? (hd_z ? ERR_ZEROIZED : c_ecode) : ERR_FRAMING;
            f_rel  = d_drop ? (!hd_z && c_ecode == ERR_FRAMING) : 1'b1;
            ctx_wd = {cx[CTX_W-1:P_ECODE+8], ERR_FRAMING, c_chain};
            if (hd_last)      issue  = d_go;       // the packet's status
            else if (!d_drop) ctx_we = d_go;       // tlast missing: drop to tlast
        end else begin
            issue = d_go;
            f_tok = 1'b0; f_data = !c_mac; f_last = hd_lx; f_fb = hd_cb; f_rel = hd_lx;
            f_keep = (hd_lx && c_tail != {BLG{1'b0}}) ? {1'b0, c_tail} : {1'b1, {BLG{1'b0}}};
            f_xor = c_cbcd ? c_chain : c_ctr ? hd_data : {BLK_W{1'b0}};
            ctx_we = d_go;
            ctx_wd = {c_op, c_slot, c_rem - 1'b1, c_tail, c_last2, hd_cb, 1'b0, ERR_OK,
                      c_cbcd ? hd_data : c_ctr ? c_ctr_next[BLK_W-1:0] : c_chain};
        end
        f_meta = {f_ch, f_data, f_last, f_fb, f_tok, f_code, f_keep, f_rel, f_slot};
    end

    reg              fw_v;                     // FIFO write register
    reg  [IAW-1:0]   fw_a;
    reg  [MW-1:0]    fw_meta;
    reg  [BLK_W-1:0] fw_xor;
    always @(posedge clk) begin
        if (rst) fw_v <= 1'b0;
        else     fw_v <= issue;
        fw_a <= wr_ptr; fw_meta <= f_meta; fw_xor <= f_xor;
        if (fw_v) meta_ram[fw_a] <= fw_meta;
        if (fw_v) xor_ram[fw_a] <= fw_xor;
        else if (scrub) xor_ram[scr_a[IAW-1:0]] <= {BLK_W{1'b0}};
    end

    // the core's input buffer
    wire sk_mt = sk_mv && core_s_ready;        // the core takes the main entry
    always @(posedge clk) begin
        if (rst) begin
            sk_mv <= 1'b0; sk_kv <= 1'b0;
        end else if (sk_kv) begin
            if (sk_mt) sk_kv <= 1'b0;          // the spare moves up (no issue: no room)
        end else if (!sk_mv || sk_mt) begin
            sk_mv <= issue;
        end else if (issue) begin
            sk_kv <= 1'b1;
        end
        if (sk_kv ? sk_mt : (!sk_mv || sk_mt)) begin
            sk_md   <= sk_kv ? sk_kd : n_data;
            sk_ms   <= sk_kv ? sk_ks : n_slot;
            sk_mdec <= sk_kv ? sk_kdec : n_dec;
        end
        if (!sk_kv) begin
            sk_kd <= n_data; sk_ks <= n_slot; sk_kdec <= n_dec;
        end
    end

    // ------------------------------------------------------------------ head register loads
    // What a head loading channel t (the input register's beat) this clock copies: this
    // clock's decision, then the pending updates (p_*, cw_*), then the flag vectors and
    // RAMs.
    wire [CH_W-1:0]  t    = pr_ch;
    wire             t_c  = cmd_open && (hc_ch == t);     // the command opens t
    wire             t_d  = d_go && (hd_ch == t);         // the head beat of t goes
    wire             t_p  = p_v && (p_ch == t);
    wire [CTX_W-1:0] ld_cx = (cw_v && cw_a == t) ? cw_d : ctx_ram[t];
    wire ld_o  = t_c ? 1'b1 : t_d ? n_o : t_p ? p_o : open[t];
    wire ld_dr = t_c ? !d_ok : t_d ? n_dr : t_p ? p_dr : drop[t];
    wire ld_z  = t_c ? 1'b0 : t_d ? n_z : t_p ? p_z : zab[t];
    wire ld_b  = (t_d && n_b) || (!(cout_we && h_ch == t) && ((t_p && p_b) || busy[t]));
    wire ld_lx = t_c ? (d_ok && hc_nblk1) : (t_d && d_blk) ? c_last2 : ld_cx[P_LASTX];
    wire ld_cb = t_c ? (d_ok && hc_cbce)  : t_d ? hd_cb : ld_cx[P_CBCE];
    wire ic_c  = cmd_open && (hc_ch == ic);
    wire ic_d  = d_go && (hd_ch == ic);
    wire ic_p  = p_v && (p_ch == ic);
    wire ic_o  = ic_c ? 1'b1 : ic_d ? n_o : ic_p ? p_o : open[ic];
    wire hd_cmd = cmd_open && (hc_ch == hd_ch);   // the command opens the waiting beat's channel
    always @(posedge clk) begin
        if (rst) begin
            hc_v <= 1'b0; hd_v <= 1'b0; use_cw <= 1'b0;
            hd_o <= 1'b0; hd_dr <= 1'b0; hd_z <= 1'b0; hd_b <= 1'b0; hd_lx <= 1'b0; hd_cb <= 1'b0;
            hd_cx <= {CTX_W{1'b0}};
        end else begin
            // command head
            if (hc_ld) begin
                hc_v <= s_axis_cmd_tvalid;
                hc_o <= ic_o;
            end else if (d_go && hd_last && hd_ch == hc_ch) begin
                hc_o <= 1'b0;
            end
            // data head
            if (hd_ld) begin
                hd_v <= pr_v;
                hd_o <= ld_o; hd_dr <= ld_dr; hd_z <= ld_z; hd_b <= ld_b;
                hd_lx <= ld_lx; hd_cb <= ld_cb;
                hd_cx <= ld_cx;
                use_cw <= ctx_we && (ctx_wa == t);
            end else begin
                hd_cx <= cx; use_cw <= 1'b0;
                if (zeroize) begin
                    hd_dr <= hd_dr || hd_o; hd_z <= hd_z || hd_o;
                    hd_cx <= {CTX_W{1'b0}};
                end else if (hd_cmd) begin
                    hd_o <= 1'b1; hd_dr <= !d_ok; hd_z <= 1'b0;
                    hd_lx <= d_ok && hc_nblk1; hd_cb <= d_ok && hc_cbce; use_cw <= 1'b1;
                end
                if (cout_we && h_ch == hd_ch) hd_b <= 1'b0;
            end
        end
    end
    always @(posedge clk) begin
        hc_us <= usable[hc_ld ? i_slotf[SLOT_W-1:0] : hc_slot];
        if (rst) kg_v <= 1'b0;
        else     kg_v <= key_go;
        kg_s <= key_slot;
    end
    always @(posedge clk) begin
        if (hc_ld) begin
            hc_ch <= ic; hc_op <= i_op; hc_slot <= i_slotf[SLOT_W-1:0];
            hc_shi <= ((i_slotf >> SLOT_W) == 8'd0); hc_err0 <= i_err0;
            hc_ok0 <= (i_err0 == ERR_OK);
            // (tag_beat, refused with OP, still brings its tag beat)
            hc_has_data <= (i_aad_len != 64'd0) || (i_pay_len != 64'd0) || s_axis_cmd_tdata[CMD_TAG_BEAT_LSB];
            hc_empty <= (i_pay_len == 64'd0);
            hc_nblk <= i_nblk; hc_nblk1 <= (i_nblk == {{(BL_W-1){1'b0}}, 1'b1});
            hc_cbce <= TDEA ? (i_op == OP_TDEA_CBC_ENC) : (i_op == OP_CBC_ENC || i_op == OP_CBC_MAC);
            hc_tail <= i_pay_len[BLG-1:0];
            hc_iv <= i_ivf[BLK_W-1:0];
        end
        if (hd_ld) begin
            hd_ch <= t; hd_last <= pr_last; hd_data <= pr_data;
        end
    end
    // the data input register
    always @(posedge clk) begin
        if (rst) pr_v <= 1'b0;
        else if (s_axis_tready) pr_v <= s_axis_tvalid;
        if (s_axis_tready) begin
            pr_ch <= s_axis_tdest; pr_last <= s_axis_tlast; pr_data <= s_axis_tdata;
        end
    end
    // The last result of the head's channel (CBC encryption). cout_ram is read with the
    // input register's channel as its address (pr_cout: a block-RAM read whose address
    // register is pr_ch, current with every write up to this clock); the head copies it
    // when it loads. A result written in that clock (cout_ram[h_ch] at the next edge) is
    // forwarded, and so is every result of the head's channel while the head waits: its
    // busy copy (hd_b) clears in the clock the result is written, so hd_co is the word
    // the RAM holds whenever the decision can use it. rst / zeroize clear it (the RAM is
    // scrubbed then, and no beat moves into the head during the scrub).
    wire [BLK_W-1:0] pr_cout = cout_ram[pr_ch];
    always @(posedge clk) begin
        if (rst || zeroize) hd_co <= {BLK_W{1'b0}};
        else if (hd_ld) hd_co <= (cout_we && h_ch == t) ? cout_wd : pr_cout;
        else if (cout_we && h_ch == hd_ch) hd_co <= cout_wd;
    end
    // ------------------------------------------------------------------ results
    // The FIFO's head entry is a register (h_meta, h_xor): at a result it loads the next
    // entry (from the RAM at rd_nx = rd_ptr + 1, or from fw_* when it is written now);
    // while it waits, an entry written to rd_ptr goes in from fw_*.
    reg  [IAW-1:0]   rd_nx;
    reg  [MW-1:0]    h_meta;
    reg  [BLK_W-1:0] h_xor;
    always @(posedge clk) begin
        if (take) begin
            h_meta <= (fw_v && fw_a == rd_nx) ? fw_meta : meta_ram[rd_nx];
            h_xor  <= (fw_v && fw_a == rd_nx) ? fw_xor  : xor_ram[rd_nx];
        end else if (fw_v && fw_a == rd_ptr) begin
            h_meta <= fw_meta;
            h_xor  <= fw_xor;
        end
        if (rst || zeroize) h_xor <= {BLK_W{1'b0}};
    end
    wire [SLOT_W-1:0] h_slot = h_meta[SLOT_W-1:0];
    wire             h_rel  = h_meta[SLOT_W];
    wire [BLG:0]     h_keep = h_meta[SLOT_W+1 +: BLG+1];
    wire [7:0]       h_code = h_meta[SLOT_W+BLG+2 +: 8];
    wire             h_tok  = h_meta[SLOT_W+BLG+10];
    assign           h_fb   = h_meta[SLOT_W+BLG+11];
    wire             h_last = h_meta[SLOT_W+BLG+12];
    wire             h_data = h_meta[SLOT_W+BLG+13];
    assign           h_ch   = h_meta[MW-1 -: CH_W];
    wire             h_ab   = (zleft != {(IAW+1){1'b0}});       // aborted by a zeroize
    wire             h_bad  = h_ab || (core_m_err && !h_tok);
    assign core_m_ready = (!m_axis_tvalid || m_axis_tready) && (!m_axis_sts_tvalid || m_axis_sts_tready);
    assign take = core_m_valid && core_m_ready;
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
    assign           cout_wd = h_bad ? {BLK_W{1'b0}} : core_m_data;

    always @(posedge clk) begin
        if (scrub) cout_ram[scr_a[CH_W-1:0]] <= {BLK_W{1'b0}};
        else if (cout_we) cout_ram[h_ch] <= cout_wd;
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
    wire [NCH-1:0] p_dec = p_v ? ({{(NCH-1){1'b0}}, 1'b1} << p_ch) : {NCH{1'b0}};
    wire [NCH-1:0] o_e = (open & ~p_dec) | (p_dec & {NCH{p_o}});   // with p_* applied
    wire [NCH-1:0] d_e = (drop & ~p_dec) | (p_dec & {NCH{p_dr}});
    wire [NCH-1:0] z_e = (zab  & ~p_dec) | (p_dec & {NCH{p_z}});
    wire [NCH-1:0] b_clr = cout_we ? ({{(NCH-1){1'b0}}, 1'b1} << h_ch) : {NCH{1'b0}};
    always @(posedge clk) begin
        if (rst) begin
            wr_ptr <= {IAW{1'b0}}; rd_ptr <= {IAW{1'b0}}; zleft <= {(IAW+1){1'b0}};
            rd_nx <= {{(IAW-1){1'b0}}, 1'b1};
            f_n <= {(IAW+1){1'b0}}; p_v <= 1'b0;
            open <= {NCH{1'b0}}; drop <= {NCH{1'b0}}; zab <= {NCH{1'b0}}; busy <= {NCH{1'b0}};
        end else begin
            if (issue) wr_ptr <= wr_ptr + 1'b1;
            if (take)  rd_ptr <= rd_nx;
            if (take)  rd_nx  <= rd_nx + 1'b1;
            if (issue && !take) f_n <= f_n + 1'b1;
            else if (take && !issue) f_n <= f_n - 1'b1;
            if (zeroize) zleft <= f_n - {{IAW{1'b0}}, take};
            else if (take && h_ab) zleft <= zleft - 1'b1;
            // flags: this clock's decision into p_*, p_* into the vectors
            p_v  <= cmd_open || d_go;
            p_ch <= sel_cmd ? hc_ch : hd_ch;      // (used only with p_v)
            p_o  <= sel_cmd ? 1'b1 : n_o;
            p_dr <= sel_cmd ? !d_ok : n_dr;
            p_z  <= sel_cmd ? 1'b0 : n_z;
            p_b  <= !sel_cmd && n_b;
            open <= o_e;
            drop <= zeroize ? (d_e | o_e) : d_e;
            zab  <= zeroize ? (z_e | o_e) : z_e;
            // busy: set at issue, cleared when the result leaves the core
            busy <= (busy | (p_b ? p_dec : {NCH{1'b0}})) & ~b_clr;
        end
    end

    // per-slot packet counts (key_ready). A packet opening goes into the count one clock
    // later, through iu_*; the registered idle flag counts the pending one too.
    reg              iu_v;
    reg  [SLOT_W-1:0] iu_s;
    always @(posedge clk) begin
        if (rst || zeroize) iu_v <= 1'b0;
        else                iu_v <= inc_use;
        iu_s <= d_slot;
    end
    genvar s;
    generate
        for (s = 0; s < NSLOT; s = s + 1) begin : g_use
            wire up = iu_v && (iu_s == s);
            wire dn = dec_use && (h_slot == s);
            reg  [CH_W:0] cnt;
            wire [CH_W:0] cnt_n = (up && !dn) ? cnt + 1'b1 : (dn && !up) ? cnt - 1'b1 : cnt;
            reg           idle;                // cnt == 0 and no increment pending
            always @(posedge clk) begin
                if (rst || zeroize) begin
                    cnt <= {(CH_W+1){1'b0}}; idle <= 1'b1;
                end else begin
                    cnt  <= cnt_n;
                    idle <= (cnt_n == {(CH_W+1){1'b0}}) && !(inc_use && d_slot == s);
                end
            end
            assign slot_idle[s] = idle;
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
                .s_axis_tvalid(sk_mv), .s_axis_tready(core_s_ready),
                .s_axis_tdata(sk_md), .s_axis_tuser({1'b0, sk_ms, sk_mdec}),
                .m_axis_tvalid(core_m_valid), .m_axis_tready(core_m_ready),
                .m_axis_tdata(core_m_data), .m_axis_tuser(m_user));
            assign core_m_err = m_user[0];
        end else begin : g_aes
            /* verilator lint_off UNUSEDSIGNAL */
            wire [1:0] m_user;
            /* verilator lint_on UNUSEDSIGNAL */
            aes_pipe #(.SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .TAG_W(1), .NR_MAX(NR_MAX),
                       .DIRECTION(DIRECTION), .ROUND_REGS(ROUND_REGS)) u_core (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_valid && key_slot_idle), .key_ready(core_key_ready),
                .key_slot(key_slot), .key_bytes(key_bytes), .key_data(key_data),
                .s_axis_tvalid(sk_mv), .s_axis_tready(core_s_ready),
                .s_axis_tdata(sk_md), .s_axis_tuser({1'b0, sk_ms, sk_mdec}),
                .m_axis_tvalid(core_m_valid), .m_axis_tready(core_m_ready),
                .m_axis_tdata(core_m_data), .m_axis_tuser(m_user));
            assign core_m_err = m_user[0];
        end
    endgenerate
endmodule
`default_nettype wire
