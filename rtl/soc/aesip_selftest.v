// SPDX-License-Identifier: Apache-2.0
// aesip_selftest: the power-up / on-demand known-answer self-test of aesip_top (FIPS 140-3
// style; docs/soc.md, "Self-test"). It drives the mode engine's key, command, data, output
// and status ports through aesip_top's port mux (`own` = 1) while the user's streams are
// held off, and runs these known-answer tests (KAT) from the ROM below, key slot 0:
//   index 0, 1 : AES-128 ECB encrypt, decrypt   FIPS-197 Appendix C.1
//   index 2, 3 : AES-192 ECB encrypt, decrypt   FIPS-197 Appendix C.2 (NR_MAX >= 12 only)
//   index 4, 5 : AES-256 ECB encrypt, decrypt   FIPS-197 Appendix C.3 (NR_MAX >= 14 only)
//   index 6    : CCM generation-encryption      SP 800-38C Appendix C, Example 1 (AES-128)
//   index 7    : CCM decryption-verification    the same vector (store-and-forward)
// A test passes when exactly one output beat with the expected bytes, tkeep, tlast = 1 and
// tuser = 0 and then the expected status beat (error OK, value = CCM tag or 0) come back.
// The run stops at the first failing test (fail_index) or after a watchdog of 4096 clocks
// in one test (a hung engine).
//
// Sequence of a run:
//   on-demand only: wait until aesip_top's zeroize sequence is idle, request a full zeroize
//     (zreq, zfull = 1: every key slot, CSR key word and pending commit cleared, the user's
//     packets in the engine aborted with ZEROIZED); wait for its end and until the user's
//     packets have left the engine (`drained`); then take the engine (`own` = 1)
//   after reset: the engine is taken from reset on (no user packet can be in it)
//   the KATs; then an engine-only zeroize (zreq, zfull = 0) clears the KAT key from slot 0
//   and the output buffer; then `own` = 0, busy = 0, pass or fail, a one-cycle `done`.
//
// Parameters
//   SLOT_W : key-slot index width of the engine (the KATs use slot 0)
//   NR_MAX : 10, 12 or 14, as the engine: the key sizes tested (AES-128 / +192 / +256)
// Ports
//   clk, rst      : clock, synchronous active-high reset; a run starts when rst falls
//   run           : one-cycle pulse: start a run (ignored while busy)
//   zbusy         : aesip_top's zeroize sequence is in progress
//   drained       : no user packet is in the engine (commands accepted = statuses taken)
//   zreq, zfull   : one-cycle zeroize request to aesip_top (only issued while zbusy = 0);
//                   zfull = 1 also clears the CSR key words, pending commits and slot state
//   busy          : a run is in progress (from reset on)
//   pass, fail    : result of the last completed run (both 0 while busy)
//   fail_index    : the failing test's index (table above); 0 when fail = 0
//   done          : one-cycle pulse after a run (busy falls)
//   own           : the engine ports are driven by this module (aesip_top's mux select)
//   tests         : constant: bit i = test i runs in this build
//   key_*, cmd_*, in_*, out_*, sts_* : the engine's ports (out_* and sts_* are always
//                   taken while own = 1: aesip_top ties the engine's tready high then)
// Fault injection (simulation only): kat_fault is a register no port drives; reset clears
// it. A testbench that deposits 1 into it flips bit 0 of the expected tag of test 6, which
// must then fail. It is constant 0 in synthesis.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aesip_selftest #(
    parameter SLOT_W = 2,
    parameter NR_MAX = 14
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              run,
    input  wire              zbusy,
    input  wire              drained,
    output reg               zreq,
    output reg               zfull,
    output reg               busy,
    output reg               pass,
    output reg               fail,
    output reg  [3:0]        fail_index,
    output reg               done,
    output reg               own,
    output wire [7:0]        tests,
    // engine key port
    output wire              key_valid,
    input  wire              key_ready,
    output wire [SLOT_W-1:0] key_slot,
    output reg  [5:0]        key_bytes,
    output reg  [255:0]      key_data,
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
    input  wire              out_last,
    input  wire              out_user,
    input  wire              sts_valid,
    input  wire [135:0]      sts_data
);
    `include "aes_mode_if.vh"   // command/status beat layout (data/mode_engine.yaml)

    generate
        `AESIP_CHECK(NR_MAX == 10 || NR_MAX == 12 || NR_MAX == 14, aesip_selftest_NR_MAX_not_10_12_14,
                     "aesip_selftest: NR_MAX must be 10 or 12 or 14")
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, aesip_selftest_SLOT_W_not_1_to_8,
                     "aesip_selftest: SLOT_W must be 1 .. 8")
    endgenerate

    localparam [7:0] TESTS = (NR_MAX >= 14) ? 8'b1111_1111 : (NR_MAX >= 12) ? 8'b1100_1111 : 8'b1100_0011;
    assign tests = TESTS;

    // ---------------------------------------------------------------- the KAT ROM
    // lanes(x, n): the n bytes of x (written in the vectors' byte order, right-aligned) in
    // AXI4-Stream lane order: first byte in bits [7:0]
    function [127:0] lanes(input [127:0] x, input integer n);
        integer i;
        begin
            lanes = 128'd0;
            for (i = 0; i < 16; i = i + 1)
                if (i < n) lanes[8*i +: 8] = x[8*(n-1-i) +: 8];
        end
    endfunction

    localparam [127:0] FIPS_PT   = 128'h00112233445566778899aabbccddeeff;
    localparam [127:0] FIPS_K_LO = 128'h000102030405060708090a0b0c0d0e0f;   // key bytes 0..15
    localparam [127:0] FIPS_K_HI = 128'h101112131415161718191a1b1c1d1e1f;   // key bytes 16..31
    localparam [127:0] CT_128    = 128'h69c4e0d86a7b0430d8cdb78070b4c55a;
    localparam [127:0] CT_192    = 128'hdda97ca4864cdfe06eaf70a0ec0d7191;
    localparam [127:0] CT_256    = 128'h8ea2b7ca516745bfeafc49904b496089;
    // SP 800-38C C.1: K 40..4f, N 10..16 (7 bytes), A 00..07 (8 bytes), P 20..23, Tlen 32
    localparam [127:0] CCM_K     = 128'h404142434445464748494a4b4c4d4e4f;
    localparam [127:0] CCM_N     = 128'h10111213141516;
    localparam [127:0] CCM_A     = 128'h0001020304050607;
    localparam [127:0] CCM_P     = 128'h20212223;
    localparam [127:0] CCM_C     = 128'h7162015b;
    localparam [127:0] CCM_T     = 128'h4dac255d;

    reg [2:0]   idx;          // test index
    reg         kat_fault;    // simulation-only fault injection (see header)
    reg         rom_newkey;   // the test loads its key first
    reg [127:0] rom_in0, rom_in1, rom_out;
    reg [15:0]  rom_keep0, rom_keep1, rom_okeep;
    reg         rom_two;      // two input beats (AAD, payload)
    reg [127:0] rom_sts;      // expected status value (error code OK)

    always @(*) begin
        key_bytes  = 6'd16;
        key_data   = {128'd0, lanes(FIPS_K_LO, 16)};
        cmd_data   = 512'd0;
        rom_newkey = 1'b0;
        rom_in0    = lanes(FIPS_PT, 16);
        rom_keep0  = 16'hffff;
        rom_in1    = 128'd0;
        rom_keep1  = 16'h0000;
        rom_two    = 1'b0;
        rom_out    = lanes(CT_128, 16);
        rom_okeep  = 16'hffff;
        rom_sts    = 128'd0;
        cmd_data[CMD_PAYLOAD_LEN_LSB +: CMD_PAYLOAD_LEN_W] = 64'd16;
        cmd_data[CMD_OP_LSB +: CMD_OP_W] = idx[0] ? OP_ECB_DEC : OP_ECB_ENC;
        case (idx)
            3'd0: rom_newkey = 1'b1;
            3'd1: begin rom_in0 = lanes(CT_128, 16); rom_out = lanes(FIPS_PT, 16); end
            3'd2, 3'd3: begin
                rom_newkey = idx == 3'd2;
                key_bytes  = 6'd24;
                key_data   = {lanes(FIPS_K_HI >> 64, 8), lanes(FIPS_K_LO, 16)};
                rom_in0    = idx[0] ? lanes(CT_192, 16) : lanes(FIPS_PT, 16);
                rom_out    = idx[0] ? lanes(FIPS_PT, 16) : lanes(CT_192, 16);
            end
            3'd4, 3'd5: begin
                rom_newkey = idx == 3'd4;
                key_bytes  = 6'd32;
                key_data   = {lanes(FIPS_K_HI, 16), lanes(FIPS_K_LO, 16)};
                rom_in0    = idx[0] ? lanes(CT_256, 16) : lanes(FIPS_PT, 16);
                rom_out    = idx[0] ? lanes(FIPS_PT, 16) : lanes(CT_256, 16);
            end
            default: begin   // 6, 7: CCM
                rom_newkey = idx == 3'd6;
                key_data   = {128'd0, lanes(CCM_K, 16)};
                cmd_data[CMD_OP_LSB +: CMD_OP_W] = idx[0] ? OP_CCM_DEC : OP_CCM_ENC;
                cmd_data[CMD_NONCE_LEN_LSB +: CMD_NONCE_LEN_W] = 4'd7;
                cmd_data[CMD_TAG_LEN_LSB +: CMD_TAG_LEN_W] = 5'd4;
                cmd_data[CMD_AAD_LEN_LSB +: CMD_AAD_LEN_W] = 64'd8;
                cmd_data[CMD_PAYLOAD_LEN_LSB +: CMD_PAYLOAD_LEN_W] = 64'd4;
                cmd_data[CMD_IV_LSB +: CMD_IV_W] = lanes(CCM_N, 7);
                if (idx[0]) cmd_data[CMD_TAG_LSB +: CMD_TAG_W] = lanes(CCM_T, 4);
                rom_two   = 1'b1;
                rom_in0   = lanes(CCM_A, 8);
                rom_keep0 = 16'h00ff;
                rom_in1   = idx[0] ? lanes(CCM_C, 4) : lanes(CCM_P, 4);
                rom_keep1 = 16'h000f;
                rom_out   = idx[0] ? lanes(CCM_P, 4) : lanes(CCM_C, 4);
                rom_okeep = 16'h000f;
                rom_sts   = idx[0] ? 128'd0 : (lanes(CCM_T, 4) ^ {127'd0, kat_fault});
            end
        endcase
    end

    // ---------------------------------------------------------------- sequencer
    localparam [3:0] S_IDLE  = 4'd0,   // not running
                     S_ZREQ  = 4'd1,   // wait for the zeroize sequence to be idle, request
                     S_ZRUN  = 4'd2,   // wait until the requested zeroize has started
                     S_ZEND  = 4'd3,   // wait until it is over (and, before the KATs, drained)
                     S_CHECK = 4'd4,   // skip tests this build does not run
                     S_KEY   = 4'd5,   // key load handshake
                     S_CMD   = 4'd6,   // command handshake
                     S_DATA  = 4'd7,   // input beats
                     S_WAIT  = 4'd8;   // output beat and status beat

    reg [3:0]  state;
    reg        post;       // the current zeroize is the one after the KATs
    reg        beat;       // input beat index
    reg        bad;        // the current test has failed
    reg        got_out;    // its output beat was seen
    reg [11:0] wd;         // watchdog

    assign key_valid = state == S_KEY;
    assign key_slot  = {SLOT_W{1'b0}};
    assign cmd_valid = state == S_CMD;
    assign in_valid  = state == S_DATA;
    assign in_data   = beat ? rom_in1 : rom_in0;
    assign in_keep   = beat ? rom_keep1 : rom_keep0;
    assign in_last   = beat || !rom_two;

    // out_data with the bytes outside out_keep masked to 0
    reg [127:0] out_masked;
    always @(*) begin : g_mask
        integer b;
        for (b = 0; b < 16; b = b + 1) out_masked[8*b +: 8] = out_keep[b] ? out_data[8*b +: 8] : 8'd0;
    end
    wire out_ok = out_masked == rom_out && out_keep == rom_okeep && out_last && !out_user && !got_out;
    wire sts_ok = sts_data == {ERR_OK, rom_sts} && got_out && state == S_WAIT;
    wire in_test = state == S_KEY || state == S_CMD || state == S_DATA || state == S_WAIT;

    always @(posedge clk) begin
        if (rst) begin
            state      <= S_CHECK;   // power-up run: the engine is ours from reset on
            post       <= 1'b0;
            busy       <= 1'b1;
            pass       <= 1'b0;
            fail       <= 1'b0;
            fail_index <= 4'd0;
            done       <= 1'b0;
            own        <= 1'b1;
            zreq       <= 1'b0;
            zfull      <= 1'b0;
            idx        <= 3'd0;
            beat       <= 1'b0;
            bad        <= 1'b0;
            got_out    <= 1'b0;
            wd         <= 12'd0;
            kat_fault  <= 1'b0;
        end else begin
            done <= 1'b0;
            zreq <= 1'b0;
            // receiver: the engine's output and status (taken every cycle while own)
            if (own && in_test && out_valid) begin
                if (!out_ok) bad <= 1'b1;
                got_out <= 1'b1;
            end
            if (in_test) wd <= wd + 1'b1;
            case (state)
                S_IDLE:
                    if (run) begin
                        busy       <= 1'b1;
                        pass       <= 1'b0;
                        fail       <= 1'b0;
                        fail_index <= 4'd0;
                        idx        <= 3'd0;
                        post       <= 1'b0;
                        // the zeroize starts in the next cycle when the sequence is idle
                        zreq       <= !zbusy;
                        zfull      <= 1'b1;
                        state      <= zbusy ? S_ZREQ : S_ZRUN;
                    end
                S_ZREQ:
                    if (!zbusy) begin
                        zreq  <= 1'b1;
                        zfull <= !post;
                        state <= S_ZRUN;
                    end
                S_ZRUN:
                    if (zbusy) state <= S_ZEND;
                S_ZEND:
                    if (!zbusy && post) begin
                        own   <= 1'b0;
                        busy  <= 1'b0;
                        pass  <= !fail;
                        done  <= 1'b1;
                        state <= S_IDLE;
                    end else if (!zbusy && drained) begin
                        own   <= 1'b1;
                        state <= S_CHECK;
                    end
                S_CHECK: begin
                    beat    <= 1'b0;
                    bad     <= 1'b0;
                    got_out <= 1'b0;
                    wd      <= 12'd0;
                    if (!TESTS[idx]) begin
                        idx <= idx + 1'b1;
                        if (idx == 3'd7) begin post <= 1'b1; state <= S_ZREQ; end
                    end else begin
                        state <= rom_newkey ? S_KEY : S_CMD;
                    end
                end
                S_KEY:
                    if (key_ready) state <= S_CMD;
                S_CMD:
                    if (cmd_ready) state <= S_DATA;
                S_DATA:
                    if (in_ready) begin
                        beat <= 1'b1;
                        if (in_last) state <= S_WAIT;
                    end
                default: ;   // S_WAIT: below
            endcase
            // end of a test: its status beat, or the watchdog
            if (in_test && (sts_valid || &wd)) begin
                if (!sts_valid || !sts_ok || bad || &wd) begin
                    fail       <= 1'b1;
                    fail_index <= {1'b0, idx};
                    post       <= 1'b1;
                    state      <= S_ZREQ;
                end else if (idx == 3'd7) begin
                    post  <= 1'b1;
                    state <= S_ZREQ;
                end else begin
                    idx   <= idx + 1'b1;
                    state <= S_CHECK;
                end
            end
        end
    end
endmodule
`default_nettype wire
