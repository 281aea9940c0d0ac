# SPDX-License-Identifier: Apache-2.0
"""chan_engine (docs/channels.md): many channels interleaved beat by beat on one
pipelined core, AES (aes_pipe) and TDEA (tdea_pipe). The cocotb tests and the pytest
entry that builds the engine (through tb/modes/tb_chan_engine.v) per core and simulator.

Tests
  test_random   random packets (every op of the core's family, random lengths, keys of
                every legal size in the slots) on all channels, beats interleaved at
                random, with random input gaps and output/status backpressure; every
                channel's data and statuses checked in order against `cryptography`
  test_cavp     NIST CAVP records as packets, spread over the channels: AES CBC KAT/MMT
                and ECB MMT; TDEA TCBC/TECB MMT (keying options 1-3)
  test_bad      refused commands (unknown op, reserved bits, AAD, lengths that are not
                whole blocks, unloaded slot, illegal key length), early and missing
                tlast, each between good packets of the same channel
  test_zeroize  a zeroize in the middle of traffic: every channel's results are the
                correct prefix, then zero beats flagged in tuser, statuses ZEROIZED (or
                KEY after it); the keys are gone, and traffic after a reload is right
  test_rekey    a key load on a slot in use waits for its packets; the next packet uses
                the new key
  test_limits   (builds with NR_MAX < 14 or DIRECTION 0, e.g. the encrypt-only AES-128
                core) ops that need the inverse cipher (ECB/CBC decryption: OP) and keys
                longer than NR_MAX allows (KEY) between good packets of the same channel:
                no output for a refused packet, the next one right; then a refused slot
                reloaded with a key that fits serves packets again
  test_tdea_mct (TDEA) the Monte Carlo CBC-encryption test in the form of the NIST TMOVS:
                10 000 chained blocks per outer iteration, each plaintext the ciphertext
                two blocks back (one packet on one channel, fed as the results come
                back), keys and IV updated from the last three ciphertexts between outer
                iterations; every outer result against the same loop run on `cryptography`
Expected values come only from aesip.ref (`cryptography`) and the CAVP files.
Environment: AESIP_NRAND random packets in test_random (default 300); AESIP_MCT_OUTER
outer iterations of test_tdea_mct (default 2; the full test has 400: make soak).
"""
from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.triggers import ClockCycles, RisingEdge

from cocotbext.axi import AxiStreamFrame

from aesip import iface, ref, rtl, sim, vectors
from aesip.tb.chandrv import INVERSE_OPS, ChanDriver, ChanPacket
from aesip.tb.seed import run_seed, test_rng

AES_OPS = ["ecb-encrypt", "ecb-decrypt", "cbc-encrypt", "cbc-decrypt", "ctr", "cbc-mac"]
TDEA_OPS = list(iface.TDEA_OPS)


def ops(drv: ChanDriver) -> list[str]:
    return TDEA_OPS if drv.tdea else AES_OPS


def random_key(rng: random.Random, tdea: bool, nr_max: int = 14) -> bytes:
    """A random key of a length the build can use (AES: Nr <= NR_MAX)."""
    if tdea:
        k = rng.randbytes(16 if rng.random() < 0.3 else 24)
    else:
        k = rng.randbytes(rng.choice([n for n, nr in ref.ROUNDS.items() if nr <= nr_max]))
    return k


def random_packet(rng: random.Random, drv: ChanDriver, ch: int, slots: list[int], max_blocks: int = 12,
                  op: str | None = None) -> ChanPacket:
    op = op or rng.choice(ops(drv))
    bb = drv.bb
    n = rng.choice([0, 1, 2] + [rng.randrange(1, max_blocks + 1)] * 4)
    ln = n * bb
    if op == "ctr" and n and rng.random() < 0.5:
        ln -= rng.randrange(1, bb)
    iv = rng.randbytes(bb)
    if op == "ctr" and rng.random() < 0.2:
        # counters whose increments carry into bit 32, 64 or 96 or wrap at 2**128 within the
        # packet (so a 128-bit increment built from chunks would be checked at every joint)
        low = rng.choice([4, 8, 12, 16])
        iv = rng.randbytes(16 - low) + b"\xff" * (low - 1) + bytes([rng.randrange(0xf4, 0x100)])
    return ChanPacket(ch=ch, op=op, slot=rng.choice(slots), iv=iv.ljust(16, b"\0"), data=rng.randbytes(ln))


async def load_keys(drv: ChanDriver, rng: random.Random) -> dict:
    keys = {}
    for s in range(2 ** drv.slot_w):
        keys[s] = random_key(rng, drv.tdea, drv.nr_max)
        await drv.load_key(s, keys[s])
    return keys


async def run_batch(drv: ChanDriver, pkts: list[ChanPacket], keys: dict, rng: random.Random | None) -> int:
    drv.send(drv.schedule(pkts, rng))
    await drv.wait_results(drv.n_sts + len(pkts))
    await drv.wait_idle(quiet=50)
    beats, stss = drv.take()
    return drv.check(pkts, keys, beats, stss)


@cocotb.test()
async def test_random(dut):
    rng = test_rng()
    drv = ChanDriver(dut)
    await drv.start()
    keys = await load_keys(drv, rng)
    nch = 2 ** drv.ch_w
    n = int(os.environ.get("AESIP_NRAND", "300"))
    done = 0
    for trial, (p_gap, p_bp) in enumerate([(0.0, 0.0), (0.3, 0.0), (0.0, 0.4), (0.5, 0.5)]):
        drv.set_gaps(rng, p_gap, p_bp)
        pkts = [random_packet(rng, drv, rng.randrange(nch), list(keys)) for _ in range(n // 4)]
        done += await run_batch(drv, pkts, keys, rng)
        dut._log.info("trial %d (gaps %.1f, backpressure %.1f): %d packets right", trial, p_gap, p_bp, len(pkts))
    drv.set_gaps(rng)
    assert done >= n // 4 * 4


def cavp_records(tdea: bool, nr_max: int = 14, inverse: bool = True) -> list[dict]:
    """The CAVP records as packets for the build: AES records with keys longer than NR_MAX
    allows, or decryption on an encrypt-only core, are left out (test_limits covers them)."""
    if tdea:
        recs = []
        for mode in ("CBC", "ECB"):
            for r in vectors.tdes_records(mode, kinds=("MMT1", "MMT2", "MMT3")):
                recs.append(dict(r, mode=mode))
        return recs
    recs = []
    for r in vectors.aes_cbc_records(kinds=("MMT", "GFSbox", "VarKey")):
        recs.append(dict(r, mode="CBC"))
    for r in vectors.aes_ecb_records(kinds=("MMT",)):
        recs.append(dict(r, mode="ECB", iv=b""))
    return [r for r in recs if ref.ROUNDS[len(r["key"])] <= nr_max and (inverse or not r["dec"])]


@cocotb.test()
async def test_cavp(dut):
    drv = ChanDriver(dut)
    await drv.start()
    recs = cavp_records(drv.tdea, drv.nr_max, drv.inverse)
    assert recs, "no CAVP record fits this build"
    nslot = 2 ** drv.slot_w
    nch = 2 ** drv.ch_w
    pfx = "tdea-" if drv.tdea else ""
    done = 0
    for i in range(0, len(recs), nslot):
        batch = recs[i:i + nslot]
        keys = {}
        pkts = []
        for s, r in enumerate(batch):
            key = r["key"]
            if drv.tdea and r["opt"] == 2:
                key = key[:16]                  # keying option 2: K1, K2 (K3 = K1)
            keys[s] = key
            await drv.load_key(s, key)
            op = pfx + ("cbc-" if r["mode"] == "CBC" else "ecb-") + ("decrypt" if r["dec"] else "encrypt")
            data = r["ct"] if r["dec"] else r["pt"]
            pkts.append(ChanPacket(ch=(i + s) % nch, op=op, slot=s, iv=r["iv"].ljust(16, b"\0"), data=data))
        # the record's own expected output, then the reference model's full expectation
        drv.send(drv.schedule(pkts))
        await drv.wait_results(drv.n_sts + len(pkts))
        await drv.wait_idle(quiet=20)
        beats, stss = drv.take()
        for p, r in zip(pkts, batch):
            want = r["pt"] if r["dec"] else r["ct"]
            got = b"".join(b[0] for b in beats[p.ch])
            assert got == want, f"{r['name']}: {got.hex()} != {want.hex()}"
            beats[p.ch] = []
        done += len(batch)
    dut._log.info("%d CAVP records right", done)
    assert done == len(recs)


@cocotb.test()
async def test_bad(dut):
    rng = test_rng()
    drv = ChanDriver(dut)
    await drv.start()
    tdea = drv.tdea
    bb = drv.bb
    nslot = 2 ** drv.slot_w
    keys = {}
    for s in range(nslot - 2):
        keys[s] = random_key(rng, tdea, drv.nr_max)
        await drv.load_key(s, keys[s])
    # slot nslot-2: an illegal length (unusable); slot nslot-1: never loaded
    await drv.load_key(nslot - 2, bytes(16), key_bytes=20)
    keys[nslot - 2] = None
    good_op = "tdea-cbc-encrypt" if tdea else "cbc-encrypt"
    reserved_op = 12 if tdea else 6      # CCM is not a channel op
    nch = 2 ** drv.ch_w
    pkts = []
    for i in range(40):
        ch = rng.randrange(nch)
        kind = rng.choice(["op", "rsvd", "ccm", "aad", "len", "nokey", "badkey", "early", "late", "empty",
                           "tag_beat"])
        p = random_packet(rng, drv, ch, list(range(nslot - 2)), 6)
        p.op = good_op
        if not p.data:
            p.data = rng.randbytes(3 * bb)
        if kind == "op":
            p.raw_op = 15
        elif kind == "rsvd":
            p.raw_op = reserved_op
        elif kind == "ccm":
            p.raw_op = iface.ALL_OPS["ccm-encrypt"]
        elif kind == "aad":
            p.aad_len = bb
            p.nbeats = len(p.data) // bb + 1      # the AAD beat is data too: dropped to tlast
        elif kind == "len":
            p.data = p.data[:-1]
        elif kind == "nokey":
            p.slot = nslot - 1
        elif kind == "badkey":
            p.slot = nslot - 2
        elif kind == "early":
            # tlast one beat or more before the length: at least one beat is sent, so a
            # packet of one beat by its length gets one more block (was: a length under one
            # block gave nbeats -1, no beat at all, and the batch waited forever)
            p.nbeats = max(len(p.data) // bb - 1, 1)
            if p.nbeats >= -(-len(p.data) // bb):
                p.data += rng.randbytes(bb)
        elif kind == "late":
            p.nbeats = len(p.data) // bb + rng.randrange(1, 3)
        elif kind == "empty":
            p.data = b""
        elif kind == "tag_beat":
            p.tag_beat = True                     # CCM decryption only: OP, its beats dropped
            if rng.random() < 0.5:
                p.data = b""                      # ... also its one tag beat
        pkts.append(p)
        pkts.append(random_packet(rng, drv, ch, list(range(nslot - 2)), 6))   # must come out right
    drv.set_gaps(rng, 0.2, 0.2)
    n = await run_batch(drv, pkts, keys, rng)
    dut._log.info("%d packets (half of them bad) right", n)


@cocotb.test()
async def test_zeroize(dut):
    rng = test_rng()
    drv = ChanDriver(dut)
    await drv.start()
    keys = await load_keys(drv, rng)
    nch = 2 ** drv.ch_w
    pkts = [random_packet(rng, drv, rng.randrange(nch), list(keys), 20) for _ in range(60)]
    drv.set_gaps(rng, 0.1, 0.1)
    drv.send(drv.schedule(pkts, rng))
    await ClockCycles(dut.clk, rng.randrange(60, 400))
    await drv.zeroize()
    await drv.wait_idle(quiet=300)
    beats, stss = drv.take()
    zeroized = 0
    by_ch: dict[int, list[ChanPacket]] = {}
    for p in pkts:
        by_ch.setdefault(p.ch, []).append(p)
    for ch, ps in by_ch.items():
        got_s = stss.get(ch, [])
        got_b = beats.get(ch, [])
        assert len(got_s) == len(ps), f"channel {ch}: {len(got_s)} statuses for {len(ps)} packets"
        pos = 0
        tail_exp: list = []
        for i, (p, (err, val)) in enumerate(zip(ps, got_s)):
            e = drv.expect(p, keys)
            if err == iface.ERR_OK:
                assert not tail_exp, f"channel {ch} packet {i}: OK after an aborted packet"
                assert (err, val) == (e.err, e.value), f"channel {ch} packet {i}: status"
                for j, (d, k, f) in enumerate(e.beats):
                    assert got_b[pos][:3] == (d, k, f), f"channel {ch} packet {i} beat {j}"
                    pos += 1
            elif err == iface.ERR_ZEROIZED:
                zeroized += 1
                tail_exp += e.beats
            else:
                # refused after the zeroize: the slots are empty; or refused anyway
                assert err == iface.ERR_KEY or err == e.err, f"channel {ch} packet {i}: {iface.error_name(err)}"
        rest = got_b[pos:]
        assert len(rest) <= len(tail_exp), f"channel {ch}: {len(rest)} beats of aborted packets, at most {len(tail_exp)}"
        flagged = False
        for j, b in enumerate(rest):
            if b[2]:
                flagged = True
                assert b[0] == bytes(drv.bb), f"channel {ch}: aborted beat {j} carries data"
            else:
                assert not flagged, f"channel {ch}: a clean beat after an aborted one"
                assert b[:3] == tail_exp[j], f"channel {ch}: beat {j} of an aborted packet before the zeroize is wrong"
    dut._log.info("%d packets zeroized", zeroized)
    # the keys are gone: a packet on every slot is refused with KEY
    drv.set_gaps(rng)
    probe = [ChanPacket(ch=s % nch, op=ops(drv)[0], slot=s, data=rng.randbytes(drv.bb)) for s in keys]
    drv.send(drv.schedule(probe))
    await drv.wait_results(drv.n_sts + len(probe))
    await drv.wait_idle(quiet=20)
    beats, stss = drv.take()
    drv.check(probe, {}, beats, stss)
    # reload: right again
    keys = await load_keys(drv, rng)
    pkts = [random_packet(rng, drv, rng.randrange(nch), list(keys)) for _ in range(40)]
    await run_batch(drv, pkts, keys, rng)


@cocotb.test()
async def test_rekey(dut):
    rng = test_rng()
    drv = ChanDriver(dut)
    await drv.start()
    keys = await load_keys(drv, rng)
    nch = 2 ** drv.ch_w
    op = "tdea-cbc-encrypt" if drv.tdea else "cbc-encrypt"
    long = ChanPacket(ch=0, op=op, slot=0, iv=rng.randbytes(16), data=rng.randbytes(40 * drv.bb))
    ev = drv.schedule([long])
    drv.send(ev[:10])                       # the command and 9 beats: the packet is open
    while int(dut.s_axis_cmd_tready.value) == 0 or not drv.cmd.empty():
        await RisingEdge(dut.clk)
    await ClockCycles(dut.clk, 5)
    new = random_key(rng, drv.tdea, drv.nr_max)
    loader = cocotb.start_soon(drv.load_key(0, new))
    await ClockCycles(dut.clk, 50)
    assert not loader.done(), "a key load went into a slot whose packet is open"
    drv.send(ev[10:])
    await drv.wait_results(drv.n_sts + 1)
    await loader
    beats, stss = drv.take()
    drv.check([long], keys, beats, stss)
    keys[0] = new
    after = [ChanPacket(ch=c % nch, op=op, slot=0, iv=rng.randbytes(16), data=rng.randbytes(3 * drv.bb))
             for c in range(4)]
    await run_batch(drv, after, keys, rng)


@cocotb.test()
async def test_limits(dut):
    rng = test_rng()
    drv = ChanDriver(dut)
    assert not drv.tdea and (drv.nr_max < 14 or not drv.inverse), \
        "test_limits runs on AES builds with NR_MAX < 14 or DIRECTION 0"
    await drv.start()
    nslot = 2 ** drv.slot_w
    nch = 2 ** drv.ch_w
    # every key length the engine takes on its port; those beyond NR_MAX load (the
    # handshake completes) but leave the slot unusable
    sizes = sorted(ref.ROUNDS)
    keys = {}
    for s in range(nslot):
        keys[s] = rng.randbytes(sizes[s % len(sizes)])
        await drv.load_key(s, keys[s])
    good_slots = [s for s, k in keys.items() if ref.ROUNDS[len(k)] <= drv.nr_max]
    long_slots = [s for s in keys if s not in good_slots]
    inv_ops = [k for k, v in iface.OPS.items() if v in INVERSE_OPS]
    fwd_ops = [op for op in AES_OPS if op not in inv_ops]
    assert good_slots and (long_slots or not drv.inverse), f"keys {[len(k) for k in keys.values()]}"
    kinds = (["inverse"] if not drv.inverse else []) + (["longkey"] if long_slots else [])
    pkts = []
    n_bad = {k: 0 for k in kinds}
    for _ in range(60):
        ch = rng.randrange(nch)
        kind = rng.choice(kinds)
        if kind == "inverse":
            bad = random_packet(rng, drv, ch, good_slots, 6, rng.choice(inv_ops))
            if long_slots and rng.random() < 0.3:
                bad.slot = rng.choice(long_slots)     # OP before KEY
        else:
            bad = random_packet(rng, drv, ch, long_slots, 6, rng.choice(fwd_ops if not drv.inverse else AES_OPS))
        if not bad.data and rng.random() < 0.8:
            bad.data = rng.randbytes(rng.randrange(1, 5) * drv.bb)   # beats to drop
        e = drv.expect(bad, keys)
        assert e.err in (iface.ERR_OP, iface.ERR_KEY) and not e.beats, (kind, e)
        n_bad[kind] += 1
        good = random_packet(rng, drv, ch, good_slots, 6, rng.choice(fwd_ops))
        if not good.data:
            good.data = rng.randbytes(2 * drv.bb)
        assert drv.expect(good, keys).err == iface.ERR_OK
        pkts += [bad, good]
    for p_gap, p_bp in ((0.0, 0.0), (0.3, 0.3)):
        drv.set_gaps(rng, p_gap, p_bp)
        await run_batch(drv, pkts, keys, rng)
    drv.set_gaps(rng)
    dut._log.info("refused and good packets right: %s refused each pass", n_bad)
    # a refused slot reloaded with a key that fits serves packets again
    for s in long_slots:
        keys[s] = random_key(rng, False, drv.nr_max)
        await drv.load_key(s, keys[s])
    after = [ChanPacket(ch=c % nch, op=rng.choice(fwd_ops), slot=s, iv=rng.randbytes(16),
                        data=rng.randbytes(3 * drv.bb))
             for c, s in enumerate(long_slots or good_slots)]
    await run_batch(drv, after, keys, rng)


def mct_reference(key: bytes, iv: bytes, pt: bytes, outer: int) -> list[bytes]:
    """The Monte Carlo loop on `cryptography` (aesip.ref): the last ciphertext of every
    outer iteration. Inner loop (TMOVS TCBC encryption): C[j] = E(P[j] xor C[j-1]), C[-1]
    = IV, P[0] = pt, P[1] = IV, P[j] = C[j-2] for j >= 2. Between outer iterations: K1 ^=
    C[9999], K2 ^= C[9998], K3 ^= C[9997] (DES ignores the parity bits, which are not
    adjusted), IV = C[9999], pt = C[9998]."""
    out = []
    for _ in range(outer):
        c = []
        prev = iv
        for j in range(10000):
            p = pt if j == 0 else iv if j == 1 else c[j - 2]
            prev = ref.tdea_ecb(key, bytes(a ^ b for a, b in zip(p, prev)), False)
            c.append(prev)
        out.append(c[-1])
        key = bytes(a ^ b for a, b in zip(key, c[-1] + c[-2] + c[-3]))
        iv, pt = c[-1], c[-2]
    return out


@cocotb.test()
async def test_tdea_mct(dut):
    drv = ChanDriver(dut)
    assert drv.tdea, "test_tdea_mct runs on CORE=tdea builds only"
    rng = test_rng()
    await drv.start()
    outer = int(os.environ.get("AESIP_MCT_OUTER", "2"))
    key, iv, pt = rng.randbytes(24), rng.randbytes(8), rng.randbytes(8)
    want = mct_reference(key, iv, pt, outer)
    ch = rng.randrange(2 ** drv.ch_w)
    for i in range(outer):
        await drv.load_key(0, key)
        pkt = ChanPacket(ch=ch, op="tdea-cbc-encrypt", slot=0, iv=iv.ljust(16, b"\0"), data=bytes(8 * 10000))
        drv.cmd.send_nowait(AxiStreamFrame(tdata=pkt.command(), tdest=ch))
        for j in range(10000):
            if j >= 2:
                t0 = drv.cycle
                while len(drv.beats_by_ch.get(ch, [])) < j - 1:
                    # a refused packet (e.g. LEN_W too small for 80 000 bytes) never answers
                    assert drv.cycle - t0 < 1000, f"outer iteration {i}: no result for block {j - 2}"
                    await RisingEdge(dut.clk)
            p = pt if j == 0 else iv if j == 1 else drv.beats_by_ch[ch][j - 2][0]
            drv.src.send_nowait(AxiStreamFrame(tdata=p, tdest=ch, tuser=int(j == 9999)))
        await drv.wait_results(drv.n_sts + 1)
        await drv.wait_idle(quiet=10)
        beats, stss = drv.take()
        c = [b[0] for b in beats[ch]]
        assert stss[ch] == [(iface.ERR_OK, c[-1].ljust(16, b"\0"))], stss[ch]
        assert c[-1] == want[i], f"outer iteration {i}: {c[-1].hex()} != {want[i].hex()}"
        key = bytes(a ^ b for a, b in zip(key, c[-1] + c[-2] + c[-3]))
        iv, pt = c[-1], c[-2]
    dut._log.info("Monte Carlo: %d outer iterations of 10000 blocks right", outer)


# --------------------------------------------------------------------------- pytest entry
CASES = [
    ("verilator", {"CORE": "aes", "CH_W": 4}, ["test_random", "test_cavp", "test_bad", "test_zeroize", "test_rekey"]),
    ("verilator", {"CORE": "aes", "CH_W": 7, "ROUND_REGS": 2, "SLOT_W": 1}, ["test_random", "test_zeroize"]),
    # the deep pipeline: 7 registers per round in composite-field S-boxes, 98 clocks deep
    ("verilator", {"CORE": "aes", "CH_W": 7, "ROUND_REGS": 7, "SBOX_IMPL": 1, "SLOT_W": 1}, ["test_random"]),
    ("icarus", {"CORE": "aes", "CH_W": 3}, ["test_random", "test_bad", "test_zeroize", "test_rekey"]),
    # the encrypt-only AES-128 core of `aesip synth --engine chan-aes --variant aes128-enc`
    # (aes_pipe NR_MAX 10, DIRECTION 0, ROUND_REGS 4): decryption refused with OP, 24/32-byte
    # keys with KEY
    ("verilator", {"CORE": "aes", "CH_W": 4, "NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 4},
     ["test_limits", "test_random", "test_cavp", "test_bad", "test_zeroize", "test_rekey"]),
    ("icarus", {"CORE": "aes", "CH_W": 3, "NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 4},
     ["test_limits", "test_random", "test_bad"]),
    # LEN_W 20: the Monte Carlo packet is 80 000 bytes
    ("verilator", {"CORE": "tdea", "CH_W": 4, "LEN_W": 20},
     ["test_random", "test_cavp", "test_bad", "test_zeroize", "test_rekey", "test_tdea_mct"]),
    ("icarus", {"CORE": "tdea", "CH_W": 2}, ["test_random", "test_bad", "test_zeroize"]),
]


@pytest.mark.parametrize("simulator,parameters,tests", CASES,
                         ids=[sim.case_id(s, p) for s, p, _ in CASES])
def test_chan_engine(simulator, parameters, tests):
    sim.require(simulator)
    env = {"AESIP_NRAND": "120" if simulator == "icarus" else "300",
           "AESIP_MCT_OUTER": os.environ.get("AESIP_MCT_OUTER", "2")}
    sim.run_and_check(
        toplevel=rtl.CHAN_TB_TOP,
        sources=rtl.chan_sources(tb=True),
        test_module=__name__,
        testcase=tests,
        sim=simulator,
        parameters=parameters,
        extra_env=env,
        seed=run_seed(),
        quiet=True,
        internals=False,   # the top module's own signals only (aesip/sim.py run())
    )
