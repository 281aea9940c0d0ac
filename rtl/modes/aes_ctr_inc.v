// SPDX-License-Identifier: Apache-2.0
// aes_ctr_inc: the counter block after x, for CTR mode and CCM's counter blocks: x + 1
// modulo 2**128, where x is a 128-bit big-endian integer held with byte 0 (its most
// significant byte) in bits [7:0], as the mode engines hold blocks.
//
// CHAIN_W = 32: four 32-bit increments (in big-endian significance), each carrying in
// when every bit below it is 1 (AND trees beside the chains), so that no carry chain is
// longer than 32 bits. CHAIN_W = 128: one 128-bit carry chain, no AND trees (the shorter
// path where the chain starts at a register: on ECP5 a 96-input AND tree is four LUT
// levels, longer than the 96 bits of chain it replaces).
//
// A caller that increments two sources and selects after (chan_engine: the head's
// context word, or the write register holding its newer copy) must keep each instance
// as its own hierarchy (a keep_hierarchy attribute on the instance): flattened, Yosys
// (opt_share) merges two adders whose results meet in a multiplexer into one adder
// behind a multiplexer of their inputs (measured on ECP5), which is the path the two
// instances are there to avoid. A single instance (aes_mode_lane) is flattened as usual.
//
// Parameters
//   CHAIN_W : 32 or 128, the longest carry chain (default 32)
// Ports
//   x : the counter block (byte 0 first)
//   y : the next counter block (byte 0 first)
// Timing: combinational.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_ctr_inc #(
    parameter CHAIN_W = 32
) (
    input  wire [127:0] x,
    output wire [127:0] y
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(CHAIN_W == 32 || CHAIN_W == 128, aes_ctr_inc_CHAIN_W_not_32_or_128,
                     "aes_ctr_inc: CHAIN_W must be 32 or 128")
    endgenerate

    // the bytes in big-endian significance: be[7:0] is byte 15 (least significant)
    wire [127:0] be, nx;
    genvar i;
    generate
        for (i = 0; i < 16; i = i + 1) begin : g_byte
            assign be[8*i +: 8] = x[8*(15-i) +: 8];
            assign y[8*i +: 8]  = nx[8*(15-i) +: 8];
        end
        if (CHAIN_W == 128) begin : g_one
            assign nx = be + 128'd1;
        end else begin : g_four
            for (i = 0; i < 4; i = i + 1) begin : g_chunk
                if (i == 0) begin : g_lo
                    assign nx[31:0] = be[31:0] + 32'd1;
                end else begin : g_hi
                    wire cin = &be[32*i-1:0];
                    assign nx[32*i +: 32] = be[32*i +: 32] + {31'd0, cin};
                end
            end
        end
    endgenerate
endmodule
`default_nettype wire
