// SPDX-License-Identifier: Apache-2.0
// aesip_top: the drop-in aesip IP. An AXI4-Lite register block (aesip_csr, generated from
// rdl/aesip_csr.rdl by PeakRDL: python -m aesip.gen_csr) in front of a mode engine:
// aes_mode_engine (rtl/modes/aes_mode_engine.v; LANES = 1) or aes_mode_multi
// (rtl/modes/aes_mode_multi.v; LANES >= 2 packets in flight on the same pair of cores),
// whose AXI4-Stream command, data and status ports are the ports of this module (the two
// engines have the same ports and semantics). Programmer's guide and register map:
// docs/soc.md.
//
// Parameters
//   CORE      : block core of the engine, by name: "iter128" (default), "iter32", "pipe"
//   SBOX_IMPL : 0 = table S-boxes, 1 = composite-field S-boxes
//   SLOT_W    : key-slot index width; 2**SLOT_W must equal N_SLOTS of the generated CSR
//               block (4 as committed: SLOT_W = 2; python -m aesip.gen_csr --slots N)
//   LEN_W, BUF_AW, NR_MAX : as aes_mode_engine (docs/mode_engine.md)
//   LANES     : packet contexts, 1 .. 127 (FEATURES.lanes): 1 (default) = aes_mode_engine,
//               one packet at a time; >= 2 = aes_mode_multi with LANES lanes on the CORE
//               cores (docs/mode_engine.md, "aes_mode_multi")
//   IN_AW     : LANES >= 2 only: log2 of each lane's input FIFO in 16-byte beats (>= 1,
//               default 7); ignored when LANES = 1
//   TB_AW     : board test blocks: log2 of their ciphertext buffer in 16-byte beats (1 .. 8);
//               the largest test packet is 16 * 2**min(TB_AW, BUF_AW) bytes
// Ports
//   clk, rst              : clock, synchronous active-high reset (CSR block and engine)
//   s_axil_*              : AXI4-Lite slave, 32-bit data, 12-bit byte address (4 KiB);
//                           addresses outside the register map answer SLVERR
//   s_axis_cmd_*, s_axis_*, m_axis_*, m_axis_sts_* : the engine's streams (docs/mode_engine.md),
//                           held off while the self-test runs or after it failed
//   irq                   : level interrupt, |(INTR_STATUS & INTR_ENABLE), registered
//
// Key commit: writing KEY_CTRL.commit of slot n marks the slot pending; the loader presents
// the slot's key words on the engine's key port (key_valid) until key_ready. LANES = 1:
// key_ready is low while a packet on that slot is in the engine, and while the load is
// presented the engine accepts no new command for that slot. LANES >= 2: double-buffered
// slots, the load is taken at once into a bank of the slot no running packet uses (the
// other one, or for a second load soon after a first the active one) while the running
// packets finish on the old key, and no new command for the slot is accepted from key_valid until
// the expansion is done (docs/mode_engine.md, "aes_mode_multi", "Key slots"). Either way
// the key takes effect for the next packet on the slot that starts after the commit, no
// packet is refused or lost. On the handshake the CSR key words of the slot
// are cleared (the key is then held only in the engine's key store).
// Zeroize: CTRL.zeroize = 1 pulses the engine's zeroize, clears every pending load and
// every CSR key word; the bit reads 1 until the engine's wipe (output buffers and, with
// LANES >= 2, input FIFOs) and key scrub are over.
// User packets still owed data: aes_mode_multi reports a zeroized packet (ZEROIZED) without
// waiting for its data, and its input demultiplexer drops the rest of the data up to tlast
// afterwards; aes_mode_engine's lane drains it before the status. So "the user's packets
// have left the engine" (before the self-test or the test blocks take it) is: every
// accepted user command has its status taken (inflight) and every accepted user command
// with data has had its tlast beat taken on s_axis (owed), for both engines.
// Self-test (aesip_selftest, docs/soc.md "Self-test"): after reset and on SELFTEST.run the
// known-answer tests run on the engine through the port mux below; meanwhile and after a
// failure the user's streams are held off (s_axis_cmd_tready low; s_axis_tready low while
// the self-test owns the engine or has failed; nothing on m_axis / m_axis_sts). An
// on-demand run first zeroizes (as CTRL.zeroize, without its CTRL bit and interrupt) and
// takes the engine once the user's packets have left it; the KAT key is removed with an
// engine zeroize at the end. Commits written during a run stay pending and are loaded
// after it, before the first command is accepted.
// Board test blocks (aesip_tblk, docs/soc.md "Board test blocks"): with TEST_CTRL.enable = 1
// the user's commands are held off; once the user's packets have left the engine (statuses
// taken, data taken up to tlast), the self-test has passed and no zeroize runs, aesip_tblk
// takes the engine through the same port mux (s_axis_tready low, nothing on m_axis / m_axis_sts, test packets not
// counted in PKT_COUNT and the error counters) and runs CCM encrypt-decrypt loopbacks of
// LFSR data on a user-loaded slot. Clearing enable, CTRL.zeroize or SELFTEST.run stop a run
// after its current packet; a self-test run waits until the test blocks have let go.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aesip_top #(
    parameter [63:0] CORE = "iter128",
    parameter SBOX_IMPL = 0,
    parameter SLOT_W    = 2,
    parameter LEN_W     = 32,
    parameter BUF_AW    = 8,
    parameter NR_MAX    = 14,
    parameter TB_AW     = 7,
    parameter LANES     = 1,
    parameter IN_AW     = 7
) (
    input  wire          clk,
    input  wire          rst,
    // AXI4-Lite slave
    input  wire          s_axil_awvalid,
    output wire          s_axil_awready,
    input  wire [11:0]   s_axil_awaddr,
    input  wire [2:0]    s_axil_awprot,
    input  wire          s_axil_wvalid,
    output wire          s_axil_wready,
    input  wire [31:0]   s_axil_wdata,
    input  wire [3:0]    s_axil_wstrb,
    output wire          s_axil_bvalid,
    input  wire          s_axil_bready,
    output wire [1:0]    s_axil_bresp,
    input  wire          s_axil_arvalid,
    output wire          s_axil_arready,
    input  wire [11:0]   s_axil_araddr,
    input  wire [2:0]    s_axil_arprot,
    output wire          s_axil_rvalid,
    input  wire          s_axil_rready,
    output wire [31:0]   s_axil_rdata,
    output wire [1:0]    s_axil_rresp,
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
    output wire [135:0]  m_axis_sts_tdata,
    // interrupt
    output reg           irq
);
    `include "aes_mode_if.vh"   // error codes (data/mode_engine.yaml)

    localparam integer NS = 1 << SLOT_W;
    generate
        `AESIP_CHECK(NS == aesip_csr_pkg::N_SLOTS, aesip_top_SLOT_W_not_csr_slots,
                     "aesip_top: 2**SLOT_W must equal N_SLOTS of aesip_csr (python -m aesip.gen_csr --slots)")
        `AESIP_CHECK(LANES >= 1 && LANES <= 127, aesip_top_LANES_not_1_to_127,
                     "aesip_top: LANES must be 1 .. 127 (FEATURES.lanes is 7 bits)")
        `AESIP_CHECK(IN_AW >= 1, aesip_top_IN_AW_below_1, "aesip_top: IN_AW must be >= 1")
    endgenerate
    localparam [3:0] CORE_ID = (CORE == "iter128") ? 4'd1 : (CORE == "iter32") ? 4'd2 :
                               (CORE == "pipe") ? 4'd3 : 4'd0;
    localparam [2:0] KEY_SIZES = (NR_MAX >= 14) ? 3'b111 : (NR_MAX >= 12) ? 3'b011 : 3'b001;
    // zeroize completes after the engine's output-buffer wipe (2**BUF_AW + 2 clocks; with
    // LANES >= 2 also the input FIFOs' wipe, 2**IN_AW clocks, at the same time) and the
    // cores' key scrub (at most 2**(SLOT_W+4) + 1 clocks; with LANES >= 2 the cores hold
    // two banks per slot and aes_iter128's scrub takes 2**(SLOT_W+5): the wait below then
    // ends on key_ready), and when key_ready is back
    localparam integer WIPE_AW = (LANES > 1 && IN_AW > BUF_AW) ? IN_AW : BUF_AW;
    localparam integer ZWAIT = (1 << WIPE_AW) + (1 << (SLOT_W + 4)) + 8;
    localparam integer ZCW = $clog2(ZWAIT + 1);

    aesip_csr_pkg::aesip_csr__in_t  hwif_in;
    aesip_csr_pkg::aesip_csr__out_t hwif_out;

    aesip_csr u_csr (
        .clk(clk), .rst(rst),
        .s_axil_awready(s_axil_awready), .s_axil_awvalid(s_axil_awvalid), .s_axil_awaddr(s_axil_awaddr),
        .s_axil_awprot(s_axil_awprot), .s_axil_wready(s_axil_wready), .s_axil_wvalid(s_axil_wvalid),
        .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), .s_axil_bready(s_axil_bready),
        .s_axil_bvalid(s_axil_bvalid), .s_axil_bresp(s_axil_bresp), .s_axil_arready(s_axil_arready),
        .s_axil_arvalid(s_axil_arvalid), .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
        .s_axil_rready(s_axil_rready), .s_axil_rvalid(s_axil_rvalid), .s_axil_rdata(s_axil_rdata),
        .s_axil_rresp(s_axil_rresp),
        .hwif_in(hwif_in), .hwif_out(hwif_out)
    );

    // ---------------------------------------------------------------- key loader
    reg  [NS-1:0]     pending;      // committed, not yet taken by the engine
    reg  [NS-1:0]     loaded;       // holds a usable key
    reg  [5:0]        klen [NS];    // length latched at commit
    reg               ld_active;    // key_valid
    reg  [SLOT_W-1:0] ld_slot;
    reg               zbusy;        // zeroize in progress (CTRL.zeroize reads 1)
    reg               zstart_q;
    reg  [ZCW-1:0]    zcnt;
    wire [255:0]      key_data;
    wire [255:0]      slot_key [NS];
    reg               zcsr;         // the zeroize in progress was written to CTRL.zeroize
    // self-test
    wire              st_busy, st_pass, st_fail, st_done, st_own, st_zreq, st_zfull;
    wire [3:0]        st_fail_index;
    wire [7:0]        st_tests;
    reg               rel_hold;     // after a run: commits made during it are loaded first
    reg  [7:0]        inflight;     // user commands accepted - user statuses taken
    reg  [7:0]        owed;         // user commands with data accepted - user tlast beats taken
    wire              drained = inflight == 8'd0 && owed == 8'd0;   // no user packet in the engine
    // CTRL.zeroize (the written 1, first cycle; deferred while the self-test runs) or a
    // zeroize requested by the self-test (zfull: also the CSR key words and commits)
    wire              zstart_csr = hwif_out.CTRL.zeroize.value && !zbusy && !st_busy;
    wire              zstart = zstart_csr || st_zreq;
    wire              zclear = zstart_csr || (st_zreq && st_zfull);
    wire              ld_valid = ld_active && !zstart && !st_busy;   // to the engine's key port
    wire              key_ready;
    wire              key_fire = ld_valid && key_ready;
    wire              zdone = zbusy && !zstart_q && zcnt == 0 && key_ready;
    wire              kwr_block = zbusy && zcsr;   // key writes and commits ignored

    // lowest pending slot
    reg               any_pend;
    reg  [SLOT_W-1:0] pend_slot;
    always @(*) begin
        any_pend = 1'b0;
        pend_slot = {SLOT_W{1'b0}};
        for (int s = NS - 1; s >= 0; s--)
            if (pending[s]) begin
                any_pend = 1'b1;
                pend_slot = s[SLOT_W-1:0];
            end
    end

    genvar gs, gw;
    generate
        for (gs = 0; gs < NS; gs++) begin : g_slot
            for (gw = 0; gw < 8; gw++) begin : g_word
                // key words can be written only while no commit of the slot is pending;
                // cleared once the engine has the key, and by zeroize
                assign hwif_in.SLOT[gs].KEY[gw].data.swwe = !pending[gs] && !kwr_block;
                assign hwif_in.SLOT[gs].KEY[gw].data.hwclr = zclear || (key_fire && ld_slot == gs);
                assign slot_key[gs][32*gw +: 32] = hwif_out.SLOT[gs].KEY[gw].data.value;
            end
            assign hwif_in.SLOT[gs].KEY_STATUS.loaded.next  = loaded[gs];
            assign hwif_in.SLOT[gs].KEY_STATUS.pending.next = pending[gs];
        end
    endgenerate
    assign key_data = slot_key[ld_slot];   // the key words of the slot being loaded

    always @(posedge clk) begin
        if (rst) begin
            pending   <= {NS{1'b0}};
            loaded    <= {NS{1'b0}};
            ld_active <= 1'b0;
            ld_slot   <= {SLOT_W{1'b0}};
            for (int s = 0; s < NS; s++) klen[s] <= 6'd0;
        end else if (zclear) begin
            pending   <= {NS{1'b0}};
            loaded    <= {NS{1'b0}};
            ld_active <= 1'b0;
            for (int s = 0; s < NS; s++) klen[s] <= 6'd0;
        end else begin
            for (int s = 0; s < NS; s++)
                if (hwif_out.SLOT[s].KEY_CTRL.commit.value && !pending[s] && !kwr_block) begin
                    pending[s] <= 1'b1;
                    klen[s]    <= hwif_out.SLOT[s].KEY_CTRL.len.value;
                end
            if (key_fire) begin
                pending[ld_slot] <= 1'b0;
                loaded[ld_slot]  <= (klen[ld_slot] == 6'd16) || (klen[ld_slot] == 6'd24 && NR_MAX >= 12) ||
                                    (klen[ld_slot] == 6'd32 && NR_MAX >= 14);
                ld_active <= 1'b0;
            end else if (!ld_active && any_pend) begin
                ld_active <= 1'b1;
                ld_slot   <= pend_slot;
            end
        end
    end

    // ---------------------------------------------------------------- zeroize sequence
    always @(posedge clk) begin
        if (rst) begin
            zbusy    <= 1'b0;
            zstart_q <= 1'b0;
            zcnt     <= {ZCW{1'b0}};
            zcsr     <= 1'b0;
        end else begin
            zstart_q <= zstart;
            if (zstart) begin
                zbusy <= 1'b1;
                zcsr  <= zstart_csr;
                zcnt  <= ZCW'(ZWAIT);
            end else if (zdone) begin
                zbusy <= 1'b0;
            end else if (zcnt != 0) begin
                zcnt <= zcnt - 1'b1;
            end
        end
    end
    assign hwif_in.CTRL.zeroize.hwclr = zdone && zcsr;

    // ---------------------------------------------------------------- self-test
    // engine side of the port mux
    wire          e_key_valid, e_cmd_valid, e_cmd_ready, e_in_valid, e_in_ready, e_in_last;
    wire [SLOT_W-1:0] e_key_slot;
    wire [5:0]    e_key_bytes;
    wire [255:0]  e_key_data;
    wire [511:0]  e_cmd_data;
    wire [127:0]  e_in_data, e_out_data;
    wire [15:0]   e_in_keep, e_out_keep;
    wire          e_out_valid, e_out_ready, e_out_last, e_out_user, e_sts_valid, e_sts_ready;
    wire [135:0]  e_sts_data;
    // self-test side
    wire          t_key_valid, t_cmd_valid, t_in_valid, t_in_last;
    wire [SLOT_W-1:0] t_key_slot;
    wire [5:0]    t_key_bytes;
    wire [255:0]  t_key_data;
    wire [511:0]  t_cmd_data;
    wire [127:0]  t_in_data;
    wire [15:0]   t_in_keep;

    // board test side
    wire          b_own, b_hold_user, b_busy, b_done_flag, b_done, b_aborted;
    wire          b_cmd_valid, b_in_valid, b_in_last;
    wire [511:0]  b_cmd_data;
    wire [127:0]  b_in_data;
    wire [15:0]   b_in_keep;
    wire [12:0]   b_max_size;
    wire [31:0]   b_pkts, b_errs, b_auth_fails, b_data_errs, b_cycles;

    aesip_selftest #(.SLOT_W(SLOT_W), .NR_MAX(NR_MAX)) u_selftest (
        .clk(clk), .rst(rst), .run(hwif_out.SELFTEST.run.value), .zbusy(zbusy),
        .drained(drained && !b_own),
        .zreq(st_zreq), .zfull(st_zfull), .busy(st_busy), .pass(st_pass), .fail(st_fail),
        .fail_index(st_fail_index), .done(st_done), .own(st_own), .tests(st_tests),
        .key_valid(t_key_valid), .key_ready(key_ready), .key_slot(t_key_slot), .key_bytes(t_key_bytes),
        .key_data(t_key_data),
        .cmd_valid(t_cmd_valid), .cmd_ready(e_cmd_ready), .cmd_data(t_cmd_data),
        .in_valid(t_in_valid), .in_ready(e_in_ready), .in_data(t_in_data), .in_keep(t_in_keep), .in_last(t_in_last),
        .out_valid(e_out_valid), .out_data(e_out_data), .out_keep(e_out_keep), .out_last(e_out_last),
        .out_user(e_out_user), .sts_valid(e_sts_valid), .sts_data(e_sts_data)
    );

    // board test blocks: take the engine when no user packet is in it, the self-test has
    // passed and is idle and no zeroize runs; a run stops (after its current packet) and the
    // engine is given back when enable is cleared, a self-test run starts or a zeroize runs
    aesip_tblk #(.SLOT_W(SLOT_W), .TB_AW(TB_AW), .BUF_AW(BUF_AW)) u_tblk (
        .clk(clk), .rst(rst), .enable(hwif_out.TEST_CTRL.enable.value), .start(hwif_out.TEST_CTRL.start.value),
        .may_take(drained && st_pass && !st_busy && !zbusy), .stop(st_busy || zbusy),
        .cfg_slot(hwif_out.TEST_CTRL.slot.value[SLOT_W-1:0]), .cfg_cut(hwif_out.TEST_CTRL.cut.value),
        .cfg_size(hwif_out.TEST_SIZE.bytes.value), .cfg_count(hwif_out.TEST_COUNT.count.value),
        .cfg_seed(hwif_out.TEST_SEED.seed.value), .cfg_inj_en(hwif_out.TEST_ERR_INJ.en.value),
        .cfg_inj_bit(hwif_out.TEST_ERR_INJ.bitpos.value), .cfg_inj_beat(hwif_out.TEST_ERR_INJ.beat.value),
        .cfg_inj_every(hwif_out.TEST_ERR_INJ.every.value),
        .own(b_own), .hold_user(b_hold_user), .busy(b_busy), .done_flag(b_done_flag), .done(b_done),
        .aborted(b_aborted), .max_size(b_max_size), .pkts(b_pkts), .errs(b_errs), .auth_fails(b_auth_fails),
        .data_errs(b_data_errs), .cycles(b_cycles),
        .cmd_valid(b_cmd_valid), .cmd_ready(e_cmd_ready), .cmd_data(b_cmd_data),
        .in_valid(b_in_valid), .in_ready(e_in_ready), .in_data(b_in_data), .in_keep(b_in_keep), .in_last(b_in_last),
        .out_valid(e_out_valid), .out_data(e_out_data), .out_keep(e_out_keep), .out_user(e_out_user),
        .sts_valid(e_sts_valid), .sts_data(e_sts_data)
    );

    // user commands: only after a passing run, once the commits made during it are loaded,
    // and not in board test mode
    wire cmd_open  = st_pass && !st_busy && !rel_hold && !b_hold_user;
    // user data: flows except while the self-test or the test blocks own the engine or the
    // self-test has failed (during an on-demand run's zeroize the user's aborted packets are
    // still drained up to tlast)
    wire data_open = !st_own && !st_fail && !b_own;
    wire any_own   = st_own || b_own;
    assign e_key_valid = st_own ? t_key_valid : ld_valid;
    assign e_key_slot  = st_own ? t_key_slot  : ld_slot;
    assign e_key_bytes = st_own ? t_key_bytes : klen[ld_slot];
    assign e_key_data  = st_own ? t_key_data  : key_data;
    assign e_cmd_valid = st_own ? t_cmd_valid : b_own ? b_cmd_valid : s_axis_cmd_tvalid && cmd_open;
    assign e_cmd_data  = st_own ? t_cmd_data  : b_own ? b_cmd_data  : s_axis_cmd_tdata;
    assign s_axis_cmd_tready = e_cmd_ready && cmd_open && !any_own;
    assign e_in_valid  = st_own ? t_in_valid  : b_own ? b_in_valid  : s_axis_tvalid && data_open;
    assign e_in_data   = st_own ? t_in_data   : b_own ? b_in_data   : s_axis_tdata;
    assign e_in_keep   = st_own ? t_in_keep   : b_own ? b_in_keep   : s_axis_tkeep;
    assign e_in_last   = st_own ? t_in_last   : b_own ? b_in_last   : s_axis_tlast;
    assign s_axis_tready = e_in_ready && data_open;
    // nothing of the self-test's or the test blocks' packets reaches the user's outputs
    assign m_axis_tvalid = e_out_valid && !any_own;
    assign m_axis_tdata  = any_own ? 128'd0 : e_out_data;
    assign m_axis_tkeep  = e_out_keep;
    assign m_axis_tlast  = e_out_last;
    assign m_axis_tuser  = e_out_user;
    assign e_out_ready   = any_own || m_axis_tready;
    assign m_axis_sts_tvalid = e_sts_valid && !any_own;
    assign m_axis_sts_tdata  = any_own ? 136'd0 : e_sts_data;
    assign e_sts_ready       = any_own || m_axis_sts_tready;

    // a packet has data beats (up to tlast) iff its aad_len or payload_len is not 0, in
    // both engines (docs/mode_engine.md)
    wire cmd_has_data = s_axis_cmd_tdata[CMD_AAD_LEN_LSB +: CMD_AAD_LEN_W] != {CMD_AAD_LEN_W{1'b0}} ||
                        s_axis_cmd_tdata[CMD_PAYLOAD_LEN_LSB +: CMD_PAYLOAD_LEN_W] != {CMD_PAYLOAD_LEN_W{1'b0}};
    always @(posedge clk) begin
        if (rst) begin
            rel_hold <= 1'b1;
            inflight <= 8'd0;
            owed     <= 8'd0;
        end else begin
            if (st_busy) rel_hold <= 1'b1;
            else if (!any_pend) rel_hold <= 1'b0;
            inflight <= inflight + 8'(s_axis_cmd_tvalid && s_axis_cmd_tready)
                                 - 8'(m_axis_sts_tvalid && m_axis_sts_tready);
            owed     <= owed + 8'(s_axis_cmd_tvalid && s_axis_cmd_tready && cmd_has_data)
                             - 8'(s_axis_tvalid && s_axis_tready && s_axis_tlast);
        end
    end

    assign hwif_in.SELFTEST.busy.next       = st_busy;
    assign hwif_in.SELFTEST.pass.next       = st_pass;
    assign hwif_in.SELFTEST.fail.next       = st_fail;
    assign hwif_in.SELFTEST.fail_index.next = st_fail_index;
    assign hwif_in.SELFTEST.tests.next      = st_tests;

    assign hwif_in.TEST_CTRL.busy.next      = b_busy;
    assign hwif_in.TEST_CTRL.done.next      = b_done_flag;
    assign hwif_in.TEST_CTRL.own.next       = b_own;
    assign hwif_in.TEST_CTRL.aborted.next   = b_aborted;
    assign hwif_in.TEST_SIZE.max.next       = b_max_size;
    assign hwif_in.TEST_PKTS.count.next     = b_pkts;
    assign hwif_in.TEST_ERRS.count.next     = b_errs;
    assign hwif_in.TEST_AUTH_FAILS.count.next = b_auth_fails;
    assign hwif_in.TEST_DATA_ERRS.count.next  = b_data_errs;
    assign hwif_in.TEST_CYCLES.count.next     = b_cycles;

    // ---------------------------------------------------------------- engine
    // LANES = 1: aes_mode_engine; LANES >= 2: aes_mode_multi (aes_mode_sel: the engine is
    // u_engine.g_single.u_eng or u_engine.g_multi.u_eng). Same ports and stream
    // semantics; the differences that matter here (zeroized packets' statuses before their
    // data, the input FIFOs' wipe) are handled above (owed, WIPE_AW).
    aes_mode_sel #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .LEN_W(LEN_W),
                   .BUF_AW(BUF_AW), .NR_MAX(NR_MAX), .LANES(LANES), .IN_AW(IN_AW)) u_engine (
        .clk(clk), .rst(rst), .zeroize(zstart),
        .key_valid(e_key_valid), .key_ready(key_ready), .key_slot(e_key_slot),
        .key_bytes(e_key_bytes), .key_data(e_key_data),
        .s_axis_cmd_tvalid(e_cmd_valid), .s_axis_cmd_tready(e_cmd_ready), .s_axis_cmd_tdata(e_cmd_data),
        .s_axis_tvalid(e_in_valid), .s_axis_tready(e_in_ready), .s_axis_tdata(e_in_data),
        .s_axis_tkeep(e_in_keep), .s_axis_tlast(e_in_last),
        .m_axis_tvalid(e_out_valid), .m_axis_tready(e_out_ready), .m_axis_tdata(e_out_data),
        .m_axis_tkeep(e_out_keep), .m_axis_tlast(e_out_last), .m_axis_tuser(e_out_user),
        .m_axis_sts_tvalid(e_sts_valid), .m_axis_sts_tready(e_sts_ready), .m_axis_sts_tdata(e_sts_data)
    );

    // ---------------------------------------------------------------- counters, interrupts
    wire       sts_fire = m_axis_sts_tvalid && m_axis_sts_tready;
    wire [7:0] sts_err  = m_axis_sts_tdata[STS_ERR_LSB +: STS_ERR_W];
    wire       ev_auth  = sts_fire && sts_err == ERR_AUTH;
    wire       ev_frame = sts_fire && sts_err == ERR_FRAMING;
    wire       ev_key   = sts_fire && sts_err == ERR_KEY;
    assign hwif_in.PKT_COUNT.count.incr         = sts_fire;
    assign hwif_in.AUTH_FAIL_COUNT.count.incr   = ev_auth;
    assign hwif_in.FRAMING_ERR_COUNT.count.incr = ev_frame;
    assign hwif_in.KEY_ERR_COUNT.count.incr     = ev_key;

    assign hwif_in.INTR_STATUS.pkt_done.hwset     = sts_fire || hwif_out.INTR_TEST.pkt_done.value;
    assign hwif_in.INTR_STATUS.auth_fail.hwset    = ev_auth  || hwif_out.INTR_TEST.auth_fail.value;
    assign hwif_in.INTR_STATUS.framing_err.hwset  = ev_frame || hwif_out.INTR_TEST.framing_err.value;
    assign hwif_in.INTR_STATUS.key_err.hwset      = ev_key   || hwif_out.INTR_TEST.key_err.value;
    assign hwif_in.INTR_STATUS.key_loaded.hwset   = key_fire || hwif_out.INTR_TEST.key_loaded.value;
    assign hwif_in.INTR_STATUS.zeroize_done.hwset = (zdone && zcsr) || hwif_out.INTR_TEST.zeroize_done.value;
    assign hwif_in.INTR_STATUS.selftest_done.hwset = st_done || hwif_out.INTR_TEST.selftest_done.value;
    assign hwif_in.INTR_STATUS.selftest_fail.hwset = (st_done && st_fail) || hwif_out.INTR_TEST.selftest_fail.value;
    assign hwif_in.INTR_STATUS.test_done.hwset = b_done || hwif_out.INTR_TEST.test_done.value;

    wire [8:0] istat = {hwif_out.INTR_STATUS.test_done.value, hwif_out.INTR_STATUS.selftest_fail.value, hwif_out.INTR_STATUS.selftest_done.value,
                        hwif_out.INTR_STATUS.zeroize_done.value, hwif_out.INTR_STATUS.key_loaded.value,
                        hwif_out.INTR_STATUS.key_err.value, hwif_out.INTR_STATUS.framing_err.value,
                        hwif_out.INTR_STATUS.auth_fail.value, hwif_out.INTR_STATUS.pkt_done.value};
    wire [8:0] ien   = {hwif_out.INTR_ENABLE.test_done.value, hwif_out.INTR_ENABLE.selftest_fail.value, hwif_out.INTR_ENABLE.selftest_done.value,
                        hwif_out.INTR_ENABLE.zeroize_done.value, hwif_out.INTR_ENABLE.key_loaded.value,
                        hwif_out.INTR_ENABLE.key_err.value, hwif_out.INTR_ENABLE.framing_err.value,
                        hwif_out.INTR_ENABLE.auth_fail.value, hwif_out.INTR_ENABLE.pkt_done.value};
    always @(posedge clk) irq <= !rst && |(istat & ien);

    // ---------------------------------------------------------------- identification
    assign hwif_in.FEATURES.core.next      = CORE_ID;
    assign hwif_in.FEATURES.nr_max.next    = 4'(NR_MAX);
    assign hwif_in.FEATURES.key_sizes.next = KEY_SIZES;
    assign hwif_in.FEATURES.slots.next     = 9'(NS);
    assign hwif_in.FEATURES.lanes.next     = 7'(LANES);
    assign hwif_in.SLOT_SUMMARY.loaded.next  = loaded;
    assign hwif_in.SLOT_SUMMARY.pending.next = pending;
endmodule
`default_nettype wire
