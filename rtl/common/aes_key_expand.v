// SPDX-License-Identifier: Apache-2.0
// aes_key_expand: iterative AES key expansion, one 32-bit word per clock.
//
// After a start pulse it emits the expanded key words w[0] .. w[4*Nr+3] in order, one
// per clock, on (w_valid, w_idx, w_data): 44 / 52 / 60 cycles for AES-128/192/256.
// The consumer stores what it needs (round-key registers, per-stage key RAMs, the
// equivalent-inverse-cipher schedule), so the expansion runs once per key change and
// never per block. A window of the last Nk words (shift register) plus four forward
// S-boxes (aes_ks_t, or with SUB_AHEAD = 1 an aes_subword with two 32-bit registers) is
// all the logic; the round constant is generated on the fly.
//
// Parameters
//   SBOX_IMPL : 0 = LUT S-boxes, 1 = composite-field S-boxes (see aes_sbox)
//   SUB_AHEAD : 0 (default) = SubWord of the newest word in the clock that uses it (the
//               S-box inside the one-word-per-clock loop); 1 = SubWord computed ahead into
//               a register (below): the same words at the same clocks, with no S-box
//               between the window and the new word and none behind the key-size select
//               (a shorter clock period, 64 more flip-flops; the caller supplies key_last);
//               the last-word decode (i == 4*Nr+3) is then a flip-flop of its own too
//               (one more flip-flop), not a 6-bit compare in front of the clears;
//               2 = as 1, but key_last is taken one clock before start (into x_q, the
//               S-box input register, which loads key_last in every idle clock): no
//               select lies between x_q and the S-boxes at all
//   KEY_SIZE_MAX : largest key_size the caller ever starts (0 AES-128, 1 AES-192, 2
//               AES-256, the default); a larger key_size is taken as this one. A caller
//               that only accepts shorter keys (aes_pipe with NR_MAX 10 or 12) sets it so
//               that the per-size selects of the window and of the load fold away
//   KEY_ALIGNED : 0 (default) key_data as below; 1 = the caller aligns the key to the
//               window: key_data holds the key's Nk words at the top (words 8-Nk .. 7:
//               AES-128 in bits [255:128], AES-192 in [255:64]) and zero below, so that
//               the window loads key_data with no key-size select (aes_pipe forms it in
//               a register)
// Ports
//   clk, rst  : clock; synchronous active-high reset (clears all key material)
//   zeroize   : synchronous clear of all key material; aborts a running expansion
//   start     : begin an expansion of key_data with key_size (ignored while busy)
//   key_data  : key, byte n at bits [8n+7:8n] (AES-128 uses bytes 0..15)
//   key_size  : 2'd0 AES-128, 2'd1 AES-192, 2'd2 AES-256 (2'd3 is treated as AES-256;
//               callers check the length with aes_keylen first)
//   key_last  : SUB_AHEAD = 1: the key's last word, word Nk-1 of key_data for key_size
//               (bits [127:96] / [191:160] / [255:224]), with start; best a register, so
//               that the first SubWord has no select in front of it. SUB_AHEAD = 2: that
//               word in the clock before start (x_q holds it while idle: feed zero when no
//               load follows). Ignored with SUB_AHEAD = 0
//   busy      : high from the cycle after start until the last word has been emitted
//   w_valid   : w_idx / w_data hold expanded word w[w_idx] this cycle
//   w_last    : with w_valid, marks the final word w[4*Nr+3]
// Timing: start in cycle 0 -> w[0] valid in cycle 1, w[k] in cycle k+1.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_key_expand #(
    parameter SBOX_IMPL = 0,
    parameter SUB_AHEAD = 0,
    parameter KEY_SIZE_MAX = 2,
    parameter KEY_ALIGNED = 0
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         zeroize,
    input  wire         start,
    input  wire [255:0] key_data,
    input  wire [1:0]   key_size,
    input  wire [31:0]  key_last,
    output reg          busy,
    output wire         w_valid,
    output wire         w_last,
    output wire [5:0]   w_idx,
    output wire [31:0]  w_data
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SBOX_IMPL == 0 || SBOX_IMPL == 1, aes_key_expand_SBOX_IMPL_not_0_or_1,
                     "aes_key_expand: SBOX_IMPL must be 0 or 1")
        `AESIP_CHECK(SUB_AHEAD >= 0 && SUB_AHEAD <= 2, aes_key_expand_SUB_AHEAD_not_0_to_2,
                     "aes_key_expand: SUB_AHEAD must be 0, 1 or 2")
        `AESIP_CHECK(KEY_SIZE_MAX >= 0 && KEY_SIZE_MAX <= 2, aes_key_expand_KEY_SIZE_MAX_not_0_to_2,
                     "aes_key_expand: KEY_SIZE_MAX must be 0, 1 or 2")
        `AESIP_CHECK(KEY_ALIGNED == 0 || KEY_ALIGNED == 1, aes_key_expand_KEY_ALIGNED_not_0_or_1,
                     "aes_key_expand: KEY_ALIGNED must be 0 or 1")
    endgenerate

    // key sizes limited to KEY_SIZE_MAX (constants fold the selects below)
    function [1:0] clip_size;
        input [1:0] x;
        begin
            if (KEY_SIZE_MAX == 0)      clip_size = 2'd0;
            else if (KEY_SIZE_MAX == 1) clip_size = {1'b0, x != 2'd0};
            else                        clip_size = x;
        end
    endfunction

    // The window holds the last Nk words with the newest always in win[7]:
    // win[8-Nk+j] = w[i+j] for j < Nk. The S-box input is therefore a register with no
    // select in front of it (the per-size select of w[i] runs beside the S-box), and
    // RotWord is applied after SubWord (SubWord is bytewise, so the two commute).
    reg [31:0] win [0:7];
    reg [5:0]  idx;         // i
    reg [5:0]  last_idx;    // 4*Nr+3
    reg [2:0]  pos;         // i mod Nk
    reg [1:0]  size;
    wire [1:0] sz  = clip_size(size);       // size, as the selects see it
    wire [1:0] ksz = clip_size(key_size);   // key_size, likewise
    reg [7:0]  rcon;
    // at_last: this clock emits the last word (busy && idx == last_idx). With SUB_AHEAD it
    // is the register last_q, loaded with the decode of the next index, so that the
    // clears of x_q/sub_q and of the window (a few hundred flip-flops) and busy's end
    // hang off one flip-flop instead of a 6-bit compare (the clear of x_q/sub_q behind
    // that compare was aes_pipe's critical path on ECP5 at 3 and 6 registers per round).
    reg        last_q;
    wire       at_last = (SUB_AHEAD != 0) ? last_q : (busy && idx == last_idx);

    wire [31:0] wi = (sz == 2'd0) ? win[4] : (sz == 2'd1) ? win[2] : win[0];  // w[i]
    wire [2:0]  nk_m1 = (sz == 2'd0) ? 3'd3 : (sz == 2'd1) ? 3'd5 : 3'd7;
    // new word w[i+Nk] = w[i] ^ T(w[i+Nk-1]); (i+Nk) mod Nk == i mod Nk == pos
    wire [1:0]  mode = (pos == 3'd0) ? 2'd1 : ((sz[1] && pos == 3'd4) ? 2'd2 : 2'd0);
    wire [31:0] t;
    // at a load, window position j takes key word j - (8 - Nk) (KEY_ALIGNED: key_data
    // is already so)
    wire [255:0] kwin = (KEY_ALIGNED != 0) ? key_data :
                        (ksz == 2'd0) ? {key_data[127:0], 128'd0} :
                        (ksz == 2'd1) ? {key_data[191:0], 64'd0} : key_data;
    generate
        if (SUB_AHEAD == 0) begin : g_sub_now
            aes_ks_t #(.IMPL(SBOX_IMPL)) u_t (.w(win[7]), .mode(mode), .rcon(rcon), .t(t));
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_key_last = ^key_last;
            /* verilator lint_on UNUSEDSIGNAL */
        end else begin : g_sub_ahead
            // SubWord ahead. A step with T (mode 1 or 2) at index k needs SubWord(w[k+Nk-1]),
            // the newest word of its window. The two steps before it are plain (T is
            // needed every Nk >= 4 steps, and AES-256's mode-2 step sits 4 after a mode-1
            // step), so two clocks earlier, at index k-2, that word is already the XOR of
            // three window words: w[k+Nk-1] = w[k-1] ^ w[k-2] ^ w[k+Nk-3], i.e.
            // win[9-Nk] ^ win[8-Nk] ^ win[7]. x_q takes it (index k-1), sub_q its SubWord
            // (index k). The first step (index 0, T) takes SubWord of the key's last word,
            // loaded into sub_q at the start (key_last). Both are cleared with the window.
            // SUB_AHEAD = 2: x_q loads key_last in every idle clock (the caller presents
            // it the clock before start), so sub_q = SubWord(x_q) always, with no select
            // in front of the S-boxes (and no s_busy copy).
            reg  [31:0] x_q, sub_q;
            wire [31:0] x_n = (sz == 2'd0) ? (win[4] ^ win[5] ^ win[7]) :
                              (sz == 2'd1) ? (win[2] ^ win[3] ^ win[7]) : (win[0] ^ win[1] ^ win[7]);
            // s_busy: a copy of busy (keep_reg, loaded with busy's next value) for this
            // select alone, so that busy's fan-out (the window, the index) does not lie
            // on the route into the S-boxes
            wire [31:0] s_in;
            if (SUB_AHEAD == 1) begin : g_sel
                wire s_busy;
                wire busy_n = (rst || zeroize) ? 1'b0 : busy ? !at_last : start;
                keep_reg #(.W(1)) u_sbusy (.clk(clk), .rst(1'b0), .d(busy_n), .q(s_busy));
                assign s_in = s_busy ? x_q : key_last;
            end else begin : g_nosel
                assign s_in = x_q;
            end
            wire [31:0] s_out;
            aes_subword #(.IMPL(SBOX_IMPL), .DIR(0)) u_sub (.in(s_in), .inv(1'b0), .out(s_out));
            // sub_q is cleared with x_q (rst, zeroize, the last word). SUB_AHEAD = 1 also
            // clears it while idle (its S-box input is then key_last, not x_q). SUB_AHEAD
            // = 2 loads SubWord(x_q) while idle: x_q holds key_last (the caller's key
            // word, zero without a key on the port) or zero, so sub_q holds nothing x_q
            // does not, SubWord(0) = 63636363 when idle without a key. The idle clear
            // (!busy && !start) put the caller's start register and busy, through two
            // LUTs and two routes of 3.2-3.5 ns, on sub_q's 32 synchronous resets: the
            // ECP5 critical path of aes_pipe aes128-enc (112.6 / 117.5 MHz, 2026-12-05).
            wire sub_clr = rst || zeroize || at_last || (SUB_AHEAD == 1 && !busy && !start);
            always @(posedge clk) begin
                if (sub_clr) sub_q <= 32'd0;
                else         sub_q <= s_out;
            end
            always @(posedge clk) begin
                if (rst || zeroize || at_last) x_q <= 32'd0;
                else if (busy)                 x_q <= x_n;
                else if (SUB_AHEAD == 2)       x_q <= key_last;
                else                           x_q <= 32'd0;
            end
            wire [31:0] rot = {sub_q[7:0], sub_q[31:8]};   // RotWord after SubWord (bytewise)
            assign t = (mode == 2'd1) ? (rot ^ {24'd0, rcon}) :
                       (mode == 2'd2) ? sub_q : win[7];
        end
    endgenerate
    wire [31:0] nw = wi ^ t;

    assign w_valid = busy;
    assign w_last  = at_last;
    assign w_idx   = idx;
    assign w_data  = wi;

    integer j;
    always @(posedge clk) begin
        if (rst || zeroize) begin
            busy <= 1'b0;
            idx <= 6'd0; last_idx <= 6'd0; pos <= 3'd0; size <= 2'd0; rcon <= 8'h01;
            last_q <= 1'b0;
            for (j = 0; j < 8; j = j + 1) win[j] <= 32'd0;
        end else if (!busy) begin
            last_q <= 1'b0;         // idx is 0 after a start, far from 4*Nr+3
            if (start) begin
                busy <= 1'b1;
                idx  <= 6'd0;
                pos  <= 3'd0;
                rcon <= 8'h01;
                size <= ksz;
                last_idx <= (ksz == 2'd0) ? 6'd43 : (ksz == 2'd1) ? 6'd51 : 6'd59;
                for (j = 0; j < 8; j = j + 1) win[j] <= kwin[32*j +: 32];
            end
        end else begin
            idx <= idx + 6'd1;
            pos <= (pos == nk_m1) ? 3'd0 : pos + 3'd1;
            if (mode == 2'd1) rcon <= {rcon[6:0], 1'b0} ^ (rcon[7] ? 8'h1b : 8'h00);
            for (j = 0; j < 7; j = j + 1) win[j] <= win[j + 1];
            win[7] <= nw;
            last_q <= !at_last && (idx + 6'd1 == last_idx);
            if (at_last) begin
                busy <= 1'b0;
                for (j = 0; j < 8; j = j + 1) win[j] <= 32'd0;  // leave no key material behind
            end
        end
    end
endmodule
`default_nettype wire
