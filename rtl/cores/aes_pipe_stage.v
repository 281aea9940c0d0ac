// SPDX-License-Identifier: Apache-2.0
// aes_pipe_stage: one stage of the aes_pipe pipeline (stage J of 0..NR_MAX) with its
// round-key memory.
//
// Stage 0 is the initial AddRoundKey: out = in ^ rk. Stage J >= 1 is a cipher round of
// the forward cipher or of the equivalent inverse cipher (FIPS-197 5.3.5), selected
// per block by the sideband `dec` bit:
//   encrypt : SubBytes    -> ShiftRows    -> MixColumns    -> AddRoundKey
//   decrypt : InvSubBytes -> InvShiftRows -> InvMixColumns -> AddRoundKey
// (ShiftRows is done before the S-boxes here; both are byte permutations/substitutions
// so the order does not matter). Stage NR_MAX is the final round (no MixColumns).
// Rounds are aligned to the end of the pipeline: a block whose key has Nr < NR_MAX
// rounds is "bypassed" (state passed through unchanged, then XORed with the stage's
// round key, which the loader set to zero or to round key 0) in stages
// 1 .. NR_MAX - Nr. Only stages J <= NR_MAX - 10 contain a bypass multiplexer.
//
// The round key comes from this stage's own memory (aes_pipe_rkmem), read at address
// {slot, dec} (DIRECTION = 2) or slot (DIRECTION = 0/1) of the block that is being
// clocked into the stage's last register; the loader of aes_pipe writes exactly the key
// this stage needs for each slot.
//
// SUB_STAGES adds registers inside the round (not in stage 0):
//   0: one register after AddRoundKey
//   1: registers after ShiftRows+SubBytes and after MixColumns+AddRoundKey
//   2: registers after ShiftRows+SubBytes, after MixColumns and after AddRoundKey
// so stage 0 has 1 register and stages 1..NR_MAX have 1 + SUB_STAGES registers each.
//
// Sideband `sb` (travels with the block, width SBW = TAG_W + SLOT_W + 4):
//   bit 0 err, bit 1 dec, bits [3:2] offc = (NR_MAX - Nr) / 2 of the block's key,
//   bits [SLOT_W+3:4] slot, bits [SBW-1:SLOT_W+4] tag.
//
// Parameters
//   SBOX_IMPL  : S-box implementation (aes_sbox IMPL)
//   SLOT_W     : key-slot index width (>= 1)
//   TAG_W      : tag width (>= 1)
//   NR_MAX     : 10, 12 or 14 (number of round stages)
//   DIRECTION  : 0 encrypt only, 1 decrypt only, 2 both (per block, sideband dec)
//   SUB_STAGES : 0, 1 or 2 (see above)
//   J          : stage index, 0 .. NR_MAX
// Ports
//   clk, rst   : clock; synchronous reset, clears all registers (valid, sideband, data)
//   en         : global pipeline enable; every register of the stage loads when high
//   kill       : sets err on every register of the stage except the output register of
//                the final stage, and clears their data (used by zeroize; works also
//                when en is low)
//   in_valid/in_sb/in_data    : block entering the stage (from the previous stage)
//   out_valid/out_sb/out_data : the stage's last register. In the final stage
//                out_data is forced to zero unless the block is valid and err = 0.
//   busy_slots : bit s set when a valid block of slot s is in a register of this stage
//                that still has an AddRoundKey ahead of it (every register except the
//                final stage's output register)
//   we/waddr/wdata : write port of the stage's round-key memory
// Data and sideband registers load only when a valid block enters them (a bubble leaves
// them unchanged, which saves switching power); valid bits load on every enable. The
// output register of the final stage loads on every enable, with zero data for bubbles.
// Timing: latency through the stage is 1 (J = 0) or 1 + SUB_STAGES clocks with en high.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_pipe_stage #(
    parameter SBOX_IMPL  = 0,
    parameter SLOT_W     = 1,
    parameter TAG_W      = 8,
    parameter NR_MAX     = 14,
    parameter DIRECTION  = 2,
    parameter SUB_STAGES = 0,
    parameter J          = 1
) (
    input  wire                                       clk,
    input  wire                                       rst,
    input  wire                                       en,
    input  wire                                       kill,
    input  wire                                       in_valid,
    input  wire [TAG_W+SLOT_W+3:0]                    in_sb,
    input  wire [127:0]                               in_data,
    output wire                                       out_valid,
    output wire [TAG_W+SLOT_W+3:0]                    out_sb,
    output wire [127:0]                               out_data,
    output wire [(1 << SLOT_W)-1:0]                   busy_slots,
    input  wire                                       we,
    input  wire [SLOT_W+((DIRECTION == 2) ? 1 : 0)-1:0] waddr,
    input  wire [127:0]                               wdata
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SBOX_IMPL == 0 || SBOX_IMPL == 1, aes_pipe_stage_SBOX_IMPL_not_0_or_1,
                     "aes_pipe_stage: SBOX_IMPL must be 0 or 1")
        `AESIP_CHECK(SLOT_W >= 1, aes_pipe_stage_SLOT_W_below_1,
                     "aes_pipe_stage: SLOT_W must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, aes_pipe_stage_TAG_W_below_1, "aes_pipe_stage: TAG_W must be >= 1")
        `AESIP_CHECK(NR_MAX == 10 || NR_MAX == 12 || NR_MAX == 14, aes_pipe_stage_NR_MAX_not_10_12_14,
                     "aes_pipe_stage: NR_MAX must be 10 or 12 or 14")
        `AESIP_CHECK(DIRECTION == 0 || DIRECTION == 1 || DIRECTION == 2, aes_pipe_stage_DIRECTION_not_0_1_2,
                     "aes_pipe_stage: DIRECTION must be 0 or 1 or 2")
        `AESIP_CHECK(SUB_STAGES == 0 || SUB_STAGES == 1 || SUB_STAGES == 2, aes_pipe_stage_SUB_STAGES_not_0_1_2,
                     "aes_pipe_stage: SUB_STAGES must be 0 or 1 or 2")
        `AESIP_CHECK(J >= 0 && J <= NR_MAX, aes_pipe_stage_J_out_of_range,
                     "aes_pipe_stage: J must be 0 .. NR_MAX")
    endgenerate

    localparam SBW     = TAG_W + SLOT_W + 4;
    localparam AW      = SLOT_W + ((DIRECTION == 2) ? 1 : 0);
    localparam NSLOT   = 1 << SLOT_W;
    localparam NSUB    = (J == 0) ? 0 : SUB_STAGES;   // registers before the ARK register
    localparam LAST    = (J == NR_MAX) ? 1 : 0;
    localparam HAS_MC  = (J >= 1 && J < NR_MAX) ? 1 : 0;
    localparam CAN_BYP = (J >= 1 && J <= NR_MAX - 10) ? 1 : 0;

    // a block bypasses this stage when its offc >= BYP_TH (i.e. J <= NR_MAX - Nr);
    // 3 (never reached, offc <= 2) in stages without a bypass
    localparam BYP_TH = CAN_BYP ? (J + 1) / 2 : 3;

    // ---- helpers on the sideband --------------------------------------------------
    // 1 when a block with this sideband passes stage J unchanged (J <= NR_MAX - Nr)
    function byp;
        /* verilator lint_off UNUSEDSIGNAL */
        input [SBW-1:0] sb;
        /* verilator lint_on UNUSEDSIGNAL */
        begin : f_byp
            byp = ({30'd0, sb[3:2]} >= BYP_TH);
        end
    endfunction

    // one-hot slot of a register, zero when the register holds no valid block
    function [NSLOT-1:0] slot_mask;
        input v;
        /* verilator lint_off UNUSEDSIGNAL */
        input [SBW-1:0] sb;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            slot_mask = {NSLOT{1'b0}};
            slot_mask[sb[SLOT_W+3:4]] = v;
        end
    endfunction

    // x_*: block presented to the AddRoundKey register (state before the key XOR)
    wire             x_valid;
    wire [SBW-1:0]   x_sb;
    wire [127:0]     x_pre;
    wire [NSLOT-1:0] sub_busy;

    genvar r, c;
    generate
        if (J == 0) begin : g_ark
            // ---- stage 0: initial AddRoundKey only -----------------------------------
            assign x_valid  = in_valid;
            assign x_sb     = in_sb;
            assign x_pre    = in_data;
            assign sub_busy = {NSLOT{1'b0}};
        end else begin : g_round
            // ---- ShiftRows / InvShiftRows + SubBytes / InvSubBytes ------------------
            wire [127:0] a_in;
            wire         a_dec;
            wire [127:0] a_sr, a_out;
            for (c = 0; c < 4; c = c + 1) begin : g_col
                for (r = 0; r < 4; r = r + 1) begin : g_row
                    // output byte r + 4c takes input byte r + 4((c + r) mod 4) (ShiftRows)
                    // or r + 4((c - r) mod 4) (InvShiftRows)
                    if (DIRECTION == 0) begin : g_e
                        assign a_sr[8*(r+4*c) +: 8] = a_in[8*(r+4*((c+r)%4)) +: 8];
                    end else if (DIRECTION == 1) begin : g_d
                        assign a_sr[8*(r+4*c) +: 8] = a_in[8*(r+4*((c+4-r)%4)) +: 8];
                    end else begin : g_b
                        assign a_sr[8*(r+4*c) +: 8] = a_dec ? a_in[8*(r+4*((c+4-r)%4)) +: 8]
                                                            : a_in[8*(r+4*((c+r)%4)) +: 8];
                    end
                    aes_sbox #(.IMPL(SBOX_IMPL), .DIR(DIRECTION)) u_sbox (
                        .in(a_sr[8*(r+4*c) +: 8]), .inv(a_dec), .out(a_out[8*(r+4*c) +: 8]));
                end
            end

            // ---- MixColumns / InvMixColumns (identity in the final stage) -----------
            wire [127:0] m_in;
            wire         m_dec;
            wire [127:0] m_out;
            if (HAS_MC) begin : g_mc
                for (c = 0; c < 4; c = c + 1) begin : g_c
                    aes_mixcolumn #(.DIR(DIRECTION)) u_mc (
                        .in(m_in[32*c +: 32]), .inv(m_dec), .out(m_out[32*c +: 32]));
                end
            end else begin : g_nomc
                /* verilator lint_off UNUSEDSIGNAL */
                wire unused_m_dec = m_dec;
                /* verilator lint_on UNUSEDSIGNAL */
                assign m_out = m_in;
            end

            // ---- registers before AddRoundKey (SUB_STAGES) --------------------------
            assign a_in  = in_data;
            assign a_dec = in_sb[1];
            if (NSUB == 0) begin : g_s0
                assign m_in     = a_out;
                assign m_dec    = in_sb[1];
                assign x_valid  = in_valid;
                assign x_sb     = in_sb;
                assign x_pre    = byp(in_sb) ? in_data : m_out;
                assign sub_busy = {NSLOT{1'b0}};
            end else begin : g_s1
                reg             v1;
                reg [SBW-1:0]   sb1;
                reg [127:0]     d1;
                always @(posedge clk) begin
                    if (rst) begin
                        v1 <= 1'b0; sb1 <= {SBW{1'b0}}; d1 <= 128'd0;
                    end else begin
                        if (en) v1 <= in_valid;
                        if (en && in_valid) begin
                            sb1 <= in_sb;
                            d1  <= byp(in_sb) ? in_data : a_out;
                        end
                        if (kill) begin
                            sb1[0] <= 1'b1;
                            d1 <= 128'd0;
                        end
                    end
                end
                assign m_in  = d1;
                assign m_dec = sb1[1];
                if (NSUB == 1) begin : g_n1
                    assign x_valid  = v1;
                    assign x_sb     = sb1;
                    assign x_pre    = byp(sb1) ? d1 : m_out;
                    assign sub_busy = slot_mask(v1, sb1);
                end else begin : g_n2
                    reg             v2;
                    reg [SBW-1:0]   sb2;
                    reg [127:0]     d2;
                    always @(posedge clk) begin
                        if (rst) begin
                            v2 <= 1'b0; sb2 <= {SBW{1'b0}}; d2 <= 128'd0;
                        end else begin
                            if (en) v2 <= v1;
                            if (en && v1) begin
                                sb2 <= sb1;
                                d2  <= byp(sb1) ? d1 : m_out;
                            end
                            if (kill) begin
                                sb2[0] <= 1'b1;
                                d2 <= 128'd0;
                            end
                        end
                    end
                    assign x_valid  = v2;
                    assign x_sb     = sb2;
                    assign x_pre    = d2;
                    assign sub_busy = slot_mask(v1, sb1) | slot_mask(v2, sb2);
                end
            end
        end
    endgenerate

    // ---- round-key memory and AddRoundKey register ---------------------------------
    wire [AW-1:0] raddr;
    generate
        if (DIRECTION == 2) begin : g_a2
            assign raddr = {x_sb[SLOT_W+3:4], x_sb[1]};
        end else begin : g_a1
            assign raddr = x_sb[SLOT_W+3:4];
        end
    endgenerate

    wire [127:0] rk;
    aes_pipe_rkmem #(.AW(AW)) u_mem (
        .clk(clk), .we(we), .waddr(waddr), .wdata(wdata), .raddr(raddr), .rdata(rk));

    // In the final stage, only a valid block without error may put data on the output.
    wire         x_ok = (LAST == 0) || (x_valid && !x_sb[0]);
    reg          vo;
    reg [SBW-1:0] sbo;
    reg [127:0]  dout;
    always @(posedge clk) begin
        if (rst) begin
            vo <= 1'b0; sbo <= {SBW{1'b0}}; dout <= 128'd0;
        end else begin
            if (en) vo <= x_valid;
            if (en && (x_valid || LAST != 0)) begin
                sbo  <= x_sb;
                dout <= (x_pre ^ rk) & {128{x_ok}};
            end
            if (kill && LAST == 0) begin
                sbo[0] <= 1'b1;
                dout <= 128'd0;
            end
        end
    end

    assign out_valid  = vo;
    assign out_sb     = sbo;
    assign out_data   = dout;
    assign busy_slots = sub_busy | ((LAST == 0) ? slot_mask(vo, sbo) : {NSLOT{1'b0}});
endmodule
`default_nettype wire
