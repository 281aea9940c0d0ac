// SPDX-License-Identifier: Apache-2.0
// aes_iter128: AES-128/192/256 block core, one full round per clock (128-bit datapath),
// or (ROUND_STAGES = 2) one round in two clocks with two blocks in flight.
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
// 2**(SLOT_W+4) x 32 memory with one write port and an asynchronous read port (maps
// to LUT-RAM), the round port: it reads round key `kidx` of the block in the state
// register (ROUND_STAGES = 2: of the block in S, into the register rk_m used by the
// second stage). Beside each bank, a 2**(SLOT_W+1) x 32 initial-key store holds a copy of
// each slot's rk[0] (row {slot, 0}) and rk[Nr] (row {slot, 1}), written by the same
// expansion; it is read with the slot and direction of the block being accepted (rk[0]
// to encrypt, rk[Nr] to decrypt, no key-size lookup in front of the read), so the final
// round of one block and the initial AddRoundKey of the next share a clock. After rst
// and after zeroize all rows of both are overwritten with zeros (2**(SLOT_W+4) clocks,
// key_ready low meanwhile).
//
// Parameters
//   SBOX_IMPL : 0 = table S-boxes, 1 = composite-field S-boxes (see aes_sbox)
//   SLOT_W    : key-slot index width (>= 1); the core holds 2**SLOT_W expanded keys
//   TAG_W     : width of the tag carried with every block (>= 1)
//   DIRECTION : 0 = encrypt only, 1 = decrypt only, 2 = both (default). A block asking
//               for a direction the core was not built for comes out with err = 1 and
//               zero data after the normal latency.
//   ROUND_STAGES : 1 = one round per clock (default; the core as before this parameter),
//               2 = the round is split by a register after (Inv)ShiftRows + (Inv)SubBytes
//               (MixColumns/InvMixColumns and AddRoundKey in the second clock) and two
//               independent blocks are interleaved in the two stages: Nr clocks per block
//               for a stream, latency 2 Nr + 1. Decryption stays the direct inverse cipher
//               in both stages (no equivalent-inverse key schedule). See "ROUND_STAGES = 2"
//               below and docs/iter128.md.
//   ROUNDS_PER_CLK : 1 (default) = one round per clock; 2 = two rounds per clock
//               (ROUND_STAGES = 1 only): a second round layer (16 more S-boxes, four more
//               MixColumns) follows the first inside the loop, so a block takes Nr / 2
//               clocks (5 / 6 / 7). Made for a chain of dependent blocks (CBC-MAC, CBC
//               encryption), where cycles per block, not the clock, set the throughput;
//               the clock is slower. The round keys are then held in two half-depth
//               stores (odd and even round index), one per layer. See
//               "ROUNDS_PER_CLK = 2" below and docs/iter128.md.
//   KX_EXT    : 0 (default) = the core expands its keys itself (aes_key_expand) and shows
//               the expander's output on kx_out; 1 = it has no expander and takes the
//               expansion from kx_in, the kx_out of a twin core that is given every key
//               load in the same clock (same key_valid, key_slot, key_bytes, key_data,
//               rst and zeroize, and both cores ready: the mode engines' two cores,
//               whose key port is one). See "Shared key expansion" in docs/iter128.md.
// Ports (docs/cores.md)
//   clk, rst          : clock; synchronous active-high reset (clears keys, state, output)
//   zeroize           : one-cycle pulse: invalidates every slot, aborts a key expansion,
//                       clears the state register and wipes the round-key memory; the block
//                       in the state register (if any) completes with err = 1, zero data
// Left behind: the state register (S, M) is zero once its block has finished, and the
//   output register (each output-buffer entry) is zero once its result has been taken; only the round-key memory holds
//   key material between blocks.
//   key_valid/ready   : key-load handshake; key_slot, key_bytes (16/24/32, anything else
//                       invalidates the slot), key_data (byte n at [8n+7:8n])
//   s_axis_*          : input blocks; tuser = {tag, slot, dec}
//   m_axis_*          : output blocks; tuser = {tag, err}; data zero when err = 1
//   kx_out, kx_in     : beyond the common interface: the key-expansion stream {busy,
//                       word valid, last word, word index [5:0], word [31:0]} (41 bits),
//                       kx_out from this core's expander (KX_EXT = 0) or kx_in passed
//                       through (KX_EXT = 1); kx_in is used only with KX_EXT = 1 (tie it
//                       to zero otherwise). Round keys cross it, between two cores only;
//                       its word is zero while no expansion runs (the expander clears
//                       its window with the last word and on rst / zeroize).
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
// ROUNDS_PER_CLK = 2: the timing above with Nr / 2 in place of Nr: E0 + c does rounds
//   2c - 1 and 2c (c = 1 .. Nr/2); the clock E0 + Nr/2 writes the final pair to the
//   output register (latency Nr/2 + 1, Nr/2 clocks per block back to back). The second
//   layer of the final pair is the final round (Nr is even for every key size).
//   s_axis_tready, key_ready and the expansion (4*Nr+4 clocks) are as above.
// ROUND_STAGES = 2: registers S (round input) and M (after the S-boxes), each with its
//   block's control, and a two-entry output buffer (o0 drives m_axis). At every edge the
//   block in S moves to M and the block in M either goes back to S (next round) or, after
//   its final round, into the output buffer; the whole ring holds only while M has a final
//   round and both output entries are full. Timing of one block (E0 as above, no stall):
//   E0            : S <= block ^ first round key
//   E0 + 2r - 1   : M <= (Inv)SubBytes((Inv)ShiftRows(S)) of round r (r = 1 .. Nr), and
//                   rk_m <= round key r (read from the key store with S's slot and index)
//   E0 + 2r       : round r done into S (r = 1 .. Nr-1)
//   E0 + 2Nr      : final round into the output buffer (m_axis_tvalid after it if the
//                   buffer was empty): latency 2 Nr + 1
//   s_axis_tready = (M empty, or M holds a final round and the output buffer has a free
//                   entry) and (S empty, or the offered block's Nr >= the rounds still to
//                   do of the block in S) and the slot rules above. The second condition
//                   keeps blocks in order: a shorter block is held until it cannot finish
//                   before the one ahead. A stream of one key size is taken at E0, E0+1,
//                   E0+2Nr, E0+2Nr+1, ...: two blocks every 2 Nr clocks, Nr per block.
//   key_ready     = as above, with "the block in the state register" = the blocks in S
//                   and M (a block in the output buffer uses no key).
//   zeroize       : S and M are cleared; their blocks come out with err = 1 and zero
//                   data, except a block whose final round leaves M in cycle Z (it is
//                   delivered normally, like ROUND_STAGES = 1); the output buffer keeps
//                   its results.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_iter128 #(
    parameter SBOX_IMPL = 0,
    parameter SLOT_W    = 1,
    parameter TAG_W     = 8,
    parameter DIRECTION = 2,
    parameter ROUND_STAGES = 1,
    parameter ROUNDS_PER_CLK = 1,
    parameter KX_EXT = 0
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
    output wire [TAG_W:0]            m_axis_tuser,
    output wire [40:0]               kx_out,
    input  wire [40:0]               kx_in
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SBOX_IMPL == 0 || SBOX_IMPL == 1, aes_iter128_SBOX_IMPL_not_0_or_1,
                     "aes_iter128: SBOX_IMPL must be 0 or 1")
        `AESIP_CHECK(SLOT_W >= 1, aes_iter128_SLOT_W_below_1, "aes_iter128: SLOT_W must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, aes_iter128_TAG_W_below_1, "aes_iter128: TAG_W must be >= 1")
        `AESIP_CHECK(DIRECTION == 0 || DIRECTION == 1 || DIRECTION == 2, aes_iter128_DIRECTION_not_0_1_2,
                     "aes_iter128: DIRECTION must be 0 or 1 or 2")
        `AESIP_CHECK(ROUND_STAGES == 1 || ROUND_STAGES == 2, aes_iter128_ROUND_STAGES_not_1_or_2,
                     "aes_iter128: ROUND_STAGES must be 1 or 2")
        `AESIP_CHECK(ROUNDS_PER_CLK == 1 || (ROUNDS_PER_CLK == 2 && ROUND_STAGES == 1),
                     aes_iter128_ROUNDS_PER_CLK_bad,
                     "aes_iter128: ROUNDS_PER_CLK must be 1, or 2 with ROUND_STAGES = 1")
        `AESIP_CHECK(KX_EXT == 0 || KX_EXT == 1, aes_iter128_KX_EXT_not_0_or_1,
                     "aes_iter128: KX_EXT must be 0 or 1")
    endgenerate

    localparam NSLOT  = 1 << SLOT_W;
    localparam AW     = SLOT_W + 4;          // round-key row address: {slot, round}
    localparam DEPTH  = 1 << AW;
    localparam ENC_OK = (DIRECTION != 1) ? 1'b1 : 1'b0;
    localparam DEC_OK = (DIRECTION != 0) ? 1'b1 : 1'b0;
    localparam RPC    = (ROUNDS_PER_CLK == 2) ? 2 : 1;

    // ------------------------------------------------------------------ key load
    wire       kl_ok;
    wire [1:0] kl_size;
    wire [3:0] kl_nr;
    aes_keylen u_keylen (.key_bytes(key_bytes), .ok(kl_ok), .size(kl_size), .nr(kl_nr));

    reg               wipe;                  // round-key memory wipe after rst / zeroize
    reg  [AW-1:0]     wipe_addr;
    wire              kx_busy;

    // key_ready from registers: kr_q[k] = "a key load into slot k may start" (no
    // expansion, no wipe, no block of slot k in the round datapath), computed for the next
    // clock from the next values of the expander's busy flag, of the wipe flag and of the
    // slots in use (inuse_nx, from each structure below), so that no compare of key_slot
    // with the blocks' slots and no expander state lies in front of the expander's start
    wire [NSLOT-1:0]  inuse_nx;              // slot k has a block in the datapath after the edge
    reg  [NSLOT-1:0]  kr_q;
    wire              kx_wlast;
    assign key_ready = kr_q[key_slot] && !zeroize;
    wire key_go = key_valid && key_ready;
    wire kx_start   = key_go && kl_ok;
    // the expander still runs after the edge (from its registers); a start in this clock
    // clears kr_q on its own below
    wire kx_run_nx  = kx_busy && !kx_wlast;
    wire wipe_nx    = wipe && wipe_addr != DEPTH - 1;
    always @(posedge clk) begin
        if (rst || zeroize) kr_q <= {NSLOT{1'b0}};
        else                kr_q <= ((kx_run_nx || wipe_nx) ? {NSLOT{1'b0}} : ~inuse_nx) &
                                    ~{NSLOT{kx_start}};
    end

    wire        kx_wv;
    wire [5:0]  kx_widx;
    wire [31:0] kx_wdata;
    // ROUND_STAGES = 2 (the bare core only): SUB_AHEAD, SubWord computed a step ahead into
    // a register and the last word decoded into a flip-flop (the same words at the same
    // clocks; no S-box in the expander's one-word-per-clock loop, and kx_wlast comes from
    // a register). Not with ROUND_STAGES = 1: inside the mode engines, where the key port
    // is driven by the lane's logic, its start-dependent clears became the critical path
    // of ccm-iter128 enc (64.9 MHz against 73.7 without it, ECP5 seed 1).
    // KX_EXT = 1: the twin core's expander. It starts in the same clock as this core's
    // own kx_start would (the same key load, accepted by both cores in the same clock),
    // so its busy flag, words and last word are exactly those of an own expander.
    generate if (KX_EXT == 0) begin : g_kx
        wire [31:0] kl_last = (kl_size == 2'd0) ? key_data[127:96] :
                              (kl_size == 2'd1) ? key_data[191:160] : key_data[255:224];
        aes_key_expand #(.SBOX_IMPL(SBOX_IMPL), .SUB_AHEAD(ROUND_STAGES == 2 ? 1 : 0)) u_kx (
            .clk(clk), .rst(rst), .zeroize(zeroize), .start(kx_start),
            .key_data(key_data), .key_size(kl_size), .key_last(kl_last), .busy(kx_busy),
            .w_valid(kx_wv), .w_last(kx_wlast), .w_idx(kx_widx), .w_data(kx_wdata));
        /* verilator lint_off UNUSEDSIGNAL */
        wire [40:0] unused_kx_in = kx_in;
        /* verilator lint_on UNUSEDSIGNAL */
    end else begin : g_kx_ext
        assign {kx_busy, kx_wv, kx_wlast, kx_widx, kx_wdata} = kx_in;
        /* verilator lint_off UNUSEDSIGNAL */
        wire [255:0] unused_key_data = key_data;
        /* verilator lint_on UNUSEDSIGNAL */
    end endgenerate
    assign kx_out = {kx_busy, kx_wv, kx_wlast, kx_widx, kx_wdata};

    // slot table: valid flag and key size (0/1/2) per slot
    reg [NSLOT-1:0]   slot_ok;
    reg [2*NSLOT-1:0] slot_sz;
    reg [SLOT_W-1:0]  kx_slot;               // slot being expanded
    reg [3:0]         kx_nr;                 // its Nr (the index of its last round key)
    always @(posedge clk) begin
        if (rst || zeroize) begin
            slot_ok <= {NSLOT{1'b0}};
            slot_sz <= {2*NSLOT{1'b0}};
            kx_slot <= {SLOT_W{1'b0}};
            kx_nr   <= 4'd0;
        end else begin
            if (key_go) begin
                slot_ok[key_slot]        <= 1'b0;
                slot_sz[2*key_slot +: 2] <= kl_ok ? kl_size : 2'd0;
                kx_slot                  <= key_slot;
                kx_nr                    <= kl_nr;
            end
            if (kx_wlast) slot_ok[kx_slot] <= 1'b1;
        end
    end
    genvar k;

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
    wire [127:0]   rk_rnd, rk_ini;
    // (per build, some bits are unused: ROUNDS_PER_CLK = 2 drops the parity bit of the
    // addresses, 1 uses no second-layer port)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [AW-1:0]  rd_addr_rnd;              // round port
    wire [AW-1:0]  rd_addr_rnd2;             // ROUNDS_PER_CLK = 2: the second layer's port
    wire [127:0]   rk_rnd2;                  // ROUNDS_PER_CLK = 2: the second layer's key
    wire           rk_hold;                  // ROUNDS_PER_CLK = 2: a block is in the state after the edge
    /* verilator lint_on UNUSEDSIGNAL */
    // initial-AddRoundKey store: a second copy of each slot's first and last round key
    // (rk[0] at {slot, 0}, rk[Nr] at {slot, 1}), written beside the round-key memory, so
    // that the accepted block's first key is read with its slot and direction only (no
    // key-size lookup in front of the read)
    wire [SLOT_W:0] fk_waddr = wipe ? wipe_addr[SLOT_W:0] : {kx_slot, kx_widx[5:2] != 4'd0};
    wire            fk_wsel  = wipe || kx_widx[5:2] == 4'd0 || kx_widx[5:2] == kx_nr;
    wire [SLOT_W:0] fk_raddr = {s_axis_tuser[SLOT_W:1], (DIRECTION == 2) ? s_axis_tuser[0] : DEC_OK};

    genvar b;
    generate
        for (b = 0; b < 4; b = b + 1) begin : g_bank
            reg [31:0] fk  [0:2*NSLOT-1];
            wire we = wipe || (kx_wv && kx_widx[1:0] == b);
            always @(posedge clk) begin
                if (we && fk_wsel) fk[fk_waddr] <= wr_data;
            end
            assign rk_ini[32*b +: 32] = fk[fk_raddr];
            if (RPC == 1) begin : g_one
                reg [31:0] mem [0:DEPTH-1];
                always @(posedge clk) if (we) mem[wr_addr] <= wr_data;
                assign rk_rnd[32*b +: 32]  = mem[rd_addr_rnd];
                assign rk_rnd2[32*b +: 32] = 32'd0;
            end else begin : g_two
                // row {slot, k div 2} of mem_odd holds rk[k] for odd k, of mem_even for
                // even k: the first layer always uses an odd round key, the second an
                // even one (rounds 2c - 1 and 2c to encrypt, Nr - 2c + 1 and Nr - 2c to
                // decrypt), so each layer has its own read port and the store is no larger.
                // The reads are registered: the addresses are those of the rounds of
                // the next clock (rd_addr_rnd / rd_addr_rnd2 from g_rs1's next values),
                // so no LUT-RAM read lies inside the two-round loop. The registers hold
                // a key only while a block is in the state register (rk_hold), are
                // cleared otherwise and by rst / zeroize.
                reg [31:0] mem_odd  [0:DEPTH/2-1];
                reg [31:0] mem_even [0:DEPTH/2-1];
                reg [31:0] rk_q, rk2_q;
                always @(posedge clk) begin
                    if (we &&  wr_addr[0]) mem_odd[wr_addr[AW-1:1]]  <= wr_data;
                    if (we && !wr_addr[0]) mem_even[wr_addr[AW-1:1]] <= wr_data;
                    if (rst || zeroize || !rk_hold) begin
                        rk_q  <= 32'd0;
                        rk2_q <= 32'd0;
                    end else begin
                        rk_q  <= mem_odd[rd_addr_rnd[AW-1:1]];
                        rk2_q <= mem_even[rd_addr_rnd2[AW-1:1]];
                    end
                end
                assign rk_rnd[32*b +: 32]  = rk_q;
                assign rk_rnd2[32*b +: 32] = rk2_q;
            end
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

    // S-box layer of both structures: (Inv)ShiftRows and the 16 S-boxes on the register
    // that feeds them (the state register with ROUND_STAGES = 1, S of the two-stage ring
    // with 2), which each structure drives into sb_src with its block's direction.
    wire [127:0] sb_src;
    wire         sb_dec;
    wire [127:0] sb;
    // Round tail of both structures: AddRoundKey and (Inv)MixColumns on the S-box layer's
    // output (ROUND_STAGES = 1) or on M (2), which each structure drives into mx_src with
    // its block's direction and final-round flag; rnd_out is the round's result.
    wire [127:0] mx_src;
    wire         mx_dec, mx_last;
    wire [127:0] mc;
    wire [127:0] rk_tail;                     // the round key of the round tail
    wire [127:0] sbk  = mx_src ^ rk_tail;
    wire [127:0] mcin = mx_dec ? sbk : mx_src;   // InvMixColumns follows AddRoundKey
    wire [127:0] rnd_out = mx_last ? sbk : (mx_dec ? mc : mc ^ rk_tail);
    genvar i;
    generate
    for (i = 0; i < 4; i = i + 1) begin : g_mix
        aes_mixcolumn #(.DIR(DIRECTION)) u_mix (.in(mcin[32*i +: 32]), .inv(mx_dec), .out(mc[32*i +: 32]));
    end
    for (i = 0; i < 16; i = i + 1) begin : g_sbox
        // byte i = row i%4, column i/4; ShiftRows takes column (c+r)%4, InvShiftRows (c-r)%4
        wire [7:0] s_fwd = sb_src[8*((i % 4) + 4*(((i / 4) + (i % 4)) % 4)) +: 8];
        wire [7:0] s_inv = sb_src[8*((i % 4) + 4*(((i / 4) + 4 - (i % 4)) % 4)) +: 8];
        // keep_hierarchy: flattened, Yosys folds the state register into each S-box
        // table's read port and merges the neighbouring logic into the tables
        // (xc7: 7 790 LUTs / 706 FFs flattened, 2 932 / 578 with the hierarchy kept)
        (* keep_hierarchy *)
        aes_sbox #(.IMPL(SBOX_IMPL), .DIR(DIRECTION)) u_sbox (
            .in(sb_dec ? s_inv : s_fwd), .inv(sb_dec), .out(sb[8*i +: 8]));
    end
    // ROUNDS_PER_CLK = 2: the second round layer, on the first layer's result, with the
    // same direction; mx2_last marks the final round (rnd_fin is the clock's result)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [127:0] rnd_fin;                     // (unused with ROUND_STAGES = 2)
    wire         mx2_last;                    // (unused with ROUNDS_PER_CLK = 1)
    /* verilator lint_on UNUSEDSIGNAL */
    if (RPC == 2) begin : g_layer2
        wire [127:0] sb2, mc2;
        wire [127:0] sbk2  = sb2 ^ rk_rnd2;
        wire [127:0] mcin2 = mx_dec ? sbk2 : sb2;
        assign rnd_fin = mx2_last ? sbk2 : (mx_dec ? mc2 : mc2 ^ rk_rnd2);
        for (i = 0; i < 4; i = i + 1) begin : g_mix2
            aes_mixcolumn #(.DIR(DIRECTION)) u_mix (.in(mcin2[32*i +: 32]), .inv(mx_dec), .out(mc2[32*i +: 32]));
        end
        for (i = 0; i < 16; i = i + 1) begin : g_sbox2
            wire [7:0] s_fwd = rnd_out[8*((i % 4) + 4*(((i / 4) + (i % 4)) % 4)) +: 8];
            wire [7:0] s_inv = rnd_out[8*((i % 4) + 4*(((i / 4) + 4 - (i % 4)) % 4)) +: 8];
            (* keep_hierarchy *)
            aes_sbox #(.IMPL(SBOX_IMPL), .DIR(DIRECTION)) u_sbox (
                .in(mx_dec ? s_inv : s_fwd), .inv(mx_dec), .out(sb2[8*i +: 8]));
        end
    end else begin : g_layer1
        assign rnd_fin = rnd_out;
    end
    if (ROUND_STAGES == 1) begin : g_rs1
        // One round per clock (the core as it was before ROUND_STAGES), or two with
        // ROUNDS_PER_CLK = 2 (rem and the key indices then step by 2).
        reg               busy;              // state register holds a block
        reg  [SLOT_W-1:0] cur_slot;

        reg  [3:0]       rem;                    // rounds still to do for the block in the state
        reg  [3:0]       kidx;                   // round-key index of the next round
        reg              cur_dec;
        reg              cur_err;
        reg  [TAG_W-1:0] cur_tag;
        reg              out_valid;
        reg  [3:0]       kidx2;                  // ROUNDS_PER_CLK = 2: the second layer's key index
        wire             last     = (rem == RPC);
        wire             dec_c    = (DIRECTION == 2) ? cur_dec : DEC_OK;
        wire             fin_go   = busy && last && (!out_valid || m_axis_tready);
        wire             adv      = busy && (!last || fin_go);
        assign s_axis_tready = (!busy || (last && !out_valid)) &&
                               !(kx_busy && s_slot == kx_slot) &&
                               !(key_valid && key_slot == s_slot);
        wire             acc      = s_axis_tvalid && s_axis_tready;
        // ROUNDS_PER_CLK = 2: the key reads are registered (g_bank), so their addresses
        // are the next values of {cur_slot, kidx} and {cur_slot, kidx2}
        wire [SLOT_W-1:0] slot_nx  = acc ? s_slot : cur_slot;
        wire [3:0]        kidx_nx  = acc ? (s_dec_c ? s_nr - 4'd1 : 4'd1) :
                                     !adv ? kidx : (dec_c ? kidx - RPC[3:0] : kidx + RPC[3:0]);
        wire [3:0]        kidx2_nx = acc ? (s_dec_c ? s_nr - 4'd2 : 4'd2) :
                                     !adv ? kidx2 : (dec_c ? kidx2 - RPC[3:0] : kidx2 + RPC[3:0]);
        assign rk_hold      = acc || (busy && !(adv && last));
        assign rd_addr_rnd  = (RPC == 2) ? {slot_nx, kidx_nx} : {cur_slot, kidx};
        assign rd_addr_rnd2 = {slot_nx, kidx2_nx};
        assign rk_tail      = rk_rnd;
        for (k = 0; k < NSLOT; k = k + 1) begin : g_inuse
            assign inuse_nx[k] = acc ? (s_slot == k) : (busy && cur_slot == k && !(adv && last));
        end
`ifdef FORMAL
        wire [NSLOT-1:0] f_inuse;
        for (k = 0; k < NSLOT; k = k + 1) begin : f_g_inuse
            assign f_inuse[k] = busy && cur_slot == k;
        end
`endif

        always @(posedge clk) begin
            if (rst) begin
                busy     <= 1'b0;
                rem      <= 4'd0;
                kidx     <= 4'd0;
                kidx2    <= 4'd0;
                cur_slot <= {SLOT_W{1'b0}};
                cur_dec  <= 1'b0;
                cur_err  <= 1'b0;
                cur_tag  <= {TAG_W{1'b0}};
            end else if (acc) begin
                busy     <= 1'b1;
                rem      <= s_nr;
                kidx     <= s_dec_c ? s_nr - 4'd1 : 4'd1;
                kidx2    <= s_dec_c ? s_nr - 4'd2 : 4'd2;
                cur_slot <= s_slot;
                cur_dec  <= s_dec;
                cur_err  <= s_err;
                cur_tag  <= s_tag;
            end else begin
                if (adv) begin
                    if (last) busy <= 1'b0;
                    rem   <= rem - RPC[3:0];
                    kidx  <= dec_c ? kidx - RPC[3:0] : kidx + RPC[3:0];
                    kidx2 <= dec_c ? kidx2 - RPC[3:0] : kidx2 + RPC[3:0];
                end
                if (zeroize) cur_err <= 1'b1;
            end
        end

            // round datapath
        reg  [127:0] st;
        assign sb_src  = st;
        assign sb_dec  = dec_c;
        assign mx_src  = sb;
        assign mx_dec  = dec_c;
        assign mx_last  = (RPC == 1) && last;
        assign mx2_last = last;

        // the state register is cleared when its block leaves it (no round state of the
        // last block stays behind after a packet)
        always @(posedge clk) begin
            if (rst || zeroize)    st <= 128'd0;
            else if (acc)          st <= s_axis_tdata ^ rk_ini;
            else if (adv && !last) st <= rnd_fin;
            else if (fin_go)       st <= 128'd0;
        end

            // output register
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
                out_data  <= cur_err ? 128'd0 : rnd_fin;
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
    end else begin : g_rs2
        // Two-stage round (docs/iter128.md, "ROUND_STAGES = 2"). A ring of two 128-bit
        // registers: S (round input) -> stage 1 ((Inv)ShiftRows, 16 S-boxes) -> M ->
        // stage 2 (MixColumns + AddRoundKey, or AddRoundKey + InvMixColumns, or the
        // final AddRoundKey) -> back to S, or to the output buffer after the final round.
        // Each register carries its block's control; two blocks are in flight, one in
        // each register, and swap every clock. Everything moves at every edge except
        // when the block in M is in its final round and both output entries are full
        // (stall: the whole ring holds).
        reg               s_v,    m_v;       // register holds a block
        reg  [3:0]        s_rem,  m_rem;     // rounds still to do, the current one included
        reg  [3:0]        s_kidx, m_kidx;    // round-key index of the current round
        reg  [SLOT_W-1:0] s_slt,  m_slt;
        reg               s_dc,   m_dc;      // decrypt
        reg               s_er,   m_er;
        reg  [TAG_W-1:0]  s_tg,   m_tg;
        reg  [127:0]      st_s,   st_m;
        // output buffer: two entries, o0 drives m_axis
        reg               o0_v,   o1_v;
        reg  [127:0]      o0_d,   o1_d;
        reg  [TAG_W-1:0]  o0_t,   o1_t;
        reg               o0_e,   o1_e;

        reg  m_last_q;                           // (m_rem == 1), registered
        wire m_last = m_last_q;
        wire o_full = o0_v && o1_v;
        wire stall  = m_v && m_last && o_full;
        wire fin_go = m_v && m_last && !o_full;          // final round leaves M
        wire back   = m_v && !m_last;                    // M's block goes round again
        wire sdc_c  = (DIRECTION == 2) ? s_dc : DEC_OK;
        wire mdc_c  = (DIRECTION == 2) ? m_dc : DEC_OK;
        // S is free at the edge when M is empty or M's final round leaves; a block
        // already in S must finish first: the new block's Nr >= S's remaining rounds
        // fo_q[k] = (Nr of slot k >= s_rem), registered from the next values (the order
        // check of a block of slot k offered behind the block in S)
        reg  [NSLOT-1:0]  fo_q;
        assign s_axis_tready = (!m_v || (m_last && !o_full)) &&
                               (!s_v || fo_q[s_slot]) &&
                               !(kx_busy && s_slot == kx_slot) &&
                               !(key_valid && key_slot == s_slot);
        wire acc = s_axis_tvalid && s_axis_tready;
        // the round key of stage 2 is read while the block is in S (its index and slot
        // are S's) into rk_m beside M: the LUT-RAM read is off the round path
        reg  [127:0]      rk_m;
        assign rd_addr_rnd     = {s_slt, s_kidx};
        assign rd_addr_rnd2    = {AW{1'b0}};     // (ROUNDS_PER_CLK = 1 here)
        assign rk_hold         = 1'b0;
        assign mx2_last        = 1'b0;
        assign rk_tail         = rk_m;
        wire [3:0] s_rem_nx = (stall || !(acc || back)) ? s_rem : acc ? s_nr : m_rem - 4'd1;
        for (k = 0; k < NSLOT; k = k + 1) begin : g_inuse
            // slot k's key size after the edge
            wire [1:0] sz_nx = zeroize ? 2'd0 : (key_go && key_slot == k) ? (kl_ok ? kl_size : 2'd0) :
                               slot_sz[2*k +: 2];
            assign inuse_nx[k] = stall ? ((s_v && s_slt == k) || (m_v && m_slt == k))
                                       : ((acc && s_slot == k) || (back && m_slt == k) || (s_v && s_slt == k));
            always @(posedge clk) begin
                if (rst) fo_q[k] <= 1'b1;
                else     fo_q[k] <= 4'd10 + {1'b0, sz_nx, 1'b0} >= s_rem_nx;
            end
        end
`ifdef FORMAL
        wire [NSLOT-1:0] f_inuse;
        for (k = 0; k < NSLOT; k = k + 1) begin : f_g_inuse
            assign f_inuse[k] = (s_v && s_slt == k) || (m_v && m_slt == k);
            always @(posedge clk) if (!rst) assert (fo_q[k] == (4'd10 + {1'b0, slot_sz[2*k +: 2], 1'b0} >= s_rem));
        end
`endif

        always @(posedge clk) begin
            if (rst) begin
                s_v <= 1'b0; s_rem <= 4'd0; s_kidx <= 4'd0; s_slt <= {SLOT_W{1'b0}};
                s_dc <= 1'b0; s_er <= 1'b0; s_tg <= {TAG_W{1'b0}};
                m_v <= 1'b0; m_rem <= 4'd0; m_kidx <= 4'd0; m_slt <= {SLOT_W{1'b0}}; m_last_q <= 1'b0;
                m_dc <= 1'b0; m_er <= 1'b0; m_tg <= {TAG_W{1'b0}};
            end else if (stall) begin
                if (zeroize) begin
                    s_er <= 1'b1;
                    m_er <= 1'b1;
                end
            end else begin
                // S -> M
                m_v    <= s_v;
                m_rem  <= s_rem;
                m_last_q <= (s_rem == 4'd1);
                m_kidx <= s_kidx;
                m_slt  <= s_slt;
                m_dc   <= s_dc;
                m_er   <= s_er || zeroize;
                m_tg   <= s_tg;
                // input or M -> S
                if (acc) begin
                    s_v    <= 1'b1;
                    s_rem  <= s_nr;
                    s_kidx <= s_dec_c ? s_nr - 4'd1 : 4'd1;
                    s_slt  <= s_slot;
                    s_dc   <= s_dec;
                    s_er   <= s_err;
                    s_tg   <= s_tag;
                end else if (back) begin
                    s_v    <= 1'b1;
                    s_rem  <= m_rem - 4'd1;
                    s_kidx <= mdc_c ? m_kidx - 4'd1 : m_kidx + 4'd1;
                    s_slt  <= m_slt;
                    s_dc   <= m_dc;
                    s_er   <= m_er || zeroize;
                    s_tg   <= m_tg;
                end else begin
                    s_v    <= 1'b0;
                end
            end
        end

        // stage 1: (Inv)ShiftRows, (Inv)SubBytes of S (the shared S-box layer)
        assign sb_src = st_s;
        assign sb_dec = sdc_c;
        // stage 2: round key and (Inv)MixColumns of M (the shared round tail)
        assign mx_src  = st_m;
        assign mx_dec  = mdc_c;
        assign mx_last = m_last;

        // data registers: zero when empty (no round state stays behind a block)
        always @(posedge clk) begin
            if (rst || zeroize) begin
                st_s <= 128'd0;
                st_m <= 128'd0;
                rk_m <= 128'd0;
            end else if (!stall) begin
                st_m <= s_v ? sb : 128'd0;
                rk_m <= s_v ? rk_rnd : 128'd0;   // no round key stays behind a block
                st_s <= acc ? s_axis_tdata ^ rk_ini : back ? rnd_out : 128'd0;
            end
        end

        // output buffer (two entries; a taken result leaves no copy behind)
        wire         pop   = o0_v && m_axis_tready;
        wire [127:0] fin_d = m_er ? 128'd0 : rnd_out;
        always @(posedge clk) begin
            if (rst) begin
                o0_v <= 1'b0; o0_d <= 128'd0; o0_t <= {TAG_W{1'b0}}; o0_e <= 1'b0;
                o1_v <= 1'b0; o1_d <= 128'd0; o1_t <= {TAG_W{1'b0}}; o1_e <= 1'b0;
            end else if (!o0_v || pop) begin
                if (o1_v) begin
                    o0_v <= 1'b1; o0_d <= o1_d; o0_t <= o1_t; o0_e <= o1_e;
                    o1_v <= fin_go;
                    o1_d <= fin_go ? fin_d : 128'd0;
                    if (fin_go) begin
                        o1_t <= m_tg;
                        o1_e <= m_er;
                    end
                end else begin
                    o0_v <= fin_go;
                    o0_d <= fin_go ? fin_d : 128'd0;
                    if (fin_go) begin
                        o0_t <= m_tg;
                        o0_e <= m_er;
                    end
                end
            end else if (fin_go) begin
                o1_v <= 1'b1; o1_d <= fin_d; o1_t <= m_tg; o1_e <= m_er;
            end
        end
        assign m_axis_tvalid = o0_v;
        assign m_axis_tdata  = o0_d;
        assign m_axis_tuser  = {o0_t, o0_e};
    end
    endgenerate
`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // Common block-core interface properties (formal/aes_core_props.v): stream rules,
    // one output per accepted block in order with its tag, err => zero data, bounded
    // response. Proven by formal/aes_iter128.sby (docs/formal.md). `define F_AES_ITER128 when
    // this core is the top of the proof (its inputs are then assumed, else asserted).
    // ROUND_STAGES = 1: CAP 2: state and output register; LAT: Nr + 1 (at most 15), with
    // ROUNDS_PER_CLK = 2 Nr / 2 + 1 (at most 8); the registered round keys are zero
    // whenever no block is in the state register (no key copy left behind).
    // ROUND_STAGES = 2: CAP 4: S, M and two output entries; LAT: 2 Nr + 1 (at most 29)
    // plus one clock of margin.
`ifdef F_AES_ITER128
    localparam F_TOP = 1;
`else
    localparam F_TOP = 0;
`endif
    aes_core_props #(.TAG_W(TAG_W), .SLOT_W(SLOT_W), .CAP(ROUND_STAGES == 1 ? 2 : 4),
                     .LAT(ROUND_STAGES == 2 ? 30 : (ROUNDS_PER_CLK == 2 ? 8 : 15)), .ASSUME_IN(F_TOP)) f_core (
        .clk(clk), .rst(rst), .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot),
        .key_bytes(key_bytes), .key_data(key_data),
        .s_valid(s_axis_tvalid), .s_ready(s_axis_tready), .s_data(s_axis_tdata), .s_user(s_axis_tuser),
        .m_valid(m_axis_tvalid), .m_ready(m_axis_tready), .m_data(m_axis_tdata), .m_user(m_axis_tuser));
    if (ROUND_STAGES == 2) begin : f_rs2
        always @(posedge clk) if (!rst) assert (g_rs2.m_last_q == (g_rs2.m_rem == 4'd1));
        always @(posedge clk) if (!rst) assert (kr_q == ((kx_busy || wipe) ? {NSLOT{1'b0}} : ~g_rs2.f_inuse));
    end else begin : f_rs1
        always @(posedge clk) if (!rst) assert (kr_q == ((kx_busy || wipe) ? {NSLOT{1'b0}} : ~g_rs1.f_inuse));
        if (ROUNDS_PER_CLK == 2) begin : f_rpc2
            always @(posedge clk) if (!rst && !g_rs1.busy) assert (rk_rnd == 128'd0 && rk_rnd2 == 128'd0);
        end
    end
`endif
endmodule
`default_nettype wire
