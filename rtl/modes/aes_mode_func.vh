// SPDX-License-Identifier: Apache-2.0
// aes_mode_func.vh: byte helpers for 16-byte blocks and beats, shared by the mode-engine
// modules (aes_mode_cmd_decode, aes_mode_lane).
//
// Include it inside a module body (`include "aes_mode_func.vh"; include directory
// rtl/modes), after `default_nettype none. It has no include guard on purpose (like
// aes_mode_if.vh): every module that includes it gets its own copy of the functions, and
// a guard would leave the second module of a compile without them.
//
//   reverse_bytes(x)  : the 16 bytes of x in reverse order (little-endian byte lanes <->
//                       big-endian 128-bit integer)
//   low_bytes_mask(n) : a 128-bit mask with bytes 0 .. n-1 set (n = 0 .. 16)
//
// Lint: with -Wall, the Verilator lint reports VARHIDDEN for these functions in
// aes_mode_lane under aes_mode_multi, because aes_mode_cmd_decode, instantiated inside
// the lane, declares the same functions. They are pure functions of their arguments, so
// nothing that could differ is hidden: the warning is switched off for them only.

/* verilator lint_off VARHIDDEN */
function automatic [127:0] reverse_bytes;
    input [127:0] x;
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1) reverse_bytes[8*i +: 8] = x[8*(15-i) +: 8];
    end
endfunction

function automatic [127:0] low_bytes_mask;
    input [4:0] n;
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1) low_bytes_mask[8*i +: 8] = (i < n) ? 8'hff : 8'h00;
    end
endfunction
/* verilator lint_on VARHIDDEN */
