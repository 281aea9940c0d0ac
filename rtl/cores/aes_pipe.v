// SPDX-License-Identifier: Apache-2.0
// aes_pipe: fully unrolled AES core, one block per clock (see docs/pipe.md, docs/cores.md).
//
// Pipeline: stage 0 (initial AddRoundKey) and NR_MAX round stages (aes_pipe_stage) with
// ROUND_REGS registers each, forward cipher or equivalent inverse cipher (FIPS-197 5.3.5)
// selected per block, then an output buffer (pipe_obuf). Rounds are aligned to the
// end of the pipeline, so the latency is the same for every key size and blocks leave in
// acceptance order. Every stage has its own round-key memory indexed by key slot (and
// direction); the key loader writes into each memory exactly the round key that stage
// needs for that slot, so the key may change between any two blocks.
//
// The pipeline runs free: no clock enable, no path from m_axis_tready to any pipeline
// register or to s_axis_tready. A block is admitted only while a credit is free: the
// output buffer has room for every block in flight (2**DAW >= latency entries), so a
// stalled consumer never loses a block and a ready one sees one block per clock.
// Only valid bits, credits and pointers are reset; every data register loads zero unless
// a valid block without err enters it (stage 0: a valid input block without err, accepted
// or not, so that s_axis_tready is not on its data path; a block not accepted has no
// valid bit and stage 1 loads zero in its place).
//
// Parameters
//   SBOX_IMPL  : 0 table S-boxes, 1 composite-field S-boxes, 2 block-RAM S-boxes in the
//                round stages (aes_sbox_bram; only with ROUND_REGS = 4 or 5; the key
//                expander then uses table S-boxes) (default 0)
//   SLOT_W     : key-slot index width, 2**SLOT_W key slots (>= 1, default 1)
//   TAG_W      : sideband tag width (>= 1, default 8)
//   NR_MAX     : 10, 12 or 14 (default 14): largest supported key (AES-128/192/256).
//                A key with more rounds is accepted on the key port but its slot is
//                invalid, so its blocks come out with err = 1.
//   DIRECTION  : 0 encrypt only, 1 decrypt only, 2 both (tuser bit 0 per block);
//                a block asking for an unsupported direction comes out with err = 1
//   ROUND_REGS : 1 .. 7 registers per round (default 1), for a higher clock:
//                1 = after AddRoundKey; 2 = also after SubBytes; 3 = also after
//                MixColumns; 4 = also a second register after the S-boxes;
//                5 .. 7 = as 4 plus 1 .. 3 registers inside composite-field S-boxes
//                (SBOX_IMPL 1); with block-RAM S-boxes (SBOX_IMPL 2) 5 = as 4 plus a
//                register between MixColumns and AddRoundKey (aes_pipe_stage)
//   IN_REG     : 0 or 1 (default 0): 1 = an input register in front of stage 0, one clock
//                more latency. The accepted block's slot check (slot_ok[slot]), its
//                round-key address and stage 0's load decision then come from registers:
//                without it the check is a LUT between the s_axis_tuser port and the 128
//                synchronous clears of stage 0, which was aes128-enc's critical path on
//                ECP5 at every seed (docs/pipe.md). The register copies s_axis_tdata and
//                s_axis_tuser in every clock (no enable, no clear): it holds what the
//                bus presented one clock ago; stage 0 loads from it only for an offered
//                block without err, and only an accepted one goes further.
// Ports (docs/cores.md)
//   clk, rst        : clock; synchronous active-high reset (clears valid bits, credits,
//                     slots; data registers read zero one clock later)
//   zeroize         : one-cycle pulse: invalidates every slot, aborts a key load,
//                     scrubs all round-key memories and the output buffer's RAM; every
//                     block not yet in the output register comes out with err = 1 and
//                     zero data; every data register reads zero one clock later
//   key_valid/key_ready/key_slot/key_bytes/key_data : key-load handshake
//   s_axis_tvalid/tready/tdata/tuser  : input blocks, tuser = {tag, slot, dec}
//   m_axis_tvalid/tready/tdata/tuser  : output blocks, tuser = {tag, err}
// Left behind: nothing in the pipeline registers (they read zero once the blocks have
//   passed); the output buffer's RAM keeps the last results that went through it until
//   they are overwritten, or until zeroize / rst wipes it.
// Timing
//   Latency: an input accepted at rising edge E is presented on m_axis at edge
//   E + NR_MAX * ROUND_REGS + IN_REG (e.g. 14 for the defaults), for every key size, when
//   the output buffer is empty.
//   Throughput: one block per clock while m_axis_tready is high.
//   Backpressure: s_axis_tready is a register (credit count below 2**DAW + 1, or 2**DAW
//   after a cycle without an accept; a block taken returns its credit one clock later:
//   rtl/common/pipe_credits.v; DAW = clog2(NR_MAX * ROUND_REGS + IN_REG + 2)), except that a
//   block is held off while its slot is being loaded or requested (key_valid with
//   key_slot equal to the block's slot).
//   Key load: key_ready is low while a load or scrub runs, during zeroize and while a
//   block of the requested slot is inside the pipeline (before its last round key is
//   read; with IN_REG, also while one is in the input register). A legal load keeps
//   key_ready low for 4 * Nr + 10 clocks after the handshake (50 / 58 / 66); after rst
//   or zeroize the scrub takes 2**AW clocks (AW = SLOT_W + 1 when DIRECTION = 2, else
//   SLOT_W), and in builds with NR_MAX * ROUND_REGS >= 64 at least the output buffer's
//   wipe, 128 clocks.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_pipe #(
    parameter SBOX_IMPL  = 0,
    parameter SLOT_W     = 1,
    parameter TAG_W      = 8,
    parameter NR_MAX     = 14,
    parameter DIRECTION  = 2,
    parameter ROUND_REGS = 1,
    parameter IN_REG     = 0
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      zeroize,
    input  wire                      key_valid,
    output wire                      key_ready,
    input  wire [SLOT_W-1:0]         key_slot,
    input  wire [5:0]                key_bytes,
    input  wire [255:0]              key_data,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire [127:0]              s_axis_tdata,
    input  wire [TAG_W+SLOT_W:0]     s_axis_tuser,
    output wire                      m_axis_tvalid,
    input  wire                      m_axis_tready,
    output wire [127:0]              m_axis_tdata,
    output wire [TAG_W:0]            m_axis_tuser
);
    localparam SBW      = TAG_W + SLOT_W + 4;
    localparam NSLOT    = 1 << SLOT_W;
    localparam AW       = SLOT_W + ((DIRECTION == 2) ? 1 : 0);
    localparam NST      = NR_MAX + 1;             // stages 0 .. NR_MAX
    localparam OFFC_MAX = (NR_MAX - 10) / 2;      // offc of an AES-128 key
    localparam PN       = NR_MAX * ROUND_REGS;    // pipeline registers (positions 0 .. PN-1)
    localparam PI       = PN + IN_REG;            // registers a block passes before the buffer
    localparam DAW      = (PI + 2 <= 16) ? 4 : (PI + 2 <= 32) ? 5 : (PI + 2 <= 64) ? 6 : 7;   // clog2(PI + 2)
    localparam CW       = DAW + 2;                // credit counter width
    localparam [CW-1:0] CAP = (1 << DAW) + 1;     // blocks accepted and not yet taken

    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SBOX_IMPL >= 0 && SBOX_IMPL <= 2, aes_pipe_SBOX_IMPL_not_0_to_2,
                     "aes_pipe: SBOX_IMPL must be 0 or 1 or 2")
        `AESIP_CHECK(SBOX_IMPL != 2 || ROUND_REGS == 4 || ROUND_REGS == 5, aes_pipe_SBOX_IMPL_2_needs_ROUND_REGS_4_or_5,
                     "aes_pipe: SBOX_IMPL 2 (block RAM) needs ROUND_REGS 4 or 5")
        `AESIP_CHECK(SLOT_W >= 1, aes_pipe_SLOT_W_below_1, "aes_pipe: SLOT_W must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, aes_pipe_TAG_W_below_1, "aes_pipe: TAG_W must be >= 1")
        `AESIP_CHECK(NR_MAX == 10 || NR_MAX == 12 || NR_MAX == 14, aes_pipe_NR_MAX_not_10_12_14,
                     "aes_pipe: NR_MAX must be 10 or 12 or 14")
        `AESIP_CHECK(DIRECTION == 0 || DIRECTION == 1 || DIRECTION == 2, aes_pipe_DIRECTION_not_0_1_2,
                     "aes_pipe: DIRECTION must be 0 or 1 or 2")
        `AESIP_CHECK(ROUND_REGS >= 1 && ROUND_REGS <= 7, aes_pipe_ROUND_REGS_not_1_to_7,
                     "aes_pipe: ROUND_REGS must be 1 .. 7")
        `AESIP_CHECK(ROUND_REGS <= 4 || SBOX_IMPL == 1 || (SBOX_IMPL == 2 && ROUND_REGS == 5), aes_pipe_ROUND_REGS_needs_comp,
                     "aes_pipe: ROUND_REGS 5 .. 7 need SBOX_IMPL 1 (composite-field S-boxes; 5 also SBOX_IMPL 2)")
        `AESIP_CHECK(IN_REG == 0 || IN_REG == 1, aes_pipe_IN_REG_not_0_1,
                     "aes_pipe: IN_REG must be 0 or 1")
        // the output buffer holds every block in flight, and the late credit return
        // (pipe_credits TAKEN_REG) costs no throughput: CAP - 2 >= PI + 1
        `AESIP_CHECK((1 << DAW) >= PI + 2, aes_pipe_DAW_internal,
                     "aes_pipe: internal output-buffer depth out of range")
    endgenerate

    // ------------------------------------------------------------------------------
    // Key slots: valid flag and offc = (NR_MAX - Nr) / 2 per slot
    // ------------------------------------------------------------------------------
    reg [NSLOT-1:0]   slot_ok;
    reg [2*NSLOT-1:0] slot_offc;

    // ------------------------------------------------------------------------------
    // Sideband of a block: {tag, slot, offc[1:0], dec, err}
    // ------------------------------------------------------------------------------
    // 1 when a block passes round stage j unchanged (j <= NR_MAX - Nr, i.e. offc >=
    // (j + 1) / 2); only stages 1 .. NR_MAX - 10 can be passed
    function sb_byp;
        input integer   j;
        /* verilator lint_off UNUSEDSIGNAL */
        input [SBW-1:0] sb;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            sb_byp = (j >= 1 && j <= NR_MAX - 10) && ({30'd0, sb[3:2]} >= (j + 1) / 2);
        end
    endfunction

    // round-key address of a block: {slot, dec} (DIRECTION = 2) or slot
    function [AW-1:0] sb_addr;
        /* verilator lint_off UNUSEDSIGNAL */
        input [SBW-1:0] sb;
        reg [SLOT_W:0]  both;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            both = {sb[SLOT_W+3:4], sb[1]};
            if (DIRECTION == 2) sb_addr = both[AW-1:0];
            else                sb_addr = sb[AW+3:4];
        end
    endfunction

    // ------------------------------------------------------------------------------
    // Input side and credits
    // ------------------------------------------------------------------------------
    wire [SLOT_W-1:0] in_slot = s_axis_tuser[SLOT_W:1];
    wire [TAG_W-1:0]  in_tag  = s_axis_tuser[TAG_W+SLOT_W:SLOT_W+1];
    wire              in_dec_req = s_axis_tuser[0];
    wire              in_dec  = (DIRECTION == 2) ? in_dec_req : (DIRECTION == 1);
    wire              dir_bad = (DIRECTION == 0 && in_dec_req) || (DIRECTION == 1 && !in_dec_req);

    reg               ld_busy;
    reg [SLOT_W-1:0]  ld_slot;
    wire              room;              // a credit is free (pipe_credits)
    wire              out_taken;

    // a copy of ld_busy / ld_slot for the input side (kept apart by the synthesis
    // attribute, so the placer can put it beside the input logic and the key loader's
    // own flip-flops beside the loader): the accept does not route from the loader
    (* keep *) reg              ld_busy_in;
    (* keep *) reg [SLOT_W-1:0] ld_slot_in;
    wire in_loading = ld_busy_in && (in_slot == ld_slot_in);
    wire in_keyreq  = key_valid && (key_slot == in_slot);
    assign s_axis_tready = room && !in_loading && !in_keyreq;
    wire in_acc = s_axis_tvalid && s_axis_tready;
    wire in_err = !slot_ok[in_slot] || dir_bad || zeroize;
    wire [SBW-1:0] in_sb = {in_tag, in_slot, slot_offc[2*in_slot +: 2], in_dec, in_err};

    // credits (rtl/common/pipe_credits.v): room = blocks accepted and not yet taken < CAP, both registers
    // the credit returns one clock after its block is taken (TAKEN_REG): the output
    // register is at the far end of the pipeline from the counter beside the input
    pipe_credits #(.CW(CW), .CAP(CAP), .TAKEN_REG(1)) u_credits (
        .clk(clk), .rst(rst), .in_acc(in_acc), .out_taken(out_taken),
        .room(room)
    );

    // ------------------------------------------------------------------------------
    // The block entering position 0 at the next edge (a_*): the accepted block itself,
    // or with IN_REG the one in the input register (accepted a clock earlier)
    // ------------------------------------------------------------------------------
    wire           a_acc;      // valid
    wire [SBW-1:0] a_sb;       // sideband, err included
    wire [127:0]   a_data;     // stage 0's input
    wire           a_ok;       // stage 0 loads (with a_ok4)
    wire [3:0]     a_ok4;      // stage 0 loads, per 32-bit slice
    wire           i_v;        // IN_REG: a block is in the input register
    wire [SLOT_W-1:0] i_slot;  // IN_REG: its slot
    wire [AW-1:0]  a_raddr;    // stage 0's round-key address (the entering block's)
    generate
        if (IN_REG != 0) begin : g_ireg
            // every clock, no enable and no clear (module header); the valid bit and the
            // load decision of stage 0 are the only control, both registers: the latter in
            // four copies (keep_reg), one per 32-bit slice of stage 0. As without IN_REG,
            // stage 0 loads every offered block without err, accepted or not, so that
            // s_axis_tready is not on the path to the copies (placed by stage 0: room ->
            // s_axis_tready -> the accept -> the copies was the critical path, ECP5 seed 3,
            // 131.8 MHz); a block not accepted has no valid bit (a_acc = r_v), and stage 1
            // loads zero in its place.
            reg [127:0]    r_data;
            reg [SBW-1:0]  r_sb;
            reg            r_v;
            always @(posedge clk) begin
                r_data <= s_axis_tdata;
                r_sb   <= in_sb;
                r_v    <= !rst && in_acc;
            end
            // stage 0's round-key address in a register of its own (keep_reg), placed
            // by its memory: as a bit of r_sb it was also read by the position chain and
            // the key-ready logic at the input side, and its route to stage 0's memory was
            // the critical path (aes128-enc, ECP5 seed 1, 5.2 ns)
            keep_reg #(.W(AW)) u_raddr (.clk(clk), .rst(1'b0), .d(sb_addr(in_sb)), .q(a_raddr));
            genvar ic;
            for (ic = 0; ic < 4; ic = ic + 1) begin : g_iok
                keep_reg #(.W(1)) u_ok (
                    .clk(clk), .rst(rst), .d(s_axis_tvalid && !in_err), .q(a_ok4[ic]));
            end
            assign a_acc  = r_v;
            assign a_sb   = r_sb;
            assign a_data = r_data;
            assign a_ok   = 1'b1;
            assign i_v    = r_v;
            assign i_slot = r_sb[SLOT_W+3:4];
        end else begin : g_noireg
            assign a_acc  = in_acc;
            assign a_sb   = in_sb;
            assign a_data = s_axis_tdata;
            assign a_ok   = s_axis_tvalid && !in_err;
            assign a_ok4  = 4'hf;
            assign a_raddr = sb_addr(in_sb);
            assign i_v    = 1'b0;
            assign i_slot = {SLOT_W{1'b0}};
        end
    endgenerate

    // ------------------------------------------------------------------------------
    // Valid bits and sidebands of the PN pipeline registers (data in the stages).
    // Position 0 is stage 0's register; stage j >= 1 has positions (j-1)*R+1 .. j*R
    // (R = ROUND_REGS); the output buffer takes the place of position NR_MAX*R.
    // ------------------------------------------------------------------------------
    reg [PN-1:0]     pv;
    reg [SBW*PN-1:0] psb;
    always @(posedge clk) begin
        if (rst) pv <= {PN{1'b0}};
        else     pv <= {pv[PN-2:0], a_acc};
    end
    integer p;
    always @(posedge clk) begin
        psb[SBW-1:0] <= {a_sb[SBW-1:1], a_sb[0] | zeroize};
        for (p = 1; p < PN; p = p + 1)
            psb[SBW*p +: SBW] <= {psb[SBW*(p-1)+1 +: SBW-1], psb[SBW*(p-1)] | zeroize};
    end

    // ok bit of every position: valid and no err (pv[q] && !psb[SBW*q], the same value),
    // as its own register chain, so that the ok of a stage register (the synchronous
    // clear of its 128 data flip-flops) comes straight from a flip-flop, with no gate
    // between it and its fan-out
    reg [PN-1:0] pok;
    always @(posedge clk) begin
        if (rst) pok <= {PN{1'b0}};
        else     pok <= {pok[PN-2:0] & {(PN-1){!zeroize}}, a_acc && !a_sb[0] && !zeroize};
    end

    // {valid, sideband} of position q at index q + 1 (index 0: the block entering position 0)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [(SBW+1)*(PN+1)-1:0] pos_all;    // (the last positions feed only the buffer)
    /* verilator lint_on UNUSEDSIGNAL */
    assign pos_all[SBW:0] = {a_acc, a_sb};
    genvar q;
    generate
        for (q = 0; q < PN; q = q + 1) begin : g_pos
            assign pos_all[(SBW+1)*(q+1) +: SBW+1] = {pv[q], psb[SBW*q +: SBW]};
        end
    endgenerate

    // Slots used by blocks that still have a round-key read ahead of them (positions
    // 0 .. PN-2) block a key load of that slot. key_ready is precomputed one clock ahead
    // per slot (kr_q, below), so it needs this set one clock ahead: the set after the
    // next edge is that of the block being accepted then and of positions 0 .. PN-3 now.
    // inflight_m1 holds the slots of positions 0 .. PN-3 as a register: the positions
    // shift every clock, so after the edge they are the block being accepted and
    // positions 0 .. PN-4 now. The OR tree over the positions (spread over the whole
    // pipeline) then ends in a register, away from the key port. With IN_REG the input
    // register is one more position ahead of position 0 (after the edge: the block in it
    // now), so inflight_m1 then also holds the input register's slot.
    reg [NSLOT-1:0] inflight_m1_nx;
    always @(*) begin
        inflight_m1_nx = {NSLOT{1'b0}};
        if (in_acc) inflight_m1_nx[in_slot] = 1'b1;
        if (i_v)    inflight_m1_nx[i_slot]  = 1'b1;
        for (p = 0; p <= PN - 4; p = p + 1)
            if (pv[p]) inflight_m1_nx[psb[SBW*p+4 +: SLOT_W]] = 1'b1;
    end
    reg [NSLOT-1:0] inflight_m1;
    always @(posedge clk) begin
        if (rst) inflight_m1 <= {NSLOT{1'b0}};
        else     inflight_m1 <= inflight_m1_nx;
    end

    // The ok bit of the last position (pok[PN-1]) once more, one copy per 32-bit slice
    // of the final stage's output (keep_reg: not merged), for the gate that zeroes the
    // data entering the output buffer: each copy drives 32 bits and sits with them.
    wire [3:0] last_ok;
    genvar lc;
    generate
        for (lc = 0; lc < 4; lc = lc + 1) begin : g_last_ok
            keep_reg #(.W(1)) u_ok (
                .clk(clk), .rst(rst), .d(pok[PN-2] && !zeroize), .q(last_ok[lc]));
        end
    endgenerate

    // ------------------------------------------------------------------------------
    // Stages
    // ------------------------------------------------------------------------------
    wire [128*NST-1:0] st_d;
    wire [NST-1:0]     st_we;
    wire [AW-1:0]      mem_waddr;
    wire [127:0]       mem_wdata;

    // EA: the final stage does its AddRoundKey into register ROUND_REGS - 2, so that its
    // output comes from a register (ROUND_REGS >= 3; not with block-RAM S-boxes, whose
    // register 2 is the copy of the RAM outputs); its round key is read one clock earlier
    localparam EA = (ROUND_REGS >= 3 && SBOX_IMPL != 2) ? 1 : 0;
    genvar j, k;
    generate
        for (j = 0; j < NST; j = j + 1) begin : g_st
            localparam NREG = (j == 0) ? 1 : ROUND_REGS;
            localparam EJ   = (j == NR_MAX) ? EA : 0;   // this stage's EARLY
            wire [NREG-1:0] c_ok, c_dec, c_byp;
            wire            c_dec_nx;   // dec of the block entering register 0 a clock later
            wire            r_ok;
            wire [AW-1:0]   r_addr;
            if (j == 0) begin : g_first
                // Without IN_REG, stage 0 loads every valid input block without err,
                // accepted or not: s_axis_tready (credits and the key-load hold-off) is
                // then not on the path to its 128 data flip-flops. A block that is not accepted
                // has no valid bit (pv[0] = in_acc), so stage 1 loads zero in its place.
                // (Loading err blocks too, so that the slot check is off the clears,
                // was measured and dropped: docs/pipe.md, 2026-12-04.)
                // With IN_REG, stage 0 loads from the input register, by the copies
                // of its load decision (a_ok4), all registers.
                assign c_ok   = a_ok;
                assign c_dec  = a_sb[1];
                assign c_byp  = 1'b0;
                assign c_dec_nx = 1'b0;
                assign r_ok   = 1'b0;
                assign r_addr = a_raddr;
            end else begin : g_next
                // entry k: the block now at position (j-1)*R + k enters register k next
                for (k = 0; k < NREG; k = k + 1) begin : g_ctl
                    /* verilator lint_off UNUSEDSIGNAL */
                    wire [SBW-1:0] b = pos_all[(SBW+1)*((j - 1) * ROUND_REGS + k + 1) +: SBW];
                    /* verilator lint_on UNUSEDSIGNAL */
                    assign c_ok[k]  = pok[(j - 1) * ROUND_REGS + k];
                    assign c_dec[k] = b[1];
                    assign c_byp[k] = sb_byp(j, b[SBW-1:0]);
                end
                // (the sideband shifts one position per clock, its dec bit unchanged)
                /* verilator lint_off UNUSEDSIGNAL */
                wire [SBW-1:0] bn = pos_all[(SBW+1)*((j - 1) * ROUND_REGS) +: SBW];
                /* verilator lint_on UNUSEDSIGNAL */
                assign c_dec_nx = bn[1];
                // round key for the block two places before this stage's ARK register
                // (the final stage does its ARK one register earlier when EJ, passed to
                // aes_pipe_stage as EARLY, so one place earlier still)
                /* verilator lint_off UNUSEDSIGNAL */
                wire [SBW-1:0] rb = pos_all[(SBW+1)*(j * ROUND_REGS - 1 - EJ) +: SBW];
                /* verilator lint_on UNUSEDSIGNAL */
                if (j * ROUND_REGS == 1) begin : g_rok_in
                    assign r_ok = a_acc && !a_sb[0];
                end else begin : g_rok_pos
                    assign r_ok = pok[(j * ROUND_REGS - 2 - EJ) % PN];
                end
                assign r_addr = sb_addr(rb[SBW-1:0]);
            end
            aes_pipe_stage #(
                .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .NR_MAX(NR_MAX),
                .DIRECTION(DIRECTION), .ROUND_REGS(ROUND_REGS), .J(j),
                .EARLY(EJ)
            ) u_stage (
                .clk(clk), .in_data((j == 0) ? a_data : st_d[128*(j-1) +: 128]),
                .ctl_ok(c_ok), .ctl_dec(c_dec), .ctl_dec_nx(c_dec_nx), .ctl_byp(c_byp),
                .rk_ok(r_ok), .rk_addr(r_addr), .out_data(st_d[128*j +: 128]),
                .out_ok((j == 0) ? a_ok4 : last_ok),
                .wclr(wr_clr), .we(st_we[j]), .waddr(mem_waddr), .wdata(mem_wdata)
            );
        end
    endgenerate

    // ------------------------------------------------------------------------------
    // Output buffer
    // ------------------------------------------------------------------------------
    /* verilator lint_off UNUSEDSIGNAL */
    wire [SBW-1:0] last_sb = psb[SBW*(PN-1) +: SBW];
    wire           obuf_wiping;      // read by the formal property on kr_q only
    wire           obuf_wiping_nx;   // the wipe flag's next value (kr_q, WAIT_WIPE builds)
    /* verilator lint_on UNUSEDSIGNAL */
    pipe_obuf #(.DW(128), .DAW(DAW), .TAG_W(TAG_W)) u_obuf (
        .clk(clk), .rst(rst), .kill(zeroize),
        .in_valid(pv[PN-1]), .in_err(last_sb[0]), .in_tag(last_sb[SBW-1 -: TAG_W]),
        .in_data(st_d[128*NR_MAX +: 128]),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
        .m_axis_tdata(m_axis_tdata), .m_axis_tuser(m_axis_tuser),
        .taken(out_taken), .wiping(obuf_wiping), .wiping_nx(obuf_wiping_nx));

    // ------------------------------------------------------------------------------
    // Key loader: aes_key_expand emits w[0..4Nr+3]; every 4 words form round key k,
    // written to stage k + off (encryption) and, with InvMixColumns for 1 <= k < Nr,
    // to stage NR_MAX - k (equivalent inverse cipher), where off = NR_MAX - Nr.
    // Stages below off get zero keys (the block passes them unchanged).
    // ------------------------------------------------------------------------------
    wire       kl_ok;
    wire [1:0] kl_size;
    wire [3:0] kl_nr;
    aes_keylen u_keylen (.key_bytes(key_bytes), .ok(kl_ok), .size(kl_size), .nr(kl_nr));
    wire       kl_fits = kl_ok && ({28'd0, kl_nr} <= NR_MAX);
    wire [1:0] kl_offc;                       // (NR_MAX - Nr) / 2, meaningful when kl_fits
    generate
        if (OFFC_MAX == 2) begin : g_offc2
            assign kl_offc = 2'd2 - kl_size;
        end else if (OFFC_MAX == 1) begin : g_offc1
            assign kl_offc = 2'd1 - kl_size;
        end else begin : g_offc0
            assign kl_offc = 2'd0;
        end
    endgenerate

    reg          scrub_busy;
    // scrub_wd: a copy of scrub_busy (kept apart by `keep`) that only clears the write
    // data below: scrub_busy also drives every stage's write enable and the address, and
    // its route across the device to the 128 data flip-flops was the critical path of
    // aes128-enc-comp-r5 on ECP5 (138.4 MHz, 4.8 of 7.2 ns one route)
    (* keep *) reg scrub_wd;
    reg [1:0]    fin;        // the last write computed 1 / 2 clocks ago (lands at fin[1])
    reg [AW-1:0] scrub_addr;
    // The output buffer's wipe (2**DAW clocks after rst or zeroize) must end before a
    // block with a new key (a load of >= 46 clocks, then PI clocks in the pipeline) can
    // reach it. That holds by itself up to PI = 63; deeper builds (2**DAW = 128 > 46 +
    // PI) also hold key loads off until the wipe is over.
    localparam WAIT_WIPE = ((1 << DAW) > 46 + PI) ? 1 : 0;
    // key_ready = !ld_busy && !scrub_busy && !wipe_hold && !zeroize && no block of
    // key_slot before its last round-key read. Everything but zeroize and the key_slot
    // select is precomputed one clock ahead, per slot, into the register kr_q (from the
    // next values of ld_busy, scrub_busy and the buffer's wipe flag, and inflight_m1),
    // so key_ready is a mux of registers by key_slot, and the blocks in flight, placed
    // with the pipeline, have no path to the handshake's flip-flops (ld_busy, the slot
    // flags). rst and zeroize clear kr_q (the scrub then starts). "A load runs" is
    // ld_busy_in here (set at the handshake edge; the loader's ld_busy follows a clock
    // later).
    reg  [NSLOT-1:0] kr_q;
    assign key_ready = kr_q[key_slot] && !zeroize;
    wire key_hs = key_valid && key_ready;
    wire ld_busy_n = fin[1] ? 1'b0 : (key_hs && kl_fits) ? 1'b1 : ld_busy_in;
    wire scrub_n   = scrub_busy && !(&scrub_addr);
    wire wipe_hold_n = (WAIT_WIPE != 0) && obuf_wiping_nx;
    integer ks;
    always @(posedge clk) begin
        if (rst || zeroize) kr_q <= {NSLOT{1'b0}};
        else for (ks = 0; ks < NSLOT; ks = ks + 1)
            kr_q[ks] <= !ld_busy_n && !scrub_n && !wipe_hold_n && !inflight_m1[ks] &&
                        !(in_acc && (in_slot == ks[SLOT_W-1:0]));
    end

    wire        x_valid, x_last;
    wire [5:0]  x_idx;
    wire [31:0] x_data;
    /* verilator lint_off UNUSEDSIGNAL */
    wire        x_busy;
    /* verilator lint_on UNUSEDSIGNAL */
    // The handshake edge loads only a few flip-flops: the slot flags, the input side's
    // ld_busy_in / ld_slot_in, kr_q, and kx_req with the slot and offset of the load.
    // The key loader (ld_busy, ld_slot, ld_offc) and the expander's start (kx_start)
    // follow one clock later, from kx_req: key_ready (a select by the key port's slot)
    // then has no path into the expander's and the loader's flip-flops, which the placer
    // puts far from the key port and the input side (the path kr_q -> key_ready ->
    // kx_start crossed the device: 7.8 ns, 5.5 of it one route, aes128-enc on ECP5).
    // The expander loads its window from kx_key two clocks after the handshake; kx_key
    // follows the key port two clocks behind through kx_key0 (zero while key_valid is
    // low), with no enable, so no handshake signal fans out to it; in builds with more
    // than one key size kx_key holds the key aligned to the expander's window (the
    // expander's KEY_ALIGNED). Neither copy holds
    // anything but what the key port presented in the last two clocks; rst and zeroize
    // clear both.
    // kx_last0 is the key's last word (the expander's first SubWord input), selected by
    // size here; SUB_AHEAD = 2 takes it into the S-box input register the clock before
    // start, so that no select stands before the expander's S-boxes.
    reg [255:0]      kx_key0, kx_key;
    reg [31:0]       kx_last0;
    reg [1:0]        kx_size0, kx_size;
    reg              kx_req, kx_start;
    reg [SLOT_W-1:0] kx_slot;
    reg [1:0]        kx_offc;
    // kl_size limited to the sizes this build accepts (a longer key never starts an
    // expansion: kl_fits), so that NR_MAX 10 / 12 builds have no select for the others
    // (OFFC_MAX, the largest size this build accepts, is also the expander's KEY_SIZE_MAX)
    wire [1:0]  kx_size_w  = (OFFC_MAX == 0) ? 2'd0 :
                             (OFFC_MAX == 1) ? {1'b0, kl_size != 2'd0} : kl_size;
    wire [31:0] key_last_w = (kx_size_w == 2'd0) ? key_data[127:96] :
                             (kx_size_w == 2'd1) ? key_data[191:160] : key_data[255:224];
    always @(posedge clk) begin
        if (rst || zeroize) begin
            kx_key0  <= 256'd0;
            kx_last0 <= 32'd0;
            kx_size0 <= 2'd0;
            kx_key   <= 256'd0;
            kx_size  <= 2'd0;
        end else begin
            kx_key0  <= key_valid ? key_data : 256'd0;
            kx_last0 <= key_valid ? key_last_w : 32'd0;
            kx_size0 <= key_valid ? kx_size_w : 2'd0;
            // aligned to the expander's window here (KEY_ALIGNED, builds with more than
            // one key size), a register to a register, so that the expander's window
            // load has no key-size select in front of it (key_size -> the 256-bit
            // select -> the window load was critical on ECP5 at 131.5 MHz, bram-ir;
            // AES-128-only builds have no such select and keep the plain copy)
            if (OFFC_MAX == 0)
                kx_key <= kx_key0;
            else
                kx_key <= (kx_size0 == 2'd0) ? {kx_key0[127:0], 128'd0} :
                          (kx_size0 == 2'd1) ? {kx_key0[191:0], 64'd0} : kx_key0;
            kx_size  <= kx_size0;
        end
        kx_req   <= !(rst || zeroize) && key_hs && kl_fits;
        kx_start <= !(rst || zeroize) && kx_req;
        kx_slot  <= key_slot;
        kx_offc  <= kl_offc;
    end
    // The expander is a one-word-per-clock loop with four S-boxes in it. Block-RAM builds
    // use table S-boxes there (a RAM read is two clocks); builds with ROUND_REGS >= 4
    // keep table S-boxes there also when the rounds use composite-field S-boxes: a whole
    // composite S-box inside that loop measured 82.5 MHz (ROUND_REGS 5) and 84.4 MHz
    // (ROUND_REGS 4) on ECP5, the critical path of both, far below the rounds. (Four
    // table S-boxes against 16 * NR_MAX composite ones in the rounds; builds with fewer
    // registers per round, which are slower anyway, keep the smaller composite ones.)
    // With ROUND_REGS >= 2 that loop (a table S-box in it) was critical on ECP5 at
    // 122.1 / 128.9 MHz (aes128-enc, seeds 1 / 2). Registering the expander's S-box
    // output with a gap clock before each word that needs SubWord was measured and
    // dropped earlier (77.2 / 79.5 MHz, docs/pipe.md); SUB_AHEAD computes SubWord two
    // clocks ahead instead, with no gap: the same words at the same clocks; SUB_AHEAD = 2
    // also takes the key's last word a clock before start (kx_last0), so no select stands
    // before its S-boxes (that select was in the expander's 6.6 ns paths at 146.8 MHz).
    aes_key_expand #(.SBOX_IMPL((SBOX_IMPL == 2 || ROUND_REGS >= 4) ? 0 : SBOX_IMPL), .SUB_AHEAD(2),
                     .KEY_SIZE_MAX(OFFC_MAX), .KEY_ALIGNED((OFFC_MAX == 0) ? 0 : 1)) u_kexp (
        .clk(clk), .rst(rst), .zeroize(zeroize), .start(kx_start),
        .key_data(kx_key), .key_size(kx_size), .key_last(kx_last0), .busy(x_busy),
        .w_valid(x_valid), .w_last(x_last), .w_idx(x_idx), .w_data(x_data));

    reg [1:0]   ld_offc;
    reg [95:0]  wsh;        // last three words of the current round key
    reg [127:0] rk_hold;    // complete round key k
    reg [3:0]   rk_k;
    reg         rk_last;    // k == Nr
    reg         pa, pb;     // write phases: A = encryption key, B = decryption key

    wire [3:0] ld_off = {1'b0, ld_offc, 1'b0};
    wire       zphase = ld_busy && x_valid && (x_idx[5:1] == 5'd0);   // w[0], w[1] cycles

    // InvMixColumns of the round key (decryption rounds 1 .. Nr-1), in two clocks, as
    // aes_mixcolumn forms it: MixColumns of the pre-multiplied column (byte i: b_i ^
    // {04}(b_i ^ b_(i+2))). The pre-multiplication of rk_hold is registered in every clock
    // (rk_pre_q); MixColumns of it is formed in the clock that uses it, phase B, one clock
    // after phase A, where rk_hold was the same round key (round keys are four expander
    // words apart; the clear after the last one is at the end of phase B). In one clock,
    // rk_hold -> InvMixColumns (four LUT levels) -> the write-data select was critical on
    // ECP5 (136.6 MHz, bram-ir with the key aligned for the expander). rk_pre_q follows
    // rk_hold a clock behind (zero a clock after it is cleared after a load); rst and
    // zeroize clear it.
    function [7:0] xt2;         // multiply by {04} in GF(2^8)
        input [7:0] a;
        xt2 = {a[5:0], 2'b00} ^ (a[6] ? 8'h1b : 8'h00) ^ (a[7] ? 8'h36 : 8'h00);
    endfunction
    function [31:0] imc_pre;    // the pre-multiplied column
        input [31:0] w;
        begin
            imc_pre[7:0]   = w[7:0]   ^ xt2(w[7:0]   ^ w[23:16]);
            imc_pre[15:8]  = w[15:8]  ^ xt2(w[15:8]  ^ w[31:24]);
            imc_pre[23:16] = w[23:16] ^ xt2(w[23:16] ^ w[7:0]);
            imc_pre[31:24] = w[31:24] ^ xt2(w[31:24] ^ w[15:8]);
        end
    endfunction
    // (Encrypt-only builds do not read rk_imc; they keep the one-clock form, which
    // Yosys removes. The two-clock form for every build measured 8 440 LUT4 and 158.8
    // MHz on aes128-enc-bram, ECP5 seed 1, against 8 419 / 177.7: not all of it went.)
    wire [127:0] rk_imc;
    genvar c;
    generate
        if (DIRECTION == 0) begin : g_imc1
            for (c = 0; c < 4; c = c + 1) begin : g_imc
                aes_mixcolumn #(.DIR(1)) u_imc (.in(rk_hold[32*c +: 32]), .inv(1'b1), .out(rk_imc[32*c +: 32]));
            end
        end else begin : g_imc2
            reg [127:0] rk_pre_q;
            for (c = 0; c < 4; c = c + 1) begin : g_imc
                always @(posedge clk)
                    rk_pre_q[32*c +: 32] <= (rst || zeroize) ? 32'd0 : imc_pre(rk_hold[32*c +: 32]);
                aes_mixcolumn #(.DIR(0)) u_mc (.in(rk_pre_q[32*c +: 32]), .inv(1'b0), .out(rk_imc[32*c +: 32]));
            end
        end
    endgenerate
    /* verilator lint_off UNUSEDSIGNAL */
    wire use_imc = (rk_k != 4'd0) && !rk_last;   // (wimc_q's meaning, read by the formal property)
    /* verilator lint_on UNUSEDSIGNAL */

    // The write (enables, address, data) is computed here and registered (wr_*), then
    // registered again in each stage next to its memory: a write lands two clocks after
    // the cycle that computes it, and neither the InvMixColumns nor the broadcast to the
    // stages shares a clock period with anything else. wr_data follows the round-key
    // register in every clock (rst and zeroize clear it): it holds round-key material
    // only while a load runs (rk_hold and wsh are cleared after the last round key, and
    // read zero outside loads; the scrub and the zero-key writes send zero). It is not
    // cleared in the clocks without a write: that clear, decoded from the loader's state
    // (|wr_we_d), drove the synchronous reset of all 128 flip-flops and was the critical
    // path of aes128-enc on ECP5 at 121.2 MHz (docs/pipe.md).
    // The clear (scrub_wd || zphase) and the InvMixColumns select (pb && use_imc) of
    // wr_data are precomputed one clock ahead into registers, one copy per 32-bit slice
    // (keep_reg), so that no decode of the loader's state and no single flip-flop drives
    // the 128 flip-flops of wr_data (that decode, routed across the pipeline, was the
    // critical path of aes128-enc on ECP5 at 124.9 MHz). Their next values:
    //   zphase: the expander emits w[0] or w[1], i.e. it started one or two clocks
    //           earlier (kx_start, kx_start_d; the loader's ld_busy is set with kx_start,
    //           and rst / zeroize stop both);
    //   pb && use_imc: pb follows pa, and rk_k / rk_last do not change in the clock after
    //           pa (round keys are four expander words apart); encrypt-only builds
    //           (DIRECTION 0) write no decryption key, so there it is constant zero and
    //           the InvMixColumns logic goes away.
    reg  kx_start_d;                    // kx_start one clock ago (no rst / zeroize since)
    wire scrub_wd_n = (rst || zeroize) || (scrub_wd && !(scrub_busy && (&scrub_addr)));
    wire wclr_n     = scrub_wd_n || (!(rst || zeroize) && (kx_start || kx_start_d));
    wire wimc_n     = (DIRECTION != 0) && !(rst || zeroize) && pa && (rk_k != 4'd0) && !rk_last;
    wire [3:0] wclr_q, wimc_q;
    always @(posedge clk) kx_start_d <= !(rst || zeroize) && kx_start;
    genvar ws;
    generate
        // (encrypt-only builds: no InvMixColumns select register. A kept copy would keep
        // the constant-zero select, and with it all of rk_imc, in the netlist: keep_reg's
        // hierarchy stops constant propagation. It did so until 2026-12-05, where the
        // 128-bit InvMixColumns in front of wr_data was the critical path of
        // aes128-enc-bram on ECP5.)
        for (ws = 0; ws < 4; ws = ws + 1) begin : g_wsel
            if (DIRECTION != 0) begin : g_sel2
                keep_reg #(.W(2)) u_sel (
                    .clk(clk), .rst(1'b0), .d({wclr_n, wimc_n}), .q({wclr_q[ws], wimc_q[ws]}));
            end else begin : g_sel1
                keep_reg #(.W(1)) u_sel (
                    .clk(clk), .rst(1'b0), .d(wclr_n), .q(wclr_q[ws]));
                assign wimc_q[ws] = 1'b0;
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_wimc = wimc_n;
                /* verilator lint_on UNUSEDSIGNAL */
            end
        end
    endgenerate
    wire [127:0] wr_data_d;
    generate
        for (ws = 0; ws < 4; ws = ws + 1) begin : g_wdata
            assign wr_data_d[32*ws +: 32] = wclr_q[ws] ? 32'd0 :
                                            wimc_q[ws] ? rk_imc[32*ws +: 32] : rk_hold[32*ws +: 32];
        end
    endgenerate
    wire [NST-1:0] wr_we_d;
    wire [AW-1:0]  wr_addr_d;
    wire wdec = zphase ? x_idx[0] : pb;
    generate
        if (DIRECTION == 2) begin : g_wa2
            assign wr_addr_d = scrub_busy ? scrub_addr : {ld_slot, wdec};
        end else begin : g_wa1
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_wdec = wdec;
            /* verilator lint_on UNUSEDSIGNAL */
            assign wr_addr_d = scrub_busy ? scrub_addr : ld_slot;
        end
        for (j = 0; j < NST; j = j + 1) begin : g_we
            /* verilator lint_off WIDTHEXPAND */
            assign wr_we_d[j] = scrub_busy
                || (zphase && (j < ld_off))
                || (pa && DIRECTION != 1 && (j == rk_k + ld_off))
                || (pb && DIRECTION != 0 && (j == NR_MAX - rk_k));
            /* verilator lint_on WIDTHEXPAND */
        end
    endgenerate
    reg [NST-1:0] wr_we;
    reg [AW-1:0]  wr_addr;
    reg [127:0]   wr_data;
    always @(posedge clk) begin
        wr_we   <= (rst || zeroize) ? {NST{1'b0}} : wr_we_d;
        wr_addr <= wr_addr_d;
        if (rst || zeroize) wr_data <= 128'd0;
        else                wr_data <= wr_data_d;
    end
    assign st_we     = wr_we;
    assign mem_waddr = wr_addr;
    assign mem_wdata = wr_data;
    wire   wr_clr    = rst || zeroize;

    always @(posedge clk) begin
        if (rst || zeroize) begin
            slot_ok    <= {NSLOT{1'b0}};
            slot_offc  <= {2*NSLOT{1'b0}};
            ld_busy    <= 1'b0;
            ld_slot    <= {SLOT_W{1'b0}};
            ld_busy_in <= 1'b0;
            ld_slot_in <= {SLOT_W{1'b0}};
            ld_offc    <= 2'd0;
            wsh        <= 96'd0;
            rk_hold    <= 128'd0;
            rk_k       <= 4'd0;
            rk_last    <= 1'b0;
            pa         <= 1'b0;
            pb         <= 1'b0;
            fin        <= 2'b00;
            scrub_busy <= 1'b1;
            scrub_wd   <= 1'b1;
            scrub_addr <= {AW{1'b0}};
        end else begin
            if (scrub_busy) begin
                scrub_addr <= scrub_addr + 1'b1;
                if (&scrub_addr) begin
                    scrub_busy <= 1'b0;
                    scrub_wd   <= 1'b0;
                end
            end
            if (key_hs) begin
                slot_ok[key_slot] <= 1'b0;
                if (kl_fits) begin
                    ld_busy_in <= 1'b1;
                    ld_slot_in <= key_slot;
                end
            end
            if (kx_req) begin           // the loader starts a clock after the handshake
                ld_busy <= 1'b1;
                ld_slot <= kx_slot;
                ld_offc <= kx_offc;
            end
            if (x_valid) begin
                wsh <= {x_data, wsh[95:32]};
                if (x_idx[1:0] == 2'd3) begin
                    rk_hold <= {x_data, wsh};
                    rk_k    <= x_idx[5:2];
                    rk_last <= x_last;
                end
            end
            pa <= x_valid && (x_idx[1:0] == 2'd3);
            pb <= pa;
            fin <= {fin[0], pb && rk_last};
            if (pb && rk_last) begin
                wsh     <= 96'd0;
                rk_hold <= 128'd0;
                rk_last <= 1'b0;
            end
            if (fin[1]) begin           // the slot's last round key is in its memory
                ld_busy <= 1'b0;
                ld_busy_in <= 1'b0;
                slot_ok[ld_slot] <= 1'b1;
                slot_offc[2*ld_slot +: 2] <= ld_offc;
            end
        end
    end
`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // Common block-core interface properties (formal/aes_core_props.v): stream rules,
    // one output per accepted block in order with its tag, err => zero data, bounded
    // response. Proven by formal/aes_pipe.sby (docs/formal.md). `define F_AES_PIPE when
    // this core is the top of the proof (its inputs are then assumed, else asserted).
    // CAP: the credit limit (blocks accepted and not yet taken); LAT: the latency PI
    // (NR_MAX * ROUND_REGS + IN_REG) plus one.
`ifdef F_AES_PIPE
    localparam F_TOP = 1;
`else
    localparam F_TOP = 0;
`endif
    // key_ready's precomputation (kr_q) equals the key-load condition it stands for
    // (no load, no scrub, no wipe hold, no block of the slot at positions 0 .. PN-2)
    reg f_rst_seen = 1'b0;
    always @(posedge clk) if (rst) f_rst_seen <= 1'b1;
    integer fp;
    reg [NSLOT-1:0] f_infl;
    always @(*) begin
        f_infl = {NSLOT{1'b0}};
        for (fp = 0; fp <= PN - 2; fp = fp + 1)
            if (pv[fp]) f_infl[psb[SBW*fp+4 +: SLOT_W]] = 1'b1;
        if (i_v) f_infl[i_slot] = 1'b1;
    end
    genvar fs;
    generate
        for (fs = 0; fs < NSLOT; fs = fs + 1) begin : g_fkr
            always @(*) if (f_rst_seen) begin
                // the input side's copy covers the loader's busy time and the clock
                // of kx_req before it; no handshake during a load
                assert(ld_busy_in == (ld_busy || kx_req));
                assert(ld_slot_in == (kx_req ? kx_slot : ld_slot));
                assert(!(kx_req && ld_busy));
                assert(scrub_wd == scrub_busy);
                // the precomputed write-data selects equal what they stand for
                assert(wclr_q == {4{scrub_wd || zphase}});
                assert(wimc_q == {4{(DIRECTION != 0) && pb && use_imc}});
                assert(kr_q[fs] == (!ld_busy_in && !scrub_busy && !f_infl[fs] &&
                                    !((WAIT_WIPE != 0) && obuf_wiping)));
            end
        end
    endgenerate
    // the copies of the last position's ok bit equal it
    generate
        for (fs = 0; fs < 4; fs = fs + 1) begin : g_flok
            always @(*) if (f_rst_seen) assert(last_ok[fs] == pok[PN-1]);
        end
    endgenerate
    aes_core_props #(.TAG_W(TAG_W), .SLOT_W(SLOT_W), .CAP(CAP), .LAT(PI + 1), .ASSUME_IN(F_TOP)) f_core (
        .clk(clk), .rst(rst), .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
        .key_bytes(key_bytes), .key_data(key_data),
        .s_valid(s_axis_tvalid), .s_ready(s_axis_tready), .s_data(s_axis_tdata), .s_user(s_axis_tuser),
        .m_valid(m_axis_tvalid), .m_ready(m_axis_tready), .m_data(m_axis_tdata), .m_user(m_axis_tuser));
`endif
endmodule
`default_nettype wire
