# SPDX-License-Identifier: Apache-2.0
"""wimax_top (rtl/proto/wimax_top.v: the 802.16e front end wimax_fe on aes_mode_engine;
docs/wimax.md): its cocotb tests and the pytest entry that builds it.

The expected PDUs are built here from IEEE 802.16-2004 7.5.1.2 / 6.3.2.1: the generic MAC
header fields and its HCS (CRC-8, x^8 + x^2 + x + 1) by our own code, the payload by
`cryptography`'s AESCCM (nonce = header bytes 0..4 as transmitted || 4 zero bytes || PN,
PN least significant byte first, no AAD, M = 8, L = 2); nothing comes from the RTL.

Tests: randomized PDUs (payloads 0..2000 bytes, CI set and clear, every header field
random) encrypted and decrypted with gaps and backpressure; a bad-input campaign
(truncated, EC wrong, HCS wrong, HT set, LEN mismatch, LEN overflow, tkeep, reserved bits,
flipped ICV / ciphertext / PN bits, a slot without a key), each malformed PDU followed by
a good one that must come out right.

Environment: AESIP_NRAND random PDUs in test_random (default 40).
"""
from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cryptography.hazmat.primitives.ciphers.aead import AESCCM

from aesip import rtl, sim, wimax_iface
from aesip.tb.engdrv import ccm_step_clocks
from aesip.tb.seed import run_seed, test_rng
from aesip.tb.wimaxdrv import WimaxDriver

W = wimax_iface
ICV_LEN = 8
LEN_MAX = 2047


# ---------------------------------------------------------------------------- reference
def hcs(hdr5: bytes) -> int:
    """HCS (802.16-2004 6.3.2.1.1): CRC-8 with generator x^8 + x^2 + x + 1 over the first
    five header bytes, MSB first, initial value 0."""
    c = 0
    for b in hdr5:
        c ^= b
        for _ in range(8):
            c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
    return c


def gmh(*, length: int, ec: int = 0, ht: int = 0, typ: int = 0, esf: int = 0, ci: int = 0,
        eks: int = 0, rsv: int = 0, cid: int = 0) -> bytes:
    """A generic MAC header (Figure 19): HT EC Type(6) | ESF CI EKS(2) rsv LEN(11) | CID(16) | HCS."""
    h = bytes([(ht << 7) | (ec << 6) | (typ & 0x3F),
               (esf << 7) | (ci << 6) | ((eks & 3) << 4) | (rsv << 3) | ((length >> 8) & 7),
               length & 0xFF, cid >> 8, cid & 0xFF])
    return h + bytes([hcs(h)])


def fields(h: bytes) -> dict:
    return dict(ht=h[0] >> 7, ec=(h[0] >> 6) & 1, typ=h[0] & 0x3F, esf=h[1] >> 7, ci=(h[1] >> 6) & 1,
                eks=(h[1] >> 4) & 3, rsv=(h[1] >> 3) & 1, length=((h[1] & 7) << 8) | h[2],
                cid=(h[3] << 8) | h[4])


def protect(key: bytes, pdu: bytes, pn: int) -> bytes:
    """The protected PDU of a plaintext PDU (EC = 0, LEN = its length)."""
    f = fields(pdu[:6])
    f.update(ec=1, length=f["length"] + 12 + 4 * f["ci"])
    h = gmh(**f)
    pnb = pn.to_bytes(4, "little")
    nonce = h[:5] + bytes(4) + pnb
    return h + pnb + AESCCM(key, tag_length=ICV_LEN).encrypt(nonce, pdu[6:], None)


def unprotect(key: bytes, pdu: bytes) -> tuple[bytes, int] | None:
    """(plaintext PDU, PN) of a protected PDU, None when the ICV does not verify."""
    from cryptography.exceptions import InvalidTag

    h, pnb = pdu[:6], pdu[6:10]
    try:
        pt = AESCCM(key, tag_length=ICV_LEN).decrypt(h[:5] + bytes(4) + pnb, pdu[10:], None)
    except InvalidTag:
        return None
    f = fields(h)
    f.update(ec=0, length=f["length"] - 12 - 4 * f["ci"])
    return gmh(**f) + pt, int.from_bytes(pnb, "little")


def random_pdu(rng: random.Random, plen: int, ci: int | None = None) -> bytes:
    """A plaintext PDU with random header fields (EC = 0, HT = 0) and a `plen`-byte payload."""
    ci = rng.getrandbits(1) if ci is None else ci
    h = gmh(length=6 + plen, typ=rng.getrandbits(6), esf=rng.getrandbits(1), ci=ci,
            eks=rng.getrandbits(2), rsv=rng.getrandbits(1), cid=rng.getrandbits(16))
    return h + rng.randbytes(plen)


def random_len(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.3:
        return rng.choice([0, 1, 2, 5, 6, 9, 10, 15, 16, 17, 22, 26, 31, 32, 33, 48])
    if r < 0.85:
        return rng.randrange(0, 200)
    return rng.randrange(200, 2001)


# ---------------------------------------------------------------------------- helpers
async def start(dut, rng: random.Random) -> tuple[WimaxDriver, dict]:
    drv = WimaxDriver(dut)
    await drv.start()
    keys = {s: rng.randbytes(16) for s in range(2)}
    for s, k in keys.items():
        await drv.load_key(s, k)
    return drv, keys


async def check(drv: WimaxDriver, name: str, err: int, out: bytes | None = None, pn: int = 0) -> None:
    """The next status (and output frame when `out` is given) of the front end."""
    s = await with_timeout(drv.status(), 5_000_000, "ns")
    assert s["err"] == err, f"{name}: status err {W.error_name(s['err'])} (engine {s['eng_err']}), " \
                            f"expected {W.error_name(err)}"
    assert s["frame"] == int(out is not None), f"{name}: frame bit {s['frame']}"
    assert s["pn"] == (pn if err == W.ERR_OK else 0), f"{name}: pn {s['pn']:#x} expected {pn:#x}"
    if out is not None:
        data, flag = await with_timeout(drv.output(), 1_000_000, "ns")
        assert flag == 0, f"{name}: tuser set on the last beat"
        assert data == out, f"{name}:\n got {data.hex()}\n exp {out.hex()}"


# ---------------------------------------------------------------------------- tests
@cocotb.test()
async def test_random(dut):
    """Random PDUs, each encrypted and its expected protected PDU decrypted, back to back
    with gaps on the inputs and backpressure on the outputs."""
    rng = test_rng(f"{__name__}.test_random")
    drv, keys = await start(dut, rng)
    n = int(os.environ.get("AESIP_NRAND", "40"))
    jobs = []
    for i in range(n):
        plen = [0, 1, 15, 16, 17, 2000][i] if i < 6 else random_len(rng)
        pdu = random_pdu(rng, plen, ci=i % 2 if i < 6 else None)
        slot = rng.randrange(len(keys))
        pn = rng.getrandbits(32)
        prot = protect(keys[slot], pdu, pn)
        assert unprotect(keys[slot], prot) == (pdu, pn)
        jobs.append(("wimax-encrypt", slot, pn, pdu, prot, pn))
        jobs.append(("wimax-decrypt", slot, rng.getrandbits(32), prot, pdu, pn))
    drv.set_gaps(rng, p_gap=0.2, p_bp=0.2)

    async def feed():
        for op, slot, pn, inp, _, _ in jobs:
            await drv.submit(op, slot, pn, inp)

    cocotb.start_soon(feed())
    for k, (op, slot, _, inp, out, pn) in enumerate(jobs):
        await check(drv, f"PDU {k} ({op}, {len(inp)} bytes)", W.ERR_OK, out, pn)
    await ClockCycles(dut.clk, 20)
    assert drv.out.empty() and drv.sts.empty(), "extra output frames or status beats"


def bad_cases(rng: random.Random, key: bytes) -> list[tuple[str, str, int, bytes, int, dict]]:
    """(name, op, slot, frame, expected error, submit options) of malformed PDUs."""
    good = random_pdu(rng, 40, ci=1)
    pn = rng.getrandbits(32)
    prot = protect(key, good, pn)
    f = fields(good[:6])

    def with_hdr(pdu: bytes, **kw) -> bytes:
        g = dict(fields(pdu[:6]), **kw)
        return gmh(**g) + pdu[6:]

    flip = bytearray(prot)
    flip[-1 - rng.randrange(ICV_LEN)] ^= 1 << rng.randrange(8)
    flip_ct = bytearray(prot)
    flip_ct[10 + rng.randrange(40)] ^= 0x80
    flip_pn = bytearray(prot)
    flip_pn[6] ^= 0x01
    bad_hcs = bytearray(good)
    bad_hcs[5] ^= 0x10
    bad_hcs_dec = bytearray(prot)
    bad_hcs_dec[5] ^= 0x01
    short_prot = gmh(**dict(fields(prot[:6]), length=17 + 4)) + prot[6:17]   # 17 bytes, CI set
    too_long = random_pdu(rng, 2030, ci=1)                                  # LEN + 16 > 2047
    return [
        ("empty frame", "wimax-encrypt", 0, b"", W.ERR_SHORT, {}),
        ("5-byte frame", "wimax-encrypt", 0, good[:5], W.ERR_SHORT, {}),
        ("5-byte frame (decrypt)", "wimax-decrypt", 0, prot[:5], W.ERR_SHORT, {}),
        ("EC set on encrypt", "wimax-encrypt", 0, with_hdr(good, ec=1), W.ERR_EC, {}),
        ("EC clear on decrypt", "wimax-decrypt", 0, with_hdr(prot, ec=0), W.ERR_EC, {}),
        ("HCS wrong", "wimax-encrypt", 0, bytes(bad_hcs), W.ERR_HCS, {}),
        ("HCS wrong (decrypt)", "wimax-decrypt", 0, bytes(bad_hcs_dec), W.ERR_HCS, {}),
        ("HT set", "wimax-encrypt", 0, with_hdr(good, ht=1), W.ERR_HT, {}),
        ("LEN too small", "wimax-encrypt", 0, with_hdr(good, length=f["length"] - 1), W.ERR_LEN, {}),
        ("LEN too large", "wimax-encrypt", 0, with_hdr(good, length=f["length"] + 16), W.ERR_LEN, {}),
        ("LEN without the CRC (decrypt, CI set)", "wimax-decrypt", 0,
         with_hdr(prot, length=len(prot)), W.ERR_LEN, {}),
        ("frame truncated (decrypt)", "wimax-decrypt", 0, prot[:-3], W.ERR_LEN, {}),
        ("frame truncated (encrypt)", "wimax-encrypt", 0, good[:-1], W.ERR_LEN, {}),
        ("protected PDU shorter than PN + ICV", "wimax-decrypt", 0, short_prot, W.ERR_TRUNC, {}),
        ("LEN would exceed 2047", "wimax-encrypt", 0, too_long, W.ERR_LEN, {}),
        ("frame longer than any PDU", "wimax-encrypt", 0, with_hdr(random_pdu(rng, 2100), length=2047),
         W.ERR_LEN, {}),
        ("reserved sideband bits", "wimax-encrypt", 0, good, W.ERR_OP, {"rsvd": 1 << 60}),
        ("tkeep hole", "wimax-encrypt", 0, good, W.ERR_FRAMING,
         {"keep": [1] * 20 + [0] + [1] * (len(good) - 21)}),
        ("ICV bit flipped", "wimax-decrypt", 0, bytes(flip), W.ERR_AUTH, {}),
        ("ciphertext bit flipped", "wimax-decrypt", 0, bytes(flip_ct), W.ERR_AUTH, {}),
        ("PN bit flipped", "wimax-decrypt", 0, bytes(flip_pn), W.ERR_AUTH, {}),
        ("slot without a key", "wimax-encrypt", 3, good, W.ERR_KEY, {}),
        ("slot out of range", "wimax-decrypt", 200, prot, W.ERR_KEY, {}),
    ]


@cocotb.test()
async def test_bad_input(dut):
    """Every malformed PDU gets its error code and no output frame; the good PDU after it
    (alternately encrypt and decrypt) comes out right."""
    rng = test_rng(f"{__name__}.test_bad_input")
    drv, keys = await start(dut, rng)
    drv.set_gaps(rng, p_gap=0.1, p_bp=0.1)
    for k, (name, op, slot, frame, err, opts) in enumerate(bad_cases(rng, keys[0])):
        await drv.submit(op, slot, rng.getrandbits(32), frame, **opts)
        await check(drv, name, err)
        pdu = random_pdu(rng, random_len(rng))
        pn = rng.getrandbits(32)
        prot = protect(keys[1], pdu, pn)
        if k % 2:
            await drv.submit("wimax-encrypt", 1, pn, pdu)
            await check(drv, f"good PDU after {name}", W.ERR_OK, prot, pn)
        else:
            await drv.submit("wimax-decrypt", 1, 0, prot)
            await check(drv, f"good PDU after {name}", W.ERR_OK, pdu, pn)
    await ClockCycles(dut.clk, 20)
    assert drv.out.empty() and drv.sts.empty(), "extra output frames or status beats"


@cocotb.test()
async def test_timing(dut):
    """Cycles per PDU alone (no gaps, no backpressure) from the sideband beat to the status
    beat, logged for docs/wimax.md, against the bound of its timing section: receive
    (one beat per clock) + engine (CCM steps x (core latency + 1)) + (decryption) the
    release of the verified plaintext at one beat per clock + a few cycles."""
    from cocotb.utils import get_sim_steps, get_sim_time

    rng = test_rng(f"{__name__}.test_timing")
    drv, keys = await start(dut, rng)
    step = ccm_step_clocks(dut)   # AES-128 CCM step: core latency + 1
    for plen in (0, 16, 64, 256, 1500):
        pdu = random_pdu(rng, plen)
        pn = rng.getrandbits(32)
        prot = protect(keys[0], pdu, pn)
        for op, inp, out in (("wimax-encrypt", pdu, prot), ("wimax-decrypt", prot, pdu)):
            await ClockCycles(dut.clk, 5)
            t0 = get_sim_time("step")
            await drv.submit(op, 0, pn, inp)
            s = await with_timeout(drv.status(), 5_000_000, "ns")
            cycles = int((s["t"] - t0) // get_sim_steps(10, "ns"))
            data, _ = await drv.output()
            assert s["err"] == 0 and data == out
            m = -(-plen // 16)
            beats = -(-len(inp) // 16)
            # + the store-and-forward decryption's release of its m output beats after the tag check
            bound = beats + (1 + (1 if m else 0) + m) * step + (m if op == "wimax-decrypt" else 0) + 16
            dut._log.info("%s %4d payload bytes: %5d cycles (input %d beats, engine %d steps; bound %d)",
                          op, plen, cycles, beats, 1 + (1 if m else 0) + m, bound)
            assert cycles <= bound, f"{op} {plen}: {cycles} cycles > {bound}"


@cocotb.test()
async def test_zeroize(dut):
    """A zeroize pulse while the engine works on a PDU (encryption: output frame begun or
    not; decryption: store-and-forward, so output only once the ICV has verified): status
    ENGINE with the engine's ZEROIZED code, an output frame only if it had begun, and then
    flagged with tuser; a decryption's frame only if the engine had released verified
    plaintext by the pulse, and then a prefix of the right PDU with a zeroed tail; a PDU
    right after the pulse fails with KEY (slots cleared); after reloading the keys the next
    PDUs are right."""
    from aesip import iface

    rng = test_rng(f"{__name__}.test_zeroize")
    drv, keys = await start(dut, rng)
    for k in range(6):
        op = "wimax-encrypt" if k % 2 == 0 else "wimax-decrypt"
        pdu = random_pdu(rng, rng.randrange(200, 800))
        pn = rng.getrandbits(32)
        prot = protect(keys[0], pdu, pn)
        await drv.submit(op, 0, pn, pdu if op == "wimax-encrypt" else prot)
        while int(dut.u_fe.st.value) != 4:          # S_RUN: the engine has the PDU
            await RisingEdge(dut.clk)
        # PDU 0: well into the payload (>= 13 steps of <= 45 cycles), its output frame begun
        # released: the engine had begun to give out this PDU's result by the pulse (for a
        # decryption that happens only after its ICV verified)
        # finished: the engine's status beat for this PDU was taken no later than the edge
        # that samples the zeroize (a short PDU on a fast core can finish in the wait)
        released = finished = False

        def eng_sts_taken() -> bool:
            return bool(dut.es_valid.value) and bool(dut.es_ready.value)

        for _ in range(100 if k == 0 else rng.randrange(1, 200 if k < 4 else 20)):
            await RisingEdge(dut.clk)
            released |= bool(dut.eo_valid.value)
            finished |= eng_sts_taken()
        await RisingEdge(dut.clk)                   # the pulse (as pulse_zeroize), sampled
        finished |= eng_sts_taken()                 # at the next edge
        dut.zeroize.value = 1
        await RisingEdge(dut.clk)
        dut.zeroize.value = 0
        released |= bool(dut.eo_valid.value)
        s = await with_timeout(drv.status(), 5_000_000, "ns")
        name = f"zeroize {k} ({op})"
        if finished and s["err"] == W.ERR_OK:
            # the PDU was done before the zeroize: its whole, right result, not flagged
            data, flag = await with_timeout(drv.output(), 1_000_000, "ns")
            assert flag == 0 and data == (prot if op == "wimax-encrypt" else pdu) and s["pn"] == pn, \
                f"{name}: PDU finished before the pulse, but {s} / {data.hex()}"
            dut._log.info("%s: PDU finished before the pulse, status %s", name, s)
        else:
            assert s["err"] == W.ERR_ENGINE and s["eng_err"] == iface.ERR_ZEROIZED and s["pn"] == 0, f"{name}: {s}"
            dut._log.info("%s: status %s", name, s)
            assert k != 0 or s["frame"], f"{name}: the output frame should have begun"
            if s["frame"]:
                assert op == "wimax-encrypt" or released, f"{name}: a decryption released output before it verified"
                data, flag = await with_timeout(drv.output(), 1_000_000, "ns")
                assert flag == 1, f"{name}: aborted frame not flagged"
                assert len(data) <= len(prot) + ICV_LEN
                if op == "wimax-decrypt":
                    # verified plaintext cut short: the right PDU's first bytes, then at most one
                    # beat of zeros (the flagged beat that ends the aborted frame)
                    j = next(i for i in range(len(data) + 1)
                             if i == len(data) or data[i] != pdu[i])
                    assert j <= len(pdu) and len(data) - j <= 16 and not any(data[j:]), \
                        f"{name}: released {data.hex()} is not a prefix of the PDU {pdu.hex()}"
        await drv.submit("wimax-encrypt", 1, pn, pdu)
        await check(drv, f"PDU after {name}", W.ERR_KEY)
        for slot, key in keys.items():
            await drv.load_key(slot, key)
        await drv.submit(op, 0, pn, pdu if op == "wimax-encrypt" else prot)
        await check(drv, f"good PDU after {name}", W.ERR_OK, prot if op == "wimax-encrypt" else pdu, pn)
    await ClockCycles(dut.clk, 20)
    assert drv.out.empty() and drv.sts.empty(), "extra output frames or status beats"


# ---------------------------------------------------------------------------- pytest
FUNCTIONAL = ["test_random", "test_bad_input", "test_timing", "test_zeroize"]


def case(simulator: str, parameters: dict, tests: list[str], env: dict):
    return pytest.param(simulator, parameters, tests, env, id=sim.case_id(simulator, parameters))


CASES = [
    case("verilator", {"CORE": "iter128"}, FUNCTIONAL, {"AESIP_NRAND": "40"}),
    case("verilator", {"CORE": "pipe"}, ["test_random"], {"AESIP_NRAND": "12"}),
    case("icarus", {"CORE": "iter128"}, ["test_random"], {"AESIP_NRAND": "8"}),
    # two rounds per clock in both cores (aes_iter128 ROUNDS_PER_CLK = 2): CCM steps of Nr / 2 + 1
    case("verilator", {"CORE": "iter128", "ROUNDS_PER_CLK": 2}, ["test_random", "test_timing"], {"AESIP_NRAND": "12"}),
]


@pytest.mark.parametrize("simulator,parameters,tests,env", CASES)
def test_wimax_top(simulator, parameters, tests, env):
    sim.require(simulator)
    sim.run_and_check(
        toplevel=rtl.WIMAX_TOP,
        sources=rtl.wimax_sources(parameters["CORE"]),
        test_module=__name__,
        testcase=tests,
        sim=simulator,
        parameters=parameters,
        extra_env=env,
        seed=run_seed(),
        quiet=True,
        internals=("wimax_fe",) + rtl.ENGINE_PUBLIC,   # the front end's state, the engine below it
    )
