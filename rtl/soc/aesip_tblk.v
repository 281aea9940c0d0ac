// SPDX-License-Identifier: Apache-2.0
// aesip_tblk: the board test blocks of aesip_top (docs/soc.md, "Board test blocks"): an
// LFSR traffic generator, a decrypt-after-encrypt loopback verifier and an error inserter,
// controlled from the CSR (TEST_* registers). While it owns the engine (`own` = 1) it drives
// the engine's command and data inputs through aesip_top's port mux and takes every output
// and status beat (aesip_top ties the engine's tready high and shows nothing to the user).
//
// One packet of a run (index k = 0 .. count-1, key slot `cfg_slot`, loaded by the user):
//   1. generator: CCM encrypt, 13-byte nonce = seed (4 bytes, little-endian) ‖ k (4 bytes,
//      little-endian) ‖ 5 zero bytes, no AAD, 16-byte tag, payload = `size` bytes of the
//      LFSR stream (below); the ciphertext beats are stored in a buffer of 2**min(TB_AW, BUF_AW)
//      beats
//      and the tag is taken from the status beat;
//   2. error inserter (when enabled and k is one of every Nth packets: (k + 1) % N == 0,
//      N = cfg_inj_every, 0 taken as 1): bit `cfg_inj_bit` (0..127) of beat `cfg_inj_beat`
//      of the stored ciphertext is flipped; when that byte is not part of the payload (beat
//      beyond the last, or a byte past the end of a partial last beat) bit cfg_inj_bit of
//      the tag is flipped instead, so that every inserted error changes the loop's data;
//   3. verifier: the buffer is sent back as a CCM decrypt on the same slot, nonce and tag
//      (store-and-forward, or cut-through when cfg_cut = 1); every output beat is compared
//      with the LFSR stream regenerated from the packet's start state (bytes outside tkeep
//      ignored, tkeep and the beat count checked).
// Per packet: pkts + 1; errs + 1 when the encrypt status is not OK (the decrypt is then
// skipped), the decrypt status is not OK, or the data mismatched; auth_fails + 1 when the
// decrypt status is AUTH; data_errs + 1 when an output beat mismatched (only possible with
// cut-through, where failed plaintext is released flagged) or an OK decrypt returned the
// wrong number of beats or a beat with tuser = 1. The counters are cleared when a run starts.
//
// LFSR stream: a 32-bit Galois LFSR, s <- (s >> 1) ^ (s[0] ? 32'h80200003 : 0), started
// from the seed (0 taken as 1) when the run starts and running on from packet to packet.
// A beat is the 4 words s0, s1, s2, s3 in bits [31:0] .. [127:96] (byte 0 = s0[7:0]),
// where s(i+1) is s(i) advanced 32 steps, and the next beat starts at s3 advanced 32 steps.
// The payload bytes past `size` in the last beat are 0 (tkeep clear).
//
// Sizes: the packet size is clamped at the start of a run to 1 .. MAX_SIZE bytes,
// MAX_SIZE = 16 * 2**min(TB_AW, BUF_AW) (the buffer here and the engine's store-and-forward
// limit; 0 is taken as 1), so every packet accepted fits both and the loop cannot stall.
//
// Ownership: with `enable` = 1 the user's commands are held off (`hold_user`); the block
// takes the engine (`own`) once `may_take` (aesip_top: no user packet in the engine, the
// self-test passed and idle, no zeroize running). A `start` pulse (with enable = 1) is
// remembered and the run begins once the engine is owned. A run ends after `count` packets,
// or early (`aborted` = 1) when enable is 0 or `stop` is high (aesip_top: a self-test run
// requested or a zeroize running) at a packet boundary; the packet in progress is always
// finished (its data sent, its status taken), so the engine is left with nothing in flight.
// The engine is given back when enable = 0 or stop is high and no run is in progress.
//
// Parameters
//   SLOT_W : key-slot index width of the engine (the slot field of the command)
//   TB_AW  : log2 of the ciphertext buffer depth in 16-byte beats (1 .. 8)
//   BUF_AW : the engine's output buffer depth, log2 beats (store-and-forward limit)
// Ports
//   clk, rst        : clock, synchronous active-high reset
//   enable, start   : TEST_CTRL.enable (level), TEST_CTRL.start (one-cycle pulse)
//   may_take, stop  : see Ownership
//   cfg_*           : TEST_CTRL.slot / cut, TEST_SIZE, TEST_COUNT, TEST_SEED, TEST_ERR_INJ
//                     (sampled when a run begins)
//   own, hold_user  : the engine ports are driven by this module; user commands held off
//   busy, done_flag : a run is in progress; the last run is complete (cleared at start)
//   done            : one-cycle pulse when a run ends
//   aborted         : the last run ended early (stop)
//   max_size        : constant MAX_SIZE
//   pkts, errs, auth_fails, data_errs, cycles : the counters of the current / last run
//                     (cycles: clocks from the run's begin to its end)
//   cmd_*, in_*, out_*, sts_* : the engine's ports (out_* and sts_* taken while own = 1)
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aesip_tblk #(
    parameter SLOT_W = 2,
    parameter TB_AW  = 7,
    parameter BUF_AW = 8
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              enable,
    input  wire              start,
    input  wire              may_take,
    input  wire              stop,
    input  wire [SLOT_W-1:0] cfg_slot,
    input  wire              cfg_cut,
    input  wire [12:0]       cfg_size,
    input  wire [31:0]       cfg_count,
    input  wire [31:0]       cfg_seed,
    input  wire              cfg_inj_en,
    input  wire [6:0]        cfg_inj_bit,
    input  wire [7:0]        cfg_inj_beat,
    input  wire [7:0]        cfg_inj_every,
    output reg               own,
    output wire              hold_user,
    output reg               busy,
    output reg               done_flag,
    output reg               done,
    output reg               aborted,
    output wire [12:0]       max_size,
    output reg  [31:0]       pkts,
    output reg  [31:0]       errs,
    output reg  [31:0]       auth_fails,
    output reg  [31:0]       data_errs,
    output reg  [31:0]       cycles,
    // engine command port
    output wire              cmd_valid,
    input  wire              cmd_ready,
    output reg  [511:0]      cmd_data,
    // engine data input
    output wire              in_valid,
    input  wire              in_ready,
    output wire [127:0]      in_data,
    output wire [15:0]       in_keep,
    output wire              in_last,
    // engine data output and status (taken while own = 1)
    input  wire              out_valid,
    input  wire [127:0]      out_data,
    input  wire [15:0]       out_keep,
    input  wire              out_user,
    input  wire              sts_valid,
    input  wire [135:0]      sts_data
);
    `include "aes_mode_if.vh"   // command/status beat layout (data/mode_engine.yaml)

    generate
        `AESIP_CHECK(TB_AW >= 1 && TB_AW <= 8, aesip_tblk_TB_AW_not_1_to_8, "aesip_tblk: TB_AW must be 1 .. 8")
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, aesip_tblk_SLOT_W_not_1_to_8, "aesip_tblk: SLOT_W must be 1 .. 8")
        `AESIP_CHECK(BUF_AW >= 1, aesip_tblk_BUF_AW_below_1, "aesip_tblk: BUF_AW must be >= 1")
    endgenerate

    localparam integer AW = (TB_AW < BUF_AW) ? TB_AW : BUF_AW;   // beats of the largest packet: 2**AW
    localparam integer DEPTH = 1 << AW;
    localparam [12:0] MAX_SIZE = 13'(16 << AW);
    localparam [31:0] POLY = 32'h8020_0003;
    assign max_size = MAX_SIZE;

    // 32 steps of the LFSR
    function [31:0] adv32(input [31:0] s);
        integer i;
        begin
            adv32 = s;
            for (i = 0; i < 32; i = i + 1)
                adv32 = (adv32 >> 1) ^ (adv32[0] ? POLY : 32'd0);
        end
    endfunction
    // the beat starting at state s
    function [127:0] lfsr_beat(input [31:0] s);
        reg [31:0] s1, s2, s3;
        begin
            s1 = adv32(s);
            s2 = adv32(s1);
            s3 = adv32(s2);
            lfsr_beat = {s3, s2, s1, s};
        end
    endfunction
    function [15:0] keep_of(input [4:0] n);   // n = 1..16 valid bytes
        keep_of = 16'hffff >> (5'd16 - n);
    endfunction

    // ---------------------------------------------------------------- configuration of a run
    reg [12:0]       size;          // clamped
    reg [31:0]       count, seed;
    reg [SLOT_W-1:0] slot;
    reg              cut, inj_en;
    reg [6:0]        inj_bit;
    reg [7:0]        inj_beat, inj_every;
    wire [12:0]      size_in = (cfg_size == 13'd0) ? 13'd1 : (cfg_size > MAX_SIZE) ? MAX_SIZE : cfg_size;
    // beats of a packet, bytes in its last beat
    wire [AW:0]      nbeats = (AW + 1)'((size + 13'd15) >> 4);
    wire [4:0]       last_bytes = (size[3:0] == 4'd0) ? 5'd16 : {1'b0, size[3:0]};
    wire [AW:0]      last_beat = nbeats - 1'b1;

    // ---------------------------------------------------------------- sequencer
    localparam [3:0] S_IDLE  = 4'd0,   // not running (takes / gives back the engine)
                     S_NEXT  = 4'd1,   // packet boundary
                     S_ECMD  = 4'd2,   // encrypt command
                     S_EDATA = 4'd3,   // encrypt data (generator)
                     S_EWAIT = 4'd4,   // encrypt output into the buffer, status
                     S_DCMD  = 4'd5,   // decrypt command
                     S_DDATA = 4'd6,   // decrypt data (buffer, error inserter)
                     S_DWAIT = 4'd7,   // decrypt output (verifier), status
                     S_END   = 4'd8;   // packet verdict

    reg [3:0]   state;
    reg         go;          // start requested
    reg [31:0]  pkt;         // packet index
    reg [31:0]  lfsr;        // generator state
    reg [31:0]  lfsr_pkt;    // state at the packet's start (for the verifier)
    reg [31:0]  vlfsr;       // verifier state
    reg [7:0]   inj_cnt;     // packets to go until the next injection
    reg         inj_now;     // the current packet gets an error
    reg [AW:0]  beat;        // input beat index
    reg [AW:0]  obeat;       // output beat index
    reg [127:0] tag;         // the encrypt's tag
    reg         sts_seen;
    reg [7:0]   sts_err;
    reg [127:0] sts_val;
    reg         mism;        // the verifier saw a wrong beat
    reg         flagged;     // an output beat had tuser = 1
    reg         enc_bad;     // the encrypt failed
    reg [127:0] mem [0:DEPTH-1];

    assign hold_user = enable || own;
    wire dec_phase = state == S_DCMD || state == S_DDATA || state == S_DWAIT;
    wire enc_phase = state == S_ECMD || state == S_EDATA || state == S_EWAIT;

    // error inserter: the flip in the data beat or in the tag
    wire [3:0]   inj_byte = inj_bit[6:3];
    wire [8:0]   inj_beat_x = {1'b0, inj_beat};
    wire [8:0]   last_beat_x = 9'(last_beat);
    wire [8:0]   beat_x = 9'(beat);
    wire         inj_in_data = (inj_beat_x < last_beat_x) ||
                               (inj_beat_x == last_beat_x && {1'b0, inj_byte} < last_bytes);
    wire [127:0] flip = 128'd1 << inj_bit;

    wire [15:0]  beat_keep = (beat == last_beat) ? keep_of(last_bytes) : 16'hffff;
    wire [127:0] gen_data = lfsr_beat(lfsr);
    wire [127:0] keep_bits;
    genvar gb;
    generate
        for (gb = 0; gb < 16; gb = gb + 1) begin : g_keep
            assign keep_bits[8*gb +: 8] = {8{beat_keep[gb]}};
        end
    endgenerate
    wire [127:0] buf_data = mem[beat[AW-1:0]] ^ ((inj_now && inj_in_data && inj_beat_x == beat_x) ? flip : 128'd0);
    assign cmd_valid = state == S_ECMD || state == S_DCMD;
    assign in_valid  = state == S_EDATA || state == S_DDATA;
    assign in_data   = (state == S_EDATA) ? (gen_data & keep_bits) : buf_data;
    assign in_keep   = beat_keep;
    assign in_last   = beat == last_beat;

    always @(*) begin
        cmd_data = 512'd0;
        cmd_data[CMD_OP_LSB +: CMD_OP_W] = (state == S_DCMD) ? OP_CCM_DEC : OP_CCM_ENC;
        cmd_data[CMD_CUT_LSB] = (state == S_DCMD) && cut;
        cmd_data[CMD_SLOT_LSB +: SLOT_W] = slot;
        cmd_data[CMD_NONCE_LEN_LSB +: CMD_NONCE_LEN_W] = 4'd13;
        cmd_data[CMD_TAG_LEN_LSB +: CMD_TAG_LEN_W] = 5'd16;
        cmd_data[CMD_PAYLOAD_LEN_LSB +: 13] = size;
        cmd_data[CMD_IV_LSB +: 64] = {pkt, seed};
        if (state == S_DCMD)
            cmd_data[CMD_TAG_LSB +: CMD_TAG_W] = tag ^ ((inj_now && !inj_in_data) ? flip : 128'd0);
    end

    // verifier: the expected beat
    wire [15:0]  obeat_keep = (obeat == last_beat) ? keep_of(last_bytes) : 16'hffff;
    wire [127:0] ver_data = lfsr_beat(vlfsr);
    reg          beat_ok;
    always @(*) begin : g_cmp
        integer b;
        beat_ok = out_keep == obeat_keep && obeat <= last_beat;
        for (b = 0; b < 16; b = b + 1)
            if (out_keep[b] && out_data[8*b +: 8] != ver_data[8*b +: 8]) beat_ok = 1'b0;
    end

    wire dec_err  = sts_err != ERR_OK;
    wire data_bad = mism || (!dec_err && (obeat != nbeats || flagged));

    always @(posedge clk) begin
        if (rst) begin
            state      <= S_IDLE;
            own        <= 1'b0;
            go         <= 1'b0;
            busy       <= 1'b0;
            done_flag  <= 1'b0;
            done       <= 1'b0;
            aborted    <= 1'b0;
            pkts       <= 32'd0;
            errs       <= 32'd0;
            auth_fails <= 32'd0;
            data_errs  <= 32'd0;
            cycles     <= 32'd0;
            size       <= 13'd1;
            count      <= 32'd0;
            seed       <= 32'd0;
            slot       <= {SLOT_W{1'b0}};
            cut        <= 1'b0;
            inj_en     <= 1'b0;
            inj_bit    <= 7'd0;
            inj_beat   <= 8'd0;
            inj_every  <= 8'd0;
            pkt        <= 32'd0;
            lfsr       <= 32'd1;
            lfsr_pkt   <= 32'd1;
            vlfsr      <= 32'd1;
            inj_cnt    <= 8'd0;
            inj_now    <= 1'b0;
            beat       <= {(AW+1){1'b0}};
            obeat      <= {(AW+1){1'b0}};
            tag        <= 128'd0;
            sts_seen   <= 1'b0;
            sts_err    <= 8'd0;
            sts_val    <= 128'd0;
            mism       <= 1'b0;
            flagged    <= 1'b0;
            enc_bad    <= 1'b0;
        end else begin
            done <= 1'b0;
            if (start && enable && !busy) go <= 1'b1;
            if (busy) cycles <= cycles + 1'b1;
            // receiver: output and status beats of the test's packets
            if (own && out_valid) begin
                if (enc_phase) begin
                    if (!obeat[AW]) mem[obeat[AW-1:0]] <= out_data;
                end else if (dec_phase) begin
                    if (!beat_ok) mism <= 1'b1;
                    if (out_user) flagged <= 1'b1;
                    vlfsr <= adv32(adv32(adv32(adv32(vlfsr))));
                end
                if (obeat != {(AW+1){1'b1}}) obeat <= obeat + 1'b1;
            end
            if (own && sts_valid) begin
                sts_seen <= 1'b1;
                sts_err  <= sts_data[STS_ERR_LSB +: STS_ERR_W];
                sts_val  <= sts_data[STS_VALUE_LSB +: STS_VALUE_W];
            end
            case (state)
                S_IDLE:
                    if (!own) begin
                        if (enable && may_take && !stop) own <= 1'b1;
                        if (!enable) go <= 1'b0;
                    end else if (!enable || stop) begin
                        own <= 1'b0;
                        go  <= 1'b0;
                    end else if (go) begin
                        go         <= 1'b0;
                        busy       <= 1'b1;
                        done_flag  <= 1'b0;
                        aborted    <= 1'b0;
                        pkts       <= 32'd0;
                        errs       <= 32'd0;
                        auth_fails <= 32'd0;
                        data_errs  <= 32'd0;
                        cycles     <= 32'd0;
                        size       <= size_in;
                        count      <= cfg_count;
                        seed       <= cfg_seed;
                        slot       <= cfg_slot;
                        cut        <= cfg_cut;
                        inj_en     <= cfg_inj_en;
                        inj_bit    <= cfg_inj_bit;
                        inj_beat   <= cfg_inj_beat;
                        inj_every  <= cfg_inj_every;
                        inj_cnt    <= (cfg_inj_every == 8'd0) ? 8'd0 : cfg_inj_every - 1'b1;
                        pkt        <= 32'd0;
                        lfsr       <= (cfg_seed == 32'd0) ? 32'd1 : cfg_seed;
                        state      <= S_NEXT;
                    end
                S_NEXT:
                    if (pkt == count || stop || !enable) begin
                        busy      <= 1'b0;
                        done      <= 1'b1;
                        done_flag <= 1'b1;
                        aborted   <= pkt != count;
                        state     <= S_IDLE;
                    end else begin
                        lfsr_pkt <= lfsr;
                        inj_now  <= inj_en && inj_cnt == 8'd0;
                        if (inj_en)
                            inj_cnt <= (inj_cnt == 8'd0) ? ((inj_every == 8'd0) ? 8'd0 : inj_every - 1'b1)
                                                         : inj_cnt - 1'b1;
                        beat     <= {(AW+1){1'b0}};
                        obeat    <= {(AW+1){1'b0}};
                        sts_seen <= 1'b0;
                        mism     <= 1'b0;
                        flagged  <= 1'b0;
                        enc_bad  <= 1'b0;
                        state    <= S_ECMD;
                    end
                S_ECMD:
                    if (cmd_ready) state <= S_EDATA;
                S_EDATA:
                    if (in_ready) begin
                        lfsr <= adv32(adv32(adv32(adv32(lfsr))));
                        beat <= beat + 1'b1;
                        if (in_last) state <= S_EWAIT;
                    end
                S_EWAIT:
                    if (sts_seen) begin
                        tag      <= sts_val;
                        enc_bad  <= sts_err != ERR_OK;
                        beat     <= {(AW+1){1'b0}};
                        obeat    <= {(AW+1){1'b0}};
                        vlfsr    <= lfsr_pkt;
                        sts_seen <= 1'b0;
                        state    <= (sts_err != ERR_OK) ? S_END : S_DCMD;
                    end
                S_DCMD:
                    if (cmd_ready) state <= S_DDATA;
                S_DDATA:
                    if (in_ready) begin
                        beat <= beat + 1'b1;
                        if (in_last) state <= S_DWAIT;
                    end
                S_DWAIT:
                    if (sts_seen) state <= S_END;
                default: begin   // S_END: the packet's verdict
                    pkts <= pkts + 1'b1;
                    if (enc_bad || dec_err || data_bad) errs <= errs + 1'b1;
                    if (!enc_bad && sts_err == ERR_AUTH) auth_fails <= auth_fails + 1'b1;
                    if (!enc_bad && data_bad) data_errs <= data_errs + 1'b1;
                    pkt   <= pkt + 1'b1;
                    state <= S_NEXT;
                end
            endcase
        end
    end
endmodule
`default_nettype wire
