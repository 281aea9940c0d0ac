// SPDX-License-Identifier: Apache-2.0
// aes_core: one block core chosen by name, behind the common block-core interface.
//
// The mode engines instantiate this wrapper once per role (core A, core B) instead of
// writing out every block core; the block cores themselves (aes_iter32, aes_iter128,
// aes_pipe) have exactly these ports (docs/cores.md). Only the selected core is
// elaborated, so a file list needs only that core's files (plus this one).
//
// Parameters
//   CORE       : name of the block core, a string of up to 8 characters:
//                "iter128" (default) = aes_iter128, "iter32" = aes_iter32,
//                "pipe" = aes_pipe. Any other name stops elaboration.
//   SBOX_IMPL  : 0 = table S-boxes, 1 = composite-field S-boxes (0 or 1)
//   SLOT_W     : key-slot index width (>= 1); 2**SLOT_W key slots
//   TAG_W      : width of the tag carried with every block (>= 1)
//   NR_MAX     : 10, 12 or 14 (default 14). "pipe": the number of round stages, the
//                largest key it accepts (a larger key's blocks come out with err = 1).
//                "iter32"/"iter128" support every key size and do not use it.
//   DIRECTION  : 0 = encrypt only, 1 = decrypt only, 2 = both (default). "iter32"
//                always has both directions and requires 2.
//   ROUND_REGS : "pipe" only: 1 .. 7 registers per round (default 1, docs/pipe.md;
//                5 .. 7 need SBOX_IMPL 1, or 5 with 2); must be 1 for the other cores
//   ROUNDS_PER_CLK : "iter128" only: 1 (default) or 2 rounds per clock (docs/iter128.md);
//                must be 1 for the other cores
//   ROUND_STAGES : "iter128" only: 1 (default) or 2 (one round in two clocks, two blocks
//                in flight; docs/iter128.md); must be 1 for the other cores
//   KX_EXT     : "iter128" only: 0 (default) = the core's own key expansion, 1 = the
//                expansion of a twin core through kx_in (aes_iter128 KX_EXT, docs/iter128.md
//                "Shared key expansion"); must be 0 for the other cores
// Ports: the common block-core interface (docs/cores.md), plus the key-expansion share
//   clk, rst, zeroize                                 : clock, synchronous reset, zeroize
//   key_valid/key_ready/key_slot/key_bytes/key_data   : key-load handshake
//   s_axis_tvalid/tready/tdata/tuser                  : input blocks, tuser = {tag, slot, dec}
//   m_axis_tvalid/tready/tdata/tuser                  : output blocks, tuser = {tag, err}
//   kx_out, kx_in                                     : "iter128": its key-expansion stream
//                                                       out, the twin's in (KX_EXT = 1);
//                                                       the other cores: kx_out = 0, kx_in
//                                                       unused (tie it to zero)
// Timing: that of the selected core (docs/iter32.md, docs/iter128.md, docs/pipe.md); the
// wrapper adds no logic.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_core #(
    parameter [63:0] CORE       = "iter128",
    parameter        SBOX_IMPL  = 0,
    parameter        SLOT_W     = 1,
    parameter        TAG_W      = 8,
    parameter        NR_MAX     = 14,
    parameter        DIRECTION  = 2,
    parameter        ROUND_REGS = 1,
    parameter        ROUNDS_PER_CLK = 1,
    parameter        ROUND_STAGES = 1,
    parameter        KX_EXT     = 0
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      zeroize,
    input  wire                      key_valid,
    output wire                      key_ready,
    input  wire [SLOT_W-1:0]         key_slot,
    input  wire [5:0]                key_bytes,
    input  wire [255:0]              key_data,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire [127:0]              s_axis_tdata,
    input  wire [TAG_W+SLOT_W:0]     s_axis_tuser,
    output wire                      m_axis_tvalid,
    input  wire                      m_axis_tready,
    output wire [127:0]              m_axis_tdata,
    output wire [TAG_W:0]            m_axis_tuser,
    output wire [40:0]               kx_out,
    input  wire [40:0]               kx_in
);
    localparam IS_PIPE    = (CORE == "pipe");
    localparam IS_ITER32  = (CORE == "iter32");
    localparam IS_ITER128 = (CORE == "iter128");

    generate
        `AESIP_CHECK(IS_PIPE || IS_ITER32 || IS_ITER128, aes_core_CORE_unknown,
                     "aes_core: CORE must be iter32 or iter128 or pipe")
        `AESIP_CHECK(SBOX_IMPL == 0 || SBOX_IMPL == 1, aes_core_SBOX_IMPL_not_0_or_1,
                     "aes_core: SBOX_IMPL must be 0 or 1")
        `AESIP_CHECK(SLOT_W >= 1, aes_core_SLOT_W_below_1, "aes_core: SLOT_W must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, aes_core_TAG_W_below_1, "aes_core: TAG_W must be >= 1")
        `AESIP_CHECK(NR_MAX == 10 || NR_MAX == 12 || NR_MAX == 14, aes_core_NR_MAX_not_10_12_14,
                     "aes_core: NR_MAX must be 10 or 12 or 14")
        `AESIP_CHECK(DIRECTION >= 0 && DIRECTION <= 2, aes_core_DIRECTION_not_0_to_2,
                     "aes_core: DIRECTION must be 0 or 1 or 2")
        `AESIP_CHECK(!IS_ITER32 || DIRECTION == 2, aes_core_iter32_DIRECTION_not_2,
                     "aes_core: CORE iter32 needs DIRECTION = 2")
        `AESIP_CHECK(IS_PIPE || ROUND_REGS == 1, aes_core_ROUND_REGS_without_pipe,
                     "aes_core: ROUND_REGS must be 1 unless CORE is pipe")
        `AESIP_CHECK(IS_ITER128 || ROUNDS_PER_CLK == 1, aes_core_ROUNDS_PER_CLK_without_iter128,
                     "aes_core: ROUNDS_PER_CLK must be 1 unless CORE is iter128")
        `AESIP_CHECK(IS_ITER128 || ROUND_STAGES == 1, aes_core_ROUND_STAGES_without_iter128,
                     "aes_core: ROUND_STAGES must be 1 unless CORE is iter128")
        `AESIP_CHECK(KX_EXT == 0 || (KX_EXT == 1 && IS_ITER128), aes_core_KX_EXT_bad,
                     "aes_core: KX_EXT must be 0, or 1 with CORE iter128")

        if (IS_PIPE) begin : g_pipe
            aes_pipe #(.SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .TAG_W(TAG_W), .NR_MAX(NR_MAX),
                       .DIRECTION(DIRECTION), .ROUND_REGS(ROUND_REGS)) u_core (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
                .key_bytes(key_bytes), .key_data(key_data),
                .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
                .s_axis_tdata(s_axis_tdata), .s_axis_tuser(s_axis_tuser),
                .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
                .m_axis_tdata(m_axis_tdata), .m_axis_tuser(m_axis_tuser));
            assign kx_out = 41'd0;
        end else if (IS_ITER32) begin : g_iter32
            aes_iter32 #(.SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .TAG_W(TAG_W)) u_core (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
                .key_bytes(key_bytes), .key_data(key_data),
                .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
                .s_axis_tdata(s_axis_tdata), .s_axis_tuser(s_axis_tuser),
                .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
                .m_axis_tdata(m_axis_tdata), .m_axis_tuser(m_axis_tuser));
            assign kx_out = 41'd0;
        end else begin : g_iter128
            aes_iter128 #(.SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .TAG_W(TAG_W),
                          .DIRECTION(DIRECTION), .ROUNDS_PER_CLK(ROUNDS_PER_CLK),
                          .ROUND_STAGES(ROUND_STAGES), .KX_EXT(KX_EXT)) u_core (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
                .key_bytes(key_bytes), .key_data(key_data),
                .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
                .s_axis_tdata(s_axis_tdata), .s_axis_tuser(s_axis_tuser),
                .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
                .m_axis_tdata(m_axis_tdata), .m_axis_tuser(m_axis_tuser),
                .kx_out(kx_out), .kx_in(kx_in));
        end
        if (!IS_ITER128) begin : g_kx_unused
            /* verilator lint_off UNUSEDSIGNAL */
            wire [40:0] unused_kx_in = kx_in;
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate
endmodule
`default_nettype wire
