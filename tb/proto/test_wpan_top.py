# SPDX-License-Identifier: Apache-2.0
"""wpan_top (rtl/proto/wpan_top.v: the IEEE 802.15.4 CCM* front end wpan_fe on
aes_mode_engine; docs/wpan.md): its cocotb tests and the pytest entry that builds it.

The expected frames come from a reference written here from IEEE 802.15.4-2006 7.2.1 /
7.6.3 and 802.15.4-2015 7.2, 7.4, 9.3 (our own frame parser and builder); the CCM* part
from `cryptography`: AESCCM (tag 4, 8 or 16 bytes) for the levels with a MIC, AES-CTR
with the CCM counter blocks from counter 1 for level 4 (ENC, M = 0); nothing comes from
the RTL:
  * MHR: Frame Control (2, little-endian), sequence number (1; absent when suppressed in
    version 2), destination PAN / address, source PAN / address (PAN ID Compression rules
    of the version), Auxiliary Security Header (Security Control, frame counter (4, LE),
    key identifier 0/1/5/9 bytes), version 2 header IEs up to a Header Termination IE;
  * a = MHR (data frame) or MHR || Command Frame Identifier (MAC command frame), m = the
    rest; levels 1..3 (MIC only): a = the whole frame, m empty;
  * nonce = extended source address (most significant byte first) || frame counter
    (big-endian) || security level.
Known answers: the IEEE 802.15.4-2006 Annex C frames C.2.2 (data frame, level 4, ENC)
and C.2.3 (MAC command frame, level 6, ENC-MIC-64), key C0..CF (the same bytes in
802.15.4-2015 Annex C; checked against the reference in test_reference_self_check). C.2.1
is a beacon frame, which the front end does not support (TYPE).

Tests: random frames (versions 1 and 2, every addressing mode and PAN ID Compression,
sequence number suppression, key identifier modes, levels 1..7, data and command frames,
header IEs with and without terminators, payload IEs, source address from the frame or
the sideband) encrypted and decrypted with gaps and backpressure; a bad-input campaign
(each error code, tampered MIC / payload / header), each case followed by a good frame
that must come out right.

Environment: AESIP_NRAND random frames in test_random (default 40).
"""
from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.triggers import ClockCycles, with_timeout
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM

from aesip import rtl, sim, wpan_iface
from aesip.tb.engdrv import ccm_step_clocks
from aesip.tb.seed import run_seed, test_rng
from aesip.tb.wpandrv import WpanDriver

W = wpan_iface
MIC_OF_LEVEL = (0, 4, 8, 16)
KID_LEN = (0, 1, 5, 9)
FRAME_MAX = 2048
HT1, HT2 = 0x7E, 0x7F


# IEEE 802.15.4-2006 Annex C.2.2 / C.2.3: (name, key, frame in clear, secured frame)
KAT_KEY = bytes(range(0xC0, 0xD0))
KATS = [
    ("C.2.2 data frame, level 4",
     "69dc842143020000000048deac010000000048deac0405000000" "61626364",
     "69dc842143020000000048deac010000000048deac0405000000" "d43e022b"),
    ("C.2.3 MAC command frame, level 6",
     "2bdc842143020000000048deacffff010000000048deac0605000000" "01ce",
     "2bdc842143020000000048deacffff010000000048deac0605000000" "01d8" "4fde529061f9c6f1"),
]


# ---------------------------------------------------------------------------- reference
def pan_fields(ver: int, dam: int, sam: int, panc: int) -> tuple[bool, bool]:
    """(destination PAN present, source PAN present)."""
    d, s = dam != 0, sam != 0
    if ver == 1:
        return d, s and not (panc and d)
    if d and s:
        if dam == 3 and sam == 3:
            return not panc, False
        return True, not panc
    if d:
        return not panc, False
    if s:
        return False, not panc
    return bool(panc), False


def parse(frame: bytes, mic_len_known: bool) -> dict:
    """Header fields of a secured-or-to-be-secured frame of a supported shape (the tests
    build only those): MHR length (after header IEs), level, frame counter, source
    address, frame type. `mic_len_known`: the frame ends with its MIC (decryption)."""
    fc = int.from_bytes(frame[:2], "little")
    ftype, panc = fc & 7, (fc >> 6) & 1
    dam, ver, sam = (fc >> 10) & 3, (fc >> 12) & 3, (fc >> 14) & 3
    v2 = ver == 2
    sns, iep = v2 and (fc >> 8) & 1, v2 and (fc >> 9) & 1
    alen = {0: 0, 2: 2, 3: 8}
    dpan, span = pan_fields(ver, dam, sam, panc)
    p = 2 + (0 if sns else 1) + 2 * dpan + alen[dam] + 2 * span
    src = frame[p:p + 8][::-1] if sam == 3 else None
    p += alen[sam]
    sc = frame[p]
    level, kim = sc & 7, (sc >> 3) & 3
    fcnt = int.from_bytes(frame[p + 1:p + 5], "little")
    p += 5 + KID_LEN[kim]
    mic = MIC_OF_LEVEL[level & 3]
    dend = len(frame) - (mic if mic_len_known else 0)
    pie = False
    if iep:
        while p < dend:
            d = int.from_bytes(frame[p:p + 2], "little")
            p += 2 + (d & 0x7F)
            if (d >> 7) & 0xFF in (HT1, HT2):
                pie = (d >> 7) & 0xFF == HT1
                break
    return dict(mhr=p, level=level, mic=mic, fcnt=fcnt, src=src, cmd=ftype == 3, dend=dend, pie=pie)


def split(frame: bytes, h: dict) -> tuple[bytes, bytes]:
    """(a, m) of the secured part frame[:dend]."""
    body = frame[:h["dend"]]
    if h["level"] < 4:
        return body, b""
    a = h["mhr"] + (1 if h["cmd"] else 0)
    return body[:a], body[a:]


def nonce_of(h: dict, src_addr: bytes | None) -> bytes:
    src = h["src"] if h["src"] is not None else src_addr
    return src + h["fcnt"].to_bytes(4, "big") + bytes([h["level"]])


def ctr0(key: bytes, nonce: bytes, data: bytes) -> bytes:
    """CCM* with M = 0: CTR with A_i = flags (L - 1 = 1) || nonce || i, from i = 1."""
    enc = Cipher(algorithms.AES(key), modes.CTR(bytes([1]) + nonce + (1).to_bytes(2, "big"))).encryptor()
    return enc.update(data) + enc.finalize()


def secure(key: bytes, frame: bytes, src_addr: bytes | None = None) -> bytes:
    h = parse(frame, False)
    a, m = split(frame, h)
    nonce = nonce_of(h, src_addr)
    if h["mic"] == 0:
        return a + ctr0(key, nonce, m)
    return a + AESCCM(key, tag_length=h["mic"]).encrypt(nonce, m, a)


def unsecure(key: bytes, frame: bytes, src_addr: bytes | None = None) -> bytes | None:
    """The frame in clear without its MIC; None when the MIC does not verify."""
    h = parse(frame, True)
    a, c = split(frame, h)
    nonce = nonce_of(h, src_addr)
    if h["mic"] == 0:
        return a + ctr0(key, nonce, c)
    try:
        return a + AESCCM(key, tag_length=h["mic"]).decrypt(nonce, c + frame[h["dend"]:], a)
    except InvalidTag:
        return None


def build(rng: random.Random, *, ver: int | None = None, cmd: bool | None = None, dam: int | None = None,
          sam: int | None = None, level: int | None = None, kim: int | None = None,
          plen: int | None = None, ies: bool | None = None, panc: int | None = None) -> tuple[bytes, bytes | None]:
    """A random frame to secure (Security Enabled set, private payload in clear) and the
    sideband source address it needs (None when the frame carries an extended one; a
    random address sometimes even then: the front end must ignore it)."""
    ver = ver or rng.choice([1, 2])
    cmd = rng.random() < 0.3 if cmd is None else cmd
    dam = rng.choice([0, 2, 3]) if dam is None else dam
    sam = rng.choice([0, 2, 3]) if sam is None else sam
    level = rng.randrange(1, 8) if level is None else level
    kim = rng.randrange(4) if kim is None else kim
    panc = rng.randrange(2) if panc is None else panc
    if ver == 1 and not (dam and sam):
        panc = 0
    sns = ver == 2 and rng.random() < 0.3
    iep = ver == 2 and (rng.random() < 0.5 if ies is None else ies)
    fc = (3 if cmd else 1) | 8 | (rng.randrange(2) << 4) | (rng.randrange(2) << 5) | (panc << 6)
    fc |= (sns << 8) | (iep << 9) | (dam << 10) | (ver << 12) | (sam << 14)
    f = bytearray(fc.to_bytes(2, "little"))
    if not sns:
        f.append(rng.randrange(256))
    dpan, span = pan_fields(ver, dam, sam, panc)
    alen = {0: 0, 2: 2, 3: 8}
    if dpan:
        f += rng.randbytes(2)
    f += rng.randbytes(alen[dam])
    if span:
        f += rng.randbytes(2)
    f += rng.randbytes(alen[sam])
    f.append(level | (kim << 3))
    f += rng.randbytes(4 + KID_LEN[kim])
    if plen is None:
        r = rng.random()
        plen = rng.randrange(0, 40) if r < 0.6 else rng.randrange(40, 300) if r < 0.9 else rng.randrange(300, 1200)
    if cmd:
        plen = max(plen, 1)
    payload_ies = iep and not cmd and rng.random() < 0.3
    if iep:
        for _ in range(rng.randrange(4)):
            n = rng.randrange(12)
            f += ((rng.randrange(0x7E) << 7) | n).to_bytes(2, "little") + rng.randbytes(n)
        if payload_ies:
            f += (HT1 << 7).to_bytes(2, "little")
        elif plen or rng.random() < 0.5:
            f += (HT2 << 7).to_bytes(2, "little")
    f += rng.randbytes(plen)
    if sam == 3:
        src = rng.randbytes(8) if rng.random() < 0.3 else None
    else:
        src = rng.randbytes(8)
    return bytes(f), src


# ---------------------------------------------------------------------------- helpers
async def start(dut, rng: random.Random) -> tuple[WpanDriver, dict]:
    drv = WpanDriver(dut)
    await drv.start()
    keys = {s: rng.randbytes(16) for s in range(2)}
    for s, k in keys.items():
        await drv.load_key(s, k)
    return drv, keys


async def check(drv: WpanDriver, name: str, err: int, out: bytes | None = None, level: int = 0) -> None:
    """The next status (and output frame when `out` is given) of the front end."""
    s = await with_timeout(drv.status(), 5_000_000, "ns")
    assert s["err"] == err, f"{name}: status err {W.error_name(s['err'])} (engine {s['eng_err']}), " \
                            f"expected {W.error_name(err)}"
    assert s["frame"] == int(out is not None), f"{name}: frame bit {s['frame']}"
    assert s["level"] == (level if err == W.ERR_OK else 0), f"{name}: level {s['level']}"
    if out is not None:
        data, flag = await with_timeout(drv.output(), 1_000_000, "ns")
        assert flag == 0, f"{name}: tuser set on the last beat"
        assert data == out, f"{name}:\n got {data.hex()}\n exp {out.hex()}"


# ---------------------------------------------------------------------------- tests
def test_reference_self_check():
    """The reference's own consistency (host side, no simulator): secure/unsecure round
    trip on every level, version and frame type, a wrong key fails, and the MIC only
    levels leave the frame in clear."""
    for name, clear, secured in KATS:
        assert secure(KAT_KEY, bytes.fromhex(clear)).hex() == secured, name
        assert unsecure(KAT_KEY, bytes.fromhex(secured)).hex() == clear, name
    rng = random.Random(run_seed())
    for ver in (1, 2):
        for cmd in (False, True):
            for level in range(1, 8):
                f, src = build(rng, ver=ver, cmd=cmd, level=level, plen=20)
                k = rng.randbytes(16)
                s = secure(k, f, src)
                assert len(s) == len(f) + MIC_OF_LEVEL[level & 3]
                assert unsecure(k, s, src) == f
                if level & 3:
                    assert unsecure(bytes(16), s, src) is None
                if level < 4:
                    assert s[:len(f)] == f
                else:
                    assert s[:-20 - MIC_OF_LEVEL[level & 3]] == f[:-20]


@cocotb.test()
async def test_known_answer(dut):
    """The IEEE 802.15.4-2006 Annex C data and command frames, secured and unsecured."""
    rng = test_rng(f"{__name__}.test_known_answer")
    drv, _ = await start(dut, rng)
    await drv.load_key(2, KAT_KEY)
    for name, clear, secured in KATS:
        c, s = bytes.fromhex(clear), bytes.fromhex(secured)
        lvl = parse(c, False)["level"]
        await drv.submit("wpan-encrypt", 2, c)
        await check(drv, f"{name}: encrypt", W.ERR_OK, s, lvl)
        await drv.submit("wpan-decrypt", 2, s)
        await check(drv, f"{name}: decrypt", W.ERR_OK, c, lvl)


@cocotb.test()
async def test_random(dut):
    """Random frames of every shape, each secured and its expected secured frame
    unsecured, back to back with gaps on the inputs and backpressure on the outputs."""
    rng = test_rng(f"{__name__}.test_random")
    drv, keys = await start(dut, rng)
    n = int(os.environ.get("AESIP_NRAND", "40"))
    jobs = []
    for i in range(n):
        kw = {}
        if i < 14:   # every level on both versions, data and command frames
            kw = dict(level=1 + i % 7, ver=1 + i // 7, cmd=bool(i % 2))
        elif i < 16:
            kw = dict(plen=[0, FRAME_MAX - 90][i - 14], cmd=False)
        frame, src = build(rng, **kw)
        slot = rng.randrange(len(keys))
        sec = secure(keys[slot], frame, src)
        assert unsecure(keys[slot], sec, src) == frame
        lvl = parse(frame, False)["level"]
        jobs.append(("wpan-encrypt", slot, src, frame, sec, lvl))
        jobs.append(("wpan-decrypt", slot, src, sec, frame, lvl))
    drv.set_gaps(rng, p_gap=0.2, p_bp=0.2)

    async def feed():
        for op, slot, src, inp, _, _ in jobs:
            await drv.submit(op, slot, inp, src)

    cocotb.start_soon(feed())
    for k, (op, slot, src, inp, out, lvl) in enumerate(jobs):
        await check(drv, f"frame {k} ({op}, {len(inp)} bytes, {inp[:40].hex()}...)", W.ERR_OK, out, lvl)
    await ClockCycles(dut.clk, 20)
    assert drv.out.empty() and drv.sts.empty(), "extra output frames or status beats"


def _fc(frame: bytes, clear: int = 0, set_: int = 0) -> bytes:
    fc = (int.from_bytes(frame[:2], "little") & ~clear) | set_
    return fc.to_bytes(2, "little") + frame[2:]


@cocotb.test()
async def test_bad_input(dut):
    """Every malformed or forged frame gets its error code and no output frame; the good
    frame after it (alternately secured and unsecured) comes out right."""
    rng = test_rng(f"{__name__}.test_bad_input")
    drv, keys = await start(dut, rng)
    drv.set_gaps(rng, p_gap=0.1, p_bp=0.1)
    k0 = keys[0]
    turn = [0]

    async def good():
        f, src = build(rng, plen=rng.randrange(0, 60))
        s = secure(k0, f, src)
        lvl = parse(f, False)["level"]
        if turn[0] % 2 == 0:
            await drv.submit("wpan-encrypt", 0, f, src)
            await check(drv, "good frame (encrypt)", W.ERR_OK, s, lvl)
        else:
            await drv.submit("wpan-decrypt", 0, s, src)
            await check(drv, "good frame (decrypt)", W.ERR_OK, f, lvl)
        turn[0] += 1

    async def bad(name, op, frame, err, src=None, **kw):
        await drv.submit(op, 0, frame, src, **kw)
        await check(drv, name, err)
        await good()

    base, bsrc = build(rng, ver=2, cmd=False, dam=3, sam=3, level=6, kim=1, plen=30, ies=False)
    sec = secure(k0, base, bsrc)
    for op, fr in (("wpan-encrypt", base), ("wpan-decrypt", sec)):
        await bad(f"{op}: empty frame", op, b"", W.ERR_SHORT)
        await bad(f"{op}: one byte", op, fr[:1], W.ERR_SHORT)
        await bad(f"{op}: version 0", op, _fc(fr, 0x3000), W.ERR_VERSION)
        await bad(f"{op}: version 3", op, _fc(fr, 0, 0x3000), W.ERR_VERSION)
        for t in (0, 2, 4, 5, 6, 7):
            await bad(f"{op}: frame type {t}", op, _fc(fr, 7, t), W.ERR_TYPE)
        await bad(f"{op}: Security Enabled clear", op, _fc(fr, 8), W.ERR_SEC)
        await bad(f"{op}: dst mode 1", op, _fc(fr, 0x0C00, 0x0400), W.ERR_ADDR)
        await bad(f"{op}: src mode 1", op, _fc(fr, 0xC000, 0x4000), W.ERR_ADDR)
        await bad(f"{op}: truncated MHR", op, fr[:10], W.ERR_SHORT)
        await bad(f"{op}: reserved sideband bit", op, fr, W.ERR_OP, rsvd=1 << 20)
        await bad(f"{op}: reserved sideband bit 2", op, fr, W.ERR_OP, rsvd=1 << 2)
        keep = [1] * len(fr)
        keep[3] = 0
        await bad(f"{op}: tkeep hole", op, fr, W.ERR_FRAMING, keep=keep)
        await bad(f"{op}: too long", op, fr + bytes(FRAME_MAX + 16 - len(fr) + 1), W.ERR_LEN)
    # version 1: PAN ID Compression with an address absent
    f1, s1 = build(rng, ver=1, cmd=False, dam=0, sam=3, level=5, kim=0, plen=8)
    await bad("v1 PAN ID Compression without destination", "wpan-encrypt", _fc(f1, 0, 0x40), W.ERR_ADDR)
    # the Auxiliary Security Header's fields
    h = parse(base, False)
    sc_off = h["mhr"] - 5 - 1    # kim 1: one key index byte, no IEs
    for name, sc, err in (("level 0", 0x08, W.ERR_LEVEL), ("frame counter suppression", 0x2E, W.ERR_FCS),
                          ("ASN in nonce", 0x4E, W.ERR_FCS)):
        fr = base[:sc_off] + bytes([sc]) + base[sc_off + 1:]
        await bad(f"security control {name}", "wpan-encrypt", fr, err)
    await bad("decrypt: shorter than MHR + MIC", "wpan-decrypt", sec[:h["mhr"] + 3], W.ERR_SHORT)
    # missing source address
    fs, _ = build(rng, ver=2, cmd=False, dam=3, sam=2, level=7, plen=10, ies=False)
    await bad("no extended source address, no src_addr", "wpan-encrypt", fs, W.ERR_SRC, None)
    # header IEs
    fi, si = build(rng, ver=2, cmd=False, dam=2, sam=3, level=5, kim=0, plen=0, ies=False)
    fi = _fc(fi, 0, 0x200)
    await bad("IE past the end", "wpan-encrypt", fi + (5 << 0).to_bytes(2, "little") + b"\1\2", W.ERR_IE, si)
    await bad("payload IE in the header", "wpan-encrypt", fi + (0x8000).to_bytes(2, "little"), W.ERR_IE, si)
    await bad("descriptor beyond 128 bytes", "wpan-encrypt",
              fi + b"".join(((0x10 << 7) | 120).to_bytes(2, "little") + bytes(120) for _ in range(2)), W.ERR_IE, si)
    fc_, sc_ = build(rng, ver=2, cmd=True, dam=2, sam=3, level=5, kim=0, plen=0, ies=False)
    await bad("command frame with payload IEs", "wpan-encrypt",
              _fc(fc_[:-1], 0, 0x200) + (HT1 << 7).to_bytes(2, "little") + b"\x01\x02", W.ERR_IE, sc_)
    fc2, sc2 = build(rng, ver=1, cmd=True, dam=2, sam=3, level=5, kim=0, plen=1, ies=False)
    await bad("command frame without identifier", "wpan-encrypt", fc2[:-1], W.ERR_SHORT, sc2)
    # forged frames
    for lvl in (1, 2, 3, 5, 6, 7):
        fr, src = build(rng, level=lvl, plen=rng.randrange(1, 50))
        s = bytearray(secure(k0, fr, src))
        for where in (-1, len(fr) - 1, 0 if lvl > 0 else 1):
            t = bytearray(s)
            t[where] ^= 1 << rng.randrange(8)
            exp = W.ERR_AUTH
            if where == 0:   # Frame Control: may turn into another error; keep it a data frame
                t[0] = s[0] ^ 0x10   # Frame Pending: authenticated, not parsed
            await bad(f"level {lvl}: flipped byte {where}", "wpan-decrypt", bytes(t), exp, src)
        if src is not None and fr[1] >> 6 != 3:
            await bad(f"level {lvl}: wrong src_addr", "wpan-decrypt", bytes(s), W.ERR_AUTH,
                      bytes(b ^ 0xFF for b in src))
    # key errors from the engine: an empty slot
    f3, s3 = build(rng, level=6, plen=5)
    await drv.submit("wpan-encrypt", 3, f3, s3)
    await check(drv, "empty key slot", W.ERR_KEY)
    await good()


@cocotb.test()
async def test_timing(dut):
    """Cycles per frame alone (no gaps, no backpressure; level 6, 20-byte MHR) from the
    sideband beat to the status beat, logged for docs/wpan.md, against the bound of its
    timing section: receive (one beat per clock) + parse and checks (4) + engine (CCM
    steps: 1 + AAD blocks + m, x (core latency + 1)) + (decryption) the release of m
    verified beats + 20 cycles."""
    from cocotb.utils import get_sim_steps, get_sim_time

    rng = test_rng(f"{__name__}.test_timing")
    drv, keys = await start(dut, rng)
    step = ccm_step_clocks(dut)   # AES-128 CCM step: core latency + 1
    for plen in (0, 16, 64, 100, 1000, FRAME_MAX - 64):
        f, src = build(rng, ver=1, cmd=False, dam=2, sam=3, level=6, kim=0, plen=plen, panc=1)
        s = secure(keys[0], f, src)
        for op, inp, out in (("wpan-encrypt", f, s), ("wpan-decrypt", s, f)):
            await ClockCycles(dut.clk, 5)
            t0 = get_sim_time("step")
            await drv.submit(op, 0, inp, src)
            st = await with_timeout(drv.status(), 5_000_000, "ns")
            cycles = int((st["t"] - t0) // get_sim_steps(10, "ns"))
            data, _ = await drv.output()
            assert st["err"] == 0 and data == out, f"{op} {plen}"
            nblk = -(-plen // 16)
            beats = -(-len(inp) // 16)
            steps = 1 + 2 + nblk
            bound = beats + 4 + steps * step + (nblk if op == "wpan-decrypt" else 0) + 20
            dut._log.info("%s %4d payload bytes: %5d cycles (input %d beats, engine %d steps; bound %d)",
                          op, plen, cycles, beats, steps, bound)
            assert cycles <= bound, f"{op} {plen}: {cycles} cycles > {bound}"


# ---------------------------------------------------------------------------- pytest
def case(simulator: str, parameters: dict, tests: list[str], env: dict):
    return pytest.param(simulator, parameters, tests, env, id=sim.case_id(simulator, parameters))


CASES = [
    case("verilator", {"CORE": "iter128"}, ["test_known_answer", "test_random", "test_bad_input", "test_timing"],
         {"AESIP_NRAND": "40"}),
    case("verilator", {"CORE": "pipe", "MULTI": 1}, ["test_known_answer", "test_random"], {"AESIP_NRAND": "12"}),
    case("icarus", {"CORE": "iter128"}, ["test_known_answer", "test_random", "test_bad_input"],
         {"AESIP_NRAND": "10"}),
    # two rounds per clock in both cores (aes_iter128 ROUNDS_PER_CLK = 2): CCM steps of Nr / 2 + 1
    case("verilator", {"CORE": "iter128", "ROUNDS_PER_CLK": 2}, ["test_known_answer", "test_random", "test_timing"], {"AESIP_NRAND": "12"}),
]


@pytest.mark.parametrize("simulator,parameters,tests,env", CASES)
def test_wpan_top(simulator, parameters, tests, env):
    sim.require(simulator)
    sim.run_and_check(
        toplevel=rtl.WPAN_TOP,
        sources=rtl.wpan_sources(parameters["CORE"]),
        test_module=__name__,
        testcase=tests,
        sim=simulator,
        parameters=parameters,
        extra_env=env,
        seed=run_seed(),
        quiet=True,
        internals=("wpan_fe",) + rtl.ENGINE_PUBLIC,   # the front end's state, the engine below it
    )
