// SPDX-License-Identifier: Apache-2.0
// wimax_top: the IEEE 802.16e PDU protection front end (wimax_fe) on a mode engine
// (aes_mode_engine, or aes_mode_multi when MULTI = 1, on the block core CORE): the
// simulation top of `aesip run --engine iter32|iter128|pipe|multi` for the wimax ops and
// of tb/proto/test_wimax_top.py.
// docs/wimax.md describes the ports; the key port and zeroize are the engine's.
//
// Parameters (passed to the mode engine through aes_mode_sel; the engine checks them)
//   CORE      : block core by name: "iter128" (default), "iter32", "pipe"
//   SBOX_IMPL : 0 = table S-boxes, 1 = composite-field S-boxes
//   SLOT_W    : key-slot index width, 1 .. 8
//   NR_MAX    : 10, 12 or 14: the largest key accepted
//   MULTI     : 0 = aes_mode_engine (default), 1 = aes_mode_multi with 2 lanes and 128-beat
//               input FIFOs (same ports and results; the front end has one PDU in flight)
//   ROUNDS_PER_CLK : 1 (default), or 2 with CORE "iter128" and MULTI = 0: both cores do
//               two rounds per clock (aes_iter128 ROUNDS_PER_CLK): a CCM step takes
//               Nr / 2 + 1 clocks instead of Nr + 1 (docs/mode_engine.md, "Timing")
// The engine is built with encrypt-only cores (DIRECTION_B = 0) except on CORE "iter32"
// (one shared datapath, DIRECTION_B = 2): the front end sends CCM commands only, and CCM
// uses the forward cipher in both directions, so no inverse S-box or inverse round is
// built. (aes_mode_engine refuses ECB/CBC decryption on such a build; none is ever sent.)
// Ports
//   clk, rst, zeroize, key_*               : as aes_mode_engine (docs/mode_engine.md)
//   s_axis_cmd_* (64), s_axis_*, m_axis_*, m_axis_sts_* (64) : as wimax_fe (docs/wimax.md)
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module wimax_top #(
    parameter [63:0] CORE = "iter128",
    parameter SBOX_IMPL = 0,
    parameter SLOT_W    = 2,
    parameter NR_MAX    = 14,
    parameter MULTI     = 0,
    parameter ROUNDS_PER_CLK = 1
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          zeroize,
    input  wire          key_valid,
    output wire          key_ready,
    input  wire [SLOT_W-1:0] key_slot,
    input  wire [5:0]    key_bytes,
    input  wire [255:0]  key_data,
    input  wire          s_axis_cmd_tvalid,
    output wire          s_axis_cmd_tready,
    input  wire [63:0]   s_axis_cmd_tdata,
    input  wire          s_axis_tvalid,
    output wire          s_axis_tready,
    input  wire [127:0]  s_axis_tdata,
    input  wire [15:0]   s_axis_tkeep,
    input  wire          s_axis_tlast,
    output wire          m_axis_tvalid,
    input  wire          m_axis_tready,
    output wire [127:0]  m_axis_tdata,
    output wire [15:0]   m_axis_tkeep,
    output wire          m_axis_tlast,
    output wire          m_axis_tuser,
    output wire          m_axis_sts_tvalid,
    input  wire          m_axis_sts_tready,
    output wire [63:0]   m_axis_sts_tdata
);
    generate
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, wimax_top_SLOT_W_not_1_to_8, "wimax_top: SLOT_W must be 1 .. 8")
        `AESIP_CHECK(MULTI == 0 || MULTI == 1, wimax_top_MULTI_not_0_or_1, "wimax_top: MULTI must be 0 or 1")
    endgenerate

    wire         ec_valid, ec_ready, ed_valid, ed_ready, ed_last, eo_valid, eo_ready, eo_last, eo_user;
    wire         es_valid, es_ready;
    wire [511:0] ec_data;
    wire [127:0] ed_data, eo_data;
    wire [15:0]  ed_keep, eo_keep;
    wire [135:0] es_data;

    wimax_fe u_fe (
        .clk(clk), .rst(rst),
        .s_axis_cmd_tvalid(s_axis_cmd_tvalid), .s_axis_cmd_tready(s_axis_cmd_tready),
        .s_axis_cmd_tdata(s_axis_cmd_tdata),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), .s_axis_tdata(s_axis_tdata),
        .s_axis_tkeep(s_axis_tkeep), .s_axis_tlast(s_axis_tlast),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready), .m_axis_tdata(m_axis_tdata),
        .m_axis_tkeep(m_axis_tkeep), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
        .m_axis_sts_tvalid(m_axis_sts_tvalid), .m_axis_sts_tready(m_axis_sts_tready),
        .m_axis_sts_tdata(m_axis_sts_tdata),
        .m_axis_eng_cmd_tvalid(ec_valid), .m_axis_eng_cmd_tready(ec_ready), .m_axis_eng_cmd_tdata(ec_data),
        .m_axis_eng_tvalid(ed_valid), .m_axis_eng_tready(ed_ready), .m_axis_eng_tdata(ed_data),
        .m_axis_eng_tkeep(ed_keep), .m_axis_eng_tlast(ed_last),
        .s_axis_eng_tvalid(eo_valid), .s_axis_eng_tready(eo_ready), .s_axis_eng_tdata(eo_data),
        .s_axis_eng_tkeep(eo_keep), .s_axis_eng_tlast(eo_last), .s_axis_eng_tuser(eo_user),
        .s_axis_eng_sts_tvalid(es_valid), .s_axis_eng_sts_tready(es_ready), .s_axis_eng_sts_tdata(es_data)
    );

    // MULTI = 0: aes_mode_engine; MULTI = 1: aes_mode_multi with 2 lanes (aes_mode_sel)
    // encrypt-only cores: CCM needs the forward cipher only (header)
    localparam ENG_DIRECTION_B = (CORE == "iter32") ? 2 : 0;
    aes_mode_sel #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .NR_MAX(NR_MAX),
                   .DIRECTION_B(ENG_DIRECTION_B), .LANES((MULTI != 0) ? 2 : 1), .IN_AW(7),
                   .ROUNDS_PER_CLK(ROUNDS_PER_CLK)) u_eng (
        .clk(clk), .rst(rst), .zeroize(zeroize),
        .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot), .key_bytes(key_bytes),
        .key_data(key_data),
        .s_axis_cmd_tvalid(ec_valid), .s_axis_cmd_tready(ec_ready), .s_axis_cmd_tdata(ec_data),
        .s_axis_tvalid(ed_valid), .s_axis_tready(ed_ready), .s_axis_tdata(ed_data), .s_axis_tkeep(ed_keep),
        .s_axis_tlast(ed_last),
        .m_axis_tvalid(eo_valid), .m_axis_tready(eo_ready), .m_axis_tdata(eo_data), .m_axis_tkeep(eo_keep),
        .m_axis_tlast(eo_last), .m_axis_tuser(eo_user),
        .m_axis_sts_tvalid(es_valid), .m_axis_sts_tready(es_ready), .m_axis_sts_tdata(es_data)
    );
endmodule
`default_nettype wire
