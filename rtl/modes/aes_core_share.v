// SPDX-License-Identifier: Apache-2.0
// aes_core_share: one block core (aes_core) behind two core-role ports, A and B, so that
// a mode engine built for two cores (aes_mode_lane: core A chains, core B runs the counter
// stream) runs on one. A CCM step's CBC-MAC block and counter block are independent, so a
// core with two blocks in flight (aes_iter128 ROUND_STAGES = 2) computes both at once; the
// key expansion and the round-key store then exist once instead of twice.
//
// Blocks from A and B are merged into the core round-robin (when both sides have a block
// for the core in the same cycle, the side not taken last goes first); each block carries
// its side in the core's tag, and every result goes into that side's result FIFO. A
// side's block is taken only while that side has fewer than DEPTH blocks outstanding
// (taken, result not yet taken: in its input register, in the core or in its FIFO; a
// credit per FIFO entry), so the core's output is never stalled, and a side whose results
// are not taken never blocks the other side.
//
// Parameters
//   CORE, SBOX_IMPL, SLOT_W, NR_MAX, DIRECTION, ROUND_REGS, ROUNDS_PER_CLK, ROUND_STAGES :
//               passed to aes_core (rtl/cores/aes_core.v); DIRECTION must include
//               every direction either side asks for (a block asking for a missing one
//               comes out with err = 1, as from the core itself)
//   DEPTH     : result FIFO entries per side, 1 .. 8 (default 2): the most blocks a side
//               can have outstanding. aes_mode_lane has at most one per side outstanding;
//               with 2, a side's next block is taken in the cycle its previous result is
//               taken, without a combinational path from a_m_ready / b_m_ready to
//               a_s_ready / b_s_ready.
//   IN_REG    : 1 (default) = an input register per side: a_s_ready / b_s_ready come from
//               registers only (no path from the core's s_axis_tready to the lane's step
//               logic), one clock more latency, and each side takes at most one block
//               every two clocks; 0 = a block goes into the core in the cycle it is taken
// Ports
//   clk, rst, zeroize                : clock, synchronous reset, zeroize pulse; zeroize
//                                      goes to the core (keys, blocks in flight: see the
//                                      core) and fails every block not yet taken on a_m /
//                                      b_m closed: the results held in the FIFOs, and those
//                                      of the blocks in an input register or the core (or
//                                      taken in the zeroize cycle) when they come out, are err = 1 with
//                                      zero data. A result presented on a_m / b_m and not
//                                      taken in the zeroize cycle is replaced as well (the
//                                      one exception to "held until taken"; the mode lane
//                                      discards what it takes after a zeroize)
//   key_valid/ready/slot/bytes/data  : the core's key port, unchanged (docs/cores.md)
//   a_s_valid/ready/data/slot/dec    : side A block request (AXI4-Stream rules)
//   a_m_valid/ready/data/err         : side A results, in A's request order; registered
//                                      (a FIFO entry drives them)
//   b_s_*, b_m_*                     : the same for side B
// Timing (IN_REG = 1): a block taken from A at edge E sits in A's input register and goes
//   into the core at the first edge from E + 1 on at which the core is ready and the merge
//   picks A; its result appears on a_m_* one clock after the core delivers it. A CCM step
//   with both sides (aes_iter128 ROUND_STAGES = 2, both blocks taken at E): A into the
//   core at E + 1, B at E + 2, results at E + 2 Nr + 2 and E + 2 Nr + 3, on a_m / b_m one
//   clock later: the lane issues the next step at E + 2 Nr + 4.
//   a_s_ready = A's input register is empty && A has a credit (registers only).
// IN_REG = 0: a block goes into the core in the cycle it is taken (one clock less);
//   a_s_ready = core ready && A has a credit && the merge picks A (B has no block or no
//   credit, or it is A's turn). No path from a_m_ready to a_s_ready in either form.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_core_share #(
    parameter [63:0] CORE       = "iter128",
    parameter        SBOX_IMPL  = 0,
    parameter        SLOT_W     = 1,
    parameter        NR_MAX     = 14,
    parameter        DIRECTION  = 2,
    parameter        ROUND_REGS = 1,
    parameter        ROUNDS_PER_CLK = 1,
    parameter        ROUND_STAGES = 2,
    parameter        DEPTH      = 2,
    parameter        IN_REG     = 1
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              zeroize,
    input  wire              key_valid,
    output wire              key_ready,
    input  wire [SLOT_W-1:0] key_slot,
    input  wire [5:0]        key_bytes,
    input  wire [255:0]      key_data,
    input  wire              a_s_valid,
    output wire              a_s_ready,
    input  wire [127:0]      a_s_data,
    input  wire [SLOT_W-1:0] a_s_slot,
    input  wire              a_s_dec,
    output wire              a_m_valid,
    input  wire              a_m_ready,
    output wire [127:0]      a_m_data,
    output wire              a_m_err,
    input  wire              b_s_valid,
    output wire              b_s_ready,
    input  wire [127:0]      b_s_data,
    input  wire [SLOT_W-1:0] b_s_slot,
    input  wire              b_s_dec,
    output wire              b_m_valid,
    input  wire              b_m_ready,
    output wire [127:0]      b_m_data,
    output wire              b_m_err
);
    generate
        `AESIP_CHECK(DEPTH >= 1 && DEPTH <= 8, aes_core_share_DEPTH_not_1_to_8,
                     "aes_core_share: DEPTH must be 1 .. 8")
        `AESIP_CHECK(IN_REG == 0 || IN_REG == 1, aes_core_share_IN_REG_not_0_or_1,
                     "aes_core_share: IN_REG must be 0 or 1")
    endgenerate
    localparam CW = (DEPTH < 2) ? 1 : (DEPTH < 4) ? 2 : (DEPTH < 8) ? 3 : 4;   // credit count
    localparam PW = (DEPTH < 3) ? 1 : (DEPTH < 5) ? 2 : 3;                     // FIFO pointer

    // ---------------------------------------------------------------- merge into the core
    reg  [CW-1:0] a_cnt, b_cnt;       // blocks outstanding per side (taken, result not yet taken)
    reg           last_b;             // the side the core took last was B (A goes first on a tie)
    wire a_cr = (a_cnt != DEPTH[CW-1:0]);
    wire b_cr = (b_cnt != DEPTH[CW-1:0]);
    // each side's candidate for the core: the offered block (IN_REG = 0) or the block in
    // the side's input register (IN_REG = 1)
    wire              a_fv, b_fv;
    wire [127:0]      a_fd, b_fd;
    wire [SLOT_W-1:0] a_fs, b_fs;
    wire              a_fx, b_fx;
    wire pick_b = b_fv && (!a_fv || !last_b);
    wire c_s_ready;
    wire c_s_valid = a_fv || b_fv;
    wire a_go = c_s_valid && c_s_ready && !pick_b;   // the core takes A's candidate
    wire b_go = c_s_valid && c_s_ready && pick_b;
    wire a_take = a_s_valid && a_s_ready;            // a block taken from the lane
    wire b_take = b_s_valid && b_s_ready;
    generate if (IN_REG) begin : g_inreg
        // input registers: the readies come from registers only; zero while empty
        reg              a_iv, b_iv;
        reg [127:0]      a_id, b_id;
        reg [SLOT_W-1:0] a_is, b_is;
        reg              a_ix, b_ix;
        assign a_s_ready = !a_iv && a_cr;
        assign b_s_ready = !b_iv && b_cr;
        always @(posedge clk) begin
            if (rst) begin
                a_iv <= 1'b0; a_id <= 128'd0; a_is <= {SLOT_W{1'b0}}; a_ix <= 1'b0;
                b_iv <= 1'b0; b_id <= 128'd0; b_is <= {SLOT_W{1'b0}}; b_ix <= 1'b0;
            end else begin
                if (a_take) begin
                    a_iv <= 1'b1; a_id <= a_s_data; a_is <= a_s_slot; a_ix <= a_s_dec;
                end else if (a_go) begin
                    a_iv <= 1'b0; a_id <= 128'd0; a_is <= {SLOT_W{1'b0}}; a_ix <= 1'b0;
                end
                if (b_take) begin
                    b_iv <= 1'b1; b_id <= b_s_data; b_is <= b_s_slot; b_ix <= b_s_dec;
                end else if (b_go) begin
                    b_iv <= 1'b0; b_id <= 128'd0; b_is <= {SLOT_W{1'b0}}; b_ix <= 1'b0;
                end
            end
        end
        assign a_fv = a_iv; assign a_fd = a_id; assign a_fs = a_is; assign a_fx = a_ix;
        assign b_fv = b_iv; assign b_fd = b_id; assign b_fs = b_is; assign b_fx = b_ix;
    end else begin : g_direct
        assign a_s_ready = a_go;
        assign b_s_ready = b_go;
        assign a_fv = a_s_valid && a_cr; assign a_fd = a_s_data; assign a_fs = a_s_slot; assign a_fx = a_s_dec;
        assign b_fv = b_s_valid && b_cr; assign b_fd = b_s_data; assign b_fs = b_s_slot; assign b_fx = b_s_dec;
    end endgenerate
    wire [127:0] c_s_data = pick_b ? b_fd : a_fd;
    wire [SLOT_W-1:0] c_s_slot = pick_b ? b_fs : a_fs;
    wire c_s_dec = pick_b ? b_fx : a_fx;

    wire         c_m_valid;
    wire [127:0] c_m_data;
    wire [1:0]   c_m_user;            // {side (1 = B), err}
    aes_core #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(SLOT_W), .TAG_W(1), .NR_MAX(NR_MAX),
               .DIRECTION(DIRECTION), .ROUND_REGS(ROUND_REGS), .ROUNDS_PER_CLK(ROUNDS_PER_CLK),
               .ROUND_STAGES(ROUND_STAGES)) u_core (
        .clk(clk), .rst(rst), .zeroize(zeroize),
        .key_valid(key_valid), .key_ready(key_ready), .key_slot(key_slot), .key_bytes(key_bytes),
        .key_data(key_data),
        .s_axis_tvalid(c_s_valid), .s_axis_tready(c_s_ready), .s_axis_tdata(c_s_data),
        .s_axis_tuser({pick_b, c_s_slot, c_s_dec}),
        // never stalled: every block in the core has a free entry in its side's FIFO
        .m_axis_tvalid(c_m_valid), .m_axis_tready(1'b1), .m_axis_tdata(c_m_data),
        .m_axis_tuser(c_m_user),
        /* verilator lint_off PINCONNECTEMPTY */
        .kx_out(),
        /* verilator lint_on PINCONNECTEMPTY */
        .kx_in(41'd0));

    // ---------------------------------------------------------------- result FIFOs
    wire a_wr = c_m_valid && !c_m_user[1];
    wire b_wr = c_m_valid &&  c_m_user[1];
    // zeroize: every block in an input register or inside the core at the zeroize edge (or
    // taken in that cycle) is poisoned: per side, the next a_po / b_po results (the core
    // keeps each side's order) are stored as errors with zero data, whatever the core
    // delivers for them
    reg  [CW-1:0] a_ic, b_ic;         // blocks taken per side whose result is not in the FIFO
    reg  [CW-1:0] a_po, b_po;         // results still to poison per side
    wire [CW-1:0] a_ic_n = a_ic + {{(CW-1){1'b0}}, a_take} - {{(CW-1){1'b0}}, a_wr};
    wire [CW-1:0] b_ic_n = b_ic + {{(CW-1){1'b0}}, b_take} - {{(CW-1){1'b0}}, b_wr};
    wire a_bad = zeroize || a_po != {CW{1'b0}};
    wire b_bad = zeroize || b_po != {CW{1'b0}};
    wire [128:0] w_ent = (c_m_user[1] ? b_bad : a_bad) ? {1'b1, 128'd0} : {c_m_user[0], c_m_data};
    always @(posedge clk) begin
        if (rst) begin
            a_ic <= {CW{1'b0}}; b_ic <= {CW{1'b0}};
            a_po <= {CW{1'b0}}; b_po <= {CW{1'b0}};
        end else begin
            a_ic <= a_ic_n;
            b_ic <= b_ic_n;
            if (zeroize) a_po <= a_ic_n;
            else if (a_wr && a_po != {CW{1'b0}}) a_po <= a_po - 1'b1;
            if (zeroize) b_po <= b_ic_n;
            else if (b_wr && b_po != {CW{1'b0}}) b_po <= b_po - 1'b1;
        end
    end
    reg  [128:0] a_mem [0:DEPTH-1];
    reg  [128:0] b_mem [0:DEPTH-1];
    reg  [PW-1:0] a_rd, a_wp, b_rd, b_wp;
    reg  [DEPTH-1:0] a_v, b_v;        // entry holds a result
    wire a_rd_go = a_m_valid && a_m_ready;
    wire b_rd_go = b_m_valid && b_m_ready;
    function automatic [PW-1:0] ptr_next;
        input [PW-1:0] p;
        begin
            ptr_next = (p == DEPTH[PW-1:0] - 1'b1 || DEPTH == 1) ? {PW{1'b0}} : p + 1'b1;
        end
    endfunction
    integer i;
    always @(posedge clk) begin
        if (rst) begin
            a_cnt <= {CW{1'b0}}; b_cnt <= {CW{1'b0}}; last_b <= 1'b0;
            a_rd <= {PW{1'b0}}; a_wp <= {PW{1'b0}}; a_v <= {DEPTH{1'b0}};
            b_rd <= {PW{1'b0}}; b_wp <= {PW{1'b0}}; b_v <= {DEPTH{1'b0}};
            for (i = 0; i < DEPTH; i = i + 1) begin
                a_mem[i] <= 129'd0;
                b_mem[i] <= 129'd0;
            end
        end else begin
            a_cnt <= a_cnt + {{(CW-1){1'b0}}, a_take} - {{(CW-1){1'b0}}, a_rd_go};
            b_cnt <= b_cnt + {{(CW-1){1'b0}}, b_take} - {{(CW-1){1'b0}}, b_rd_go};
            if (a_go) last_b <= 1'b0;
            if (b_go) last_b <= 1'b1;
            if (a_rd_go) a_rd <= ptr_next(a_rd);
            if (b_rd_go) b_rd <= ptr_next(b_rd);
            if (a_wr) a_wp <= ptr_next(a_wp);
            if (b_wr) b_wp <= ptr_next(b_wp);
            for (i = 0; i < DEPTH; i = i + 1) begin
                // an entry is zero once its result has been taken; zeroize turns the held
                // ones into errors with zero data
                if (a_wr && a_wp == i[PW-1:0]) begin
                    a_mem[i] <= w_ent; a_v[i] <= 1'b1;
                end else if (a_rd_go && a_rd == i[PW-1:0]) begin
                    a_mem[i] <= 129'd0; a_v[i] <= 1'b0;
                end else if (zeroize && a_v[i]) a_mem[i] <= {1'b1, 128'd0};
                if (b_wr && b_wp == i[PW-1:0]) begin
                    b_mem[i] <= w_ent; b_v[i] <= 1'b1;
                end else if (b_rd_go && b_rd == i[PW-1:0]) begin
                    b_mem[i] <= 129'd0; b_v[i] <= 1'b0;
                end else if (zeroize && b_v[i]) b_mem[i] <= {1'b1, 128'd0};
            end
        end
    end
    assign a_m_valid = a_v[a_rd];
    assign b_m_valid = b_v[b_rd];
    wire [128:0] a_head = a_mem[a_rd];
    wire [128:0] b_head = b_mem[b_rd];
    assign a_m_data = a_head[127:0];
    assign a_m_err  = a_head[128];
    assign b_m_data = b_head[127:0];
    assign b_m_err  = b_head[128];
`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // Proven by formal/aes_core_share.sby (docs/formal.md) against the abstract core
    // (formal/stubs/aes_core.v: one result per block, in order, with its tag, at a free
    // time, with free data). `define F_AES_CORE_SHARE when this module is the top of the
    // proof: its inputs are then assumed to follow the stream rules, else asserted.
`ifdef F_AES_CORE_SHARE
    localparam F_TOP = 1;
`else
    localparam F_TOP = 0;
`endif
    wire [7:0] f_ain, f_aout, f_bin, f_bout;
    wire       f_past;
    // (flush on the outputs: zeroize replaces a presented result, see the ports above)
    /* verilator lint_off PINCONNECTEMPTY */
    axis_props #(.DATA_W(128), .USER_W(SLOT_W+1), .CNT_W(8), .ASSUME_IN(F_TOP)) f_as (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(a_s_valid), .tready(a_s_ready), .tdata(a_s_data),
        .tkeep(1'b1), .tlast(1'b0), .tuser({a_s_slot, a_s_dec}), .count(f_ain), .f_past(f_past));
    axis_props #(.DATA_W(128), .USER_W(SLOT_W+1), .CNT_W(8), .ASSUME_IN(F_TOP)) f_bs (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(b_s_valid), .tready(b_s_ready), .tdata(b_s_data),
        .tkeep(1'b1), .tlast(1'b0), .tuser({b_s_slot, b_s_dec}), .count(f_bin), .f_past());
    axis_props #(.DATA_W(128), .CNT_W(8), .ASSUME_IN(0)) f_am (
        .clk(clk), .rst(rst), .flush(zeroize), .tvalid(a_m_valid), .tready(a_m_ready), .tdata(a_m_data),
        .tkeep(1'b1), .tlast(1'b0), .tuser(a_m_err), .count(f_aout), .f_past());
    axis_props #(.DATA_W(128), .CNT_W(8), .ASSUME_IN(0)) f_bm (
        .clk(clk), .rst(rst), .flush(zeroize), .tvalid(b_m_valid), .tready(b_m_ready), .tdata(b_m_data),
        .tkeep(1'b1), .tlast(1'b0), .tuser(b_m_err), .count(f_bout), .f_past());
    /* verilator lint_on PINCONNECTEMPTY */
    generate if (F_TOP) begin : f_top
        always @(*) if (!f_past) assume(rst);
    end endgenerate

    // per side: never more results than blocks, never more than DEPTH outstanding; a
    // result written from the core never lands on a held FIFO entry (nothing lost), and
    // the core is never offered a result it could not deliver (m_axis_tready is 1)
    wire [7:0] f_aopen = f_ain - f_aout;
    wire [7:0] f_bopen = f_bin - f_bout;
    always @(*) if (f_past && !rst) begin
        assert(f_aopen <= DEPTH);
        assert(f_bopen <= DEPTH);
        assert(f_aopen == {{(8-CW){1'b0}}, a_cnt});
        assert(f_bopen == {{(8-CW){1'b0}}, b_cnt});
        assert(!(a_wr && a_v[a_wp]));
        assert(!(b_wr && b_v[b_wp]));
        assert(a_po <= a_ic && b_po <= b_ic);
    end

    // fail closed on zeroize: every block outstanding on a side after a zeroize edge
    // (taken, its result not yet taken) is delivered with err = 1 and zero data
    reg [7:0] f_za = 8'd0, f_zb = 8'd0;  // such results still to come per side
    always @(posedge clk) begin
        if (rst) begin
            f_za <= 8'd0; f_zb <= 8'd0;
        end else if (zeroize) begin
            f_za <= f_aopen + {7'd0, a_take} - {7'd0, a_rd_go};
            f_zb <= f_bopen + {7'd0, b_take} - {7'd0, b_rd_go};
        end else begin
            if (a_rd_go && f_za != 8'd0) f_za <= f_za - 1'b1;
            if (b_rd_go && f_zb != 8'd0) f_zb <= f_zb - 1'b1;
        end
    end
    always @(*) if (f_past && !rst) begin
        if (a_m_valid && f_za != 8'd0) assert(a_m_err && a_m_data == 128'd0);
        if (b_m_valid && f_zb != 8'd0) assert(b_m_err && b_m_data == 128'd0);
    end

    // covers: both FIFOs full at once; a result on each side after a zeroize
    always @(posedge clk) if (f_past && !rst) begin
        cover(&a_v && &b_v);
        cover(a_rd_go && f_za != 8'd0 && b_rd_go && f_zb != 8'd0);
    end
`endif
endmodule
`default_nettype wire
