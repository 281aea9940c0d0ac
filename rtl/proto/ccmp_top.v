// SPDX-License-Identifier: Apache-2.0
// ccmp_top: the IEEE 802.11 CCMP front end (ccmp_fe) on a mode engine
// (aes_mode_engine, or aes_mode_multi when MULTI = 1, on the block core CORE): the
// simulation top of `aesip run --engine iter32|iter128|pipe|multi` for the ccmp ops and
// of tb/proto/test_ccmp_top.py.
// docs/ccmp.md describes the ports; the key port and zeroize are the engine's.
//
// Parameters (passed to the mode engine through aes_mode_sel; the engine checks them)
//   CORE      : block core by name: "iter128" (default), "iter32", "pipe"
//   SBOX_IMPL : 0 = table S-boxes, 1 = composite-field S-boxes
//   SLOT_W    : key-slot index width, 1 .. 8 (also ccmp_fe: 17 replay counters per slot)
//   NR_MAX    : 10, 12 or 14: the largest key accepted
//   MULTI     : 0 = aes_mode_engine (default), 1 = aes_mode_multi with LANES lanes and
//               256-beat input FIFOs (same ports and results)
//   LANES     : MULTI = 1: aes_mode_multi's lanes, 2 .. 16 (checked; default 2); the front
//               end's record queue gets LANES entries (ccmp_fe QDEPTH), so up to LANES MPDUs
//               run in the engine at once. Ignored when MULTI = 0 (queue of 2 entries)
//   (MULTI = 1 also runs decryptions store-and-forward in the engine's lanes, ccmp_fe
//   ENG_SF = 1; MULTI = 0 cut-through into the front end's output buffer)
//   RIN_REG   : -1 (default), 0 or 1 (checked): ccmp_fe RIN_REG, the input register of the
//               front end's input realigner (towards the engine's s_axis). -1 chooses by
//               engine: 1 with MULTI = 0 (the engine's s_axis_tready stays out of the front
//               end's reader: a faster clock, no cycle added), 0 with MULTI = 1 (there the
//               register would add a clock per decryption in bursts); 0 / 1 force it
//   ROUNDS_PER_CLK : 1 (default), or 2 with CORE "iter128" and MULTI = 0: both cores do
//               two rounds per clock (aes_iter128 ROUNDS_PER_CLK; docs/ccmp.md, "Clock")
// The engine is built with encrypt-only cores (DIRECTION_B = 0) except on CORE "iter32"
// (one shared datapath, DIRECTION_B = 2): the front end sends CCM commands only, and CCM
// uses the forward cipher in both directions, so no inverse S-box or inverse round is
// built. (aes_mode_engine refuses ECB/CBC decryption on such a build; none is ever sent.)
// Ports
//   clk, rst, zeroize, key_*               : as aes_mode_engine (docs/mode_engine.md)
//   s_axis_cmd_* (80), s_axis_*, m_axis_*, m_axis_sts_* (80) : as ccmp_fe (docs/ccmp.md)
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module ccmp_top #(
    parameter [63:0] CORE = "iter128",
    parameter SBOX_IMPL = 0,
    parameter SLOT_W    = 2,
    parameter NR_MAX    = 14,
    parameter MULTI     = 0,
    parameter LANES     = 2,
    parameter RIN_REG   = -1,
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
    input  wire [79:0]   s_axis_cmd_tdata,
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
    output wire [79:0]   m_axis_sts_tdata
);
    generate
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, ccmp_top_SLOT_W_not_1_to_8, "ccmp_top: SLOT_W must be 1 .. 8")
        `AESIP_CHECK(MULTI == 0 || MULTI == 1, ccmp_top_MULTI_not_0_or_1, "ccmp_top: MULTI must be 0 or 1")
        `AESIP_CHECK(LANES >= 2 && LANES <= 16, ccmp_top_LANES_not_2_to_16, "ccmp_top: LANES must be 2 .. 16")
        `AESIP_CHECK(RIN_REG >= -1 && RIN_REG <= 1, ccmp_top_RIN_REG_not_m1_to_1, "ccmp_top: RIN_REG must be -1, 0 or 1")
    endgenerate

    wire         ec_valid, ec_ready, ed_valid, ed_ready, ed_last, eo_valid, eo_ready, eo_last, eo_user;
    wire         es_valid, es_ready;
    wire [511:0] ec_data;
    wire [127:0] ed_data, eo_data;
    wire [15:0]  ed_keep, eo_keep;
    wire [135:0] es_data;

    localparam integer QDEPTH = (MULTI != 0) ? LANES : 2;
    // the input realigner's input register: by engine (RIN_REG = -1) or as given
    localparam integer FE_RIN_REG = (RIN_REG >= 0) ? RIN_REG : ((MULTI != 0) ? 0 : 1);

    // aes_mode_multi: decryptions store-and-forward in the engine's lanes (ccmp_fe ENG_SF)
    ccmp_fe #(.SLOT_W(SLOT_W), .QDEPTH(QDEPTH), .ENG_SF(MULTI), .RIN_REG(FE_RIN_REG)) u_fe (
        .clk(clk), .rst(rst),
        .key_load(key_valid && key_ready), .key_load_slot(key_slot), .zeroize(zeroize),
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

    // MULTI = 0: aes_mode_engine; MULTI = 1: aes_mode_multi with LANES lanes (aes_mode_sel)
    // encrypt-only cores: CCM needs the forward cipher only (header)
    localparam ENG_DIRECTION_B = (CORE == "iter32") ? 2 : 0;
    aes_mode_sel #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .NR_MAX(NR_MAX),
                   .DIRECTION_B(ENG_DIRECTION_B), .LANES((MULTI != 0) ? LANES : 1), .IN_AW(8),
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
