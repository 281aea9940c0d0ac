// SPDX-License-Identifier: Apache-2.0
// tb_chan_engine: test wrapper of chan_engine for cocotbext-axi. The engine's tlast
// marks the end of a packet inside a channel, while beats of different channels
// interleave; the library's stream models group beats into frames by tlast. Here the
// packet-end flag rides in tuser instead and the streams have no tlast, so every beat is
// its own frame (s_axis_tuser = last; m_axis_tuser = {last, fail}). Nothing else changes.
`timescale 1ns / 1ps
`default_nettype none
module tb_chan_engine #(
    parameter [31:0] CORE       = "aes",
    parameter        CH_W       = 4,
    parameter        SLOT_W     = 2,
    parameter        LEN_W      = 16,
    parameter        NR_MAX     = 14,
    parameter        DIRECTION  = 2,
    parameter        ROUND_REGS = 1,
    parameter        SBOX_IMPL  = 0
) (
    input  wire                                     clk,
    input  wire                                     rst,
    input  wire                                     zeroize,
    input  wire                                     key_valid,
    output wire                                     key_ready,
    input  wire [SLOT_W-1:0]                        key_slot,
    input  wire [5:0]                               key_bytes,
    input  wire [255:0]                             key_data,
    input  wire                                     s_axis_cmd_tvalid,
    output wire                                     s_axis_cmd_tready,
    input  wire [511:0]                             s_axis_cmd_tdata,
    input  wire [CH_W-1:0]                          s_axis_cmd_tdest,
    input  wire                                     s_axis_tvalid,
    output wire                                     s_axis_tready,
    input  wire [((CORE == "tdea") ? 64 : 128)-1:0] s_axis_tdata,
    input  wire                                     s_axis_tuser,
    input  wire [CH_W-1:0]                          s_axis_tdest,
    output wire                                     m_axis_tvalid,
    input  wire                                     m_axis_tready,
    output wire [((CORE == "tdea") ? 64 : 128)-1:0] m_axis_tdata,
    output wire [((CORE == "tdea") ? 8 : 16)-1:0]   m_axis_tkeep,
    output wire [1:0]                               m_axis_tuser,
    output wire [CH_W-1:0]                          m_axis_tdest,
    output wire                                     m_axis_sts_tvalid,
    input  wire                                     m_axis_sts_tready,
    output wire [135:0]                             m_axis_sts_tdata,
    output wire [CH_W-1:0]                          m_axis_sts_tdest
);
    wire m_last, m_fail;
    assign m_axis_tuser = {m_last, m_fail};
    chan_engine #(.CORE(CORE), .CH_W(CH_W), .SLOT_W(SLOT_W), .LEN_W(LEN_W), .NR_MAX(NR_MAX),
                  .DIRECTION(DIRECTION), .ROUND_REGS(ROUND_REGS), .SBOX_IMPL(SBOX_IMPL)) u_dut (
        .clk(clk), .rst(rst), .zeroize(zeroize),
        .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
        .key_bytes(key_bytes), .key_data(key_data),
        .s_axis_cmd_tvalid(s_axis_cmd_tvalid), .s_axis_cmd_tready(s_axis_cmd_tready),
        .s_axis_cmd_tdata(s_axis_cmd_tdata), .s_axis_cmd_tdest(s_axis_cmd_tdest),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), .s_axis_tdata(s_axis_tdata),
        .s_axis_tlast(s_axis_tuser), .s_axis_tdest(s_axis_tdest),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready), .m_axis_tdata(m_axis_tdata),
        .m_axis_tkeep(m_axis_tkeep), .m_axis_tlast(m_last), .m_axis_tuser(m_fail),
        .m_axis_tdest(m_axis_tdest),
        .m_axis_sts_tvalid(m_axis_sts_tvalid), .m_axis_sts_tready(m_axis_sts_tready),
        .m_axis_sts_tdata(m_axis_sts_tdata), .m_axis_sts_tdest(m_axis_sts_tdest));
endmodule
`default_nettype wire
