// SPDX-License-Identifier: Apache-2.0
// tdea_pipe: fully pipelined TDEA (Triple DES, NIST SP 800-67) block core, one 64-bit
// block per clock (see docs/tdea.md; interface style of docs/cores.md).
//
// 48 DES rounds (tdea_pipe_stage), each its own pipeline stage: E_K1, D_K2, E_K3 for
// encryption, D_K3, E_K2, D_K1 for decryption, chosen per block. IP before round 0 and
// IP^-1 after round 47 are wiring (tdea_perm); between the three DES operations IP^-1
// and IP cancel, so the rounds run on without them. Every stage has its own subkey
// memory indexed by {slot, dec}; the key loader (tdea_keysched) computes the 48 subkeys
// once per key load and writes into each memory the subkey that round needs (encryption
// index J and decryption index 47 - J into stage J), so the key may change between any
// two blocks. One global enable advances the whole pipeline.
//
// Parameters
//   SLOT_W   : key-slot index width, 2**SLOT_W key slots (>= 1, default 1)
//   TAG_W    : sideband tag width (>= 1, default 8)
//   RND_REGS : registers per DES round, 1 or 2 (default 1): 2 adds a register after
//              E(R) xor K, before the S-boxes, for a higher clock
// Ports (docs/cores.md, with 64-bit blocks and a 192-bit key port)
//   clk, rst        : clock; synchronous active-high reset (clears data, tags, slots)
//   zeroize         : one-cycle pulse: invalidates every slot, aborts a key load,
//                     scrubs all subkey memories; blocks still in the pipeline (except
//                     the one in the output register) come out with err = 1
//   key_valid/key_ready/key_slot/key_bytes/key_data : key-load handshake; key_bytes 24
//                     (keying option 1: K1, K2, K3 in bytes 0..7, 8..15, 16..23) or 16
//                     (keying option 2: K1, K2; K3 = K1); any other length makes the
//                     slot invalid (its blocks come out with err = 1)
//   s_axis_tvalid/tready/tdata/tuser  : input blocks, tuser = {tag, slot, dec}
//   m_axis_tvalid/tready/tdata/tuser  : output blocks, tuser = {tag, err}; tdata is zero
//                     when err = 1
// Timing
//   Latency: an input accepted at rising edge E is presented on m_axis after edge
//   E + 48 * RND_REGS - 1, i.e. 48 * RND_REGS clocks in the counting of docs/cores.md.
//   Throughput: one block per clock while m_axis_tready is high.
//   Stall: en = !m_axis_tvalid || m_axis_tready advances every pipeline register;
//   s_axis_tready = en, except that a block is held off while its slot is being
//   loaded or requested (key_valid with key_slot equal to the block's slot).
//   Key load: key_ready is low while a load or scrub runs, during zeroize and while a
//   block of the requested slot is in the pipeline (any register but the output
//   register). A legal load keeps key_ready low for 48 clocks after the handshake;
//   after rst or zeroize the scrub takes 2**(SLOT_W+1) clocks.
// Left behind: a stage's data register keeps the state of the last block that passed it
//   until the next block, zeroize or rst; the output register holds zero for bubbles.
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
    endgenerate

    localparam SBW   = TAG_W + SLOT_W + 2;
    localparam NSLOT = 1 << SLOT_W;
    localparam AW    = SLOT_W + 1;
    localparam NST   = 48;

    reg [NSLOT-1:0] slot_ok;

    wire [NST-1:0]       st_v;
    wire [SBW*NST-1:0]   st_sb;
    wire [64*NST-1:0]    st_d;
    wire [NSLOT*NST-1:0] st_busy;

    wire en = !st_v[NST-1] || m_axis_tready;

    // input side
    wire [SLOT_W-1:0] in_slot = s_axis_tuser[SLOT_W:1];
    wire [TAG_W-1:0]  in_tag  = s_axis_tuser[TAG_W+SLOT_W:SLOT_W+1];
    wire              in_dec  = s_axis_tuser[0];

    reg               ld_busy;
    reg [SLOT_W-1:0]  ld_slot;
    wire in_loading = ld_busy && (in_slot == ld_slot);
    wire in_keyreq  = key_valid && (key_slot == in_slot);
    assign s_axis_tready = en && !in_loading && !in_keyreq;
    wire in_acc = s_axis_tvalid && s_axis_tready;
    wire in_err = !slot_ok[in_slot] || zeroize;
    wire [SBW-1:0] in_sb = {in_tag, in_slot, in_dec, in_err};
    wire [63:0] in_lr;
    tdea_perm #(.FINAL(0)) u_ip (.in(s_axis_tdata), .out(in_lr));

    // key loader and scrubber (write side of the stage memories)
    wire        x_valid;
    wire [5:0]  x_idx;
    wire [47:0] x_data;
    reg          scrub_busy;
    reg [AW-1:0] scrub_addr;

    genvar j;
    generate
        for (j = 0; j < NST; j = j + 1) begin : g_st
            wire           pv;
            wire [SBW-1:0] psb;
            wire [63:0]    pd;
            if (j == 0) begin : g_first
                assign pv  = in_acc;
                assign psb = in_sb;
                assign pd  = in_lr;
            end else begin : g_next
                assign pv  = st_v[j-1];
                assign psb = st_sb[SBW*(j-1) +: SBW];
                assign pd  = st_d[64*(j-1) +: 64];
            end
            // stage j takes encryption subkey j (entry {slot,0}) and decryption subkey
            // 47 - j (entry {slot,1})
            wire           we = scrub_busy || (x_valid && (x_idx == j || x_idx == NST - 1 - j));
            wire [AW-1:0]  wa = scrub_busy ? scrub_addr : {ld_slot, x_idx != j};
            tdea_pipe_stage #(.SLOT_W(SLOT_W), .TAG_W(TAG_W), .RND_REGS(RND_REGS), .J(j)) u_stage (
                .clk(clk), .rst(rst), .en(en), .kill(zeroize),
                .in_valid(pv), .in_sb(psb), .in_data(pd),
                .out_valid(st_v[j]), .out_sb(st_sb[SBW*j +: SBW]), .out_data(st_d[64*j +: 64]),
                .busy_slots(st_busy[NSLOT*j +: NSLOT]),
                .we(we), .waddr(wa), .wdata(scrub_busy ? 48'd0 : x_data));
        end
    endgenerate

    assign m_axis_tvalid = st_v[NST-1];
    assign m_axis_tuser  = {st_sb[SBW*(NST-1)+SLOT_W+2 +: TAG_W], st_sb[SBW*(NST-1)]};
    tdea_perm #(.FINAL(1)) u_fp (.in(st_d[64*(NST-1) +: 64]), .out(m_axis_tdata));

    // slots used by blocks that still have a round ahead of them
    reg [NSLOT-1:0] inflight;
    integer s;
    always @(*) begin
        inflight = {NSLOT{1'b0}};
        for (s = 0; s < NST; s = s + 1) inflight = inflight | st_busy[NSLOT*s +: NSLOT];
    end

    wire kl_ok   = (key_bytes == 6'd24) || (key_bytes == 6'd16);
    assign key_ready = !ld_busy && !scrub_busy && !zeroize && !inflight[key_slot];
    wire key_hs = key_valid && key_ready;

    /* verilator lint_off UNUSEDSIGNAL */
    wire x_busy;
    /* verilator lint_on UNUSEDSIGNAL */
    tdea_keysched u_ks (
        .clk(clk), .rst(rst), .zeroize(zeroize), .start(key_hs && kl_ok),
        .key_data(key_data), .opt2(key_bytes == 6'd16), .busy(x_busy),
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
            if (x_valid && x_idx == 6'd47) begin
                ld_busy <= 1'b0;
                slot_ok[ld_slot] <= 1'b1;
            end
        end
    end
endmodule
`default_nettype wire
