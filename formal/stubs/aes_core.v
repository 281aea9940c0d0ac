// SPDX-License-Identifier: Apache-2.0
// Abstract block core for the mode-engine proofs (formal only). It defines a module named
// aes_core with the parameters and ports of rtl/cores/aes_core.v (the wrapper through
// which the engines instantiate their cores A and B) and is read instead of that file
// and the cores, so the engines are proven against the core *contract* (docs/cores.md,
// itself checked on the real cores by formal/aes_*.sby), not against one core's cycle
// timing; the engines' CORE parameter (which core) makes no difference here:
//   * key_ready and s_axis_tready are free choices (s_axis_tready only while the core
//     holds fewer than 2 blocks, like aes_iter128's state + output register)
//   * every accepted block produces exactly one output, in order, with its tag; when it
//     is presented is a free choice; data and err are free, data zero when err = 1;
//     a presented output is held until taken
// With `define F_CORE_FAIR (progress proofs only) the free choices are bounded: a block
// offered (or a key) is accepted and a block inside is presented after at most F_K
// cycles of waiting (F_K = `F_CORE_WAIT, set by the .sby; default 1). The real cores'
// bounds are proven in their own proofs; F_K is smaller to keep the engine proofs
// short, so the engines' progress bound is about their own logic (docs/formal.md).
`default_nettype none
module aes_core #(
    parameter [63:0] CORE       = "iter128",
    parameter        SBOX_IMPL  = 0,
    parameter        SLOT_W     = 1,
    parameter        TAG_W      = 8,
    parameter        NR_MAX     = 14,
    parameter        DIRECTION  = 2,
    parameter        ROUND_REGS = 1,
    parameter        ROUNDS_PER_CLK = 1,
    parameter        ROUND_STAGES = 1,
    parameter        KX_EXT     = 0
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
    output wire [40:0]               kx_out,         // the key-expansion share (aes_core):
    input  wire [40:0]               kx_in           // no expansion here, kx_out is zero
);
    assign kx_out = 41'd0;
`ifdef F_CORE_WAIT
    localparam F_K = `F_CORE_WAIT;      // set by the .sby
`else
    localparam F_K = 1;
`endif
    (* anyseq *) wire c_key, c_in, c_out, c_err;
    (* anyseq *) wire [127:0] c_data;

    reg [1:0]       nq = 2'd0;          // blocks accepted, not yet presented
    reg [TAG_W-1:0] q0, q1;             // their tags, q0 oldest
    reg             ov = 1'b0;          // output register
    reg [127:0]     od;
    reg [TAG_W:0]   ou;
    reg [3:0]       w_key = 0, w_in = 0, w_out = 0;

`ifdef F_CORE_FAIR
    wire g_key = c_key || (w_key >= F_K);
    wire g_in  = c_in  || (w_in  >= F_K);
    wire g_out = c_out || (w_out >= F_K);
`else
    wire g_key = c_key;
    wire g_in  = c_in;
    wire g_out = c_out;
`endif
    assign key_ready     = g_key && !rst;
    assign s_axis_tready = g_in && !rst && ({1'b0, nq} + {2'b0, ov} < 3'd2);
    assign m_axis_tvalid = ov;
    assign m_axis_tdata  = od;
    assign m_axis_tuser  = ou;

    wire acc  = s_axis_tvalid && s_axis_tready;
    wire take = ov && m_axis_tready;
    wire load = (nq != 2'd0) && (!ov || m_axis_tready) && g_out;
    wire [TAG_W-1:0] s_tag = s_axis_tuser[TAG_W+SLOT_W:SLOT_W+1];

    always @(posedge clk) begin
        if (rst) begin
            nq <= 2'd0; ov <= 1'b0; od <= 128'd0; ou <= {(TAG_W+1){1'b0}};
            w_key <= 0; w_in <= 0; w_out <= 0;
        end else begin
            w_key <= (key_valid && !key_ready) ? w_key + 1'b1 : 4'd0;
            w_in  <= (s_axis_tvalid && !s_axis_tready && ({1'b0, nq} + {2'b0, ov} < 3'd2)) ? w_in + 1'b1 : 4'd0;
            w_out <= ((nq != 2'd0) && !load) ? w_out + 1'b1 : 4'd0;
            if (load) begin
                ov <= 1'b1;
                od <= c_err ? 128'd0 : c_data;
                ou <= {q0, c_err};
            end else if (take) begin
                ov <= 1'b0;
                od <= 128'd0;
            end
            case ({acc, load})
                2'b10: begin
                    if (nq == 2'd0) q0 <= s_tag; else q1 <= s_tag;
                    nq <= nq + 1'b1;
                end
                2'b01: begin q0 <= q1; nq <= nq - 1'b1; end
                2'b11: begin if (nq == 2'd1) q0 <= s_tag; else begin q0 <= q1; q1 <= s_tag; end end
                default: ;
            endcase
        end
    end

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = &{1'b0, zeroize, key_slot, key_bytes, key_data, s_axis_tdata, s_axis_tuser[SLOT_W:0]};
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
