// SPDX-License-Identifier: Apache-2.0
// tdea_pipe_stage: one DES round of the tdea_pipe pipeline (round J of 0..47) with its
// subkey memory.
//
// Round J of a block is round J of the TDEA encryption (subkey index J of
// tdea_keysched) or of the decryption (subkey index 47 - J): the stage's memory holds
// both, at address {slot, dec}, written by the loader of tdea_pipe. Rounds 15, 31 and 47
// (the last round of each DES operation) do not swap the halves (tdea_des_sp), so the
// next DES operation continues on the pre-output, and IP^-1 follows round 47 only.
//
// Subkey read: stage 0 reads its memory at the address of the block on its input
// (asynchronous LUT-RAM read in front of the round logic). Every later stage reads one
// clock ahead: at the address `pre_addr` of the block that enters the previous stage's last
// register at the next edge, into a subkey register, so that the round starts from
// registers only (subkey register, block register) and no memory read lies on the path.
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
//   RND_REGS : registers in the round, 1 or 2: 1 = after the round; 2 = also after
//              E(R) xor K (before the S-boxes)
//   J        : round index, 0 .. 47
// Ports
//   clk, rst   : clock; synchronous reset, clears the valid bits, sidebands and data
//   kill       : sets err on every register of the stage and clears their data
//                (zeroize)
//   pre_addr   : (J >= 1) subkey address {slot, dec} of the block entering the
//                previous stage's last register at the next edge (its `nx_addr`);
//                unused in stage 0
//   in_valid/in_sb/in_data    : block entering the stage ({L, R}, DES bit order)
//   nx_addr    : subkey address of the block going into this stage's last register at
//                the next edge (the next stage's pre_addr)
//   out_valid/out_sb/out_data : the stage's last register; in round 47 there is none:
//                the round's result itself, forced to zero unless the block is valid and
//                err = 0 (the core's output buffer registers it)
//   busy_slots : bit s set when a valid block of slot s is in a register of this stage
//   we/waddr/wdata : write port of the stage's subkey memory
// Data and sideband registers load only when a valid block enters them; valid bits load
// every clock. Latency through the stage: RND_REGS clocks (round 47: RND_REGS - 1, the
// output buffer's register being its last).
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
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                     rst,      // (unused in round 47 with RND_REGS = 1)
    input  wire                     kill,
    input  wire [SLOT_W:0]          pre_addr, // (unused in stage 0)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                     in_valid,
    input  wire [TAG_W+SLOT_W+1:0]  in_sb,
    input  wire [63:0]              in_data,
    output wire [SLOT_W:0]          nx_addr,
    output wire                     out_valid,
    output wire [TAG_W+SLOT_W+1:0]  out_sb,
    output wire [63:0]              out_data,
    output wire [(1 << SLOT_W)-1:0] busy_slots,
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
    localparam NSLOT = 1 << SLOT_W;
    localparam LAST  = (J == 47) ? 1 : 0;
    localparam [0:0] SWAP = ((J % 16) != 15) ? 1'b1 : 1'b0;

    // subkey of the block entering the stage
    wire [47:0] sk;
    generate
        if (J == 0) begin : g_sk_async
            tdea_skmem #(.AW(SLOT_W + 1)) u_mem (
                .clk(clk), .we(we), .waddr(waddr), .wdata(wdata),
                .raddr(in_sb[SLOT_W+1:1]), .rdata(sk));
        end else begin : g_sk_pre
            // read one clock ahead; the register holds whatever was last read (a subkey
            // of a slot in use, or zero after the scrub), like the memory itself
            wire [47:0] sk_rd;
            reg  [47:0] sk_r;
            tdea_skmem #(.AW(SLOT_W + 1)) u_mem (
                .clk(clk), .we(we), .waddr(waddr), .wdata(wdata),
                .raddr(pre_addr), .rdata(sk_rd));
            always @(posedge clk) sk_r <= sk_rd;
            assign sk = sk_r;
        end
    endgenerate

    // first half of the round on the stage input
    wire [47:0] x_in;
    tdea_des_ek u_ek (.r(in_data[31:0]), .subkey(sk), .x(x_in));

    // optional middle register: {L, R} and E(R) xor K
    wire             m_v;
    wire [SBW-1:0]   m_sb;
    wire [63:0]      m_lr;
    wire [47:0]      m_x;
    wire [NSLOT-1:0] m_busy;
    generate
        if (RND_REGS == 2) begin : g_mid
            reg             v;
            reg [SBW-1:0]   sbr;
            reg [63:0]      lr;
            reg [47:0]      xr;
            always @(posedge clk) begin
                if (rst) begin
                    v   <= 1'b0;
                    sbr <= {SBW{1'b0}};
                    lr  <= 64'd0;
                    xr  <= 48'd0;
                end else begin
                    v <= in_valid;
                    if (in_valid) begin
                        sbr <= in_sb;
                        lr  <= in_data;
                        xr  <= x_in;
                    end
                    if (kill) begin
                        sbr[0] <= 1'b1;
                        lr     <= 64'd0;
                        xr     <= 48'd0;
                    end
                end
            end
            assign m_v  = v;
            assign m_sb = sbr;
            assign m_lr = lr;
            assign m_x  = xr;
            assign m_busy = v ? ({{(NSLOT-1){1'b0}}, 1'b1} << sbr[SLOT_W+1:2]) : {NSLOT{1'b0}};
        end else begin : g_nomid
            assign m_v  = in_valid;
            assign m_sb = in_sb;
            assign m_lr = in_data;
            assign m_x  = x_in;
            assign m_busy = {NSLOT{1'b0}};
        end
    endgenerate

    // second half of the round
    wire [63:0] rnd;
    tdea_des_sp u_sp (.x(m_x), .lr(m_lr), .swap(SWAP), .out(rnd));

    assign nx_addr = m_sb[SLOT_W+1:1];

    generate
        if (LAST != 0) begin : g_last
            // round 47: the result goes straight into the output buffer's register
            assign out_valid  = m_v;
            assign out_sb     = m_v ? m_sb : {SBW{1'b0}};
            assign out_data   = (m_v && !m_sb[0]) ? rnd : 64'd0;
            assign busy_slots = m_busy;
        end else begin : g_reg
            // the stage's output register
            reg             o_v;
            reg [SBW-1:0]   o_sb;
            reg [63:0]      o_d;
            always @(posedge clk) begin
                if (rst) begin
                    o_v  <= 1'b0;
                    o_sb <= {SBW{1'b0}};
                    o_d  <= 64'd0;
                end else begin
                    o_v <= m_v;
                    if (m_v) begin
                        o_sb <= m_sb;
                        o_d  <= rnd;
                    end
                    if (kill) begin
                        o_sb[0] <= 1'b1;
                        o_d     <= 64'd0;
                    end
                end
            end
            assign out_valid  = o_v;
            assign out_sb     = o_sb;
            assign out_data   = o_d;
            assign busy_slots = m_busy | (o_v ? ({{(NSLOT-1){1'b0}}, 1'b1} << o_sb[SLOT_W+1:2])
                                              : {NSLOT{1'b0}});
        end
    endgenerate
endmodule
`default_nettype wire
