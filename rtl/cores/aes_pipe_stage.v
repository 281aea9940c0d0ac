// SPDX-License-Identifier: Apache-2.0
// aes_pipe_stage: datapath of one stage of aes_pipe (stage J of 0..NR_MAX) with its
// round-key memory. Valid bits and sidebands live in aes_pipe, which passes each stage
// the per-register control it needs; the pipeline runs free (no clock enable).
//
// Stage 0 is the initial AddRoundKey: one register, in ^ rk. Stage J >= 1 is a cipher
// round of the forward cipher or of the equivalent inverse cipher (FIPS-197 5.3.5),
// selected per block by its `dec` bit:
//   encrypt : ShiftRows    -> SubBytes    -> MixColumns    -> AddRoundKey
//   decrypt : InvShiftRows -> InvSubBytes -> InvMixColumns -> AddRoundKey
// (the byte permutation and the byte substitution commute). Stage NR_MAX is the final
// round (no MixColumns). ROUND_REGS registers per round stage J >= 1:
//   1: [SR SB MC ARK] reg
//   2: [SR SB] reg [MC ARK] reg
//   3: [SR SB] reg [MC] reg [ARK] reg
//   4: [SR SB] reg, delay reg, [MC] reg [ARK] reg (table S-boxes: [SR SB-halves] reg,
//      [select] reg, [MC] reg, [ARK] reg)
//   4 with SBOX_IMPL = 2 (block RAM): [SR] RAM address reg, [SB] RAM output reg, copy reg,
//      [MC ARK] reg (decryption: InvMixColumns as MixColumns of y ^ {04}y ^ {04}y', the
//      {04}y bytes read from the same RAM words; see g_r4_bram)
//   5 with SBOX_IMPL = 2: as 4, and [MC] reg [ARK] reg instead of [MC ARK] reg (g_r5)
//   5 .. 7: as 4, with a composite-field S-box (SBOX_IMPL = 1 required) cut by
//      ROUND_REGS - 4 registers of its own (aes_sbox_comp REGS: after its norm d, after
//      its products, after its input map): the paper-style deep pipeline of 5 .. 7 short
//      stages per round. A bypassed block travels beside the S-boxes in as many registers.
// With 4, a second register follows the S-boxes with no logic in between: it carries the
// state from the S-box LUTs to the MixColumns logic, so that route gets a clock of its
// own. With table S-boxes (SBOX_IMPL = 0) each S-box is two half tables (aes_sbox_half,
// top input bit 0 and 1: seven-input functions, one ECP5 PFU per output bit) registered
// separately (sub_data, sub_hi) with the top bits (sub_sel); the select between them is
// made on the way into the second register. So the S-box clock holds one PFU of logic
// and no route inside the S-box (the whole eight-input table needed a second level of
// slices, and its routes were most of aes128-enc's late endpoints on ECP5); 144 more
// flip-flops per stage, and fewer LUTs. (A register in front of the S-boxes is folded by
// Yosys into the S-box ROM read ports unless the S-boxes keep their hierarchy, as here.)
// The final stage J = NR_MAX has no ARK register: its output goes straight into
// pipe_obuf. With ROUND_REGS >= 3 (not block RAM) its AddRoundKey moves into register
// ROUND_REGS - 2 (EARLY; its round key is read one clock earlier), so that out_data is a
// register gated by the block's ok bit (out_ok, per 32-bit slice); otherwise out_data is
// the AddRoundKey of the last register and rk_q, gated the same way.
//
// Rounds are aligned to the end of the pipeline: a block whose key has Nr < NR_MAX
// rounds passes stages 1 .. NR_MAX - Nr unchanged (`byp`), then the stage's round key
// (zero, or round key 0 in stage NR_MAX - Nr) is XORed in.
//
// Round key: stage J >= 1 registers its round key one clock before use (rk_q, read at
// `rk_addr` for the block that will reach the AddRoundKey one clock later: aes_pipe
// supplies the address from the register two places ahead of the ARK register). Stage
// 0 reads its memory combinationally at the accepted block's address.
//
// Data gating: every data register (and rk_q) loads zero unless a valid block without
// err enters it (ctl_ok; written `ok ? x : 0` so that it maps onto the flip-flops'
// synchronous reset instead of a LUT per bit), except two kinds whose inputs are gated
// registers already: the half-table S-box registers (see g_halves) and the final stage's
// EARLY register (the XOR of two gated registers; a block that a zeroize turned into an
// err block on the way is zeroed by out_ok), and the block RAMs' address registers with
// SBOX_IMPL = 2 (whose outputs are cleared instead, see g_r4_bram); so bubbles, err blocks and everything
// after a zeroize carry zero data, and no state is left behind once the blocks have passed.
//
// Parameters
//   SBOX_IMPL  : S-box implementation: 0 table, 1 composite field (aes_sbox IMPL), 2 block
//                RAM (aes_sbox_bram, two S-boxes per RAM; needs ROUND_REGS = 4 or 5: the
//                RAM's address and output registers are the stage's registers 0 and 1)
//   SLOT_W     : key-slot index width (>= 1)
//   NR_MAX     : 10, 12 or 14 (number of round stages)
//   DIRECTION  : 0 encrypt only, 1 decrypt only, 2 both (per block, ctl_dec)
//   ROUND_REGS : 1 .. 7 registers per round stage (see above; 5 .. 7 need SBOX_IMPL 1,
//                or 5 with SBOX_IMPL 2)
//   J          : stage index, 0 .. NR_MAX
//   EARLY      : 1 = the final stage does its AddRoundKey into register ROUND_REGS - 2
//                (see above; needs J = NR_MAX, ROUND_REGS >= 3 and SBOX_IMPL != 2, whose
//                register 2 is the copy of the RAM outputs); default 0. aes_pipe decides
//                it, since it also reads the round key one clock earlier for it.
// Ports (NREG = 1 for J = 0, else ROUND_REGS; entry k of a ctl_* vector describes the
// block that enters the stage's register k at the next edge, k = 0 the first)
//   clk              : clock (no reset: the stage holds no control state)
//   in_data          : state of the block entering register 0
//   ctl_ok[NREG-1:0] : that block is valid and has no err
//   ctl_dec          : that block decrypts
//   ctl_dec_nx       : dec bit of the block that enters register 0 one clock later (the
//                      one now a place earlier); read with SBOX_IMPL = 2 and DIRECTION = 2
//                      only (registered copies of ctl_dec[0] per block RAM)
//   ctl_byp          : that block passes this stage unchanged
//   rk_ok, rk_addr   : J >= 1: the block one clock before its AddRoundKey (valid, no err)
//                      and its round-key address; J = 0: the accepted block's address
//   out_data         : J < NR_MAX: the ARK register; J = NR_MAX: the stage's result for
//                      the output buffer, zero unless out_ok (see above)
//   out_ok[3:0]      : J = NR_MAX: copies of the ok bit of the block in the output
//                      buffer's place (one per 32-bit slice of out_data); J = 0: per-slice
//                      load enables ANDed with ctl_ok[0] (aes_pipe's IN_REG copies, else
//                      all ones); unused otherwise
//   we/waddr/wdata   : write port of the stage's round-key memory (aes_pipe's loader),
//                      registered in the stage: the write lands one clock later
//   wclr             : rst or zeroize: cancels the registered write, clears its data
// Timing: 1 (J = 0) or ROUND_REGS clocks through the stage (J = NR_MAX: ROUND_REGS - 1
// registers, the last one is the output buffer's).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_pipe_stage #(
    parameter SBOX_IMPL  = 0,
    parameter SLOT_W     = 1,
    parameter NR_MAX     = 14,
    parameter DIRECTION  = 2,
    parameter ROUND_REGS = 1,
    parameter J          = 1,
    parameter EARLY      = 0
) (
    input  wire                                          clk,
    input  wire [127:0]                                  in_data,
    input  wire [((J == 0) ? 1 : ROUND_REGS)-1:0]        ctl_ok,
    input  wire [((J == 0) ? 1 : ROUND_REGS)-1:0]        ctl_dec,
    input  wire                                          ctl_dec_nx,
    input  wire [((J == 0) ? 1 : ROUND_REGS)-1:0]        ctl_byp,
    input  wire                                          rk_ok,
    input  wire [SLOT_W+((DIRECTION == 2) ? 1 : 0)-1:0]  rk_addr,
    output wire [127:0]                                  out_data,
    input  wire [3:0]                                    out_ok,
    input  wire                                          wclr,
    input  wire                                          we,
    input  wire [SLOT_W+((DIRECTION == 2) ? 1 : 0)-1:0]  waddr,
    input  wire [127:0]                                  wdata
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SBOX_IMPL >= 0 && SBOX_IMPL <= 2, aes_pipe_stage_SBOX_IMPL_not_0_to_2,
                     "aes_pipe_stage: SBOX_IMPL must be 0 or 1 or 2")
        `AESIP_CHECK(SBOX_IMPL != 2 || ROUND_REGS == 4 || ROUND_REGS == 5, aes_pipe_stage_SBOX_IMPL_2_needs_ROUND_REGS_4_or_5,
                     "aes_pipe_stage: SBOX_IMPL 2 (block RAM) needs ROUND_REGS 4 or 5")
        `AESIP_CHECK(SLOT_W >= 1, aes_pipe_stage_SLOT_W_below_1,
                     "aes_pipe_stage: SLOT_W must be >= 1")
        `AESIP_CHECK(NR_MAX == 10 || NR_MAX == 12 || NR_MAX == 14, aes_pipe_stage_NR_MAX_not_10_12_14,
                     "aes_pipe_stage: NR_MAX must be 10 or 12 or 14")
        `AESIP_CHECK(DIRECTION == 0 || DIRECTION == 1 || DIRECTION == 2, aes_pipe_stage_DIRECTION_not_0_1_2,
                     "aes_pipe_stage: DIRECTION must be 0 or 1 or 2")
        `AESIP_CHECK(ROUND_REGS >= 1 && ROUND_REGS <= 7, aes_pipe_stage_ROUND_REGS_not_1_to_7,
                     "aes_pipe_stage: ROUND_REGS must be 1 .. 7")
        `AESIP_CHECK(ROUND_REGS <= 4 || SBOX_IMPL == 1 || (SBOX_IMPL == 2 && ROUND_REGS == 5), aes_pipe_stage_ROUND_REGS_needs_comp,
                     "aes_pipe_stage: ROUND_REGS 5 .. 7 need SBOX_IMPL 1 (composite-field S-boxes; 5 also SBOX_IMPL 2)")
        `AESIP_CHECK(J >= 0 && J <= NR_MAX, aes_pipe_stage_J_out_of_range,
                     "aes_pipe_stage: J must be 0 .. NR_MAX")
        `AESIP_CHECK(EARLY == 0 || (J == NR_MAX && ROUND_REGS >= 3 && SBOX_IMPL != 2), aes_pipe_stage_EARLY_not_allowed,
                     "aes_pipe_stage: EARLY needs J = NR_MAX, ROUND_REGS >= 3 and SBOX_IMPL != 2")
    endgenerate

    localparam AW     = SLOT_W + ((DIRECTION == 2) ? 1 : 0);
    localparam LAST   = (J == NR_MAX) ? 1 : 0;
    localparam HAS_MC = (J >= 1 && J < NR_MAX) ? 1 : 0;
    // MixColumns direction: block-RAM S-boxes feed MixColumns only (InvMixColumns is
    // formed from the RAMs' second byte, see g_r4_bram)
    localparam MC_DIR = (SBOX_IMPL == 2) ? 0 : DIRECTION;
    localparam SR     = (ROUND_REGS > 4 && SBOX_IMPL == 1) ? ROUND_REGS - 4 : 0; // inside the S-boxes
    localparam HALVES = (SBOX_IMPL == 0 && ROUND_REGS == 4) ? 1 : 0; // half-table S-boxes

    // The write port is registered here, next to the memory, so that the loader's
    // broadcast to every stage is a register-to-register path (one clock); wclr (rst,
    // zeroize) cancels a write in flight and clears the data register. The data
    // register follows wdata one clock behind with no other clear: aes_pipe's write
    // data holds round-key material only while a key load runs and reads zero
    // otherwise, so this copy does too, one clock later. (A clear in every clock without
    // a write, decoded from `we`, drove its 128 synchronous resets across the device:
    // the critical path of aes128-enc on ECP5 at 138.6 MHz.) Without that clear every
    // stage's address and data registers have the same inputs as every other stage's,
    // and Yosys merged them into one register feeding every stage's memory, whose
    // routes to the far stages were critical (aes128-enc, ECP5 seed 2: the address, a
    // 6.5 ns route; aes128-enc-bram 155-167 MHz). They are keep_reg instances now, one
    // pair per stage: the broadcast is a two-level tree (aes_pipe's wr_* registers, then
    // these, each placed between the loader and its memory), and the write still lands
    // one clock after wdata. 128 + AW flip-flops per stage.
    reg          w_en;
    wire [AW-1:0] w_addr;
    wire [127:0]  w_data;
    always @(posedge clk) begin
        w_en   <= we && !wclr;
    end
    keep_reg #(.W(AW))  u_wa (.clk(clk), .rst(1'b0), .d(waddr), .q(w_addr));
    keep_reg #(.W(128)) u_wd (.clk(clk), .rst(wclr), .d(wdata), .q(w_data));

    wire [127:0] rk_mem;
    aes_pipe_rkmem #(.AW(AW)) u_mem (
        .clk(clk), .we(w_en), .waddr(w_addr), .wdata(w_data), .raddr(rk_addr), .rdata(rk_mem));

    genvar c;
    generate
        if (J == 0) begin : g_ark0
            // ---- stage 0: initial AddRoundKey, round key read at the accepted block --------
            // (slice c loads when ctl_ok[0] and out_ok[c]: aes_pipe ties one of the two
            // to 1, and with an input register passes per-slice copies in out_ok)
            reg [127:0] ark_data;
            for (c = 0; c < 4; c = c + 1) begin : g_sl0
                always @(posedge clk)
                    ark_data[32*c +: 32] <= (ctl_ok[0] && out_ok[c]) ?
                                            (in_data[32*c +: 32] ^ rk_mem[32*c +: 32]) : 32'd0;
            end
            assign out_data = ark_data;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_ctl = ^{ctl_dec, ctl_dec_nx, ctl_byp, rk_ok};
            /* verilator lint_on UNUSEDSIGNAL */
        end else begin : g_round
            // ---- round key, registered one clock before its AddRoundKey ----------------------
            reg [127:0] rk_q;
            always @(posedge clk) rk_q <= rk_ok ? rk_mem : 128'd0;

            // per-register control of the block entering register k
            // (the last register's dec and byp are not needed: ARK is the same for both;
            // except dec with SBOX_IMPL = 2, where MixColumns feeds that register)
            wire [ROUND_REGS-1:0] ok  = ctl_ok;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [ROUND_REGS-1:0] dec = ctl_dec;
            wire [ROUND_REGS-1:0] byp = ctl_byp;
            wire unused_dec_nx = ctl_dec_nx;    // (read by g_r4_bram only)
            /* verilator lint_on UNUSEDSIGNAL */

            // ---- byte-level functions --------------------------------------------------------
            // ShiftRows / InvShiftRows of x, direction d
            function [127:0] shift_rows;
                input [127:0] x;
                input         d;
                integer rr, cc;
                begin
                    for (cc = 0; cc < 4; cc = cc + 1)
                        for (rr = 0; rr < 4; rr = rr + 1)
                            // byte r + 4c takes byte r + 4((c + r) mod 4) (ShiftRows) or
                            // r + 4((c - r) mod 4) (InvShiftRows)
                            if ((DIRECTION == 1) || (DIRECTION == 2 && d))
                                shift_rows[8*(rr+4*cc) +: 8] = x[8*(rr+4*((cc+4-rr)%4)) +: 8];
                            else
                                shift_rows[8*(rr+4*cc) +: 8] = x[8*(rr+4*((cc+rr)%4)) +: 8];
                end
            endfunction

            // S-box layer
            wire [127:0] sb_in_a;
            wire         sb_dec;
            wire [127:0] sb_out;
            // Each S-box keeps its own hierarchy (keep_hierarchy): flattened into the
            // stage, Yosys (memory_dff) folds the register in front of it into the table's
            // read port and merges the AddRoundKey before that register into every table,
            // about 75% more LUTs per round on xc7 (measured).
            // Table S-boxes with ROUND_REGS = 4 (HALVES) are two half tables per byte
            // (aes_sbox_half: top input bit 0 / 1, sb_lo / sb_hi), registered separately
            // and selected by the top bit one clock later (g_r4 below).
            wire [127:0] sb_lo, sb_hi;
            if (HALVES) begin : g_sbh
                for (c = 0; c < 16; c = c + 1) begin : g_sb
                    (* keep_hierarchy *)
                    aes_sbox_half #(.DIR(DIRECTION), .HALF(0)) u_lo (
                        .in(sb_in_a[8*c +: 7]), .inv(sb_dec), .out(sb_lo[8*c +: 8]));
                    (* keep_hierarchy *)
                    aes_sbox_half #(.DIR(DIRECTION), .HALF(1)) u_hi (
                        .in(sb_in_a[8*c +: 7]), .inv(sb_dec), .out(sb_hi[8*c +: 8]));
                end
                assign sb_out = 128'd0;
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_sb = ^sb_out;
                /* verilator lint_on UNUSEDSIGNAL */
            end else if (SBOX_IMPL != 2) begin : g_sbt
                assign sb_lo = 128'd0;
                assign sb_hi = 128'd0;
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_sbh = ^{sb_lo, sb_hi};
                /* verilator lint_on UNUSEDSIGNAL */
                for (c = 0; c < 16; c = c + 1) begin : g_sb
                    if (SR == 0) begin : g_comb
                        (* keep_hierarchy *)
                        aes_sbox #(.IMPL(SBOX_IMPL), .DIR(DIRECTION)) u_sbox (
                            .in(sb_in_a[8*c +: 8]), .inv(sb_dec), .out(sb_out[8*c +: 8]));
                    end else begin : g_piped
                        // registers 0 .. SR-1 of the stage sit inside the S-box
                        (* keep_hierarchy *)
                        aes_sbox_comp #(.DIR(DIRECTION), .REGS(SR)) u_sbox (
                            .clk(clk), .ok(ok[SR-1:0]), .in(sb_in_a[8*c +: 8]), .inv(sb_dec),
                            .out(sb_out[8*c +: 8]));
                    end
                end
            end else begin : g_sbn
                // block RAM: the S-boxes are the aes_sbox_bram pairs of g_r4_bram below
                assign sb_out = 128'd0;
                assign sb_lo  = 128'd0;
                assign sb_hi  = 128'd0;
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_sb = ^{sb_out, sb_lo, sb_hi};
                /* verilator lint_on UNUSEDSIGNAL */
            end

            // MixColumns / InvMixColumns (identity in the final stage)
            wire [127:0] mc_in, mc_out;
            wire         mc_dec;
            if (HAS_MC) begin : g_mc
                for (c = 0; c < 4; c = c + 1) begin : g_c
                    aes_mixcolumn #(.DIR(MC_DIR)) u_mc (
                        .in(mc_in[32*c +: 32]), .inv(mc_dec), .out(mc_out[32*c +: 32]));
                end
            end else begin : g_nomc
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_mc_dec = mc_dec;
                /* verilator lint_on UNUSEDSIGNAL */
                assign mc_out = mc_in;
            end

            // ---- registers -------------------------------------------------------------------
            wire [127:0] ark_in;     // state before the AddRoundKey of this stage
            if (SBOX_IMPL == 2) begin : g_r4_bram
                // Block-RAM S-boxes, ROUND_REGS = 4 (or 5, g_r5 below), same latency and
                // control as g_r4:
                //   register 0: the block RAMs' address registers ([SR] -> RAM address)
                //   register 1: the block RAMs' output registers (SubBytes)
                //   register 2: copy_data, a fabric copy of the RAM outputs (no logic in
                //               between: the route from the RAM row gets a clock of its own)
                //   register 3: ark_data = MixColumns -> AddRoundKey
                // Register 0 (the RAMs' address registers, no reset) is not gated: its
                // input, the previous stage's ARK register, is zero for bubbles and err
                // blocks already, and a bypassed block's state passes through it for one
                // clock while the output register clears. Register 1 (the output
                // registers, synchronous clear) reads zero unless a valid, not bypassed
                // block without err enters it. A bypassed block takes three fabric
                // registers (byp_a/b/c, zero otherwise) and is ORed in before the
                // AddRoundKey, where the other input is then zero.
                // Each RAM has its own copies (keep_reg, loaded a clock ahead) of the
                // output register's clear, !(ok[1] && !byp[1]) from ok[0] / byp[0] (wclr,
                // rst or zeroize, clears every ok bit of the next clock), and with
                // DIRECTION = 2 of the block's dec bit (from ctl_dec_nx): no control
                // flip-flop fans out over the whole stage on the way to the RAMs.
                // Decryption (BX4): InvMixColumns(y) = MixColumns(z) with
                // z_i = y_i ^ {04}y_i ^ {04}y_(i+2) (rows i of a column; FIPS-197's
                // InvMixColumns matrix is the MixColumns matrix times circ(05, 00, 04, 00)),
                // and the RAM word holds {04} x InvS(x) beside InvS(x) (aes_sbox_bram X4;
                // zero for the forward S-box, where z = y): one MixColumns for both
                // directions and no direction select after the RAMs.
                localparam BX4 = (DIRECTION != 0 && HAS_MC) ? 1 : 0;
                wire         sb_go_nx = ok[0] && !byp[0] && !wclr;
                wire [127:0] sb_q;          // the block RAMs' output registers: y
                wire [127:0] sb_h;          // and {04} x y of an inverse lookup (BX4)
                assign sb_in_a = shift_rows(in_data, dec[0]);
                assign sb_dec  = dec[0];
                // two S-boxes (bytes 2c and 2c+1) per aes_sbox_bram
                for (c = 0; c < 8; c = c + 1) begin : g_bram
                    wire [15:0] addr_c;     // this RAM's two input bytes
                    wire        dec_c;      // and their direction
                    if (DIRECTION == 2) begin : g_dec_copy
                        keep_reg #(.W(1)) u_dec (
                            .clk(clk), .rst(1'b0), .d(ctl_dec_nx), .q(dec_c));
                        /* verilator lint_off UNUSEDSIGNAL */
                        wire [127:0] sr_c = shift_rows(in_data, dec_c);   // (2 bytes read)
                        wire unused_sb = ^{sb_in_a, sb_dec};   // (the copies are read)
                        /* verilator lint_on UNUSEDSIGNAL */
                        assign addr_c = sr_c[16*c +: 16];
                    end else begin : g_dec_fixed
                        assign dec_c  = sb_dec;
                        assign addr_c = sb_in_a[16*c +: 16];
                    end
                    wire clr_c;
                    keep_reg #(.W(1)) u_clr (
                        .clk(clk), .rst(1'b0), .d(!sb_go_nx), .q(clr_c));
                    wire [8*(1+BX4)-1:0] ya, yb;
                    aes_sbox_bram #(.DIR(DIRECTION), .X4(BX4)) u_bram (
                        .clk(clk),
                        .a_in(addr_c[7:0]), .a_inv(dec_c), .a_clr(clr_c), .a_en(1'b1),
                        .a_out(ya),
                        .b_in(addr_c[15:8]), .b_inv(dec_c), .b_clr(clr_c), .b_en(1'b1),
                        .b_out(yb));
                    assign sb_q[16*c +: 16] = {yb[7:0], ya[7:0]};
                    if (BX4) begin : g_x4
                        assign sb_h[16*c +: 16] = {yb[8*BX4 +: 8], ya[8*BX4 +: 8]};
                    end else begin : g_nx4
                        assign sb_h[16*c +: 16] = 16'd0;
                    end
                end
                reg [127:0] byp_a, byp_b, byp_c, copy_data;
                always @(posedge clk) begin
                    byp_a     <= (ok[0] && byp[0]) ? in_data : 128'd0;
                    byp_b     <= ok[1] ? byp_a : 128'd0;
                    byp_c     <= ok[2] ? byp_b : 128'd0;
                    copy_data <= ok[2] ? sb_q : 128'd0;
                end
                if (BX4) begin : g_z
                    reg [127:0] copy_h;     // the copy of sb_h
                    always @(posedge clk) copy_h <= ok[2] ? sb_h : 128'd0;
                    for (c = 0; c < 16; c = c + 1) begin : g_zb
                        // byte c = row c % 4 of column c / 4; row + 2 is byte c ^ 2
                        assign mc_in[8*c +: 8] = copy_data[8*c +: 8] ^ copy_h[8*c +: 8]
                                               ^ copy_h[8*(c ^ 2) +: 8];
                    end
                end else begin : g_nz
                    /* verilator lint_off UNUSEDSIGNAL */
                    wire unused_h = ^sb_h;
                    /* verilator lint_on UNUSEDSIGNAL */
                    assign mc_in = copy_data;
                end
                assign mc_dec  = 1'b0;      // (MixColumns only: MC_DIR = 0)
                if (ROUND_REGS == 5) begin : g_r5
                    // register 3: mix_data = MixColumns (or a bypassed block's state);
                    // register 4 (or the output buffer's, in the final stage) then holds
                    // only the AddRoundKey
                    reg [127:0] mix_data;
                    always @(posedge clk) mix_data <= ok[3] ? (mc_out | byp_c) : 128'd0;
                    assign ark_in = mix_data;
                end else begin : g_r4m
                    assign ark_in = mc_out | byp_c;
                end
            end else if (ROUND_REGS == 1) begin : g_r1
                assign sb_in_a = shift_rows(in_data, dec[0]);
                assign sb_dec  = dec[0];
                assign mc_in   = sb_out;
                assign mc_dec  = dec[0];
                assign ark_in  = byp[0] ? in_data : mc_out;
            end else if (ROUND_REGS == 2 || ROUND_REGS == 3) begin : g_r23
                reg [127:0] sub_data;       // after SubBytes (or the state, bypassed)
                always @(posedge clk)
                    sub_data <= ok[0] ? (byp[0] ? in_data : sb_out) : 128'd0;
                assign sb_in_a = shift_rows(in_data, dec[0]);
                assign sb_dec  = dec[0];
                assign mc_in   = sub_data;
                assign mc_dec  = dec[1];
                if (ROUND_REGS == 2) begin : g_r2
                    assign ark_in = byp[1] ? sub_data : mc_out;
                end else begin : g_r3
                    reg [127:0] mix_data;
                    // (EARLY: the final stage has no MixColumns, and its AddRoundKey
                    // moves into this register)
                    always @(posedge clk)
                        mix_data <= EARLY ? (sub_data ^ rk_q) :   // both gated already
                                    ok[1] ? (byp[1] ? sub_data : mc_out) : 128'd0;
                    assign ark_in = mix_data;
                end
            end else begin : g_r4
                // a second register after the S-boxes (no logic in between): it takes the
                // route from the S-box LUTs to the MixColumns logic. With ROUND_REGS > 4
                // the first SR registers are inside the S-boxes, and a bypassed block's
                // state waits beside them in byp_q (zero for every other block).
                reg [127:0] sub_data, delay_data, mix_data;
                wire [127:0] byp_state;     // the state of a bypassed block entering sub_data
                if (SR == 0) begin : g_nobq
                    assign byp_state = in_data;
                end else begin : g_bq
                    reg [127:0] byp_q [0:SR-1];
                    integer k;
                    always @(posedge clk) begin
                        byp_q[0] <= (ok[0] && byp[0]) ? in_data : 128'd0;
                        for (k = 1; k < SR; k = k + 1)
                            byp_q[k] <= (ok[k] && byp[k]) ? byp_q[k-1] : 128'd0;
                    end
                    assign byp_state = byp_q[SR-1];
                end
                if (HALVES) begin : g_halves
                    // sub_data takes the low half table's output (or the state of a
                    // bypassed block), sub_hi the high half's, sub_sel the top input bit
                    // of each byte; the select is made on the way into delay_data.
                    // These three are not gated by ok (no synchronous reset: ok[0] would
                    // drive 272 of them): they hold the half tables of the state in the
                    // register before them, which is zero for a bubble or an err block
                    // (in stage 1 it may hold a block not yet accepted), and delay_data,
                    // gated by ok[1], loads zero for anything but a valid block without err.
                    reg [127:0] sub_hi;
                    reg [15:0]  sub_sel;
                    integer     b;
                    always @(posedge clk) begin
                        sub_data <= byp[0] ? byp_state : sb_lo;
                        sub_hi   <= sb_hi;
                        for (b = 0; b < 16; b = b + 1)
                            sub_sel[b] <= !byp[0] && sb_in_a[8*b+7];
                    end
                    /* verilator lint_off UNUSEDSIGNAL */
                    wire unused_ok0 = ok[0];
                    /* verilator lint_on UNUSEDSIGNAL */
                    wire [127:0] sub_pick;
                    for (c = 0; c < 16; c = c + 1) begin : g_pick
                        assign sub_pick[8*c +: 8] = sub_sel[c] ? sub_hi[8*c +: 8] : sub_data[8*c +: 8];
                    end
                    always @(posedge clk) delay_data <= ok[1] ? sub_pick : 128'd0;
                end else begin : g_whole
                    always @(posedge clk) begin
                        sub_data   <= ok[SR] ? (byp[SR] ? byp_state : sb_out) : 128'd0;
                        delay_data <= ok[SR+1] ? sub_data : 128'd0;
                    end
                end
                always @(posedge clk)
                    mix_data <= EARLY ? (delay_data ^ rk_q) :     // both gated already
                                ok[SR+2] ? (byp[SR+2] ? delay_data : mc_out) : 128'd0;
                assign sb_in_a = shift_rows(in_data, dec[0]);
                assign sb_dec  = dec[0];
                assign mc_in   = delay_data;
                assign mc_dec  = dec[SR+2];
                assign ark_in  = mix_data;
            end

            // ---- AddRoundKey -------------------------------------------------------------------
            wire [127:0] ark = EARLY ? ark_in : (ark_in ^ rk_q);
            if (LAST) begin : g_last
                // into the output buffer; zero unless a valid block without err arrives
                // (out_ok: that block's ok bit, one copy per 32-bit slice, so that no
                // single flip-flop fans out to all 128 bits of the buffer's inputs)
                for (c = 0; c < 4; c = c + 1) begin : g_gate
                    assign out_data[32*c +: 32] = ark[32*c +: 32] & {32{out_ok[c]}};
                end
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_ok_last = ok[ROUND_REGS-1];
                /* verilator lint_on UNUSEDSIGNAL */
            end else begin : g_reg
                reg [127:0] ark_data;
                always @(posedge clk) ark_data <= ok[ROUND_REGS-1] ? ark : 128'd0;
                assign out_data = ark_data;
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_out_ok = ^out_ok;
                /* verilator lint_on UNUSEDSIGNAL */
            end
        end
    endgenerate
endmodule
`default_nettype wire
