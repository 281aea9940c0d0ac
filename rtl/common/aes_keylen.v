// SPDX-License-Identifier: Apache-2.0
// aes_keylen: decodes and checks a key length given in bytes.
// Ports
//   key_bytes : key length in bytes as presented on a core's key-load port
//   ok        : 1 when key_bytes is 16, 24 or 32
//   size      : 2'd0 = AES-128, 2'd1 = AES-192, 2'd2 = AES-256 (2'd3 when !ok)
//   nr        : number of rounds (10, 12, 14; 0 when !ok)
// Purely combinational.
`timescale 1ns / 1ps
`default_nettype none
module aes_keylen (
    input  wire [5:0] key_bytes,
    output wire       ok,
    output wire [1:0] size,
    output wire [3:0] nr
);
    assign ok   = (key_bytes == 6'd16) || (key_bytes == 6'd24) || (key_bytes == 6'd32);
    assign size = (key_bytes == 6'd16) ? 2'd0 : (key_bytes == 6'd24) ? 2'd1 :
                  (key_bytes == 6'd32) ? 2'd2 : 2'd3;
    assign nr   = (key_bytes == 6'd16) ? 4'd10 : (key_bytes == 6'd24) ? 4'd12 :
                  (key_bytes == 6'd32) ? 4'd14 : 4'd0;
endmodule
`default_nettype wire
