// SPDX-License-Identifier: Apache-2.0
// axis_realign: AXI4-Stream byte realigner (packer) for the protocol front ends
// (docs/wimax.md, "The realigner").
//
// Every input beat carries a contiguous run of bytes anywhere in the beat: its tkeep is a
// run of ones (lanes a .. b-1, possibly empty: tkeep = 0). The output carries the same
// bytes, in order, packed from lane 0: every output beat of a frame is full except the
// last one (tlast), whose tkeep is a run of the low lanes. Lanes without tkeep are 0.
// A front end uses it to drop bytes (present a beat with the lanes to drop masked off,
// e.g. a header in front of an engine segment), to insert bytes (present a prefix as a
// beat of its own: header, PN) and to append bytes (a suffix beat: an ICV), in any mix,
// at one beat per clock.
//
// Frames: s_tlast ends the output frame; an input frame that carries no byte at all
// produces no output beat. s_tuser is ORed over the input frame and presented on its last
// output beat (m_tuser; 0 on the others): a "this frame failed" flag.
//
// Timing: one input beat per clock while m_tready is high. The first output beat of a
// frame leaves once more than BYTES bytes (or the input's tlast) have arrived, so a frame
// whose input is aligned costs one beat of latency; an input tlast beat that leaves more
// than BYTES bytes takes one extra clock (s_tready low for one cycle) to flush the rest.
// s_tready = (!m_tvalid || m_tready) && !flushing: a combinational path from m_tready.
// With IN_REG = 1 or 2 every input beat first goes through a two-entry input register (skid
// register): s_tready is then a register (high while its second entry is free), the
// packing logic starts from registered inputs, and every beat takes one clock more; the
// rate stays one beat per clock.
// busy is high while any byte of a frame is inside (input register, carry or output
// register).
//
// Parameters
//   BYTES  : bytes per beat, 2 .. 64 (default 16: 128-bit beats); any value in the range
//            (not only powers of 2)
//   IN_REG : 0 (default), 1 or 2: the two-entry input register above (one clock of
//            latency; s_tready from a register, nothing combinational from m_tready to
//            s_tready). 1: the register holds the beat as it came, the packing logic
//            normalizes it (moves its run down to lane 0) behind the register; 2: the beat
//            is normalized in front of the register, which holds it with its byte count
//            (the normalizing shifter then sits on the input path instead of between the
//            register and the packing logic: for an input from registers)
// Ports
//   clk, rst                           : clock, synchronous active-high reset (drops a
//                                        frame in progress)
//   s_tvalid/tready/tdata/tkeep/tlast/tuser : input (tkeep a contiguous run, see above)
//   m_tvalid/tready/tdata/tkeep/tlast/tuser : packed output
//   busy                               : bytes of a frame are held (input register,
//                                        carry or output)
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module axis_realign #(
    parameter BYTES = 16,
    parameter IN_REG = 0
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               s_tvalid,
    output wire               s_tready,
    input  wire [8*BYTES-1:0] s_tdata,
    input  wire [BYTES-1:0]   s_tkeep,
    input  wire               s_tlast,
    input  wire               s_tuser,
    output reg                m_tvalid,
    input  wire               m_tready,
    output reg  [8*BYTES-1:0] m_tdata,
    output reg  [BYTES-1:0]   m_tkeep,
    output reg                m_tlast,
    output reg                m_tuser,
    output wire               busy
);
    generate
        `AESIP_CHECK(BYTES >= 2 && BYTES <= 64, axis_realign_BYTES_not_2_to_64,
                     "axis_realign: BYTES must be 2 .. 64")
        `AESIP_CHECK(IN_REG >= 0 && IN_REG <= 2, axis_realign_IN_REG_not_0_to_2,
                     "axis_realign: IN_REG must be 0, 1 or 2")
    endgenerate

    localparam integer W8 = 8 * BYTES;
    localparam integer CW = $clog2(BYTES + 1);   // counts 0 .. BYTES
    localparam integer W = 8 * BYTES;
    localparam [CW:0] FULL = BYTES[CW:0];

    // ---------------------------------------------------------------- input normalization
    // A beat's byte count, and its kept run (lanes a .. b-1, cnt of them) moved down to
    // lane 0, lanes above it zeroed.
    function [CW-1:0] count(input [BYTES-1:0] k);
        integer j;
        begin
            count = {CW{1'b0}};
            for (j = 0; j < BYTES; j = j + 1)
                count = count + {{(CW-1){1'b0}}, k[j]};
        end
    endfunction
    function [W-1:0] normalize(input [W-1:0] d, input [BYTES-1:0] k, input [CW-1:0] cnt);
        integer j;
        reg [CW-1:0] lo;
        reg [W-1:0]  mask;
        begin
            lo = {CW{1'b0}};
            for (j = BYTES - 1; j >= 0; j = j - 1)
                if (k[j]) lo = j[CW-1:0];
            for (j = 0; j < BYTES; j = j + 1)
                mask[8*j +: 8] = (j < cnt) ? 8'hff : 8'h00;
            normalize = (d >> {lo, 3'b000}) & mask;
        end
    endfunction
    // The packing logic's input: a normalized beat (i_norm: bytes from lane 0, i_n of
    // them), straight from the input (IN_REG = 0), normalized behind the input register
    // (1) or in front of it (2: the register holds the normalized beat and its count).
    wire             i_tvalid, i_tready;
    wire [W-1:0]     i_norm;
    wire [CW-1:0]    i_n;
    wire             i_tlast, i_tuser;
    wire             in_busy;
    generate
        if (IN_REG == 0) begin : g_direct
            assign i_tvalid = s_tvalid;
            assign s_tready = i_tready;
            assign i_n = count(s_tkeep);
            assign i_norm = normalize(s_tdata, s_tkeep, i_n);
            assign i_tlast = s_tlast;
            assign i_tuser = s_tuser;
            assign in_busy = 1'b0;
        end else begin : g_in_reg
            // two entries: h (head, presented to the packing logic) and k (taken while h
            // could not move on); s_tready = k free. An entry holds a raw beat (data and
            // tkeep, IN_REG = 1) or a normalized one (data and its count, IN_REG = 2):
            // {data, KW bits of tkeep or count, tlast, tuser}
            localparam integer KW = (IN_REG == 1) ? BYTES : CW;
            localparam integer PW = W8 + KW + 2;
            wire [PW-1:0] s_p;
            if (IN_REG == 1) begin : g_raw
                assign s_p = {s_tdata, s_tkeep, s_tlast, s_tuser};
            end else begin : g_norm
                wire [CW-1:0] s_n = count(s_tkeep);
                assign s_p = {normalize(s_tdata, s_tkeep, s_n), s_n, s_tlast, s_tuser};
            end
            reg           h_v, k_v;
            reg [PW-1:0]  h_p, k_p;
            wire s_take = s_tvalid && !k_v;
            wire h_take = h_v && i_tready;
            always @(posedge clk) begin
                if (rst) begin
                    h_v <= 1'b0;
                    k_v <= 1'b0;
                    h_p <= {PW{1'b0}};
                    k_p <= {PW{1'b0}};
                end else begin
                    if (!h_v || h_take) begin
                        // the head is free at the clock's end: from k, else from the input
                        if (k_v) begin
                            h_v <= 1'b1;
                            h_p <= k_p;
                            k_v <= 1'b0;
                        end else begin
                            h_v <= s_take;
                            if (s_take) h_p <= s_p;
                        end
                    end else if (s_take) begin
                        // the head stays: the beat waits in k (k is free: s_take needs it)
                        k_v <= 1'b1;
                        k_p <= s_p;
                    end
                end
            end
            wire [W8-1:0]    h_d = h_p[PW-1 -: W8];
            wire [KW-1:0]    h_k = h_p[KW+1:2];
            assign s_tready = !k_v;
            assign i_tvalid = h_v;
            assign i_tlast = h_p[1];
            assign i_tuser = h_p[0];
            assign in_busy = h_v || k_v;
            if (IN_REG == 1) begin : g_raw_out
                assign i_n = count(h_k);
                assign i_norm = normalize(h_d, h_k, i_n);
            end else begin : g_norm_out
                assign i_norm = h_d;
                assign i_n = h_k;
            end
        end
    endgenerate

    reg [W-1:0]  carry;      // bytes 0 .. ccnt-1 of the frame not yet sent; above: 0
    reg [CW-1:0] ccnt;       // 0 .. BYTES
    reg          flush;      // a tlast beat left bytes in carry: send them next
    reg          user_acc;   // OR of i_tuser over the frame so far

    wire [W-1:0]   norm = i_norm;
    wire [CW-1:0]  n_in = i_n;
    wire [2*W-1:0] comb = {{W{1'b0}}, carry} | ({{W{1'b0}}, norm} << {ccnt, 3'b000});
    wire [CW:0]    total = {1'b0, ccnt} + {1'b0, n_in};
    wire [CW:0]    rest_w = total - FULL;   // used only when total > BYTES: 1 .. BYTES
    wire [CW-1:0]  rest = rest_w[CW-1:0];
    wire           unused_rest = rest_w[CW];

    function [BYTES-1:0] low_lanes(input [CW:0] n);
        integer k;
        begin
            for (k = 0; k < BYTES; k = k + 1)
                low_lanes[k] = (k < n);
        end
    endfunction

    wire out_free = !m_tvalid || m_tready;
    assign i_tready = out_free && !flush;
    wire take = i_tvalid && i_tready;
    assign busy = in_busy || m_tvalid || flush || (ccnt != {CW{1'b0}});

    always @(posedge clk) begin
        if (rst) begin
            m_tvalid <= 1'b0;
            m_tdata  <= {W{1'b0}};
            m_tkeep  <= {BYTES{1'b0}};
            m_tlast  <= 1'b0;
            m_tuser  <= 1'b0;
            carry    <= {W{1'b0}};
            ccnt     <= {CW{1'b0}};
            flush    <= 1'b0;
            user_acc <= 1'b0;
        end else begin
            if (m_tvalid && m_tready)
                m_tvalid <= 1'b0;
            if (flush && out_free) begin
                // the rest of a frame whose tlast beat overflowed one output beat
                m_tvalid <= 1'b1;
                m_tdata  <= carry;
                m_tkeep  <= low_lanes({1'b0, ccnt});
                m_tlast  <= 1'b1;
                m_tuser  <= user_acc;
                carry    <= {W{1'b0}};
                ccnt     <= {CW{1'b0}};
                flush    <= 1'b0;
                user_acc <= 1'b0;
            end else if (take) begin
                if (total > FULL) begin
                    // a full beat leaves; the rest stays (and is flushed after a tlast)
                    m_tvalid <= 1'b1;
                    m_tdata  <= comb[W-1:0];
                    m_tkeep  <= {BYTES{1'b1}};
                    m_tlast  <= 1'b0;
                    m_tuser  <= 1'b0;
                    carry    <= comb[2*W-1:W];
                    ccnt     <= rest;
                    flush    <= i_tlast;
                    user_acc <= user_acc | i_tuser;
                end else if (i_tlast) begin
                    // the frame ends within one beat (no beat at all for an empty frame)
                    m_tvalid <= (total != {(CW+1){1'b0}});
                    m_tdata  <= comb[W-1:0];
                    m_tkeep  <= low_lanes(total);
                    m_tlast  <= 1'b1;
                    m_tuser  <= user_acc | i_tuser;
                    carry    <= {W{1'b0}};
                    ccnt     <= {CW{1'b0}};
                    user_acc <= 1'b0;
                end else begin
                    // up to a full beat is held until more bytes or tlast arrive (a full
                    // beat too: only tlast can tell whether it is the frame's last)
                    carry    <= comb[W-1:0];
                    ccnt     <= total[CW-1:0];
                    user_acc <= user_acc | i_tuser;
                end
            end
        end
    end
endmodule
`default_nettype wire
