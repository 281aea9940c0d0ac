// SPDX-License-Identifier: Apache-2.0
// tdea_pipe_stage: one DES round of the tdea_pipe pipeline (round J of 0..47) with its
// subkey memory.
//
// Round J of a block is round J of the TDEA encryption (subkey index J of
// tdea_keysched) or of the decryption (subkey index 47 - J): the stage's memory holds
// both, at address {slot, dec}, written by the loader of tdea_pipe. Rounds 15, 31 and 47
// (the last round of each DES operation) do not swap the halves, so the next DES
// operation continues on the pre-output, and IP^-1 follows round 47 only.
//
// Registers hold a round's inputs and its f, not its result: the stage register of
// round J holds {L_J, R_J} and f_J = P(S(E(R_J) xor K_J)). The next stage forms its
// round's halves from them (L_(J+1) = R_J, R_(J+1) = L_J xor f_J, or without the swap
// after rounds 15, 31) and in the same step its S-box input x = E(R_(J+1)) xor K_(J+1),
// one XOR of up to 3 inputs per bit (E only copies bits), so a stage is
// register -> XOR -> S-boxes (6-input functions) -> register: two LUT levels. The
// S-box outputs go straight into the register; the L xor f of round 47 is done by
// tdea_pipe after the last stage.
//
// Subkey read: one clock ahead, at the address `pre_addr` of the block that enters the
// register in front of the XOR (the previous stage's output register, or tdea_pipe's
// input register) at the next edge, into a subkey register, so no memory read lies on
// the path.
//
// The pipeline runs free (no enable): tdea_pipe admits a block only when its output
// buffer has room for it (credits).
//
// Sideband `sb` (travels with the block, width SBW = TAG_W + SLOT_W + 2):
//   bit 0 err, bit 1 dec, bits [SLOT_W+1:2] slot, bits [SBW-1:SLOT_W+2] tag.
//
// Parameters
//   SLOT_W   : key-slot index width (>= 1)
//   TAG_W    : tag width (>= 1)
//   RND_REGS : registers in the round, 1 or 2: 1 = after the S-boxes; 2 = also after
//              the XOR ({L, R} and x registered, before the S-boxes)
//   J        : round index, 0 .. 47
// Ports
//   clk, rst   : clock; synchronous reset, clears the valid bits, sidebands and data
//   kill       : sets err on every register of the stage and clears their data
//                (zeroize)
//   pre_addr   : subkey address {slot, dec} of the block that enters this stage's
//                input register at the next edge (the previous stage's nx_addr)
//   in_valid/in_sb/in_lr/in_f : block entering the stage: {L, R} of the previous round
//                (DES bit order) and its f (round 0: {L0, R0} = IP(block), f = 0)
//   nx_addr    : subkey address of the block that enters this stage's output register at
//                the next edge (the next stage's pre_addr)
//   out_valid/out_sb/out_lr/out_f : the stage's output register, {L_J, R_J} and f_J
//   we/waddr/wdata : write port of the stage's subkey memory
// Data and sideband registers load only when a valid block enters them; valid bits load
// every clock. Latency through the stage: RND_REGS clocks.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module tdea_pipe_stage #(
    parameter SLOT_W   = 1,
    parameter TAG_W    = 8,
    parameter RND_REGS = 1,
    parameter J        = 0
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     kill,
    input  wire [SLOT_W:0]          pre_addr,
    input  wire                     in_valid,
    input  wire [TAG_W+SLOT_W+1:0]  in_sb,
    input  wire [63:0]              in_lr,
    input  wire [31:0]              in_f,
    output wire [SLOT_W:0]          nx_addr,
    output wire                     out_valid,
    output wire [TAG_W+SLOT_W+1:0]  out_sb,
    output wire [63:0]              out_lr,
    output wire [31:0]              out_f,
    input  wire                     we,
    input  wire [SLOT_W:0]          waddr,
    input  wire [47:0]              wdata
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SLOT_W >= 1, tdea_pipe_stage_SLOT_W_below_1, "tdea_pipe_stage: SLOT_W must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, tdea_pipe_stage_TAG_W_below_1, "tdea_pipe_stage: TAG_W must be >= 1")
        `AESIP_CHECK(RND_REGS == 1 || RND_REGS == 2, tdea_pipe_stage_RND_REGS_not_1_or_2,
                     "tdea_pipe_stage: RND_REGS must be 1 or 2")
        `AESIP_CHECK(J >= 0 && J <= 47, tdea_pipe_stage_J_out_of_range, "tdea_pipe_stage: J must be 0 .. 47")
    endgenerate

    localparam SBW   = TAG_W + SLOT_W + 2;
    // the previous round swaps the halves (not after rounds 15 and 31; round 0 takes
    // {L0, R0} with f = 0 as an unswapped pair)
    localparam [0:0] PSWAP = (J != 0 && ((J - 1) % 16) != 15) ? 1'b1 : 1'b0;

    // subkey J of the block entering the register in front of the XOR, read one clock
    // ahead; the register holds whatever was last read (a subkey of a slot in use, or
    // zero after the scrub), like the memory itself
    wire [47:0] sk_rd;
    reg  [47:0] sk;
    tdea_skmem #(.AW(SLOT_W + 1)) u_mem (
        .clk(clk), .we(we), .waddr(waddr), .wdata(wdata),
        .raddr(pre_addr), .rdata(sk_rd));
    always @(posedge clk) sk <= sk_rd;

    // the round's halves from the previous round's {L, R} and f
    wire [31:0] lf  = in_lr[63:32] ^ in_f;
    wire [63:0] lr  = PSWAP ? {in_lr[31:0], lf} : {lf, in_lr[31:0]};
    // and the S-box input x = E(R) xor K, with R given to tdea_des_ek as its two terms
    // (L and f of the previous round where this round's R is L xor f): every bit of x is
    // then one 3-input XOR of registers, in one LUT4 inside the kept hierarchy. Flattened,
    // the synthesis shared lf (also this stage's register input) and put two to three
    // LUT levels before the S-boxes, 7.1-7.6 ns with a long route between them (the
    // ECP5 critical path of tdea_pipe on both placer seeds after the credit change).
    wire [47:0] x_in;
    (* keep_hierarchy *)
    tdea_des_ek u_ek (.r(PSWAP ? in_lr[63:32] : in_lr[31:0]), .rx(PSWAP ? in_f : 32'd0),
                      .subkey(sk), .x(x_in));

    // optional middle register: {L, R} and x
    wire             m_v;
    wire [SBW-1:0]   m_sb;
    wire [63:0]      m_lr;
    wire [47:0]      m_x;
    generate
        if (RND_REGS == 2) begin : g_mid
            wire [111:0] d;
            tdea_blk_reg #(.SBW(SBW), .DW(112)) u_reg (
                .clk(clk), .rst(rst), .kill(kill), .in_valid(in_valid), .in_sb(in_sb),
                .in_d({lr, x_in}), .out_valid(m_v), .out_sb(m_sb), .out_d(d));
            assign m_lr = d[111:48];
            assign m_x  = d[47:0];
        end else begin : g_nomid
            assign m_v  = in_valid;
            assign m_sb = in_sb;
            assign m_lr = lr;
            assign m_x  = x_in;
        end
    endgenerate

    assign nx_addr = m_sb[SLOT_W+1:1];

    // f = P(S(x))
    wire [31:0] f;
    tdea_des_f u_f (.x(m_x), .f(f));

    // the stage's output register
    wire            o_v;
    wire [SBW-1:0]  o_sb;
    wire [95:0]     o_d;
    tdea_blk_reg #(.SBW(SBW), .DW(96)) u_oreg (
        .clk(clk), .rst(rst), .kill(kill), .in_valid(m_v), .in_sb(m_sb), .in_d({m_lr, f}),
        .out_valid(o_v), .out_sb(o_sb), .out_d(o_d));
    assign out_valid = o_v;
    assign out_sb    = o_sb;
    assign out_lr    = o_d[95:32];
    assign out_f     = o_d[31:0];
endmodule
`default_nettype wire
