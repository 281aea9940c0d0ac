// SPDX-License-Identifier: Apache-2.0
// aes_mode_engine: AXI4-Stream engine for AES-CCM (SP 800-38C) and the plain modes
// ECB, CBC, CTR and CBC-MAC, on two AES cores (a chaining core "A" for CBC-MAC/CBC
// encryption and a parallel core "B" for the counter stream / ECB / CBC decryption), or
// (CORES = 1) on one core that plays both roles.
//
// In CCM, the CBC-MAC block of step i runs on core A in the same step as the counter
// block for step i+1 on core B, and step i+1 is issued in the cycle step i's results are
// consumed, so a packet costs one core latency + 1 per 16-byte block (Nr + 1 cycles on
// aes_iter128) for AAD and payload alike.
// The full interface (command beat layout, data framing, status, error codes, timing)
// is in docs/mode_engine.md. The packet logic is aes_mode_lane (rtl/modes/aes_mode_lane.v);
// this module is one lane wired straight to its two cores (aes_mode_multi shares one
// pair of cores among several lanes).
//
// Parameters
//   CORE      : block core used for both A and B (aes_core), by name: "iter128"
//               (default) = aes_iter128, "iter32" = aes_iter32, "pipe" = aes_pipe
//   SBOX_IMPL : 0 = table S-boxes, 1 = composite-field S-boxes (passed to the cores)
//   SLOT_W    : key-slot index width, 1 .. 8 (2**SLOT_W slots in each core)
//   LEN_W     : width of the internal length counters, BUF_AW + 4 .. 61; AAD or payload
//               lengths of 2**LEN_W bytes or more are rejected with ERR_LENGTH
//   BUF_AW    : log2 of the output buffer depth in 16-byte beats (>= 1); store-and-forward
//               CCM decryption accepts payloads up to 16 * 2**BUF_AW bytes (default 8:
//               4096 bytes, more than an 802.11 MSDU of 2304 bytes)
//   NR_MAX    : 10, 12 or 14 (default 14): the largest key the engine accepts
//               (AES-128/192/256); passed to aes_pipe, which then has NR_MAX round stages.
//               Packets on a slot loaded with a larger key fail with status KEY.
//   DIRECTION_B : 2 (default) = core B has both directions; 0 = core B is built
//               encrypt-only too (a CCM / CTR / CBC-MAC / encrypt-only engine: no inverse
//               S-boxes or inverse round-key schedule in either core); ECB decrypt and CBC
//               decrypt commands are then refused with status OP (no data out, data beats
//               consumed as for every command-time error). CORE "iter32" needs 2.
//   ROUNDS_PER_CLK : CORE "iter128" only: 1 (default) or 2 rounds per clock in both cores
//               (aes_iter128 ROUNDS_PER_CLK): a CCM step then takes Nr / 2 + 1 clocks
//               (6 for AES-128) instead of Nr + 1, at a slower clock (docs/mode_engine.md)
//   ROUND_STAGES : CORE "iter128" only: 1 (default) or 2: aes_iter128 ROUND_STAGES (one
//               round in two clocks, two blocks in flight); made for CORES = 1
//   CORES     : 2 (default) = two cores, A and B, each with its own round-key store
//               ("iter128": one key expansion, core A's, writes both stores; the other
//               cores expand their keys each); 1 = one core shared by both roles
//               (aes_core_share): the CBC-MAC block and the counter block of a CCM
//               step go into it one clock apart and are computed together when the core
//               has two blocks in flight (CORE "iter128" with ROUND_STAGES = 2), with one
//               key expansion and one round-key store. Built with DIRECTION_B's directions. A CCM step then
//               takes 2 Nr + 4 clocks (24 for AES-128; docs/mode_engine.md)
// Ports
//   clk, rst                          : clock, sync active-high reset
//   zeroize                           : one-cycle pulse: clears every key slot in both cores,
//                                       aborts every packet whose status is not yet presented
//                                       (status ZEROIZED) and wipes the lane and its output
//                                       buffer (docs/mode_engine.md, "Security")
//   key_valid/ready/slot/bytes/data   : key load into both cores (see docs/cores.md);
//                                       key_ready stays low while the packet in the engine
//                                       uses key_slot, and while key_valid is high a command
//                                       for key_slot is not accepted (the load goes first)
//   s_axis_cmd_*  (tdata 512 bits)    : one command beat per packet
//   s_axis_*      (tdata/tkeep/tlast) : AAD beats, then payload beats (segments start on
//                                       a beat boundary), tlast on the packet's last beat
//   m_axis_*      (tdata/tkeep/tlast/tuser) : output payload; tuser=1 on the last beat
//                                       marks a failed packet
//   m_axis_sts_*  (tdata 136 bits)    : one status beat per packet: [127:0] tag / MAC /
//                                       chaining value, [135:128] error code
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_mode_engine #(
    parameter [63:0] CORE = "iter128",
    parameter SBOX_IMPL = 0,
    parameter SLOT_W    = 2,
    parameter LEN_W     = 32,
    parameter BUF_AW    = 8,
    parameter NR_MAX    = 14,
    parameter DIRECTION_B = 2,
    parameter ROUNDS_PER_CLK = 1,
    parameter ROUND_STAGES = 1,
    parameter CORES = 2
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          zeroize,
    // key load
    input  wire          key_valid,
    output wire          key_ready,
    input  wire [SLOT_W-1:0] key_slot,
    input  wire [5:0]    key_bytes,
    input  wire [255:0]  key_data,
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
    output wire [135:0]  m_axis_sts_tdata
);
    `include "aes_mode_if.vh"   // command/status beat layout (data/mode_engine.yaml)

    // ---------------------------------------------------------------- parameter checks
    // (CORE and SBOX_IMPL are checked by aes_core)
    generate
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, aes_mode_engine_SLOT_W_not_1_to_8,
                     "aes_mode_engine: SLOT_W must be 1 .. 8")
        `AESIP_CHECK(BUF_AW >= 1, aes_mode_engine_BUF_AW_below_1, "aes_mode_engine: BUF_AW must be >= 1")
        `AESIP_CHECK(LEN_W >= BUF_AW + 4 && LEN_W <= 61, aes_mode_engine_LEN_W_out_of_range,
                     "aes_mode_engine: LEN_W must be BUF_AW + 4 .. 61")
        `AESIP_CHECK(NR_MAX == 10 || NR_MAX == 12 || NR_MAX == 14, aes_mode_engine_NR_MAX_not_10_12_14,
                     "aes_mode_engine: NR_MAX must be 10 or 12 or 14")
        `AESIP_CHECK(DIRECTION_B == 0 || DIRECTION_B == 2, aes_mode_engine_DIRECTION_B_not_0_or_2,
                     "aes_mode_engine: DIRECTION_B must be 0 or 2")
        `AESIP_CHECK(DIRECTION_B == 2 || CORE != "iter32", aes_mode_engine_iter32_DIRECTION_B_not_2,
                     "aes_mode_engine: CORE iter32 needs DIRECTION_B = 2")
        `AESIP_CHECK(ROUNDS_PER_CLK == 1 || (ROUNDS_PER_CLK == 2 && CORE == "iter128"),
                     aes_mode_engine_ROUNDS_PER_CLK_bad,
                     "aes_mode_engine: ROUNDS_PER_CLK must be 1, or 2 with CORE iter128")
        `AESIP_CHECK(ROUND_STAGES == 1 || (ROUND_STAGES == 2 && CORE == "iter128" && ROUNDS_PER_CLK == 1),
                     aes_mode_engine_ROUND_STAGES_bad,
                     "aes_mode_engine: ROUND_STAGES must be 1, or 2 with CORE iter128 and ROUNDS_PER_CLK 1")
        `AESIP_CHECK(CORES == 1 || CORES == 2, aes_mode_engine_CORES_not_1_or_2,
                     "aes_mode_engine: CORES must be 1 or 2")
    endgenerate

    // ---------------------------------------------------------------- the packet context
    // (command decode, step sequencer, output buffer, status: rtl/modes/aes_mode_lane.v)
    wire a_s_valid, a_s_ready, a_m_valid, a_m_ready, b_s_valid, b_s_ready, b_m_valid, b_m_ready;
    wire [127:0] a_in, b_in, a_m_data, b_m_data;
    wire [SLOT_W-1:0] a_slot, b_slot;
    wire a_dec, b_dec;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [1:0] a_m_user, b_m_user;   // {tag (unused), err}
    wire sts_empty;                  // only needed when lanes share an output (aes_mode_multi)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [135:0] sts_data;
    wire sts_valid;
    wire [(1 << SLOT_W)-1:0] key_usable;
    wire l_active;
    wire [SLOT_W-1:0] l_slot;
    wire l_cmd_ready;
    // a pending key load for the command's slot goes first (no starvation by traffic)
    wire cmd_hold = key_valid && (s_axis_cmd_tdata[CMD_SLOT_LSB +: CMD_SLOT_W] == {{(CMD_SLOT_W-SLOT_W){1'b0}}, key_slot});
    assign s_axis_cmd_tready = l_cmd_ready && !cmd_hold;
    aes_mode_lane #(.SLOT_W(SLOT_W), .LEN_W(LEN_W), .BUF_AW(BUF_AW), .ZDRAIN(1),
                    .DEC_OPS(DIRECTION_B == 2 ? 1 : 0)) u_lane (
        .clk(clk), .rst(rst), .zeroize(zeroize), .key_usable(key_usable),
        .active(l_active), .active_slot(l_slot),
        .s_axis_cmd_tvalid(s_axis_cmd_tvalid && !cmd_hold), .s_axis_cmd_tready(l_cmd_ready),
        .s_axis_cmd_tdata(s_axis_cmd_tdata),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), .s_axis_tdata(s_axis_tdata),
        .s_axis_tkeep(s_axis_tkeep), .s_axis_tlast(s_axis_tlast),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready), .m_axis_tdata(m_axis_tdata),
        .m_axis_tkeep(m_axis_tkeep), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .m_axis_sts_tvalid(sts_valid), .m_axis_sts_tready(m_axis_sts_tready),
        .m_axis_sts_tdata(sts_data), .m_axis_sts_empty(sts_empty),
        .a_s_valid(a_s_valid), .a_s_ready(a_s_ready), .a_s_data(a_in), .a_s_slot(a_slot), .a_s_dec(a_dec),
        .a_m_valid(a_m_valid), .a_m_ready(a_m_ready), .a_m_data(a_m_data), .a_m_err(a_m_user[0]),
        .b_s_valid(b_s_valid), .b_s_ready(b_s_ready), .b_s_data(b_in), .b_s_slot(b_slot), .b_s_dec(b_dec),
        .b_m_valid(b_m_valid), .b_m_ready(b_m_ready), .b_m_data(b_m_data), .b_m_err(b_m_user[0])
    );
    assign m_axis_sts_tvalid = sts_valid;
    assign m_axis_sts_tdata  = sts_data;

    // ---------------------------------------------------------------- the AES cores
    wire a_key_ready, b_key_ready;
    // a slot never changes under a packet: the load waits until the packet has finished
    assign key_ready = a_key_ready && b_key_ready && !(l_active && l_slot == key_slot);
    wire key_go = key_valid && key_ready;

    aes_key_slots #(.SLOT_W(SLOT_W), .NR_MAX(NR_MAX)) u_slots (
        .clk(clk), .rst(rst), .zeroize(zeroize), .load(key_go), .load_slot(key_slot),
        .load_bytes(key_bytes), .usable(key_usable));

    generate if (CORES == 1) begin : g_one
        // one core for both roles; A's blocks always encrypt (the lane drives a_s_dec = 0)
        assign b_key_ready = 1'b1;
        assign a_m_user[1] = 1'b0;
        assign b_m_user[1] = 1'b0;
        aes_core_share #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .NR_MAX(NR_MAX),
                         .DIRECTION(DIRECTION_B), .ROUNDS_PER_CLK(ROUNDS_PER_CLK),
                         .ROUND_STAGES(ROUND_STAGES)) u_ab (
            .clk(clk), .rst(rst), .zeroize(zeroize),
            .key_valid(key_go), .key_ready(a_key_ready), .key_slot(key_slot), .key_bytes(key_bytes),
            .key_data(key_data),
            .a_s_valid(a_s_valid), .a_s_ready(a_s_ready), .a_s_data(a_in), .a_s_slot(a_slot), .a_s_dec(a_dec),
            .a_m_valid(a_m_valid), .a_m_ready(a_m_ready), .a_m_data(a_m_data), .a_m_err(a_m_user[0]),
            .b_s_valid(b_s_valid), .b_s_ready(b_s_ready), .b_s_data(b_in), .b_s_slot(b_slot), .b_s_dec(b_dec),
            .b_m_valid(b_m_valid), .b_m_ready(b_m_ready), .b_m_data(b_m_data), .b_m_err(b_m_user[0]));
    end else begin : g_two
        // Core A only ever encrypts (CBC-MAC, CBC encryption: the lane drives a_s_dec = 0),
        // so it is built encrypt-only where the core allows it (aes_iter32 shares one
        // datapath for both directions and is always built with both).
        localparam A_DIRECTION = (CORE == "iter32") ? 2 : 0;
        // One key expansion for both cores ("iter128": core B has none and takes core A's,
        // aes_iter128 KX_EXT; both get every key load in the same clock, key_go)
        localparam KX_SHARE = (CORE == "iter128") ? 1 : 0;
        wire [40:0] a_kx;
        aes_core #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .TAG_W(1), .NR_MAX(NR_MAX),
                   .DIRECTION(A_DIRECTION), .ROUNDS_PER_CLK(ROUNDS_PER_CLK),
                   .ROUND_STAGES(ROUND_STAGES)) u_a (
            .clk(clk), .rst(rst), .zeroize(zeroize),
            .key_valid(key_go), .key_ready(a_key_ready), .key_slot(key_slot), .key_bytes(key_bytes), .key_data(key_data),
            .s_axis_tvalid(a_s_valid), .s_axis_tready(a_s_ready), .s_axis_tdata(a_in), .s_axis_tuser({1'b0, a_slot, a_dec}),
            .m_axis_tvalid(a_m_valid), .m_axis_tready(a_m_ready), .m_axis_tdata(a_m_data), .m_axis_tuser(a_m_user),
            .kx_out(a_kx), .kx_in(41'd0));
        // Core B decrypts for ECB/CBC decryption only; DIRECTION_B = 0 builds it encrypt-only
        // and the lane then refuses those ops (DEC_OPS = 0), so it never asks core B to decrypt.
        aes_core #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .TAG_W(1), .NR_MAX(NR_MAX),
                   .DIRECTION(DIRECTION_B), .ROUNDS_PER_CLK(ROUNDS_PER_CLK),
                   .ROUND_STAGES(ROUND_STAGES), .KX_EXT(KX_SHARE)) u_b (
            .clk(clk), .rst(rst), .zeroize(zeroize),
            .key_valid(key_go), .key_ready(b_key_ready), .key_slot(key_slot), .key_bytes(key_bytes), .key_data(key_data),
            .s_axis_tvalid(b_s_valid), .s_axis_tready(b_s_ready), .s_axis_tdata(b_in), .s_axis_tuser({1'b0, b_slot, b_dec}),
            .m_axis_tvalid(b_m_valid), .m_axis_tready(b_m_ready), .m_axis_tdata(b_m_data), .m_axis_tuser(b_m_user),
            /* verilator lint_off PINCONNECTEMPTY */
            .kx_out(),
            /* verilator lint_on PINCONNECTEMPTY */
            .kx_in(a_kx));
    end endgenerate
`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // Proven by formal/aes_mode_engine.sby (docs/formal.md) against abstract cores
    // (formal/stubs/aes_core.v). `define F_AES_MODE_ENGINE when this module is the top of
    // the proof: its inputs are then assumed to follow the stream rules, else asserted.
`ifdef F_AES_MODE_ENGINE
    localparam F_TOP = 1;
`else
    localparam F_TOP = 0;
`endif
    wire [7:0] f_cmd, f_sts, f_din, f_dout;
    wire       f_past;
    axis_props #(.DATA_W(512), .CNT_W(8), .ASSUME_IN(F_TOP)) f_pc (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(s_axis_cmd_tvalid), .tready(s_axis_cmd_tready),
        .tdata(s_axis_cmd_tdata), .tkeep(1'b1), .tlast(1'b0), .tuser(1'b0), .count(f_cmd), .f_past(f_past));
    /* verilator lint_off PINCONNECTEMPTY */
    axis_props #(.DATA_W(256), .KEEP_W(6), .USER_W(SLOT_W), .CNT_W(8), .ASSUME_IN(F_TOP)) f_pk (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(key_valid), .tready(key_ready), .tdata(key_data),
        .tkeep(key_bytes), .tlast(1'b0), .tuser(key_slot), .count(), .f_past());
    axis_props #(.DATA_W(128), .KEEP_W(16), .CNT_W(8), .ASSUME_IN(F_TOP)) f_pd (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(s_axis_tvalid), .tready(s_axis_tready),
        .tdata(s_axis_tdata), .tkeep(s_axis_tkeep), .tlast(s_axis_tlast), .tuser(1'b0), .count(f_din), .f_past());
    axis_props #(.DATA_W(128), .KEEP_W(16), .CNT_W(8), .ASSUME_IN(0)) f_po (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(m_axis_tvalid), .tready(m_axis_tready),
        .tdata(m_axis_tdata), .tkeep(m_axis_tkeep), .tlast(m_axis_tlast), .tuser(m_axis_tuser), .count(f_dout), .f_past());
    axis_props #(.DATA_W(136), .CNT_W(8), .ASSUME_IN(0)) f_ps (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(m_axis_sts_tvalid), .tready(m_axis_sts_tready),
        .tdata(m_axis_sts_tdata), .tkeep(1'b1), .tlast(1'b0), .tuser(1'b0), .count(f_sts), .f_past());
    /* verilator lint_on PINCONNECTEMPTY */
    generate if (F_TOP) begin : f_top
        always @(*) if (!f_past) assume(rst);
    end endgenerate

    // one status per accepted command, in order: statuses never outnumber commands,
    // at most two are open (one packet in the lane, the previous one's status waiting in the
    // status register: the lane takes the next command once its status is written)
    wire [7:0] f_open = f_cmd - f_sts;
    always @(*) if (f_past && !rst) assert(f_open <= 8'd2);

    // bounded progress (no deadlock): in an environment that, since reset, always offers
    // data (s_axis_tvalid, except in the cycle after reset) and always takes output and
    // status, a packet in the engine never goes F_N clocks without a handshake on
    // s_axis, m_axis or m_axis_sts, counted from the last zeroize (zeroize aborts and
    // wipes: an environment that keeps zeroizing legitimately stops all progress). Only
    // with `define F_ENGINE_LIVE, where the cores are fair (formal/stubs/aes_core.v,
    // F_CORE_FAIR).
`ifdef F_STALL_MAX
    localparam F_N = `F_STALL_MAX;   // set by the .sby per level (docs/formal.md)
`else
    localparam F_N = 10;
`endif
    reg       f_fair = 1'b1;
    reg [7:0] f_stall = 8'd0;
    reg       f_prst = 1'b1;
    always @(posedge clk) begin
        f_prst <= rst;
        if (rst) f_fair <= 1'b1;
        else if (!m_axis_tready || !m_axis_sts_tready || (!f_prst && !s_axis_tvalid)) f_fair <= 1'b0;
        if (rst || zeroize || f_open == 8'd0 || (s_axis_tvalid && s_axis_tready) || (m_axis_tvalid && m_axis_tready) ||
            (m_axis_sts_tvalid && m_axis_sts_tready)) f_stall <= 8'd0;
        else if (f_stall != 8'hff) f_stall <= f_stall + 1'b1;
    end
`ifdef F_ENGINE_LIVE
    always @(*) if (f_past && !rst && f_fair) f_live: assert(f_stall <= F_N);
`endif

    // covers: a packet's last output beat; an OK status; an error status
    always @(posedge clk) if (f_past && !rst) begin
        cover(m_axis_tvalid && m_axis_tready && m_axis_tlast && !m_axis_tuser);
        cover(m_axis_sts_tvalid && m_axis_sts_tready && m_axis_sts_tdata[135:128] == 8'd0);
        cover(m_axis_sts_tvalid && m_axis_sts_tready && m_axis_sts_tdata[135:128] != 8'd0);
    end
`endif
endmodule
`default_nettype wire
