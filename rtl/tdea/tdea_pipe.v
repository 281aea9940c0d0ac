// SPDX-License-Identifier: Apache-2.0
// tdea_pipe: fully pipelined TDEA (Triple DES, NIST SP 800-67) block core, one 64-bit
// block per clock (see docs/tdea.md; interface style of docs/cores.md).
//
// 48 DES rounds (tdea_pipe_stage), each its own pipeline stage: E_K1, D_K2, E_K3 for
// encryption, D_K3, E_K2, D_K1 for decryption, chosen per block. IP before round 0 and
// IP^-1 after round 47 are wiring (tdea_perm); between the three DES operations IP^-1
// and IP cancel, so the rounds run on without them. An input register holds IP(block);
// every stage register holds its round's {L, R} and f, and the next stage does the
// L xor f of the previous round in the same XOR as its own E(R) xor K (tdea_pipe_stage),
// so a round is register -> XOR -> S-boxes -> register. A result register after round
// 47 takes its L xor f (zero unless err = 0) before the output buffer. The subkey
// memory of stage J (indexed by {slot, dec}) holds the encryption subkey J and the
// decryption subkey 47 - J, read one clock ahead into a subkey register. The key loader
// (tdea_keysched) computes the 48 subkeys once per key load and writes each into its
// two memories, so the key may change between any two blocks.
//
// The pipeline runs free: no clock enable, no path from m_axis_tready to any pipeline
// register or to s_axis_tready. A block is admitted only while a credit is free: the
// output buffer (pipe_obuf, shared with aes_pipe) has room for every block in flight, so
// a stalled consumer never loses a block and a ready one sees one block per clock.
//
// Parameters
//   SLOT_W   : key-slot index width, 2**SLOT_W key slots (>= 1, default 1)
//   TAG_W    : sideband tag width (>= 1, default 8)
//   RND_REGS : registers per DES round, 1 or 2 (default 1): 2 adds a register after
//              the XOR, before the S-boxes
// Ports (docs/cores.md, with 64-bit blocks and a 192-bit key port)
//   clk, rst        : clock; synchronous active-high reset (clears data, tags, slots,
//                     credits)
//   zeroize         : one-cycle pulse: invalidates every slot, aborts a key load,
//                     scrubs all subkey memories and the output buffer's RAM; blocks
//                     still in the pipeline or buffered (except the one in the output
//                     register) come out with err = 1
//   key_valid/key_ready/key_slot/key_bytes/key_data : key-load handshake; key_bytes 24
//                     (keying option 1: K1, K2, K3 in bytes 0..7, 8..15, 16..23) or 16
//                     (keying option 2: K1, K2; K3 = K1); any other length makes the
//                     slot invalid (its blocks come out with err = 1)
//   s_axis_tvalid/tready/tdata/tuser  : input blocks, tuser = {tag, slot, dec}
//   m_axis_tvalid/tready/tdata/tuser  : output blocks, tuser = {tag, err}; tdata is zero
//                     when err = 1
// Timing
//   Latency: an input accepted at rising edge E is presented on m_axis after edge
//   E + 48 * RND_REGS + 2, i.e. 48 * RND_REGS + 3 clocks in the counting of docs/cores.md
//   (input register, 48 * RND_REGS round registers, result register, the buffer's output
//   register).
//   Throughput: one block per clock while m_axis_tready is high.
//   Backpressure: s_axis_tready is a register (credit count below 2**DAW + 1, or 2**DAW
//   after a cycle without an accept: rtl/common/pipe_credits.v; DAW =
//   clog2(48 * RND_REGS + 4), i.e. 65 or 129 blocks accepted and not yet taken), except
//   that a block is held off while its slot is being loaded or requested (key_valid with
//   key_slot equal to the block's slot).
//   Key load: key_ready is low while a load or scrub runs, during zeroize and while a
//   block of the requested slot is in the pipeline (any register with a round ahead of
//   it: the input register and every stage register but round 47's), and for three
//   clocks after the last such block has left them (per-slot counters of the blocks in
//   those registers, from registered increment and decrement flags), and in the clock
//   after one in which a block of that slot was offered on s_axis while key_valid did not
//   request its slot (whether or not it was taken). A legal load keeps key_ready low for 50
//   clocks after the handshake (the registered handshake, 48 subkeys, then 1 clock of
//   write pipeline);
//   after rst or zeroize the scrub takes 2**(SLOT_W+1) clocks.
// Left behind: the input, stage and result registers keep the state (and f) of the last
//   block that passed them until the next block, zeroize or rst (the input register: of
//   the last block offered, taken or not); a stage's subkey
//   register the last subkey it read (zero after the scrub); the output buffer's RAM the
//   last results that went through it until they are overwritten, or until zeroize /
//   rst wipes it; the write pipeline's data register the last subkey written (zero after
//   the scrub); the registered handshake's key register holds key_data for the clock
//   after a cycle with key_valid only (zero otherwise, and after zeroize / rst).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module tdea_pipe #(
    parameter SLOT_W   = 1,
    parameter TAG_W    = 8,
    parameter RND_REGS = 1
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  zeroize,
    input  wire                  key_valid,
    output wire                  key_ready,
    input  wire [SLOT_W-1:0]     key_slot,
    input  wire [5:0]            key_bytes,
    input  wire [191:0]          key_data,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire [63:0]           s_axis_tdata,
    input  wire [TAG_W+SLOT_W:0] s_axis_tuser,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire [63:0]           m_axis_tdata,
    output wire [TAG_W:0]        m_axis_tuser
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SLOT_W >= 1, tdea_pipe_SLOT_W_below_1, "tdea_pipe: SLOT_W must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, tdea_pipe_TAG_W_below_1, "tdea_pipe: TAG_W must be >= 1")
        `AESIP_CHECK(RND_REGS == 1 || RND_REGS == 2, tdea_pipe_RND_REGS_not_1_or_2,
                     "tdea_pipe: RND_REGS must be 1 or 2")
        // the output buffer's wipe (2**DAW clocks after zeroize) ends before a block with
        // a new key (load >= 48 clocks, then PN clocks in the pipeline) can reach it
        `AESIP_CHECK((1 << DAW) >= PN + 1 && (1 << DAW) <= 48 + PN, tdea_pipe_DAW_internal,
                     "tdea_pipe: internal output-buffer depth out of range")
    endgenerate

    localparam SBW   = TAG_W + SLOT_W + 2;
    localparam NSLOT = 1 << SLOT_W;
    localparam AW    = SLOT_W + 1;
    localparam NST   = 48;
    localparam PN    = NST * RND_REGS + 3;       // latency: registers up to the output register
    localparam DAW   = (PN + 1 <= 64) ? 6 : 7;   // clog2(PN + 1)
    localparam CW    = DAW + 2;                  // credit counter width
    localparam [CW-1:0] CAP = (1 << DAW) + 1;    // blocks accepted and not yet taken

    reg [NSLOT-1:0] slot_ok;

    wire [NST-1:0]       st_v;
    wire [SBW*NST-1:0]   st_sb;
    wire [64*NST-1:0]    st_lr;
    wire [32*NST-1:0]    st_f;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [AW*NST-1:0]    st_nx;            // subkey read addresses one clock ahead (last: unused)
    /* verilator lint_on UNUSEDSIGNAL */

    // input side
    wire [SLOT_W-1:0] in_slot = s_axis_tuser[SLOT_W:1];
    wire [TAG_W-1:0]  in_tag  = s_axis_tuser[TAG_W+SLOT_W:SLOT_W+1];
    wire              in_dec  = s_axis_tuser[0];

    reg               ld_busy;
    reg [SLOT_W-1:0]  ld_slot;
    wire in_loading = ld_busy && (in_slot == ld_slot);
    wire in_keyreq  = key_valid && (key_slot == in_slot);
    wire          room;               // a credit is free (pipe_credits)
    wire          out_taken;
    assign s_axis_tready = room && !in_loading && !in_keyreq;
    wire in_acc = s_axis_tvalid && s_axis_tready;
    // credits (rtl/common/pipe_credits.v, shared with aes_pipe): room = blocks accepted and not yet taken < CAP
    pipe_credits #(.CW(CW), .CAP(CAP)) u_credits (
        .clk(clk), .rst(rst), .in_acc(in_acc), .out_taken(out_taken),
        .room(room)
    );
    wire in_err = !slot_ok[in_slot] || zeroize;
    wire [SBW-1:0] in_sb = {in_tag, in_slot, in_dec, in_err};
    wire [63:0] in_lr;
    tdea_perm #(.FINAL(0)) u_ip (.in(s_axis_tdata), .out(in_lr));

    // key loader and scrubber (write side of the stage memories)
    /* verilator lint_off UNUSEDSIGNAL */
    wire        x_valid;                 // (the tokens below stand for x_valid and x_idx)
    wire [5:0]  x_idx;
    /* verilator lint_on UNUSEDSIGNAL */
    reg         ks_start;                // the loader's start (registered handshake, below)
    wire [47:0] x_data;
    reg          scrub_busy;
    reg [AW-1:0] scrub_addr;
    // Write pipeline: the loader's subkey (PC-2 of its C/D registers, wiring) or the
    // scrub's zero goes into one shared data register (k2_data) while each memory
    // registers its own write enable and address (from its own flip-flops of the token
    // chains tok_e / tok_d below), so no decode lies on the wires to the 48 memories. A write lands one
    // clock after the loader presents it; the slot becomes valid with its last write
    // (k2_done). Zeroize drops the load's write presented in its cycle (the scrub behind
    // it clears every entry anyway).
    // Which memory takes the subkey presented now is not decoded from the loader's index
    // (x_idx == M, a 6-bit compare per memory fed from one place: ECP5 critical path at
    // 142.4 MHz, seed 3) but carried by two one-hot token chains that follow the loader,
    // one flip-flop per memory and direction: tok_e[M] = (x_valid && x_idx == M) and
    // tok_d[M] = (x_valid && x_idx == 47 - M), the same values as registers. The loader
    // presents index i in the i-th cycle after its start edge, one per clock (ks_start
    // at the edge before; rst and zeroize stop it), so tok_e starts at 0 and moves up one
    // memory per clock, tok_d starts at 47 and moves down; each memory's enable reads its
    // own two tokens, and each token comes from its neighbour's.
    reg [NST-1:0] tok_e, tok_d;
    always @(posedge clk) begin
        if (rst || zeroize) begin
            tok_e <= {NST{1'b0}};
            tok_d <= {NST{1'b0}};
        end else begin
            tok_e <= {tok_e[NST-2:0], ks_start};
            tok_d <= {ks_start, tok_d[NST-1:1]};
        end
    end
    reg          k2_done;
    reg [47:0]   k2_data;
    always @(posedge clk) begin
        if (rst || zeroize) k2_done <= 1'b0;
        else                k2_done <= tok_e[NST-1];
    end
    always @(posedge clk) k2_data <= scrub_busy ? 48'd0 : x_data;

    // write port of the subkey memory of stage M (M = 0 .. 47): encryption subkey M at
    // {slot, 0}, decryption subkey 47 - M at {slot, 1}
    reg [NST-1:0]    mem_we;
    reg [AW*NST-1:0] mem_wa;
    genvar j;
    generate
        for (j = 0; j < NST; j = j + 1) begin : g_wr
            always @(posedge clk) begin
                mem_we[j] <= scrub_busy || (!zeroize && (tok_e[j] || tok_d[j]));
                mem_wa[AW*j +: AW] <= scrub_busy ? scrub_addr : {ld_slot, !tok_e[j]};
            end
        end
    endgenerate

    // input register: {L0, R0} = IP(block), so round 0 starts from registers like every
    // other round (its subkey is read one clock ahead at the input's address). Its
    // sideband and data load with every offered block (s_axis_tvalid), accepted or not;
    // its valid bit is the accept itself, registered (i_v). So the accept (credits, the
    // key-load hold-off) reaches one flip-flop here, not the 64 + SBW enables (room ->
    // s_axis_tready -> the accept -> those enables was the ECP5 critical path at 162.1
    // MHz, seed 2). A block offered and not accepted is offered again (AXI4-Stream) and
    // overwrites itself; it goes no further, since stage 0 loads only with i_v.
    reg            i_v;
    /* verilator lint_off UNUSEDSIGNAL */
    wire           i_off;                  // a block was offered (i_v: and accepted)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [SBW-1:0] i_sb;
    wire [63:0]    i_lr;
    always @(posedge clk) begin
        if (rst) i_v <= 1'b0;
        else     i_v <= in_acc;
    end
    tdea_blk_reg #(.SBW(SBW), .DW(64)) u_ireg (
        .clk(clk), .rst(rst), .kill(zeroize), .in_valid(s_axis_tvalid), .in_sb(in_sb), .in_d(in_lr),
        .out_valid(i_off), .out_sb(i_sb), .out_d(i_lr));

    generate
        for (j = 0; j < NST; j = j + 1) begin : g_st
            wire           pv;
            wire [SBW-1:0] psb;
            wire [AW-1:0]  pre;
            wire [63:0]    plr;
            wire [31:0]    pf;
            if (j == 0) begin : g_first
                assign pv  = i_v;
                assign psb = i_sb;
                assign pre = {in_slot, in_dec};
                assign plr = i_lr;
                assign pf  = 32'd0;
            end else begin : g_next
                assign pv  = st_v[j-1];
                assign psb = st_sb[SBW*(j-1) +: SBW];
                assign pre = st_nx[AW*(j-1) +: AW];
                assign plr = st_lr[64*(j-1) +: 64];
                assign pf  = st_f[32*(j-1) +: 32];
            end
            tdea_pipe_stage #(.SLOT_W(SLOT_W), .TAG_W(TAG_W), .RND_REGS(RND_REGS), .J(j)) u_stage (
                .clk(clk), .rst(rst), .kill(zeroize), .pre_addr(pre),
                .in_valid(pv), .in_sb(psb), .in_lr(plr), .in_f(pf), .nx_addr(st_nx[AW*j +: AW]),
                .out_valid(st_v[j]), .out_sb(st_sb[SBW*j +: SBW]), .out_lr(st_lr[64*j +: 64]),
                .out_f(st_f[32*j +: 32]),
                .we(mem_we[j]), .waddr(mem_wa[AW*j +: AW]), .wdata(k2_data));
        end
    endgenerate

    // result register: round 47's result {L47 xor f47, R47} (the round does not swap),
    // zero unless the block is valid with err = 0
    /* verilator lint_off UNUSEDSIGNAL */
    wire [SBW-1:0] l_sb = st_sb[SBW*(NST-1) +: SBW];     // (dec not needed)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [63:0]    l_lr = st_lr[64*(NST-1) +: 64];
    wire [63:0]    l_res = {l_lr[63:32] ^ st_f[32*(NST-1) +: 32], l_lr[31:0]};
    reg              r_v, r_err;
    reg [TAG_W-1:0]  r_tag;
    reg [63:0]       r_d;
    always @(posedge clk) begin
        if (rst) begin
            r_v   <= 1'b0;
            r_err <= 1'b0;
            r_tag <= {TAG_W{1'b0}};
            r_d   <= 64'd0;
        end else begin
            r_v <= st_v[NST-1];
            if (st_v[NST-1]) begin
                r_err <= l_sb[0];
                r_tag <= l_sb[SLOT_W+2 +: TAG_W];
            end
            // zero in every clock without a block (pipe_obuf's input contract: it does
            // not gate the data with the valid bit), with err, and at zeroize
            r_d <= (st_v[NST-1] && !l_sb[0] && !zeroize) ? l_res : 64'd0;
            if (zeroize) r_err <= 1'b1;
        end
    end

    // output buffer: the result register (zero when err) after IP^-1 (wiring)
    wire [63:0] fp_out;
    tdea_perm #(.FINAL(1)) u_fp (.in(r_d), .out(fp_out));
    /* verilator lint_off UNUSEDSIGNAL */
    wire obuf_wiping, obuf_wiping_nx;
    /* verilator lint_on UNUSEDSIGNAL */
    pipe_obuf #(.DW(64), .DAW(DAW), .TAG_W(TAG_W)) u_obuf (
        .clk(clk), .rst(rst), .kill(zeroize),
        .in_valid(r_v), .in_err(r_err), .in_tag(r_tag), .in_data(fp_out),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
        .m_axis_tdata(m_axis_tdata), .m_axis_tuser(m_axis_tuser),
        .taken(out_taken), .wiping(obuf_wiping), .wiping_nx(obuf_wiping_nx));

    // Slots in use: inflight[s] is set while a block of slot s may be in a register with a
    // round ahead of it (set A: the input register, every stage's middle register, every
    // stage's output register but round 47's), i.e. while a subkey of slot s may still be
    // read for it. It is computed from registers only, without the OR over the 48 stages
    // (that OR was the ECP5 critical path at 131.8 MHz), and registered within kr_q:
    //   inc_q[s] <= block of slot s in the input register  (it entered A one clock before)
    //   dec_q[s] <= block of slot s in round 47's output register (it left A one clock before)
    //   cnt[s]   <= cnt[s] + inc_q[s] - dec_q[s]
    //   inflight[s] <= cnt[s] != 0 | inc_q[s] | (input register: slot s)
    //                  | (offering slot s, no key request for slot s: every accept is one)
    // Ordering proof. Let N_t(s) be the number of blocks of slot s in A in cycle t, A_t those
    // that entered A at edge t (in the input register in cycle t: accepted in cycle t - 1),
    // D_t those that left A at edge t (in round 47's output register in cycle t: a block
    // leaves A only there, and every block gets there 48 * RND_REGS clocks after entering
    // A: the pipeline runs free, zeroize sets err but drops no block, rst clears every
    // register, cnt included), so N_t = N_(t-1) + A_t - D_t. inc_q and dec_q in cycle t hold A_(t-1) and D_(t-1), so
    // cnt in cycle t is N_(t-2) (all zero after rst, as N). D_t >= 0 gives
    //   N_t <= N_(t-3) + A_(t-2) + A_(t-1) + A_t,
    // and inflight in cycle t is (cnt != 0 in cycle t - 1: N_(t-3) > 0) | inc_q in cycle
    // t - 1 (A_(t-2)) | the input register in cycle t - 1 (A_(t-1)) | an offer of slot s
    // without a key request for it in cycle t - 1 (which includes A_t). So inflight[s] = 0 in cycle t implies N_t(s) = 0: a key handshake for
    // slot s (which needs !inflight[key_slot]) finds no block of s in A; no block of s is
    // accepted in the handshake cycle (key_valid for the slot holds it off) nor while the
    // load runs (ld_busy from the next edge until the last subkey has landed); and the
    // first subkey write lands edges later. The subkey of a block that has already left A
    // (round 47's, read one clock ahead) was read before it left, i.e. before cycle t. So a
    // key load never overtakes a block in flight. cnt never goes below zero (a block's D
    // follows its A) nor above 48 * RND_REGS (the registers of A) < 2**CNTW.
    // Cost: key_ready for slot s rises 3 clocks after the last block of s has left A (in
    // the cycle after edge L + 2, L the edge at which it entered round 47's output
    // register); the OR over the stages gave 1 clock.
    localparam CNTW = 7;
    wire [NSLOT-1:0]  inflight_nx;       // inflight's next value (held in kr_q, below)
    wire [SLOT_W-1:0] i_slot = i_sb[SLOT_W+1:2];
    wire [SLOT_W-1:0] d_slot = l_sb[SLOT_W+1:2];
    genvar s;
    generate
        for (s = 0; s < NSLOT; s = s + 1) begin : g_infl
            localparam [SLOT_W-1:0] SV = s;
            reg            inc_q, dec_q;
            reg [CNTW-1:0] cnt;
            always @(posedge clk) begin
                if (rst) begin
                    inc_q  <= 1'b0;
                    dec_q  <= 1'b0;
                    cnt    <= {CNTW{1'b0}};
                end else begin
                    inc_q  <= i_v && i_slot == SV;
                    dec_q  <= st_v[NST-1] && d_slot == SV;
                    cnt    <= cnt + {{(CNTW-1){dec_q && !inc_q}}, inc_q ^ dec_q};
                end
            end
            assign inflight_nx[s] = (cnt != {CNTW{1'b0}}) || inc_q || (i_v && i_slot == SV)
                                    || (s_axis_tvalid && !in_keyreq && in_slot == SV);
        end
    endgenerate

    // key_ready = !ld_busy && !scrub_busy && !zeroize && !inflight[key_slot]. All but
    // zeroize and the key_slot select are precomputed one clock ahead, per slot, into
    // kr_q (from the next values of ld_busy, scrub_busy and inflight, so the same value
    // as before; inflight itself is no register of its own any more), so key_ready is one LUT on registers and the port. The handshake's
    // flip-flops (ld_busy, the slot flags) then no longer wait for a two-level decode of
    // the busy flags (ECP5 seed 1 at 143.4 MHz: scrub_busy -> key_ready -> ld_busy's
    // enable, 5.7 of 7.0 ns routing). rst and zeroize clear kr_q (the scrub then runs).
    wire kl_ok   = (key_bytes == 6'd24) || (key_bytes == 6'd16);
    reg  [NSLOT-1:0] kr_q;
    assign key_ready = kr_q[key_slot] && !zeroize;
    wire key_hs = key_valid && key_ready;
    wire ld_busy_nx = k2_done ? 1'b0 : (key_hs && kl_ok) ? 1'b1 : ld_busy;
    wire scrub_nx   = scrub_busy && !(&scrub_addr);
    always @(posedge clk) begin
        if (rst || zeroize) kr_q <= {NSLOT{1'b0}};
        else                kr_q <= {NSLOT{!ld_busy_nx && !scrub_nx}} & ~inflight_nx;
    end

    // the handshake is registered before it starts the key schedule (ks_*), so the
    // key_ready decision (slot in use, load or scrub running) does not reach the
    // schedule's key and C/D registers (ECP5 critical path at 117.8 MHz). ks_key holds
    // key_data for one clock after a cycle with key_valid, else zero.
    reg         ks_opt2;
    reg [191:0] ks_key;
    always @(posedge clk) begin
        if (rst || zeroize) begin
            ks_start <= 1'b0;
            ks_key   <= 192'd0;
        end else begin
            ks_start <= key_hs && kl_ok;
            ks_key   <= key_valid ? key_data : 192'd0;
        end
        ks_opt2 <= key_bytes == 6'd16;
    end

    /* verilator lint_off UNUSEDSIGNAL */
    wire x_busy;
    /* verilator lint_on UNUSEDSIGNAL */
    // step controls from constant tables on the counter (STEP_TABLES = 1): their decode
    // from the counter's next value was the ECP5 critical path at 135.1 MHz
    tdea_keysched #(.STEP_TABLES(1)) u_ks (
        .clk(clk), .rst(rst), .zeroize(zeroize), .start(ks_start),
        .key_data(ks_key), .opt2(ks_opt2), .busy(x_busy),
        .w_valid(x_valid), .w_idx(x_idx), .w_data(x_data));

    always @(posedge clk) begin
        if (rst || zeroize) begin
            slot_ok    <= {NSLOT{1'b0}};
            ld_busy    <= 1'b0;
            ld_slot    <= {SLOT_W{1'b0}};
            scrub_busy <= 1'b1;
            scrub_addr <= {AW{1'b0}};
        end else begin
            if (scrub_busy) begin
                scrub_addr <= scrub_addr + 1'b1;
                if (&scrub_addr) scrub_busy <= 1'b0;
            end
            if (key_hs) begin
                slot_ok[key_slot] <= 1'b0;
                if (kl_ok) begin
                    ld_busy <= 1'b1;
                    ld_slot <= key_slot;
                end
            end
            if (k2_done) begin                // the last subkey is in its memory
                ld_busy <= 1'b0;
                slot_ok[ld_slot] <= 1'b1;
            end
        end
    end
endmodule
`default_nettype wire
