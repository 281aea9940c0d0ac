// SPDX-License-Identifier: Apache-2.0
// tdea_keysched: TDEA key schedule for the key loaders of tdea_pipe and tdea_iter
// (FIPS 46-3 key schedule, NIST SP 800-67 keying options 1 and 2).
//
// After `start` it emits the 48 DES subkeys of the TDEA encryption operation
// E_K3(D_K2(E_K1(.))), one per clock, in the order the rounds use them:
//   index  0 .. 15 : subkeys 1 .. 16 of K1
//   index 16 .. 31 : subkeys 16 .. 1 of K2 (DES decryption)
//   index 32 .. 47 : subkeys 1 .. 16 of K3
// Decryption D_K1(E_K2(D_K3(.))) uses the same list backwards (index 47 - i in round i).
// Subkey k of a key is PC-2(C_k, D_k), C_k D_k = PC-1(key) halves rotated left by the
// cumulative shift of round k. C and D are registers stepped by the round's rotation
// (left by s_k for K1 and K3, right for K2, which runs backwards from C_16 D_16 = C_0 D_0)
// and loaded from PC-1 of the next key between the keys, so the subkey is PC-2 of
// registers (wiring) and the step is a small multiplexer: no barrel rotation on any path.
// The multiplexer's controls (last index, key boundaries, K2 segment, shift of 2) are
// registers, decoded for the index the counter takes at the same edge, so no decode of
// the counter lies in front of the 56 C/D registers. STEP_TABLES selects how they are
// decoded; both give the same controls in every cycle (same ports and timing).
//
// Parameters
//   STEP_TABLES : 0 (default): the controls are decoded from the counter's next value
//                 (a multiplexer of rst / zeroize / run / start and cnt + 1, then the
//                 compares and the 16 - r / r + 2 of the shift table; used by tdea_iter);
//                 1: they are decoded from the counter itself by equalities and constant
//                 64-entry tables (the controls of index cnt + 1 while the schedule steps,
//                 else those of index 0), so no adder or magnitude compare lies in front
//                 of them (used by tdea_pipe, whose ECP5 critical path was that decode)
//
// Ports
//   clk, rst   : clock; synchronous reset (clears the key register and the counter)
//   zeroize    : aborts a running schedule and clears the key register
//   start      : latch key_data (ignored while busy)
//   key_data   : K1 in bytes 0..7, K2 in bytes 8..15, K3 in bytes 16..23 (byte n at
//                [8n+7:8n]; each key's first byte holds DES key bits 1..8; parity bits
//                are ignored)
//   opt2       : with start: keying option 2, K3 = K1 (bytes 16..23 are ignored)
//   busy       : high from the clock after start until the last subkey has been emitted
//   w_valid    : a subkey is presented (every clock while busy)
//   w_idx      : its index 0..47 (above)
//   w_data     : the 48-bit subkey, DES bit k at bit 48-k
// Timing: start at edge S; w_valid in the 48 cycles after it (index i in the cycle after
// edge S+i); busy falls at edge S+48, the key and C/D registers are cleared then.
`timescale 1ns / 1ps
`default_nettype none
module tdea_keysched #(
    parameter STEP_TABLES = 0
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         zeroize,
    input  wire         start,
    input  wire [191:0] key_data,
    input  wire         opt2,
    output wire         busy,
    output wire         w_valid,
    output wire [5:0]   w_idx,
    output wire [47:0]  w_data
);
    // permuted choice 1 (56 of the 64 key bits) and 2 (48 of the 56 C, D bits)
    localparam [447:0] PC1_T = {
        8'd57, 8'd49, 8'd41, 8'd33, 8'd25, 8'd17, 8'd9, 8'd1, 8'd58, 8'd50, 8'd42, 8'd34, 8'd26, 8'd18,
        8'd10, 8'd2, 8'd59, 8'd51, 8'd43, 8'd35, 8'd27, 8'd19, 8'd11, 8'd3, 8'd60, 8'd52, 8'd44, 8'd36,
        8'd63, 8'd55, 8'd47, 8'd39, 8'd31, 8'd23, 8'd15, 8'd7, 8'd62, 8'd54, 8'd46, 8'd38, 8'd30, 8'd22,
        8'd14, 8'd6, 8'd61, 8'd53, 8'd45, 8'd37, 8'd29, 8'd21, 8'd13, 8'd5, 8'd28, 8'd20, 8'd12, 8'd4
    };
    localparam [383:0] PC2_T = {
        8'd14, 8'd17, 8'd11, 8'd24, 8'd1, 8'd5, 8'd3, 8'd28, 8'd15, 8'd6, 8'd21, 8'd10,
        8'd23, 8'd19, 8'd12, 8'd4, 8'd26, 8'd8, 8'd16, 8'd7, 8'd27, 8'd20, 8'd13, 8'd2,
        8'd41, 8'd52, 8'd31, 8'd37, 8'd47, 8'd55, 8'd30, 8'd40, 8'd51, 8'd45, 8'd33, 8'd48,
        8'd44, 8'd49, 8'd39, 8'd56, 8'd34, 8'd53, 8'd46, 8'd42, 8'd50, 8'd36, 8'd29, 8'd32
    };

    // PC-1 of a key given in port byte order (first byte = DES key bits 1..8)
    function [55:0] pc1;
        input [63:0] kbytes;
        integer b;
        reg [63:0] kd;
        begin
            for (b = 0; b < 8; b = b + 1) kd[63 - 8*b -: 8] = kbytes[8*b +: 8];
            for (b = 0; b < 56; b = b + 1) pc1[55-b] = kd[64 - PC1_T[(55-b)*8 +: 8]];
        end
    endfunction
    // C and D rotated left by one (subkey 1 from C_0 D_0)
    function [55:0] rotl1;
        input [55:0] x;
        begin
            rotl1 = {x[54:28], x[55], x[26:0], x[27]};
        end
    endfunction
    // the DES shift of round k (1 .. 16): 1 in rounds 1, 2, 9 and 16, else 2
    function two;
        input [4:0] k;
        begin
            two = !(k == 5'd1 || k == 5'd2 || k == 5'd9 || k == 5'd16);
        end
    endfunction

    // step controls of index i: {i == 47, i == 15, i == 31, K2 segment (subkeys 16 .. 1),
    // shift of 2 to the next index (K1/K3 left by s_(r+2), K2 right by s_(16-r), r = i mod 16)}
    function [4:0] ctl_of;
        input [5:0] i;
        reg seg2;
        begin
            seg2   = (i[5:4] == 2'd1);
            ctl_of = {i == 6'd47, i == 6'd15, i == 6'd31, seg2,
                      seg2 ? two(5'd16 - {1'b0, i[3:0]}) : two({1'b0, i[3:0]} + 5'd2)};
        end
    endfunction

    // STEP_TABLES = 1: the K2-segment and shift-of-2 controls of index i + 1, for
    // i = 0 .. 46, as constant tables indexed by i (a 6-input function of the counter),
    // taken from ctl_of itself: {seg2 table, rot2 table}
    function [127:0] step_tables;
        input dummy;
        integer k;
        /* verilator lint_off UNUSEDSIGNAL */
        reg [4:0] c;        // ctl_of: {i47, i15, i31, seg2, rot2}; only seg2, rot2 used
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            step_tables = 128'd0;
            for (k = 0; k < 47; k = k + 1) begin
                c = ctl_of(k[5:0] + 6'd1);
                step_tables[64 + k] = dummy & c[1];
                step_tables[k]      = dummy & c[0];
            end
        end
    endfunction
    localparam [127:0] STEP_NX = step_tables(1'b1);
    localparam [63:0]  SEG2_NX = STEP_NX[127:64];
    localparam [63:0]  ROT2_NX = STEP_NX[63:0];

    reg [127:0] kreg;           // K3, K2 (K1 goes into C/D at start)
    reg [5:0]   cnt;
    reg         run;
    reg [27:0]  c, d;           // C_k, D_k of the subkey presented now
    reg         i47, i15, i31, seg2, rot2;   // ctl_of(cnt), registers
    wire [5:0]  cnt_run;        // cnt's next value while run is high (no rst / zeroize)

    generate
        if (STEP_TABLES != 0) begin : g_tab
            // The controls of the index after the edge, from cnt itself: cnt is 0 whenever
            // run is low (rst, zeroize and the end of a schedule clear it, start loads 0),
            // so the next index is cnt + 1 while run is high and i47 low (and no rst /
            // zeroize), else 0, whose controls are all zero (ctl_of(0): round 2 shifts by 1).
            wire step = run && !i47 && !rst && !zeroize;
            always @(posedge clk)
                {i47, i15, i31, seg2, rot2} <= step ? {cnt == 6'd46, cnt == 6'd14, cnt == 6'd30,
                                                       SEG2_NX[cnt], ROT2_NX[cnt]} : 5'd0;
            assign cnt_run = i47 ? 6'd0 : cnt + 6'd1;
        end else begin : g_dec
            // the index after the edge (cnt's next value) and its controls
            wire [5:0] cnt_nx = (rst || zeroize) ? 6'd0 : run ? (i47 ? 6'd0 : cnt + 6'd1) : (start ? 6'd0 : cnt);
            always @(posedge clk) {i47, i15, i31, seg2, rot2} <= ctl_of(cnt_nx);
            assign cnt_run = cnt_nx;
        end
    endgenerate
    wire [55:0] cd_k2 = pc1(kreg[63:0]);
    wire [55:0] cd_k3 = pc1(kreg[127:64]);
    wire [55:0] cd_k1 = pc1(key_data[63:0]);

    always @(posedge clk) begin
        if (rst || zeroize) begin
            c <= 28'd0;
            d <= 28'd0;
        end else if (run) begin
            if (i47) begin
                c <= 28'd0;
                d <= 28'd0;
            end else if (i15) begin
                {c, d} <= cd_k2;                           // C_16 D_16 of K2 = C_0 D_0
            end else if (i31) begin
                {c, d} <= rotl1(cd_k3);                    // C_1 D_1 of K3
            end else if (seg2) begin
                c <= rot2 ? {c[1:0], c[27:2]} : {c[0], c[27:1]};
                d <= rot2 ? {d[1:0], d[27:2]} : {d[0], d[27:1]};
            end else begin
                c <= rot2 ? {c[25:0], c[27:26]} : {c[26:0], c[27]};
                d <= rot2 ? {d[25:0], d[27:26]} : {d[26:0], d[27]};
            end
        end else if (start) begin
            {c, d} <= rotl1(cd_k1);                        // C_1 D_1 of K1
        end
    end

    always @(posedge clk) begin
        if (rst || zeroize) begin
            kreg <= 128'd0;
            cnt  <= 6'd0;
            run  <= 1'b0;
        end else if (run) begin
            cnt <= cnt_run;
            if (i47) begin
                run  <= 1'b0;
                kreg <= 128'd0;
            end
        end else if (start) begin
            kreg <= opt2 ? {key_data[63:0], key_data[127:64]} : key_data[191:64];
            cnt  <= 6'd0;
            run  <= 1'b1;
        end
    end

    assign busy    = run;
    assign w_valid = run;
    assign w_idx   = cnt;

    wire [55:0] cdr = {c, d};
    genvar i;
    generate
        for (i = 0; i < 48; i = i + 1) begin : g_pc2
            localparam integer SRC = 56 - {24'd0, PC2_T[(47-i)*8 +: 8]};   // constant bit index
            assign w_data[47-i] = cdr[SRC];
        end
    endgenerate
endmodule
`default_nettype wire
