// SPDX-License-Identifier: Apache-2.0
// tdea_skmem: DES subkey memory of the TDEA cores (one 48-bit subkey per entry).
//
// A small simple-dual-port memory: one synchronous write port (the key-schedule loader
// and the scrubber of tdea_pipe / tdea_iter) and one asynchronous read port (the round
// logic). No reset, so that synthesis maps it to distributed LUT-RAM; the cores clear
// it after rst and zeroize by writing zeros to every entry (scrub), and its contents
// never reach a port of a core.
//
// Parameters
//   AW    : address width (>= 1); 2**AW entries
// Ports
//   clk   : clock (write port)
//   we    : write enable; wdata is stored at waddr on the rising edge
//   waddr : write address
//   wdata : write data (a subkey, DES bit k at bit 48-k)
//   raddr : read address
//   rdata : mem[raddr], combinational (a write becomes visible after its clock edge)
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module tdea_skmem #(
    parameter AW = 1
) (
    input  wire          clk,
    input  wire          we,
    input  wire [AW-1:0] waddr,
    input  wire [47:0]   wdata,
    input  wire [AW-1:0] raddr,
    output wire [47:0]   rdata
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(AW >= 1, tdea_skmem_AW_below_1, "tdea_skmem: AW must be >= 1")
    endgenerate

    reg [47:0] mem [0:(1 << AW) - 1];

    always @(posedge clk) begin
        if (we) mem[waddr] <= wdata;
    end

    assign rdata = mem[raddr];
endmodule
`default_nettype wire
