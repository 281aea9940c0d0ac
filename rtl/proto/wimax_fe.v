// SPDX-License-Identifier: Apache-2.0
// wimax_fe: IEEE 802.16e (802.16-2004 7.5.1.2) AES-CCM MAC PDU protection front end for a
// mode engine (aes_mode_engine or aes_mode_multi: same command, data and status ports).
// Full description (sideband, status, error codes, byte layouts, timing): docs/wimax.md.
//
// Per PDU: one sideband beat on s_axis_cmd (op encrypt/decrypt, key slot, PN), the PDU on
// s_axis (128-bit beats, tkeep on the last beat; without the CRC the link adds), the
// result PDU on m_axis and one status beat on m_axis_sts.
//   encrypt: GMH (EC = 0) || payload  ->  GMH' || PN (4 bytes, LSB first) || ciphertext ||
//            ICV (8 bytes); GMH' = GMH with EC = 1, LEN + 12 (+ 4 when CI is set), HCS
//            recomputed. CCM: nonce = GMH' bytes 0..4 || 00 00 00 00 || PN, no AAD, M = 8,
//            L = 2.
//   decrypt: the reverse; the ICV is verified by the engine's store-and-forward CCM
//            decryption, so the plaintext of a PDU that fails never leaves.
// The PDU is received whole into an input buffer (128 beats: the largest PDU, LEN < 2048)
// and checked before anything goes to the engine: the decryption's ICV, at the end of the
// frame, belongs in the engine's command beat, ahead of the data. Malformed PDUs never
// reach the engine. Realignment into the engine's segment framing and back is done by two
// axis_realign instances at one beat per clock.
//
// Parameters: none (the key slot field is 8 bits; the engine checks it against its SLOT_W).
// Ports
//   clk, rst                               : clock, synchronous active-high reset
//   s_axis_cmd_* (tdata 64)                : sideband beat per PDU (rtl/proto/wimax_if.vh)
//   s_axis_* (tdata 128, tkeep 16, tlast)  : PDU in
//   m_axis_* (tdata 128, tkeep, tlast, tuser) : PDU out; tuser = 1 on the last beat: failed
//   m_axis_sts_* (tdata 64)                : status per PDU, after its output frame
//   m_axis_eng_cmd_*, m_axis_eng_*         : to the mode engine's s_axis_cmd / s_axis
//   s_axis_eng_*, s_axis_eng_sts_*         : from the mode engine's m_axis / m_axis_sts
`timescale 1ns / 1ps
`default_nettype none
`include "aesip_check.vh"
module wimax_fe (
    input  wire          clk,
    input  wire          rst,
    // sideband (command) beat
    input  wire          s_axis_cmd_tvalid,
    output wire          s_axis_cmd_tready,
    input  wire [63:0]   s_axis_cmd_tdata,
    // PDU in
    input  wire          s_axis_tvalid,
    output wire          s_axis_tready,
    input  wire [127:0]  s_axis_tdata,
    input  wire [15:0]   s_axis_tkeep,
    input  wire          s_axis_tlast,
    // PDU out
    output wire          m_axis_tvalid,
    input  wire          m_axis_tready,
    output wire [127:0]  m_axis_tdata,
    output wire [15:0]   m_axis_tkeep,
    output wire          m_axis_tlast,
    output wire          m_axis_tuser,
    // status
    output wire          m_axis_sts_tvalid,
    input  wire          m_axis_sts_tready,
    output wire [63:0]   m_axis_sts_tdata,
    // mode engine: command
    output wire          m_axis_eng_cmd_tvalid,
    input  wire          m_axis_eng_cmd_tready,
    output wire [511:0]  m_axis_eng_cmd_tdata,
    // mode engine: data in
    output wire          m_axis_eng_tvalid,
    input  wire          m_axis_eng_tready,
    output wire [127:0]  m_axis_eng_tdata,
    output wire [15:0]   m_axis_eng_tkeep,
    output wire          m_axis_eng_tlast,
    // mode engine: data out
    input  wire          s_axis_eng_tvalid,
    output wire          s_axis_eng_tready,
    input  wire [127:0]  s_axis_eng_tdata,
    input  wire [15:0]   s_axis_eng_tkeep,
    input  wire          s_axis_eng_tlast,
    input  wire          s_axis_eng_tuser,
    // mode engine: status
    input  wire          s_axis_eng_sts_tvalid,
    output wire          s_axis_eng_sts_tready,
    input  wire [135:0]  s_axis_eng_sts_tdata
);
    `include "aes_mode_if.vh"   // the engine's command/status beats (data/mode_engine.yaml)
    `include "wimax_if.vh"      // this front end's sideband/status beats (same file)

    localparam [7:0] BUF_BEATS = 8'd128;           // 2048 bytes > the largest PDU (LEN 2047)
    localparam [11:0] LEN_MAX = 12'd2047;         // 11-bit LEN field

    // CRC-8, x^8 + x^2 + x + 1, MSB first, initial value 0: the HCS over header bytes 0..4
    function [7:0] crc8_byte(input [7:0] c, input [7:0] d);
        reg [7:0] x;
        integer k;
        begin
            x = c ^ d;
            for (k = 0; k < 8; k = k + 1)
                x = x[7] ? ({x[6:0], 1'b0} ^ 8'h07) : {x[6:0], 1'b0};
            crc8_byte = x;
        end
    endfunction
    function [7:0] hcs5(input [39:0] h);   // h[7:0] = header byte 0
        hcs5 = crc8_byte(crc8_byte(crc8_byte(crc8_byte(crc8_byte(8'h00, h[7:0]), h[15:8]),
                                                       h[23:16]), h[31:24]), h[39:32]);
    endfunction

    // ---------------------------------------------------------------- state
    localparam [2:0] S_IDLE = 3'd0, S_RECV = 3'd1, S_CHECK = 3'd2, S_CMD = 3'd3, S_RUN = 3'd4,
                     S_STS = 3'd5;
    localparam [1:0] O_WAIT = 2'd0, O_DATA = 2'd1, O_END = 2'd2, O_DONE = 2'd3;
    reg [2:0] st;
    reg [1:0] ost;

    reg        dec;            // op: 1 = decrypt
    reg        op_err;         // reserved bits of the sideband beat set
    reg [7:0]  slot;
    reg [31:0] pn_cmd;
    reg [7:0]  nbeat;          // beats received, saturating at 255
    reg        ferr;           // tkeep error
    reg [4:0]  lastk;          // bytes in the last beat, 0 .. 16
    reg [127:0] beat0, beat_prev, beat_last;

    // input buffer (one PDU)
    reg [127:0] mem [0:BUF_BEATS-1];

    // ---------------------------------------------------------------- sideband and receive
    assign s_axis_cmd_tready = (st == S_IDLE);
    assign s_axis_tready = (st == S_RECV);
    wire in_take = s_axis_tvalid && s_axis_tready;

    // last-beat tkeep must be a run of the low lanes (0: the frame ends with the beat before)
    wire keep_low_run = ((s_axis_tkeep & (s_axis_tkeep + 16'h0001)) == 16'h0000);
    reg [4:0] keep_cnt;
    integer j;
    always @(*) begin
        keep_cnt = 5'd0;
        for (j = 0; j < 16; j = j + 1)
            keep_cnt = keep_cnt + {4'd0, s_axis_tkeep[j]};
    end

    always @(posedge clk) begin
        if (in_take && nbeat < BUF_BEATS)
            mem[nbeat[6:0]] <= s_axis_tdata;
    end

    // ---------------------------------------------------------------- header checks
    wire [7:0] h0 = beat0[7:0], h1 = beat0[15:8], h2 = beat0[23:16], h3 = beat0[31:24],
               h4 = beat0[39:32], h5 = beat0[47:40];
    wire       ht = h0[7], ec = h0[6], ci = h1[6];
    wire [11:0] len_hdr = {1'b0, h1[2:0], h2};
    wire [11:0] ci4 = ci ? 12'd4 : 12'd0;
    wire        over = (nbeat > BUF_BEATS);
    wire [11:0] flen = {nbeat, 4'b0000} - 12'd16 + {7'd0, lastk};   // frame bytes (exact for nbeat 1..128)
    wire [11:0] e_end_next = dec ? flen - 12'd8 : flen;               // frame byte after the engine's bytes
    wire [11:0] nb_w = (e_end_next + 12'd15) >> 4;
    wire        e_empty = dec ? (flen == 12'd18) : (flen == 12'd6);
    wire [11:0] len_enc = len_hdr + 12'd12 + ci4;     // encryption: the new LEN
    wire [11:0] len_dec = len_hdr - 12'd12 - ci4;     // decryption: the restored LEN
    reg  [7:0]  chk_err;
    reg  [7:0]  hcs_in;
    always @(*) begin
        hcs_in = hcs5(beat0[39:0]);
        chk_err = WMX_ERR_OK;
        if (op_err)                                     chk_err = WMX_ERR_OP;
        else if (ferr)                                  chk_err = WMX_ERR_FRAMING;
        else if (!over && nbeat == 8'd1 && lastk < 5'd6) chk_err = WMX_ERR_SHORT;
        else if (hcs_in != h5)                          chk_err = WMX_ERR_HCS;
        else if (ht)                                    chk_err = WMX_ERR_HT;
        else if (ec != dec)                             chk_err = WMX_ERR_EC;
        else if (over)                                  chk_err = WMX_ERR_LEN;
        else if (!dec && (len_hdr != flen || len_enc > LEN_MAX)) chk_err = WMX_ERR_LEN;
        else if (dec && len_hdr != flen + ci4)          chk_err = WMX_ERR_LEN;
        else if (dec && flen < 12'd18)                  chk_err = WMX_ERR_TRUNC;
    end

    // the header as it leaves, and the nonce (bytes 0..4 of the header on the wire)
    wire [7:0]  n0 = dec ? h0 : (h0 | 8'h40);
    wire [11:0] len_new = dec ? len_dec : len_enc;
    wire [7:0]  o0 = dec ? (h0 & 8'hbf) : (h0 | 8'h40);
    wire [7:0]  o1 = {h1[7:3], len_new[10:8]};
    wire [7:0]  o2 = len_new[7:0];
    wire [7:0]  n1 = dec ? h1 : o1;
    wire [7:0]  n2 = dec ? h2 : o2;
    reg  [7:0]  hcs_out;
    always @(*) hcs_out = hcs5({h4, h3, o2, o1, o0});
    wire [31:0] pn_rx = beat0[79:48];
    wire [31:0] pn = dec ? pn_rx : pn_cmd;
    // the received ICV: the frame's last 8 bytes, from the last two beats
    wire [255:0] tail = {beat_last, beat_prev};
    wire [255:0] tail_sh = tail >> {lastk + 5'd8, 3'b000};
    wire [63:0]  icv_rx = tail_sh[63:0];

    // bits not needed (the engine's tag beyond 8 bytes, the header beat beyond the PN, ...)
    wire unused_bits = ^{s_axis_eng_sts_tdata[127:64], beat0[127:80], nb_w[11:8], len_new[11], tail_sh[255:64]};

    // ---------------------------------------------------------------- registered per-PDU values
    reg [511:0] ecmd;
    reg [3:0]   e_start;      // frame byte of the first engine byte: 6 or 10
    reg [11:0]  e_end;        // frame byte after the last engine byte
    reg [127:0] prefix;       // header (+ PN) in front of the engine output
    reg [15:0]  prefix_keep;
    reg [7:0]   err;
    reg [7:0]   eng_err;
    reg         frame_sent;
    reg [31:0]  pn_sts;

    // ---------------------------------------------------------------- buffer reader -> engine
    reg [7:0]   rd_i;         // next beat to read
    reg [7:0]   nb;           // beats to read: ceil(e_end / 16) (0 when e_len = 0)
    reg         q_valid;
    reg [6:0]   q_idx;
    reg [127:0] mem_q;
    wire        rin_ready;
    wire        unused_rin_user, unused_rin_busy;
    wire        q_adv = !q_valid || rin_ready;
    always @(posedge clk) begin
        if (st == S_RUN && q_adv && rd_i < nb)
            mem_q <= mem[rd_i[6:0]];
    end
    wire [11:0] q_base = {1'b0, q_idx, 4'b0000};
    wire [11:0] q_hi_w = e_end - q_base;                       // > 0 for every beat read
    wire [4:0]  q_hi = (q_hi_w > 12'd16) ? 5'd16 : q_hi_w[4:0];
    wire [3:0]  q_lo = (q_idx == 7'd0) ? e_start : 4'd0;
    reg  [15:0] q_keep;
    integer m;
    always @(*) begin
        for (m = 0; m < 16; m = m + 1)
            q_keep[m] = (m >= q_lo) && (m < q_hi);
    end
    wire q_last = (e_end <= q_base + 12'd16);

    axis_realign #(.BYTES(16)) u_rin (
        .clk(clk), .rst(rst),
        .s_tvalid(q_valid), .s_tready(rin_ready), .s_tdata(mem_q), .s_tkeep(q_keep),
        .s_tlast(q_last), .s_tuser(1'b0),
        .m_tvalid(m_axis_eng_tvalid), .m_tready(m_axis_eng_tready), .m_tdata(m_axis_eng_tdata),
        .m_tkeep(m_axis_eng_tkeep), .m_tlast(m_axis_eng_tlast), .m_tuser(unused_rin_user),
        .busy(unused_rin_busy)
    );

    // ---------------------------------------------------------------- engine output -> PDU out
    wire        eng_ok = (s_axis_eng_sts_tdata[STS_ERR_LSB +: STS_ERR_W] == ERR_OK);
    wire [7:0]  eng_code = s_axis_eng_sts_tdata[STS_ERR_LSB +: STS_ERR_W];
    wire [63:0] icv_tx = s_axis_eng_sts_tdata[STS_VALUE_LSB +: 64];
    reg         ro_valid;
    reg [127:0] ro_data;
    reg [15:0]  ro_keep;
    reg         ro_last;
    reg         ro_user;
    reg         eng_m_ready;
    reg         eng_s_ready;
    wire        ro_ready;
    wire        ro_busy;
    always @(*) begin
        ro_valid = 1'b0;
        ro_data = 128'd0;
        ro_keep = 16'd0;
        ro_last = 1'b0;
        ro_user = 1'b0;
        eng_m_ready = 1'b0;
        eng_s_ready = 1'b0;
        if (st == S_RUN) begin
            case (ost)
                O_WAIT: begin
                    if (s_axis_eng_tvalid) begin
                        // the engine released output: the frame begins with the prefix
                        ro_valid = 1'b1;
                        ro_data = prefix;
                        ro_keep = prefix_keep;
                    end else if (s_axis_eng_sts_tvalid && eng_ok) begin
                        // empty payload: prefix (then the ICV when encrypting)
                        ro_valid = 1'b1;
                        ro_data = prefix;
                        ro_keep = prefix_keep;
                        ro_last = dec;
                        eng_s_ready = dec && ro_ready;
                    end else if (s_axis_eng_sts_tvalid) begin
                        eng_s_ready = 1'b1;   // failed without output: no frame at all
                    end
                end
                O_DATA: begin
                    ro_valid = s_axis_eng_tvalid;
                    ro_data = s_axis_eng_tdata;
                    ro_keep = s_axis_eng_tkeep;
                    ro_last = s_axis_eng_tlast && dec;
                    ro_user = s_axis_eng_tuser;
                    eng_m_ready = ro_ready;
                end
                O_END: begin
                    if (s_axis_eng_sts_tvalid) begin
                        if (dec) begin
                            eng_s_ready = 1'b1;
                        end else begin
                            ro_valid = 1'b1;
                            ro_data = {64'd0, icv_tx};
                            ro_keep = 16'h00ff;
                            ro_last = 1'b1;
                            ro_user = !eng_ok;
                            eng_s_ready = ro_ready;
                        end
                    end
                end
                default: ;
            endcase
        end
    end
    assign s_axis_eng_tready = eng_m_ready;
    assign s_axis_eng_sts_tready = eng_s_ready;

    axis_realign #(.BYTES(16)) u_rout (
        .clk(clk), .rst(rst),
        .s_tvalid(ro_valid), .s_tready(ro_ready), .s_tdata(ro_data), .s_tkeep(ro_keep),
        .s_tlast(ro_last), .s_tuser(ro_user),
        .m_tvalid(m_axis_tvalid), .m_tready(m_axis_tready), .m_tdata(m_axis_tdata),
        .m_tkeep(m_axis_tkeep), .m_tlast(m_axis_tlast), .m_tuser(m_axis_tuser),
        .busy(ro_busy)
    );

    // ---------------------------------------------------------------- engine command, status
    assign m_axis_eng_cmd_tvalid = (st == S_CMD);
    assign m_axis_eng_cmd_tdata = ecmd;
    assign m_axis_sts_tvalid = (st == S_STS);
    assign m_axis_sts_tdata = ({{(WMX_STS_W-WMX_STS_PN_W){1'b0}}, pn_sts} << WMX_STS_PN_LSB)
                            | ({{(WMX_STS_W-8){1'b0}}, err} << WMX_STS_ERR_LSB)
                            | ({{(WMX_STS_W-8){1'b0}}, eng_err} << WMX_STS_ENG_ERR_LSB)
                            | ({{(WMX_STS_W-1){1'b0}}, frame_sent} << WMX_STS_FRAME_LSB);

    wire [63:0] cmd_rsvd = s_axis_cmd_tdata & WMX_CMD_RSVD_MASK;
    wire [127:0] nonce = {24'd0, pn, 32'd0, h4, h3, n2, n1, n0};
    wire [511:0] ecmd_next =
          ({{(512-CMD_OP_W){1'b0}}, (dec ? OP_CCM_DEC : OP_CCM_ENC)} << CMD_OP_LSB)
        | ({{(512-8){1'b0}}, slot} << CMD_SLOT_LSB)
        | ({{(512-4){1'b0}}, 4'd13} << CMD_NONCE_LEN_LSB)
        | ({{(512-5){1'b0}}, 5'd8} << CMD_TAG_LEN_LSB)
        | ({{(512-12){1'b0}}, (dec ? flen - 12'd18 : flen - 12'd6)} << CMD_PAYLOAD_LEN_LSB)
        | ({{(512-128){1'b0}}, nonce} << CMD_IV_LSB)
        | ({{(512-64){1'b0}}, (dec ? icv_rx : 64'd0)} << CMD_TAG_LSB);

    always @(posedge clk) begin
        if (rst) begin
            st <= S_IDLE;
            ost <= O_WAIT;
            dec <= 1'b0;
            op_err <= 1'b0;
            slot <= 8'd0;
            pn_cmd <= 32'd0;
            nbeat <= 8'd0;
            ferr <= 1'b0;
            lastk <= 5'd0;
            beat0 <= 128'd0;
            beat_prev <= 128'd0;
            beat_last <= 128'd0;
            ecmd <= 512'd0;
            e_start <= 4'd0;
            e_end <= 12'd0;
            prefix <= 128'd0;
            prefix_keep <= 16'd0;
            err <= 8'd0;
            eng_err <= 8'd0;
            frame_sent <= 1'b0;
            pn_sts <= 32'd0;
            rd_i <= 8'd0;
            nb <= 8'd0;
            q_valid <= 1'b0;
            q_idx <= 7'd0;
        end else begin
            case (st)
                S_IDLE: if (s_axis_cmd_tvalid) begin
                    dec <= s_axis_cmd_tdata[WMX_CMD_OP_LSB];
                    op_err <= (cmd_rsvd != 64'd0);
                    slot <= s_axis_cmd_tdata[WMX_CMD_SLOT_LSB +: 8];
                    pn_cmd <= s_axis_cmd_tdata[WMX_CMD_PN_LSB +: 32];
                    nbeat <= 8'd0;
                    ferr <= 1'b0;
                    beat0 <= 128'd0;
                    beat_prev <= 128'd0;
                    beat_last <= 128'd0;
                    st <= S_RECV;
                end
                S_RECV: if (in_take) begin
                    if (nbeat == 8'd0)
                        beat0 <= s_axis_tdata;
                    beat_prev <= beat_last;
                    beat_last <= s_axis_tdata;
                    if (nbeat != 8'hff)
                        nbeat <= nbeat + 8'd1;
                    if (s_axis_tlast ? !keep_low_run : (s_axis_tkeep != 16'hffff))
                        ferr <= 1'b1;
                    if (s_axis_tlast) begin
                        lastk <= keep_cnt;
                        st <= S_CHECK;
                    end
                end
                S_CHECK: begin
                    err <= chk_err;
                    eng_err <= 8'd0;
                    frame_sent <= 1'b0;
                    pn_sts <= (chk_err == WMX_ERR_OK) ? pn : 32'd0;
                    ecmd <= ecmd_next;
                    e_start <= dec ? 4'd10 : 4'd6;
                    e_end <= e_end_next;
                    nb <= e_empty ? 8'd0 : nb_w[7:0];
                    rd_i <= 8'd0;
                    q_valid <= 1'b0;
                    ost <= O_WAIT;
                    if (dec) begin
                        prefix <= {80'd0, hcs_out, h4, h3, o2, o1, o0};
                        prefix_keep <= 16'h003f;
                    end else begin
                        prefix <= {48'd0, pn_cmd, hcs_out, h4, h3, o2, o1, o0};
                        prefix_keep <= 16'h03ff;
                    end
                    st <= (chk_err == WMX_ERR_OK) ? S_CMD : S_STS;
                end
                S_CMD: if (m_axis_eng_cmd_tready) begin
                    ecmd <= 512'd0;
                    st <= S_RUN;
                end
                S_RUN: begin
                    // reader: the engine's bytes of the buffered PDU into u_rin
                    if (q_adv) begin
                        if (rd_i < nb) begin
                            q_valid <= 1'b1;
                            q_idx <= rd_i[6:0];
                            rd_i <= rd_i + 8'd1;
                        end else begin
                            q_valid <= 1'b0;
                        end
                    end
                    // output side
                    case (ost)
                        O_WAIT: begin
                            if (ro_valid && ro_ready) begin
                                frame_sent <= 1'b1;
                                if (s_axis_eng_tvalid) ost <= O_DATA;
                                else if (dec) ost <= O_DONE;
                                else ost <= O_END;
                            end
                            if (eng_s_ready) begin
                                eng_err <= eng_code;
                                ost <= O_DONE;
                            end
                        end
                        O_DATA: if (s_axis_eng_tvalid && eng_m_ready && s_axis_eng_tlast)
                            ost <= O_END;
                        O_END: if (eng_s_ready) begin
                            eng_err <= eng_code;
                            ost <= O_DONE;
                        end
                        default: if (!ro_busy) begin
                            err <= (eng_err == ERR_OK) ? WMX_ERR_OK
                                 : (eng_err == ERR_AUTH) ? WMX_ERR_AUTH
                                 : (eng_err == ERR_KEY) ? WMX_ERR_KEY : WMX_ERR_ENGINE;
                            if (eng_err != ERR_OK)
                                pn_sts <= 32'd0;
                            st <= S_STS;
                        end
                    endcase
                end
                S_STS: if (m_axis_sts_tready) begin
                    st <= S_IDLE;
                end
                default: st <= S_IDLE;
            endcase
        end
    end
endmodule
`default_nettype wire
