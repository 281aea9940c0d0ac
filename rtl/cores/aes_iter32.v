// SPDX-License-Identifier: Apache-2.0
// aes_iter32: compact AES-128/192/256 encrypt/decrypt core with a 32-bit datapath.
//
// One state column per clock: 4 cycles for the initial AddRoundKey plus 4 cycles per
// round, so 4*(Nr+1) = 44 / 52 / 60 cycles per block, back to back, in both directions.
// Encryption and decryption (direct inverse cipher, FIPS-197 5.3) share one datapath:
// 4 S-boxes (forward/inverse), one (Inv)MixColumns, one round-key XOR. The key schedule
// runs on the fly, one word per cycle, forward for encryption and backward for
// decryption, with its own 4 forward S-boxes (the T term of aes_ks_t); Rcon is
// multiplied by {02} forward and divided by {02} backward. Per key slot a 32-bit LUT RAM
// keeps the first and the last Nk schedule words (written once, at key load), so no
// block ever waits for a key expansion. See docs/iter32.md for the full description.
//
// Parameters
//   SBOX_IMPL : 0 = 256-entry table S-boxes, 1 = composite-field S-boxes (aes_sbox)
//   SLOT_W    : key-slot index width (>= 1); 2**SLOT_W key slots
//   TAG_W     : width of the tag carried with every block (>= 1)
// Ports (common core interface, docs/cores.md)
//   clk, rst        : clock, synchronous active-high reset (clears keys, state, output)
//   zeroize         : one-cycle pulse: invalidates every slot, clears all key material
//                     and the state; a block in flight (or accepted in that cycle)
//                     finishes on time with err = 1; a finished result still waiting
//                     in the output register is kept
//   key_valid/ready : key-load handshake; key_slot, key_bytes (16/24/32 legal),
//                     key_data (byte n at [8n+7:8n])
//   Left behind: when a block finishes, the state rows, the input block and the
//   key-schedule window are cleared; the output register is cleared when its result
//   is taken. Between blocks only the key store (and its read register mq, part of
//   the LUT RAM / block RAM) holds key material.
//   s_axis_*        : input block; tuser = {tag, slot, dec}
//   m_axis_*        : output block; tuser = {tag, err}; tdata all zero when err = 1
// Timing (cycle = clock period; "edge" = rising edge)
//   * A block transferred at edge E produces its output valid right after edge
//     E + 4*(Nr+1) (latency 44/52/60). Blocks on an invalid slot (err) use the
//     AES-128 timing (44). s_axis_tready is high when the core is idle and in the
//     last cycle of a block, so blocks stream at one per 4*(Nr+1) cycles.
//   * The output register is held until accepted; the next block runs meanwhile and
//     waits (all state frozen) at the start of its last round only if the previous
//     output has still not been taken.
//   * Key load: key_ready is high when no block is being processed, no key is being
//     expanded and the key store is not being scrubbed. A legal key is expanded in
//     4*(Nr+1) cycles after the transfer edge (key_ready and s_axis_tready low);
//     an illegal length only invalidates the slot (key_ready stays high). A pending
//     key load has priority over a pending block. After rst or zeroize the key store
//     (LUT RAM) is overwritten with zeros in 16*2**SLOT_W+1 cycles (key_ready low).
`timescale 1ns / 1ps
`default_nettype none
module aes_iter32 #(
    parameter SBOX_IMPL = 0,
    parameter SLOT_W    = 1,
    parameter TAG_W     = 8
) (
    input  wire                    clk,
    input  wire                    rst,
    input  wire                    zeroize,
    input  wire                    key_valid,
    output wire                    key_ready,
    input  wire [SLOT_W-1:0]       key_slot,
    input  wire [5:0]              key_bytes,
    input  wire [255:0]            key_data,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire [127:0]            s_axis_tdata,
    input  wire [TAG_W+SLOT_W:0]   s_axis_tuser,
    output reg                     m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire [127:0]            m_axis_tdata,
    output wire [TAG_W:0]          m_axis_tuser
);
    localparam NSLOT = 1 << SLOT_W;
    localparam AW    = SLOT_W + 4;          // key-store address: {slot, half, index}

    function automatic [7:0] xt;            // multiply by {02}
        input [7:0] a;
        xt = {a[6:0], 1'b0} ^ (a[7] ? 8'h1b : 8'h00);
    endfunction
    function automatic [7:0] xd;            // divide by {02}
        input [7:0] a;
        xd = a[0] ? ({1'b0, a[7:1]} ^ 8'h8d) : {1'b0, a[7:1]};
    endfunction

    // ------------------------------------------------------------------ registers
    reg              blk;        // a block is being processed
    reg              exp;        // a key is being expanded
    reg              scrub;      // the key store is being overwritten with zeros
    reg  [AW:0]      scnt;       // scrub step: addresses 0 .. 16*2**SLOT_W-1, then 0 again
    reg  [5:0]       j;          // current word index: round = j[5:2], column step = j[1:0]
    reg  [5:0]       rem;        // 4*Nr+3 - j
    reg  [1:0]       sz;         // key size of the current block/expansion (0,1,2)
    reg              dec;        // current block decrypts (0 during expansion)
    reg  [SLOT_W-1:0] slot;      // slot of the current block/expansion
    reg  [TAG_W-1:0] tag;
    reg              err;
    reg  [127:0]     in_blk;     // input block (read only during the initial AddRoundKey)
    reg  [NSLOT-1:0] vld;        // per-slot key valid
    reg  [2*NSLOT-1:0] ssz;      // per-slot key size
    reg  [223:0]     kreg;       // key words 1..7 during expansion
    reg  [223:0]     win;        // key-schedule window: word i-1 = W[i] = u[j-8+i], i = 1..7
    reg  [31:0]      kc;         // computed (or, while expanding, loaded) schedule word u[j]
    reg  [31:0]      mq;         // key-store read register (synchronous read): u[j] if kq
    reg              kq;         // u[j] is a stored word: take it from mq
    reg  [2:0]       kpos;       // index mod Nk of the word computed this cycle
    reg  [7:0]       rcon;
    // state delay lines: byte i of row r holds the column produced (6 - p) cycles ago,
    // p = position; row 0 keeps positions 3..6, row r > 0 keeps positions r-1..6
    reg  [31:0]      row0;
    reg  [55:0]      row1;
    reg  [47:0]      row2;
    reg  [39:0]      row3;
    reg  [31:0]      oc0, oc1, oc2, oc3;   // output register, one word per column
    reg  [TAG_W-1:0] out_tag;
    reg              out_err;
    reg  [31:0]      kmem [0:(16 << SLOT_W) - 1];  // key store (LUT RAM)

    // ------------------------------------------------------------------ control
    wire [1:0]  k     = j[1:0];
    wire        ark   = (j[5:2] == 4'd0);          // initial AddRoundKey
    wire        fin   = (rem[5:2] == 4'd0);        // last round
    wire        stall = blk && (rem == 6'd3) && m_axis_tvalid && !m_axis_tready;
    wire        adv   = !stall;
    wire        last  = blk && (rem == 6'd0);
    wire        upd   = (blk || exp) && adv;
    wire        run   = upd && !err;                // err blocks leave state and schedule alone
    wire        can_start = !rst && !exp && (!blk || last);
    assign key_ready     = can_start && !scrub && !zeroize;
    assign s_axis_tready = can_start && !(key_valid && key_ready);
    wire        k_go  = key_valid && key_ready;
    wire        s_go  = s_axis_tvalid && s_axis_tready;

    wire              s_dec  = s_axis_tuser[0];
    wire [SLOT_W-1:0] s_slot = s_axis_tuser[SLOT_W:1];
    wire [TAG_W-1:0]  s_tag  = s_axis_tuser[TAG_W+SLOT_W:SLOT_W+1];
    wire              s_ok   = vld[s_slot] && !zeroize;   // else err (AES-128 timing)
    wire [1:0]        s_sz   = s_ok ? ssz[2*s_slot +: 2] : 2'd0;

    wire       k_ok;
    wire [1:0] k_sz;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [3:0] k_nr;
    /* verilator lint_on UNUSEDSIGNAL */
    aes_keylen u_klen (.key_bytes(key_bytes), .ok(k_ok), .size(k_sz), .nr(k_nr));

    function automatic [5:0] last_idx;      // 4*Nr+3
        input [1:0] s;
        last_idx = (s == 2'd0) ? 6'd43 : (s == 2'd1) ? 6'd51 : 6'd59;
    endfunction

    // ------------------------------------------------------------------ key schedule
    wire [2:0]  nkm1   = (sz == 2'd0) ? 3'd3 : (sz == 2'd1) ? 3'd5 : 3'd7;   // Nk-1
    wire [31:0] kcur   = kq ? mq : kc;                                      // W[8] = u[j]
    wire [31:0] w_old  = (sz == 2'd0) ? win[159:128] : (sz == 2'd1) ? win[95:64] : win[31:0];   // W[9-Nk]
    wire [31:0] w_bwd  = (sz == 2'd0) ? win[191:160] : (sz == 2'd1) ? win[127:96] : win[63:32]; // W[10-Nk]
    wire [31:0] t_in   = dec ? w_bwd : kcur;
    wire [1:0]  kmode  = (kpos == 3'd0) ? 2'd1 : ((sz == 2'd2) && (kpos == 3'd4)) ? 2'd2 : 2'd0;
    // T of the key schedule, as aes_ks_t: SubWord(RotWord(w)) ^ Rcon, SubWord(w) or w;
    // here RotWord is applied after SubWord (they commute), which saves the input mux
    wire [31:0] t_sub;
    aes_subword #(.IMPL(SBOX_IMPL), .DIR(0)) u_tsub (.in(t_in), .inv(1'b0), .out(t_sub));
    wire [31:0] t_out  = (kmode == 2'd1) ? ({t_sub[7:0], t_sub[31:8]} ^ {24'd0, rcon}) :
                         (kmode == 2'd2) ? t_sub : t_in;
    wire [31:0] w_comp = w_old ^ t_out;
    wire        nxt_ld = (j < {3'd0, nkm1});       // u[j+1] is a stored/key word
    wire [2:0]  jn     = j[2:0] + 3'd1;
    wire [255:0] kreg_w = {kreg, 32'd0};
    wire [31:0] kword  = kreg_w[32*jn +: 32];         // expansion: key word j+1 (1..7)
    wire [7:0]  rcon_bwd0 = (s_sz == 2'd0) ? 8'h36 : (s_sz == 2'd1) ? 8'h80 : 8'h40;

    // key store: one address for the write and the synchronous read (LUT RAM on
    // 7-series/ECP5, block RAM on iCE40); the read register mq has no reset so that it
    // can be the RAM's own output register: it is never selected for an err block or
    // while scrubbing, and the last scrub step leaves it at zero
    wire          wr_lo  = (j <= {3'd0, nkm1});  // expansion: u[j] is w[0..Nk-1]
    wire          wr_hi  = (rem <= {3'd0, nkm1}); // expansion: u[j] is a final word
    wire [AW-1:0] maddr  = scrub ? scnt[AW-1:0] :
                           exp   ? {slot, !wr_lo, wr_lo ? j[2:0] : rem[2:0]} :
                           s_go  ? {s_slot, s_dec, 3'd0} : {slot, dec, jn};
    wire          mwe    = scrub || (exp && (wr_lo || wr_hi));
    always @(posedge clk) begin
        if (mwe) kmem[maddr] <= kcur;
        mq <= kmem[maddr];
    end

    // ------------------------------------------------------------------ datapath
    // (Inv)ShiftRows by tap selection: row r reads position 3+r while k+r < 4, else r-1
    wire [31:0] x = {(k == 2'd0) ? row3[39:32] : row3[7:0],
                     (k[1] == 1'b0) ? row2[39:32] : row2[7:0],
                     (k != 2'd3) ? row1[39:32] : row1[7:0],
                     row0[7:0]};
    wire [31:0] y;                                      // (Inv)SubBytes
    aes_subword #(.IMPL(SBOX_IMPL), .DIR(2)) u_sub (.in(x), .inv(dec), .out(y));
    wire [1:0]  icol   = k ^ {dec, dec};              // column index in the block
    wire [31:0] in_col = in_blk[32*icol +: 32];
    wire [31:0] a      = ark ? in_col : (dec ? (y ^ kcur) : y);
    wire [31:0] mc;
    aes_mixcolumn #(.DIR(2)) u_mc (.in(a), .inv(dec), .out(mc));
    wire [31:0] mm     = (ark || fin) ? a : mc;
    wire [31:0] d      = (dec && !ark) ? mm : (mm ^ kcur);

    wire        owe    = blk && fin && adv;
    wire        oerr   = err || zeroize;
    wire        oclr   = zeroize && !m_axis_tvalid;   // never clear a finished, pending result
    wire        otake  = m_axis_tvalid && m_axis_tready;  // the result leaves: clear its copy

    always @(posedge clk) begin
        // ---------------- sequencer
        if (rst) begin
            blk <= 1'b0; exp <= 1'b0; j <= 6'd0; rem <= 6'd0; sz <= 2'd0; dec <= 1'b0;
            slot <= {SLOT_W{1'b0}}; tag <= {TAG_W{1'b0}}; err <= 1'b0;
            kpos <= 3'd0; rcon <= 8'h00;
        end else begin
            if (upd) begin
                j   <= j + 6'd1;
                rem <= rem - 6'd1;
                if (rem == 6'd0) begin
                    blk <= 1'b0;
                    exp <= 1'b0;
                end
                if (dec) kpos <= (kpos == 3'd0) ? nkm1 : kpos - 3'd1;
                else     kpos <= (kpos == nkm1) ? 3'd0 : kpos + 3'd1;
                if (!nxt_ld && kmode == 2'd1) rcon <= dec ? xd(rcon) : xt(rcon);
            end
            if (zeroize) begin
                exp <= 1'b0;
                err <= 1'b1;
            end
            if (s_go) begin
                blk <= 1'b1; j <= 6'd0; rem <= last_idx(s_sz); sz <= s_sz; dec <= s_dec;
                slot <= s_slot; tag <= s_tag; err <= !s_ok;
                kpos <= s_dec ? 3'd2 : 3'd1; rcon <= s_dec ? rcon_bwd0 : 8'h01;
            end
            if (k_go) begin
                blk <= 1'b0; exp <= k_ok; j <= 6'd0; rem <= last_idx(k_sz); sz <= k_sz;
                dec <= 1'b0; slot <= key_slot; kpos <= 3'd1; rcon <= 8'h01; err <= 1'b0;
            end
        end
        // ---------------- slot flags
        if (rst || zeroize) begin
            vld <= {NSLOT{1'b0}};
            ssz <= {2*NSLOT{1'b0}};
        end else if (k_go) begin
            vld[key_slot] <= 1'b0;
        end else if (exp && upd && rem == 6'd0) begin
            vld[slot] <= 1'b1;
            ssz[2*slot +: 2] <= sz;
        end
        // ---------------- key store scrub
        if (rst || zeroize) begin
            scrub <= 1'b1;
            scnt  <= {(AW+1){1'b0}};
        end else if (scrub) begin
            // the extra last step re-reads the zeroed address 0, so that mq ends at zero
            if (scnt[AW]) scrub <= 1'b0;
            else          scnt  <= scnt + 1'b1;
        end
        // ---------------- key material
        if (rst || zeroize || (exp && upd && rem == 6'd0)) kreg <= 224'd0;
        else if (k_go) kreg <= key_data[255:32];
        if (rst || zeroize || scrub || (last && !k_go) || (exp && upd && rem == 6'd0)) begin
            win <= 224'd0;                      // no round-key words left after a block
            kc  <= 32'd0;                       // or an expansion
        end else if (k_go) begin
            kc  <= key_data[31:0];
        end else if (run) begin
            win <= {kcur, win[223:32]};
            kc  <= nxt_ld ? kword : w_comp;     // kword: expansion only (blocks use mq)
        end
        if (rst || zeroize) kq <= 1'b0;
        else if (s_go)      kq <= s_ok;         // u[0] is read at the transfer edge
        else if (k_go)      kq <= 1'b0;
        else if (upd)       kq <= blk && nxt_ld && !err;
        // ---------------- state
        if (rst || zeroize) begin
            in_blk <= 128'd0;
        end else if (s_go) begin
            in_blk <= s_axis_tdata;
        end else if (last) begin
            in_blk <= 128'd0;                   // the input block is not kept after its block
        end
        if (rst || zeroize || last) begin
            row0 <= 32'd0; row1 <= 56'd0; row2 <= 48'd0; row3 <= 40'd0;
        end else if (blk && run) begin
            row0 <= {d[7:0],   row0[31:8]};
            row1 <= {d[15:8],  row1[55:8]};
            row2 <= {d[23:16], row2[47:8]};
            row3 <= {d[31:24], row3[39:8]};
        end
        // ---------------- output
        // (a column is also cleared when the result is taken, unless it is being written)
        if (rst || oclr || (owe && icol == 2'd0 && oerr)) oc0 <= 32'd0;
        else if (owe && icol == 2'd0) oc0 <= d;
        else if (otake) oc0 <= 32'd0;
        if (rst || oclr || (owe && icol == 2'd1 && oerr)) oc1 <= 32'd0;
        else if (owe && icol == 2'd1) oc1 <= d;
        else if (otake) oc1 <= 32'd0;
        if (rst || oclr || (owe && icol == 2'd2 && oerr)) oc2 <= 32'd0;
        else if (owe && icol == 2'd2) oc2 <= d;
        else if (otake) oc2 <= 32'd0;
        if (rst || oclr || (owe && icol == 2'd3 && oerr)) oc3 <= 32'd0;
        else if (owe && icol == 2'd3) oc3 <= d;
        else if (otake) oc3 <= 32'd0;
        if (rst) begin
            m_axis_tvalid <= 1'b0;
            out_tag <= {TAG_W{1'b0}};
            out_err <= 1'b0;
        end else if (last) begin
            m_axis_tvalid <= 1'b1;
            out_tag <= tag;
            out_err <= oerr;
        end else if (m_axis_tready) begin
            m_axis_tvalid <= 1'b0;
        end
    end
    assign m_axis_tdata = {oc3, oc2, oc1, oc0};
    assign m_axis_tuser = {out_tag, out_err};
`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // Common block-core interface properties (formal/aes_core_props.v): stream rules,
    // one output per accepted block in order with its tag, err => zero data, bounded
    // response. Proven by formal/aes_iter32.sby (docs/formal.md). `define F_AES_ITER32 when
    // this core is the top of the proof (its inputs are then assumed, else asserted).
    // CAP 2: block in progress and output register; LAT: 4 (Nr + 1) + 1 (at most 61).
`ifdef F_AES_ITER32
    localparam F_TOP = 1;
`else
    localparam F_TOP = 0;
`endif
    aes_core_props #(.TAG_W(TAG_W), .SLOT_W(SLOT_W), .CAP(2), .LAT(61), .ASSUME_IN(F_TOP)) f_core (
        .clk(clk), .rst(rst), .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
        .key_bytes(key_bytes), .key_data(key_data),
        .s_valid(s_axis_tvalid), .s_ready(s_axis_tready), .s_data(s_axis_tdata), .s_user(s_axis_tuser),
        .m_valid(m_axis_tvalid), .m_ready(m_axis_tready), .m_data(m_axis_tdata), .m_user(m_axis_tuser));
`endif
endmodule
`default_nettype wire
