// SPDX-License-Identifier: Apache-2.0
// aes_iter32: compact AES-128/192/256 encrypt/decrypt core with a 32-bit datapath.
//
// One state column per clock: 4 cycles for the initial AddRoundKey plus 4 cycles per
// round, so 4*(Nr+1) = 44 / 52 / 60 cycles per block, back to back, in both directions.
// Encryption and decryption (direct inverse cipher, FIPS-197 5.3) share one datapath:
// 4 forward/inverse S-boxes work one clock ahead on the next column's bytes (registered
// in sub_word), one (Inv)MixColumns, one round-key XOR; the one byte that is produced only
// in the clock before it is used (row 3 of a round's first column) has a forward and an
// inverse S-box of its own, and its (Inv)MixColumns term is XORed in last. The key schedule
// runs on the fly, one word per cycle, forward for encryption and backward for
// decryption, with its own 4 forward S-boxes (the T term of aes_ks_t), which read their
// input one clock ahead into a register; Rcon is multiplied by {02} forward and divided
// by {02} backward. Per key slot a 32-bit LUT RAM keeps the first Nk + 1 and the last Nk
// schedule words (written once, at key load), so no block ever waits for a key
// expansion; with LUT S-boxes a second one keeps InvMixColumns of the same words (the
// decryption's round-key term, read beside them). See docs/iter32.md for the full
// description.
//
// Parameters
//   SBOX_IMPL : 0 = 256-entry table S-boxes, 1 = composite-field S-boxes (aes_sbox),
//               2 = block-RAM S-boxes (aes_sbox_bram, OUT_REG = 0: the RAM's own
//               synchronous read is the register in front of each S-box; no LUT S-box
//               at all). Same timing.
//   SLOT_W    : key-slot index width (>= 1); 2**SLOT_W key slots
//   TAG_W     : width of the tag carried with every block (>= 1)
// Ports (common core interface, docs/cores.md)
//   clk, rst        : clock, synchronous active-high reset (clears keys, state, output)
//   zeroize         : one-cycle pulse: invalidates every slot, clears all key material
//                     and the state; a block in flight (or accepted in that cycle)
//                     finishes on time with err = 1; a finished result still waiting
//                     in the output register is kept
//   key_valid/ready : key-load handshake; key_slot, key_bytes (16/24/32 legal),
//                     key_data (byte n at [8n+7:8n])
//   Left behind: when a block finishes, the state rows, the input block and the
//   key-schedule window are cleared; the output register is cleared when its result
//   is taken. Between blocks only the key store(s) (and their read registers, part of
//   the LUT RAM / block RAM) hold key material; rst and zeroize overwrite them.
//   s_axis_*        : input block; tuser = {tag, slot, dec}
//   m_axis_*        : output block; tuser = {tag, err}; tdata all zero when err = 1
// Timing (cycle = clock period; "edge" = rising edge)
//   * A block transferred at edge E produces its output valid right after edge
//     E + 4*(Nr+1) (latency 44/52/60). Blocks on an invalid slot (err) use the
//     AES-128 timing (44). s_axis_tready is high when the core is idle and in the
//     last cycle of a block, so blocks stream at one per 4*(Nr+1) cycles.
//   * The output register is held until accepted; the next block runs meanwhile and
//     waits (all state frozen) at the start of its last round only if the previous
//     output has still not been taken.
//   * Key load: key_ready is high when no block is being processed, no key is being
//     expanded and the key store is not being scrubbed. A legal key is expanded in
//     4*(Nr+1) cycles after the transfer edge (key_ready and s_axis_tready low);
//     an illegal length only invalidates the slot (key_ready stays high). A pending
//     key load has priority over a pending block. After rst or zeroize the key store
//     (LUT RAM, 32 words per slot) is overwritten with zeros in 32*2**SLOT_W+1 cycles
//     (key_ready low).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_iter32 #(
    parameter SBOX_IMPL = 0,
    parameter SLOT_W    = 1,
    parameter TAG_W     = 8
) (
    input  wire                    clk,
    input  wire                    rst,
    input  wire                    zeroize,
    input  wire                    key_valid,
    output wire                    key_ready,
    input  wire [SLOT_W-1:0]       key_slot,
    input  wire [5:0]              key_bytes,
    input  wire [255:0]            key_data,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire [127:0]            s_axis_tdata,
    input  wire [TAG_W+SLOT_W:0]   s_axis_tuser,
    output reg                     m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire [127:0]            m_axis_tdata,
    output wire [TAG_W:0]          m_axis_tuser
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SBOX_IMPL >= 0 && SBOX_IMPL <= 2, aes_iter32_SBOX_IMPL_not_0_to_2,
                     "aes_iter32: SBOX_IMPL must be 0 or 1 or 2")
        `AESIP_CHECK(SLOT_W >= 1, aes_iter32_SLOT_W_below_1, "aes_iter32: SLOT_W must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, aes_iter32_TAG_W_below_1, "aes_iter32: TAG_W must be >= 1")
    endgenerate

    localparam NSLOT = 1 << SLOT_W;
    localparam BRAM  = (SBOX_IMPL == 2);    // block-RAM S-boxes
    // T of the key schedule reads its input one clock ahead (block RAMs, or LUT S-boxes
    // with an output register), so w[Nk] is kept in the key store too: 32 words per slot
    localparam WW    = 4;                   // key-store word-index width
    // LUT S-boxes (SBOX_IMPL 0/1): the late byte's term one clock later and the tap selects
    // as registers (datapath below). Not with block-RAM S-boxes, where the late byte's RAM
    // output is already a register and the change measured slower on the iCE40 UP5K
    // (median 39.0 against 40.66 MHz at seeds 1-5)
    localparam DEFER = !BRAM;
    localparam AW    = SLOT_W + 1 + WW;     // key-store address: {slot, half, word}
    localparam [5:0] LAST_WORD_128 = 6'd43; // 4*Nr+3: index of a block's last clock
    localparam [5:0] LAST_WORD_192 = 6'd51;
    localparam [5:0] LAST_WORD_256 = 6'd59;
    localparam [5:0] LAST_ROUND_WORDS = 6'd3;   // words_left at the last round's first clock

    function automatic [7:0] xtime;         // multiply by {02}
        input [7:0] a;
        xtime = {a[6:0], 1'b0} ^ (a[7] ? 8'h1b : 8'h00);
    endfunction
    function automatic [7:0] xdiv;          // divide by {02}
        input [7:0] a;
        xdiv = a[0] ? ({1'b0, a[7:1]} ^ 8'h8d) : {1'b0, a[7:1]};
    endfunction
    function automatic [5:0] last_word;     // 4*Nr+3 for key size 0/1/2
        input [1:0] size;
        last_word = (size == 2'd0) ? LAST_WORD_128 : (size == 2'd1) ? LAST_WORD_192 : LAST_WORD_256;
    endfunction

    // ------------------------------------------------------------------ registers
    // control (sequencer)
    reg              block_busy;     // a block is being processed
    reg              expanding;      // a key is being expanded
    reg  [5:0]       word_index;     // j: round = j[5:2], column step = j[1:0]
    reg  [WW-1:0]    next_index_q;   // j+1 (low WW bits; a copy used with LUT S-boxes only)
    reg              exp_low_q;      // store_low (a copy, LUT S-boxes only)
    reg  [WW-1:0]    exp_idx_q;      // expansion's key-store index: store_low ? j : words_left (same)
    reg  [5:0]       words_left;     // 4*Nr+3 - j
    reg              last_col;       // j[1:0] == 3 (a copy of the decode)
    reg              tap2_hi;        // j[1:0] is 3 or 0: row 2's tap is position 4 (decode as a register)
    reg              tap1_hi;        // j[1:0] != 2: row 1's tap is position 4 (same)
    reg              initial_round;  // j[5:2] == 0: initial AddRoundKey (decode kept as a register)
    reg              final_round;    // (4*Nr+3-j)[5:2] == 0: last round (same)
    reg              late_en;        // k == 0 of a round (not the initial one): late byte used
    reg              late_d;         // k == 1 of such a round: the late byte's term is added
    reg              at_last_word;   // words_left == 0 (decode kept as a register)
    reg              start_q;        // !expanding && (!block_busy || at_last_word), as a register
    reg              kstart_q;       // the same && !scrubbing
    reg              at_last_round;  // words_left == LAST_ROUND_WORDS (same)
    reg              next_stored;    // j < Nk-1: u[j+1] is a stored/key word (same)
    reg              store_first;    // j <= Nk-1: expansion: u[j] is w[0..Nk-1] (same)
    reg              store_last;     // 4*Nr+3-j <= Nk-1: expansion: a final word (same)
    reg              store_extra;    // j == Nk: expansion: w[Nk] (kept in the key store too)
    reg  [1:0]       key_size;       // key size of the current block/expansion (0,1,2)
    reg              decrypt;        // current block decrypts (0 during expansion)
    reg  [SLOT_W-1:0] slot;          // slot of the current block/expansion
    reg  [TAG_W-1:0] tag;
    reg              err;            // the current block has no valid key
    reg  [2:0]       word_pos;       // index mod Nk of the schedule word computed this cycle
    reg  [7:0]       rcon;           // round constant of the next word with index mod Nk = 0
    // key slots and key store
    reg  [NSLOT-1:0] slot_valid;     // per-slot key valid
    reg  [2*NSLOT-1:0] slot_size;    // per-slot key size
    reg              scrubbing;      // the key store is being overwritten with zeros
    reg  [AW:0]      scrub_step;     // addresses 0 .. 2**AW-1 (32 per slot), then 0 again
    // LUT RAM (block RAM on iCE40). ECP5 (AESIP_BRAM_ECP5, defined by aesip synth):
    // distributed RAM asked for, since Yosys maps 64 x 32 bits to a DP16KD there, whose
    // unregistered read is slow
`ifdef AESIP_BRAM_ECP5
    (* ram_style = "distributed" *)
`endif
    reg  [31:0]      key_store [0:(1 << AW) - 1];
    reg  [31:0]      store_word;     // key-store read register (synchronous read)
    // key schedule
    reg  [223:0]     load_words;     // key words j+1..7 during expansion (shifts down one word per clock)
    reg  [223:0]     window;         // schedule window: word i-1 = W[i] = u[j-8+i], i = 1..7
    reg  [31:0]      window_old;     // W[9-Nk] (a copy of the window tap)
    reg  [31:0]      window_back;    // W[10-Nk] (same)
    reg  [31:0]      computed_word;  // computed (or, while expanding, loaded) word u[j]
    reg              use_stored;     // u[j] is a stored word: take it from store_word
    // state delay lines: position p of a row holds the byte of the column produced
    // (6 - p) clocks ago; row 0 keeps positions 4..6, row 1 1..6, row 2 2..6, row 3 3..6
    // (the lowest kept position at bits [7:0])
    reg  [127:0]     in_block;       // input block (read only during the initial AddRoundKey)
    reg  [23:0]      row0;
    reg  [47:0]      row1;
    reg  [39:0]      row2;
    reg  [31:0]      row3;
    // output
    reg  [127:0]     out_data;       // output register, one 32-bit word per column
    reg  [TAG_W-1:0] out_tag;
    reg              out_err;

    // ------------------------------------------------------------------ control
    wire [1:0]  col_step      = word_index[1:0];
    wire [5:0]  word_index_inc = word_index + 6'd1;
    wire [5:0]  words_left_dec = words_left - 6'd1;
    wire        stall   = block_busy && at_last_round && m_axis_tvalid && !m_axis_tready;
    wire        advance = !stall;
    wire        block_done = block_busy && at_last_word;   // last clock of a block
    wire        step    = (block_busy || expanding) && advance;
    wire        compute = step && !err;                 // err blocks leave state and schedule alone
    wire        step_last = step && at_last_word;
    // An expansion never stalls (stall needs block_busy; block_busy and expanding never
    // coincide) and never has err (set only at a block's start or by a zeroize, which ends
    // an expansion): its step is every clock. With LUT S-boxes its decodes use expanding
    // alone, without the output handshake behind stall (exp_step; the block-RAM build
    // keeps the netlist its iCE40 figure was measured on)
    wire        exp_step    = !BRAM ? expanding : (expanding && compute);   // same value
    wire        expand_done = !BRAM ? (expanding && at_last_word) : (expanding && step_last);
    // a block or a key can start: idle, or the last clock of a block (a key also not
    // while scrubbing). start_q / kstart_q are these decodes of block_busy / expanding /
    // at_last_word (/ scrubbing) kept as registers of their own, loaded from the next
    // values of those registers (sequencer), so that key_go is one LUT level from
    // registers and inputs, and block_go two
    assign key_ready     = !rst && kstart_q && !zeroize;
    wire        key_go   = key_valid && key_ready;
    assign s_axis_tready = !rst && start_q && !key_go;
    wire        block_go = s_axis_tvalid && s_axis_tready;   // never together with key_go

    wire              in_decrypt  = s_axis_tuser[0];
    wire [SLOT_W-1:0] in_slot     = s_axis_tuser[SLOT_W:1];
    wire [TAG_W-1:0]  in_tag      = s_axis_tuser[TAG_W+SLOT_W:SLOT_W+1];
    wire              in_key_ok   = slot_valid[in_slot] && !zeroize;   // else err (AES-128 timing)
    wire [1:0]        in_key_size = in_key_ok ? slot_size[2*in_slot +: 2] : 2'd0;

    wire       load_ok;
    wire [1:0] load_size;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [3:0] load_nr;
    /* verilator lint_on UNUSEDSIGNAL */
    aes_keylen u_klen (.key_bytes(key_bytes), .ok(load_ok), .size(load_size), .nr(load_nr));

    // ------------------------------------------------------------------ key schedule
    // no round-key words are left after a block or an expansion
    wire        clear_schedule = rst || zeroize || scrubbing || (block_done && !key_go) || expand_done;
    // the window's clear (224 flip-flops) with LUT S-boxes: from registers, rst and zeroize
    // only. It also clears at a key transfer in a block's last clock (the expansion never
    // reads the window before its own words are in it), and expanding and block_busy
    // never coincide, so that the last clock of an expansion never stalls.
    wire        window_clear = !BRAM ? (rst || zeroize || scrubbing || (at_last_word && (block_busy || expanding)))
                                     : clear_schedule;
    wire [2:0]  nk_minus1   = (key_size == 2'd0) ? 3'd3 : (key_size == 2'd1) ? 3'd5 : 3'd7;
    wire [31:0] key_word    = use_stored ? store_word : computed_word;        // W[8] = u[j]
    wire [1:0]   key_size_next = rst ? 2'd0 : start_q ? (key_go ? load_size : in_key_size) : key_size;
    // The two window taps W[9-Nk] (window_old) and W[10-Nk] (window_back) are registers,
    // loaded from the window as it is after a step (shifted when the block or expansion
    // steps), with the key size of the current block, so that no handshake path reaches
    // them. The taps are not used in the first Nk-1 >= 3 clocks after a transfer, so the
    // old key size and window at a transfer edge do not matter; they read zero one clock
    // after the window is cleared, and at once on rst or zeroize.
    wire [1:0]   tap_size   = key_size;
    wire [191:0] tap_window = (rst || zeroize) ? 192'd0 :
                              step ? window[223:32] : window[191:0];
    wire [31:0] t_in   = decrypt ? window_back : key_word;
    wire [1:0]  t_mode = (word_pos == 3'd0) ? 2'd1 : ((key_size == 2'd2) && (word_pos == 3'd4)) ? 2'd2 : 2'd0;
    // T of the key schedule, as aes_ks_t: SubWord(RotWord(w)) ^ Rcon, SubWord(w) or w;
    // here RotWord is applied after SubWord (they commute), which saves the input mux
    wire [31:0] t_sub;
    generate
        if (BRAM) begin : g_tsub_bram
            // The RAMs' read register stands in for the T input register: they read the
            // next T input as it is in a step of a block or an expansion (the window
            // shifts, computed_word loads): the value that window_back (decrypt) or
            // computed_word (encrypt, key load) has one clock later whenever T is used.
            // T is never used in the first Nk-1 >= 3 clocks after a transfer (so the old
            // direction and key size at a transfer edge do not matter), nor in the last
            // round's first clock, where a stall can repeat the clock; and T of a stored
            // word (encrypt, j = Nk-1) is never needed since w[Nk] is stored too. Only
            // registers and the RAMs' own outputs feed the address: no handshake, reset
            // or stall path. After a clear the RAMs read from zeros.
            wire [31:0] t_next_fwd = (!next_stored && (t_mode != 2'd0)) ? sched_sbox :
                                     next_stored ? load_word : (window_old ^ t_in);
            wire [31:0] t_next_dec = (key_size == 2'd0) ? window[223:192] :
                                     (key_size == 2'd1) ? window[159:128] : window[95:64];
            wire [31:0] t_addr = decrypt ? t_next_dec : t_next_fwd;
            aes_sbox_bram #(.DIR(0), .OUT_REG(0)) u_tsub_lo (
                .clk(clk), .a_in(t_addr[7:0]), .a_inv(1'b0), .a_clr(1'b0), .a_en(1'b1), .a_out(t_sub[7:0]),
                .b_in(t_addr[15:8]), .b_inv(1'b0), .b_clr(1'b0), .b_en(1'b1), .b_out(t_sub[15:8]));
            aes_sbox_bram #(.DIR(0), .OUT_REG(0)) u_tsub_hi (
                .clk(clk), .a_in(t_addr[23:16]), .a_inv(1'b0), .a_clr(1'b0), .a_en(1'b1), .a_out(t_sub[23:16]),
                .b_in(t_addr[31:24]), .b_inv(1'b0), .b_clr(1'b0), .b_en(1'b1), .b_out(t_sub[31:24]));
        end else begin : g_tsub_ahead
            // LUT S-boxes: the same one-clock-ahead read as the block RAMs above, into a
            // register of T's outputs. A word that T turns into the next one is never
            // itself a T word (T positions are Nk or 4 words apart), so the next T input
            // is always W[9-Nk] ^ u[j] (or a key word while expanding): T's outputs feed
            // no path back to its own input. Nor is u[j] then a stored word: a T input
            // u[j+1] of a block (j+2 = 2Nk, 3Nk, ..., or 12 with Nk = 8) has j >= Nk+2,
            // and the expansion stores no word it reads. So computed_word stands for u[j]
            // (key_word without its select).
            // T's input is one LUT level from registers: aux_q ^ (xen_q & (window_old ^
            // computed_word)). The selects in front of it (key size, direction, stored
            // key word; the key-size select was the ECP5 critical path, 8.63 ns) are made
            // a clock earlier into aux_q and xen_q, from the next values of the window,
            // decrypt, next_stored and load_word:
            //   decrypt: aux_q = the word window_back will hold after a step (dtap_nx, the
            //            window's next value at the key size's tap; it uses the key size
            //            of the clock before, which differs only in the clock after a
            //            transfer, and T is first used Nk-1 >= 3 clocks after one);
            //   encrypt: aux_q = load_word while next_stored, else zero, and xen_q set
            //            for W[9-Nk] ^ u[j].
            // aux_q reads zero one clock after the window and the key buffer are cleared.
            // (After a shift the window is {key_word, window[223:32]}.)
            // aux_q loaded in a clock where a transfer can start (start_q) is never used:
            // T is first used Nk-1 >= 3 clocks after a transfer, and after no transfer the
            // core is idle. So the next values below leave out the start (no handshake in
            // front of aux_q), and the decryption's tap assumes that the window shifts,
            // which it does in every clock of a block except an err block's (whose schedule
            // is not used) and a stalled one (the last round's first clock, repeated):
            // there aux_q is wrong for the repeat, so that t_sub_q is wrong in the last
            // round's second clock, where no key size uses T (u[4Nr+1] = w[2] = w[Nk+2] ^
            // w[Nk+1]). The formal check below (f_tsub_good) proves that T's output is
            // right whenever it is used. No stall and no handshake lie in front of aux_q
            // now (the stall -> step -> key-buffer word select -> aux_q path was at 8.35 ns)
            wire [31:0]  dtap_nx = window_clear ? 32'd0 :
                                   ((key_size == 2'd0) ? key_word :
                                    (key_size == 2'd1) ? window[191:160] : window[127:96]);
            // next_stored's value after the next step (j+1 < Nk-1), a register, so that
            // no adder and compare lie in front of aux_q (they were, at 9.28 ns)
            reg          ns_ahead_q;
            always @(posedge clk) begin
                if (rst || start_q) ns_ahead_q <= 1'b1;      // j = 0: 1 < Nk-1
                else if (step)      ns_ahead_q <= (word_index_inc < {3'd0, nk_minus1} - 6'd1);
            end
            wire         next_stored_nx = rst ? 1'b1 : step ? ns_ahead_q : next_stored;
            // encryption: a key word only in an expansion (the key buffer is empty
            // otherwise), which steps in every clock
            wire [31:0]  load_word_nx = (expanding && ns_ahead_q && !(rst || zeroize || expand_done)) ?
                                        load_words[63:32] : 32'd0;
            reg  [31:0]  aux_q;
            reg          xen_q;
            wire [31:0]  aux_d = decrypt ? dtap_nx : load_word_nx;
            wire         xen_d = !decrypt && !next_stored_nx;
            always @(posedge clk) begin
                aux_q <= aux_d;
                xen_q <= xen_d;
            end
            wire [31:0] t_addr = aux_q ^ ({32{xen_q}} & (window_old ^ computed_word));
`ifdef FORMAL
            // aux_q / xen_q as the selects they replace would load them, with the handshake
            // and the stall (the form before): f_aux_good / f_tsub_good follow whether the
            // registers and T's output hold those values, and T's output is right wherever
            // it is used (a computed word from sched_sbox)
            wire         f_window_sh = !key_go && compute;
            wire [31:0]  f_dtap_nx = window_clear ? 32'd0 :
                                     f_window_sh ? ((key_size == 2'd0) ? key_word :
                                                    (key_size == 2'd1) ? window[191:160] : window[127:96]) :
                                                   ((key_size == 2'd0) ? window[223:192] :
                                                    (key_size == 2'd1) ? window[159:128] : window[95:64]);
            wire         f_decrypt_nx = rst ? 1'b0 : start_q ? (!key_go && in_decrypt) : decrypt;
            wire         f_ns_nx = (rst || start_q) ? 1'b1 : step ? ns_ahead_q : next_stored;
            wire [31:0]  f_lw_nx = (rst || zeroize || expand_done) ? 32'd0 :
                                   key_go ? (key_data[63:32] & load_mask[31:0]) :
                                   (expanding && compute) ? load_words[63:32] : load_words[31:0];
            wire [31:0]  f_aux_d = f_decrypt_nx ? f_dtap_nx : f_ns_nx ? f_lw_nx : 32'd0;
            wire         f_xen_d = !f_decrypt_nx && !f_ns_nx;
            reg          f_aux_good = 1'b0;
            reg          f_tsub_good = 1'b0;
            always @(posedge clk) begin
                f_aux_good  <= (aux_d == f_aux_d) && (xen_d == f_xen_d);
                f_tsub_good <= f_aux_good;
            end
            always @(posedge clk) if (!rst) assert(ns_ahead_q == (word_index_inc < {3'd0, nk_minus1}));
            always @(*) if (!rst && compute && sel_sbox) assert (f_tsub_good);
`endif
            wire [31:0] t_sub_d;
            reg  [31:0] t_sub_q;
            aes_subword #(.IMPL(SBOX_IMPL), .DIR(0)) u_tsub (.in(t_addr), .inv(1'b0), .out(t_sub_d));
            always @(posedge clk) begin
                if (rst || zeroize) t_sub_q <= 32'd0;
                else                t_sub_q <= t_sub_d;
            end
            assign t_sub = t_sub_q;
        end
    endgenerate
    // next word: W[9-Nk] ^ T; the terms that do not depend on the S-boxes are formed
    // apart from the S-box terms
    wire        t_rot      = (t_mode == 2'd1);
    wire [31:0] old_rcon = window_old ^ {24'd0, t_rot ? rcon : 8'd0};
    wire [31:0] sched_sbox = old_rcon ^ (t_rot ? {t_sub[7:0], t_sub[31:8]} : t_sub);
    wire sel_sbox = !key_go && !next_stored && (t_mode != 2'd0);
    // key load: key word 0; stored/key words; T = identity
    wire [31:0] cw_other = key_go ? key_data[31:0] : next_stored ? load_word : (window_old ^ t_in);
    wire [31:0] computed_next = sel_sbox ? sched_sbox : cw_other;
    // the key store's read index j+1 in a block: a register of its own (next_index_q) with
    // LUT S-boxes, where the adder in front of the read address was the critical path
    wire [WW-1:0] next_index  = !BRAM ? next_index_q : word_index[WW-1:0] + 1'b1;
    wire [31:0] load_word     = load_words[31:0];   // expansion: key word j+1 (1..7)
    // a key of an illegal length (no expansion) leaves no key words behind
    wire [223:0] load_mask    = {224{load_ok}};
    // Rcon of the first backward step: Rcon[10] / Rcon[8] / Rcon[7] for AES-128/192/256
    wire [7:0]  rcon_backward = (in_key_size == 2'd0) ? 8'h36 : (in_key_size == 2'd1) ? 8'h80 : 8'h40;

    // key store: one address for the write and the synchronous read (LUT RAM on
    // 7-series/ECP5, block RAM on iCE40); the read register store_word has no reset so
    // that it can be the RAM's own output register: it is never selected for an err
    // block or while scrubbing, and the last scrub step leaves it at zero. In a clock where
    // a block can start (idle, or the last clock of a block) the read is of u[0] of the
    // offered block's slot and direction whether or not it is transferred (the word read
    // is used only if it is), so the address does not wait for the handshake
    wire          store_low   = store_first || store_extra;   // expansion: w[0..Nk-1] (w[Nk])
    // index in the second half (< Nk <= 8): words_left[2:0], zero-extended to WW bits
    wire [WW-1:0] words_left_w = (words_left[WW-1:0] << (WW - 3)) >> (WW - 3);
    // store_addr_own / store_addr_in: formal checks only (g_addr_ahead)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [AW-1:0] store_addr_own = scrubbing ? scrub_step[AW-1:0] :
                                   expanding ? (!BRAM ? {slot, !exp_low_q, exp_idx_q} :
                                                {slot, !store_low, store_low ? word_index[WW-1:0] : words_left_w}) :
                                   {slot, decrypt, next_index};
    // the offered block's u[0] in a clock where a block can start (not while scrubbing;
    // start_q implies !expanding)
    wire          store_addr_in = start_q && !scrubbing;
    wire [AW-1:0] store_addr_mix;          // the same for the second key store (LUT S-boxes)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [AW-1:0] store_addr;              // key-store address (g_addr_*, after the sequencer's next values)
    // the scrub's last step (scrub_step[AW]) only reads
    wire          store_we    = (scrubbing && !scrub_step[AW]) || (expanding && (store_low || store_last));
    // No read in a write clock (store_word is not used then): the RAM never reads the
    // address it writes, so no read-during-write behaviour has to be emulated around it
    // (Yosys otherwise puts a bypass register and a multiplexer behind the iCE40 block
    // RAM's read port, a LUT level on every path from store_word)
    always @(posedge clk) begin
        if (store_we) key_store[store_addr] <= key_word;
        else          store_word <= key_store[store_addr];
    end

    // ------------------------------------------------------------------ datapath
    // (Inv)ShiftRows by tap selection: in clock k of a round, row r reads position 3+r
    // while k+r < 4, else r-1. Two stages: the S-boxes of a column's bytes are computed
    // one clock ahead from the delay lines as they are then (sub_word), and the clock of
    // the column adds (Inv)MixColumns and the round key. The one byte that does not exist
    // one clock ahead is row 3 of column 0 (k = 0), the byte of the previous round's last
    // column, produced in the clock before: it is at position 6 (row3[31:24]) and has its
    // own S-box (late_sub) whose (Inv)MixColumns term is added at the end (MixColumns is
    // linear).
    wire [31:0] sub_word;                                // (Inv)SubBytes of this clock's column
    wire        state_clear = rst || zeroize || block_done;  // the state rows are cleared
    wire        state_en    = block_busy && compute;         // the state rows shift
    wire        first_col = (col_step == 2'd0);          // k == 0: row 3 comes from late_sub
    // taps for the next clock (k+1), read from the delay lines before this clock's shift:
    // position p then is position p-1 after it
    wire [31:0] taps_next = {row3[7:0],                                        // k+1 != 0
                             (DEFER ? tap2_hi : (last_col || first_col)) ? row2[39:32] : row2[7:0], // k+1 < 2
                             (DEFER ? tap1_hi : (col_step != 2'd2)) ? row1[39:32] : row1[7:0],      // k+1 != 3
                             row0[7:0]};
    wire [7:0]  late_fwd, late_inv;                      // row 3 of column 0, both directions
    wire [31:0] col_out;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [7:0]  late_col;                                // col_out[31:24] where it matters (below; SBOX_IMPL 2 only)
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (BRAM) begin : g_sbox_bram
            // The RAMs' read registers are sub_word and the late byte's register. They
            // read (rd_en) when the state shifts or is cleared, and hold otherwise (a
            // stalled block keeps sub_word): the column S-boxes read taps_next, the late
            // RAM the next value of row3[31:24] (position 6, late_col), so that the late
            // output is S(row3[31:24]) or InvS whenever it is used; both read zero when
            // the state is cleared, so that the RAMs then hold S(0) / InvS(0), no state.
            // At a transfer edge the reads use the old direction: sub_word and the late
            // byte are first used in clock 4.
            wire        rd_en     = state_clear || state_en;
            wire [31:0] sub_addr  = state_clear ? 32'd0 : taps_next;
            wire [7:0]  late_addr = state_clear ? 8'd0 : late_col;
            wire [7:0]  late_sub;
            aes_sbox_bram #(.DIR(2), .OUT_REG(0)) u_sub_lo (
                .clk(clk), .a_in(sub_addr[7:0]), .a_inv(decrypt), .a_clr(1'b0), .a_en(rd_en), .a_out(sub_word[7:0]),
                .b_in(sub_addr[15:8]), .b_inv(decrypt), .b_clr(1'b0), .b_en(rd_en), .b_out(sub_word[15:8]));
            aes_sbox_bram #(.DIR(2), .OUT_REG(0)) u_sub_hi (
                .clk(clk), .a_in(sub_addr[23:16]), .a_inv(decrypt), .a_clr(1'b0), .a_en(rd_en), .a_out(sub_word[23:16]),
                .b_in(sub_addr[31:24]), .b_inv(decrypt), .b_clr(1'b0), .b_en(rd_en), .b_out(sub_word[31:24]));
            /* verilator lint_off UNUSEDSIGNAL */
            wire [7:0] late_unused;                      // port B of the late byte's RAM
            /* verilator lint_on UNUSEDSIGNAL */
            aes_sbox_bram #(.DIR(2), .OUT_REG(0)) u_late (
                .clk(clk), .a_in(late_addr), .a_inv(decrypt), .a_clr(1'b0), .a_en(rd_en), .a_out(late_sub),
                .b_in(8'd0), .b_inv(1'b0), .b_clr(1'b0), .b_en(rd_en), .b_out(late_unused));
            assign late_fwd = late_sub;
            assign late_inv = late_sub;
        end else begin : g_sbox_lut
            wire [31:0] sub_next;
            reg  [31:0] sub_word_r;
            aes_subword #(.IMPL(SBOX_IMPL), .DIR(2)) u_sub (.in(taps_next), .inv(decrypt), .out(sub_next));
            // row 3 of a round's first column (k = 0) comes from the late byte, so
            // sub_word's row 3 is loaded as zero for it (the shift at k = 3, last_col, a
            // register): no column-step decode lies between sub_word and (Inv)MixColumns
            always @(posedge clk)
                if (state_clear)   sub_word_r <= 32'd0;
                else if (state_en) sub_word_r <= {last_col ? 8'd0 : sub_next[31:24], sub_next[23:0]};
            assign sub_word = sub_word_r;
            // keep_hierarchy: as in aes_subword; flattened, Yosys would move the row3 register
            // to the table's output (memory_dff + memory_map) and put the table on the loop path
            (* keep_hierarchy *)
            aes_sbox #(.IMPL(SBOX_IMPL), .DIR(0)) u_late (.in(row3[31:24]), .inv(1'b0), .out(late_fwd));
            (* keep_hierarchy *)
            aes_sbox #(.IMPL(SBOX_IMPL), .DIR(1)) u_late_inv (.in(row3[31:24]), .inv(1'b1), .out(late_inv));
        end
    endgenerate
    // row 3 of column 0 is zero here (DEFER: sub_word's row 3 is already loaded as zero
    // for k = 0, see g_sbox_lut)
    wire [31:0] substituted = {(!DEFER && first_col) ? 8'd0 : sub_word[31:24], sub_word[23:0]};
    wire [1:0]  column    = col_step ^ {decrypt, decrypt};    // column index in the block
    wire [31:0] in_column = in_block[31:0];                   // in_block shifts (below)
    wire [31:0] mixed;                                   // (Inv)MixColumns of the S-box outputs
    aes_mixcolumn #(.DIR(2)) u_mc (.in(substituted), .inv(decrypt), .out(mixed));
    // decrypt adds the round key before InvMixColumns; InvMixColumns is linear, so that
    // is InvMixColumns(substituted) ^ InvMixColumns(key_word), the key's term formed
    // beside the data's (the round-key select is not in front of the data's XOR trees)
    wire [31:0] key_mixed;
    generate
        if (DEFER) begin : g_key_mc2
            // LUT S-boxes: InvMixColumns is applied to both sources of key_word (the
            // key-store read and the computed word) and the result selected after it, so
            // that the source select is not in front of its XOR trees (use_stored ->
            // key_word -> InvMixColumns -> rows was the ECP5 critical path, 8.22 ns)
            // A stored word's InvMixColumns is not formed after the read either: a second
            // LUT RAM (key_store_mix, same address, write enable and scrub as key_store)
            // holds InvMixColumns of every word written, read into store_mixed beside
            // store_word. Words are written only by the expansion and the scrub, where
            // key_word is computed_word (use_stored is never set outside a block), so its
            // write data is InvMixColumns(computed_word), the term formed here anyway.
            wire [31:0] key_mixed_cw;
            aes_mixcolumn #(.DIR(1)) u_mc_key_cw (.in(computed_word), .inv(1'b1), .out(key_mixed_cw));
`ifdef AESIP_BRAM_ECP5
            (* ram_style = "distributed" *)
`endif
            reg  [31:0] key_store_mix [0:(1 << AW) - 1];
            reg  [31:0] store_mixed;         // its read register (no reset, as store_word)
            always @(posedge clk) begin
                if (store_we) key_store_mix[store_addr_mix] <= key_mixed_cw;
                else          store_mixed <= key_store_mix[store_addr_mix];
            end
            assign key_mixed = use_stored ? store_mixed : key_mixed_cw;
`ifdef FORMAL
            always @(posedge clk) if (!rst && store_we) assert (!use_stored);
`endif
        end else begin : g_key_mc1
            aes_mixcolumn #(.DIR(1)) u_mc_key (.in(key_word), .inv(1'b1), .out(key_mixed));
        end
    endgenerate
    // The late byte's S-box outputs are registered (late_fwd_q / late_inv_q, loaded in every
    // shift, used after one at k = 0), and its (Inv)MixColumns term is added one clock
    // later, at k = 1, to the column it belongs to, as that column moves from position 6
    // to position 5 of the rows (row shift below; in the last round, to the output
    // register). No tap reads a column at position 6 in the clock after it is produced
    // (the first read of column 0 of a round is at k = 3), so the term is in place before
    // any read, and the S-box is not in front of the (Inv)MixColumns and XOR of a column.
    reg  [7:0]  late_fwd_q, late_inv_q;
    always @(posedge clk)
        if (state_clear) begin
            late_fwd_q <= 8'd0;
            late_inv_q <= 8'd0;
        end else if (state_en) begin
            late_fwd_q <= late_fwd;
            late_inv_q <= late_inv;
        end
    wire [31:0] late_mixed_fwd, late_mixed_inv;
    wire [7:0]  late_fwd_t = DEFER ? late_fwd_q : late_fwd;   // the byte whose term is added
    wire [7:0]  late_inv_t = DEFER ? late_inv_q : late_inv;
    aes_mixcolumn #(.DIR(0)) u_mc_late_fwd (.in({late_fwd_t, 24'd0}), .inv(1'b0), .out(late_mixed_fwd));
    aes_mixcolumn #(.DIR(1)) u_mc_late_inv (.in({late_inv_t, 24'd0}), .inv(1'b1), .out(late_mixed_inv));
    // col_out: the column shifted into the state rows, for the initial and the middle
    // rounds (initial AddRoundKey / middle rounds): the data's part and the key's part,
    // then the late byte's term. The last round's columns are never read from the rows
    // (they reach the output register through final_col below, and the rows are
    // cleared at the block's end), so col_out has no last-round case.
    wire [31:0] data_part = initial_round ? in_column : mixed;
    wire [31:0] key_part  = (decrypt && !initial_round) ? key_mixed : key_word;
    // the late byte's term: DEFER, added at k = 1 to the column of k = 0 (rows, below);
    // else at k = 0 into the column itself (per direction, so that the direction select
    // is the last step before the XOR)
    wire        late_on   = DEFER ? late_d : late_en;
    wire [31:0] late_term_fwd = late_on ? late_mixed_fwd : 32'd0;
    wire [31:0] late_term_inv = late_on ? late_mixed_inv : 32'd0;
    wire [31:0] late_term = decrypt ? late_term_inv : late_term_fwd;
    wire [31:0] late_now  = DEFER ? 32'd0 : late_term;    // into col_out
    wire [31:0] late_next = DEFER ? late_term : 32'd0;    // into the rows' position 5
    assign      col_out   = data_part ^ key_part ^ late_now;
    // Two other consumers take a column in known clocks only, and get shorter
    // expressions of their own (fewer LUT levels from sub_word / the late byte / the
    // round key):
    // * the late byte's RAM (SBOX_IMPL 2) reads the next row3[31:24] in a shift, whose
    //   S-box is used only when the next clock is a round's first column (late_en), i.e.
    //   when this clock is the last column (k = 3) of the initial or a middle round:
    //   there late_term is zero and no byte is masked, so row 3 of col_out is that of
    //   (in_column or MixColumns(sub_word)) ^ key_part;
    // * the output register is written in the last round only, where the column is
    //   (Inv)SubBytes with the late byte in row 3 of column 0 (late_en = first_col
    //   there), plus the round key.
    generate
        if (BRAM) begin : g_late_col
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] mixed_full;                      // (Inv)MixColumns(sub_word): row 3 used
            /* verilator lint_on UNUSEDSIGNAL */
            aes_mixcolumn #(.DIR(2)) u_mc_full (.in(sub_word), .inv(decrypt), .out(mixed_full));
            assign late_col = (initial_round ? in_column[31:24] : mixed_full[31:24]) ^ key_part[31:24];
        end else begin : g_no_late_col
            assign late_col = 8'd0;
        end
    endgenerate
    // last round: row 3 of column 0 is the late byte alone (no MixColumns) ^ its key
    // byte; DEFER: the key byte is written at k = 0, the late byte added at k = 1
    // (late_patch)
    wire [7:0]  late_last = decrypt ? late_inv_t : late_fwd_t;
    // (DEFER: at k = 0, where late_en can be set, sub_word's row 3 is already zero)
    wire [31:0] final_col = {(!DEFER && late_en) ? late_last : sub_word[31:24], sub_word[23:0]} ^ key_word;

    wire        out_we      = block_busy && final_round && advance;
    wire        out_err_new = err || zeroize;
    wire        out_clear   = zeroize && !m_axis_tvalid;   // never clear a finished, pending result
    wire        out_take    = m_axis_tvalid && m_axis_tready;   // the result leaves: clear its copy

    // ------------------------------------------------------------------ sequencer
    // one if/else chain per register; key_go and block_go never coincide, key_go never
    // with zeroize. The registers that a transfer loads are loaded in every clock where
    // one can happen (start_q: idle, or a block's last clock), whether it happens or
    // not: with the start values of a block, or of a key load when key_go. Without a
    // transfer the core is idle in the next clock, where none of them is used; so the
    // handshake only selects between the two sets of start values and is on none of
    // their enables. block_busy / expanding / at_last_word / scrubbing are given as next
    // values, from which start_q and kstart_q are loaded.
    wire scrubbing_nx  = (rst || zeroize) ? 1'b1 : (scrubbing && scrub_step[AW]) ? 1'b0 : scrubbing;
    wire block_busy_nx = (rst || key_go) ? 1'b0 : block_go ? 1'b1 : step_last ? 1'b0 : block_busy;
    wire expanding_nx  = rst ? 1'b0 : key_go ? load_ok : (zeroize || step_last) ? 1'b0 : expanding;
    wire at_last_word_nx = rst ? 1'b1 : start_q ? 1'b0 :
                           step ? (words_left == 6'd1) : at_last_word;
    wire start_nx = !expanding_nx && (!block_busy_nx || at_last_word_nx);
    // key-store address (declared with the key store above)
    generate
        if (!BRAM) begin : g_addr_ahead
            // LUT S-boxes: the address as a register, loaded with the value store_addr_own
            // takes after the edge (from the next values of its sources), and the offered
            // block's address selected after it by kstart_q (= start_q && !scrubbing as a
            // register): one LUT level between registers and the LUT RAM's read address
            // (the select in front of it was part of the ECP5 critical path at 8.0 ns)
            wire [AW-1:0] scrub_step_nx = (rst || zeroize) ? {AW{1'b0}} :
                                          (scrubbing && !scrub_step[AW]) ? scrub_step[AW-1:0] + 1'b1 : scrub_step[AW-1:0];
            wire [SLOT_W-1:0] slot_nx   = rst ? {SLOT_W{1'b0}} : start_q ? (key_go ? key_slot : in_slot) : slot;
            wire          decrypt_a_nx  = rst ? 1'b0 : start_q ? (!key_go && in_decrypt) : decrypt;
            wire          exp_low_nx    = (rst || start_q) ? 1'b1 : step ? store_first : exp_low_q;
            wire [WW-1:0] exp_idx_nx    = (rst || start_q) ? {WW{1'b0}} :
                                          step ? (store_first ? next_index_q : {1'b0, words_left_dec[2:0]}) : exp_idx_q;
            wire [WW-1:0] next_index_nx = (rst || start_q) ? {{(WW-1){1'b0}}, 1'b1} :
                                          step ? next_index_q + 1'b1 : next_index_q;
            wire [AW-1:0] addr_nx = scrubbing_nx ? scrub_step_nx :
                                    expanding_nx ? {slot_nx, !exp_low_nx, exp_idx_nx} :
                                                   {slot_nx, decrypt_a_nx, next_index_nx};
            reg  [AW-1:0] addr_q;
            // a copy of its own for the second key store (g_key_mc2), so that neither
            // register drives the read addresses of both LUT RAMs (kept: Yosys would merge it)
            (* keep *) reg [AW-1:0] addr_mix_q;
            always @(posedge clk) begin
                addr_q     <= addr_nx;
                addr_mix_q <= addr_nx;
            end
            assign store_addr     = kstart_q ? {in_slot, in_decrypt, {WW{1'b0}}} : addr_q;
            assign store_addr_mix = kstart_q ? {in_slot, in_decrypt, {WW{1'b0}}} : addr_mix_q;
`ifdef FORMAL
            reg f_addr_seen = 1'b0;
            always @(posedge clk) f_addr_seen <= 1'b1;
            always @(*) if (f_addr_seen) assert (kstart_q == store_addr_in);
            always @(*) if (f_addr_seen && !store_addr_in) assert (addr_q == store_addr_own);
            always @(*) if (f_addr_seen) assert (addr_mix_q == addr_q);
`endif
        end else begin : g_addr_now
            // (the form the block-RAM build was measured with; the same address)
            assign store_addr = scrubbing ? scrub_step[AW-1:0] :
                                expanding ? {slot, !store_low, store_low ? word_index[WW-1:0] : words_left_w} :
                                start_q ? {in_slot, in_decrypt, {WW{1'b0}}} : {slot, decrypt, next_index};
            assign store_addr_mix = store_addr;   // unused (no second key store)
        end
    endgenerate
    always @(posedge clk) begin
        block_busy   <= block_busy_nx;
        expanding    <= expanding_nx;
        at_last_word <= at_last_word_nx;
        start_q      <= start_nx;
        kstart_q     <= start_nx && !scrubbing_nx;

        if (rst || start_q)   word_index <= 6'd0;
        else if (step)        word_index <= word_index_inc;

        if (rst || start_q)   next_index_q <= {{(WW-1){1'b0}}, 1'b1};
        else if (step)        next_index_q <= next_index_q + 1'b1;

        // the expansion's key-store index as registers (LUT S-boxes): the next store_low
        // is store_first (next_stored implies store_first)
        if (rst || start_q)   exp_low_q <= 1'b1;
        else if (step)        exp_low_q <= store_first;
        if (rst || start_q)   exp_idx_q <= {WW{1'b0}};
        else if (step)        exp_idx_q <= store_first ? next_index_q : {1'b0, words_left_dec[2:0]};

        if (rst || start_q)   last_col <= 1'b0;
        else if (step)        last_col <= (word_index[1:0] == 2'd2);

        // the tap selects, decoded from the next column step (k = 0 after a start)
        // so that no LUT level lies between a register and the S-box inputs
        if (rst || start_q)   tap2_hi <= 1'b1;
        else if (step)        tap2_hi <= word_index[1];                  // next k is 3 or 0
        if (rst || start_q)   tap1_hi <= 1'b1;
        else if (step)        tap1_hi <= (word_index[1:0] != 2'd1);      // next k != 2

        if (rst || start_q)   initial_round <= 1'b1;
        else if (step)        initial_round <= (word_index_inc[5:2] == 4'd0);

        if (rst)              final_round <= 1'b1;                       // words_left = 0
        else if (start_q)     final_round <= 1'b0;                       // 43 / 51 / 59
        else if (step)        final_round <= (words_left_dec[5:2] == 4'd0);

        if (rst || start_q)   at_last_round <= 1'b0;
        else if (step)        at_last_round <= (words_left == LAST_ROUND_WORDS + 6'd1);

        // compares with Nk-1 (key_size is constant between transfers; Nk-1 >= 3)
        if (rst || start_q) begin
            next_stored <= 1'b1;
            store_first <= 1'b1;
        end else if (step) begin
            next_stored <= (word_index_inc < {3'd0, nk_minus1});
            store_first <= next_stored;
        end

        if (rst || start_q)   store_extra <= 1'b0;
        else if (step)        store_extra <= store_first && !next_stored;   // next j = Nk

        if (rst)              store_last <= 1'b1;                        // words_left = 0
        else if (start_q)     store_last <= 1'b0;
        else if (step)        store_last <= (words_left_dec <= {3'd0, nk_minus1});

        if (rst || start_q)   late_en <= 1'b0;
        else if (step)        late_en <= last_col;                       // next j = 4r, r >= 1

        if (rst || start_q)   late_d <= 1'b0;
        else if (step)        late_d <= late_en;                         // next j = 4r+1, r >= 1

        if (rst)              words_left <= 6'd0;
        else if (start_q)     words_left <= last_word(key_go ? load_size : in_key_size);
        else if (step)        words_left <= words_left_dec;

        key_size <= key_size_next;

        if (rst)              decrypt <= 1'b0;
        else if (start_q)     decrypt <= !key_go && in_decrypt;

        if (rst)              slot <= {SLOT_W{1'b0}};
        else if (start_q)     slot <= key_go ? key_slot : in_slot;

        if (rst)              tag <= {TAG_W{1'b0}};
        else if (start_q)     tag <= in_tag;

        if (rst)              err <= 1'b0;
        else if (start_q)     err <= !key_go && !in_key_ok;
        else if (zeroize)     err <= 1'b1;

        if (rst)              word_pos <= 3'd0;
        else if (start_q)     word_pos <= (!key_go && in_decrypt) ? 3'd2 : 3'd1;
        else if (step && decrypt)  word_pos <= (word_pos == 3'd0) ? nk_minus1 : word_pos - 3'd1;
        else if (step)        word_pos <= (word_pos == nk_minus1) ? 3'd0 : word_pos + 3'd1;

        if (rst)              rcon <= 8'h00;
        else if (start_q)     rcon <= (!key_go && in_decrypt) ? rcon_backward : 8'h01;
        else if (step && !next_stored && t_mode == 2'd1) rcon <= decrypt ? xdiv(rcon) : xtime(rcon);
    end

    // ------------------------------------------------------------------ key slots
    always @(posedge clk) begin
        if (rst || zeroize)   slot_valid <= {NSLOT{1'b0}};
        else if (key_go)      slot_valid[key_slot] <= 1'b0;
        else if (expand_done) slot_valid[slot] <= 1'b1;

        if (rst || zeroize)   slot_size <= {2*NSLOT{1'b0}};
        else if (!key_go && expand_done) slot_size[2*slot +: 2] <= key_size;

        // key-store scrub; the extra last step re-reads the zeroed address 0, so that
        // store_word ends at zero
        scrubbing <= scrubbing_nx;

        if (rst || zeroize)   scrub_step <= {(AW+1){1'b0}};
        else if (scrubbing && !scrub_step[AW]) scrub_step <= scrub_step + 1'b1;
    end

    // ------------------------------------------------------------------ key material
    always @(posedge clk) begin
        if (rst || zeroize || expand_done) load_words <= 224'd0;
        else if (key_go)      load_words <= key_data[255:32] & load_mask;
        else if (exp_step)    load_words <= {32'd0, load_words[223:32]};   // next word at [31:0]

        // no round-key words are left after a block or an expansion
        if (window_clear)     window <= 224'd0;
        else if (!key_go && compute) window <= {key_word, window[223:32]};
        window_old  <= (tap_size == 2'd0) ? tap_window[159:128] :
                       (tap_size == 2'd1) ? tap_window[95:64] : tap_window[31:0];
        window_back <= (tap_size == 2'd0) ? tap_window[191:160] :
                       (tap_size == 2'd1) ? tap_window[127:96] : tap_window[63:32];

        if (clear_schedule)   computed_word <= 32'd0;
        else if (key_go || compute) computed_word <= computed_next;   // load_word: expansion only

        if (rst || zeroize)   use_stored <= 1'b0;
        else if (start_q)     use_stored <= !key_go && in_key_ok;   // u[0] is read at the transfer edge
        // encrypt: u[Nk] = w[Nk] is a stored word too (j <= Nk-1)
        else if (step)        use_stored <= block_busy && !err &&
                                            (!decrypt ? store_first : next_stored);
    end

    // ------------------------------------------------------------------ state
    always @(posedge clk) begin
        // in_block holds the block's columns in the order the initial AddRoundKey reads them
        // (0..3 to encrypt, 3..0 to decrypt), the next one at [31:0]: it shifts one column
        // per clock of the initial round, with zeros, so that it is empty after it
        if (rst || zeroize)   in_block <= 128'd0;
        else if (block_go)    in_block <= in_decrypt ? {s_axis_tdata[31:0], s_axis_tdata[63:32],
                                                        s_axis_tdata[95:64], s_axis_tdata[127:96]}
                                                     : s_axis_tdata;
        else if (step && initial_round) in_block <= {32'd0, in_block[127:32]};

        if (state_clear) begin
            row0 <= 24'd0; row1 <= 48'd0; row2 <= 40'd0; row3 <= 32'd0;
        end else if (state_en) begin
            // position 6 -> 5 carries the late byte's term (zero except at k = 1)
            row0 <= {col_out[7:0],   row0[23:16] ^ late_next[7:0],   row0[15:8]};
            row1 <= {col_out[15:8],  row1[47:40] ^ late_next[15:8],  row1[39:8]};
            row2 <= {col_out[23:16], row2[39:32] ^ late_next[23:16], row2[31:8]};
            row3 <= {col_out[31:24], row3[31:24] ^ late_next[31:24], row3[23:8]};
        end
    end

    // ------------------------------------------------------------------ output
    // one 32-bit word per column, written in the last round (word k to encrypt, 3-k to
    // decrypt); a word is also cleared when the result is taken, unless it is being written
    // The late byte of the last round's column 0 (word 0 to encrypt, 3 to decrypt) is
    // added at k = 1, after the word was written with its key byte at k = 0. A stall can
    // only repeat k = 0 (at_last_round), and the output register is free from then on
    // (m_axis_tvalid low at k = 1), so the patch is decoded from registers alone, without
    // the handshake: an err block gets none (its words stay zero), and a zeroize at k = 1
    // clears the output register (out_clear, first in the chain below) and sets err.
    /* verilator lint_off UNUSEDSIGNAL */
    wire late_patch = DEFER && block_busy && final_round && late_d && !err;   // unused without DEFER
    /* verilator lint_on UNUSEDSIGNAL */
    genvar c;
    generate
        for (c = 0; c < 4; c = c + 1) begin : g_out_word
            wire write = out_we && (column == c);
            if (DEFER) begin : g_patch
                wire patch = late_patch && (decrypt ? (c == 3) : (c == 0));
                always @(posedge clk) begin
                    if (rst || out_clear || (write && out_err_new)) out_data[32*c +: 32] <= 32'd0;
                    else if (write)    out_data[32*c +: 32] <= final_col;
                    else if (patch)    out_data[32*c + 24 +: 8] <= out_data[32*c + 24 +: 8] ^ late_last;
                    else if (out_take) out_data[32*c +: 32] <= 32'd0;
                end
            end else begin : g_plain
                always @(posedge clk) begin
                    if (rst || out_clear || (write && out_err_new)) out_data[32*c +: 32] <= 32'd0;
                    else if (write)    out_data[32*c +: 32] <= final_col;
                    else if (out_take) out_data[32*c +: 32] <= 32'd0;
                end
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (rst)                m_axis_tvalid <= 1'b0;
        else if (block_done)    m_axis_tvalid <= 1'b1;
        else if (m_axis_tready) m_axis_tvalid <= 1'b0;

        if (rst)                out_tag <= {TAG_W{1'b0}};
        else if (block_done)    out_tag <= tag;

        if (rst)                out_err <= 1'b0;
        else if (block_done)    out_err <= out_err_new;
    end
    assign m_axis_tdata = out_data;
    assign m_axis_tuser = {out_tag, out_err};
`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // Common block-core interface properties (formal/aes_core_props.v): stream rules,
    // one output per accepted block in order with its tag, err => zero data, bounded
    // response. Proven by formal/aes_iter32.sby (docs/formal.md). `define F_AES_ITER32 when
    // this core is the top of the proof (its inputs are then assumed, else asserted).
    // CAP 2: block in progress and output register; LAT: 4 (Nr + 1) + 1 (at most 61).
`ifdef F_AES_ITER32
    localparam F_TOP = 1;
`else
    localparam F_TOP = 0;
`endif
    aes_core_props #(.TAG_W(TAG_W), .SLOT_W(SLOT_W), .CAP(2), .LAT(61), .ASSUME_IN(F_TOP)) f_core (
        .clk(clk), .rst(rst), .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
        .key_bytes(key_bytes), .key_data(key_data),
        .s_valid(s_axis_tvalid), .s_ready(s_axis_tready), .s_data(s_axis_tdata), .s_user(s_axis_tuser),
        .m_valid(m_axis_tvalid), .m_ready(m_axis_tready), .m_data(m_axis_tdata), .m_user(m_axis_tuser));
    // the registered decodes of the column step equal the decodes they replace
    always @(posedge clk) if (!rst) assert (last_col == (col_step == 2'd3));
    always @(posedge clk) if (!rst) assert (tap2_hi == (last_col || first_col));
    always @(posedge clk) if (!rst) assert (tap1_hi == (col_step != 2'd2));
    // no key words are left outside an expansion (an illegal key length included)
    always @(posedge clk) if (!rst && !expanding) assert (load_words == 224'd0);
    // DEFER: sub_word's row 3 is zero in a round's first column (loaded so, or cleared)
    always @(posedge clk) if (!rst && DEFER && first_col) assert (sub_word[31:24] == 8'd0);
    always @(posedge clk) if (!rst) assert (next_index_q == word_index[WW-1:0] + 1'b1);
    always @(posedge clk) if (!rst) assert (exp_low_q == store_low);
    // an expansion never meets a block, a stall or err (its decodes use expanding alone)
    always @(posedge clk) if (!rst && expanding) assert (!block_busy && !err);
    always @(posedge clk) if (!rst) assert (exp_idx_q == (store_low ? word_index[WW-1:0] : words_left_w));
    // the late byte's output patch needs no handshake term: it never meets a stall or a
    // result waiting in the output register
    always @(posedge clk) if (!rst && late_patch) assert (advance && !m_axis_tvalid && col_step == 2'd1);
`endif
endmodule
`default_nettype wire
