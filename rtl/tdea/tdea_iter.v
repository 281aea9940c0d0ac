// SPDX-License-Identifier: Apache-2.0
// tdea_iter: compact iterative TDEA (Triple DES, NIST SP 800-67) block core, one DES
// round per clock (see docs/tdea.md; interface style of docs/cores.md).
//
// One round datapath (tdea_des_ek + tdea_des_sp) runs the 48 rounds of E_K1, D_K2, E_K3
// (encryption) or D_K3, E_K2, D_K1 (decryption) on one block. The 48 subkeys of every
// slot are computed once per key load (tdea_keysched) and kept in one subkey memory
// (address {slot, index}); round r of a block reads index r (encryption) or 47 - r
// (decryption). IP is applied when a block is accepted, IP^-1 when its result is written
// into the output register.
//
// Parameters
//   SLOT_W : key-slot index width, 2**SLOT_W key slots (>= 1, default 1)
//   TAG_W  : sideband tag width (>= 1, default 8)
// Ports: as tdea_pipe (docs/tdea.md): 64-bit blocks, key_data 192 bits, key_bytes 24
//   (keying option 1) or 16 (option 2, K3 = K1), any other length invalidates the slot.
// Timing
//   A block accepted at edge E (IP into the state register) gets round r at edge
//   E + 1 + r; round 47 writes the output register at edge E + 48 (latency 49 in the
//   counting of docs/cores.md) if it is free or being taken, otherwise the block waits. s_axis_tready is high when
//   the datapath is idle or finishing in this cycle: 48 clocks per block back to back.
//   Key load: key_ready is low while a load or scrub runs, during zeroize and while the
//   block in the datapath uses the requested slot; a legal load keeps key_ready low for
//   48 clocks after the handshake; the scrub after rst or zeroize takes 2**(SLOT_W+6)
//   clocks. A block waits while its slot is being loaded or requested.
//   zeroize: the block in the datapath comes out with err = 1 (zero data) at its normal
//   time; a result already in the output register is kept.
// The subkey of the next round is read from the memory one clock ahead into a register
// (sk_r), so the round loop is state -> round -> state only. The first subkey of a block
// being accepted comes from a small second memory (one entry per slot and direction),
// so that the accept decision selects between two reads and addresses neither.
// Left behind: the round state and the subkey register are cleared when a block
// finishes (and by zeroize); the output register holds the last result until the
// next one (only results of valid keys, or zero).
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module tdea_iter #(
    parameter SLOT_W = 1,
    parameter TAG_W  = 8
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  zeroize,
    input  wire                  key_valid,
    output wire                  key_ready,
    input  wire [SLOT_W-1:0]     key_slot,
    input  wire [5:0]            key_bytes,
    input  wire [191:0]          key_data,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire [63:0]           s_axis_tdata,
    input  wire [TAG_W+SLOT_W:0] s_axis_tuser,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire [63:0]           m_axis_tdata,
    output wire [TAG_W:0]        m_axis_tuser
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(SLOT_W >= 1, tdea_iter_SLOT_W_below_1, "tdea_iter: SLOT_W must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, tdea_iter_TAG_W_below_1, "tdea_iter: TAG_W must be >= 1")
    endgenerate

    localparam NSLOT = 1 << SLOT_W;
    localparam AW    = SLOT_W + 6;

    reg [NSLOT-1:0] slot_ok;
    reg             ld_busy;
    reg [SLOT_W-1:0] ld_slot;
    reg             scrub_busy;
    reg [AW-1:0]    scrub_addr;

    // datapath state
    reg              busy;
    reg [5:0]        rnd;
    reg [63:0]       st;
    reg [SLOT_W-1:0] c_slot;
    reg              c_dec;
    reg              c_err;
    reg [TAG_W-1:0]  c_tag;
    reg              o_v;
    reg [63:0]       o_d;
    reg [TAG_W-1:0]  o_tag;
    reg              o_err;

    // input side
    wire [SLOT_W-1:0] in_slot = s_axis_tuser[SLOT_W:1];
    wire [TAG_W-1:0]  in_tag  = s_axis_tuser[TAG_W+SLOT_W:SLOT_W+1];
    wire              in_dec  = s_axis_tuser[0];
    wire in_loading = ld_busy && (in_slot == ld_slot);
    wire in_keyreq  = key_valid && (key_slot == in_slot);

    reg  last;                       // rnd == 47, as a register (set as rnd reaches 47)
    wire fin  = busy && last && (!o_v || m_axis_tready);
    assign s_axis_tready = (!busy || fin) && !in_loading && !in_keyreq;
    wire in_acc = s_axis_tvalid && s_axis_tready;
    wire [63:0] in_lr;
    tdea_perm #(.FINAL(0)) u_ip (.in(s_axis_tdata), .out(in_lr));

    // one round. The subkey of the next round is read one clock ahead into sk_r, so the
    // memory read is not inside the round loop: round 0 of a block being accepted
    // (index 47 when decrypting), else round rnd + 1 of the current block. The two reads
    // come from two memories so that neither address depends on the accept decision
    // (which depends on m_axis_tready): u_mem is addressed by registers only (the current
    // block's slot and next index), u_first by the input port only (a copy of every
    // slot's first subkey per direction, written by the same loader and scrubber); the
    // decision only selects between the two read results.
    reg  [5:0]  nidx;           // index read for the next round: rnd + 1, or 46 - rnd decrypting
    wire [47:0] sk_run, sk_first;
    wire [47:0] sk = in_acc ? sk_first : sk_run;
    reg  [47:0] sk_r;
    wire        x_valid;
    wire [5:0]  x_idx;
    wire [47:0] x_data;
    tdea_skmem #(.AW(AW)) u_mem (
        .clk(clk), .we(scrub_busy || x_valid),
        .waddr(scrub_busy ? scrub_addr : {ld_slot, x_idx}),
        .wdata(scrub_busy ? 48'd0 : x_data),
        .raddr({c_slot, nidx}), .rdata(sk_run));
    // first subkeys: entry {slot, dec} = subkey 0 (encrypt) / 47 (decrypt) of the slot
    wire x_first = x_valid && (x_idx == 6'd0 || x_idx == 6'd47);
    tdea_skmem #(.AW(SLOT_W + 1)) u_first (
        .clk(clk), .we(scrub_busy || x_first),
        .waddr(scrub_busy ? scrub_addr[SLOT_W:0] : {ld_slot, x_idx[0]}),
        .wdata(scrub_busy ? 48'd0 : x_data),
        .raddr({in_slot, in_dec}), .rdata(sk_first));
    wire [47:0] x;
    wire [63:0] nst;
    tdea_des_ek u_ek (.r(st[31:0]), .rx(32'd0), .subkey(sk_r), .x(x));
    tdea_des_sp u_sp (.x(x), .lr(st), .swap(rnd[3:0] != 4'd15), .out(nst));
    wire [63:0] res;
    tdea_perm #(.FINAL(1)) u_fp (.in(nst), .out(res));

    assign m_axis_tvalid = o_v;
    assign m_axis_tdata  = o_d;
    assign m_axis_tuser  = {o_tag, o_err};

    // key loader
    wire kl_ok = (key_bytes == 6'd24) || (key_bytes == 6'd16);
    assign key_ready = !ld_busy && !scrub_busy && !zeroize && !(busy && c_slot == key_slot);
    wire key_hs = key_valid && key_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire x_busy;
    /* verilator lint_on UNUSEDSIGNAL */
    tdea_keysched u_ks (
        .clk(clk), .rst(rst), .zeroize(zeroize), .start(key_hs && kl_ok),
        .key_data(key_data), .opt2(key_bytes == 6'd16), .busy(x_busy),
        .w_valid(x_valid), .w_idx(x_idx), .w_data(x_data));

    always @(posedge clk) begin
        if (rst) begin
            busy   <= 1'b0;
            rnd    <= 6'd0;
            nidx   <= 6'd0;
            last   <= 1'b0;
            st     <= 64'd0;
            sk_r   <= 48'd0;
            c_slot <= {SLOT_W{1'b0}};
            c_dec  <= 1'b0;
            c_err  <= 1'b0;
            c_tag  <= {TAG_W{1'b0}};
            o_v    <= 1'b0;
            o_d    <= 64'd0;
            o_tag  <= {TAG_W{1'b0}};
            o_err  <= 1'b0;
        end else begin
            if (o_v && m_axis_tready) o_v <= 1'b0;
            if (fin) sk_r <= 48'd0;
            if (in_acc || (busy && !last)) sk_r <= sk;
            if (zeroize) sk_r <= 48'd0;
            if (fin) begin
                o_v   <= 1'b1;
                o_d   <= c_err ? 64'd0 : res;
                o_tag <= c_tag;
                o_err <= c_err;
                busy  <= 1'b0;
                rnd   <= 6'd0;
                last  <= 1'b0;
                st    <= 64'd0;
            end else if (busy && !last) begin
                rnd  <= rnd + 6'd1;
                nidx <= c_dec ? (nidx - 6'd1) : (nidx + 6'd1);
                last <= (rnd == 6'd46);
                st   <= nst;
            end
            if (in_acc) begin
                busy   <= 1'b1;
                rnd    <= 6'd0;
                nidx   <= in_dec ? 6'd46 : 6'd1;
                last   <= 1'b0;
                st     <= in_lr;
                c_slot <= in_slot;
                c_dec  <= in_dec;
                c_err  <= !slot_ok[in_slot] || zeroize;
                c_tag  <= in_tag;
            end else if (zeroize && busy) begin
                c_err <= 1'b1;
                st    <= 64'd0;
            end
        end
    end

    always @(posedge clk) begin
        if (rst || zeroize) begin
            slot_ok    <= {NSLOT{1'b0}};
            ld_busy    <= 1'b0;
            ld_slot    <= {SLOT_W{1'b0}};
            scrub_busy <= 1'b1;
            scrub_addr <= {AW{1'b0}};
        end else begin
            if (scrub_busy) begin
                scrub_addr <= scrub_addr + 1'b1;
                if (&scrub_addr) scrub_busy <= 1'b0;
            end
            if (key_hs) begin
                slot_ok[key_slot] <= 1'b0;
                if (kl_ok) begin
                    ld_busy <= 1'b1;
                    ld_slot <= key_slot;
                end
            end
            if (x_valid && x_idx == 6'd47) begin
                ld_busy <= 1'b0;
                slot_ok[ld_slot] <= 1'b1;
            end
        end
    end
endmodule
`default_nettype wire
