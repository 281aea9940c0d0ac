// SPDX-License-Identifier: Apache-2.0
// tb_aes_iter128_pair: test wrapper of two aes_iter128 cores with one key expansion, wired
// as the mode engines wire their cores A and B: one key port (key_ready = both cores
// ready, key_valid to both only then), core A with its own expander (KX_EXT = 0), core B
// without (KX_EXT = 1, core A's kx_out on its kx_in). Each core's block ports are renamed
// to AXI4-Stream names for cocotbext-axi: s_a_axis_* / m_a_axis_* (core A), s_b_axis_* /
// m_b_axis_* (core B); tuser = {slot, dec} in, err out (TAG_W = 1, tag bit driven 0).
`timescale 1ns / 1ps
`default_nettype none
module tb_aes_iter128_pair #(
    parameter SLOT_W         = 2,
    parameter DIRECTION_A    = 0,
    parameter DIRECTION_B    = 2,
    parameter ROUND_STAGES   = 1,
    parameter ROUNDS_PER_CLK = 1
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
    wire a_key_ready, b_key_ready;
    assign key_ready = a_key_ready && b_key_ready;
    wire key_go = key_valid && key_ready;
    wire [40:0] a_kx;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [40:0] b_kx;
    wire a_tag, b_tag;
    /* verilator lint_on UNUSEDSIGNAL */
    aes_iter128 #(.SLOT_W(SLOT_W), .TAG_W(1), .DIRECTION(DIRECTION_A), .ROUND_STAGES(ROUND_STAGES),
                  .ROUNDS_PER_CLK(ROUNDS_PER_CLK), .KX_EXT(0)) u_a (
        .clk(clk), .rst(rst), .zeroize(zeroize),
        .key_valid(key_go), .key_ready(a_key_ready), .key_slot(key_slot), .key_bytes(key_bytes),
        .key_data(key_data),
        .s_axis_tvalid(s_a_axis_tvalid), .s_axis_tready(s_a_axis_tready), .s_axis_tdata(s_a_axis_tdata),
        .s_axis_tuser({1'b0, s_a_axis_tuser}),
        .m_axis_tvalid(m_a_axis_tvalid), .m_axis_tready(m_a_axis_tready), .m_axis_tdata(m_a_axis_tdata),
        .m_axis_tuser({a_tag, m_a_axis_tuser}), .kx_out(a_kx), .kx_in(41'd0));
    aes_iter128 #(.SLOT_W(SLOT_W), .TAG_W(1), .DIRECTION(DIRECTION_B), .ROUND_STAGES(ROUND_STAGES),
                  .ROUNDS_PER_CLK(ROUNDS_PER_CLK), .KX_EXT(1)) u_b (
        .clk(clk), .rst(rst), .zeroize(zeroize),
        .key_valid(key_go), .key_ready(b_key_ready), .key_slot(key_slot), .key_bytes(key_bytes),
        .key_data(key_data),
        .s_axis_tvalid(s_b_axis_tvalid), .s_axis_tready(s_b_axis_tready), .s_axis_tdata(s_b_axis_tdata),
        .s_axis_tuser({1'b0, s_b_axis_tuser}),
        .m_axis_tvalid(m_b_axis_tvalid), .m_axis_tready(m_b_axis_tready), .m_axis_tdata(m_b_axis_tdata),
        .m_axis_tuser({b_tag, m_b_axis_tuser}), .kx_out(b_kx), .kx_in(a_kx));
endmodule
`default_nettype wire
