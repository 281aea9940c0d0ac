// SPDX-License-Identifier: Apache-2.0
// aes_mode_sel: the mode engine chosen by the number of packet contexts. LANES = 1 builds
// aes_mode_engine (one packet at a time, its own pair of cores); LANES >= 2 builds
// aes_mode_multi (LANES packets in flight on one shared pair of cores). Both have the
// same ports, command/status interface and stream rules (docs/mode_engine.md), so the
// designs that can use either (aesip_top, the protocol tops) instantiate this module
// instead of choosing between the two themselves. It adds no logic and no register: the
// timing, resources and behaviour are those of the engine it builds.
//
// Parameters (passed to the engine built; their limits are checked there)
//   CORE        : block core by name, "iter128" (default), "iter32" or "pipe" (aes_core)
//   SBOX_IMPL   : S-box implementation of the cores (0 table, 1 composite field)
//   SLOT_W      : key-slot index width, 1 .. 8
//   LEN_W       : width of the length counters; lengths must be < 2**LEN_W bytes
//   BUF_AW      : log2 of the (per-lane) output buffer depth in 16-byte beats
//   NR_MAX      : 10, 12 or 14: the largest key accepted
//   DIRECTION_B : 2 = core B has both directions, 0 = encrypt-only (ECB/CBC decryption
//                 refused with status OP)
//   LANES       : 1 = aes_mode_engine; 2 or more = aes_mode_multi with that many lanes
//   IN_AW       : LANES >= 2: log2 of each lane's input FIFO depth in beats
//   ROUND_REGS  : LANES >= 2 and CORE "pipe": registers per round of both pipelines
//   ROUNDS_PER_CLK : LANES = 1 and CORE "iter128": 1 (default) or 2 rounds per clock in
//                 both cores (aes_mode_engine); must be 1 with LANES >= 2
// Ports: those of aes_mode_engine and aes_mode_multi (identical; see either header and
// docs/mode_engine.md): clk, rst, zeroize, the key load (key_valid/ready/slot/bytes/
// data), the command stream s_axis_cmd_* (512 bits), the data streams s_axis_* / m_axis_*
// (128 bits, tkeep, tlast; m_axis_tuser), the status stream m_axis_sts_* (136 bits).
// Hierarchy: the engine is g_single.u_eng (LANES = 1) or g_multi.u_eng (LANES >= 2).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_mode_sel #(
    parameter [63:0] CORE = "iter128",
    parameter SBOX_IMPL   = 0,
    parameter SLOT_W      = 2,
    parameter LEN_W       = 32,
    parameter BUF_AW      = 8,
    parameter NR_MAX      = 14,
    parameter DIRECTION_B = 2,
    parameter LANES       = 1,
    parameter IN_AW       = 7,
    parameter ROUND_REGS  = 1,
    parameter ROUNDS_PER_CLK = 1
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
    generate
        `AESIP_CHECK(LANES >= 1, aes_mode_sel_LANES_below_1, "aes_mode_sel: LANES must be >= 1")
        `AESIP_CHECK(LANES == 1 || ROUNDS_PER_CLK == 1, aes_mode_sel_ROUNDS_PER_CLK_with_lanes,
                     "aes_mode_sel: ROUNDS_PER_CLK must be 1 with LANES >= 2")
        if (LANES > 1) begin : g_multi
            aes_mode_multi #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .LEN_W(LEN_W),
                             .BUF_AW(BUF_AW), .LANES(LANES), .IN_AW(IN_AW), .NR_MAX(NR_MAX),
                             .DIRECTION_B(DIRECTION_B), .ROUND_REGS(ROUND_REGS)) u_eng (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
                .key_bytes(key_bytes), .key_data(key_data),
                .s_axis_cmd_tvalid(s_axis_cmd_tvalid), .s_axis_cmd_tready(s_axis_cmd_tready),
                .s_axis_cmd_tdata(s_axis_cmd_tdata),
                .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), .s_axis_tdata(s_axis_tdata),
                .s_axis_tkeep(s_axis_tkeep), .s_axis_tlast(s_axis_tlast),
                .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready), .m_axis_tdata(m_axis_tdata),
                .m_axis_tkeep(m_axis_tkeep), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
                .m_axis_sts_tvalid(m_axis_sts_tvalid), .m_axis_sts_tready(m_axis_sts_tready),
                .m_axis_sts_tdata(m_axis_sts_tdata)
            );
        end else begin : g_single
            /* verilator lint_off UNUSEDPARAM */
            localparam UNUSED_MULTI = IN_AW + ROUND_REGS;   // (aes_mode_multi only)
            /* verilator lint_on UNUSEDPARAM */
            aes_mode_engine #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .LEN_W(LEN_W),
                              .BUF_AW(BUF_AW), .NR_MAX(NR_MAX), .DIRECTION_B(DIRECTION_B),
                              .ROUNDS_PER_CLK(ROUNDS_PER_CLK)) u_eng (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
                .key_bytes(key_bytes), .key_data(key_data),
                .s_axis_cmd_tvalid(s_axis_cmd_tvalid), .s_axis_cmd_tready(s_axis_cmd_tready),
                .s_axis_cmd_tdata(s_axis_cmd_tdata),
                .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), .s_axis_tdata(s_axis_tdata),
                .s_axis_tkeep(s_axis_tkeep), .s_axis_tlast(s_axis_tlast),
                .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready), .m_axis_tdata(m_axis_tdata),
                .m_axis_tkeep(m_axis_tkeep), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
                .m_axis_sts_tvalid(m_axis_sts_tvalid), .m_axis_sts_tready(m_axis_sts_tready),
                .m_axis_sts_tdata(m_axis_sts_tdata)
            );
        end
    endgenerate
endmodule
`default_nettype wire
