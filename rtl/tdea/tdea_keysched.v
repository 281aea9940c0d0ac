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
// cumulative shift of round k, computed directly for each index (no sequential state).
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
// edge S+i); busy falls at edge S+48, the key register is cleared then.
`timescale 1ns / 1ps
`default_nettype none
module tdea_keysched (
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

    reg [191:0] kreg;
    reg [5:0]   cnt;
    reg         run;

    always @(posedge clk) begin
        if (rst || zeroize) begin
            kreg <= 192'd0;
            cnt  <= 6'd0;
            run  <= 1'b0;
        end else if (run) begin
            cnt <= cnt + 6'd1;
            if (cnt == 6'd47) begin
                run  <= 1'b0;
                cnt  <= 6'd0;
                kreg <= 192'd0;
            end
        end else if (start) begin
            kreg <= opt2 ? {key_data[63:0], key_data[127:0]} : key_data;
            cnt  <= 6'd0;
            run  <= 1'b1;
        end
    end

    assign busy    = run;
    assign w_valid = run;
    assign w_idx   = cnt;

    // the key of this index (port byte order) and its DES round number 0..15
    wire [1:0]  which = cnt[5:4];
    wire [63:0] kbytes = (which == 2'd0) ? kreg[63:0] : (which == 2'd1) ? kreg[127:64] : kreg[191:128];
    wire [3:0]  rnd   = (which == 2'd1) ? ~cnt[3:0] : cnt[3:0];

    // key in DES bit order (first byte in bits [63:56])
    wire [63:0] kd;
    wire [55:0] cd;
    genvar i;
    generate
        for (i = 0; i < 8; i = i + 1) begin : g_bytes
            assign kd[63 - 8*i -: 8] = kbytes[8*i +: 8];
        end
        for (i = 0; i < 56; i = i + 1) begin : g_pc1
            localparam integer SRC = 64 - {24'd0, PC1_T[(55-i)*8 +: 8]};   // constant bit index
            assign cd[55-i] = kd[SRC];
        end
    endgenerate

    // cumulative left rotation of C and D after rounds 1 .. rnd+1
    reg [4:0] rot;
    always @(*) begin
        case (rnd)
            4'd0:  rot = 5'd1;
            4'd1:  rot = 5'd2;
            4'd2:  rot = 5'd4;
            4'd3:  rot = 5'd6;
            4'd4:  rot = 5'd8;
            4'd5:  rot = 5'd10;
            4'd6:  rot = 5'd12;
            4'd7:  rot = 5'd14;
            4'd8:  rot = 5'd15;
            4'd9:  rot = 5'd17;
            4'd10: rot = 5'd19;
            4'd11: rot = 5'd21;
            4'd12: rot = 5'd23;
            4'd13: rot = 5'd25;
            4'd14: rot = 5'd27;
            default: rot = 5'd28;
        endcase
    end
    // rotate left by rot: the upper half of {x, x} << rot (the lower half is unused)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [55:0] cc = {cd[55:28], cd[55:28]} << rot;
    wire [55:0] dd = {cd[27:0], cd[27:0]} << rot;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [55:0] cdr = {cc[55:28], dd[55:28]};

    generate
        for (i = 0; i < 48; i = i + 1) begin : g_pc2
            localparam integer SRC = 56 - {24'd0, PC2_T[(47-i)*8 +: 8]};   // constant bit index
            assign w_data[47-i] = cdr[SRC];
        end
    endgenerate
endmodule
`default_nettype wire
