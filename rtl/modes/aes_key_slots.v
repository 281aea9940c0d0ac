// SPDX-License-Identifier: Apache-2.0
// aes_key_slots: the mode engines' record of which key slots hold a usable key.
//
// The engines check a packet's key slot when they accept its command (fail closed: a
// packet on an unusable slot gets status KEY and no output). A slot is usable from the
// key-load handshake on when the load had a legal length (16/24/32 bytes) whose round
// count the cores support (Nr <= NR_MAX); the cores themselves hold off the slot's
// blocks until its expansion is done. A load with any other length, rst and zeroize
// make slots unusable. Only validity and size are kept here, never key material.
//
// Parameters
//   SLOT_W : key-slot index width (>= 1): 2**SLOT_W slots
//   NR_MAX : 10, 12 or 14: the largest round count the engine's cores are built for
// Ports
//   clk, rst   : clock, synchronous active-high reset (every slot unusable)
//   zeroize    : one-cycle pulse: every slot unusable from the next cycle on
//   load       : a key-load handshake happens this cycle (key_valid && key_ready)
//   load_slot  : its slot
//   load_bytes : its key length in bytes
//   usable     : bit s = slot s holds a key the cores can use
// Timing: usable changes at the clock edge of the load (or zeroize, rst).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_key_slots #(
    parameter SLOT_W = 2,
    parameter NR_MAX = 14
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      zeroize,
    input  wire                      load,
    input  wire [SLOT_W-1:0]         load_slot,
    input  wire [5:0]                load_bytes,
    output reg  [(1 << SLOT_W)-1:0]  usable
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SLOT_W >= 1, aes_key_slots_SLOT_W_below_1,
                     "aes_key_slots: SLOT_W must be >= 1")
        `AESIP_CHECK(NR_MAX == 10 || NR_MAX == 12 || NR_MAX == 14, aes_key_slots_NR_MAX_not_10_12_14,
                     "aes_key_slots: NR_MAX must be 10 or 12 or 14")
    endgenerate


    wire       ok;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [1:0] size;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [3:0] nr;
    aes_keylen u_keylen (.key_bytes(load_bytes), .ok(ok), .size(size), .nr(nr));
    wire fits = ok && ({28'd0, nr} <= NR_MAX);

    always @(posedge clk) begin
        if (rst || zeroize) usable <= {(1 << SLOT_W){1'b0}};
        else if (load) usable[load_slot] <= fits;
    end
endmodule
`default_nettype wire
