// SPDX-License-Identifier: Apache-2.0
// axis_props: reusable AXI4-Stream property checker (formal only, read by SymbiYosys).
//
// Instantiate it on one stream inside an `ifdef FORMAL section of the module that owns
// the stream. The rules, all with a synchronous active-high reset rst:
//   R1  on the cycle after a reset cycle tvalid is low (formal models have no X: this
//       is what "no X / no valid out of reset" means here)
//   R2  while tvalid && !tready, on the next cycle tvalid is still high and
//       tdata/tkeep/tlast/tuser are unchanged (a presented beat is held until taken),
//       unless flush was high in that cycle (a documented withdrawal, e.g. a FIFO
//       cleared together with its reader; tie flush to 0 for a plain stream)
// ASSUME_IN = 1: the stream is an input of the module under proof: the rules are
//                assumed (they constrain the environment that drives tvalid and data)
// ASSUME_IN = 0: the stream is an output (or an input of a sub-module driven by the
//                design): the rules are asserted
// Unused payload fields: tie them to a constant and leave their width at 1.
//
// Parameters
//   DATA_W, KEEP_W, USER_W : payload widths (tlast is one bit, always checked)
//   CNT_W                  : width of the handshake counter
//   ASSUME_IN              : 1 assume, 0 assert (see above)
// Ports
//   clk, rst                       : clock, synchronous active-high reset
//   flush                          : see R2 (0 for a plain AXI4-Stream)
//   tvalid, tready, tdata, tkeep, tlast, tuser : the stream
//   count  : number of handshakes (tvalid && tready) since reset, wrapping at 2**CNT_W;
//            it is zero after a reset cycle and counts at the edge of each handshake,
//            for relational properties in the instantiating module (beats in vs out)
//   f_past : 1 from the second cycle on ($past is meaningful)
`default_nettype none
module axis_props #(
    parameter DATA_W    = 8,
    parameter KEEP_W    = 1,
    parameter USER_W    = 1,
    parameter CNT_W     = 8,
    parameter ASSUME_IN = 0
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              flush,
    input  wire              tvalid,
    input  wire              tready,
    input  wire [DATA_W-1:0] tdata,
    input  wire [KEEP_W-1:0] tkeep,
    input  wire              tlast,
    input  wire [USER_W-1:0] tuser,
    output reg  [CNT_W-1:0]  count,
    output reg               f_past
);
    initial f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;

    initial count = {CNT_W{1'b0}};
    always @(posedge clk)
        if (rst) count <= {CNT_W{1'b0}};
        else if (tvalid && tready) count <= count + 1'b1;

    // last cycle's values (explicit registers: usable in combinational checks)
    reg              p_rst, p_flush, p_valid, p_ready, p_last;
    reg [DATA_W-1:0] p_data;
    reg [KEEP_W-1:0] p_keep;
    reg [USER_W-1:0] p_user;
    always @(posedge clk) begin
        p_rst <= rst; p_flush <= flush; p_valid <= tvalid; p_ready <= tready;
        p_data <= tdata; p_keep <= tkeep; p_last <= tlast; p_user <= tuser;
    end

    // the rules as two booleans, checked one way or the other below
    wire r_reset = !(f_past && p_rst) || !tvalid;
    wire r_hold  = !(f_past && !p_rst && !p_flush && !rst && p_valid && !p_ready) ||
                   (tvalid && tdata == p_data && tkeep == p_keep &&
                    tlast == p_last && tuser == p_user);

    generate
        if (ASSUME_IN) begin : g_assume
            always @(*) begin
                assume(r_reset);
                assume(r_hold);
            end
        end else begin : g_assert
            always @(*) begin
                assert(r_reset);
                assert(r_hold);
            end
        end
    endgenerate
endmodule
`default_nettype wire
