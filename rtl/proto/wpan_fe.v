// SPDX-License-Identifier: Apache-2.0
// wpan_fe: IEEE 802.15.4 CCM* frame security front end (802.15.4-2006 7.6.3, 802.15.4-2015
// 9.3) for a mode engine (aes_mode_engine or aes_mode_multi: same command, data and
// status ports). Full description (parsing rules, sideband, status, error codes,
// construction, timing): docs/wpan.md. Structure follows ccmp_fe (docs/ccmp.md):
// store-and-forward input buffer, checks before the engine, axis_realign instances into
// and out of the engine framing.
//
// Per frame: one sideband beat on s_axis_cmd (op, key slot, optional extended source
// address), the frame on s_axis (128-bit beats, tkeep on the last beat; without FCS), the
// result on m_axis and one status beat on m_axis_sts.
//   MHR: Frame Control, sequence number (absent when suppressed, version 2), addressing
//   fields (PAN ID Compression rules of version 1 / 2), Auxiliary Security Header
//   (Security Control, 4-byte frame counter, 0/1/5/9-byte key identifier), version 2
//   header IEs up to a Header Termination IE (or the end of the frame).
//   Security level 1..7: MIC 0/4/8/16 bytes (level & 3), encryption when level >= 4.
//   a (AAD) = MHR (data frames) or MHR || Command Frame Identifier (MAC command frames);
//   levels 1..3: a = the whole frame (without MIC), m empty. m = the rest.
//   Nonce = source extended address (most significant byte first) || frame counter
//   (big-endian) || security level. The address is the frame's (source addressing mode
//   3; little-endian in the frame) or the sideband's src_addr.
//   encrypt: frame bytes 0 .. |a|-1 unchanged || CCM* ciphertext of m || MIC
//   decrypt: the reverse; the MIC is verified by the engine's store-and-forward
//            decryption (no plaintext of a failing frame leaves).
//
// Parameters: none (the key slot field is 8 bits; the engine checks it against its SLOT_W).
// Ports
//   clk, rst                               : clock, synchronous active-high reset
//   s_axis_cmd_* (tdata 128)               : sideband beat per frame (rtl/proto/wpan_if.vh)
//   s_axis_* (tdata 128, tkeep 16, tlast)  : frame in
//   m_axis_* (tdata 128, tkeep, tlast, tuser) : frame out; tuser = 1 on the last beat: failed
//   m_axis_sts_* (tdata 32)                : status per frame, after its output frame
//   m_axis_eng_cmd_*, m_axis_eng_*         : to the mode engine's s_axis_cmd / s_axis
//   s_axis_eng_*, s_axis_eng_sts_*         : from the mode engine's m_axis / m_axis_sts
`timescale 1ns / 1ps
`default_nettype none
module wpan_fe (
    input  wire          clk,
    input  wire          rst,
    // sideband (command) beat
    input  wire          s_axis_cmd_tvalid,
    output wire          s_axis_cmd_tready,
    input  wire [127:0]  s_axis_cmd_tdata,
    // frame in
    input  wire          s_axis_tvalid,
    output wire          s_axis_tready,
    input  wire [127:0]  s_axis_tdata,
    input  wire [15:0]   s_axis_tkeep,
    input  wire          s_axis_tlast,
    // frame out
    output wire          m_axis_tvalid,
    input  wire          m_axis_tready,
    output wire [127:0]  m_axis_tdata,
    output wire [15:0]   m_axis_tkeep,
    output wire          m_axis_tlast,
    output wire          m_axis_tuser,
    // status
    output wire          m_axis_sts_tvalid,
    input  wire          m_axis_sts_tready,
    output wire [31:0]   m_axis_sts_tdata,
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
    `include "wpan_if.vh"       // this front end's sideband/status beats (same file)

    localparam [7:0]  BUF_BEATS = 8'd128;          // 2048 bytes: aMaxPhyPacketSize 2047 (2015)
    localparam [11:0] HDR_BYTES = 12'd128;         // IE descriptors must lie in the first 128 bytes

    // ---------------------------------------------------------------- state
    localparam [2:0] S_IDLE = 3'd0, S_RECV = 3'd1, S_PARSE = 3'd2, S_WALK = 3'd3, S_CHECK = 3'd4,
                     S_CMD = 3'd5, S_RUN = 3'd6, S_STS = 3'd7;
    localparam [1:0] O_WAIT = 2'd0, O_DATA = 2'd1, O_END = 2'd2, O_DONE = 2'd3;
    reg [2:0] st;
    reg [1:0] ost;

    reg        dec;
    reg        op_err;
    reg [7:0]  slot;
    reg        src_v;
    reg [63:0] src_cmd;
    reg [7:0]  nbeat;          // beats received, saturating at 255
    reg        ferr;
    reg [4:0]  lastk;
    reg [1023:0] hdr;          // the first eight beats: MHR and header IE descriptors
    reg [127:0] beat_prev, beat_last;

    reg [127:0] mem [0:BUF_BEATS-1];

    // ---------------------------------------------------------------- sideband and receive
    assign s_axis_cmd_tready = (st == S_IDLE);
    assign s_axis_tready = (st == S_RECV);
    wire in_take = s_axis_tvalid && s_axis_tready;

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

    // ---------------------------------------------------------------- fixed MHR fields
    wire [15:0] fc = hdr[15:0];
    wire [2:0]  ftype = fc[2:0];
    wire        sec_en = fc[3];
    wire        panc = fc[6];
    wire [1:0]  dam = fc[11:10];
    wire [1:0]  ver = fc[13:12];
    wire [1:0]  sam = fc[15:14];
    wire        v2 = (ver == 2'd2);
    wire        sns = v2 && fc[8];           // sequence number suppression (2015)
    wire        iep = v2 && fc[9];           // IE present (2015)
    wire        is_cmd_w = (ftype == 3'd3);
    wire        d_on = (dam != 2'd0), s_on = (sam != 2'd0);
    wire [4:0]  dlen = (dam == 2'd3) ? 5'd8 : (dam == 2'd2) ? 5'd2 : 5'd0;
    wire [4:0]  slen = (sam == 2'd3) ? 5'd8 : (sam == 2'd2) ? 5'd2 : 5'd0;
    // PAN identifier fields present (802.15.4-2006 7.2.1.1.5; 802.15.4-2015 Table 7-2)
    wire        dpan = v2 ? ((d_on && s_on) ? !((dam == 2'd3) && (sam == 2'd3) && panc)
                                            : (d_on ? !panc : (s_on ? 1'b0 : panc)))
                          : d_on;
    wire        span = v2 ? ((d_on && s_on) ? (!((dam == 2'd3) && (sam == 2'd3)) && !panc)
                                            : (s_on && !d_on && !panc))
                          : (s_on && !(panc && d_on));
    wire        addr_bad = (dam == 2'd1) || (sam == 2'd1) || (!v2 && panc && !(d_on && s_on));
    wire [4:0]  src_off = 5'd2 + (sns ? 5'd0 : 5'd1) + (dpan ? 5'd2 : 5'd0) + dlen + (span ? 5'd2 : 5'd0);
    wire [4:0]  aux_off = src_off + slen;
    wire [383:0] win = hdr[383:0];
    wire [383:0] aux_sh = win >> {aux_off, 3'b000};
    wire [383:0] src_sh = win >> {src_off, 3'b000};
    wire [7:0]  sc = aux_sh[7:0];
    wire [31:0] fcnt_w = aux_sh[39:8];         // little-endian in the frame
    wire [63:0] src_frame = src_sh[63:0];      // little-endian in the frame: the address
    wire [2:0]  level_w = sc[2:0];
    wire [1:0]  kim = sc[4:3];
    wire        fcs_bad = sc[5] || sc[6];      // frame counter suppression / ASN in nonce
    wire [5:0]  kid_len = (kim == 2'd0) ? 6'd0 : (kim == 2'd1) ? 6'd1 : (kim == 2'd2) ? 6'd5 : 6'd9;
    wire [5:0]  fixed_len = {1'b0, aux_off} + 6'd5 + kid_len;
    wire [4:0]  mic_w = (level_w[1:0] == 2'd0) ? 5'd0 : (level_w[1:0] == 2'd1) ? 5'd4
                      : (level_w[1:0] == 2'd2) ? 5'd8 : 5'd16;

    // lengths and the parse checks
    wire        over = (nbeat > BUF_BEATS);
    wire [11:0] flen = {nbeat, 4'b0000} - 12'd16 + {7'd0, lastk};
    reg  [7:0]  perr_w;
    always @(*) begin
        perr_w = WPAN_ERR_OK;
        if (op_err)                                                perr_w = WPAN_ERR_OP;
        else if (ferr)                                             perr_w = WPAN_ERR_FRAMING;
        else if (over)                                             perr_w = WPAN_ERR_LEN;
        else if (flen < 12'd2)                                     perr_w = WPAN_ERR_SHORT;
        else if (ver == 2'd0 || ver == 2'd3)                       perr_w = WPAN_ERR_VERSION;
        else if (ftype != 3'd1 && ftype != 3'd3)                   perr_w = WPAN_ERR_TYPE;
        else if (!sec_en)                                          perr_w = WPAN_ERR_SEC;
        else if (addr_bad)                                         perr_w = WPAN_ERR_ADDR;
        else if (flen < {7'd0, aux_off} + 12'd1)                   perr_w = WPAN_ERR_SHORT;
        else if (flen < {6'd0, fixed_len})                         perr_w = WPAN_ERR_SHORT;
        else if (level_w == 3'd0)                                  perr_w = WPAN_ERR_LEVEL;
        else if (fcs_bad)                                          perr_w = WPAN_ERR_FCS;
        else if (dec && flen < {6'd0, fixed_len} + {7'd0, mic_w})  perr_w = WPAN_ERR_SHORT;
    end

    // ---------------------------------------------------------------- registered parse results
    reg [7:0]   perr;
    reg [11:0]  p;             // header IE walk: offset of the next IE descriptor
    reg [11:0]  dend;          // end of the secured part (decryption: before the MIC)
    reg [2:0]   level;
    reg [4:0]   mic;
    reg         is_cmd;
    reg         walk;          // header IEs to walk
    reg         pie;           // Header Termination IE 1 seen: payload IEs follow
    reg         src_in_frame;
    reg [63:0]  src_addr;
    reg [31:0]  fcnt;
    reg [127:0] mic_rx;

    // header IE walk (one IE per clock)
    wire [1023:0] hdr_sh = hdr >> {p[6:0], 3'b000};
    wire [15:0] ied = hdr_sh[15:0];            // IE descriptor, little-endian
    wire [6:0]  ie_len = ied[6:0];
    wire [7:0]  ie_id = ied[14:7];
    wire        ie_type = ied[15];
    wire [11:0] p_next = p + 12'd2 + {5'd0, ie_len};
    wire        walk_end = (p == dend);
    wire        walk_bad = (p + 12'd2 > dend) || (p + 12'd2 > HDR_BYTES) || ie_type || (p_next > dend);

    // the received MIC: the frame's last mic bytes
    wire [255:0] tail = {beat_last, beat_prev};
    wire [5:0]   mic_start = {1'b0, lastk} + 6'd16 - {1'b0, mic_w};
    wire [255:0] tail_sh = tail >> {mic_start, 3'b000};
    reg  [127:0] mic_mask;
    integer mm;
    always @(*) begin
        for (mm = 0; mm < 16; mm = mm + 1)
            mic_mask[8*mm +: 8] = (mm < mic_w) ? 8'hff : 8'h00;
    end

    // ---------------------------------------------------------------- check, engine command
    wire        enc = level[2];
    wire [11:0] mhr = p;
    wire [11:0] a_len = !enc ? dend : (is_cmd ? mhr + 12'd1 : mhr);
    wire [11:0] plen = dend - a_len;
    reg  [7:0]  chk_err;
    always @(*) begin
        chk_err = perr;
        if (perr == WPAN_ERR_OK) begin
            if (enc && is_cmd && pie)                              chk_err = WPAN_ERR_IE;
            else if (enc && is_cmd && dend < mhr + 12'd1)          chk_err = WPAN_ERR_SHORT;
            else if (!src_in_frame && !src_v)                      chk_err = WPAN_ERR_SRC;
        end
    end
    wire [63:0]  ext = src_in_frame ? src_addr : src_cmd;
    reg  [127:0] nonce;        // byte i in bits 8i+7 .. 8i
    integer b;
    always @(*) begin
        nonce = 128'd0;
        for (b = 0; b < 8; b = b + 1)
            nonce[8*b +: 8] = ext[8*(7-b) +: 8];
        for (b = 0; b < 4; b = b + 1)
            nonce[64 + 8*b +: 8] = fcnt[8*(3-b) +: 8];
        nonce[103:96] = {5'd0, level};
    end
    wire [11:0] na_w = (a_len + 12'd15) >> 4;
    wire [11:0] nb_w = (dend + 12'd15) >> 4;
    wire [511:0] ecmd_next =
          ({{(512-CMD_OP_W){1'b0}}, (dec ? OP_CCM_DEC : OP_CCM_ENC)} << CMD_OP_LSB)
        | ({{(512-8){1'b0}}, slot} << CMD_SLOT_LSB)
        | ({{(512-4){1'b0}}, 4'd13} << CMD_NONCE_LEN_LSB)
        | ({{(512-5){1'b0}}, mic} << CMD_TAG_LEN_LSB)
        | ({{(512-12){1'b0}}, a_len} << CMD_AAD_LEN_LSB)
        | ({{(512-12){1'b0}}, plen} << CMD_PAYLOAD_LEN_LSB)
        | ({{(512-128){1'b0}}, nonce} << CMD_IV_LSB)
        | ({{(512-128){1'b0}}, (dec ? mic_rx : 128'd0)} << CMD_TAG_LSB);

    wire unused_bits = ^{s_axis_eng_sts_tdata[127:16], na_w[11:8], nb_w[11:8], tail_sh[255:128],
                         hdr_sh[1023:16], aux_sh[383:40], src_sh[383:64], fc[7], fc[5:4], sc[7], win[383:0]};

    // ---------------------------------------------------------------- registered per-frame values
    reg [511:0] ecmd;
    reg [11:0]  e_start, e_end, a_end;
    reg [11:0]  pfx_len;
    reg [7:0]   pidx;          // prefix beat being sent
    reg [7:0]   err, eng_err;
    reg         frame_sent;
    reg [2:0]   level_sts;

    // ---------------------------------------------------------------- buffer reader -> engine
    // AAD beats 0 .. na-1 straight to the engine, then the payload beats through u_rin
    reg [7:0]   rd_i, nb, na, pay_i;
    reg         rd_aad, has_pay;
    reg         q_valid, q_aad;
    reg [7:0]   q_idx;
    reg [127:0] mem_q;
    wire        rin_ready;
    wire        rin_valid, rin_last;
    wire [127:0] rin_data;
    wire [15:0] rin_keep;
    wire        unused_rin_user, unused_rin_busy;
    wire        q_adv = !q_valid || (q_aad ? m_axis_eng_tready : rin_ready);
    wire        rd_go = (st == S_RUN) && q_adv && (rd_aad || rd_i < nb);
    always @(posedge clk) begin
        if (rd_go)
            mem_q <= mem[rd_i[6:0]];
    end
    wire [11:0] q_base = {q_idx, 4'b0000};
    wire [11:0] q_end = q_aad ? a_end : e_end;
    wire [11:0] q_hi_w = q_end - q_base;
    wire [4:0]  q_hi = (q_hi_w > 12'd16) ? 5'd16 : q_hi_w[4:0];
    wire [3:0]  q_lo = (!q_aad && q_idx == e_start[11:4]) ? e_start[3:0] : 4'd0;
    reg  [15:0] q_keep;
    reg  [127:0] q_data;
    integer m;
    always @(*) begin
        for (m = 0; m < 16; m = m + 1) begin
            q_keep[m] = (m >= q_lo) && (m < q_hi);
            q_data[8*m +: 8] = q_keep[m] ? mem_q[8*m +: 8] : 8'h00;
        end
    end
    wire q_last = (q_end <= q_base + 12'd16);

    axis_realign #(.BYTES(16)) u_rin (
        .clk(clk), .rst(rst),
        .s_tvalid(q_valid && !q_aad), .s_tready(rin_ready), .s_tdata(q_data), .s_tkeep(q_keep),
        .s_tlast(q_last), .s_tuser(1'b0),
        .m_tvalid(rin_valid), .m_tready(m_axis_eng_tready && !(q_valid && q_aad)), .m_tdata(rin_data),
        .m_tkeep(rin_keep), .m_tlast(rin_last), .m_tuser(unused_rin_user),
        .busy(unused_rin_busy)
    );
    wire aad_sel = q_valid && q_aad;
    assign m_axis_eng_tvalid = aad_sel ? 1'b1 : rin_valid;
    assign m_axis_eng_tdata = aad_sel ? q_data : rin_data;
    assign m_axis_eng_tkeep = aad_sel ? q_keep : rin_keep;
    assign m_axis_eng_tlast = aad_sel ? (q_last && !has_pay) : rin_last;

    // ---------------------------------------------------------------- engine output -> frame out
    // the prefix (frame bytes 0 .. e_start-1, unchanged) is read from the buffer: mem_p is
    // always mem[pidx] (read at the address pidx takes at this edge)
    wire        eng_ok = (s_axis_eng_sts_tdata[STS_ERR_LSB +: STS_ERR_W] == ERR_OK);
    wire [7:0]  eng_code = s_axis_eng_sts_tdata[STS_ERR_LSB +: STS_ERR_W];
    wire [127:0] mic_tx = s_axis_eng_sts_tdata[STS_VALUE_LSB +: 128];
    wire        nomic = dec || (mic == 5'd0);   // the frame ends with the engine's data
    wire [11:0] pfx_rem = pfx_len - {pidx, 4'b0000};
    wire        pfx_lastb = (pfx_rem <= 12'd16);
    reg  [15:0] pfx_keep;
    reg  [15:0] mic_keep;
    reg  [127:0] mem_p;
    reg  [127:0] pfx_beat;
    integer n;
    always @(*) begin
        for (n = 0; n < 16; n = n + 1) begin
            pfx_keep[n] = (n < pfx_rem);
            mic_keep[n] = (n < mic);
            pfx_beat[8*n +: 8] = pfx_keep[n] ? mem_p[8*n +: 8] : 8'h00;
        end
    end
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
                        ro_valid = 1'b1;
                        ro_data = pfx_beat;
                        ro_keep = pfx_keep;
                    end else if (s_axis_eng_sts_tvalid && eng_ok) begin
                        // empty private payload: prefix (then the MIC when encrypting)
                        ro_valid = 1'b1;
                        ro_data = pfx_beat;
                        ro_keep = pfx_keep;
                        ro_last = nomic && pfx_lastb;
                        eng_s_ready = nomic && pfx_lastb && ro_ready;
                    end else if (s_axis_eng_sts_tvalid && pidx == 8'd0) begin
                        eng_s_ready = 1'b1;   // failed without output: no frame at all
                    end
                end
                O_DATA: begin
                    ro_valid = s_axis_eng_tvalid;
                    ro_data = s_axis_eng_tdata;
                    ro_keep = s_axis_eng_tkeep;
                    ro_last = s_axis_eng_tlast && nomic;
                    ro_user = s_axis_eng_tuser;
                    eng_m_ready = ro_ready;
                end
                O_END: begin
                    if (s_axis_eng_sts_tvalid) begin
                        if (nomic) begin
                            eng_s_ready = 1'b1;
                        end else begin
                            ro_valid = 1'b1;
                            ro_data = mic_tx;
                            ro_keep = mic_keep;
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

    wire pfx_adv = (st == S_RUN) && (ost == O_WAIT) && ro_valid && ro_ready && !pfx_lastb;
    wire [7:0] pidx_n = (st == S_CHECK) ? 8'd0 : (pfx_adv ? pidx + 8'd1 : pidx);
    always @(posedge clk) begin
        mem_p <= mem[pidx_n[6:0]];
    end

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
    assign m_axis_sts_tdata = ({{(WPAN_STS_W-8){1'b0}}, err} << WPAN_STS_ERR_LSB)
                            | ({{(WPAN_STS_W-8){1'b0}}, eng_err} << WPAN_STS_ENG_ERR_LSB)
                            | ({{(WPAN_STS_W-1){1'b0}}, frame_sent} << WPAN_STS_FRAME_LSB)
                            | ({{(WPAN_STS_W-3){1'b0}}, level_sts} << WPAN_STS_LEVEL_LSB);

    wire [127:0] cmd_rsvd = s_axis_cmd_tdata & WPAN_CMD_RSVD_MASK;

    always @(posedge clk) begin
        if (rst) begin
            st <= S_IDLE;
            ost <= O_WAIT;
            dec <= 1'b0;
            op_err <= 1'b0;
            slot <= 8'd0;
            src_v <= 1'b0;
            src_cmd <= 64'd0;
            nbeat <= 8'd0;
            ferr <= 1'b0;
            lastk <= 5'd0;
            hdr <= 1024'd0;
            beat_prev <= 128'd0;
            beat_last <= 128'd0;
            perr <= 8'd0;
            p <= 12'd0;
            dend <= 12'd0;
            level <= 3'd0;
            mic <= 5'd0;
            is_cmd <= 1'b0;
            walk <= 1'b0;
            pie <= 1'b0;
            src_in_frame <= 1'b0;
            src_addr <= 64'd0;
            fcnt <= 32'd0;
            mic_rx <= 128'd0;
            ecmd <= 512'd0;
            e_start <= 12'd0;
            e_end <= 12'd0;
            a_end <= 12'd0;
            pfx_len <= 12'd0;
            pidx <= 8'd0;
            err <= 8'd0;
            eng_err <= 8'd0;
            frame_sent <= 1'b0;
            level_sts <= 3'd0;
            rd_i <= 8'd0;
            nb <= 8'd0;
            na <= 8'd0;
            pay_i <= 8'd0;
            rd_aad <= 1'b0;
            has_pay <= 1'b0;
            q_valid <= 1'b0;
            q_aad <= 1'b0;
            q_idx <= 8'd0;
        end else begin
            pidx <= pidx_n;
            case (st)
                S_IDLE: if (s_axis_cmd_tvalid) begin
                    dec <= s_axis_cmd_tdata[WPAN_CMD_OP_LSB];
                    op_err <= (cmd_rsvd != 128'd0);
                    slot <= s_axis_cmd_tdata[WPAN_CMD_SLOT_LSB +: 8];
                    src_v <= s_axis_cmd_tdata[WPAN_CMD_SRC_VALID_LSB];
                    src_cmd <= s_axis_cmd_tdata[WPAN_CMD_SRC_ADDR_LSB +: 64];
                    nbeat <= 8'd0;
                    ferr <= 1'b0;
                    hdr <= 1024'd0;
                    beat_prev <= 128'd0;
                    beat_last <= 128'd0;
                    st <= S_RECV;
                end
                S_RECV: if (in_take) begin
                    if (nbeat < 8'd8)
                        hdr[{nbeat[2:0], 7'd0} +: 128] <= s_axis_tdata;
                    beat_prev <= beat_last;
                    beat_last <= s_axis_tdata;
                    if (nbeat != 8'hff)
                        nbeat <= nbeat + 8'd1;
                    if (s_axis_tlast ? !keep_low_run : (s_axis_tkeep != 16'hffff))
                        ferr <= 1'b1;
                    if (s_axis_tlast) begin
                        lastk <= keep_cnt;
                        st <= S_PARSE;
                    end
                end
                S_PARSE: begin
                    perr <= perr_w;
                    p <= {6'd0, fixed_len};
                    dend <= dec ? flen - {7'd0, mic_w} : flen;
                    level <= level_w;
                    mic <= mic_w;
                    is_cmd <= is_cmd_w;
                    walk <= iep && (perr_w == WPAN_ERR_OK);
                    pie <= 1'b0;
                    src_in_frame <= (sam == 2'd3);
                    src_addr <= src_frame;
                    fcnt <= fcnt_w;
                    mic_rx <= tail_sh[127:0] & mic_mask;
                    st <= S_WALK;
                end
                S_WALK: begin
                    if (!walk || walk_end) begin
                        st <= S_CHECK;
                    end else if (walk_bad) begin
                        perr <= WPAN_ERR_IE;
                        st <= S_CHECK;
                    end else begin
                        p <= p_next;
                        if (ie_id == 8'h7e) pie <= 1'b1;
                        if (ie_id == 8'h7e || ie_id == 8'h7f) walk <= 1'b0;
                    end
                end
                S_CHECK: begin
                    err <= chk_err;
                    eng_err <= 8'd0;
                    frame_sent <= 1'b0;
                    level_sts <= (chk_err == WPAN_ERR_OK) ? level : 3'd0;
                    ecmd <= ecmd_next;
                    e_start <= a_len;
                    e_end <= dend;
                    a_end <= a_len;
                    pfx_len <= a_len;
                    nb <= nb_w[7:0];
                    na <= na_w[7:0];
                    pay_i <= a_len[11:4];
                    has_pay <= (plen != 12'd0);
                    rd_i <= 8'd0;
                    rd_aad <= 1'b1;
                    q_valid <= 1'b0;
                    q_aad <= 1'b0;
                    ost <= O_WAIT;
                    st <= (chk_err == WPAN_ERR_OK) ? S_CMD : S_STS;
                end
                S_CMD: if (m_axis_eng_cmd_tready) begin
                    ecmd <= 512'd0;
                    st <= S_RUN;
                end
                S_RUN: begin
                    if (q_adv) begin
                        if (rd_aad) begin
                            q_valid <= 1'b1;
                            q_aad <= 1'b1;
                            q_idx <= rd_i;
                            if (rd_i + 8'd1 == na) begin
                                rd_aad <= 1'b0;
                                rd_i <= has_pay ? pay_i : nb;
                            end else begin
                                rd_i <= rd_i + 8'd1;
                            end
                        end else if (rd_i < nb) begin
                            q_valid <= 1'b1;
                            q_aad <= 1'b0;
                            q_idx <= rd_i;
                            rd_i <= rd_i + 8'd1;
                        end else begin
                            q_valid <= 1'b0;
                        end
                    end
                    case (ost)
                        O_WAIT: begin
                            if (ro_valid && ro_ready) begin
                                frame_sent <= 1'b1;
                                if (!pfx_lastb) ost <= O_WAIT;
                                else if (s_axis_eng_tvalid) ost <= O_DATA;
                                else if (nomic) ost <= O_DONE;
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
                            err <= (eng_err == ERR_OK) ? WPAN_ERR_OK
                                 : (eng_err == ERR_AUTH) ? WPAN_ERR_AUTH
                                 : (eng_err == ERR_KEY) ? WPAN_ERR_KEY : WPAN_ERR_ENGINE;
                            if (eng_err != ERR_OK)
                                level_sts <= 3'd0;
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
