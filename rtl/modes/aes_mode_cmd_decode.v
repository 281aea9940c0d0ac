// SPDX-License-Identifier: Apache-2.0
// aes_mode_cmd_decode: command decode and checks of a mode-engine lane (aes_mode_lane).
//
// Purely combinational. Takes one 512-bit command beat (layout in docs/mode_engine.md and
// rtl/modes/aes_mode_if.vh) and the key slots' usable flags, and gives everything the
// lane's step sequencer loads when it accepts the command: the checked fields, the error
// code found from the command alone (codes OP, NONCE, TAG_LEN, LENGTH, BUFFER, KEY, in
// that priority), the step and beat counts, and the initial values of the chaining value
// (CCM B0 / IV), the counter block, the AAD length encoding and the received tag.
//
// Parameters
//   SLOT_W : key-slot index width, 1 .. 8 (the slot field must be < 2**SLOT_W)
//   LEN_W  : width of the length counters, BUF_AW + 4 .. 61; AAD or payload lengths of
//            2**LEN_W bytes or more are rejected with ERR_LENGTH
//   BUF_AW : log2 of the output buffer depth in 16-byte beats (>= 1); store-and-forward
//            CCM decryption accepts payloads up to 16 * 2**BUF_AW bytes
//   DEC_OPS: 1 (default) = the ops that need the AES inverse cipher (ECB decrypt, CBC
//            decrypt) are accepted; 0 = the engine's cores cannot decrypt and those ops
//            are refused with ERR_OP (CCM decryption needs only the forward cipher)
// Ports
//   cmd          : the command beat (s_axis_cmd_tdata)
//   key_usable   : bit s = key slot s holds a usable key (aes_key_slots)
//   op, cut      : op code, cut-through flag
//   tag_beat     : CCM decryption: the received tag comes as the last data beat
//   slot         : key slot (low SLOT_W bits of the slot field)
//   tag_len      : CCM tag length t in bytes (0: CCM* encryption only, no CBC-MAC)
//   aad_code     : AAD length encoding (SP 800-38C A.2.2): 0 = 2 bytes, 1 = 6, 2 = 10
//   err          : error code found from the command alone (ERR_OK when none); OP also
//                  for ECB/CBC decrypt when DEC_OPS = 0
//   is_ccm       : op is CCM encrypt or decrypt
//   has_data     : the packet has data beats (aad_len or payload_len nonzero, or tag_beat)
//   no_payload   : payload_len is 0
//   aad_steps    : CCM: formatted AAD blocks (length encoding + AAD, 16-byte blocks)
//   aad_beats    : AAD beats on s_axis
//   pay_beats    : payload beats on s_axis (= payload steps)
//   aad_len, pay_len : AAD and payload lengths in bytes (low LEN_W bits)
//   chain_init   : initial chaining value: CCM B0, CBC encrypt / CBC-MAC IV, else 0
//   counter_init : initial counter block: CCM Ctr0 (t = 0: Ctr1, E(Ctr0) is not needed),
//                  CTR the IV
//   iv           : the iv field (CBC decryption's first previous block)
//   aad_carry    : the AAD length encoding in the top bytes of an 80-bit carry register
//   recv_tag     : the tag field (CCM decryption: the received tag; ignored with tag_beat)
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_mode_cmd_decode #(
    parameter SLOT_W = 2,
    parameter LEN_W  = 32,
    parameter BUF_AW = 8,
    parameter DEC_OPS = 1
) (
    input  wire [511:0]          cmd,
    input  wire [(1 << SLOT_W)-1:0] key_usable,
    output wire [3:0]            op,
    output wire                  cut,
    output wire                  tag_beat,
    output wire [SLOT_W-1:0]     slot,
    output wire [4:0]            tag_len,
    output wire [1:0]            aad_code,
    output reg  [7:0]            err,
    output wire                  is_ccm,
    output wire                  has_data,
    output wire                  no_payload,
    output wire [LEN_W:0]        aad_steps,
    output wire [LEN_W:0]        aad_beats,
    output wire [LEN_W:0]        pay_beats,
    output wire [LEN_W:0]        aad_len,
    output wire [LEN_W:0]        pay_len,
    output wire [127:0]          chain_init,
    output wire [127:0]          counter_init,
    output wire [127:0]          iv,
    output wire [79:0]           aad_carry,
    output wire [127:0]          recv_tag
);
    // op and error codes, command beat layout (generated from data/mode_engine.yaml)
    `include "aes_mode_if.vh"

    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, aes_mode_cmd_decode_SLOT_W_not_1_to_8,
                     "aes_mode_cmd_decode: SLOT_W must be 1 .. 8")
        `AESIP_CHECK(BUF_AW >= 1, aes_mode_cmd_decode_BUF_AW_below_1,
                     "aes_mode_cmd_decode: BUF_AW must be >= 1")
        `AESIP_CHECK(LEN_W >= BUF_AW + 4 && LEN_W <= 61, aes_mode_cmd_decode_LEN_W_out_of_range,
                     "aes_mode_cmd_decode: LEN_W must be BUF_AW + 4 .. 61")
        `AESIP_CHECK(DEC_OPS == 0 || DEC_OPS == 1, aes_mode_cmd_decode_DEC_OPS_not_0_or_1,
                     "aes_mode_cmd_decode: DEC_OPS must be 0 or 1")
    endgenerate

    localparam integer BEAT_BYTES_LOG2 = 4;     // 16-byte beats and blocks

    // reverse_bytes, low_bytes_mask (byte helpers shared with aes_mode_lane)
    `include "aes_mode_func.vh"

    // ---------------------------------------------------------------- fields
    wire [7:0]   slot_field = cmd[CMD_SLOT_LSB +: CMD_SLOT_W];
    wire [3:0]   nonce_len  = cmd[CMD_NONCE_LEN_LSB +: CMD_NONCE_LEN_W];
    wire [63:0]  aad_len64  = cmd[CMD_AAD_LEN_LSB +: CMD_AAD_LEN_W];
    wire [63:0]  pay_len64  = cmd[CMD_PAYLOAD_LEN_LSB +: CMD_PAYLOAD_LEN_W];
    assign op       = cmd[CMD_OP_LSB +: CMD_OP_W];
    assign cut      = cmd[CMD_CUT_LSB];
    assign tag_beat = cmd[CMD_TAG_BEAT_LSB];
    assign slot     = slot_field[SLOT_W-1:0];
    assign tag_len  = cmd[CMD_TAG_LEN_LSB +: CMD_TAG_LEN_W];
    assign iv       = cmd[CMD_IV_LSB +: CMD_IV_W];
    assign recv_tag = cmd[CMD_TAG_LSB +: CMD_TAG_W];

    // ---------------------------------------------------------------- checks
    assign is_ccm = (op == OP_CCM_ENC) || (op == OP_CCM_DEC);
    wire [3:0] len_field_bytes = 4'd15 - nonce_len;            // L
    // legal values: generated from data/mode_engine.yaml (tag_len 0 = CCM* encryption only)
    wire nonce_ok = CMD_NONCE_LEN_LEGAL[nonce_len];
    wire tag_ok   = CMD_TAG_LEN_LEGAL[tag_len];
    wire mac_less = (tag_len == 5'd0);    // CCM* M = 0: nothing is buffered for verification
    // payload must fit in the L-byte length field: plen < 2^(8L); L >= 8 always fits
    wire pay_fits_field = (len_field_bytes >= 4'd8) ? 1'b1 :
                          ((pay_len64 >> {len_field_bytes[2:0], 3'b000}) == 64'd0);
    wire len_fit  = ((aad_len64 >> LEN_W) == 64'd0) && ((pay_len64 >> LEN_W) == 64'd0);
    wire whole_blocks = (pay_len64[3:0] == 4'd0);
    wire slot_ok  = ((slot_field >> SLOT_W) == 8'd0) && key_usable[slot];
    assign has_data   = (aad_len64 != 64'd0) || (pay_len64 != 64'd0) || tag_beat;
    assign no_payload = (pay_len64 == 64'd0);
    wire [LEN_W:0] buffer_bytes = (1 << (BUF_AW + BEAT_BYTES_LOG2));

    always @(*) begin
        err = ERR_OK;
        if (op > OP_CCM_DEC || (cmd & CMD_RSVD_MASK) != {CMD_W{1'b0}} || (cut && op != OP_CCM_DEC)
            || (tag_beat && (op != OP_CCM_DEC || mac_less))
            || (DEC_OPS == 0 && (op == OP_ECB_DEC || op == OP_CBC_DEC)))
            err = ERR_OP;
        else if (is_ccm && !nonce_ok)
            err = ERR_NONCE;
        else if (is_ccm && !tag_ok)
            err = ERR_TAG_LEN;
        else if (!len_fit || (is_ccm && !pay_fits_field) || (!is_ccm && aad_len64 != 64'd0)
                 || ((op != OP_CTR) && !is_ccm && !whole_blocks))
            err = ERR_LENGTH;
        else if (op == OP_CCM_DEC && !cut && !mac_less && ({1'b0, pay_len64[LEN_W-1:0]} > buffer_bytes))
            err = ERR_BUFFER;
        else if (!slot_ok)
            err = ERR_KEY;
    end

    // ---------------------------------------------------------------- CCM formatting
    // nonce bytes 0..n-1 only
    /* verilator lint_off UNUSEDSIGNAL */
    wire [127:0] nonce = iv & low_bytes_mask({1'b0, nonce_len});   // <= 13 bytes when legal: byte 15 unused
    /* verilator lint_on UNUSEDSIGNAL */
    wire [7:0]   flags = {1'b0, (aad_len64 != 64'd0), tag_len[3:1] - 3'd1, len_field_bytes[2:0] - 3'd1};
    wire [127:0] b0    = {nonce[119:0], flags} | reverse_bytes({64'd0, pay_len64});
    // Ctr0 (counter field 0), or Ctr1 for CCM* M = 0 (the counter's last byte is byte 15)
    wire [127:0] ctr0  = {mac_less ? 8'd1 : 8'd0, nonce[111:0], 5'd0, len_field_bytes[2:0] - 3'd1};
    assign chain_init   = ((op == OP_CBC_ENC) || (op == OP_CBC_MAC)) ? iv :
                          ((is_ccm && !mac_less) ? b0 : 128'd0);
    assign counter_init = is_ccm ? ctr0 : iv;

    // AAD length encoding (SP 800-38C A.2.2): 2, 6 or 10 bytes
    assign aad_code = (aad_len64 < 64'hff00) ? 2'd0 : (aad_len64[63:32] == 32'd0) ? 2'd1 : 2'd2;
    wire [4:0] aad_code_bytes = (aad_code == 2'd0) ? 5'd2 : (aad_code == 2'd1) ? 5'd6 : 5'd10;
    // length-encoding bytes placed in the top s lanes of the carry register
    assign aad_carry = (aad_code == 2'd0) ? {aad_len64[7:0], aad_len64[15:8], 64'd0} :
                       (aad_code == 2'd1) ? {aad_len64[7:0], aad_len64[15:8], aad_len64[23:16], aad_len64[31:24],
                                             8'hfe, 8'hff, 32'd0} :
                       {aad_len64[7:0], aad_len64[15:8], aad_len64[23:16], aad_len64[31:24], aad_len64[39:32],
                        aad_len64[47:40], aad_len64[55:48], aad_len64[63:56], 8'hff, 8'hff};

    // ---------------------------------------------------------------- counts
    assign aad_len   = {1'b0, aad_len64[LEN_W-1:0]};
    assign pay_len   = {1'b0, pay_len64[LEN_W-1:0]};
    assign aad_beats = (aad_len + 15) >> BEAT_BYTES_LOG2;
    assign pay_beats = (pay_len + 15) >> BEAT_BYTES_LOG2;
    assign aad_steps = (aad_len64 == 64'd0) ? {(LEN_W+1){1'b0}} :
                       ((aad_len + {{(LEN_W-4){1'b0}}, aad_code_bytes} + 15) >> BEAT_BYTES_LOG2);
endmodule
`default_nettype wire
