// SPDX-License-Identifier: Apache-2.0
// aes_pipe_rkmem: per-stage round-key memory of aes_pipe (one 128-bit word per entry).
//
// A small simple-dual-port memory: one synchronous write port (used only by the key
// loader and the scrubber of aes_pipe) and one asynchronous read port (the stage's
// AddRoundKey). It has no reset so that synthesis maps it to distributed LUT-RAM
// (xc7 RAM32M/RAM64M); aes_pipe clears it after rst and zeroize by writing zeros to
// every entry (scrub), and its contents never reach a port of aes_pipe.
//
// Parameters
//   AW    : address width (>= 1); the memory has 2**AW entries of 128 bits
// Ports
//   clk   : clock (write port)
//   we    : write enable; wdata is stored at waddr on the rising edge
//   waddr : write address
//   wdata : write data (a round key, byte n at bits [8n+7:8n])
//   raddr : read address
//   rdata : mem[raddr], combinational (a write becomes visible after its clock edge)
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_pipe_rkmem #(
    parameter AW = 1
) (
    input  wire          clk,
    input  wire          we,
    input  wire [AW-1:0] waddr,
    input  wire [127:0]  wdata,
    input  wire [AW-1:0] raddr,
    output wire [127:0]  rdata
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(AW >= 1, aes_pipe_rkmem_AW_below_1, "aes_pipe_rkmem: AW must be >= 1")
    endgenerate

    reg [127:0] mem [0:(1 << AW) - 1];

    always @(posedge clk) begin
        if (we) mem[waddr] <= wdata;
    end

    assign rdata = mem[raddr];
endmodule
`default_nettype wire
