# SPDX-License-Identifier: Apache-2.0
"""aes_mode_engine (docs/mode_engine.md): its cocotb tests and the pytest entry that
builds it on each block core and simulator. tb/modes/test_aes_mode_multi.py runs the very
same cocotb tests on aes_mode_multi, so every test here works on both mode engines.

Functional tests: every NIST CAVP CCM record, SP 800-38A vectors, randomized packets of
every op across the CCM parameter space with gaps and backpressure on every port, a
bad-input campaign (every error code), packets without output among short ones.
Security tests (docs/mode_engine.md, "Security"; fail closed): unusable key slots, key
loads into a slot in use, no state left behind after packets and after zeroize, and the
randomized soak with zeroize and rekey events (aesip.tb.engsoak; `make soak` runs it
long). Expected values come from `cryptography` / pycryptodome / the CAVP files only.

The build's parameters are read from the DUT (`Build`). Environment (test sizes only,
set by the pytest entries):
  AESIP_CAVP          'all', 'some' (every 5th CCM record) or a number N (every Nth
                      record of each kind: encryption, passing, failing decryption) in
                      test_ccm_cavp
  AESIP_NRAND         random packets in test_random (default 300)
  AESIP_SOAK_PACKETS  packets in test_soak (default 300)
"""
from __future__ import annotations

import os
import random
from dataclasses import dataclass

import cocotb
import pytest
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout

from aesip import iface, ref, rtl, sim, vectors
from aesip.iface import ERR_AUTH, ERR_FRAMING, ERR_KEY, ERR_OP, ERR_ZEROIZED, OP_W, OPS
from aesip.tb.coredrv import dut_params, load_key, obuf_ram_nonzero
from aesip.tb.engdrv import EngineDriver, Packet, Result, engine_core, engine_cores, expect, random_packet
from aesip.tb.engsoak import Checker, Events, monitor, pulse_zeroize, soak
from aesip.tb.seed import run_seed, test_rng

ALL_OPS = list(iface.OPS)


# ---------------------------------------------------------------------------- the build
@dataclass(frozen=True)
class Build:
    """Parameters of the build under test, read from the DUT (aes_mode_engine or
    aes_mode_multi)."""

    core: str              # CORE: block core name (aesip.rtl.CORES)
    nr_max: int            # NR_MAX
    buf_bytes: int         # 16 * 2**BUF_AW: store-and-forward payload limit
    lanes: int             # LANES of aes_mode_multi; 0 for aes_mode_engine
    decrypt: bool = True   # core B decrypts (aes_mode_engine DIRECTION_B = 2): ECB/CBC decrypt

    @property
    def nr_max_bytes(self) -> int:
        """The largest key the build accepts."""
        return {nr: kb for kb, nr in ref.ROUNDS.items()}[self.nr_max]

    @property
    def multi(self) -> bool:
        return self.lanes > 0

    def checker(self) -> Checker:
        return Checker(self.buf_bytes, self.nr_max_bytes)


def build_of(dut) -> Build:
    p = dut_params(dut, ("NR_MAX", "BUF_AW"))
    core = engine_core(dut)
    lanes = int(dut.LANES.value) if dut._name == rtl.MULTI_TOP else 0
    decrypt = int(dut.DIRECTION_B.value) != 0
    b = Build(core, p["NR_MAX"], 16 << p["BUF_AW"], lanes, decrypt)
    cocotb.log.info("build: %s", b)
    return b


def rng_for(name: str) -> random.Random:
    return test_rng(f"{__name__}.{name}")


# ops that need the inverse cipher: refused with OP by an encrypt-only build (DIRECTION_B = 0)
DECRYPT_OPS = ("ecb-decrypt", "cbc-decrypt")


def expect_on(b: Build, p: Packet, key: bytes | None) -> Result:
    """expect() for the build `b`: on an encrypt-only build (DIRECTION_B = 0) ECB and CBC
    decryption are refused at command time with OP (highest priority: no output, data
    consumed), as docs/mode_engine.md states."""
    if not b.decrypt and p.op in DECRYPT_OPS and p.raw_op is None:
        return Result(ERR_OP, bytes(16))
    return expect(p, key, b.buf_bytes, b.nr_max_bytes)


# ---------------------------------------------------------------------------- helpers
async def run_packets(drv: EngineDriver, pkts: list[Packet], exps: list[Result], names=None) -> None:
    """Stream the packets (commands and data run ahead), then check every status and
    output frame in order: nothing lost, duplicated or reordered."""

    async def feed():
        for p in pkts:
            await drv.submit(p)

    cocotb.start_soon(feed())
    for i, (p, e) in enumerate(zip(pkts, exps)):
        name = names[i] if names else f"packet {i} ({p.op})"
        # generous watchdog: the longest legal packet here is ~70k beats
        try:
            err, tag = await with_timeout(drv.status(), 20_000_000, "ns")
        except Exception:
            d = drv.dut
            d._log.error("%s hung: op=%s slot=%d iv=%d aad=%d data=%d tag_len=%d cut=%s",
                         name, p.op, p.slot, len(p.iv), len(p.aad), len(p.data), p.tag_len, p.cut)
            for sig in ("s_axis_cmd_tvalid", "s_axis_cmd_tready", "s_axis_tvalid", "s_axis_tready",
                        "m_axis_tvalid", "m_axis_tready", "m_axis_sts_tvalid", "m_axis_sts_tready",
                        "key_valid", "key_ready"):
                d._log.error("  %s = %s", sig, getattr(d, sig).value)
            raise
        assert err == e.err, f"{name}: status error {err}, expected {e.err}"
        assert tag == e.tag, f"{name}: tag {tag.hex()} expected {e.tag.hex()}"
        if e.data is not None:
            data, flag = await with_timeout(drv.output(), 1_000_000, "ns")
            assert flag == e.fail_flag, f"{name}: last-beat fail flag {flag}, expected {e.fail_flag}"
            if e.err == 0:
                assert data == e.data, f"{name}: data {data.hex()} expected {e.data.hex()}"
            else:
                n = len(p.data) if e.out_len is None else e.out_len
                assert len(data) == n, f"{name}: {len(data)} output bytes, expected {n}"
    await ClockCycles(drv.dut.clk, 20)
    assert drv.out.empty(), "unexpected extra output frames"
    assert drv.sts.empty(), "unexpected extra status beats"


def beats_of(data: bytes, keep_override: dict | None = None):
    """Split into 16-byte beats (explicit tkeep) for framing tests."""
    out = []
    n = max(1, (len(data) + 15) // 16)
    for i in range(n):
        chunk = data[16 * i:16 * i + 16]
        keep = [1] * len(chunk) + [0] * (16 - len(chunk))
        if keep_override and i in keep_override:
            keep = keep_override[i]
        out.append((chunk.ljust(16, b"\0"), keep, None))
    return out


def op_packets(rng: random.Random, slot: int, key: bytes) -> list[Packet]:
    """One packet of every op (CCM decryption store-and-forward and cut-through)."""
    out = []
    for op in ALL_OPS:
        if op.startswith("ccm"):
            p = Packet(op, slot, rng.randbytes(13), rng.randbytes(20), rng.randbytes(50), 8)
            if op == "ccm-decrypt":
                ct, tag = ref.ccm_encrypt(key, p.iv, p.aad, p.data, 8)
                p.data, p.rtag = ct, tag
                out.append(Packet(op, slot, p.iv, p.aad, ct, 8, tag, cut=True))
        elif op == "ctr":
            p = Packet(op, slot, rng.randbytes(16), b"", rng.randbytes(45))
        else:
            p = Packet(op, slot, rng.randbytes(16), b"", rng.randbytes(48))
        out.append(p)
    return out


# ---------------------------------------------------------------------------- functional tests
@cocotb.test()
async def test_ccm_cavp(dut):
    """Every NIST CAVP CCM record (DVPT, VADT, VNT, VPT, VTT; 128/192/256). DVPT records
    are decryption-verification: 'Fail' records must be rejected with no plaintext
    released (store-and-forward); a sample also runs cut-through, and a sample (crossing
    both) brings the received tag as the last data beat (tag_beat). On a build with
    NR_MAX < 14 the records with larger keys are expected to fail with KEY (expect())."""
    b = build_of(dut)
    drv = EngineDriver(dut)
    await drv.start()
    recs = vectors.aes_ccm_records()
    sample = os.environ.get("AESIP_CAVP", "all")
    if sample == "some":
        recs = recs[::5]
    elif sample != "all":   # every Nth record of each kind: encryption, passing and failing decryption
        n, seen, kept = int(sample), {}, []
        for r in recs:
            kind = (r["dec"], r["ok"])
            if seen.get(kind, 0) % n == 0:
                kept.append(r)
            seen[kind] = seen.get(kind, 0) + 1
        recs = kept
    groups: dict[bytes, list] = {}
    for r in recs:
        groups.setdefault(r["key"], []).append(r)
    nfail = 0
    for key, rs in groups.items():
        await drv.load_key(0, key)
        pkts, exps, names = [], [], []
        for i, r in enumerate(rs):
            t = r["tag_len"]
            if r["dec"]:
                ct, tag = r["ct"][: len(r["ct"]) - t], r["ct"][len(r["ct"]) - t:]
                p = Packet("ccm-decrypt", 0, r["nonce"], r["aad"], ct, t, tag, cut=(i % 4 == 3),
                           tag_beat=(i % 3 == 1))
                if r["ok"]:
                    e = Result(0, bytes(16), r["payload"] or None)
                else:
                    nfail += 1
                    e = Result(ERR_AUTH, bytes(16), b"" if (p.cut and ct) else None, 1)
            else:
                p = Packet("ccm-encrypt", 0, r["nonce"], r["aad"], r["payload"], t)
                plen = len(r["payload"])
                e = Result(0, r["ct"][plen:].ljust(16, b"\0"), r["ct"][:plen] or None)
            if len(key) > b.nr_max_bytes:   # the engine refuses the key: status KEY, no data
                e = expect(p, key, b.buf_bytes, b.nr_max_bytes)
                assert e.err == ERR_KEY, (r["name"], e)
            pkts.append(p)
            exps.append(e)
            names.append(r["name"])
        await run_packets(drv, pkts, exps, names)
    dut._log.info("checked %d CAVP CCM records (%d must-fail records rejected)", len(recs), nfail)
    assert nfail > 0


@cocotb.test()
async def test_sp800_38a(dut):
    """SP 800-38A F.2.1 (CBC-AES128 encrypt) and F.5.1 (CTR-AES128) through the engine."""
    drv = EngineDriver(dut)
    await drv.start()
    key = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
    pt = bytes.fromhex(
        "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
        "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
    cbc_ct = bytes.fromhex(
        "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
        "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7")
    ctr_ct = bytes.fromhex(
        "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
        "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee")
    iv = bytes(range(16))
    ctr0 = bytes.fromhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
    await drv.load_key(1, key)
    pkts = [Packet("cbc-encrypt", 1, iv, b"", pt), Packet("cbc-decrypt", 1, iv, b"", cbc_ct),
            Packet("ctr", 1, ctr0, b"", pt), Packet("ctr", 1, ctr0, b"", ctr_ct)]
    nxt = (int.from_bytes(ctr0, "big") + 4).to_bytes(16, "big")
    exps = [Result(0, cbc_ct[-16:], cbc_ct), Result(0, cbc_ct[-16:], pt),
            Result(0, nxt, ctr_ct), Result(0, nxt, pt)]
    await run_packets(drv, pkts, exps)


@cocotb.test()
async def test_ctr_carries(dut):
    """CTR counters whose increments carry across the lane's 32-bit counter chunks
    (docs/mode_engine.md, "Clock"): the low 32, 64, 96 and 128 bits all ones or a few
    steps below, chunks of ...FE / ...FF / 00 patterns above them, the 2^128 wrap; each
    over several blocks, so the carries are taken both from the command's initial counter
    and from increments. Reference: `cryptography` AES-CTR (128-bit counter mod 2^128)."""
    rng = rng_for("test_ctr_carries")
    drv = EngineDriver(dut)
    await drv.start()
    key = rng.randbytes(16)
    await drv.load_key(0, key)
    words = [0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFC, 0x00000000, 0x7FFFFFFF]
    starts = []
    for low in (32, 64, 96, 128):
        for back in (1, 2, 3, 4):
            hi = rng.getrandbits(128 - low) << low if low < 128 else 0
            starts.append(hi | ((1 << low) - back))
    for _ in range(40):   # random mixes of the chunk patterns
        starts.append(sum(rng.choice(words) << (32 * k) for k in range(4)))
    pkts = [Packet("ctr", 0, c.to_bytes(16, "big"), b"", rng.randbytes(rng.randint(33, 90)))
            for c in starts]
    exps = [expect(p, key) for p in pkts]
    drv.set_gaps(rng, 0.2, 0.2)
    await run_packets(drv, pkts, exps)
    dut._log.info("checked %d CTR packets across the counter chunks", len(pkts))


@cocotb.test()
async def test_random(dut):
    """Random ops across the CCM parameter space (every nonce and tag length, AAD/payload
    0..600 bytes, AADs around the 0xFF00 length-encoding switch), tampered decryptions,
    store-and-forward and cut-through, several key slots of all sizes, random gaps and
    backpressure on every port."""
    b = build_of(dut)
    rng = rng_for("test_random")
    drv = EngineDriver(dut)
    await drv.start()
    nslots = 2 ** len(dut.key_slot)
    keys = {s: rng.randbytes(rng.choice([16, 24, 32])) for s in range(nslots)}
    for s, k in keys.items():
        await drv.load_key(s, k)
    total = int(os.environ.get("AESIP_NRAND", "300"))
    done = 0
    while done < total:
        n = min(total - done, rng.randint(5, 30))
        drv.set_gaps(rng, rng.choice([0.0, 0.2, 0.6]), rng.choice([0.0, 0.2, 0.6]))
        pkts = [random_packet(rng, keys) for _ in range(n)]
        exps = [expect_on(b, p, keys[p.slot]) for p in pkts]
        await run_packets(drv, pkts, exps)
        done += n
        s = rng.randrange(nslots)
        keys[s] = rng.randbytes(rng.choice([16, 24, 32]))
        await drv.load_key(s, keys[s])
    dut._log.info("checked %d random packets", done)


@cocotb.test()
async def test_bad_input(dut):
    """Every illegal parameter kind and every framing error gets its error code, consumes
    exactly its packet's data, releases no unverified plaintext, and the good packets
    after it still come out right."""
    b = build_of(dut)
    rng = rng_for("test_bad_input")
    drv = EngineDriver(dut)
    await drv.start()
    key = rng.randbytes(16)
    await drv.load_key(0, key)
    await drv.load_key(1, rng.randbytes(20))   # illegal length: slot 1 invalid
    nonce = rng.randbytes(12)
    good = Packet("ccm-encrypt", 0, nonce, b"hdr", b"payload-bytes" * 3, 8)
    cases = []
    for nl in (0, 1, 6, 14, 15):
        cases.append(Packet("ccm-encrypt", 0, rng.randbytes(16), b"a", b"b", 8, nonce_len=nl))
    for tl in (1, 2, 3, 5, 15, 17, 18, 31):   # (0 is CCM* encryption only: test_ccm_star)
        cases.append(Packet("ccm-decrypt", 0, nonce, b"", b"x" * 20, tl, rtag=bytes(16)))
    for op in sorted({max(OPS.values()) + 1, max(OPS.values()) + 2, (1 << OP_W) - 1}):   # unused codes
        cases.append(Packet("ecb-encrypt", 0, b"", b"", bytes(32), raw_op=op))
    cases.append(Packet("ecb-encrypt", 0, b"", b"", bytes(16), cut=True))          # reserved flag
    cases.append(Packet("ecb-encrypt", 0, b"", b"", bytes(16), tag_beat=True))     # tag_beat: CCM decrypt only
    cases.append(Packet("ccm-encrypt", 0, nonce, b"a", b"b", 8, rtag=bytes(8), tag_beat=True))
    cases.append(Packet("ccm-decrypt", 0, nonce, b"", b"", 0, tag_beat=True))       # ... with t > 0
    cases.append(Packet("ecb-encrypt", 0, b"", b"", bytes(20)))                     # not whole blocks
    cases.append(Packet("cbc-decrypt", 0, bytes(16), b"", bytes(33)))
    cases.append(Packet("ctr", 0, bytes(16), b"aad", bytes(16)))                    # AAD on a plain mode
    cases.append(Packet("ccm-encrypt", 0, rng.randbytes(13), b"", bytes(65536), 4))  # L=2: too long
    cases.append(Packet("ccm-decrypt", 0, nonce, b"", bytes(b.buf_bytes + 16), 8, rtag=bytes(8)))  # buffer
    cases.append(Packet("ecb-encrypt", 1, b"", b"", bytes(32)))                     # invalid key slot contents
    cases.append(Packet("ccm-decrypt", 1, nonce, b"a", bytes(20), 8, rtag=bytes(8)))
    # tampered tags: every byte position of a 16-byte tag
    for pos in range(16):
        ct, tag = ref.ccm_encrypt(key, nonce, b"aad", b"m" * 33, 16)
        bad = bytearray(tag)
        bad[pos] ^= 1 << rng.randrange(8)
        cases.append(Packet("ccm-decrypt", 0, nonce, b"aad", ct, 16, rtag=bytes(bad), cut=bool(pos & 1)))
    pkts, exps = [], []
    for c in cases:
        pkts += [c, good]
        exps += [expect(c, {0: key}.get(c.slot), b.buf_bytes, b.nr_max_bytes), expect(good, key)]
    for e, p in zip(exps[::2], pkts[::2]):
        assert e.err != 0, f"case {p} expected to fail"
    await run_packets(drv, pkts, exps)

    # framing errors: tlast early / late, wrong tkeep
    ct_good, tag_good = ref.ccm_encrypt(key, nonce, b"A" * 20, b"P" * 40, 8)
    frames = []
    # (a) CCM-enc a=20 p=40 but tlast after the AAD beats: no output
    p = Packet("ccm-encrypt", 0, nonce, b"A" * 20, b"P" * 40, 8)
    p.beats = beats_of(b"A" * 20)
    frames.append((p, Result(ERR_FRAMING, bytes(16), None)))
    # (b) CCM-enc a=0 p=40 but only two full beats: 32 bytes out, flagged
    p = Packet("ccm-encrypt", 0, nonce, b"", b"P" * 40, 8)
    p.beats = beats_of(b"P" * 32)
    frames.append((p, Result(ERR_FRAMING, bytes(16), b"", 1, 32)))
    # (c) CTR p=20 but four beats: the extra beats are swallowed, 20 bytes out, flagged
    p = Packet("ctr", 0, bytes(16), b"", b"C" * 20)
    p.beats = beats_of(b"C" * 20 + bytes(12) + bytes(32))
    p.beats[1] = (p.beats[1][0], [1] * 4 + [0] * 12, None)
    frames.append((p, Result(ERR_FRAMING, bytes(16), b"", 1)))
    # (d) ECB p=32 with a wrong tkeep on the last beat
    p = Packet("ecb-encrypt", 0, b"", b"", bytes(32))
    p.beats = beats_of(bytes(32), keep_override={1: [1] * 8 + [0] * 8})
    frames.append((p, Result(ERR_FRAMING, bytes(16), b"", 1)))
    # (e) store-and-forward CCM-dec that ends early: nothing released
    p = Packet("ccm-decrypt", 0, nonce, b"A" * 20, ct_good, 8, rtag=tag_good)
    p.beats = beats_of(b"A" * 20) + beats_of(ct_good[:16])
    frames.append((p, Result(ERR_FRAMING, bytes(16), None)))
    # (f) a correct store-and-forward packet whose tlast comes one beat late
    p = Packet("ccm-decrypt", 0, nonce, b"A" * 20, ct_good, 8, rtag=tag_good)
    p.beats = beats_of(b"A" * 20) + beats_of(ct_good) + beats_of(bytes(16))
    frames.append((p, Result(ERR_FRAMING, bytes(16), None)))
    # tag_beat: the received tag as the last data beat, misframed
    # (g) the payload's last beat carries tlast (no tag beat): nothing released
    p = Packet("ccm-decrypt", 0, nonce, b"A" * 20, ct_good, 8, rtag=tag_good, tag_beat=True)
    p.beats = beats_of(b"A" * 20) + beats_of(ct_good)
    frames.append((p, Result(ERR_FRAMING, bytes(16), None)))
    # (h) the tag beat with a wrong tkeep (the right tag bytes, 9 lanes kept)
    p = Packet("ccm-decrypt", 0, nonce, b"A" * 20, ct_good, 8, rtag=tag_good, tag_beat=True)
    p.beats = beats_of(b"A" * 20) + beats_of(ct_good) + beats_of(tag_good, keep_override={0: [1] * 9 + [0] * 7})
    frames.append((p, Result(ERR_FRAMING, bytes(16), None)))
    # (i) a beat more after the tag beat (tlast late): swallowed up to tlast, nothing released
    p = Packet("ccm-decrypt", 0, nonce, b"A" * 20, ct_good, 8, rtag=tag_good, tag_beat=True)
    p.beats = beats_of(b"A" * 20) + beats_of(ct_good) + beats_of(tag_good) + beats_of(bytes(16))
    frames.append((p, Result(ERR_FRAMING, bytes(16), None)))
    # (j) cut-through with the tag beat, tag wrong: plaintext streamed and flagged
    p = Packet("ccm-decrypt", 0, nonce, b"A" * 20, ct_good, 8, rtag=bytes(8), tag_beat=True, cut=True)
    frames.append((p, Result(ERR_AUTH, bytes(16), b"", 1)))
    pkts, exps = [], []
    for p, e in frames:
        pkts += [p, good]
        exps += [e, expect(good, key)]
    await run_packets(drv, pkts, exps)
    dut._log.info("bad-input campaign: %d parameter cases, %d framing cases", len(cases), len(frames))


@cocotb.test()
async def test_ccm_star(dut):
    """CCM* encryption only (tag length 0, IEEE 802.15.4 security level 4, M = 0): every
    nonce length 7..13, payloads of 0..80 bytes, with and without AAD (consumed and
    ignored), every key size, encryption and decryption (store-and-forward and
    cut-through alike: nothing to verify, never an AUTH error, status value 0), random
    gaps and backpressure. A store-and-forward M = 0 decryption larger than the output
    buffer is accepted (it is not buffered). Reference: aesip.ref.ccm_star_m0
    (`cryptography` AES-CTR from A_1 = flags || nonce || 1)."""
    b = build_of(dut)
    rng = rng_for("test_ccm_star")
    drv = EngineDriver(dut)
    await drv.start()
    keys = {0: rng.randbytes(16), 1: rng.randbytes(24), 2: rng.randbytes(32)}
    keys = {s: k for s, k in keys.items() if len(k) <= b.nr_max_bytes}
    for s, k in keys.items():
        await drv.load_key(s, k)
    pkts = []
    for plen in range(0, 81):
        for dec in (False, True):
            slot = rng.choice(list(keys))
            nonce = rng.randbytes(7 + (plen + dec) % 7)
            aad = rng.randbytes(rng.choice([0, rng.randint(1, 40)])) if plen % 3 else b""
            data = rng.randbytes(plen)
            if dec:
                pkts.append(Packet("ccm-decrypt", slot, nonce, aad, data, 0, rtag=b"", cut=rng.random() < 0.3))
            else:
                pkts.append(Packet("ccm-encrypt", slot, nonce, aad, data, 0))
    # the same payload under every key size with and without AAD: the AAD changes nothing
    nonce, msg = rng.randbytes(13), rng.randbytes(45)
    for s in keys:
        for aad in (b"", rng.randbytes(30)):
            pkts.append(Packet("ccm-encrypt", s, nonce, aad, msg, 0))
    # larger than the store-and-forward buffer: accepted (M = 0 is never buffered)
    pkts.append(Packet("ccm-decrypt", 0, rng.randbytes(12), b"", rng.randbytes(b.buf_bytes + 20), 0))
    exps = [expect(p, keys[p.slot], b.buf_bytes, b.nr_max_bytes) for p in pkts]
    for p, e in zip(pkts, exps):
        assert e.err == 0 and e.tag == bytes(16)
        assert e.data == (ref.ccm_star_m0(keys[p.slot], p.iv, p.data) or None)
    drv.set_gaps(rng, 0.3, 0.3)
    await run_packets(drv, pkts[:-1], exps[:-1])
    drv.set_gaps(rng, 0.0, 0.0)
    await run_packets(drv, pkts[-1:], exps[-1:])
    # M = 0 among tagged CCM packets of the same nonce: the ciphertexts agree (same counter
    # blocks from A_1), only the tag differs
    key = keys[0]
    tagged = Packet("ccm-encrypt", 0, nonce, b"hdr", msg, 8)
    plain = Packet("ccm-encrypt", 0, nonce, b"hdr", msg, 0)
    await run_packets(drv, [tagged, plain], [expect(tagged, key), expect(plain, key)])
    assert expect(tagged, key).data == expect(plain, key).data
    dut._log.info("checked %d CCM* (M = 0) packets", len(pkts) + 2)


@cocotb.test()
async def test_profile_1609(dut):
    """The IEEE 1609.2 profile (docs/mode_engine.md, "Profiles"): AES-128-CCM, 12-byte
    nonce, 16-byte tag, no AAD; random packets of 0..300 bytes, encryption and
    decryption (a quarter tampered), with gaps and backpressure, against `cryptography`
    AESCCM directly."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    rng = rng_for("test_profile_1609")
    drv = EngineDriver(dut)
    await drv.start()
    key = rng.randbytes(16)
    await drv.load_key(0, key)
    aes = AESCCM(key, tag_length=16)
    pkts, exps = [], []
    for i in range(60):
        nonce, msg = rng.randbytes(12), rng.randbytes(rng.choice([0, rng.randint(1, 48), rng.randint(0, 300)]))
        out = aes.encrypt(nonce, msg, None)
        ct, tag = out[:-16], out[-16:]
        if i % 2 == 0:
            pkts.append(Packet("ccm-encrypt", 0, nonce, b"", msg, 16))
            exps.append(Result(0, tag, ct or None))
            continue
        if rng.random() < 0.25:
            pos = rng.randrange(8 * (len(ct) + 16))
            blob = bytearray(ct + tag)
            blob[pos // 8] ^= 1 << (pos % 8)
            ct, tag = bytes(blob[:-16]), bytes(blob[-16:])
        cut = rng.random() < 0.3
        pkts.append(Packet("ccm-decrypt", 0, nonce, b"", ct, 16, rtag=tag, cut=cut))
        try:
            pt = aes.decrypt(nonce, ct + tag, None)
            exps.append(Result(0, bytes(16), pt or None))
        except InvalidTag:
            exps.append(Result(ERR_AUTH, bytes(16), b"" if (cut and ct) else None, 1 if (cut and ct) else 0))
    drv.set_gaps(rng, 0.2, 0.2)
    await run_packets(drv, pkts, exps)
    drv.set_gaps(rng, 0.0, 0.0)


@cocotb.test()
async def test_no_output_mix(dut):
    """Packets without output beats (CBC-MAC, empty CCM payload, rejected commands with
    data, failed store-and-forward decryptions) interleaved with short packets that have
    output, under heavy output/status backpressure: on aes_mode_multi a lane's next
    packet writes beats while the previous packet's status (no beats) still waits, so the
    output merge must attribute every beat and status to the right packet."""
    rng = rng_for("test_no_output_mix")
    drv = EngineDriver(dut)
    await drv.start()
    key = rng.randbytes(16)
    await drv.load_key(0, key)
    pkts = []
    for i in range(48):
        kind = rng.randrange(7)
        nonce = rng.randbytes(13)
        if kind == 0:
            p = Packet("cbc-mac", 0, rng.randbytes(16), b"", rng.randbytes(16 * rng.randint(1, 3)))
        elif kind == 1:
            p = Packet("ccm-encrypt", 0, nonce, rng.randbytes(rng.randint(1, 40)), b"", 8)
        elif kind == 2:
            p = Packet("ecb-encrypt", 0, b"", b"", rng.randbytes(16 * rng.randint(1, 2)), raw_op=max(OPS.values()) + 2)
        elif kind == 3:
            ct, tag = ref.ccm_encrypt(key, nonce, b"hdr", rng.randbytes(rng.randint(1, 40)), 8)
            p = Packet("ccm-decrypt", 0, nonce, b"hdr", ct, 8, rtag=bytes([tag[0] ^ 1]) + tag[1:])
        elif kind == 4:
            p = Packet("ctr", 0, rng.randbytes(16), b"", rng.randbytes(rng.randint(1, 20)))
        elif kind == 5:
            p = Packet("ccm-encrypt", 0, nonce, b"", rng.randbytes(rng.randint(1, 20)), 4)
        else:
            p = Packet("ecb-encrypt", 0, b"", b"", rng.randbytes(16))
        pkts.append(p)
    drv.set_gaps(rng, 0.1, 0.7)
    await run_packets(drv, pkts, [expect(p, key) for p in pkts])
    drv.set_gaps(rng, 0.0, 0.0)


@cocotb.test()
async def test_decrypt_ops(dut):
    """Every op with a whole-block payload, each followed by a CCM packet: on a build whose
    core B decrypts, ECB/CBC decryption run normally; on an encrypt-only build
    (aes_mode_engine DIRECTION_B = 0) they are refused with OP, emit no output beat, their
    data beats are consumed, and the packets after them come out right."""
    b = build_of(dut)
    rng = rng_for("test_decrypt_ops")
    drv = EngineDriver(dut)
    await drv.start()
    key = rng.randbytes(16)
    await drv.load_key(0, key)
    pkts = []
    for op in ALL_OPS:
        for n in (1, 3):
            if op.startswith("ccm"):
                nonce = rng.randbytes(13)
                if op == "ccm-decrypt":
                    ct, tag = ref.ccm_encrypt(key, nonce, b"hdr", rng.randbytes(16 * n), 8)
                    pkts.append(Packet(op, 0, nonce, b"hdr", ct, 8, tag))
                else:
                    pkts.append(Packet(op, 0, nonce, b"hdr", rng.randbytes(16 * n), 8))
            else:
                pkts.append(Packet(op, 0, rng.randbytes(16), b"", rng.randbytes(16 * n)))
            pkts.append(Packet("ccm-encrypt", 0, rng.randbytes(13), rng.randbytes(5), rng.randbytes(21), 8))
    exps = [expect_on(b, p, key) for p in pkts]
    refused = sum(e.err == ERR_OP for e in exps)
    assert refused == (0 if b.decrypt else 2 * len(DECRYPT_OPS))
    await run_packets(drv, pkts, exps)
    dut._log.info("decrypt ops: %d packets, %d refused (build decrypts: %s)", len(pkts), refused, b.decrypt)


# ---------------------------------------------------------------------------- security tests
@cocotb.test()
async def test_unusable_slots(dut):
    """Every op on a never-loaded slot, a slot loaded with an illegal length, a slot whose
    key is larger than NR_MAX allows (or, with NR_MAX = 14, a zeroized slot) and an
    out-of-range slot number: status KEY, no output beat, the data drained; the good
    packet after each one is right."""
    b = build_of(dut)
    rng = rng_for("test_unusable_slots")
    drv = EngineDriver(dut)
    await drv.start()
    good_key = rng.randbytes(16)
    await drv.load_key(0, good_key)
    await drv.load_key(1, rng.randbytes(20))                      # illegal length
    big = rng.randbytes(32) if b.nr_max < 14 else rng.randbytes(24)
    await drv.load_key(3, big)                                    # > NR_MAX when NR_MAX < 14
    bad_slots = [1, 2] + ([3] if b.nr_max < 14 else [])
    pkts, exps = [], []
    good = op_packets(rng, 0, good_key)
    for s in bad_slots + [7]:
        for k, p in enumerate(op_packets(rng, s if s < 4 else 0, good_key)):
            if s == 7:
                p.slot = 200     # out of range for SLOT_W = 2
            pkts += [p, good[k % len(good)]]
            exps += [Result(ERR_KEY, bytes(16), None), expect(good[k % len(good)], good_key)]
    await run_packets(drv, pkts, exps)
    # zeroize, reload slot 0 only: slots 1..3 are now "zeroized"
    await drv.load_key(2, rng.randbytes(16))
    await pulse_zeroize(dut)
    await ClockCycles(dut.clk, 300)
    good_key = rng.randbytes(b.nr_max_bytes)
    await drv.load_key(0, good_key)
    good = op_packets(rng, 0, good_key)
    pkts, exps = [], []
    for s in (1, 2, 3):
        for k, p in enumerate(op_packets(rng, s, good_key)):
            pkts += [p, good[k]]
            exps += [Result(ERR_KEY, bytes(16), None), expect(good[k], good_key)]
    await run_packets(drv, pkts, exps)


@cocotb.test()
async def test_rekey_slot_in_use(dut):
    """A key load into the slot of a long packet in flight: the packet completes with the
    old key and the packet after the load uses the new key; a load into another slot goes
    ahead meanwhile. aes_mode_engine: the load waits until the packet has finished.
    aes_mode_multi (double-buffered slots): the load is taken at once, into the slot's
    other bank, while the packet goes on with the old key (docs/mode_engine.md)."""
    b = build_of(dut)
    rng = rng_for("test_rekey_slot_in_use")
    drv = EngineDriver(dut)
    await drv.start()
    ev = Events()
    cocotb.start_soon(monitor(drv, ev))
    old, new, other = rng.randbytes(16), rng.randbytes(32 if b.nr_max == 14 else 16), rng.randbytes(16)
    await drv.load_key(0, old)
    await drv.load_key(1, rng.randbytes(16))
    for trial in range(3):
        drv.set_gaps(rng, 0.3 * trial, 0.3 * trial)
        long_p = Packet("ccm-encrypt", 0, rng.randbytes(13), rng.randbytes(16), rng.randbytes(1500), 16)
        next_p = Packet("cbc-encrypt", 0, rng.randbytes(16), b"", rng.randbytes(64))
        side_p = Packet("ctr", 1, rng.randbytes(16), b"", rng.randbytes(40))
        n_cmd = len(ev.cmd)
        await drv.submit(long_p)
        # the packet is in flight once its command beat is accepted (with input gaps the
        # source may hold it back for a while): only then start the competing load
        while len(ev.cmd) == n_cmd:
            await RisingEdge(dut.clk)
        await ClockCycles(dut.clk, rng.randint(5, 60))
        n_sts = len(ev.sts)
        kick = drv.cycle
        k1 = cocotb.start_soon(load_key(dut, 0, new, wait_done=False))
        await ClockCycles(dut.clk, 2)
        e_long = expect(long_p, old)
        err, tag = await with_timeout(drv.status(), 10_000_000, "ns")
        assert (err, tag) == (e_long.err, e_long.tag), "the packet in flight did not finish with the old key"
        data, _ = await drv.output()
        assert data == e_long.data
        await k1
        key_c = [c for c, s, _ in ev.keys if s == 0][-1]
        if b.multi:
            # taken within a few clocks of key_valid rising, while the packet still ran
            assert key_c <= kick + 4, f"the slot-0 load waited ({key_c - kick} clocks)"
            assert len(ev.sts) == n_sts or ev.sts[n_sts] > key_c, "the packet had finished before the load"
        else:
            assert key_c > ev.cmd[-1] + 60, "the slot-0 load did not wait for its packet"
        # slot 1 meanwhile: a load and a packet while slot 0 waits
        await load_key(dut, 1, other)
        await drv.submit(side_p)
        await drv.submit(next_p)
        e = expect(side_p, other)
        assert await with_timeout(drv.status(), 10_000_000, "ns") == (e.err, e.tag)
        assert (await drv.output())[0] == e.data
        e = expect(next_p, new)
        assert await with_timeout(drv.status(), 10_000_000, "ns") == (e.err, e.tag), "the next packet did not use the new key"
        assert (await drv.output())[0] == e.data
        old, new = new, rng.randbytes(16)
    drv.set_gaps(rng, 0.0, 0.0)


def lanes(dut, b: Build) -> list:
    if b.multi:
        return [dut.g_lane[i].u_lane for i in range(b.lanes)]
    return [dut.u_lane]


def regs_nonzero(dut, b: Build) -> list[str]:
    """Names of lane / core registers that still hold a nonzero value."""
    bad = []
    names = ["chain_value", "keystream", "tag_keystream", "counter", "prev_block", "aad_carry_reg", "received_tag",
             "flight_beat", "held_data", "m_axis_sts_tdata"]
    for ln in lanes(dut, b):
        for nm in names:
            if int(getattr(ln, nm).value) != 0:
                bad.append(f"{ln._path}.{nm}")
        if int(ln.u_buf.m_data.value) != 0:
            bad.append(f"{ln._path}.u_buf.m_data")
    for i in range(b.lanes):
        for nm in ("a_cap_d", "b_cap_d"):
            if int(getattr(dut.g_lane[i], nm).value) != 0:
                bad.append(f"g_lane[{i}].{nm}")
    regs = {"iter128": ["st", "out_data"],
            "iter32": ["in_block", "row0", "row1", "row2", "row3", "window", "computed_word", "out_data"],
            "pipe": []}[b.core]
    for ac in engine_cores(dut):
        c = getattr(ac, f"g_{b.core}").u_core
        if b.core == "iter128" and hasattr(c, "g_rs2"):
            # aes_iter128 ROUND_STAGES = 2 (CORES = 1): S, M, their round key, both output
            # entries
            c, regs = c.g_rs2, ["st_s", "st_m", "rk_m", "o0_d", "o1_d"]
        elif b.core == "iter128":
            c = c.g_rs1            # aes_iter128 ROUND_STAGES = 1
        for nm in regs:
            if int(getattr(c, nm).value) != 0:
                bad.append(f"{c._path}.{nm}")
        if b.core == "pipe":
            bad += pipe_regs_nonzero(c, b.nr_max)
    if hasattr(dut, "g_one"):
        sh = dut.g_one.u_ab        # aes_core_share's result FIFOs: zero once taken
        for nm in ("a_mem", "b_mem"):
            for i in range(int(sh.DEPTH.value)):
                if int(getattr(sh, nm)[i].value) != 0:
                    bad.append(f"{sh._path}.{nm}[{i}]")
    return bad


def pipe_regs_nonzero(c, nr_max: int) -> list[str]:
    """aes_pipe (ROUND_REGS = 1, the engines' build): the stage registers, round-key
    registers and the output buffer's skid and head registers (S, R: zero while empty)
    that still hold a nonzero value."""
    regs = [(c.g_st[0].u_stage.g_ark0.ark_data, "g_st[0].ark_data"),
            (c.u_obuf.s_data, "u_obuf.s_data"), (c.u_obuf.r_data, "u_obuf.r_data")]
    for j in range(1, nr_max + 1):
        rnd = c.g_st[j].u_stage.g_round
        regs.append((rnd.rk_q, f"g_st[{j}].rk_q"))
        if j < nr_max:
            regs.append((rnd.g_reg.ark_data, f"g_st[{j}].ark_data"))
    return [f"{c._path}.{name}" for h, name in regs if int(h.value) != 0]


@cocotb.test()
async def test_no_state_left(dut):
    """After every op's packet the lanes' datapath registers (chaining value, keystream,
    counter, tag, staging, status, buffer output register, capture registers), the
    iterative cores' state and output registers and every aes_pipe stage and round-key
    register and output-buffer skid/head register read zero; after a zeroize in the middle of a packet the same holds, and
    every buffer and FIFO entry (aes_pipe's output buffer RAM too) reads zero."""
    b = build_of(dut)
    rng = rng_for("test_no_state_left")
    drv = EngineDriver(dut)
    await drv.start()
    key = rng.randbytes(32 if b.nr_max == 14 else 16)
    await drv.load_key(0, key)
    for p in op_packets(rng, 0, key):
        await run_packets(drv, [p], [expect(p, key)])
        await ClockCycles(dut.clk, 5)
        bad = regs_nonzero(dut, b)
        assert not bad, f"after {p.op}: registers not cleared: {bad}"
    # zeroize in the middle of long packets
    drv.set_gaps(rng, 0.0, 0.5)
    for p in [Packet("ccm-encrypt", 0, rng.randbytes(13), rng.randbytes(30), rng.randbytes(900), 8),
              Packet("ctr", 0, rng.randbytes(16), b"", rng.randbytes(900))]:
        await drv.submit(p)
    await ClockCycles(dut.clk, 120)
    await pulse_zeroize(dut)
    err, _ = await with_timeout(drv.status(), 10_000_000, "ns")
    assert err == ERR_ZEROIZED, f"the packet in flight ended with status {err}, not ZEROIZED"
    err, _ = await with_timeout(drv.status(), 10_000_000, "ns")
    assert err in (ERR_ZEROIZED, ERR_KEY), f"the second packet ended with status {err}"   # KEY: accepted after
    drv.set_gaps(rng, 0.0, 0.0)
    await ClockCycles(dut.clk, 300)
    while not drv.out.empty():
        data, flag = await drv.output()
        assert flag == 1 and data[-1:] == b"\0", "a zeroized packet's frame was not closed by a terminator"
    bad = regs_nonzero(dut, b)
    for ln in lanes(dut, b):
        for i in range(2 ** len(ln.u_buf.wipe_addr)):
            if int(ln.u_buf.mem[i].value) & ((1 << 128) - 1) != 0:   # tdata (framing bits may remain)
                bad.append(f"{ln._path}.u_buf.mem[{i}]")
                break
    for i in range(b.lanes):
        f = dut.g_lane[i].u_in
        for k in range(2 ** len(f.wipe_addr)):
            if int(f.mem[k].value) != 0:
                bad.append(f"g_lane[{i}].u_in.mem[{k}]")
                break
    if b.core == "pipe":
        for ac in engine_cores(dut):
            bad += obuf_ram_nonzero(ac.g_pipe.u_core.u_obuf)
    assert not bad, f"after zeroize: not cleared: {bad}"
    # and the engine works again after a reload
    key = rng.randbytes(16)
    await drv.load_key(0, key)
    for p in op_packets(rng, 0, key):
        await run_packets(drv, [p], [expect(p, key)])


@cocotb.test()
async def test_soak(dut):
    """Randomized packets of every op, key size and slot (including unusable slots) with
    tampered decryptions, random gaps and backpressure on every stream, zeroize at random
    cycles and key loads into random slots (also slots in use) at random times. Every
    packet either completes exactly as the reference says for the key in force when its
    command was accepted, or (only with a zeroize between its command and its status)
    fails with ZEROIZED and releases at most a flagged prefix of its real output."""
    b = build_of(dut)
    total = int(os.environ.get("AESIP_SOAK_PACKETS", "300"))
    rng = rng_for("test_soak")
    drv = EngineDriver(dut)
    await drv.start()
    t = await soak(drv, b.checker(), rng, total)
    print(f"SOAK packets={t.packets} wrong={t.wrong} lost={t.lost} duplicated={t.duplicated} "
          f"hangs={t.hangs} zeroized={t.zeroized}")
    assert t.packets == total and t.wrong == 0 and t.lost == 0 and t.duplicated == 0 and t.hangs == 0, \
        "; ".join(t.problems)
    assert t.zeroized > 0 or total < 100, "the soak never hit a packet with zeroize"


# ------------------------------------------------------------------------ pytest entry
FUNCTIONAL = ["test_ccm_cavp", "test_sp800_38a", "test_ctr_carries", "test_random", "test_bad_input", "test_ccm_star",
              "test_profile_1609", "test_no_output_mix"]
SECURITY = ["test_unusable_slots", "test_rekey_slot_in_use", "test_no_state_left", "test_soak"]
# the encrypt-only build (DIRECTION_B = 0): the functional tests without ECB/CBC decryption
# vectors (test_sp800_38a, test_bad_input use them), and the refusal of those ops
ENC_ONLY = ["test_ccm_cavp", "test_ctr_carries", "test_random", "test_ccm_star", "test_profile_1609",
            "test_no_output_mix", "test_decrypt_ops"]


def soak_packets(short: int, long: int) -> dict:
    """test_soak's size: `short` in make test, `long` with AESIP_SOAK=1 (make soak)."""
    soak_run = os.environ.get("AESIP_SOAK", "") not in ("", "0")
    return {"AESIP_SOAK_PACKETS": str(long if soak_run else short)}


def case(group: str, simulator: str, parameters: dict, tests: list[str], env: dict):
    """One pytest case: a build (simulator, parameters), the cocotb tests run on it in one
    simulation and their environment (test sizes). The id names the test group and the
    build, e.g. 'security-verilator-CORE=pipe-NR_MAX=10'."""
    return pytest.param(simulator, parameters, tests, env, id=f"{group}-{sim.case_id(simulator, parameters)}")


# The modules whose signals the tests read below the top (lanes, buffers) and, of the
# cores, the registers of the zeroize and register checks ("module:variable"); the rest of
# the cores, the S-boxes, MixColumns, key expanders and key slots stay private to
# Verilator, which makes the model smaller and quicker to build. A handle that is not
# public fails loudly (AttributeError), never silently.
MODE_PUBLIC = ("aes_mode_engine", "aes_mode_multi", "aes_mode_lane", "axis_commit_fifo", "aes_core", "pipe_obuf",
               "aes_core_share",
               *(f"aes_iter128:{v}" for v in ("st", "out_data", "st_s", "st_m", "rk_m", "o0_d", "o1_d")),
               *(f"aes_iter32:{v}" for v in ("in_block", "row0", "row1", "row2", "row3", "window",
                                             "computed_word", "out_data")),
               "aes_pipe_stage:rk_q", "aes_pipe_stage:ark_data")


def run_mode_engine(top: str, module: str, simulator: str, parameters: dict, tests: list[str],
                    env: dict) -> None:
    """pytest side: build `top` (aes_mode_engine or aes_mode_multi) on the block core
    parameters["CORE"] and run the cocotb `tests` of `module` in one simulation."""
    sim.require(simulator)
    sources = rtl.multi_sources if top == rtl.MULTI_TOP else rtl.mode_engine_sources
    sim.run_and_check(
        toplevel=top,
        sources=sources(parameters["CORE"]),
        test_module=module,
        testcase=tests,
        sim=simulator,
        parameters=parameters,
        extra_env=env,
        seed=run_seed(),
        quiet=True,
        internals=MODE_PUBLIC,
    )


# The functional tests on every block core and both simulators (every CAVP CCM record on
# Verilator with aes_iter128, every 5th on the other Verilator builds, every 15th on
# Icarus; composite S-boxes with aes_iter32);
# the security tests and the short soak on every block core and both simulators, with
# NR_MAX = 10 builds (keys larger than the engine supports) on aes_pipe and on Icarus.
# Every case has its own build directory (sim.build_dir_for hashes the parameters), so
# no two xdist workers share one. The soak counts of `make soak` are the second numbers.
CASES = [
    case("functional", "verilator", {"CORE": "iter128"}, FUNCTIONAL, {"AESIP_CAVP": "all", "AESIP_NRAND": "300"}),
    case("functional", "icarus", {"CORE": "iter128"}, FUNCTIONAL, {"AESIP_CAVP": "15", "AESIP_NRAND": "40"}),
    case("functional", "verilator", {"CORE": "iter32", "SBOX_IMPL": 1}, FUNCTIONAL,
         {"AESIP_CAVP": "some", "AESIP_NRAND": "80"}),
    case("functional", "verilator", {"CORE": "pipe"}, FUNCTIONAL, {"AESIP_CAVP": "some", "AESIP_NRAND": "150"}),
    case("enc-only", "verilator", {"CORE": "iter128", "DIRECTION_B": 0}, ENC_ONLY,
         {"AESIP_CAVP": "some", "AESIP_NRAND": "150"}),
    case("enc-only", "icarus", {"CORE": "iter128", "DIRECTION_B": 0}, ENC_ONLY, {"AESIP_CAVP": "some", "AESIP_NRAND": "30"}),
    # two rounds per clock in both cores (aes_iter128 ROUNDS_PER_CLK = 2): the functional
    # tests with core B in both directions, the encrypt-only build of synthesis variant
    # ccm-iter128 enc-r2 on Icarus, and the security tests
    case("functional", "verilator", {"CORE": "iter128", "ROUNDS_PER_CLK": 2}, FUNCTIONAL,
         {"AESIP_CAVP": "some", "AESIP_NRAND": "150"}),
    case("enc-only", "icarus", {"CORE": "iter128", "DIRECTION_B": 0, "ROUNDS_PER_CLK": 2}, ENC_ONLY,
         {"AESIP_CAVP": "some", "AESIP_NRAND": "30"}),
    case("security", "verilator", {"CORE": "iter128", "ROUNDS_PER_CLK": 2}, SECURITY, soak_packets(150, 20_000)),
    # one two-stage aes_iter128 shared by both roles (CORES = 1, ROUND_STAGES = 2): the
    # functional tests with both directions, the encrypt-only build on Icarus, and the
    # security tests
    case("functional", "verilator", {"CORE": "iter128", "CORES": 1, "ROUND_STAGES": 2}, FUNCTIONAL,
         {"AESIP_CAVP": "some", "AESIP_NRAND": "150"}),
    case("enc-only", "icarus", {"CORE": "iter128", "CORES": 1, "ROUND_STAGES": 2, "DIRECTION_B": 0}, ENC_ONLY,
         {"AESIP_CAVP": "some", "AESIP_NRAND": "30"}),
    case("security", "verilator", {"CORE": "iter128", "CORES": 1, "ROUND_STAGES": 2}, SECURITY,
         soak_packets(150, 20_000)),
    case("security", "verilator", {"CORE": "iter128", "NR_MAX": 14}, SECURITY, soak_packets(300, 100_000)),
    case("security", "verilator", {"CORE": "pipe", "NR_MAX": 10}, SECURITY, soak_packets(300, 20_000)),
    case("security", "verilator", {"CORE": "iter32", "NR_MAX": 14}, SECURITY, soak_packets(60, 1_000)),
    case("security", "icarus", {"CORE": "iter128", "NR_MAX": 10}, SECURITY, soak_packets(60, 10_000)),
]


@pytest.mark.parametrize("simulator,parameters,tests,env", CASES)
def test_aes_mode_engine(simulator, parameters, tests, env):
    run_mode_engine(rtl.MODE_ENGINE_TOP, __name__, simulator, parameters, tests, env)
