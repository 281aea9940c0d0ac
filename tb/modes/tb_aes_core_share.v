// SPDX-License-Identifier: Apache-2.0
// tb_aes_core_share: test wrapper of aes_core_share for cocotbext-axi. The two role ports
// (a_s_*, a_m_*, b_s_*, b_m_*) are renamed to AXI4-Stream names so that the library's
// stream models drive and take them: s_a_axis_tuser = {slot, dec}, m_a_axis_tuser = err,
// likewise for B. Nothing else changes.
`timescale 1ns / 1ps
`default_nettype none
module tb_aes_core_share #(
    parameter [63:0] CORE         = "iter128",
    parameter        SLOT_W       = 1,
    parameter        NR_MAX       = 14,
    parameter        DIRECTION    = 2,
    parameter        ROUND_STAGES = 2,
    parameter        DEPTH        = 2,
    parameter        IN_REG       = 1
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              zeroize,
    input  wire              key_valid,
    output wire              key_ready,
    input  wire [SLOT_W-1:0] key_slot,
    input  wire [5:0]        key_bytes,
    input  wire [255:0]      key_data,
    input  wire              s_a_axis_tvalid,
    output wire              s_a_axis_tready,
    input  wire [127:0]      s_a_axis_tdata,
    input  wire [SLOT_W:0]   s_a_axis_tuser,
    output wire              m_a_axis_tvalid,
    input  wire              m_a_axis_tready,
    output wire [127:0]      m_a_axis_tdata,
    output wire              m_a_axis_tuser,
    input  wire              s_b_axis_tvalid,
    output wire              s_b_axis_tready,
    input  wire [127:0]      s_b_axis_tdata,
    input  wire [SLOT_W:0]   s_b_axis_tuser,
    output wire              m_b_axis_tvalid,
    input  wire              m_b_axis_tready,
    output wire [127:0]      m_b_axis_tdata,
    output wire              m_b_axis_tuser
);
    aes_core_share #(.CORE(CORE), .SLOT_W(SLOT_W), .NR_MAX(NR_MAX), .DIRECTION(DIRECTION),
                     .ROUND_STAGES(ROUND_STAGES), .DEPTH(DEPTH), .IN_REG(IN_REG)) u_share (
        .clk(clk), .rst(rst), .zeroize(zeroize),
        .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot), .key_bytes(key_bytes),
        .key_data(key_data),
        .a_s_valid(s_a_axis_tvalid), .a_s_ready(s_a_axis_tready), .a_s_data(s_a_axis_tdata),
        .a_s_slot(s_a_axis_tuser[SLOT_W:1]), .a_s_dec(s_a_axis_tuser[0]),
        .a_m_valid(m_a_axis_tvalid), .a_m_ready(m_a_axis_tready), .a_m_data(m_a_axis_tdata),
        .a_m_err(m_a_axis_tuser),
        .b_s_valid(s_b_axis_tvalid), .b_s_ready(s_b_axis_tready), .b_s_data(s_b_axis_tdata),
        .b_s_slot(s_b_axis_tuser[SLOT_W:1]), .b_s_dec(s_b_axis_tuser[0]),
        .b_m_valid(m_b_axis_tvalid), .b_m_ready(m_b_axis_tready), .b_m_data(m_b_axis_tdata),
        .b_m_err(m_b_axis_tuser));
endmodule
`default_nettype wire
