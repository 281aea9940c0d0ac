// SPDX-License-Identifier: Apache-2.0
// pipe_obuf: output buffer of the free-running block pipelines aes_pipe (DW 128) and
// tdea_pipe (DW 64). The pipeline in front of it runs free (no clock enable); the core
// admits a block only while it holds a credit, so every block that leaves the last round
// finds room here, and the m_axis_tready -> s_axis_tready path of a globally enabled
// pipeline does not exist.
//
// Structure, oldest block first: the output stage (output register O on m_axis_*, and its
// skid register K), a skid register S, a head register R and a FIFO of 2**DAW entries
// (data, tags and err flags in distributed RAM, the data RAM wiped after kill).
//   * m_axis_tready steers the output stage only (O's enable and K's valid bit). The
//     buffer offers its oldest block to the output stage, and hands it over whenever K is
//     empty (a register); it goes into O if O is free or being taken, else into K, and O
//     reloads from K first. So no decision inside the buffer (hand-over, S, pop, push,
//     pointers, kill mark) depends on m_axis_tready.
//   * Every data register's enable, clear and input select is a function of registers
//     (the valid bits, r_err, fifo_empty) and kill; the arriving block's in_valid (a
//     register of the core) steers the pointers and valid bits only: the core delivers
//     in_data as zero unless in_valid is set and in_err clear, so the buffer does not
//     gate the data again (the valid bit of the last pipeline position, placed with the
//     pipeline, then has no path into the 128 data bits of S, K and O). K is a plain
//     skid register: it loads the offered block
//     whenever it is empty (enable: K's valid bit), so it keeps the block handed over
//     while O is held; while empty it holds a copy of the block handed to O at the same
//     edge, or zero. S's enable and select come from s_load (registers: an arriving block
//     would go into S).
//   * R loads only from the RAM, at the registered read pointer, with nothing but its
//     enable and a synchronous clear between the RAM read and the register; O never
//     reads the RAM. The FIFO's empty flag is a register, and so is a one-entry flag
//     beside it, so the flag's next value needs no pointer increment and compare.
//   * A block arriving while K is empty and nothing is buffered is handed straight to the
//     output stage, so the buffer adds no latency. A block arriving while S and R will be
//     empty after the edge and the FIFO is empty goes into S (the output stage takes S,
//     then R, then the arriving block); any other block is pushed into the FIFO.
//   * So a FIFO entry is never needed before R holds it (S holds an older block whenever
//     R is empty and the FIFO is not; S and R empty imply an empty FIFO), and O takes one
//     block per clock from K, S, R or the input: the m_axis timing is that of a plain
//     FIFO with an output register.
//   * The err flag of a FIFO entry is stored with its tag in the RAM; kill marks the
//     entries present after its edge with a kill mark, the write pointer after that edge,
//     and so does every clock of the RAM wipe (a block pushed then carries err, but its
//     data write gives way to the wipe): while kill_pend is set the entries from the read
//     pointer up to the mark are err, and kill_pend falls when the read pointer reaches
//     the mark after the wipe (an equality of registers). No count, adder or per-entry
//     flag register lies on these paths.
//   * S, R and O read zero while empty, S, R and K after kill; S and R also while they
//     hold an err block (an err block is written with zero data; R loads an entry in the
//     kill mark's range as zero), so no err flag masks the data on the way to the output
//     stage.
//
//   * The RAM is built of banks of 2**BANK_AW entries and slices of SLICE_W data bits,
//     each with its own registered copies of the write address, the bank select, the
//     wipe flag and the read address, loaded from the next values of the pointers and
//     the wipe counter. So no LUT stands between a flip-flop and a LUT-RAM address pin
//     or write enable (the data RAM writes its free entry in every clock); a single
//     address select for the whole RAM drove 512 write-address pins of aes_pipe's
//     128-bit x 64-entry buffer on ECP5 and was most of its endpoints later than 5.75 ns.
//
// Parameters
//   DW      : block width in bits (>= 1, default 128)
//   DAW     : FIFO address width (>= 1): 2**DAW entries, plus the O, S and R registers
//   TAG_W   : tag width (>= 1)
//   BANK_AW : address width of one RAM bank (>= 1, default 5: a RAM32M on xc7, two
//             DPR16X4 rows on ECP5); min(BANK_AW, DAW) is used, 2**(DAW - that) banks
//   SLICE_W : data bits per RAM slice with its own address registers (>= 1, default 32)
// Ports
//   clk, rst      : clock; synchronous reset (empties the buffer, starts the wipe)
//   kill          : one-cycle pulse (zeroize): every block in K, S, R and the FIFO, and a
//                   block entering them in the same cycle, is marked err (its data reads
//                   zero); the block in the output register after the edge, i.e. already
//                   there or moving in at this edge, is kept (AXI4-Stream: valid data do
//                   not change until taken); the data RAM is then wiped
//   in_valid      : a block leaves the last round this cycle (never more than the
//                   credits the core handed out, so the buffer cannot overflow)
//   in_err/in_tag/in_data : that block; in_data must be zero unless in_valid is set and
//                   in_err clear (zero in every clock without a block, and for an err
//                   block; asserted of aes_pipe in formal/aes_pipe.sby; tdea_pipe's
//                   result register loads zero in every clock without a block)
//   m_axis_*      : output stream; tuser = {tag, err}; tdata is zero when err is set
//   taken         : m_axis_tvalid && m_axis_tready (one credit returns)
//   wiping        : the data RAM is being wiped (2**DAW clocks after rst or kill)
//   wiping_nx     : wiping after the next edge unless rst or kill is set (for a caller
//                   that precomputes a condition on wiping one clock ahead)
// Timing: a block with in_valid at edge E is presented on m_axis from edge E (output
// register free) or after the blocks ahead of it; one block per clock in and out.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module pipe_obuf #(
    parameter DW    = 128,
    parameter DAW   = 4,
    parameter TAG_W = 8,
    parameter BANK_AW = 5,
    parameter SLICE_W = 32
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             kill,
    input  wire             in_valid,
    input  wire             in_err,
    input  wire [TAG_W-1:0] in_tag,
    input  wire [DW-1:0]     in_data,
    output wire             m_axis_tvalid,
    input  wire             m_axis_tready,
    output wire [DW-1:0]     m_axis_tdata,
    output wire [TAG_W:0]   m_axis_tuser,
    output wire             taken,
    output wire             wiping,
    output wire             wiping_nx
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(DAW >= 1, pipe_obuf_DAW_below_1, "pipe_obuf: DAW must be >= 1")
        `AESIP_CHECK(DW >= 1, pipe_obuf_DW_below_1, "pipe_obuf: DW must be >= 1")
        `AESIP_CHECK(TAG_W >= 1, pipe_obuf_TAG_W_below_1, "pipe_obuf: TAG_W must be >= 1")
        `AESIP_CHECK(BANK_AW >= 1, pipe_obuf_BANK_AW_below_1, "pipe_obuf: BANK_AW must be >= 1")
        `AESIP_CHECK(SLICE_W >= 1, pipe_obuf_SLICE_W_below_1, "pipe_obuf: SLICE_W must be >= 1")
    endgenerate

    localparam BAW = (BANK_AW < DAW) ? BANK_AW : DAW;   // address bits inside a bank
    localparam NB  = 1 << (DAW - BAW);                  // banks
    localparam NS  = (DW + SLICE_W - 1) / SLICE_W;      // data slices per bank
    reg [DAW:0]     wr_ptr, rd_ptr;        // one wrap bit: empty when equal
    reg [DAW:0]     rd_ptr_p2;             // register: rd_ptr + 2
    reg             fifo_empty;            // register: wr_ptr == rd_ptr
    reg             fifo_one;              // register: wr_ptr == rd_ptr + 1
    reg [DAW:0]     kill_mark;             // wr_ptr after the last kill or wipe edge
    reg [DAW:0]     kill_mark_m1;          // register: kill_mark - 1
    reg             kill_pend;             // entries rd_ptr .. kill_mark - 1 are err
    reg             wipe_busy;
    reg [DAW-1:0]   wipe_addr;

    reg             s_valid, s_err;        // skid register S (from the input)
    reg [TAG_W-1:0] s_tag;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [DW-1:0]    s_data;               // S's data (the slices' registers, g_dsl; read by formal)
    /* verilator lint_on UNUSEDSIGNAL */
    reg             r_valid, r_err;        // head register R (from the RAM)
    reg [TAG_W-1:0] r_tag;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [DW-1:0]    r_data;               // R's data (the slices' registers, g_dsl; read by tests)
    /* verilator lint_on UNUSEDSIGNAL */
    reg             out_valid, out_err;    // output register O
    reg             k_valid, k_err;        // skid register K of the output stage
    reg [TAG_W-1:0] k_tag;
    reg [TAG_W-1:0] out_tag;
    wire [DW-1:0]    out_data;

    // ---- decisions. Every one is a function of registers and in_valid (a register of
    // the core); m_axis_tready steers O and K only (out_free and k_valid's next value).
    wire out_free   = !out_valid || m_axis_tready;
    wire adv        = !k_valid;            // the output stage takes a block this clock
    // the output stage takes the oldest block: S, else R, else the arriving block
    // (nothing buffered: S and R empty imply an empty FIFO, see the header)
    wire idle       = adv && !s_valid && !r_valid && fifo_empty;
    wire s_to_o     = adv && s_valid;
    wire r_to_o     = adv && !s_valid && r_valid;
    wire in_to_o    = idle && in_valid;
    wire h_valid    = s_to_o || r_to_o || in_to_o;    // a block is handed over
    // s_load: an arriving block would go into S (S and R empty after the edge, the FIFO
    // empty, and it is not handed over), a function of registers alone
    wire s_empty_nx = !s_valid || adv;
    wire r_empty_nx = !r_valid || r_to_o;
    wire s_load     = !idle && fifo_empty && s_empty_nx && r_empty_nx;
    wire in_to_s    = in_valid && s_load;
    // push = in_valid && !idle && !s_load; the second factor, a function of registers,
    // is precomputed into the register push_ok (below), so that push is one gate of two
    // flip-flops on the way to the write address copies of the RAM
    reg              push_ok;
    wire push       = in_valid && push_ok;
    // R loads the FIFO head whenever it is empty after the edge: !fifo_empty &&
    // r_empty_nx, a function of registers, precomputed one clock ahead into the register
    // pop_q (below, from the next values of the valid bits and the FIFO-empty flag), so
    // that R's DW-bit enable, the read pointer and kerr_q's next value start at a flop
    reg              pop_q;
    wire pop        = pop_q;

    wire [DAW-1:0]   rd_addr  = rd_ptr[DAW-1:0];
    reg  [DAW:0]     wr_ptr_p1, wr_ptr_p2; // registers: wr_ptr + 1, wr_ptr + 2
    wire [DAW:0]     wr_ptr_up = wr_ptr_p1;
    localparam [DAW:0] ONE = 1;
    localparam [DAW:0] TWO = 2;
    reg  [DAW:0]     rd_ptr_p1;            // register: rd_ptr + 1
    wire [DAW:0]     rd_ptr_up = rd_ptr_p1;
    wire [DAW:0]     wr_ptr_dn = wr_ptr - 1'b1;
    // next values of the pointers and of the wipe counter (the registers load them), from
    // which the RAM's address registers are loaded
    wire [DAW:0]     wr_ptr_n    = rst ? {(DAW + 1){1'b0}} : push ? wr_ptr_up : wr_ptr;
    wire [DAW:0]     rd_ptr_n    = rst ? {(DAW + 1){1'b0}} : pop ? rd_ptr_up : rd_ptr;
    reg              wnx_q;                // register: wiping_nx (wipe_busy && !&wipe_addr)
    wire             wipe_busy_n = rst || kill || wnx_q;
    wire [DAW-1:0]   wipe_addr_n = (rst || kill) ? {DAW{1'b0}} :
                                   wipe_busy ? wipe_addr + 1'b1 : wipe_addr;
    // The data RAM's write address of the next clock: the wipe's, else the write pointer,
    // i.e. wipe_busy_n ? wipe_addr_n : wr_ptr_n. Its two candidates (a block pushed or not)
    // are precomputed into the registers dwa_a / dwa_b, so that the value loaded into
    // every bank's and slice's address copy is one select of registers by push, rst and
    // kill: no adder or wipe decode lies before the route to the copies (that path,
    // wr_ptr -> increment -> selects -> the copies across the device, was aes_pipe's
    // critical path on ECP5 at 146.8 MHz, aes128-enc).
    reg  [DAW-1:0]   dwa_a, dwa_b;
    wire [DAW-1:0]   dwa_n       = (rst || kill) ? {DAW{1'b0}} : push ? dwa_a : dwa_b;
    // their next values: wnx_n = wipe_busy_n && !(&wipe_addr_n), written as a compare
    // of the register (while wnx_q the wipe counter moves, so wipe_addr_n is all ones
    // exactly when wipe_addr is all ones minus one); wipe_nn = wipe_addr_n + 1 and
    // wr_ptr_nn = wr_ptr_n + 1 from parallel increments and the registers wr_ptr_p1 / _p2
    // (no increment behind another: two in a row were 8.1 ns on ECP5)
    localparam [DAW-1:0] WA_LAST_M1 = {DAW{1'b1}} - 1'b1;
    wire             wnx_n       = rst || kill || (wnx_q && (wipe_addr != WA_LAST_M1));
    wire [DAW-1:0]   wipe_nn     = (rst || kill) ? {{(DAW-1){1'b0}}, 1'b1} :
                                   wipe_busy ? wipe_addr + TWO[DAW-1:0] : wipe_addr + 1'b1;
    wire [DAW-1:0]   wr_ptr_nn   = push ? wr_ptr_p2[DAW-1:0] : wr_ptr_p1[DAW-1:0];
    always @(posedge clk) begin
        wnx_q <= wnx_n;
        dwa_a <= wnx_n ? wipe_nn : wr_ptr_nn;
        dwa_b <= wnx_n ? wipe_nn : wr_ptr_n[DAW-1:0];
    end
    wire [DAW-1:0]   dbank_n     = dwa_n >> BAW;
    wire [DAW-1:0]   tbank_n     = wr_ptr_n[DAW-1:0] >> BAW;
    wire [DAW-1:0]   rd_bank     = rd_addr >> BAW;

    // RAM write ports: the entry at the write pointer is written in every clock, with the
    // arriving block or, without one, zero data (in_data's contract) and a stale tag;
    // a block is written whether it is pushed or goes into O or S (then wr_ptr does not
    // move and the entry stays free). The credits guarantee that this entry is always
    // free (the FIFO, S, R, K and O together never hold more than 2**DAW + 1 blocks, O
    // is full whenever the FIFO is not empty, and R or S is full whenever the FIFO is
    // not empty, so the FIFO never holds more than 2**DAW - 1 entries: a formal
    // property below). The write enable is therefore the registered bank select alone:
    // no decision, and not in_valid either (from the last pipeline position, its route
    // to 128 write enables was aes_pipe's critical path on ECP5, 8.0 ns, 6 ns of it one
    // route).
    // The wipe has priority on the data RAM (a block pushed while the RAM is wiped
    // carries err, so its data is not needed: it reads as zero through its flag).
    // Distributed RAM: an inferred block RAM has no output register in Yosys (its
    // clock-to-out would cap m_axis near 134 MHz on ECP5, see docs/synthesis.md).
    // Each bank and slice has its own address, select and wipe registers (keep_reg: Yosys
    // would merge identical flip-flops), so the placer puts each beside its RAM cells.
`ifdef FORMAL
    reg f_rst_seen = 1'b0;                 // a reset has been seen (formal properties)
    always @(posedge clk) if (rst) f_rst_seen <= 1'b1;
    wire [DAW-1:0] f_dwa = wipe_busy ? wipe_addr : wr_ptr[DAW-1:0];
`endif
    wire [NB*DW-1:0]        rd_data_all;
    wire [NB*(TAG_W+1)-1:0] rd_te_all;
    genvar gb, gs;
    generate
        for (gb = 0; gb < NB; gb = gb + 1) begin : g_bank
            localparam [DAW-1:0] BI = gb;
            for (gs = 0; gs < NS; gs = gs + 1) begin : g_slice
                localparam LO = gs * SLICE_W;
                localparam W  = (DW - LO < SLICE_W) ? DW - LO : SLICE_W;
                (* ram_style = "distributed" *) reg [W-1:0] mem [0:(1 << BAW) - 1];
                wire [BAW-1:0] wa_q, ra_q;
                wire           sel_q, wipe_q;
                keep_reg #(.W(2 * BAW + 2)) u_ctl (
                    .clk(clk), .rst(1'b0),
                    .d({dwa_n[BAW-1:0], rd_ptr_n[BAW-1:0], dbank_n == BI, wipe_busy_n}),
                    .q({wa_q, ra_q, sel_q, wipe_q}));
                always @(posedge clk) begin
                    if (sel_q) mem[wa_q] <= wipe_q ? {W{1'b0}} : in_data[LO +: W];
                end
                assign rd_data_all[gb * DW + LO +: W] = mem[ra_q];
`ifdef FORMAL
                // the copies equal the selects they stand for
                always @(*) if (f_rst_seen) begin
                    assert(wa_q == f_dwa[BAW-1:0]);
                    assert(sel_q == ((f_dwa >> BAW) == BI));
                    assert(wipe_q == wipe_busy);
                    assert(ra_q == rd_addr[BAW-1:0]);
                end
`endif
            end
            // {err, tag}: written at the write pointer whenever a block arrives
            (* ram_style = "distributed" *) reg [TAG_W:0] tmem [0:(1 << BAW) - 1];
            wire [BAW-1:0] wa_q, ra_q;
            wire           sel_q;
            keep_reg #(.W(2 * BAW + 1)) u_ctl (
                .clk(clk), .rst(1'b0),
                .d({wr_ptr_n[BAW-1:0], rd_ptr_n[BAW-1:0], tbank_n == BI}),
                .q({wa_q, ra_q, sel_q}));
            always @(posedge clk) begin
                if (sel_q) tmem[wa_q] <= {in_err, in_tag};
            end
            assign rd_te_all[gb * (TAG_W + 1) +: TAG_W + 1] = tmem[ra_q];
`ifdef FORMAL
            always @(*) if (f_rst_seen) begin
                assert(wa_q == wr_ptr[BAW-1:0]);
                assert(sel_q == ((wr_ptr[DAW-1:0] >> BAW) == BI));
                assert(ra_q == rd_addr[BAW-1:0]);
            end
`endif
        end
    endgenerate
    wire [TAG_W:0]   head_te   = rd_te_all[(TAG_W + 1) * rd_bank +: TAG_W + 1];
    wire [TAG_W-1:0] head_tag  = head_te[TAG_W-1:0];
    // an entry is err if it was written err, or if it lies from the read pointer up to the
    // kill mark (in the FIFO at a kill, or pushed while the data RAM was wiped: its RAM data
    // may be stale): kill_pend && rd_ptr != kill_mark, precomputed into the register
    // kerr_q (below). R loads such an entry as zero; every other err entry was written
    // with zero data (in_data is zero when in_err is set), so R's data is zero whenever
    // r_err is set and the offered block needs no err mask.
    reg              kerr_q;
    wire             head_err  = head_te[TAG_W] || kerr_q;

    // FIFO fill of the next clock: fifo_one marks a single entry, so the empty flag's next
    // value needs no pointer increment and compare; cnt_is2 is a compare of registers
    // (rd_ptr_p2 = rd_ptr + 2 is a register counted beside rd_ptr: no carry chain here)
    wire cnt_is2      = (rd_ptr_p2 == wr_ptr);
    wire fifo_empty_n = (push && !pop) ? 1'b0 : (pop && !push) ? fifo_one : fifo_empty;
    wire fifo_one_n   = (push && !pop) ? fifo_empty : (pop && !push) ? cnt_is2 : fifo_one;

    always @(posedge clk) begin
        if (rst) begin
            wr_ptr    <= {(DAW + 1){1'b0}};
            rd_ptr    <= {(DAW + 1){1'b0}};
            rd_ptr_p1 <= ONE;
            rd_ptr_p2 <= TWO;
            wr_ptr_p1 <= ONE;
            wr_ptr_p2 <= TWO;
            fifo_empty <= 1'b1;
            fifo_one  <= 1'b0;
            wipe_busy <= 1'b1;
            wipe_addr <= {DAW{1'b0}};
        end else begin
            wr_ptr    <= wr_ptr_n;
            rd_ptr    <= rd_ptr_n;
            if (pop) rd_ptr_p1 <= rd_ptr_p2;
            if (push) wr_ptr_p1 <= wr_ptr_p2;
            if (push) wr_ptr_p2 <= wr_ptr_p2 + 1'b1;
            if (pop) rd_ptr_p2 <= rd_ptr_p2 + 1'b1;
            fifo_empty <= fifo_empty_n;
            fifo_one   <= fifo_one_n;
            wipe_busy <= wipe_busy_n;
            wipe_addr <= wipe_addr_n;
        end
    end

    // kill marks every entry in the FIFO after its edge (a block pushed at that edge
    // included) err, and so does every push while the data RAM is wiped (after rst or
    // kill; its data write gives way to the wipe, and every such block carries err): the
    // kill mark is the write pointer after a kill edge or a wipe edge (the register or its
    // increment, both from the register), and the entries from the read pointer up to it
    // are err. While the wipe runs the mark equals the write pointer, so the read pointer
    // cannot pass it; after the wipe kill_pend falls once the read pointer has reached the
    // mark (an equality of registers), so a mark left behind never applies to later
    // entries.
    always @(posedge clk) begin
        if (rst || kill) kill_pend <= 1'b1;
        else if (!wipe_busy && (rd_ptr == kill_mark)) kill_pend <= 1'b0;
    end
    always @(posedge clk) begin
        if (rst) begin
            kill_mark    <= {(DAW + 1){1'b0}};
            kill_mark_m1 <= {(DAW + 1){1'b1}};
        end else if (kill || wipe_busy) begin
            kill_mark    <= push ? wr_ptr_up : wr_ptr;
            kill_mark_m1 <= push ? wr_ptr : wr_ptr_dn;
        end
    end
    // kerr_q: the entry at the read pointer lies in the kill mark's range (kill_pend &&
    // rd_ptr != kill_mark), from next-state values: at a kill or wipe edge the mark
    // becomes the write pointer (kill_pend set), so the range is the whole FIFO; else the
    // mark holds and kill_pend falls at rd_ptr == kill_mark, and the read pointer moves
    // by pop (equalities of registers, selected by pop).
    wire mark_eq0 = (rd_ptr == kill_mark);
    wire mark_eq1 = (rd_ptr == kill_mark_m1);        // rd_ptr + 1 == kill_mark, no carry chain
    reg  kerr_n;                           // kerr_q's next value outside reset
    always @(*) begin
        if (kill || wipe_busy) kerr_n = !fifo_empty_n;
        else kerr_n = kill_pend && !mark_eq0 && !(pop && mark_eq1);
    end
    always @(posedge clk) begin
        if (rst) kerr_q <= 1'b0;
        else kerr_q <= kerr_n;
    end

    // next values of the valid bits and the FIFO-empty flag (as the registers below
    // load them outside reset), and from them s_load and adv of the next clock
    wire k_valid_n    = k_valid ? !out_free : (h_valid && !out_free);
    wire out_valid_n  = out_free ? (k_valid || h_valid) : out_valid;
    wire s_valid_n    = in_to_s || (s_valid && !s_to_o);
    wire r_valid_n    = pop || (r_valid && !r_to_o);
    wire adv_n        = !k_valid_n;
    wire idle_n       = adv_n && !s_valid_n && !r_valid_n && fifo_empty_n;
    wire r_to_o_n     = adv_n && !s_valid_n && r_valid_n;
    wire r_empty_nx_n = !r_valid_n || r_to_o_n;       // r_empty_nx of the next clock
    wire s_load_n     = !idle_n && fifo_empty_n && (!s_valid_n || adv_n) && r_empty_nx_n;
    // (s_load and s_load || adv of the next clock go into each data slice's copies,
    // g_dsl; after reset the buffer is idle, so s_load = 0 and adv = 1)
    // pop of the next clock, from the same next values (R's data clear of the next
    // clock, pop ? kerr_q : r_to_o, is loaded into each data slice's rclr_c, g_dsl);
    // after reset the FIFO is empty and R too
    wire pop_n        = !fifo_empty_n && r_empty_nx_n;
    always @(posedge clk) begin
        if (rst) pop_q <= 1'b0;
        else     pop_q <= pop_n;
    end
    // push_ok of the next clock (!idle && !s_load); after reset the buffer is idle
    always @(posedge clk) begin
        if (rst) push_ok <= 1'b0;
        else     push_ok <= !idle_n && !s_load_n;
    end

    // valid bits (reset)
    always @(posedge clk) begin
        if (rst) begin
            s_valid   <= 1'b0;
            r_valid   <= 1'b0;
            k_valid   <= 1'b0;
            out_valid <= 1'b0;
        end else begin
            if (in_to_s) s_valid <= 1'b1;
            else if (s_to_o) s_valid <= 1'b0;
            if (pop) r_valid <= 1'b1;
            else if (r_to_o) r_valid <= 1'b0;
            if (out_free) out_valid <= k_valid || h_valid;
            if (k_valid) begin
                if (out_free) k_valid <= 1'b0;
            end else if (h_valid && !out_free) k_valid <= 1'b1;
        end
    end

    // S: loads the arriving block; zero while empty and after kill (err set). Its enable
    // and the select of its next value come from registers (and kill): S loads in_data
    // if s_load (zero when no block arrives), else zero when it empties or was empty
    // (adv: S is handed over if it holds a block).
    // s_load and s_load || adv are precomputed into registers from the next values of
    // the valid bits and the FIFO-empty flag, one copy per data slice (S's data registers
    // are in g_dsl), so that only kill lies between a register and the DW enables and
    // selects of S (formal properties in g_dsl tie the copies to s_load and adv; one
    // pair for all DW enables was 7.9 ns on ECP5, aes_pipe aes128-enc).
    always @(posedge clk) begin
        if (kill) s_err <= 1'b1;
        else if (in_to_s) s_err <= in_err;
    end
    always @(posedge clk) begin
        if (in_to_s) s_tag <= in_tag;
    end

    // R: loads the RAM read at the registered pointer, with nothing after the RAM but
    // the register's enable and clear (per-slice copies of pop_q and of the clear, registers, and kill); zero while empty
    // and after kill. An entry in the kill mark's range (kerr_q, a register) is loaded
    // as zero; any other err entry holds zero data in the RAM, so R holds zero whenever
    // r_err is set (no flag decode of the RAM read lies on R's clear, and the offered
    // block needs no err mask).
    always @(posedge clk) begin
        if (kill) r_err <= 1'b1;
        else if (pop) r_err <= head_err;
    end
    always @(posedge clk) begin
        if (pop) r_tag <= head_tag;
    end

    // the block offered to the output stage: S, else R (zero when err, see R), else the
    // arriving block (zero unless in_valid, by the input contract); the selects are
    // registers. While K is empty it is handed over exactly when h_valid, and it is zero
    // when nothing is.
    wire             h_err  = s_valid ? s_err : r_valid ? r_err : in_err;
    wire [TAG_W-1:0] h_tag  = s_valid ? s_tag : r_valid ? r_tag : in_tag;

    // K: loads the offered block whenever it is empty (enable: K's valid bit, a
    // register), so it holds the block it keeps when O is held, and while empty a copy
    // of the block handed to O at the same edge, or zero; kill clears it (err set).
    always @(posedge clk) begin
        if (kill) k_err <= 1'b1;
        else if (!k_valid) k_err <= h_err;
    end
    always @(posedge clk) begin
        if (!k_valid) k_tag <= h_tag;
    end

    // output register: loads whenever free or taken, from K if K holds a block, else the
    // offered block (zero when none: tdata and tuser read zero while empty). A block
    // moving in at a kill edge keeps its err flag and data (as O's own block).
    always @(posedge clk) begin
        if (rst) begin
            out_err  <= 1'b0;
            out_tag  <= {TAG_W{1'b0}};
        end else if (out_free) begin
            out_err  <= k_valid ? k_err  : (h_err && h_valid);
            out_tag  <= k_valid ? k_tag  : (h_tag & {TAG_W{h_valid}});
        end
    end

    // The data of R, the offered block, K and O, per slice of SLICE_W bits. Each slice
    // has its own copies of the registers that steer those DW-bit registers (R's enable
    // pop_q and clear (pop ? kerr_q : r_to_o), the RAM's bank select, the valid bits of S,
    // R and K, and O's valid bit for O's enable, !out_valid || m_axis_tready), loaded
    // from the same next values (keep_reg, so synthesis keeps them apart): one select
    // for all DW bits crossed the device, e.g. r_valid -> the offered block -> K's data,
    // 7.9 ns with a 3.9 ns route on ECP5, and O's enable from O's own valid bit, 7.9 ns
    // (aes_pipe aes128-enc).
    wire [DAW-1:0] rd_bank_n = rd_ptr_n[DAW-1:0] >> BAW;
    genvar gd;
    generate
        for (gd = 0; gd < NS; gd = gd + 1) begin : g_dsl
            localparam LO = gd * SLICE_W;
            localparam W  = (DW - LO < SLICE_W) ? DW - LO : SLICE_W;
            wire           pop_c, rclr_c, sv_c, rv_c, kv_c, ov_c, sl_c, sce_c;
            wire [DAW-1:0] rb_c;
            // reset: all clear but the S enable copy (idle after reset: s_load 0, adv 1)
            keep_reg #(.W(DAW + 8), .RST({7'b0000000, 1'b1, {DAW{1'b0}}})) u_ctl (
                .clk(clk), .rst(rst),
                .d({pop_n, pop_n ? kerr_n : r_to_o_n, s_valid_n, r_valid_n, k_valid_n, out_valid_n,
                    s_load_n, s_load_n || adv_n, rd_bank_n}),
                .q({pop_c, rclr_c, sv_c, rv_c, kv_c, ov_c, sl_c, sce_c, rb_c}));
            reg  [W-1:0] s_d, r_d, k_d, o_d;
            // S: loads in_data if s_load (zero when no block arrives), else zero when it
            // empties or was empty; kill clears it
            always @(posedge clk) begin
                if (rst) s_d <= {W{1'b0}};
                else if (kill || sce_c) s_d <= in_data[LO +: W] & {W{!kill && sl_c}};
            end
            assign s_data[LO +: W] = s_d;
            wire [W-1:0] head_d = rd_data_all[DW * rb_c + LO +: W];
            wire [W-1:0] h_d    = sv_c ? s_d : rv_c ? r_d : in_data[LO +: W];
            always @(posedge clk) begin
                if (rst || kill || rclr_c) r_d <= {W{1'b0}};
                else if (pop_c) r_d <= head_d;
            end
            always @(posedge clk) begin
                if (rst || kill) k_d <= {W{1'b0}};
                else if (!kv_c) k_d <= h_d;
            end
            always @(posedge clk) begin
                if (rst) o_d <= {W{1'b0}};
                else if (!ov_c || m_axis_tready) o_d <= kv_c ? k_d : h_d;   // out_free
            end
            assign r_data[LO +: W]   = r_d;
            assign out_data[LO +: W] = o_d;
`ifdef FORMAL
            always @(*) if (f_rst_seen) begin
                assert(pop_c == pop_q);
                assert(rclr_c == ((!fifo_empty && r_empty_nx) ? kerr_q : r_to_o));
                assert(sv_c == s_valid && rv_c == r_valid && kv_c == k_valid && ov_c == out_valid);
                assert(sl_c == s_load && sce_c == (s_load || adv));
                assert(rb_c == rd_bank);
            end
`endif
        end
    endgenerate

    assign m_axis_tvalid = out_valid;
    assign m_axis_tdata  = out_data;
    assign m_axis_tuser  = {out_tag, out_err};
    // taken goes to the core's credit counter, beside its input side: it is formed from a
    // copy of O's valid bit (keep_reg), which the placer can put there (from O's own
    // valid bit, the route across the device to the counter was aes_pipe's critical path
    // on ECP5, 8.1 ns with a 5.6 ns route)
    wire out_valid_c;
    keep_reg u_ovc (.clk(clk), .rst(rst), .d(out_valid_n), .q(out_valid_c));
    assign taken         = out_valid_c && m_axis_tready;
    assign wiping        = wipe_busy;
    assign wiping_nx     = wnx_q;

`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // The precomputed S controls equal the decisions they stand for, in every cycle after
    // the first reset (proven inside formal/aes_pipe.sby, which reads this module).
    always @(*) if (f_rst_seen) begin
        // the input contract: no data without a block, and zero data with an err block
        // (assumed by the stand-alone harness formal/pipe_obuf_fv.v, asserted of the
        // core's last pipeline position in formal/aes_pipe.sby)
        if (!in_valid || in_err) assert(in_data == {DW{1'b0}});
        assert(pop_q == (!fifo_empty && r_empty_nx));
        assert(fifo_empty == (wr_ptr == rd_ptr));
        assert(fifo_one == (wr_ptr == rd_ptr_up));
        assert(kerr_q == (kill_pend && (rd_ptr != kill_mark)));
        assert(kill_mark_m1 == kill_mark - 1'b1);
        assert(rd_ptr_p2 == rd_ptr + TWO);
        assert(rd_ptr_p1 == rd_ptr + ONE);
        assert(wr_ptr_p1 == wr_ptr + ONE);
        // the FIFO never holds more than 2**DAW - 1 entries: the entry at the write
        // pointer is always free (the RAMs write it in every clock)
        assert(wr_ptr != {!rd_ptr[DAW], rd_ptr[DAW-1:0]});
        assert(wr_ptr_p2 == wr_ptr + TWO);
        assert(push_ok == (!idle && !s_load));
        assert(wnx_q == (wipe_busy && !(&wipe_addr)));
        assert(dwa_a == (wnx_q ? wipe_addr + 1'b1 : wr_ptr_up[DAW-1:0]));
        assert(dwa_b == (wnx_q ? wipe_addr + 1'b1 : wr_ptr[DAW-1:0]));
        // an err block in R or S holds zero data (so the offered block needs no mask)
        if (r_err) assert(r_data == {DW{1'b0}});
        assert(out_valid_c == out_valid);
        if (s_err && s_valid) assert(s_data == {DW{1'b0}});
    end
`endif
endmodule
`default_nettype wire
