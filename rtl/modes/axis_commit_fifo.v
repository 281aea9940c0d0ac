// SPDX-License-Identifier: Apache-2.0
// axis_commit_fifo: FIFO whose writes become visible to the reader only when committed.
//
// Used as the output buffer of the mode engine: beats of a packet that must not be
// released before it is verified (store-and-forward CCM decryption) are written
// tentatively and then either committed (all become readable at once) or rolled back
// (all vanish, their space is freed). Beats that need no verification are written with
// wr_commit=1 and are readable the cycle after. Also used as the mode engines' input
// FIFO (every write committed).
//
// Parameters
//   WIDTH : bits per entry (>= 1)
//   AW    : log2 of the depth (DEPTH = 2**AW entries; >= 1)
//   KEEP_OUT : 1 (default) = clear keeps a beat already presented on the read side
//              until it is taken (AXI4-Stream: valid and data hold until the handshake);
//              0 = clear drops it too (for a FIFO whose reader is aborted with it)
// Ports
//   clk, rst  : clock, synchronous active-high reset: empties the FIFO (the memory, a RAM
//               without reset, keeps its old contents, unreachable; clear wipes it)
//   clear     : one-cycle pulse (zeroize): every entry not yet in the output register is
//               discarded, and the memory is overwritten with zeros, one entry per clock
//               (2**AW clocks; wr_ready is low and nothing new is readable meanwhile).
//               With KEEP_OUT = 1 a beat already presented on the read side (m_valid
//               high) stays there until it is taken, as AXI4-Stream requires.
//   wr_valid  : write wr_data this cycle (only when wr_ready)
//   wr_ready  : a free entry exists (committed-unread + tentative entries < DEPTH) and
//               no wipe is running
//   wr_commit : with a write: commit everything written so far including this entry
//   commit    : commit all tentative entries (may coincide with a write; then the
//               written entry is committed too)
//   rollback  : discard all tentative entries (must not coincide with wr_valid/commit)
//   m_valid / m_ready / m_data : read side, AXI4-Stream style; shows committed entries only.
//               m_data is zero whenever m_valid is low (a taken entry leaves no copy in
//               the output register).
//   wiping    : the wipe after clear is running
// Timing: a committed entry is readable the cycle after its commit. Memory read is
// registered through an output register (no combinational path from m_ready to the RAM).
// wr_ready is a register too (computed one edge ahead from the pointers' next values),
// so the writer's handshake starts from a flip-flop.
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module axis_commit_fifo #(
    parameter WIDTH = 146,
    parameter AW    = 8,
    parameter KEEP_OUT = 1
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             clear,
    input  wire             wr_valid,
    output wire             wr_ready,
    input  wire [WIDTH-1:0] wr_data,
    input  wire             wr_commit,
    input  wire             commit,
    input  wire             rollback,
    output reg              m_valid,
    input  wire             m_ready,
    output reg  [WIDTH-1:0] m_data,
    output reg              wiping
);
    // parameter limits (documented above), checked at elaboration
    generate
        `AESIP_CHECK(WIDTH >= 1, axis_commit_fifo_WIDTH_below_1,
                     "axis_commit_fifo: WIDTH must be >= 1")
        `AESIP_CHECK(AW >= 1, axis_commit_fifo_AW_below_1, "axis_commit_fifo: AW must be >= 1")
        `AESIP_CHECK(KEEP_OUT == 0 || KEEP_OUT == 1, axis_commit_fifo_KEEP_OUT_not_0_or_1,
                     "axis_commit_fifo: KEEP_OUT must be 0 or 1")
    endgenerate


    reg [WIDTH-1:0] mem [0:(1<<AW)-1];
    reg [AW:0] wptr;   // next write position
    reg [AW:0] cptr;   // end of committed data
    reg [AW:0] rptr;   // next read position (into the output register)
    reg [AW-1:0] wipe_addr;

    // wr_ready is a register (no carry chain between the pointers and the writer's
    // handshake): at every edge it is set to "a free entry exists and no wipe runs" for
    // the pointers as they are after that edge. The fill after the edge is the fill now
    // plus this cycle's write minus this cycle's read (or, on a rollback, the committed
    // fill minus the read), so the compares are made on the registered fills and the
    // handshakes of the cycle only choose among them.
    reg wr_ready_r;
    assign wr_ready = wr_ready_r;
    wire do_wr = wr_valid && wr_ready;
    wire have_committed = (cptr != rptr) && !wiping;
    wire load_out = have_committed && (!m_valid || m_ready);
    wire [AW:0] used   = wptr - rptr;   // written, not yet in the output register
    wire [AW:0] used_c = cptr - rptr;   // committed, not yet in the output register
    wire used_lt  = used < (1 << AW);          // used     < DEPTH
    wire used_lt1 = used < (1 << AW) - 1;      // used + 1 < DEPTH
    wire used_le  = used <= (1 << AW);         // used - 1 < DEPTH (used >= 1 when reading)
    wire usedc_lt = used_c < (1 << AW);
    wire usedc_le = used_c <= (1 << AW);
    wire ready_next = rollback ? (load_out ? usedc_le : usedc_lt) :
                      (do_wr && !load_out) ? used_lt1 :
                      (!do_wr && load_out) ? used_le : used_lt;

    // one write port: the address and data are selected by the wipe flag (a register)
    // alone, so that the writer's handshake reaches only the write enable, not the
    // RAM's data inputs
    wire [AW-1:0]    mem_waddr = wiping ? wipe_addr : wptr[AW-1:0];
    wire [WIDTH-1:0] mem_wdata = wiping ? {WIDTH{1'b0}} : wr_data;
    always @(posedge clk) begin
        if (wiping || do_wr) mem[mem_waddr] <= mem_wdata;
    end

    always @(posedge clk) begin
        if (rst) begin
            wptr <= 0; cptr <= 0; rptr <= 0;
            m_valid <= 1'b0;
            m_data <= {WIDTH{1'b0}};
            wiping <= 1'b0;
            wipe_addr <= {AW{1'b0}};
            wr_ready_r <= 1'b1;
        end else if (clear) begin
            wptr <= 0; cptr <= 0; rptr <= 0;
            wiping <= 1'b1;
            wr_ready_r <= 1'b0;
            wipe_addr <= {AW{1'b0}};
            if ((m_valid && m_ready) || KEEP_OUT == 0) begin
                m_valid <= 1'b0;
                m_data <= {WIDTH{1'b0}};
            end
        end else begin
            if (wiping) begin
                wipe_addr <= wipe_addr + 1'b1;
                if (&wipe_addr) wiping <= 1'b0;
            end
            // (the pointers stay 0 during a wipe: nothing is written)
            wr_ready_r <= wiping ? (&wipe_addr) : ready_next;
            if (rollback) begin
                wptr <= cptr;
            end else begin
                if (do_wr) wptr <= wptr + 1'b1;
                if (commit || (do_wr && wr_commit)) cptr <= do_wr ? wptr + 1'b1 : wptr;
            end
            if (load_out) begin
                m_data  <= mem[rptr[AW-1:0]];
                m_valid <= 1'b1;
                rptr    <= rptr + 1'b1;
            end else if (m_ready) begin
                m_valid <= 1'b0;
                m_data  <= {WIDTH{1'b0}};
            end
        end
    end
`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // Proven by formal/axis_commit_fifo.sby (docs/formal.md). A shadow model of the
    // documented behaviour, written from the ports: f_wcnt = beats written and not rolled
    // back, f_ccnt = beats committed, f_rcnt = beats moved to the output register,
    // f_hcnt = beats taken on the read side (all since the last rst/clear, mod 2**(AW+1)).
    // `define F_AXIS_COMMIT_FIFO when this module is the top of the proof: its input rule
    // is then assumed and every property below is proven (unbounded, for any environment
    // that keeps the rule). Inside a parent's proof (the mode engines) only the input rule
    // is asserted, which checks the parent and discharges the assumption; the FIFO's own
    // properties are not proven again there (assume-guarantee).
`ifdef F_AXIS_COMMIT_FIFO
    localparam F_TOP = 1;
`else
    localparam F_TOP = 0;
`endif
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    generate if (F_TOP) begin : f_top
        always @(*) if (!f_past) assume(rst);
        // interface rule from the port list: rollback never coincides with a write or
        // commit (a write is wr_valid && wr_ready: wr_valid alone has no effect)
        always @(*) if (!rst && rollback) assume(!(wr_valid && wr_ready) && !commit);
    end else begin : f_sub
        always @(*) if (f_past && !rst && rollback) assert(!(wr_valid && wr_ready) && !commit);
    end endgenerate
`ifdef F_AXIS_COMMIT_FIFO

    // the read side is an AXI4-Stream master
    /* verilator lint_off PINCONNECTEMPTY */
    // (KEEP_OUT = 0: clear withdraws a presented beat, as documented)
    axis_props #(.DATA_W(WIDTH), .CNT_W(AW + 1), .ASSUME_IN(0)) f_m (
        .clk(clk), .rst(rst), .flush(KEEP_OUT == 0 && clear), .tvalid(m_valid), .tready(m_ready), .tdata(m_data),
        .tkeep(1'b1), .tlast(1'b0), .tuser(1'b0), .count(), .f_past());
    /* verilator lint_on PINCONNECTEMPTY */

    reg [AW:0] f_wcnt = 0, f_ccnt = 0, f_rcnt = 0, f_hcnt = 0;
    reg        f_kept = 1'b0; // the output beat was kept over a clear (not numbered)
    reg [AW:0] f_wipe = 0;    // wipe cycles left
    wire f_take = m_valid && m_ready;
    wire [AW:0] f_tent  = f_wcnt - f_ccnt;         // tentative beats
    wire [AW:0] f_avail = f_ccnt - f_rcnt;         // committed, not yet in the output register
    wire [AW:0] f_infl  = f_wcnt - f_hcnt;         // written, not yet taken
    always @(posedge clk) begin
        if (rst) begin
            f_wcnt <= 0; f_ccnt <= 0; f_rcnt <= 0; f_hcnt <= 0; f_kept <= 1'b0; f_wipe <= 0;
        end else if (clear) begin
            f_wcnt <= 0; f_ccnt <= 0; f_rcnt <= 0; f_hcnt <= 0;
            f_kept <= (KEEP_OUT != 0) && m_valid && !m_ready;
            f_wipe <= 1 << AW;
        end else begin
            if (f_wipe != 0) f_wipe <= f_wipe - 1'b1;
            if (rollback) f_wcnt <= f_ccnt;
            else begin
                if (do_wr) f_wcnt <= f_wcnt + 1'b1;
                if (commit || (do_wr && wr_commit)) f_ccnt <= f_wcnt + (do_wr ? 1'b1 : 1'b0);
            end
            if (f_take) begin
                if (f_kept) f_kept <= 1'b0;
                else f_hcnt <= f_hcnt + 1'b1;
            end
        end
        if (!rst && !clear && load_out) f_rcnt <= f_rcnt + 1'b1;
    end

    always @(*) if (f_past && !rst) begin
        // capacity: tentative + committed-unread beats never exceed the depth
        assert({1'b0, f_tent} + {1'b0, f_avail} <= (1 << AW));
        // wr_ready exactly as documented: a free entry exists and no wipe runs
        assert(wr_ready == (({1'b0, f_tent} + {1'b0, f_avail} < (1 << AW)) && (f_wipe == 0)));
        assert(wiping == (f_wipe != 0));
        // the output register holds exactly the loaded, untaken beat (no beat created)
        assert((f_rcnt - f_hcnt) == {{AW{1'b0}}, m_valid && !f_kept});
        assert(!f_kept || (m_valid && f_rcnt == 0 && f_hcnt == 0 && KEEP_OUT != 0));
        // no more beats in flight than the memory and the output register hold
        assert(f_infl <= (1 << AW) + 1);
        // m_data is zero whenever m_valid is low
        if (!m_valid) assert(m_data == {WIDTH{1'b0}});
        // pointers follow the shadow model (invariants for the induction step)
        assert(wptr == f_wcnt && cptr == f_ccnt && rptr == f_rcnt);
        if (f_wipe != 0) assert(wipe_addr == (1 << AW) - f_wipe);
        if (f_wipe != 0) assert(f_wcnt == 0 && f_ccnt == 0 && f_rcnt == 0);
    end

    // no beat lost, committed beats readable the cycle after their commit: a committed
    // beat waiting while the output register is free (or being taken) is loaded
    always @(posedge clk) if (f_past && !rst) begin
        if (!$past(rst) && !$past(clear) && $past(f_avail != 0 && f_wipe == 0 && (!m_valid || m_ready))) assert(m_valid);
        // clear with KEEP_OUT = 0 (or with the beat being taken) empties the output
        if ($past(clear) && !$past(rst) && (KEEP_OUT == 0 || $past(m_ready))) assert(!m_valid);
        // nothing becomes readable during the wipe, nor from tentative beats
        if (!$past(rst) && !$past(clear) && $past(f_avail == 0 || f_wipe != 0) && !$past(m_valid && !m_ready))
            assert(!m_valid);
    end

    // data: the chosen beat number f_n, once written (and not rolled back), is the one
    // the read side hands out as its f_n-th beat (since the last rst/clear)
    (* anyconst *) reg [AW:0] f_n;
    reg              f_armed = 1'b0;
    reg [WIDTH-1:0]  f_data;
    always @(posedge clk) begin
        if (rst || clear) f_armed <= 1'b0;
        else if (rollback && (f_n - f_ccnt) < f_tent) f_armed <= 1'b0;
        else if (f_take && !f_kept && f_hcnt == f_n) f_armed <= 1'b0;
        else if (do_wr && f_wcnt == f_n) begin
            f_armed <= 1'b1;
            f_data  <= wr_data;
        end
    end
    always @(*) if (f_past && !rst) begin
        // an armed beat is live: written and not yet taken (f_n in [f_hcnt, f_wcnt))
        assert(f_armed == ((f_n - f_hcnt) < (f_wcnt - f_hcnt)));
        if (f_armed && (f_n - f_rcnt) < (f_wcnt - f_rcnt) && f_wipe == 0)
            assert(mem[f_n[AW-1:0]] == f_data);
        if (f_armed && m_valid && !f_kept && f_rcnt - 1'b1 == f_n) assert(m_data == f_data);
        if (m_valid && m_ready && !f_kept && f_hcnt == f_n) assert(f_armed && m_data == f_data);
    end

    // clear wipes the memory: when the wipe ends, every entry is zero
    integer f_i;
    always @(posedge clk) if (f_past && !rst && !$past(rst) && !$past(clear) && $past(wiping) && !wiping)
        for (f_i = 0; f_i < (1 << AW); f_i = f_i + 1) assert(mem[f_i] == {WIDTH{1'b0}});

    // cover: a beat read out after a rollback; a wipe completes
    reg f_seen_rb = 1'b0;
    always @(posedge clk) if (rst) f_seen_rb <= 1'b0; else if (rollback && f_tent != 0) f_seen_rb <= 1'b1;
    always @(posedge clk) if (f_past && !rst) begin
        cover(f_seen_rb && m_valid && m_ready && f_hcnt == 1);
        cover($past(wiping) && !wiping && !$past(rst));
    end
`endif  // F_AXIS_COMMIT_FIFO
`endif  // FORMAL
endmodule
`default_nettype wire
