// SPDX-License-Identifier: Apache-2.0
// aes_iter128: AES-128/192/256 block core, one full round per clock (128-bit datapath).
//
// Common core interface: see docs/cores.md; this core's architecture and exact timing
// are in docs/iter128.md.
//
// Datapath: one 128-bit state register, 16 S-boxes (aes_sbox), four aes_mixcolumn, one
// 128-bit output register. Encryption runs the FIPS-197 cipher (SubBytes, ShiftRows,
// MixColumns, AddRoundKey); decryption the direct inverse cipher of FIPS-197 5.3
// (InvShiftRows, InvSubBytes, AddRoundKey, InvMixColumns) with the same round keys read
// in reverse order, so nothing is expanded per block. The (Inv)ShiftRows byte permutation
// is applied before the S-boxes (it commutes with them), so both directions share the
// S-boxes and the MixColumns network.
//
// Round keys: at key load aes_key_expand emits one word per clock; word w[k] is written
// to bank k mod 4 at row {slot, k div 4}. Each of the four banks is a
// 2**(SLOT_W+4) x 32 memory with one write port and two asynchronous read ports (maps
// to LUT-RAM): the round port reads round key `kidx` of the block in the state
// register, the initial port reads the first AddRoundKey key (rk[0] to encrypt,
// rk[Nr] to decrypt) of the block being accepted, so the final round of one block and
// the initial AddRoundKey of the next share a clock. After rst and after zeroize all
// rows are overwritten with zeros (2**(SLOT_W+4) clocks, key_ready low meanwhile).
//
// Parameters
//   SBOX_IMPL : 0 = table S-boxes, 1 = composite-field S-boxes (see aes_sbox)
//   SLOT_W    : key-slot index width (>= 1); the core holds 2**SLOT_W expanded keys
//   TAG_W     : width of the tag carried with every block (>= 1)
//   DIRECTION : 0 = encrypt only, 1 = decrypt only, 2 = both (default). A block asking
//               for a direction the core was not built for comes out with err = 1 and
//               zero data after the normal latency.
// Ports (docs/cores.md)
//   clk, rst          : clock; synchronous active-high reset (clears keys, state, output)
//   zeroize           : one-cycle pulse: invalidates every slot, aborts a key expansion,
//                       clears the state register and wipes the round-key memory; the block
//                       in the state register (if any) completes with err = 1, zero data
// Left behind: the state register is zero once its block has finished, and the output
//   register is zero once its result has been taken; only the round-key memory holds
//   key material between blocks.
//   key_valid/ready   : key-load handshake; key_slot, key_bytes (16/24/32, anything else
//                       invalidates the slot), key_data (byte n at [8n+7:8n])
//   s_axis_*          : input blocks; tuser = {tag, slot, dec}
//   m_axis_*          : output blocks; tuser = {tag, err}; data zero when err = 1
// Timing (E0 = rising edge that transfers a block; Nr = 10/12/14 from the slot's key size,
// 10 for a slot without a valid key)
//   E0        : state <= block ^ first round key
//   E0 + r    : round r done (r = 1 .. Nr-1)
//   E0 + Nr   : final round written to the output register; m_axis_tvalid high after it;
//               the next block may be transferred at this same edge (Nr cycles per block)
//   The final round waits while the output register holds an unaccepted block.
//   s_axis_tready = (state empty, or final-round cycle with the output register empty)
//                   and the block's slot is neither being expanded nor requested on the
//                   key port (key_valid with key_slot == block slot) in this cycle.
//   key_ready     = no expansion, no wipe, no zeroize, and the block in the state register
//                   (if any) does not use key_slot. Expansion: key_ready low for 4*Nr+4
//                   clocks after the load edge (44/52/60); blocks on that slot are accepted
//                   again from the edge after it. Illegal key_bytes: no expansion, the slot
//                   is invalid from the load edge on and key_ready stays high.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_iter128 #(
    parameter SBOX_IMPL = 0,
    parameter SLOT_W    = 1,
    parameter TAG_W     = 8,
    parameter DIRECTION = 2
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      zeroize,
    input  wire                      key_valid,
    output wire                      key_ready,
    input  wire [SLOT_W-1:0]         key_slot,
    input  wire [5:0]                key_bytes,
    input  wire [255:0]              key_data,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire [127:0]              s_axis_tdata,
    input  wire [TAG_W+SLOT_W:0]     s_axis_tuser,
    output wire                      m_axis_tvalid,
    input  wire                      m_axis_tready,
    output wire [127:0]              m_axis_tdata,
    output wire [TAG_W:0]            m_axis_tuser
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SBOX_IMPL == 0 || SBOX_IMPL == 1, aes_iter128_SBOX_IMPL_not_0_or_1,
                     "aes_iter128: SBOX_IMPL must be 0 or 1")
        `AESIP_CHECK(SLOT_W >= 1, aes_iter128_SLOT_W_below_1, "aes_iter128: SLOT_W must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, aes_iter128_TAG_W_below_1, "aes_iter128: TAG_W must be >= 1")
        `AESIP_CHECK(DIRECTION == 0 || DIRECTION == 1 || DIRECTION == 2, aes_iter128_DIRECTION_not_0_1_2,
                     "aes_iter128: DIRECTION must be 0 or 1 or 2")
    endgenerate

    localparam NSLOT  = 1 << SLOT_W;
    localparam AW     = SLOT_W + 4;          // round-key row address: {slot, round}
    localparam DEPTH  = 1 << AW;
    localparam ENC_OK = (DIRECTION != 1) ? 1'b1 : 1'b0;
    localparam DEC_OK = (DIRECTION != 0) ? 1'b1 : 1'b0;

    // ------------------------------------------------------------------ key load
    wire       kl_ok;
    wire [1:0] kl_size;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [3:0] kl_nr;                        // not needed: Nr follows from the size
    /* verilator lint_on UNUSEDSIGNAL */
    aes_keylen u_keylen (.key_bytes(key_bytes), .ok(kl_ok), .size(kl_size), .nr(kl_nr));

    reg               busy;                  // state register holds a block
    reg  [SLOT_W-1:0] cur_slot;
    reg               wipe;                  // round-key memory wipe after rst / zeroize
    reg  [AW-1:0]     wipe_addr;
    wire              kx_busy;

    assign key_ready = !kx_busy && !wipe && !zeroize && !(busy && cur_slot == key_slot);
    wire key_go = key_valid && key_ready;

    wire        kx_wv, kx_wlast;
    wire [5:0]  kx_widx;
    wire [31:0] kx_wdata;
    aes_key_expand #(.SBOX_IMPL(SBOX_IMPL)) u_kx (
        .clk(clk), .rst(rst), .zeroize(zeroize), .start(key_go && kl_ok),
        .key_data(key_data), .key_size(kl_size), .busy(kx_busy),
        .w_valid(kx_wv), .w_last(kx_wlast), .w_idx(kx_widx), .w_data(kx_wdata));

    // slot table: valid flag and key size (0/1/2) per slot
    reg [NSLOT-1:0]   slot_ok;
    reg [2*NSLOT-1:0] slot_sz;
    reg [SLOT_W-1:0]  kx_slot;               // slot being expanded
    always @(posedge clk) begin
        if (rst || zeroize) begin
            slot_ok <= {NSLOT{1'b0}};
            slot_sz <= {2*NSLOT{1'b0}};
            kx_slot <= {SLOT_W{1'b0}};
        end else begin
            if (key_go) begin
                slot_ok[key_slot]        <= 1'b0;
                slot_sz[2*key_slot +: 2] <= kl_ok ? kl_size : 2'd0;
                kx_slot                  <= key_slot;
            end
            if (kx_wlast) slot_ok[kx_slot] <= 1'b1;
        end
    end

    // wipe sequencer
    always @(posedge clk) begin
        if (rst || zeroize) begin
            wipe      <= 1'b1;
            wipe_addr <= {AW{1'b0}};
        end else if (wipe) begin
            wipe_addr <= wipe_addr + 1'b1;
            if (wipe_addr == DEPTH - 1) wipe <= 1'b0;
        end
    end

    // ------------------------------------------------------------------ round-key memory
    wire [AW-1:0]  wr_addr = wipe ? wipe_addr : {kx_slot, kx_widx[5:2]};
    wire [31:0]    wr_data = wipe ? 32'd0 : kx_wdata;
    wire [AW-1:0]  rd_addr_rnd;              // round port
    wire [AW-1:0]  rd_addr_ini;              // initial-AddRoundKey port
    wire [127:0]   rk_rnd, rk_ini;

    genvar b;
    generate
        for (b = 0; b < 4; b = b + 1) begin : g_bank
            reg [31:0] mem [0:DEPTH-1];
            wire we = wipe || (kx_wv && kx_widx[1:0] == b);
            always @(posedge clk) begin
                if (we) mem[wr_addr] <= wr_data;
            end
            assign rk_rnd[32*b +: 32] = mem[rd_addr_rnd];
            assign rk_ini[32*b +: 32] = mem[rd_addr_ini];
        end
    endgenerate

    // ------------------------------------------------------------------ block control
    wire [SLOT_W-1:0] s_slot = s_axis_tuser[SLOT_W:1];
    wire              s_dec  = s_axis_tuser[0];
    wire [TAG_W-1:0]  s_tag  = s_axis_tuser[TAG_W+SLOT_W:SLOT_W+1];
    wire              s_dec_c = (DIRECTION == 2) ? s_dec : DEC_OK;     // datapath direction
    wire [1:0]        s_sz   = slot_sz[2*s_slot +: 2];
    wire [3:0]        s_nr   = 4'd10 + {1'b0, s_sz, 1'b0};
    wire              s_err  = !slot_ok[s_slot] || (s_dec ? !DEC_OK : !ENC_OK) || zeroize;
    assign rd_addr_ini = {s_slot, s_dec_c ? s_nr : 4'd0};

    reg  [3:0]       rem;                    // rounds still to do for the block in the state
    reg  [3:0]       kidx;                   // round-key index of the next round
    reg              cur_dec;
    reg              cur_err;
    reg  [TAG_W-1:0] cur_tag;
    reg              out_valid;
    wire             last     = (rem == 4'd1);
    wire             dec_c    = (DIRECTION == 2) ? cur_dec : DEC_OK;
    wire             fin_go   = busy && last && (!out_valid || m_axis_tready);
    wire             adv      = busy && (!last || fin_go);
    assign s_axis_tready = (!busy || (last && !out_valid)) &&
                           !(kx_busy && s_slot == kx_slot) &&
                           !(key_valid && key_slot == s_slot);
    wire             acc      = s_axis_tvalid && s_axis_tready;
    assign rd_addr_rnd = {cur_slot, kidx};

    always @(posedge clk) begin
        if (rst) begin
            busy     <= 1'b0;
            rem      <= 4'd0;
            kidx     <= 4'd0;
            cur_slot <= {SLOT_W{1'b0}};
            cur_dec  <= 1'b0;
            cur_err  <= 1'b0;
            cur_tag  <= {TAG_W{1'b0}};
        end else if (acc) begin
            busy     <= 1'b1;
            rem      <= s_nr;
            kidx     <= s_dec_c ? s_nr - 4'd1 : 4'd1;
            cur_slot <= s_slot;
            cur_dec  <= s_dec;
            cur_err  <= s_err;
            cur_tag  <= s_tag;
        end else begin
            if (adv) begin
                if (last) busy <= 1'b0;
                rem  <= rem - 4'd1;
                kidx <= dec_c ? kidx - 4'd1 : kidx + 4'd1;
            end
            if (zeroize) cur_err <= 1'b1;
        end
    end

    // ------------------------------------------------------------------ round datapath
    reg  [127:0] st;
    wire [127:0] sb;
    wire [127:0] mc;
    genvar i;
    generate
        for (i = 0; i < 16; i = i + 1) begin : g_sbox
            // byte i = row i%4, column i/4; ShiftRows takes column (c+r)%4, InvShiftRows (c-r)%4
            wire [7:0] s_fwd = st[8*((i % 4) + 4*(((i / 4) + (i % 4)) % 4)) +: 8];
            wire [7:0] s_inv = st[8*((i % 4) + 4*(((i / 4) + 4 - (i % 4)) % 4)) +: 8];
            // keep_hierarchy: flattened, Yosys folds the state register into each S-box
            // table's read port and merges the neighbouring logic into the tables
            // (xc7: 7 790 LUTs / 706 FFs flattened, 2 932 / 578 with the hierarchy kept)
            (* keep_hierarchy *)
            aes_sbox #(.IMPL(SBOX_IMPL), .DIR(DIRECTION)) u_sbox (
                .in(dec_c ? s_inv : s_fwd), .inv(dec_c), .out(sb[8*i +: 8]));
        end
    endgenerate
    wire [127:0] sbk  = sb ^ rk_rnd;
    wire [127:0] mcin = dec_c ? sbk : sb;    // InvMixColumns follows AddRoundKey
    generate
        for (i = 0; i < 4; i = i + 1) begin : g_mix
            aes_mixcolumn #(.DIR(DIRECTION)) u_mix (.in(mcin[32*i +: 32]), .inv(dec_c), .out(mc[32*i +: 32]));
        end
    endgenerate
    wire [127:0] rnd_out = last ? sbk : (dec_c ? mc : mc ^ rk_rnd);

    // the state register is cleared when its block leaves it (no round state of the
    // last block stays behind after a packet)
    always @(posedge clk) begin
        if (rst || zeroize)    st <= 128'd0;
        else if (acc)          st <= s_axis_tdata ^ rk_ini;
        else if (adv && !last) st <= rnd_out;
        else if (fin_go)       st <= 128'd0;
    end

    // ------------------------------------------------------------------ output register
    reg  [127:0]     out_data;
    reg  [TAG_W-1:0] out_tag;
    reg              out_err;
    always @(posedge clk) begin
        if (rst) begin
            out_valid <= 1'b0;
            out_data  <= 128'd0;
            out_tag   <= {TAG_W{1'b0}};
            out_err   <= 1'b0;
        end else if (fin_go) begin
            out_valid <= 1'b1;
            out_data  <= cur_err ? 128'd0 : rnd_out;
            out_tag   <= cur_tag;
            out_err   <= cur_err;
        end else if (m_axis_tready) begin
            out_valid <= 1'b0;
            out_data  <= 128'd0;             // a taken result leaves no copy behind
        end
    end
    assign m_axis_tvalid = out_valid;
    assign m_axis_tdata  = out_data;
    assign m_axis_tuser  = {out_tag, out_err};
`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // Common block-core interface properties (formal/aes_core_props.v): stream rules,
    // one output per accepted block in order with its tag, err => zero data, bounded
    // response. Proven by formal/aes_iter128.sby (docs/formal.md). `define F_AES_ITER128 when
    // this core is the top of the proof (its inputs are then assumed, else asserted).
    // CAP 2: state and output register; LAT: Nr + 1 (at most 15).
`ifdef F_AES_ITER128
    localparam F_TOP = 1;
`else
    localparam F_TOP = 0;
`endif
    aes_core_props #(.TAG_W(TAG_W), .SLOT_W(SLOT_W), .CAP(2), .LAT(15), .ASSUME_IN(F_TOP)) f_core (
        .clk(clk), .rst(rst), .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
        .key_bytes(key_bytes), .key_data(key_data),
        .s_valid(s_axis_tvalid), .s_ready(s_axis_tready), .s_data(s_axis_tdata), .s_user(s_axis_tuser),
        .m_valid(m_axis_tvalid), .m_ready(m_axis_tready), .m_data(m_axis_tdata), .m_user(m_axis_tuser));
`endif
endmodule
`default_nettype wire
