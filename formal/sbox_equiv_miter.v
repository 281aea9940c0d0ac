// SPDX-License-Identifier: Apache-2.0
// sbox_equiv_miter: miter for formal/sbox_equiv.ys. Compares, for every input byte, the
// table S-boxes (aes_sbox_lut_fwd / aes_sbox_lut_inv) with the composite-field S-box
// (aes_sbox_comp) in each of its builds: DIR = 0 (forward only), DIR = 1 (inverse only)
// and DIR = 2 (both, selected by inv). ok is 1 iff all agree.
`default_nettype none
module sbox_equiv_miter (
    input  wire [7:0] in,
    output wire       ok
);
    wire [7:0] t_fwd, t_inv, c2_fwd, c2_inv, c0_fwd, c1_inv;
    aes_sbox_lut_fwd u_tf (.in(in), .out(t_fwd));
    aes_sbox_lut_inv u_ti (.in(in), .out(t_inv));
    aes_sbox_comp #(.DIR(2)) u_c2f (.clk(1'b0), .ok(1'b0), .in(in), .inv(1'b0), .out(c2_fwd));
    aes_sbox_comp #(.DIR(2)) u_c2i (.clk(1'b0), .ok(1'b0), .in(in), .inv(1'b1), .out(c2_inv));
    aes_sbox_comp #(.DIR(0)) u_c0f (.clk(1'b0), .ok(1'b0), .in(in), .inv(1'b0), .out(c0_fwd));
    aes_sbox_comp #(.DIR(1)) u_c1i (.clk(1'b0), .ok(1'b0), .in(in), .inv(1'b1), .out(c1_inv));
    assign ok = (t_fwd == c2_fwd) && (t_fwd == c0_fwd) && (t_inv == c2_inv) && (t_inv == c1_inv);
endmodule
`default_nettype wire
