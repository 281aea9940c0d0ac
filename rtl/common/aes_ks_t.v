// SPDX-License-Identifier: Apache-2.0
// aes_ks_t: the non-linear term of the AES key schedule (FIPS-197 Section 5.2).
//
// For word index i of the expanded key, w[i] = w[i-Nk] ^ T(w[i-1]) with
//   T(w) = SubWord(RotWord(w)) ^ Rcon   when i mod Nk == 0          (mode 2'd1)
//   T(w) = SubWord(w)                   when Nk == 8, i mod 8 == 4  (mode 2'd2)
//   T(w) = w                            otherwise                    (mode 2'd0)
// The same term gives the backward step w[i-Nk] = w[i] ^ T(w[i-1]), so one instance
// serves forward and reverse (on-the-fly decryption) key schedules.
// Words carry byte 0 in bits [7:0]; Rcon is XORed into byte 0.
//
// Parameters
//   IMPL : S-box implementation, 0 = LUT, 1 = composite field (see aes_sbox)
// Ports
//   w    : w[i-1];  mode : see above;  rcon : round constant byte;  t : T(w)
// Purely combinational (four forward S-boxes).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_ks_t #(
    parameter IMPL = 0
) (
    input  wire [31:0] w,
    input  wire [1:0]  mode,
    input  wire [7:0]  rcon,
    output wire [31:0] t
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(IMPL == 0 || IMPL == 1, aes_ks_t_IMPL_not_0_or_1,
                     "aes_ks_t: IMPL must be 0 or 1")
    endgenerate

    // SubWord is bytewise, so SubWord(RotWord(w)) = RotWord(SubWord(w)): the S-box
    // input is w itself, with no select in front of it.
    wire [31:0] sub;
    aes_subword #(.IMPL(IMPL), .DIR(0)) u_sub (.in(w), .inv(1'b0), .out(sub));
    wire [31:0] rot = {sub[7:0], sub[31:8]};        // RotWord: [a0,a1,a2,a3] -> [a1,a2,a3,a0]
    assign t = (mode == 2'd1) ? (rot ^ {24'd0, rcon}) :
               (mode == 2'd2) ? sub : w;
endmodule
`default_nettype wire
