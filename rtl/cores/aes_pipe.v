// SPDX-License-Identifier: Apache-2.0
// aes_pipe: fully unrolled AES core, one block per clock (see docs/pipe.md, docs/cores.md).
//
// Pipeline: stage 0 (initial AddRoundKey) and NR_MAX round stages (aes_pipe_stage),
// forward cipher or equivalent inverse cipher (FIPS-197 5.3.5) selected per block.
// Rounds are aligned to the end of the pipeline, so the latency is the same for every
// key size and blocks leave in acceptance order. Every stage has its own round-key
// memory indexed by key slot (and direction); the key loader writes into each memory
// exactly the round key that stage needs for that slot, so the key may change between
// any two blocks. One global enable advances the whole pipeline.
//
// Parameters
//   SBOX_IMPL  : 0 table S-boxes, 1 composite-field S-boxes (default 0)
//   SLOT_W     : key-slot index width, 2**SLOT_W key slots (>= 1, default 1)
//   TAG_W      : sideband tag width (>= 1, default 8)
//   NR_MAX     : 10, 12 or 14 (default 14): largest supported key (AES-128/192/256).
//                A key with more rounds is accepted on the key port but its slot is
//                invalid, so its blocks come out with err = 1.
//   DIRECTION  : 0 encrypt only, 1 decrypt only, 2 both (tuser bit 0 per block);
//                a block asking for an unsupported direction comes out with err = 1
//   SUB_STAGES : 0, 1 or 2 extra registers inside each round (default 0):
//                1 = after SubBytes, 2 = after SubBytes and after MixColumns
// Ports (docs/cores.md)
//   clk, rst        : clock; synchronous active-high reset (clears data, tags, slots)
//   zeroize         : one-cycle pulse: invalidates every slot, aborts a key load,
//                     scrubs all round-key memories; blocks still in the pipeline
//                     (except the one in the output register) come out with err = 1,
//                     and every stage register's data is cleared
// Left behind: a stage's data register keeps the intermediate state of the last block
//   that passed it (bubbles do not load it, which saves switching power) until the next
//   block overwrites it, zeroize clears it or rst; the final output register holds zero
//   data for bubbles. So between packets the stages hold round states of the last
//   blocks; zeroize is the way to clear them.
//   key_valid/key_ready/key_slot/key_bytes/key_data : key-load handshake
//   s_axis_tvalid/tready/tdata/tuser  : input blocks, tuser = {tag, slot, dec}
//   m_axis_tvalid/tready/tdata/tuser  : output blocks, tuser = {tag, err}
// Timing
//   Latency: an input accepted at rising edge E is presented on m_axis at edge
//   E + NR_MAX * (1 + SUB_STAGES) (e.g. 14 for the defaults), for every key size.
//   Throughput: one block per clock while m_axis_tready is high.
//   Stall: en = !m_axis_tvalid || m_axis_tready advances every pipeline register;
//   s_axis_tready = en, except that a block is held off while its slot is being
//   loaded or requested (key_valid with key_slot equal to the block's slot).
//   Key load: key_ready is low while a load or scrub runs, during zeroize and while a
//   block of the requested slot is inside the pipeline (before its last
//   AddRoundKey). A legal load keeps key_ready low for 4 * Nr + 6 clocks after the
//   handshake (46 / 54 / 62); after rst or zeroize the scrub takes 2**AW clocks
//   (AW = SLOT_W + 1 when DIRECTION = 2, else SLOT_W).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_pipe #(
    parameter SBOX_IMPL  = 0,
    parameter SLOT_W     = 1,
    parameter TAG_W      = 8,
    parameter NR_MAX     = 14,
    parameter DIRECTION  = 2,
    parameter SUB_STAGES = 0
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
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SBOX_IMPL == 0 || SBOX_IMPL == 1, aes_pipe_SBOX_IMPL_not_0_or_1,
                     "aes_pipe: SBOX_IMPL must be 0 or 1")
        `AESIP_CHECK(SLOT_W >= 1, aes_pipe_SLOT_W_below_1, "aes_pipe: SLOT_W must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, aes_pipe_TAG_W_below_1, "aes_pipe: TAG_W must be >= 1")
        `AESIP_CHECK(NR_MAX == 10 || NR_MAX == 12 || NR_MAX == 14, aes_pipe_NR_MAX_not_10_12_14,
                     "aes_pipe: NR_MAX must be 10 or 12 or 14")
        `AESIP_CHECK(DIRECTION == 0 || DIRECTION == 1 || DIRECTION == 2, aes_pipe_DIRECTION_not_0_1_2,
                     "aes_pipe: DIRECTION must be 0 or 1 or 2")
        `AESIP_CHECK(SUB_STAGES == 0 || SUB_STAGES == 1 || SUB_STAGES == 2, aes_pipe_SUB_STAGES_not_0_1_2,
                     "aes_pipe: SUB_STAGES must be 0 or 1 or 2")
    endgenerate

    localparam SBW      = TAG_W + SLOT_W + 4;
    localparam NSLOT    = 1 << SLOT_W;
    localparam AW       = SLOT_W + ((DIRECTION == 2) ? 1 : 0);
    localparam NST      = NR_MAX + 1;             // stages 0 .. NR_MAX
    localparam OFFC_MAX = (NR_MAX - 10) / 2;      // offc of an AES-128 key

    // ------------------------------------------------------------------------------
    // Key slots: valid flag and offc = (NR_MAX - Nr) / 2 per slot
    // ------------------------------------------------------------------------------
    reg [NSLOT-1:0]   slot_ok;
    reg [2*NSLOT-1:0] slot_offc;

    // ------------------------------------------------------------------------------
    // Pipeline
    // ------------------------------------------------------------------------------
    wire [NST-1:0]       st_v;
    wire [SBW*NST-1:0]   st_sb;
    wire [128*NST-1:0]   st_d;
    wire [NSLOT*NST-1:0] st_busy;
    wire [NST-1:0]       st_we;
    wire [AW-1:0]        mem_waddr;
    wire [127:0]         mem_wdata;

    wire en = !st_v[NST-1] || m_axis_tready;

    // input side
    wire [SLOT_W-1:0] in_slot = s_axis_tuser[SLOT_W:1];
    wire [TAG_W-1:0]  in_tag  = s_axis_tuser[TAG_W+SLOT_W:SLOT_W+1];
    wire              in_dec_req = s_axis_tuser[0];
    wire              in_dec  = (DIRECTION == 2) ? in_dec_req : (DIRECTION == 1);
    wire              dir_bad = (DIRECTION == 0 && in_dec_req) || (DIRECTION == 1 && !in_dec_req);

    reg               ld_busy;
    reg [SLOT_W-1:0]  ld_slot;
    wire in_loading = ld_busy && (in_slot == ld_slot);
    wire in_keyreq  = key_valid && (key_slot == in_slot);
    assign s_axis_tready = en && !in_loading && !in_keyreq;
    wire in_acc = s_axis_tvalid && s_axis_tready;
    wire in_err = !slot_ok[in_slot] || dir_bad || zeroize;
    wire [SBW-1:0] in_sb = {in_tag, in_slot, slot_offc[2*in_slot +: 2], in_dec, in_err};

    genvar j;
    generate
        for (j = 0; j < NST; j = j + 1) begin : g_st
            wire             pv;
            wire [SBW-1:0]   psb;
            wire [127:0]     pd;
            if (j == 0) begin : g_first
                assign pv  = in_acc;
                assign psb = in_sb;
                assign pd  = s_axis_tdata;
            end else begin : g_next
                assign pv  = st_v[j-1];
                assign psb = st_sb[SBW*(j-1) +: SBW];
                assign pd  = st_d[128*(j-1) +: 128];
            end
            aes_pipe_stage #(
                .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .TAG_W(TAG_W), .NR_MAX(NR_MAX),
                .DIRECTION(DIRECTION), .SUB_STAGES(SUB_STAGES), .J(j)
            ) u_stage (
                .clk(clk), .rst(rst), .en(en), .kill(zeroize),
                .in_valid(pv), .in_sb(psb), .in_data(pd),
                .out_valid(st_v[j]), .out_sb(st_sb[SBW*j +: SBW]), .out_data(st_d[128*j +: 128]),
                .busy_slots(st_busy[NSLOT*j +: NSLOT]),
                .we(st_we[j]), .waddr(mem_waddr), .wdata(mem_wdata)
            );
        end
    endgenerate

    assign m_axis_tvalid = st_v[NST-1];
    assign m_axis_tdata  = st_d[128*(NST-1) +: 128];
    assign m_axis_tuser  = {st_sb[SBW*(NST-1)+SLOT_W+4 +: TAG_W], st_sb[SBW*(NST-1)]};

    // slots used by blocks that still have an AddRoundKey ahead of them
    reg [NSLOT-1:0] inflight;
    integer s;
    always @(*) begin
        inflight = {NSLOT{1'b0}};
        for (s = 0; s < NST; s = s + 1) inflight = inflight | st_busy[NSLOT*s +: NSLOT];
    end

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
    reg [AW-1:0] scrub_addr;
    assign key_ready = !ld_busy && !scrub_busy && !zeroize && !inflight[key_slot];
    wire key_hs = key_valid && key_ready;

    wire        x_valid, x_last;
    wire [5:0]  x_idx;
    wire [31:0] x_data;
    /* verilator lint_off UNUSEDSIGNAL */
    wire        x_busy;
    /* verilator lint_on UNUSEDSIGNAL */
    aes_key_expand #(.SBOX_IMPL(SBOX_IMPL)) u_kexp (
        .clk(clk), .rst(rst), .zeroize(zeroize), .start(key_hs && kl_fits),
        .key_data(key_data), .key_size(kl_size), .busy(x_busy),
        .w_valid(x_valid), .w_last(x_last), .w_idx(x_idx), .w_data(x_data));

    reg [1:0]   ld_offc;
    reg [95:0]  wsh;        // last three words of the current round key
    reg [127:0] rk_hold;    // complete round key k
    reg [3:0]   rk_k;
    reg         rk_last;    // k == Nr
    reg         pa, pb;     // write phases: A = encryption key, B = decryption key

    wire [3:0] ld_off = {1'b0, ld_offc, 1'b0};
    wire       zphase = ld_busy && x_valid && (x_idx[5:1] == 5'd0);   // w[0], w[1] cycles

    // InvMixColumns of the round key (decryption rounds 1 .. Nr-1)
    wire [127:0] rk_imc;
    genvar c;
    generate
        for (c = 0; c < 4; c = c + 1) begin : g_imc
            aes_mixcolumn #(.DIR(1)) u_imc (.in(rk_hold[32*c +: 32]), .inv(1'b1), .out(rk_imc[32*c +: 32]));
        end
    endgenerate
    wire use_imc = (rk_k != 4'd0) && !rk_last;

    assign mem_wdata = (scrub_busy || zphase) ? 128'd0 :
                       (pb && use_imc) ? rk_imc : rk_hold;
    wire wdec = zphase ? x_idx[0] : pb;
    generate
        if (DIRECTION == 2) begin : g_wa2
            assign mem_waddr = scrub_busy ? scrub_addr : {ld_slot, wdec};
        end else begin : g_wa1
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_wdec = wdec;
            /* verilator lint_on UNUSEDSIGNAL */
            assign mem_waddr = scrub_busy ? scrub_addr : ld_slot;
        end
        for (j = 0; j < NST; j = j + 1) begin : g_we
            /* verilator lint_off WIDTHEXPAND */
            assign st_we[j] = scrub_busy
                || (zphase && (j < ld_off))
                || (pa && DIRECTION != 1 && (j == rk_k + ld_off))
                || (pb && DIRECTION != 0 && (j == NR_MAX - rk_k));
            /* verilator lint_on WIDTHEXPAND */
        end
    endgenerate

    always @(posedge clk) begin
        if (rst || zeroize) begin
            slot_ok    <= {NSLOT{1'b0}};
            slot_offc  <= {2*NSLOT{1'b0}};
            ld_busy    <= 1'b0;
            ld_slot    <= {SLOT_W{1'b0}};
            ld_offc    <= 2'd0;
            wsh        <= 96'd0;
            rk_hold    <= 128'd0;
            rk_k       <= 4'd0;
            rk_last    <= 1'b0;
            pa         <= 1'b0;
            pb         <= 1'b0;
            scrub_busy <= 1'b1;
            scrub_addr <= {AW{1'b0}};
        end else begin
            if (scrub_busy) begin
                scrub_addr <= scrub_addr + 1'b1;
                if (&scrub_addr) scrub_busy <= 1'b0;
            end
            if (key_hs) begin
                slot_ok[key_slot] <= 1'b0;
                if (kl_fits) begin
                    ld_busy <= 1'b1;
                    ld_slot <= key_slot;
                    ld_offc <= kl_offc;
                end
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
            if (pb && rk_last) begin
                ld_busy <= 1'b0;
                slot_ok[ld_slot] <= 1'b1;
                slot_offc[2*ld_slot +: 2] <= ld_offc;
                wsh     <= 96'd0;
                rk_hold <= 128'd0;
                rk_last <= 1'b0;
            end
        end
    end
`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // Common block-core interface properties (formal/aes_core_props.v): stream rules,
    // one output per accepted block in order with its tag, err => zero data, bounded
    // response. Proven by formal/aes_pipe.sby (docs/formal.md). `define F_AES_PIPE when
    // this core is the top of the proof (its inputs are then assumed, else asserted).
    // CAP and LAT: one block per pipeline register, latency NR_MAX (1 + SUB_STAGES) + 1.
`ifdef F_AES_PIPE
    localparam F_TOP = 1;
`else
    localparam F_TOP = 0;
`endif
    aes_core_props #(.TAG_W(TAG_W), .SLOT_W(SLOT_W), .CAP(NR_MAX * (1 + SUB_STAGES) + 1), .LAT(NR_MAX * (1 + SUB_STAGES) + 1), .ASSUME_IN(F_TOP)) f_core (
        .clk(clk), .rst(rst), .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
        .key_bytes(key_bytes), .key_data(key_data),
        .s_valid(s_axis_tvalid), .s_ready(s_axis_tready), .s_data(s_axis_tdata), .s_user(s_axis_tuser),
        .m_valid(m_axis_tvalid), .m_ready(m_axis_tready), .m_data(m_axis_tdata), .m_user(m_axis_tuser));
`endif
endmodule
`default_nettype wire
