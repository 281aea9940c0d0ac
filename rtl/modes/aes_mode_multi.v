// SPDX-License-Identifier: Apache-2.0
// aes_mode_multi: the mode engine with several packets in flight on one shared pair of
// AES cores. Same ports, command/data/status semantics, error codes and framing rules
// as aes_mode_engine (docs/mode_engine.md); packets may now overlap in time.
//
// Structure
//   * LANES packet contexts (aes_mode_lane, each with its own output commit buffer) and
//     one core A + one core B shared by all lanes. Command i goes to lane i mod LANES,
//     in command order; a command is accepted when its lane is idle and the input
//     demultiplexer has passed that lane's previous packet.
//   * Input: the data beats of each packet go, in packet order, into its lane's input
//     FIFO (2**IN_AW beats). A packet has data (all beats up to and including tlast)
//     iff its aad_len or payload_len field is nonzero, exactly the rule by which a lane
//     consumes beats (including command-rejected packets, which are drained, and
//     framing errors). A small FIFO only reduces the overlap, never correctness.
//   * Cores: PAIRS pairs of cores A and B; lane l uses pair l mod PAIRS.
//     Per core a round-robin arbiter among its lanes that request a block; the
//     core's sideband tag carries the lane index, and each result goes back by tag to
//     that lane, through a per-lane capture register when the lane does not take it in
//     the cycle it leaves the core. Every lane has at most one block outstanding per
//     core, so a capture register is never overwritten and the cores' m_axis_tready
//     is tied high: a pipelined core never stalls and no lane can block another.
//   * Output: packets leave in command order. Packet n's data beats come from lane
//     (n mod LANES)'s buffer up to its tlast beat, then its status beat; a packet that
//     produced no output beat is recognised by the lane's status flag (the status is
//     valid and says "no beats"). The merge therefore never starts on a lane whose
//     previous packet's status is unsent, and a lane cannot finish a packet (write its
//     status) before its previous packet's status has left: lanes may run at most
//     LANES packets ahead of the output.
//
// Key slots (double-buffered: live rekey without a drain)
//   Each logical slot s (2**SLOT_W of them, the command's slot field) has two physical
//   slots in each core, {s, 0} and {s, 1} (the cores are built with SLOT_W + 1), and an
//   active-bank bit bank[s]. A packet takes bank[s] when its command is accepted and
//   runs entirely on physical slot {s, bank} (the lane's bank bit l_bank). A load into s
//   goes into the other bank {s, !bank[s]} while the packets already accepted keep
//   running on the active one; when the expansion is done (both cores' key_ready high
//   again with the loaded slot on their key_slot, which this module drives while the
//   load runs), bank[s] flips. Exception: if packets begun before the previous load of s
//   still run on the other bank and none runs on the active one (a second load soon
//   after the first, whose key no packet took yet), the load goes into the active bank
//   {s, bank[s]} itself (no packet can take it: commands for s are held, below) and
//   bank[s] keeps its value at the "flip". Ordering rule:
//     * a command for s accepted before the cycle key_valid rises for s runs on the
//       old key, even if it is still running when the new key is in force;
//     * from the cycle key_valid is high for s (the handshake cycle included) until the
//       flip (registered: the clock after the cores' key_ready returns), no command
//       for s is accepted (s_axis_cmd_tready low while the next command is for s);
//     * a command for s accepted after the flip runs on the new key.
//   So every packet runs entirely under the key whose handshake was the last one for
//   its slot before its command handshake. Commands for s wait for the expansion
//   (aes_pipe: key_ready low 4 * Nr + 10 clocks after the handshake, 50 for AES-128) + 2
//   clocks (the cycle key_ready is back, the registered flip); the
//   handshake itself waits only for a rst/zeroize scrub, for another slot's load and,
//   for a second load of s while packets begun before the first load still run on one
//   bank and packets begun after it on the other, until one bank is free (no new packet
//   of s starts meanwhile, so the wait ends). A load with an illegal length flips at once to a
//   slot the cores hold invalid: later commands for s get status KEY, running packets
//   finish on the old key. Zeroize and rst clear every physical slot (both banks),
//   every bank bit and a load in progress.
//   Area: the cores' round-key memories (and slot-valid bits) hold 2**(SLOT_W+1) keys
//   instead of 2**SLOT_W, i.e. twice the key storage; plus 2**SLOT_W bank bits, one
//   bank bit per lane and a SLOT_W + 2-bit load register (pending, physical slot) here.
//   After rst / zeroize the cores' key scrub covers both banks (aes_pipe 2**(SLOT_W+2),
//   aes_iter128 2**(SLOT_W+5), aes_iter32 32 * 2**SLOT_W + 1 clocks).
//
// Parameters
//   CORE      : block core used for A and B (aes_core), by name: "pipe" (default; the
//               one whose pipeline the lanes fill), "iter128" or "iter32"
//   SBOX_IMPL : 0 = table S-boxes, 1 = composite-field S-boxes (passed to the cores)
//   SLOT_W    : key-slot index width, 1 .. 8: 2**SLOT_W logical slots (each core is
//               built with SLOT_W + 1: two physical slots, banks, per logical slot)
//   LEN_W     : width of the internal length counters (as aes_mode_engine:
//               BUF_AW + 4 .. 61)
//   BUF_AW    : log2 of each lane's output buffer depth in 16-byte beats (>= 1); the
//               store-and-forward CCM decryption limit is 16 * 2**BUF_AW bytes
//   LANES     : number of packet contexts (>= 2; any value, not only powers of two)
//   IN_AW     : log2 of each lane's input FIFO depth in beats (>= 1); packets of up to
//               2**IN_AW beats (AAD + payload) are taken in at full input rate
//   NR_MAX    : 10, 12 or 14 (default 14): the largest key accepted (as aes_mode_engine)
//   DIRECTION_B : 2 (default) = core B has both directions; 0 = core B is built
//               encrypt-only too (as aes_mode_engine: ECB and CBC decryption commands
//               are refused with status OP, their data beats consumed)
//   ROUND_REGS : CORE "pipe" only (1 otherwise): registers per round of both pipelines
//               (aes_pipe, 1 .. 4 with table or block-RAM S-boxes, up to 7 with
//               composite-field ones; default 1). Each register adds NR_MAX clocks to
//               the pipeline latency, and so to every step of a lane's serial CBC-MAC
//               chain: the lanes fill both pipelines only while LANES is at least about
//               the latency (docs/mode_engine.md, "Several packets in flight")
//   ROUND_STAGES : CORE "iter128" only (1 otherwise): 1 (default) or 2 registers per round
//               in every core (aes_iter128: a round in two clocks, two blocks in flight,
//               so two lanes of a pair share each core step; docs/iter128.md)
//   ROUNDS_PER_CLK : CORE "iter128" only (1 otherwise): 1 (default) or 2 rounds per clock
//               in every core (with ROUND_STAGES = 1; docs/iter128.md)
//   PAIRS     : number of core pairs, 1 (default) .. LANES. Lane l uses pair l mod PAIRS
//               (a core A and a core B with their own round-robin arbiters among those
//               lanes); every pair gets every key load in the same clock. With CORE
//               "iter128" only pair 0's core A expands keys: every other core takes its
//               expansion (aes_iter128 KX_EXT). The payload rate with packets in flight
//               scales with PAIRS for the iterative cores (one CCM step of a lane per
//               core latency per pair); aes_pipe is already filled by one pair.
// Ports: exactly those of aes_mode_engine
//   clk, rst                          : clock, sync active-high reset (clears lanes, FIFOs,
//                                       arbiters, capture registers, cores)
//   zeroize                           : one-cycle pulse: clears every key slot, aborts every
//                                       packet whose status is not yet presented (status
//                                       ZEROIZED; the input demultiplexer drops the rest of
//                                       their data up to tlast), wipes lanes, output buffers
//                                       and input FIFOs (docs/mode_engine.md, "Security")
//   key_valid/ready/slot/bytes/data   : key load into both cores (see docs/cores.md) and
//                                       "Key slots" below. The handshake (key_valid &&
//                                       key_ready) commits the key; key_ready depends
//                                       combinationally on key_slot and is low while a
//                                       load is still expanding (any slot), while the
//                                       cores refuse the target bank (rst/zeroize scrub)
//                                       and while packets of key_slot run on both of
//                                       its banks (no bank free for the new key; see
//                                       "Key slots"). While key_valid
//                                       is high and until the new key is in force, a
//                                       command for key_slot is not accepted.
//   s_axis_cmd_*  (tdata 512 bits)    : one command beat per packet
//   s_axis_*      (tdata/tkeep/tlast) : AAD beats, then payload beats, packets in command order
//   m_axis_*      (tdata/tkeep/tlast/tuser) : output payload, packets in command order;
//                                       tuser=1 on the last beat marks a failed packet
//   m_axis_sts_*  (tdata 136 bits)    : one status beat per packet, in command order, after
//                                       the packet's output beats
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module aes_mode_multi #(
    parameter [63:0] CORE = "pipe",
    parameter SBOX_IMPL = 0,
    parameter SLOT_W    = 2,
    parameter LEN_W     = 32,
    parameter BUF_AW    = 8,
    parameter LANES     = 4,
    parameter IN_AW     = 7,
    parameter NR_MAX    = 14,
    parameter DIRECTION_B = 2,
    parameter ROUND_REGS = 1,
    parameter ROUND_STAGES = 1,
    parameter ROUNDS_PER_CLK = 1,
    parameter PAIRS = 1
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          zeroize,
    // key load
    input  wire          key_valid,
    output wire          key_ready,
    input  wire [SLOT_W-1:0] key_slot,
    input  wire [5:0]    key_bytes,
    input  wire [255:0]  key_data,
    // command
    input  wire          s_axis_cmd_tvalid,
    output wire          s_axis_cmd_tready,
    input  wire [511:0]  s_axis_cmd_tdata,
    // data in
    input  wire          s_axis_tvalid,
    output wire          s_axis_tready,
    input  wire [127:0]  s_axis_tdata,
    input  wire [15:0]   s_axis_tkeep,
    input  wire          s_axis_tlast,
    // data out
    output wire          m_axis_tvalid,
    input  wire          m_axis_tready,
    output wire [127:0]  m_axis_tdata,
    output wire [15:0]   m_axis_tkeep,
    output wire          m_axis_tlast,
    output wire          m_axis_tuser,
    // status out
    output wire          m_axis_sts_tvalid,
    input  wire          m_axis_sts_tready,
    output wire [135:0]  m_axis_sts_tdata
);
    `include "aes_mode_if.vh"   // command/status beat layout (data/mode_engine.yaml)

    // ---------------------------------------------------------------- parameter checks
    // (CORE, SBOX_IMPL, ROUND_REGS, ROUND_STAGES and ROUNDS_PER_CLK are checked by aes_core)
    generate
        `AESIP_CHECK(SLOT_W >= 1 && SLOT_W <= 8, aes_mode_multi_SLOT_W_not_1_to_8,
                     "aes_mode_multi: SLOT_W must be 1 .. 8")
        `AESIP_CHECK(BUF_AW >= 1, aes_mode_multi_BUF_AW_below_1, "aes_mode_multi: BUF_AW must be >= 1")
        `AESIP_CHECK(LEN_W >= BUF_AW + 4 && LEN_W <= 61, aes_mode_multi_LEN_W_out_of_range,
                     "aes_mode_multi: LEN_W must be BUF_AW + 4 .. 61")
        `AESIP_CHECK(NR_MAX == 10 || NR_MAX == 12 || NR_MAX == 14, aes_mode_multi_NR_MAX_not_10_12_14,
                     "aes_mode_multi: NR_MAX must be 10 or 12 or 14")
        `AESIP_CHECK(LANES >= 2, aes_mode_multi_LANES_below_2, "aes_mode_multi: LANES must be >= 2")
        `AESIP_CHECK(IN_AW >= 1, aes_mode_multi_IN_AW_below_1, "aes_mode_multi: IN_AW must be >= 1")
        `AESIP_CHECK(DIRECTION_B == 0 || DIRECTION_B == 2, aes_mode_multi_DIRECTION_B_not_0_or_2,
                     "aes_mode_multi: DIRECTION_B must be 0 or 2")
        `AESIP_CHECK(DIRECTION_B == 2 || CORE != "iter32", aes_mode_multi_iter32_DIRECTION_B_not_2,
                     "aes_mode_multi: CORE iter32 needs DIRECTION_B = 2")
        `AESIP_CHECK(PAIRS >= 1 && PAIRS <= LANES, aes_mode_multi_PAIRS_not_1_to_LANES,
                     "aes_mode_multi: PAIRS must be 1 .. LANES")
    endgenerate

    localparam LW = (LANES > 1) ? $clog2(LANES) : 1;   // lane index width (= core tag width)
    localparam integer LAST_I = LANES - 1;
    localparam [LW-1:0] LAST = LAST_I[LW-1:0];
    localparam SU = SLOT_W + 2;                          // {slot, bank, dec} of a block request
    localparam PW = SLOT_W + 1;                          // physical slot in the cores: {slot, bank}
    localparam NLS = 1 << SLOT_W;                        // logical slots
    // per-lane slices of the flattened buses below
    localparam integer BLOCK_W  = 128;                   // a data beat / AES block
    localparam integer KEEP_W   = 16;
    localparam integer KEEP_LSB = BLOCK_W;               // beat = {(tuser,) tlast, tkeep, tdata}
    localparam integer LAST_BIT = BLOCK_W + KEEP_W;
    localparam integer USER_BIT = LAST_BIT + 1;
    localparam integer IN_W     = LAST_BIT + 1;          // input FIFO entry: {tlast, tkeep, tdata}
    localparam integer OUT_W    = USER_BIT + 1;          // output beat: {tuser, tlast, tkeep, tdata}


    function automatic [LW-1:0] next_lane;
        input [LW-1:0] x;
        begin
            next_lane = (x == LAST) ? {LW{1'b0}} : x + 1'b1;
        end
    endfunction

    // round robin: {found, index} of the first requesting lane at or after ptr
    function automatic [LW:0] rr_pick;
        input [LANES-1:0] req;
        input [LW-1:0] ptr;
        integer i, idx;
        begin
            rr_pick = {(LW+1){1'b0}};
            for (i = LANES - 1; i >= 0; i = i - 1) begin
                idx = {{(32-LW){1'b0}}, ptr} + i;
                if (idx >= LANES) idx = idx - LANES;
                if (req[idx]) rr_pick = {1'b1, idx[LW-1:0]};
            end
        end
    endfunction

    // ---------------------------------------------------------------- per-lane wires
    wire [NLS-1:0]       key_usable;              // per logical slot: its active bank's key is usable
    wire [2*NLS-1:0]     phys_usable;             // per physical slot {s, bank}
    reg  [NLS-1:0]       bank;                    // active bank of each logical slot
    reg  [LANES-1:0]     l_bank;                  // bank of each lane's packet (taken at its command)
    reg                  ld_pend;                 // a load is expanding into ld_pslot
    reg  [PW-1:0]        ld_pslot;
    wire [LANES-1:0]     l_active;
    wire [SLOT_W*LANES-1:0] l_slot;
    wire [LANES-1:0]     l_cmd_valid, l_cmd_ready;
    wire [LANES-1:0]     in_wr_valid, in_wr_ready;
    wire [LANES-1:0]     in_valid, in_ready;
    wire [IN_W*LANES-1:0] in_data;                 // {tlast, tkeep, tdata}
    wire [LANES-1:0]     l_m_valid, l_m_ready;
    wire [OUT_W*LANES-1:0] l_m_data;               // {tuser, tlast, tkeep, tdata}
    wire [LANES-1:0]     l_sts_valid, l_sts_ready, l_sts_empty;
    wire [STS_W*LANES-1:0] l_sts_data;
    wire [LANES-1:0]     a_req_valid, a_req_ready, a_res_valid, a_res_ready, a_res_err;
    wire [LANES-1:0]     b_req_valid, b_req_ready, b_res_valid, b_res_ready, b_res_err;
    wire [BLOCK_W*LANES-1:0] a_req_data, b_req_data, a_res_data, b_res_data;
    wire [SU*LANES-1:0]  a_req_user, b_req_user;   // {slot, bank, dec}

    // ---------------------------------------------------------------- commands
    // q_v[l]: lane l has a command whose data the demultiplexer has not passed yet;
    // q_d[l]: that packet has data beats. At most one such packet per lane: the next
    // command for lane l is accepted only after the demultiplexer has passed it.
    reg  [LW-1:0]    c_lane;      // lane of the next command
    reg  [LW-1:0]    d_lane;      // lane whose packet the input stream carries now
    reg  [LANES-1:0] q_v, q_d;
    wire c_has_data = (s_axis_cmd_tdata[CMD_AAD_LEN_LSB +: CMD_AAD_LEN_W] != {CMD_AAD_LEN_W{1'b0}})
                    || (s_axis_cmd_tdata[CMD_PAYLOAD_LEN_LSB +: CMD_PAYLOAD_LEN_W] != {CMD_PAYLOAD_LEN_W{1'b0}})
                    || s_axis_cmd_tdata[CMD_TAG_BEAT_LSB];   // the received tag as a beat
    // a key load for the command's slot goes first: from key_valid until the new key is
    // in force (bank flipped), no command for that slot is accepted ("Key slots" above)
    wire [CMD_SLOT_W-1:0] c_slot_field = s_axis_cmd_tdata[CMD_SLOT_LSB +: CMD_SLOT_W];
    wire [SLOT_W-1:0]     c_slot = c_slot_field[SLOT_W-1:0];
    wire cmd_hold = (key_valid && (c_slot_field == {{(CMD_SLOT_W-SLOT_W){1'b0}}, key_slot}))
                 || (ld_pend && (c_slot_field == {{(CMD_SLOT_W-SLOT_W){1'b0}}, ld_pslot[PW-1:1]}));
    assign s_axis_cmd_tready = l_cmd_ready[c_lane] && !q_v[c_lane] && !cmd_hold;
    wire cmd_go = s_axis_cmd_tvalid && s_axis_cmd_tready;

    // ---------------------------------------------------------------- input demultiplexer
    // q_drop[l]: the packet was aborted by zeroize; its remaining beats up to tlast are
    // consumed and dropped instead of entering the (wiped) FIFO.
    reg  [LANES-1:0] q_drop;
    wire d_pend = q_v[d_lane];
    wire d_data = q_d[d_lane];
    wire d_drop = q_drop[d_lane];
    assign s_axis_tready = d_pend && d_data && (d_drop || in_wr_ready[d_lane]) && !zeroize;
    wire d_go  = s_axis_tvalid && s_axis_tready;
    wire d_pop = d_pend && (!d_data || (d_go && s_axis_tlast));

    always @(posedge clk) begin
        if (rst) begin
            c_lane <= {LW{1'b0}}; d_lane <= {LW{1'b0}};
            q_v <= {LANES{1'b0}}; q_d <= {LANES{1'b0}}; q_drop <= {LANES{1'b0}};
        end else begin
            if (d_pop) begin
                q_v[d_lane] <= 1'b0;
                q_drop[d_lane] <= 1'b0;
                d_lane <= next_lane(d_lane);
            end
            if (cmd_go) begin     // c_lane != d_lane here whenever d_pop (q_v[c_lane] was 0)
                q_v[c_lane] <= 1'b1;
                q_d[c_lane] <= c_has_data;
                q_drop[c_lane] <= zeroize;    // accepted in the zeroize cycle: aborted too
                c_lane <= next_lane(c_lane);
            end
            if (zeroize) q_drop <= q_drop | q_v | (cmd_go ? ({{(LANES-1){1'b0}}, 1'b1} << c_lane) : {LANES{1'b0}});
        end
    end

    // ---------------------------------------------------------------- output merge
    // o_lane: lane of the oldest packet whose status has not left; o_sts: its data is
    // complete (its tlast beat left), its status is next.
    reg  [LW-1:0] o_lane;
    reg           o_sts;
    wire o_empty = l_sts_valid[o_lane] && l_sts_empty[o_lane];   // finished, no beats
    wire o_data  = !o_sts && !o_empty;
    wire o_stsph = o_sts || l_sts_empty[o_lane];
    wire [OUT_W-1:0] o_beat = l_m_data[OUT_W*o_lane +: OUT_W];
    assign m_axis_tvalid = o_data && l_m_valid[o_lane];
    // data lines are zero whenever no beat is offered
    assign {m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata} = m_axis_tvalid ? o_beat : {OUT_W{1'b0}};
    assign m_axis_sts_tvalid = l_sts_valid[o_lane] && o_stsph;
    assign m_axis_sts_tdata  = m_axis_sts_tvalid ? l_sts_data[STS_W*o_lane +: STS_W] : {STS_W{1'b0}};

    always @(posedge clk) begin
        if (rst) begin
            o_lane <= {LW{1'b0}}; o_sts <= 1'b0;
        end else begin
            if (m_axis_tvalid && m_axis_tready && m_axis_tlast) o_sts <= 1'b1;
            if (m_axis_sts_tvalid && m_axis_sts_tready) begin
                o_sts <= 1'b0;
                o_lane <= next_lane(o_lane);
            end
        end
    end

    // ---------------------------------------------------------------- shared cores: requests
    // per pair p (flattened buses, pair p's slice): the lane each core serves next, its
    // handshake and its result; the arbiters are in g_pair below
    wire [LW*PAIRS-1:0]     a_sel, b_sel;
    wire [PAIRS-1:0]        a_s_valid, b_s_valid, a_s_ready, b_s_ready;
    wire [PAIRS-1:0]        a_m_valid, b_m_valid;
    wire [BLOCK_W*PAIRS-1:0] a_m_data, b_m_data;
    wire [(LW+1)*PAIRS-1:0] a_m_user, b_m_user;   // {tag = lane, err}

    // the lanes of pair p: lane l with l mod PAIRS == p
    function automatic [LANES-1:0] pair_lanes;
        input integer p;
        integer i;
        begin
            pair_lanes = {LANES{1'b0}};
            for (i = 0; i < LANES; i = i + 1)
                if (i % PAIRS == p) pair_lanes[i] = 1'b1;
        end
    endfunction

    // ---------------------------------------------------------------- lanes
    genvar g;
    generate
        for (g = 0; g < LANES; g = g + 1) begin : g_lane
            localparam [LW-1:0] IDX = g;
            localparam integer P = g % PAIRS;    // this lane's core pair
            assign l_cmd_valid[g] = s_axis_cmd_tvalid && (c_lane == IDX) && !q_v[g] && !cmd_hold;
            assign in_wr_valid[g] = s_axis_tvalid && d_pend && d_data && !d_drop && (d_lane == IDX) && !zeroize;
            assign l_m_ready[g]   = (o_lane == IDX) && o_data && m_axis_tready;
            assign l_sts_ready[g] = (o_lane == IDX) && o_stsph && m_axis_sts_tready;
            assign a_req_ready[g] = a_s_valid[P] && (a_sel[LW*P +: LW] == IDX) && a_s_ready[P];
            assign b_req_ready[g] = b_s_valid[P] && (b_sel[LW*P +: LW] == IDX) && b_s_ready[P];
            // the lane's blocks use the bank its packet took at its command
            assign a_req_user[SU*g+1] = l_bank[g];
            assign b_req_user[SU*g+1] = l_bank[g];

            // a result comes straight from the core in the cycle it appears, else from
            // the lane's capture register (one per core)
            reg a_cap_v, a_cap_e, b_cap_v, b_cap_e;
            reg [127:0] a_cap_d, b_cap_d;
            wire [LW:0]    a_mu = a_m_user[(LW+1)*P +: LW+1];
            wire [LW:0]    b_mu = b_m_user[(LW+1)*P +: LW+1];
            wire [127:0]   a_md = a_m_data[BLOCK_W*P +: BLOCK_W];
            wire [127:0]   b_md = b_m_data[BLOCK_W*P +: BLOCK_W];
            wire a_hit = a_m_valid[P] && (a_mu[LW:1] == IDX);
            wire b_hit = b_m_valid[P] && (b_mu[LW:1] == IDX);
            assign a_res_valid[g] = a_cap_v || a_hit;
            assign b_res_valid[g] = b_cap_v || b_hit;
            assign a_res_data[BLOCK_W*g +: BLOCK_W] = a_cap_v ? a_cap_d : a_md;
            assign b_res_data[BLOCK_W*g +: BLOCK_W] = b_cap_v ? b_cap_d : b_md;
            assign a_res_err[g] = a_cap_v ? a_cap_e : a_mu[0];
            assign b_res_err[g] = b_cap_v ? b_cap_e : b_mu[0];
            always @(posedge clk) begin
                if (rst) begin
                    a_cap_v <= 1'b0; a_cap_e <= 1'b0; a_cap_d <= 128'd0;
                    b_cap_v <= 1'b0; b_cap_e <= 1'b0; b_cap_d <= 128'd0;
                end else begin
                    if (a_hit && !a_res_ready[g]) begin
                        a_cap_v <= 1'b1; a_cap_e <= a_mu[0]; a_cap_d <= a_md;
                    end else if (a_res_ready[g]) begin   // taken: leave no keystream / MAC state behind
                        a_cap_v <= 1'b0; a_cap_e <= 1'b0; a_cap_d <= 128'd0;
                    end
                    if (b_hit && !b_res_ready[g]) begin
                        b_cap_v <= 1'b1; b_cap_e <= b_mu[0]; b_cap_d <= b_md;
                    end else if (b_res_ready[g]) begin
                        b_cap_v <= 1'b0; b_cap_e <= 1'b0; b_cap_d <= 128'd0;
                    end
                end
            end

            // input FIFO (a commit FIFO with every write committed)
            // (cleared and wiped on zeroize, including the beat presented to the lane,
            // which aborts its packet)
            /* verilator lint_off UNUSEDSIGNAL */
            wire in_wiping;
            /* verilator lint_on UNUSEDSIGNAL */
            axis_commit_fifo #(.WIDTH(IN_W), .AW(IN_AW), .KEEP_OUT(0)) u_in (
                .clk(clk), .rst(rst), .clear(zeroize),
                .wr_valid(in_wr_valid[g]), .wr_ready(in_wr_ready[g]),
                .wr_data({s_axis_tlast, s_axis_tkeep, s_axis_tdata}),
                .wr_commit(1'b1), .commit(1'b0), .rollback(1'b0),
                .m_valid(in_valid[g]), .m_ready(in_ready[g]), .m_data(in_data[IN_W*g +: IN_W]),
                .wiping(in_wiping)
            );

            aes_mode_lane #(.SLOT_W(SLOT_W), .LEN_W(LEN_W), .BUF_AW(BUF_AW), .ZDRAIN(0),
                            .DEC_OPS(DIRECTION_B == 2 ? 1 : 0)) u_lane (
                .clk(clk), .rst(rst), .zeroize(zeroize), .key_usable(key_usable),
                .active(l_active[g]), .active_slot(l_slot[SLOT_W*g +: SLOT_W]),
                .s_axis_cmd_tvalid(l_cmd_valid[g]), .s_axis_cmd_tready(l_cmd_ready[g]),
                .s_axis_cmd_tdata(s_axis_cmd_tdata),
                .s_axis_tvalid(in_valid[g]), .s_axis_tready(in_ready[g]),
                .s_axis_tdata(in_data[IN_W*g +: BLOCK_W]), .s_axis_tkeep(in_data[IN_W*g+KEEP_LSB +: KEEP_W]),
                .s_axis_tlast(in_data[IN_W*g+LAST_BIT]),
                .m_axis_tvalid(l_m_valid[g]), .m_axis_tready(l_m_ready[g]),
                .m_axis_tdata(l_m_data[OUT_W*g +: BLOCK_W]), .m_axis_tkeep(l_m_data[OUT_W*g+KEEP_LSB +: KEEP_W]),
                .m_axis_tlast(l_m_data[OUT_W*g+LAST_BIT]), .m_axis_tuser(l_m_data[OUT_W*g+USER_BIT]),
                .m_axis_sts_tvalid(l_sts_valid[g]), .m_axis_sts_tready(l_sts_ready[g]),
                .m_axis_sts_tdata(l_sts_data[STS_W*g +: STS_W]), .m_axis_sts_empty(l_sts_empty[g]),
                .a_s_valid(a_req_valid[g]), .a_s_ready(a_req_ready[g]), .a_s_data(a_req_data[BLOCK_W*g +: BLOCK_W]),
                .a_s_slot(a_req_user[SU*g+2 +: SLOT_W]), .a_s_dec(a_req_user[SU*g]),
                .a_m_valid(a_res_valid[g]), .a_m_ready(a_res_ready[g]), .a_m_data(a_res_data[BLOCK_W*g +: BLOCK_W]),
                .a_m_err(a_res_err[g]),
                .b_s_valid(b_req_valid[g]), .b_s_ready(b_req_ready[g]), .b_s_data(b_req_data[BLOCK_W*g +: BLOCK_W]),
                .b_s_slot(b_req_user[SU*g+2 +: SLOT_W]), .b_s_dec(b_req_user[SU*g]),
                .b_m_valid(b_res_valid[g]), .b_m_ready(b_res_ready[g]), .b_m_data(b_res_data[BLOCK_W*g +: BLOCK_W]),
                .b_m_err(b_res_err[g])
            );
        end
    endgenerate

    // ---------------------------------------------------------------- the two shared AES cores
    // Key slots (double-buffered, see "Key slots" at the top): a load of logical slot s
    // goes into physical slot {s, !bank[s]}; ld_pend holds it until both cores have
    // expanded it, then bank[s] flips. A lane takes bank[slot] with its command.
    wire [PAIRS-1:0] a_key_ready, b_key_ready;
    wire all_key_ready = (&a_key_ready) && (&b_key_ready);
    // The bank a new key goes into: one that no lane's packet uses (a physical slot
    // never changes under a packet). The inactive bank !bank[s] unless a packet begun
    // before the previous load of s still runs on it while none runs on the active bank
    // bank[s] (e.g. a second load right after the first one: no packet took the first
    // key yet); then the active bank itself, which is safe: commands for s are held
    // from key_valid until the load is done, so no packet can take it meanwhile, and its
    // "flip" keeps bank[s]. The load waits while both banks carry packets.
    reg key_busy_act, key_busy_oth;   // a lane's packet on key_slot uses bank[key_slot] / the other bank
    integer li;
    always @(*) begin
        key_busy_act = 1'b0;
        key_busy_oth = 1'b0;
        for (li = 0; li < LANES; li = li + 1)
            if (l_active[li] && l_slot[SLOT_W*li +: SLOT_W] == key_slot) begin
                if (l_bank[li] == bank[key_slot]) key_busy_act = 1'b1;
                else                              key_busy_oth = 1'b1;
            end
    end
    wire key_bank = (key_busy_oth && !key_busy_act) ? bank[key_slot] : ~bank[key_slot];
    wire [PW-1:0] key_pslot = {key_slot, key_bank};
    wire key_slot_busy = key_busy_act && key_busy_oth;
    assign key_ready = !ld_pend && all_key_ready && !key_slot_busy;
    wire key_go = key_valid && key_ready;
    // while a load runs the cores see its slot on key_slot (and key_valid low): their
    // key_ready is high again exactly when its expansion is over (no block of that
    // physical slot can be in a core: no packet uses it)
    wire [PW-1:0] core_key_slot = ld_pend ? ld_pslot : key_pslot;
    wire ld_done = ld_pend && all_key_ready;

    always @(posedge clk) begin
        if (rst || zeroize) begin
            bank <= {NLS{1'b0}};
            l_bank <= {LANES{1'b0}};
            ld_pend <= 1'b0;
            ld_pslot <= {PW{1'b0}};
        end else begin
            if (cmd_go) l_bank[c_lane] <= bank[c_slot];
            if (key_go) begin
                ld_pend <= 1'b1;
                ld_pslot <= key_pslot;
            end else if (ld_done) begin
                ld_pend <= 1'b0;
                bank[ld_pslot[PW-1:1]] <= ld_pslot[0];
            end
        end
    end

    aes_key_slots #(.SLOT_W(PW), .NR_MAX(NR_MAX)) u_slots (
        .clk(clk), .rst(rst), .zeroize(zeroize), .load(key_go), .load_slot(key_pslot),
        .load_bytes(key_bytes), .usable(phys_usable));
    genvar gs;
    generate
        for (gs = 0; gs < NLS; gs = gs + 1) begin : g_usable
            assign key_usable[gs] = phys_usable[2*gs + bank[gs]];
        end
    endgenerate

    // Core A only ever encrypts (CBC-MAC, CBC encryption: the lane drives a_s_dec = 0),
    // so it is built encrypt-only where the core allows it (aes_iter32 shares one
    // datapath for both directions and is always built with both).
    localparam A_DIRECTION = (CORE == "iter32") ? 2 : 0;
    // One key expansion for every core ("iter128": only pair 0's core A has one, every
    // other core takes its stream, aes_iter128 KX_EXT; all get every key load in the
    // same clock, key_go)
    localparam KX_SHARE = (CORE == "iter128") ? 1 : 0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [41*PAIRS-1:0] a_kx;    // pair p's core A expansion stream (only pair 0's is used)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [40:0] kx_shared = KX_SHARE ? a_kx[40:0] : 41'd0;
    genvar gp;
    generate
        for (gp = 0; gp < PAIRS; gp = gp + 1) begin : g_pair
            localparam [LANES-1:0] MASK = pair_lanes(gp);
            localparam A_KX_EXT = (gp == 0) ? 0 : KX_SHARE;
            // round robin among this pair's lanes: rr = the lane after the last one served
            reg  [LW-1:0] a_rr, b_rr;
            wire [LW:0] a_pick = rr_pick(a_req_valid & MASK, a_rr);
            wire [LW:0] b_pick = rr_pick(b_req_valid & MASK, b_rr);
            wire [LW-1:0] as = a_pick[LW-1:0];
            wire [LW-1:0] bs = b_pick[LW-1:0];
            assign a_sel[LW*gp +: LW] = as;
            assign b_sel[LW*gp +: LW] = bs;
            assign a_s_valid[gp] = a_pick[LW];
            assign b_s_valid[gp] = b_pick[LW];
            wire [127:0] a_s_data = a_req_data[BLOCK_W*as +: BLOCK_W];
            wire [127:0] b_s_data = b_req_data[BLOCK_W*bs +: BLOCK_W];
            wire [LW+SU-1:0] a_s_user = {as, a_req_user[SU*as +: SU]};   // {tag = lane, slot, dec}
            wire [LW+SU-1:0] b_s_user = {bs, b_req_user[SU*bs +: SU]};
            always @(posedge clk) begin
                if (rst) begin
                    a_rr <= {LW{1'b0}}; b_rr <= {LW{1'b0}};
                end else begin
                    if (a_s_valid[gp] && a_s_ready[gp]) a_rr <= next_lane(as);
                    if (b_s_valid[gp] && b_s_ready[gp]) b_rr <= next_lane(bs);
                end
            end

            aes_core #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(PW), .TAG_W(LW), .NR_MAX(NR_MAX),
                       .DIRECTION(A_DIRECTION), .ROUND_REGS(ROUND_REGS), .ROUND_STAGES(ROUND_STAGES),
                       .ROUNDS_PER_CLK(ROUNDS_PER_CLK), .KX_EXT(A_KX_EXT)) u_a (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_go), .key_ready(a_key_ready[gp]), .key_slot(core_key_slot), .key_bytes(key_bytes),
                .key_data(key_data),
                .s_axis_tvalid(a_s_valid[gp]), .s_axis_tready(a_s_ready[gp]), .s_axis_tdata(a_s_data),
                .s_axis_tuser(a_s_user),
                .m_axis_tvalid(a_m_valid[gp]), .m_axis_tready(1'b1), .m_axis_tdata(a_m_data[BLOCK_W*gp +: BLOCK_W]),
                .m_axis_tuser(a_m_user[(LW+1)*gp +: LW+1]),
                .kx_out(a_kx[41*gp +: 41]), .kx_in(A_KX_EXT ? kx_shared : 41'd0));
            aes_core #(.CORE(CORE), .SBOX_IMPL(SBOX_IMPL), .SLOT_W(PW), .TAG_W(LW), .NR_MAX(NR_MAX),
                       .DIRECTION(DIRECTION_B), .ROUND_REGS(ROUND_REGS), .ROUND_STAGES(ROUND_STAGES),
                       .ROUNDS_PER_CLK(ROUNDS_PER_CLK), .KX_EXT(KX_SHARE)) u_b (
                .clk(clk), .rst(rst), .zeroize(zeroize),
                .key_valid(key_go), .key_ready(b_key_ready[gp]), .key_slot(core_key_slot), .key_bytes(key_bytes),
                .key_data(key_data),
                .s_axis_tvalid(b_s_valid[gp]), .s_axis_tready(b_s_ready[gp]), .s_axis_tdata(b_s_data),
                .s_axis_tuser(b_s_user),
                .m_axis_tvalid(b_m_valid[gp]), .m_axis_tready(1'b1), .m_axis_tdata(b_m_data[BLOCK_W*gp +: BLOCK_W]),
                .m_axis_tuser(b_m_user[(LW+1)*gp +: LW+1]),
                /* verilator lint_off PINCONNECTEMPTY */
                .kx_out(),
                /* verilator lint_on PINCONNECTEMPTY */
                .kx_in(kx_shared));
        end
    endgenerate
`ifdef FORMAL
    // ------------------------------------------------------------------ formal properties
    // Proven by formal/aes_mode_multi.sby (docs/formal.md) against abstract cores
    // (formal/stubs/aes_core.v). `define F_AES_MODE_MULTI when this module is the top of
    // the proof: its inputs are then assumed to follow the stream rules, else asserted.
`ifdef F_AES_MODE_MULTI
    localparam F_TOP = 1;
`else
    localparam F_TOP = 0;
`endif
    wire [7:0] f_cmd, f_sts, f_din, f_dout;
    wire       f_past;
    axis_props #(.DATA_W(512), .CNT_W(8), .ASSUME_IN(F_TOP)) f_pc (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(s_axis_cmd_tvalid), .tready(s_axis_cmd_tready),
        .tdata(s_axis_cmd_tdata), .tkeep(1'b1), .tlast(1'b0), .tuser(1'b0), .count(f_cmd), .f_past(f_past));
    /* verilator lint_off PINCONNECTEMPTY */
    axis_props #(.DATA_W(256), .KEEP_W(6), .USER_W(SLOT_W), .CNT_W(8), .ASSUME_IN(F_TOP)) f_pk (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(key_valid), .tready(key_ready), .tdata(key_data),
        .tkeep(key_bytes), .tlast(1'b0), .tuser(key_slot), .count(), .f_past());
    axis_props #(.DATA_W(128), .KEEP_W(16), .CNT_W(8), .ASSUME_IN(F_TOP)) f_pd (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(s_axis_tvalid), .tready(s_axis_tready),
        .tdata(s_axis_tdata), .tkeep(s_axis_tkeep), .tlast(s_axis_tlast), .tuser(1'b0), .count(f_din), .f_past());
    axis_props #(.DATA_W(128), .KEEP_W(16), .CNT_W(8), .ASSUME_IN(0)) f_po (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(m_axis_tvalid), .tready(m_axis_tready),
        .tdata(m_axis_tdata), .tkeep(m_axis_tkeep), .tlast(m_axis_tlast), .tuser(m_axis_tuser), .count(f_dout), .f_past());
    axis_props #(.DATA_W(136), .CNT_W(8), .ASSUME_IN(0)) f_ps (
        .clk(clk), .rst(rst), .flush(1'b0), .tvalid(m_axis_sts_tvalid), .tready(m_axis_sts_tready),
        .tdata(m_axis_sts_tdata), .tkeep(1'b1), .tlast(1'b0), .tuser(1'b0), .count(f_sts), .f_past());
    /* verilator lint_on PINCONNECTEMPTY */
    generate if (F_TOP) begin : f_top
        always @(*) if (!f_past) assume(rst);
    end endgenerate

    // one status per accepted command, in order: statuses never outnumber commands,
    // and at most 2 LANES are open (per lane one packet running and the previous
    // one's status waiting in its status register)
    wire [7:0] f_open = f_cmd - f_sts;
    always @(*) if (f_past && !rst) assert({24'd0, f_open} <= 2 * LANES);

    // bounded progress (no deadlock): in an environment that, since reset, always offers
    // data (s_axis_tvalid, except in the cycle after reset) and always takes output and
    // status, a packet in the engine never goes F_N clocks without a handshake on
    // s_axis, m_axis or m_axis_sts, counted from the last zeroize (zeroize aborts and
    // wipes: an environment that keeps zeroizing legitimately stops all progress). Only
    // with `define F_ENGINE_LIVE, where the cores are fair (formal/stubs/aes_core.v,
    // F_CORE_FAIR).
`ifdef F_STALL_MAX
    localparam F_N = `F_STALL_MAX;   // set by the .sby per level (docs/formal.md)
`else
    localparam F_N = 24;             // not yet established (docs/formal.md: open)
`endif
    reg       f_fair = 1'b1;
    reg [7:0] f_stall = 8'd0;
    reg       f_prst = 1'b1;
    always @(posedge clk) begin
        f_prst <= rst;
        if (rst) f_fair <= 1'b1;
        else if (!m_axis_tready || !m_axis_sts_tready || (!f_prst && !s_axis_tvalid)) f_fair <= 1'b0;
        if (rst || zeroize || f_open == 8'd0 || (s_axis_tvalid && s_axis_tready) || (m_axis_tvalid && m_axis_tready) ||
            (m_axis_sts_tvalid && m_axis_sts_tready)) f_stall <= 8'd0;
        else if (f_stall != 8'hff) f_stall <= f_stall + 1'b1;
    end
`ifdef F_ENGINE_LIVE
    always @(*) if (f_past && !rst && f_fair) f_live: assert(f_stall <= F_N);
`endif

    // covers: a packet's last output beat; an OK status; an error status
    always @(posedge clk) if (f_past && !rst) begin
        cover(m_axis_tvalid && m_axis_tready && m_axis_tlast && !m_axis_tuser);
        cover(m_axis_sts_tvalid && m_axis_sts_tready && m_axis_sts_tdata[135:128] == 8'd0);
        cover(m_axis_sts_tvalid && m_axis_sts_tready && m_axis_sts_tdata[135:128] != 8'd0);
    end
`endif
endmodule
`default_nettype wire
