# SPDX-License-Identifier: Apache-2.0
"""Tests of the `aesip` command line (run, bench, demo), run as a subprocess against the
real RTL. Expected ciphertexts come from aesip.ref (OpenSSL) only.

Verilator (the default simulator) is used for the per-engine runs and the benchmark;
the error-handling cases use Icarus (fast builds), which also covers `--sim icarus`.
Random data: seed from $AESIP_SEED or random, printed (shown by pytest on failure).
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from aesip import bench, ref, rtl, runreq, sim
from aesip.bench import verify
from aesip.tb.seed import run_seed

ROOT = rtl.ROOT
TIMEOUT = 900
NR = ref.ROUNDS


def _seed() -> int:
    return run_seed()


def aesip_cmd() -> list[str]:
    script = Path(sys.executable).parent / "aesip"
    return [str(script)] if script.exists() else [sys.executable, "-m", "aesip"]


def run_cli(args: list[str], stdin: str = "", env: dict | None = None,
            timeout: int = TIMEOUT) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e.pop("PYTEST_CURRENT_TEST", None)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    e.update(env or {})
    return subprocess.run(aesip_cmd() + args, input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=e, timeout=timeout)


def jsonl(reqs: list) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in reqs)


def out_lines(p: subprocess.CompletedProcess) -> list[dict]:
    """stdout must hold nothing but JSON objects, one per line."""
    lines = p.stdout.splitlines()
    objs = [json.loads(ln) for ln in lines]
    assert all(isinstance(o, dict) for o in objs), p.stdout
    return objs


def need(simulator: str):
    sim.require(simulator)


def enc(key: bytes, msg: bytes) -> str:
    return ref.ecb_encrypt(key, msg).hex()


# --------------------------------------------------------------------------- pure Python
def test_parse_requests():
    p = runreq.parse_lines([
        '{"op": "encrypt", "key": "00", "msg": ""}',
        "",
        '{"op": "decrypt", "key": "0g", "ct": ""}',
        '{"op": "ctr", "key": "zz"}',
        b'{"op": "frob"}',
        '{"op": "encrypt", "key": "00", "msg": ""}',
    ])
    assert [r.lineno for r in p.requests] == [1, 3, 4]
    assert p.requests[0].job is not None and p.requests[0].error is None
    assert p.requests[1].error == "invalid: key not hex"
    assert p.requests[2].error == "invalid: key not hex"
    assert p.fatal is not None and p.fatal.lineno == 5 and "frob" in p.fatal.message
    for bad in ("{", "[1, 2]", '"x"', "{}", '{"op": 3}', b"\xff\xfe"):
        p = runreq.parse_lines(['{"op": "encrypt", "key": "00", "msg": ""}', bad])
        assert len(p.requests) == 1 and p.fatal is not None and p.fatal.lineno == 2, bad

    def err(obj):
        r = runreq.parse_line(json.dumps(obj), 1)
        return r.error

    k = "00" * 16
    assert err({"op": "encrypt", "key": "0011 ", "msg": ""}) == "invalid: key not hex"
    assert err({"op": "encrypt", "key": "00" * 33, "msg": ""}) == "invalid: key length"
    # left to the hardware: illegal key lengths, partial ECB/CBC blocks, nonce/tag lengths
    for ok in ({"op": "encrypt", "key": "00" * 20, "msg": ""}, {"op": "encrypt", "key": k, "msg": "00"},
               {"op": "cbc-decrypt", "key": k, "iv": k, "ct": "00" * 17},
               {"op": "ccm-encrypt", "key": k, "iv": "00" * 6, "aad": "", "msg": "", "tag_len": 5},
               {"op": "ccm-encrypt", "key": k, "iv": "00" * 15, "aad": "", "msg": "", "tag_len": 31},
               {"op": "ccm-decrypt", "key": k, "iv": "00" * 13, "aad": "", "ct": "", "tag": ""}):
        assert err(ok) is None, ok
    r = runreq.parse_line(json.dumps({"op": "ccm-decrypt", "key": k, "iv": "00" * 9, "aad": "ab", "ct": "cd",
                                      "tag": "00" * 6}), 1)
    assert r.job.packet(3) == {"cmd": "pkt", "op": "ccm-decrypt", "slot": 3, "iv": "00" * 9, "nonce_len": 9,
                               "aad": "ab", "data": "cd", "tag_len": 6, "rtag": "00" * 6, "cut": False}
    # CCM* encryption only: tag_len 0 / tag "" go to the engine as tag_len 0
    r = runreq.parse_line(json.dumps({"op": "ccm-encrypt", "key": k, "iv": "00" * 13, "aad": "ab", "msg": "cd",
                                      "tag_len": 0}), 1)
    assert r.error is None and r.job.packet(0)["tag_len"] == 0
    r = runreq.parse_line(json.dumps({"op": "ccm-decrypt", "key": k, "iv": "00" * 13, "aad": "", "ct": "cd",
                                      "tag": ""}), 1)
    assert r.error is None and (r.job.packet(0)["tag_len"], r.job.packet(0)["rtag"]) == (0, "")
    # cannot be encoded on the engine's interface: refused by the CLI
    assert err({"op": "cbc-encrypt", "key": k, "iv": "00" * 15, "msg": ""}) == "invalid: iv length"
    assert err({"op": "ctr", "key": k, "iv": "00" * 17, "msg": ""}) == "invalid: iv length"
    assert err({"op": "ccm-encrypt", "key": k, "iv": "00" * 16, "aad": "", "msg": "", "tag_len": 8}) \
        == "invalid: nonce length"
    assert err({"op": "ccm-encrypt", "key": k, "iv": "00" * 13, "aad": "", "msg": "", "tag_len": 32}) \
        == "invalid: tag length"
    assert err({"op": "ccm-encrypt", "key": k, "iv": "00" * 13, "aad": "", "msg": "", "tag_len": -1}) \
        == "invalid: tag length"
    assert err({"op": "ccm-encrypt", "key": k, "iv": "00" * 13, "aad": "", "msg": "", "tag_len": "8"}) \
        == "invalid: tag_len not an integer"
    assert err({"op": "ccm-encrypt", "key": k, "iv": "00" * 13, "aad": "", "msg": "", "tag_len": True}) \
        == "invalid: tag_len not an integer"
    assert err({"op": "ccm-encrypt", "key": k, "iv": "00" * 13, "msg": "", "tag_len": 8}) == "invalid: missing aad"
    assert err({"op": "ccm-encrypt", "key": k, "iv": "00" * 13, "aad": "", "msg": ""}) == "invalid: missing tag_len"
    assert err({"op": "ccm-decrypt", "key": k, "iv": "00" * 13, "aad": "", "ct": "", "tag": "00" * 17}) \
        == "invalid: tag length"
    assert err({"op": "ccm-decrypt", "key": k, "iv": "00" * 13, "aad": [], "ct": "", "tag": ""}) \
        == "invalid: aad not hex"
    assert err({"op": "cbc-encrypt", "key": k, "msg": ""}) == "invalid: missing iv"
    # engine status codes -> contract errors
    assert [runreq.engine_error(c) for c in (2, 3, 4, 7, 8)] == [
        "invalid: nonce length", "invalid: tag length", "invalid: length", "invalid: key length", "auth"]
    assert runreq.engine_error(5).startswith("invalid: ") and runreq.engine_error(99).startswith("invalid: ")


def test_verify_catches_wrong_blocks():
    """The checker behind `bench` and `demo` reports flipped bits and err flags."""
    key, blk = bytes(range(16)), bytes(16)
    good = ref.ecb_encrypt(key, blk)
    cmds = [{"cmd": "key", "slot": 1, "key": key.hex()},
            {"cmd": "blocks", "items": [[blk.hex(), False, 1]] * 3}]
    flipped = bytes([good[0] ^ 1]) + good[1:]
    res = [{}, {"out": [[good.hex(), 0], [flipped.hex(), 0], [good.hex(), 1]], "cycles": 0}]
    checked, bad = verify(cmds, res)
    assert checked[128] == 3
    assert [b["item"] for b in bad] == [1, 2]


def test_ref_ccm_star():
    """aesip.ref.ccm_star_m0 (CCM* M = 0 on `cryptography` AES-CTR) against a second,
    independent construction: pycryptodome AES-ECB of A_i = (L-1) || nonce || i from i = 1,
    XORed by hand; and its ciphertext equals the ciphertext part of AESCCM with any tag
    (same counter blocks). Every nonce length 7..13, payloads 0..80 bytes, every key size."""
    from Crypto.Cipher import AES

    rng = random.Random(_seed())
    for plen in range(81):
        key, nonce = rng.randbytes(rng.choice((16, 24, 32))), rng.randbytes(7 + plen % 7)
        msg, q = rng.randbytes(plen), 15 - len(nonce)
        ecb = AES.new(key, AES.MODE_ECB)
        ks = b"".join(ecb.encrypt(bytes([q - 1]) + nonce + i.to_bytes(q, "big")) for i in range(1, plen // 16 + 2))
        want = bytes(a ^ b for a, b in zip(msg, ks))
        assert ref.ccm_star_m0(key, nonce, msg) == want
        assert ref.ccm_encrypt(key, nonce, rng.randbytes(5), msg, 0) == (want, b"")
        assert ref.ccm_decrypt(key, nonce, b"ignored", want, b"") == msg
        assert ref.ccm_encrypt(key, nonce, b"", msg, 4)[0] == want


def test_ccm_checkers_catch_mismatches():
    """The CCM checkers behind `bench` and `demo` report wrong ciphertext, tag, status
    and released plaintext of a failed decryption."""
    from aesip import demo
    from aesip import engine_bench

    rng = random.Random(_seed())
    key, nonce, aad, msg = rng.randbytes(16), rng.randbytes(13), rng.randbytes(5), rng.randbytes(20)
    ct, tag = ref.ccm_encrypt(key, nonce, aad, msg, 8)
    pkt = {"cmd": "pkt", "op": "ccm-encrypt", "slot": 0, "iv": nonce.hex(), "nonce_len": 13, "aad": aad.hex(),
           "data": msg.hex(), "tag_len": 8, "rtag": "", "cut": False}
    t = {"t_cmd": 1, "t_sts": 9, "t_out": 10, "flag": 0}
    good = dict(t, err=0, out=ct.hex(), value=tag.hex() + "00" * 8)
    cmds = [{"cmd": "key", "slot": 0, "key": key.hex()}, pkt, pkt, pkt, pkt]
    res = [{}, good, dict(good, out=ct[:-1].hex() + "00"), dict(good, value="00" * 16), dict(good, err=7)]
    n, bad = engine_bench.check(cmds, res)
    assert n == 4 and [b["command"] for b in bad] == [2, 3, 4]
    dpkt = dict(pkt, op="ccm-decrypt", data=ct.hex(), rtag=tag.hex())
    tpkt = dict(dpkt, rtag=bytes([tag[0] ^ 1]).hex() + tag[1:].hex())
    cmds = [cmds[0], dpkt, dpkt, tpkt, tpkt, tpkt]
    gd = dict(t, err=0, out=msg.hex(), value="00" * 16)
    res = [{}, gd, dict(gd, out=ct.hex()), dict(gd, err=8, out=None), dict(gd, err=8), dict(gd, out=None)]
    kinds = {1: "dec", 2: "dec", 3: "tampered", 4: "tampered", 5: "tampered"}
    rows, bad = demo.ccm_check(cmds, res, kinds)
    assert [r["ok"] for r in rows] == [True, False, True, False, False]


def test_rekey_checker_catches_wrong_key():
    """The live-rekey checker behind `bench` ("rekey" record) checks each packet under the
    key of the last slot-0 key handshake before its command: results computed under that
    key pass; a packet answered under the previous key, a lost packet (error status) and a
    missing key load are reported."""
    from aesip import rekey_bench

    rng = random.Random(_seed())
    cmds, keys = rekey_bench.plan(rng, 2)
    pkts = [i for i, c in enumerate(cmds) if c["cmd"] == "pkt"]
    loads = [[50, 0], [100, 0], [300, 0], [500, 0]]     # bring_up at 90: the first is a KAT load
    res = [{"cycle": 90} if c["cmd"] == "bring_up" else {} for c in cmds]
    t_cmds = [110 + 30 * k for k in range(len(pkts))]
    for i, t in zip(pkts, t_cmds):
        c = cmds[i]
        gen = sum(1 for ld, _ in loads[1:] if ld < t) - 1
        ct, tag = ref.ccm_encrypt(keys[gen], bytes.fromhex(c["iv"]), bytes.fromhex(c["aad"]),
                                  bytes.fromhex(c["data"]), c["tag_len"])
        res[i] = {"err": 0, "out": ct.hex(), "value": tag.hex().ljust(32, "0"), "flag": 0, "t_cmd": t,
                  "t_sts": t + 25, "t_out": t + 26}
    rows, bad, seen = rekey_bench.check(cmds, {"results": res, "loads": loads}, keys)
    assert not bad and seen == [100, 300, 500] and {r["gen"] for r in rows} == {0, 1, 2}
    # the record: top-<core> for LANES = 1, top-multi with a `lanes` field for aes_mode_multi
    rk = [{"t_commit": 95 + 200 * j} if c["cmd"] == "rekey" else r
          for j, (c, r) in enumerate(zip(cmds, res))]
    r1 = rekey_bench.record("pipe", "verilator", cmds, {"results": rk, "loads": loads}, rows, seen)
    r4 = rekey_bench.record("pipe", "verilator", cmds, {"results": rk, "loads": loads}, rows, seen, lanes=4)
    assert r1["engine"] == "top-pipe" and "lanes" not in r1
    assert r4["engine"] == "top-multi" and r4["lanes"] == 4 and r4["key_expansion_cycles"] == 50
    # top-multi's gaps are taken between completions `lanes` packets apart (one lane's
    # packet time): 4 x the evenly spaced completions here; every other field is the same
    assert r4["steady_gap_cycles"] == 4 * r1["steady_gap_cycles"] == 4 * 30
    assert {k: v for k, v in r4.items() if k not in ("engine", "lanes", "steady_gap_cycles")} == \
        {k: v for k, v in r1.items() if k not in ("engine", "steady_gap_cycles")}
    wrong = [dict(r) for r in res]
    first_new = next(i for i, t in zip(pkts, t_cmds) if t > 500)
    wrong[first_new]["t_cmd"] = 499                     # claims it started before the rekey
    wrong[pkts[0]]["err"] = 9
    _, bad, _ = rekey_bench.check(cmds, {"results": wrong, "loads": loads}, keys)
    assert [b["command"] for b in bad] == [pkts[0], first_new]
    _, bad, _ = rekey_bench.check(cmds, {"results": res, "loads": loads[:-1]}, keys)
    assert bad and "key loads" in bad[0]["why"]


# --------------------------------------------------------------------------- run
def mode_requests(rng: random.Random, keys: list[bytes], n: int) -> tuple[list[dict], list[dict]]:
    """n random requests over every op and the given keys, with the expected outputs. CCM
    tag lengths cycle through 0 (CCM* encryption only: `tag_len` 0 / `tag` ""), 4, 8, 16,
    so n >= 2 * len(OPS) gives both CCM ops with t = 0."""
    reqs, exp = [], []
    for i in range(n):
        key = keys[rng.randrange(len(keys))]
        op = runreq_ops[i % len(runreq_ops)]
        iv = rng.randbytes(16)
        if op in ("encrypt", "decrypt", "cbc-encrypt", "cbc-decrypt"):
            data = rng.randbytes(16 * rng.randint(1, 3))
        else:
            data = rng.randbytes(rng.randint(1, 60))
        r = {"op": op, "key": key.hex(), "id": i}
        if op == "encrypt":
            r["msg"], e = data.hex(), {"ct": enc(key, data)}
        elif op == "decrypt":
            r["ct"], e = data.hex(), {"msg": ref.ecb_decrypt(key, data).hex()}
        elif op == "cbc-encrypt":
            r.update(iv=iv.hex(), msg=data.hex())
            e = {"ct": ref.cbc_encrypt(key, iv, data).hex()}
        elif op == "cbc-decrypt":
            r.update(iv=iv.hex(), ct=data.hex())
            e = {"msg": ref.cbc_decrypt(key, iv, data).hex()}
        elif op == "ctr":
            iv = (b"\xff" * 15 + bytes([256 - rng.randint(1, 3)])) if rng.random() < 0.5 else iv  # wraps
            r.update(iv=iv.hex(), msg=data.hex())
            e = {"ct": ref.ctr(key, iv, data).hex()}
        else:
            nonce, aad = rng.randbytes(rng.randint(7, 13)), rng.randbytes(rng.randint(0, 40))
            t = (0, 4, 8, 16)[(i // len(runreq_ops)) % 4]
            ct, tag = ref.ccm_encrypt(key, nonce, aad, data, t)
            if op == "ccm-encrypt":
                r.update(iv=nonce.hex(), aad=aad.hex(), msg=data.hex(), tag_len=t)
                e = {"ct": ct.hex(), "tag": tag.hex()}
            else:
                r.update(iv=nonce.hex(), aad=aad.hex(), ct=ct.hex(), tag=tag.hex())
                e = {"msg": data.hex()}
        reqs.append(r)
        exp.append(dict({"id": i}, **e))
    return reqs, exp


runreq_ops = list(runreq.OPS)


@pytest.mark.parametrize("core", rtl.RUN_ENGINES)
def test_run_engine(core):
    """Every op with every key size on the mode engine built on each core and on the
    multi-lane engine (`--engine multi`: requests in flight together), more keys than
    key slots (slot reuse and eviction with packets in flight), multi-block and partial
    messages, CTR counter wrap, a 20-byte key answered by the hardware as invalid with the
    next request still right, and `id` copied. Default simulator (Verilator)."""
    need("verilator")
    rng = random.Random(_seed())
    keys = [rng.randbytes(n) for n in (16, 24, 32, 16, 32, 24)]
    reqs, exp = mode_requests(rng, keys, 28)
    bad = {"op": "ccm-encrypt", "key": rng.randbytes(20).hex(), "iv": "00" * 13, "aad": "", "msg": "00",
           "tag_len": 8, "id": "bad"}
    reqs.insert(9, bad)
    exp.insert(9, {"id": "bad", "error": "invalid: key length"})
    p = run_cli(["run", "--engine", core], jsonl(reqs))
    assert p.returncode == 0, p.stderr
    assert out_lines(p) == exp


def test_run_modes_icarus():
    """The mode ops against aesip.ref on Icarus, and every failure per line, each followed
    by a good request that must still be right: errors reported by the hardware
    (key/nonce/tag length, partial blocks, buffer size, authentication) and requests the
    CLI refuses because they cannot be encoded."""
    need("icarus")
    rng = random.Random(_seed())
    k, k24 = rng.randbytes(16), rng.randbytes(24)
    m = rng.randbytes(32)
    iv = rng.randbytes(16)
    nonce, aad = rng.randbytes(13), rng.randbytes(20)
    good = {"op": "encrypt", "key": k.hex(), "msg": m.hex()}
    good_exp = {"ct": enc(k, m)}
    reqs, exp = [], []

    def add(req, e, then_good=True):
        reqs.append(req)
        exp.append(e)
        if then_good:
            reqs.append(good)
            exp.append(good_exp)

    # --- mode ops vs the reference (id copied)
    add({"op": "cbc-encrypt", "key": k24.hex(), "iv": iv.hex(), "msg": m.hex(), "id": "cbc-e"},
        {"id": "cbc-e", "ct": ref.cbc_encrypt(k24, iv, m).hex()}, False)
    add({"op": "cbc-decrypt", "key": k24.hex(), "iv": iv.hex(), "ct": m.hex(), "id": "cbc-d"},
        {"id": "cbc-d", "msg": ref.cbc_decrypt(k24, iv, m).hex()}, False)
    wrap = b"\xff" * 15 + b"\xfe"
    msg37 = rng.randbytes(37)  # 3 blocks: counter ..fe, ..ff, then wraps to 0; partial last block
    add({"op": "ctr", "key": k.hex(), "iv": wrap.hex(), "msg": msg37.hex(), "id": 7},
        {"id": 7, "ct": ref.ctr(k, wrap, msg37).hex()}, False)
    ct, tag = ref.ccm_encrypt(k24, nonce, aad, msg37, 10)
    add({"op": "ccm-encrypt", "key": k24.hex(), "iv": nonce.hex(), "aad": aad.hex(), "msg": msg37.hex(),
         "tag_len": 10, "id": [1]}, {"id": [1], "ct": ct.hex(), "tag": tag.hex()}, False)
    add({"op": "ccm-decrypt", "key": k24.hex(), "iv": nonce.hex(), "aad": aad.hex(), "ct": ct.hex(),
         "tag": tag.hex()}, {"msg": msg37.hex()}, False)
    # --- CCM* encryption only (tag_len 0 / tag ""): reference ref.ccm_star_m0; the AAD is
    # ignored; a decryption never fails authentication (a flipped bit flips the plaintext)
    # and is never limited by the store-and-forward buffer
    ct_m0 = ref.ccm_star_m0(k24, nonce, msg37)
    assert ct_m0 == ct   # the same counter blocks A_1.. as the tagged encryption
    add({"op": "ccm-encrypt", "key": k24.hex(), "iv": nonce.hex(), "aad": aad.hex(), "msg": msg37.hex(),
         "tag_len": 0, "id": "m0"}, {"id": "m0", "ct": ct_m0.hex(), "tag": ""}, False)
    add({"op": "ccm-decrypt", "key": k24.hex(), "iv": nonce.hex(), "aad": "", "ct": ct_m0.hex(), "tag": ""},
        {"msg": msg37.hex()}, False)
    flipped = bytes([ct_m0[0] ^ 0x80]) + ct_m0[1:]
    add({"op": "ccm-decrypt", "key": k24.hex(), "iv": nonce.hex(), "aad": aad.hex(), "ct": flipped.hex(), "tag": ""},
        {"msg": (bytes([msg37[0] ^ 0x80]) + msg37[1:]).hex()}, False)
    big = rng.randbytes(4097)
    add({"op": "ccm-decrypt", "key": k.hex(), "iv": nonce[:12].hex(), "aad": "", "ct": big.hex(), "tag": ""},
        {"msg": ref.ccm_star_m0(k, nonce[:12], big).hex()})
    add({"op": "ccm-encrypt", "key": k.hex(), "iv": nonce.hex(), "aad": "", "msg": "", "tag_len": 0},
        {"ct": "", "tag": ""}, False)
    add({"op": "ccm-encrypt", "key": k.hex(), "iv": nonce.hex(), "aad": "", "msg": m.hex(), "tag_len": 2},
        {"error": "invalid: tag length"})
    # --- failures reported by the hardware
    bad_ct = bytes([ct[0] ^ 0x80]) + ct[1:]
    add({"op": "ccm-decrypt", "key": k24.hex(), "iv": nonce.hex(), "aad": aad.hex(), "ct": bad_ct.hex(),
         "tag": tag.hex(), "id": "tampered"}, {"id": "tampered", "error": "auth"})
    add({"op": "ccm-decrypt", "key": k24.hex(), "iv": nonce.hex(), "aad": aad[1:].hex(), "ct": ct.hex(),
         "tag": tag.hex()}, {"error": "auth"})
    add({"op": "ccm-encrypt", "key": k.hex(), "iv": nonce[:6].hex(), "aad": "", "msg": m.hex(), "tag_len": 8},
        {"error": "invalid: nonce length"})
    add({"op": "ccm-encrypt", "key": k.hex(), "iv": (nonce + b"\0").hex(), "aad": "", "msg": m.hex(),
         "tag_len": 8}, {"error": "invalid: nonce length"})
    add({"op": "ccm-encrypt", "key": k.hex(), "iv": nonce.hex(), "aad": "", "msg": m.hex(), "tag_len": 5},
        {"error": "invalid: tag length"})
    add({"op": "ccm-decrypt", "key": k.hex(), "iv": nonce.hex(), "aad": "", "ct": m.hex(), "tag": "00" * 18},
        {"error": "invalid: tag length"})
    add({"op": "ccm-encrypt", "key": rng.randbytes(20).hex(), "iv": nonce.hex(), "aad": aad.hex(),
         "msg": m.hex(), "tag_len": 8}, {"error": "invalid: key length"})
    add({"op": "cbc-encrypt", "key": rng.randbytes(20).hex(), "iv": iv.hex(), "msg": ""},
        {"error": "invalid: key length"})
    add({"op": "encrypt", "key": rng.randbytes(15).hex(), "msg": m.hex()}, {"error": "invalid: key length"})
    add({"op": "decrypt", "key": "", "ct": m.hex()}, {"error": "invalid: key length"})
    add({"op": "encrypt", "key": k.hex(), "msg": m.hex()[:-2]}, {"error": "invalid: length"})
    add({"op": "cbc-decrypt", "key": k.hex(), "iv": iv.hex(), "ct": m.hex() + "00"}, {"error": "invalid: length"})
    add({"op": "ccm-encrypt", "key": k.hex(), "iv": rng.randbytes(13).hex(), "aad": "", "msg": "00" * 65536,
         "tag_len": 8}, {"error": "invalid: length"})  # L = 2: payload >= 2**16
    add({"op": "ccm-decrypt", "key": k.hex(), "iv": nonce.hex(), "aad": "", "ct": "00" * 4097, "tag": "00" * 8},
        {"error": "invalid: payload too large for store-and-forward buffer"})
    # --- refused by the CLI (cannot be encoded)
    for req, e in [
        ({"op": "encrypt", "key": rng.randbytes(33).hex(), "msg": m.hex()}, "invalid: key length"),
        ({"op": "encrypt", "key": "xy" * 16, "msg": m.hex()}, "invalid: key not hex"),
        ({"op": "encrypt", "key": k.hex()[:-1], "msg": m.hex()}, "invalid: key not hex"),
        ({"op": "decrypt", "key": k.hex(), "ct": 1234}, "invalid: ct not hex"),
        ({"op": "encrypt", "msg": m.hex()}, "invalid: missing key"),
        ({"op": "decrypt", "key": k.hex(), "msg": m.hex()}, "invalid: missing ct"),
        ({"op": "cbc-encrypt", "key": k.hex(), "iv": iv[:8].hex(), "msg": m.hex()}, "invalid: iv length"),
        ({"op": "ccm-encrypt", "key": k.hex(), "iv": iv.hex(), "aad": "", "msg": "", "tag_len": 8},
         "invalid: nonce length"),
        ({"op": "ccm-encrypt", "key": k.hex(), "iv": nonce.hex(), "aad": "", "msg": "", "tag_len": 40},
         "invalid: tag length"),
    ]:
        add(dict(req, id=len(reqs)), {"id": len(reqs), "error": e})
    # --- empty payloads with legal keys are fine
    add({"op": "decrypt", "key": k24.hex(), "ct": ""}, {"msg": ""}, False)
    ct0, tag0 = ref.ccm_encrypt(k, nonce, aad, b"", 16)
    add({"op": "ccm-encrypt", "key": k.hex(), "iv": nonce.hex(), "aad": aad.hex(), "msg": "", "tag_len": 16},
        {"ct": "", "tag": tag0.hex()}, False)
    p = run_cli(["run", "--engine", "iter128", "--sim", "icarus"], jsonl(reqs))
    assert p.returncode == 0, p.stderr
    assert out_lines(p) == exp


def test_run_files_and_clean_stdout(tmp_path):
    """-i/-o files, and a fresh build (own build directory) keeps stdout clean."""
    need("icarus")
    rng = random.Random(_seed())
    k, m = rng.randbytes(32), rng.randbytes(16)
    inp, outp = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inp.write_text(jsonl([{"op": "encrypt", "key": k.hex(), "msg": m.hex(), "id": {"a": [1]}}]))
    p = run_cli(["run", "--engine", "pipe", "--sim", "icarus", "-i", str(inp), "-o", str(outp)],
                env={"AESIP_BUILD_DIR": str(tmp_path / "build")})
    assert p.returncode == 0, p.stderr
    assert p.stdout == ""
    assert [json.loads(x) for x in outp.read_text().splitlines()] == [{"id": {"a": [1]}, "ct": enc(k, m)}]
    p = run_cli(["run", "--engine", "pipe", "--sim", "icarus"], jsonl([{"op": "decrypt", "key": k.hex(), "ct": m.hex()}]),
                env={"AESIP_BUILD_DIR": str(tmp_path / "build")})
    assert p.returncode == 0, p.stderr
    assert out_lines(p) == [{"msg": ref.ecb_decrypt(k, m).hex()}]


def test_run_closed_stdout():
    """`aesip run | head`: the reader goes away before the output is written. No traceback
    and no "Exception ignored" noise, one line on stderr, exit status 2 (as OSError).
    No simulation: every request is refused by the CLI before the hardware."""
    lines = jsonl([{"op": "encrypt", "key": "zz", "msg": "", "id": i} for i in range(20000)])
    e = dict(os.environ)
    e.pop("PYTEST_CURRENT_TEST", None)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    p = subprocess.Popen(aesip_cmd() + ["run"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT, env=e)
    p.stdout.close()   # the reader has gone before anything is written
    _, err = p.communicate(lines.encode(), timeout=120)
    err = err.decode()
    assert p.returncode == 2, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert err.strip() == "aesip run: error: [Errno 32] Broken pipe", err


@pytest.mark.parametrize("bad,what", [
    ('{"op": "encrypt", "key": ', "malformed JSON"),
    ("[1, 2, 3]", "JSON object"),
    ('{"op": "encrypt-gcm", "key": "00"}', "unknown op"),
    ('{"key": "00", "msg": ""}', "no \"op\""),
])
def test_run_fatal_line(bad, what):
    """Malformed JSON / unknown op: the lines before it are answered, a message naming
    the line goes to stderr, the exit status is non-zero, later lines are ignored."""
    need("icarus")
    rng = random.Random(_seed())
    k, m = rng.randbytes(24), rng.randbytes(48)
    lines = [{"op": "encrypt", "key": k.hex(), "msg": m.hex(), "id": 1},
             {"op": "ctr", "key": k.hex(), "iv": "00" * 16, "msg": ""},
             {"op": "decrypt", "key": k.hex(), "ct": m.hex(), "id": 3},
             bad,
             {"op": "encrypt", "key": k.hex(), "msg": m.hex(), "id": 5}]
    p = run_cli(["run", "--engine", "iter128", "--sim", "icarus"], jsonl(lines))
    assert p.returncode != 0
    assert out_lines(p) == [{"id": 1, "ct": enc(k, m)},
                            {"ct": ""},
                            {"id": 3, "msg": ref.ecb_decrypt(k, m).hex()}]
    assert "line 4" in p.stderr and what in p.stderr, p.stderr


# --------------------------------------------------------------------------- bench, demo
CONTRACT_FIELDS = ("engine", "op", "key_bits", "bytes_per_packet", "packets", "cycles", "bits_per_cycle",
                   "latency_cycles")


def _ccm_steps(size: int, aad: int = 32) -> int:
    """CCM steps of one packet (docs/mode_engine.md, Timing)."""
    m = -(-size // 16)
    s = 2 if aad < 0xFF00 else 6
    return 1 + (-(-(aad + s) // 16) if aad else 0) + (1 if aad == 0 and m else 0) + m


CCMP_SIZES = (64, 1500)      # MSDU sizes of test_bench_json's CCMP records


def test_bench_json():
    """Contract fields, sane values, each core's documented throughput (docs/cores.md);
    CCM records of the mode engine on every core: every size and key size, single and
    8 back to back, the documented step count on iter128 (docs/mode_engine.md); CCM
    records of aes_mode_multi (16 lanes on aes_pipe): 1, 8, 32 and 128 packets, several
    packets really in flight (far above the one-packet-at-a-time figures) and close to
    one AES block per clock per pipeline for a long burst of 1500-byte packets."""
    need("verilator")
    # CCMP at two MSDU sizes (the default four: `aesip bench`, syn/bench.json): the 2304-byte
    # bursts of 32 and 128 MPDUs on the 16-lane build took most of this test's 10 minutes
    # (a longer hang guard: this one command builds and runs every engine; on a loaded
    # 2-core machine it took more than 900 s)
    p = run_cli(["bench", "--json", "--blocks", "16", "--rekeys", "0", "--channels", "none",
                 "--ccmp-sizes", ",".join(map(str, CCMP_SIZES))], timeout=2 * TIMEOUT)
    assert p.returncode == 0, p.stderr
    recs = json.loads(p.stdout)
    assert not [r for r in recs if r["op"] == "rekey"], "--rekeys 0 made a rekey record"
    for r in recs:
        for f in CONTRACT_FIELDS:
            assert f in r, (f, r)
    ccmp = [r for r in recs if r["engine"].startswith("ccmp-")]
    assert {(r["engine"], r["op"], r["bytes_per_packet"], r["packets"]) for r in ccmp} == {
        (f"ccmp-{e}", op, n, p) for e in rtl.CORE_NAMES + ["multi-pipe"] for op in ("ccmp-encrypt", "ccmp-decrypt")
        for n in CCMP_SIZES
        for p in ((1, 8) + (bench.MULTI_PACKETS if e == "multi-pipe" else ()))}   # detail: test_bench_ccmp
    for lanes in (2, 16):   # ccmp_top MULTI = 1 with LANES = 2 and 16, every op, size and count;
        # the 16-lane build also the long bursts of the plain 16-lane CCM records
        counts = (1, 8) + (bench.MULTI_PACKETS if lanes == bench.MULTI_LANES else ())
        assert {(r["op"], r["bytes_per_packet"], r["packets"]) for r in ccmp
                if r["engine"] == "ccmp-multi-pipe" and r["lanes"] == lanes} == {
            (op, n, p) for op in ("ccmp-encrypt", "ccmp-decrypt") for n in CCMP_SIZES for p in counts}
    assert {r.get("lanes") for r in ccmp if r["engine"] == "ccmp-multi-pipe"} == {2, 16}
    recs = [r for r in recs if r not in ccmp]
    block = [r for r in recs if not r["engine"].startswith("ccm-")]
    ccm = [r for r in recs if r["engine"].startswith("ccm-")]
    # plain store-and-forward decryptions (AES-128, 1 and 8 packets on every engine build):
    # the packet's encryption time and the release of its m verified blocks, one per clock
    dec = [r for r in ccm if r["op"] == "ccm-decrypt"]
    ccm = [r for r in ccm if r["op"] == "ccm-encrypt"]
    assert {(r["engine"], r.get("lanes"), r["key_bits"], r["bytes_per_packet"], r["packets"]) for r in dec} == {
        (e, lanes, 128, n, p) for e, lanes in [(f"ccm-{c}", None) for c in rtl.CORE_NAMES]
        + [("ccm-multi-pipe", 16), ("ccm-multi-pipe", 2)] for n in (16, 64, 256, 1500) for p in (1, 8)}
    enc1 = {(r["engine"], r.get("lanes"), r["bytes_per_packet"]): r for r in ccm
            if r["packets"] == 1 and r["key_bits"] == 128}
    for r in dec:
        assert r["aad_bytes"] == 32 and r["aes_blocks"] == r["packets"] * (
            _ccm_steps(r["bytes_per_packet"]) + 1 + -(-r["bytes_per_packet"] // 16)), r
        if r["packets"] == 1:
            e = enc1[(r["engine"], r.get("lanes"), r["bytes_per_packet"])]["cycles"]
            m = -(-r["bytes_per_packet"] // 16)
            assert e + m - 4 <= r["cycles"] <= e + m + 8, (r, e)
    assert {(r["engine"], r["op"], r["key_bits"]) for r in block} == {
        (e, op, kb) for e in rtl.CORE_NAMES for op in ("encrypt", "decrypt") for kb in (128, 192, 256)}
    for r in block:
        assert r["bytes_per_packet"] == 16 and r["packets"] == 16
        nr = NR[r["key_bits"] // 8]
        cpb = {"iter32": 4 * (nr + 1), "iter128": nr + 1, "pipe": 1}[r["engine"]]
        assert 0 < r["cycles_per_block"] <= cpb, r
        assert r["bits_per_cycle"] == pytest.approx(128 / r["cycles_per_block"], rel=1e-3)
        assert 0 < r["latency_cycles"] < 200
        # the stream: latency to fill, then one block every cycles_per_block
        assert r["cycles"] == pytest.approx(r["latency_cycles"] + 15 * r["cycles_per_block"], abs=1)
    pipe = [r for r in block if r["engine"] == "pipe"]
    assert all(r["cycles_per_block"] == 1 and r["bits_per_cycle"] == 128 for r in pipe)
    assert len({r["latency_cycles"] for r in pipe}) == 1, "pipe latency depends on key size"

    multi = [r for r in ccm if r["engine"] == "ccm-multi-pipe" and r["lanes"] == 16]
    multi2 = [r for r in ccm if r["engine"] == "ccm-multi-pipe" and r["lanes"] != 16]
    ccm = [r for r in ccm if r["engine"] != "ccm-multi-pipe"]
    # the 2-lane plain records, like-for-like figures of the 2-lane ccmp records: 1 and 8 packets
    assert {(r["lanes"], r["op"], r["key_bits"], r["bytes_per_packet"], r["packets"]) for r in multi2} == {
        (2, "ccm-encrypt", kb, n, p) for kb in (128, 192, 256) for n in (16, 64, 256, 1500) for p in (1, 8)}
    assert {(r["engine"], r["op"], r["key_bits"], r["bytes_per_packet"], r["packets"]) for r in ccm} == {
        (f"ccm-{e}", "ccm-encrypt", kb, n, p) for e in rtl.CORE_NAMES for kb in (128, 192, 256)
        for n in (16, 64, 256, 1500) for p in (1, 8)}
    assert {(r["op"], r["key_bits"], r["bytes_per_packet"], r["packets"]) for r in multi} == {
        ("ccm-encrypt", kb, n, p) for kb in (128, 192, 256) for n in (16, 64, 256, 1500) for p in (1, 8, 32, 128)}
    single = {(r["engine"], r["key_bits"], r["bytes_per_packet"]): r for r in ccm if r["packets"] == 1}
    for r in ccm:
        assert r["aad_bytes"] == 32
        assert r["bits_per_cycle"] == pytest.approx(8 * r["bytes_per_packet"] * r["packets"] / r["cycles"], rel=1e-3)
        lat = single[(r["engine"], r["key_bits"], r["bytes_per_packet"])]["latency_cycles"]
        assert r["latency_cycles"] == lat
        if r["packets"] == 1:
            assert r["cycles"] == lat
        else:  # one packet at a time: back to back costs at most the single latency each
            assert 8 * (lat - 4) <= r["cycles"] <= 8 * lat, r
        if r["engine"] == "ccm-iter128":  # steps overlap: Nr + 1 cycles per step
            step = NR[r["key_bits"] // 8] + 1
            assert 0 < lat - _ccm_steps(r["bytes_per_packet"]) * step <= 8, r
            if r["key_bits"] == 128 and r["bytes_per_packet"] == 1500:
                assert lat == 1083, r   # the documented figure (docs/mode_engine.md)
    for e in rtl.CORE_NAMES:  # more payload per packet: more bits per cycle
        for kb in (128, 192, 256):
            bpc = [single[(f"ccm-{e}", kb, n)]["bits_per_cycle"] for n in (16, 64, 256, 1500)]
            assert bpc == sorted(bpc), (e, kb, bpc)

    for r in ccm + multi + multi2:
        # blocks from the step plan: core A (B0, AAD, payload) + core B (Ctr0, payload counters)
        m = -(-r["bytes_per_packet"] // 16)
        assert r["aes_blocks"] == r["packets"] * (_ccm_steps(r["bytes_per_packet"]) + 1 + m), r
        assert r["blocks_per_clock_per_pipe"] == pytest.approx(r["aes_blocks"] / r["cycles"] / 2, rel=1e-3)
        assert 0 < r["blocks_per_clock_per_pipe"] <= 1, r   # a pipeline takes one block per clock
    msingle = {(r["key_bits"], r["bytes_per_packet"]): r for r in multi if r["packets"] == 1}
    for r in multi:
        assert r["lanes"] == 16 and r["aad_bytes"] == 32, r
        assert r["bits_per_cycle"] == pytest.approx(8 * r["bytes_per_packet"] * r["packets"] / r["cycles"], rel=1e-3)
        one = single[("ccm-pipe", r["key_bits"], r["bytes_per_packet"])]
        # a packet alone: the lane runs exactly like the single engine
        assert r["latency_cycles"] == msingle[(r["key_bits"], r["bytes_per_packet"])]["cycles"]
        assert abs(r["latency_cycles"] - one["latency_cycles"]) <= 2, (r, one)
        if r["packets"] > 1:  # packets overlap: far fewer cycles than one after another
            assert r["cycles"] < r["packets"] * one["latency_cycles"] / 4, (r, one)
    for kb in (128, 192, 256):
        eight = {(r["engine"], r["bytes_per_packet"]): r for r in ccm + multi if r["key_bits"] == kb and r["packets"] == 8}
        # 8 x 1500 B: aggregate of the multi engine above 4x the single engine on the same core
        assert eight[("ccm-multi-pipe", 1500)]["bits_per_cycle"] > 4 * eight[("ccm-pipe", 1500)]["bits_per_cycle"]
        assert eight[("ccm-multi-pipe", 1500)]["bits_per_cycle"] > eight[("ccm-iter128", 1500)]["bits_per_cycle"]
        burst = [r for r in multi if r["key_bits"] == kb and r["bytes_per_packet"] == 1500 and r["packets"] == 128]
        # 128 x 1500 B: input-rate bound is ~1 block per clock per pipeline; fill and drain
        # (one packet's serial CBC-MAC chain) cost the rest
        assert burst[0]["blocks_per_clock_per_pipe"] >= 0.85, burst


def test_bench_multi_variant():
    """`--engine multi-aes128` (aes_mode_multi, 16 lanes on AES-128 encrypt-only pipelines
    of latency 11, the build of `aesip synth` ccm-multi-pipe lanes16-aes128): CCM records
    for AES-128 keys only, every packet checked by the CLI against aesip.ref; a packet
    alone takes the single engine's step time (steps x latency + a few), a long
    burst of 1500-byte packets comes within 0.85 of one block per clock per pipeline;
    nothing else is measured."""
    need("verilator")
    p = run_cli(["bench", "--json", "--engine", "multi-aes128", "--ccm-sizes", "256,1500", "--ccm-packets", "8",
                 "--ccmp-sizes", "none", "--rekeys", "0", "--channels", "none"])
    assert p.returncode == 0, p.stderr
    recs = json.loads(p.stdout)
    for r in recs:
        for f in CONTRACT_FIELDS:
            assert f in r, (f, r)
    assert {(r["engine"], r["op"], r["key_bits"], r["bytes_per_packet"], r["packets"], r["lanes"]) for r in recs} == {
        ("ccm-multi-aes128", op, 128, n, k, 16) for n in (256, 1500)
        for op, counts in (("ccm-encrypt", (1, 8) + bench.MULTI_PACKETS), ("ccm-decrypt", (1, 8))) for k in counts}
    for r in recs:
        m = -(-r["bytes_per_packet"] // 16)
        if r["op"] == "ccm-encrypt":
            assert r["aes_blocks"] == r["packets"] * (_ccm_steps(r["bytes_per_packet"]) + 1 + m), r
        assert 0 < r["blocks_per_clock_per_pipe"] <= 1, r
        if r["packets"] == 1 and r["op"] == "ccm-encrypt":   # a step every latency = 11 clocks
            assert 0 <= r["cycles"] - 11 * _ccm_steps(r["bytes_per_packet"]) <= 12, r
    burst = [r for r in recs if r["op"] == "ccm-encrypt" and r["bytes_per_packet"] == 1500 and r["packets"] == 128]
    assert burst[0]["blocks_per_clock_per_pipe"] >= 0.85, burst


def test_bench_core_variants():
    """`--engine iter128-1st / iter128-2st / iter128-2st-enc` (aes_iter128 ROUND_STAGES 1 / 2,
    docs/iter128.md): stream records at exactly Nr cycles per block for every key size,
    latency Nr + 1 (one stage) and 2 Nr + 1 (two stages), the encrypt-only build only
    encrypt records, and a CBC serial-chain record per key size whose spacing is the
    latency plus the testbench's turnaround; nothing else is measured."""
    need("verilator")
    p = run_cli(["bench", "--json", "--engine", "iter128-1st", "--engine", "iter128-2st", "--engine",
                 "iter128-2st-enc", "--blocks", "16", "--ccm-sizes", "none", "--ccmp-sizes", "none",
                 "--rekeys", "0", "--channels", "none"])
    assert p.returncode == 0, p.stderr
    recs = json.loads(p.stdout)
    for r in recs:
        for f in CONTRACT_FIELDS:
            assert f in r, (f, r)
    ops = {"iter128-1st": ("encrypt", "decrypt", "cbc-chain"), "iter128-2st": ("encrypt", "decrypt", "cbc-chain"),
           "iter128-2st-enc": ("encrypt", "cbc-chain")}
    assert {(r["engine"], r["op"], r["key_bits"]) for r in recs} == {
        (e, op, kb) for e, o in ops.items() for op in o for kb in (128, 192, 256)}
    for r in recs:
        nr = NR[r["key_bits"] // 8]
        lat = nr + 1 if r["engine"] == "iter128-1st" else 2 * nr + 1
        assert r["latency_cycles"] == lat, r
        if r["op"] == "cbc-chain":
            assert r["packets"] == 16 and lat < r["cycles_per_block"] <= lat + 3, r
        else:
            assert r["packets"] == 16 and r["cycles_per_block"] == nr, r
        assert r["bits_per_cycle"] == pytest.approx(128 / r["cycles_per_block"], rel=1e-3)


def test_bench_iter128_r2():
    """`--engine iter128-r2` (aes_iter128 ROUNDS_PER_CLK = 2, docs/iter128.md): the bare
    core's stream records at exactly Nr / 2 cycles per block with latency Nr / 2 + 1 for
    every key size and both directions, a serial-chain record per key size, and the CCM
    records of the mode engine on two such encrypt-only cores (engine ccm-iter128-r2, every
    packet checked against the reference by the bench): a step costs Nr / 2 + 1 cycles, so
    one packet takes its steps times that plus the same few cycles as the one-round engine."""
    need("verilator")
    p = run_cli(["bench", "--json", "--engine", "iter128-r2", "--blocks", "16", "--ccm-sizes", "64,1500",
                 "--ccm-packets", "2", "--ccmp-sizes", "64", "--rekeys", "0", "--channels", "none"])
    assert p.returncode == 0, p.stderr
    recs = json.loads(p.stdout)
    core = [r for r in recs if r["engine"] == "iter128-r2"]
    ccm = [r for r in recs if r["engine"] == "ccm-iter128-r2"]
    ccmp = [r for r in recs if r["engine"] == "ccmp-iter128-r2"]
    assert len(core) + len(ccm) + len(ccmp) == len(recs)
    # ccmp_top on the same cores (every MPDU checked against the reference by the bench)
    assert {(r["op"], r["bytes_per_packet"], r["packets"]) for r in ccmp} >= {
        (op, 64, n) for op in ("ccmp-encrypt", "ccmp-decrypt") for n in (1, 2)}, ccmp
    assert {(r["op"], r["key_bits"]) for r in core} == {
        (op, kb) for op in ("encrypt", "decrypt", "cbc-chain") for kb in (128, 192, 256)}
    for r in core:
        half = NR[r["key_bits"] // 8] // 2
        assert r["latency_cycles"] == half + 1, r
        if r["op"] == "cbc-chain":
            assert half + 1 < r["cycles_per_block"] <= half + 4, r
        else:
            assert r["cycles_per_block"] == half, r
    assert {(r["op"], r["key_bits"], r["bytes_per_packet"], r["packets"]) for r in ccm if r["op"] == "ccm-encrypt"} == {
        ("ccm-encrypt", kb, n, p) for kb in (128, 192, 256) for n in (64, 1500) for p in (1, 2)}
    for r in ccm:
        if r["op"] == "ccm-encrypt" and r["packets"] == 1:
            step = NR[r["key_bits"] // 8] // 2 + 1
            assert 0 < r["latency_cycles"] - _ccm_steps(r["bytes_per_packet"]) * step <= 8, r


def test_bench_iter128_1c():
    """`--engine iter128-1c`: the CCM records of the mode engine on one shared two-stage
    encrypt-only aes_iter128 (CORES = 1, ROUND_STAGES = 2; engine ccm-iter128-1c, every
    packet checked against the reference by the bench): a step costs 2 Nr + 4 cycles
    (docs/mode_engine.md, "One core for both roles"), so one packet takes its steps times
    that plus the same few cycles as the two-core engine; no bare-core or CCMP records."""
    need("verilator")
    p = run_cli(["bench", "--json", "--engine", "iter128-1c", "--ccm-sizes", "64,1500",
                 "--ccm-packets", "2", "--ccmp-sizes", "64", "--rekeys", "0", "--channels", "none"])
    assert p.returncode == 0, p.stderr
    recs = json.loads(p.stdout)
    assert recs and all(r["engine"] == "ccm-iter128-1c" for r in recs), {r["engine"] for r in recs}
    assert {(r["op"], r["key_bits"], r["bytes_per_packet"], r["packets"]) for r in recs if r["op"] == "ccm-encrypt"} == {
        ("ccm-encrypt", kb, n, p) for kb in (128, 192, 256) for n in (64, 1500) for p in (1, 2)}
    for r in recs:
        if r["op"] == "ccm-encrypt" and r["packets"] == 1:
            step = 2 * NR[r["key_bits"] // 8] + 4
            assert 0 < r["latency_cycles"] - _ccm_steps(r["bytes_per_packet"]) * step <= 8, r


def test_bench_rekey():
    """The live-rekey record (aesip_top on aes_iter128, Verilator): keys committed over
    AXI4-Lite to the slot in use under full load, every packet checked by the CLI against
    aesip.ref under the key in force at its start. Zero loss; the dip is positive and at
    most the AES-128 key expansion, key_ready low 4 Nr + 4 = 44 clocks on aes_iter128
    (docs/iter128.md, docs/soc.md), + 2; the steady spacing is one packet's CCM steps of
    Nr + 1 clocks (docs/mode_engine.md) plus a few. `--engine iter128` still selects the
    block-core records; the table output has the rekey row too."""
    need("verilator")
    seed = str(_seed())
    p = run_cli(["bench", "--json", "--engine", "iter128", "--blocks", "2", "--ccm-sizes", "none",
                 "--ccmp-sizes", "none", "--rekeys", "10", "--seed", seed])
    assert p.returncode == 0, p.stderr
    recs = json.loads(p.stdout)
    assert {r["engine"] for r in recs if r["op"] != "rekey"} == {"iter128"}
    rk = [r for r in recs if r["op"] == "rekey"]
    assert len(rk) == 1, recs
    r = rk[0]
    for f in CONTRACT_FIELDS + ("rekeys", "packets_lost", "dip_cycles"):
        assert f in r, (f, r)
    assert r["engine"] == "top-iter128" and r["key_bits"] == 128 and r["bytes_per_packet"] == 64
    assert r["rekeys"] == 10 and r["packets"] == 5 * (10 + 2), r
    assert r["packets_lost"] == 0 and r["keys_used"] == 11, r
    assert isinstance(r["dip_cycles"], int) and r["key_expansion_cycles"] == 4 * NR[16] + 4 == 44
    assert 0 < r["dip_cycles_median"] <= r["dip_cycles"] <= r["key_expansion_cycles"] + 2, r
    assert 0 < r["steady_gap_cycles"] - _ccm_steps(64) * (NR[16] + 1) <= 8, r
    assert 0 < r["latency_cycles"] <= r["steady_gap_cycles"] + r["key_expansion_cycles"], r
    assert r["bits_per_cycle"] == pytest.approx(8 * 64 * r["packets"] / r["cycles"], rel=1e-3)
    assert r["cycles"] >= r["packets"] * r["steady_gap_cycles"], r
    from aesip import throughput
    assert throughput.bench_key(r) not in {throughput.bench_key(x) for x in recs if x is not r}
    t = run_cli(["bench", "--engine", "iter128", "--blocks", "2", "--ccm-sizes", "none", "--ccmp-sizes", "none",
                 "--rekeys", "10", "--seed", seed])
    assert t.returncode == 0, t.stderr
    row = [ln.split() for ln in t.stdout.splitlines() if ln.startswith("top-iter128 ")]
    assert row == [["top-iter128", "rekey", "128", "64", "10", "60", "0", str(r["dip_cycles"]),
                    str(r["steady_gap_cycles"]), "44", str(r["latency_cycles"]), f"{r['bits_per_cycle']:g}"]], t.stdout


def test_bench_channels():
    """Channel records (chan_engine, docs/channels.md): CBC encryption of 1504-byte
    packets on 1 and 64 channels, AES-128 on aes_pipe and TDEA on tdea_pipe, every block
    checked by the CLI against aesip.ref. One channel issues a block per trip round the
    loop (about the pipeline latency); 64 channels are more than either loop is long and
    keep the one pipeline at least 95 % full (the issue-9 target)."""
    need("verilator")
    p = run_cli(["bench", "--json", "--engine", "pipe", "--blocks", "2", "--ccm-sizes", "none", "--ccmp-sizes", "none",
                 "--rekeys", "0", "--channels", "1,64", "--seed", str(_seed())])
    assert p.returncode == 0, p.stderr
    recs = [r for r in json.loads(p.stdout) if "channels" in r]
    assert {(r["engine"], r["op"], r["channels"]) for r in recs} == {
        (e, op, c) for e, op in (("chan-pipe", "cbc-encrypt"), ("chan-tdea-pipe", "tdea-cbc-encrypt"))
        for c in (1, 64)}
    for r in recs:
        for f in CONTRACT_FIELDS + ("channels", "blocks_per_clock_per_pipe"):
            assert f in r, (f, r)
        bb = 16 if r["engine"] == "chan-pipe" else 8
        assert r["bytes_per_packet"] == 1504 and r["packets"] == r["channels"] * max(1, 8 // r["channels"])
        blocks = r["packets"] * 1504 // bb
        # the record is rounded to 4 decimals (aesip/chan_bench.py): half a unit of that
        assert r["blocks_per_clock_per_pipe"] == pytest.approx(blocks / r["cycles"], rel=1e-3, abs=5e-5)
        depth = r["pipeline_depth"]
        assert depth == (14 if bb == 16 else 51)
        # the core latency (depth, or a clock or two more), the engine's head register,
        # input buffer and output register; the first beat also waits in the head register
        # while the commands queued before it (one per channel) go first
        assert depth <= r["latency_cycles"] <= depth + 6 + (r["channels"] - 1), r
        if r["channels"] == 1:
            # one block per loop: the core latency plus 2 or 3 clocks per block
            assert 1 / (depth + 5) <= r["blocks_per_clock_per_pipe"] <= 1 / depth, r
        else:
            assert r["blocks_per_clock_per_pipe"] >= 0.95, r


def test_bench_table():
    need("icarus")
    # on Icarus with iter128 (the pipe's 16-lane CCMP bursts took 7 minutes on Icarus; the
    # table of the pipe and multi-lane records is the same code, test_bench_json checks them)
    p = run_cli(["bench", "--engine", "iter128", "--sim", "icarus", "--blocks", "4", "--ccm-sizes", "16,40",
                 "--ccm-packets", "2", "--ccmp-sizes", "16", "--channels", "none", "--rekeys", "0"])
    assert p.returncode == 0, p.stderr
    assert "iter128" in p.stdout and "latency" in p.stdout
    lines = p.stdout.splitlines()
    assert len([ln for ln in lines if ln.startswith("iter128 ")]) == 6, p.stdout      # 3 key sizes x 2 ops
    # encryptions: 3 key sizes x 2 sizes x (1, 2 packets); decryptions: AES-128 only
    assert len([ln for ln in lines if ln.startswith("ccm-iter128  ccm-encrypt ")]) == 3 * 2 * 2, p.stdout
    assert len([ln for ln in lines if ln.startswith("ccm-iter128  ccm-decrypt  128 ")]) == 2 * 2, p.stdout
    assert len([ln for ln in lines if ln.startswith("ccm-iter128 ")]) == 3 * 2 * 2 + 2 * 2, p.stdout
    # 2 ops x (1, 2 packets)
    assert len([ln for ln in lines if ln.startswith("ccmp-iter128 ")]) == 2 * 2, p.stdout
    # the cost table: ccmp-iter128 against its plain record (16 bytes: in both size lists)
    assert len([ln for ln in lines if ln.startswith("ccmp-") and " ccmp-" in ln and "%" in ln]) == 2 * 2, p.stdout


def test_ccmp_checker_catches_mismatches():
    """The checker behind the ccmp records (aesip.ccmp_bench.check, host side): results
    equal to the reference pass; a flipped output byte, a wrong PN or Key ID on a
    decryption, an error status or a flagged frame are each reported."""
    import random
    from aesip import ccmp_bench, ccmp_iface
    cmds, _meas = ccmp_bench.plan(random.Random(5), sizes=(0, 20), packets=2)
    key = bytes.fromhex(cmds[0]["key"])
    res = [{"cycle": 1}]
    for c in cmds[1:]:
        fr = []
        for f in c["frames"]:
            plain = bytes.fromhex(f["plain"])
            out = (ref.ccmp_protect(key, plain, f["pn"], f["key_id"]) if f["op"] == "ccmp-encrypt" else plain)
            fr.append({"err": ccmp_iface.ERR_OK, "out": out.hex(), "flag": 0, "pn": f["pn"] if f["op"] ==
                       "ccmp-decrypt" else 0, "key_id": f["key_id"] if f["op"] == "ccmp-decrypt" else 0})
        res.append({"frames": fr})
    n, bad = ccmp_bench.check(cmds, res)
    assert n == 2 * 2 * 3 and not bad
    enc = next(i for i, c in enumerate(cmds) if c["cmd"] == "burst" and c["frames"][0]["op"] == "ccmp-encrypt")
    dec = next(i for i, c in enumerate(cmds) if c["cmd"] == "burst" and c["frames"][0]["op"] == "ccmp-decrypt")
    for ci, field, value in ((enc, "out", None), (dec, "out", None), (dec, "pn", 1 << 40), (dec, "key_id", 9),
                             (enc, "err", ccmp_iface.ERR_AUTH), (enc, "flag", 1)):
        wrong = json.loads(json.dumps(res))
        f = wrong[ci]["frames"][0]
        if field == "out":
            b = bytearray.fromhex(f["out"])
            b[-1] ^= 1
            f["out"] = b.hex()
        else:
            f[field] = value
        _n, bad = ccmp_bench.check(cmds, wrong)
        assert len(bad) == 1 and bad[0]["command"] == ci, (field, bad)


def test_bench_ccmp():
    """The 802.11 CCMP front-end records (ccmp_top on aes_mode_engine on aes_iter128,
    every output MPDU checked by the CLI against aesip.ref's construction of the standard):
    contract fields, both ops, one MPDU alone and 8 back to back, the timing of
    docs/ccmp.md (engine: 1 + 2 AAD + m steps of Nr + 1 = 11 cycles; one MPDU alone,
    cut-through with its frame_len: the 3 header beats and at most 20 more, a decryption
    also its m release beats; back to back the receive and the release overlap the
    engine: each MPDU after the first takes the engine's steps and at most 10 cycles
    more), and the cost over the plain CCM records of the same op and 1500-byte payload
    (ccm-encrypt, store-and-forward ccm-decrypt; 32-byte AAD: one AAD block more than
    CCMP's 24) as published in docs/ccmp.md: within 2 %, under the issue's 5 %, for both
    ops alone and back to back."""
    need("verilator")
    p = run_cli(["bench", "--json", "--engine", "iter128", "--blocks", "2", "--ccm-sizes", "1500",
                 "--ccmp-sizes", "64,1500", "--channels", "none", "--rekeys", "0", "--seed", str(_seed())])
    assert p.returncode == 0, p.stderr
    recs = json.loads(p.stdout)
    ccmp = [r for r in recs if r["engine"] == "ccmp-iter128"]
    assert {(r["op"], r["bytes_per_packet"], r["packets"]) for r in ccmp} == {
        (op, n, k) for op in ("ccmp-encrypt", "ccmp-decrypt") for n in (64, 1500) for k in (1, 8)}
    lat, burst = {}, {}
    for r in ccmp:
        for f in CONTRACT_FIELDS + ("aes_blocks", "blocks_per_clock_per_pipe"):
            assert f in r, (f, r)
        assert "lanes" not in r and r["key_bits"] == 128 and r["header_bytes"] == 26
        n, m = r["bytes_per_packet"], -(-r["bytes_per_packet"] // 16)
        assert r["bits_per_cycle"] == pytest.approx(8 * n * r["packets"] / r["cycles"], rel=1e-3)
        assert r["aes_blocks"] == r["packets"] * (_ccm_steps(n, 24) + 1 + m)
        dec = r["op"] == "ccmp-decrypt"
        beats = 3    # cut-through (frame_len given): the engine starts after the header
        engine = _ccm_steps(n, 24) * (NR[16] + 1)
        assert engine + beats < r["latency_cycles"] <= engine + beats + (m if dec else 0) + 20, r
        if r["packets"] == 1:
            assert r["cycles"] == r["latency_cycles"]
            lat[(r["op"], n)] = r["latency_cycles"]
        else:
            k = r["packets"] - 1
            assert r["latency_cycles"] + k * engine <= r["cycles"] <= r["latency_cycles"] + k * (engine + 10), r
            burst[(r["op"], n)] = r["cycles"]
    assert lat[("ccmp-encrypt", 1500)] < lat[("ccmp-decrypt", 1500)]
    ccm = {(r["op"], r["packets"]): r for r in recs if r["engine"] == "ccm-iter128"
           and r["bytes_per_packet"] == 1500 and r["key_bits"] == 128}
    for op in ("encrypt", "decrypt"):
        plain1, plain8 = ccm[(f"ccm-{op}", 1)]["latency_cycles"], ccm[(f"ccm-{op}", 8)]["cycles"]
        cost = lat[(f"ccmp-{op}", 1500)] / plain1 - 1
        cost8 = burst[(f"ccmp-{op}", 1500)] / plain8 - 1
        assert -0.02 < cost < 0.02 and -0.02 < cost8 < 0.02, (op, cost, cost8)   # docs/ccmp.md, "cost"


def test_demo_small():
    """Block cores and the CCM packet mix (with tampered packets), all checked."""
    need("verilator")
    p = run_cli(["demo", "--json", "--engine", "iter128", "--kat", "some", "--random", "200",
                 "--ccm", "60", "--seed", str(_seed())])
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    core = [r for r in rows if r["engine"] == "iter128"]
    ccm = [r for r in rows if r["engine"] == "ccm-iter128"]
    assert [r["key_bits"] for r in core] == [128, 192, 256]
    assert all(r["mismatches"] == 0 and r["blocks_checked"] > 50 for r in core)
    assert ccm and ccm[-1]["size_class"] == "all" and ccm[-1]["packets"] == 60
    assert sum(r["packets"] for r in ccm[:-1]) == 60
    assert all(r["mismatches"] == 0 and r["bits_per_cycle"] > 0 and r["avg_latency_cycles"] > 0 for r in ccm)
    assert ccm[-1]["tampered_rejected"] == ccm[-1]["tampered"]


def test_demo_top():
    """`aesip demo --top`: the aesip_top scenario, every step checked by the CLI (register
    values against the build and the RDL, packets against aesip.ref); exit 0 and the key
    lines of its report."""
    need("verilator")
    p = run_cli(["demo", "--top", "--seed", str(_seed())])
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    assert "[FAIL]" not in out and "RESULT: PASS" in out, out
    from aesip import csr
    st = csr.pack("SELFTEST", **{"pass": 1}, tests=0xFF)     # the RDL's fields, NR_MAX 14: all 8 KATs
    for want in (f"SELFTEST = {st:#010x}: busy 0, pass 1, fail 0, tests 0xff", "VERSION = 0xae51",
                 "core iter128, NR_MAX 14", "SLOT[0].KEY_STATUS = 0x1 (loaded 1, pending 0)",
                 "KEY[0..7] read back: all 0", "8 equal to the reference", "0 lost or wrong", "status AUTH",
                 "AUTH_FAIL_COUNT = 1", "CTRL.zeroize written 1; first read 1", "no slot loaded",
                 "after the zeroize: status KEY", "KEY_ERR_COUNT = 1", "PKT_COUNT = 22"):
        assert want in out, (want, out)
    assert len([ln for ln in out.splitlines() if ln.startswith("[ok] ")]) == 22, out


# --------------------------------------------------------------------------- 802.16e (wimax)
def test_parse_wimax():
    """The wimax ops: fields decoded, PN checked against its 32-bit field, everything else
    (header, lengths, key length) left to the hardware; unknown ops still fatal."""
    from aesip import families, wimax_run

    def parse(obj):
        return runreq.parse_line(json.dumps(obj), 1, families.JOB_OF)

    k = "00" * 16
    r = parse({"op": "wimax-encrypt", "key": k, "pdu": "0000", "pn": 7})
    assert r.error is None and (r.job.pdu, r.job.pn) == (bytes(2), 7)
    assert parse({"op": "wimax-decrypt", "key": k, "pdu": ""}).error is None
    assert parse({"op": "wimax-encrypt", "key": "00" * 5, "pdu": "", "pn": 0}).error is None   # hardware: KEY
    for pn, e in ((-1, "invalid: pn does not fit in 32 bits"), (1 << 32, "invalid: pn does not fit in 32 bits"),
                  ("1", "invalid: pn not an integer"), (True, "invalid: pn not an integer")):
        assert parse({"op": "wimax-encrypt", "key": k, "pdu": "", "pn": pn}).error == e
    assert parse({"op": "wimax-encrypt", "key": k, "pdu": ""}).error == "invalid: missing pn"
    assert parse({"op": "wimax-decrypt", "key": k}).error == "invalid: missing pdu"
    assert parse({"op": "wimax-decrypt", "key": "00" * 33, "pdu": ""}).error == "invalid: key length"
    assert parse({"op": "wimax-decrypt", "key": k, "pdu": "0x"}).error == "invalid: pdu not hex"
    # key slots: least recently used reloaded
    jobs = [wimax_run.WimaxJob("wimax-encrypt", bytes([i]) * 16, b"") for i in (1, 2, 1, 3, 4, 5, 1)]
    cmds, where = wimax_run.plan(jobs)
    assert [c["cmd"] for c in cmds].count("key") == 5
    assert all(cmds[w]["cmd"] == "pdu" for w in where)
    assert cmds[where[6]]["slot"] == cmds[where[0]]["slot"]


@pytest.mark.parametrize("simulator,engine", [("icarus", "iter128"), ("verilator", "multi")])
def test_run_wimax(simulator, engine):
    """`aesip run` with the wimax ops against the testbench's own 802.16e construction
    (tb/proto/test_wimax_top.py: header, HCS, cryptography's AESCCM): random PDUs encrypted
    and decrypted with three keys, malformed PDUs and a failed ICV answered with the
    contract's errors from the hardware status, each followed by a good request, an AES op
    in the same run, `id` copied. `--engine multi` runs the front end on aes_mode_multi (aes_pipe)."""
    from tb.proto.test_wimax_top import gmh, fields, protect, random_pdu

    need(simulator)
    rng = random.Random(_seed())
    keys = [rng.randbytes(16) for _ in range(3)]
    reqs, exp = [], []
    for i in range(8):
        key = keys[i % 3]
        pdu = random_pdu(rng, rng.choice([0, 1, 16, 37, rng.randrange(300)]))
        pn = rng.getrandbits(32)
        prot = protect(key, pdu, pn)
        reqs.append({"op": "wimax-encrypt", "key": key.hex(), "pdu": pdu.hex(), "pn": pn, "id": i})
        exp.append({"id": i, "pdu": prot.hex()})
        reqs.append({"op": "wimax-decrypt", "key": key.hex(), "pdu": prot.hex()})
        exp.append({"pdu": pdu.hex(), "pn": pn})
    good = random_pdu(rng, 20, ci=1)
    prot = protect(keys[0], good, 5)
    flipped = bytearray(prot)
    flipped[-1] ^= 4
    ec_set = gmh(**dict(fields(good[:6]), ec=1)) + good[6:]
    bad = [
        ({"op": "wimax-encrypt", "key": keys[0].hex(), "pdu": good[:4].hex(), "pn": 1},
         "invalid: PDU shorter than the generic MAC header"),
        ({"op": "wimax-encrypt", "key": keys[0].hex(), "pdu": ec_set.hex(), "pn": 1}, "invalid: EC bit"),
        ({"op": "wimax-encrypt", "key": keys[0].hex(), "pdu": (good + b"\0").hex(), "pn": 1},
         "invalid: LEN disagrees with the PDU length"),
        ({"op": "wimax-decrypt", "key": keys[0].hex(), "pdu": (prot[:5] + bytes([prot[5] ^ 1]) + prot[6:]).hex()},
         "invalid: HCS does not check"),
        ({"op": "wimax-decrypt", "key": keys[0].hex(), "pdu": bytes(flipped).hex()}, "auth"),
        ({"op": "wimax-decrypt", "key": keys[1].hex(), "pdu": prot.hex()}, "auth"),
        ({"op": "wimax-encrypt", "key": rng.randbytes(20).hex(), "pdu": good.hex(), "pn": 1}, "invalid: key length"),
        ({"op": "wimax-encrypt", "key": keys[0].hex(), "pdu": good.hex(), "pn": -1},
         "invalid: pn does not fit in 32 bits"),
    ]
    for r, e in bad:
        reqs.append(r)
        exp.append({"error": e})
        reqs.append({"op": "wimax-decrypt", "key": keys[0].hex(), "pdu": prot.hex()})
        exp.append({"pdu": good.hex(), "pn": 5})
    key = rng.randbytes(16)
    msg = rng.randbytes(32)
    reqs.insert(3, {"op": "encrypt", "key": key.hex(), "msg": msg.hex()})
    exp.insert(3, {"ct": enc(key, msg)})
    p = run_cli(["run", "--engine", engine, "--sim", simulator], jsonl(reqs))
    assert p.returncode == 0, p.stderr
    assert out_lines(p) == exp


# --------------------------------------------------------------------------- TDEA ops
def _des3(key: bytes, iv: bytes | None, data: bytes, dec: bool) -> bytes:
    """pycryptodome's DES3 (independent of the RTL and of aesip.ref's `cryptography`);
    16-byte keys are keying option 2 (K3 = K1), expanded to 24 bytes here."""
    from Crypto.Cipher import DES3

    k = key + key[:8] if len(key) == 16 else key
    c = DES3.new(k, DES3.MODE_ECB) if iv is None else DES3.new(k, DES3.MODE_CBC, iv=iv)
    return c.decrypt(data) if dec else c.encrypt(data)


def _tdea_key(rng: random.Random, n: int) -> bytes:
    """A random TDEA key of n bytes (16 or 24) whose DES keys differ pairwise, as
    pycryptodome requires (it refuses keys that degenerate to single DES)."""
    while True:
        k = rng.randbytes(n)
        parts = {bytes(b & 0xFE for b in k[i:i + 8]) for i in range(0, n, 8)}
        if len(parts) == n // 8:
            return k


def test_parse_tdea_requests():
    """The TDEA ops' fields: passed through to the engine, refused only when they cannot
    be encoded (key longer than the 192-bit key port, IV not 8 bytes)."""
    from aesip import families

    def parse(obj):
        return runreq.parse_line(json.dumps(obj), 1, families.JOB_OF)

    k = "00" * 24
    for ok in ({"op": "tdea-encrypt", "key": k, "msg": "00" * 3}, {"op": "tdea-decrypt", "key": "00" * 20, "ct": ""},
               {"op": "tdea-cbc-encrypt", "key": "00" * 16, "iv": "00" * 8, "msg": "00" * 8}):
        assert parse(ok).error is None, ok
    r = parse({"op": "tdea-cbc-decrypt", "key": k, "iv": "01" * 8, "ct": "ab" * 8})
    assert r.job.packet(2) == {"cmd": "pkt", "op": "tdea-cbc-decrypt", "slot": 2, "iv": "01" * 8, "nonce_len": 0,
                               "aad": "", "data": "ab" * 8, "tag_len": 0, "rtag": "", "cut": False}
    assert parse({"op": "tdea-encrypt", "key": "00" * 25, "msg": ""}).error == "invalid: key length"
    assert parse({"op": "tdea-cbc-encrypt", "key": k, "iv": "00" * 16, "msg": ""}).error == "invalid: iv length"
    assert parse({"op": "tdea-cbc-encrypt", "key": k, "msg": ""}).error == "invalid: missing iv"
    assert parse({"op": "tdea-decrypt", "key": k, "msg": ""}).error == "invalid: missing ct"
    assert parse({"op": "tdea-encrypt", "key": "0x", "msg": ""}).error == "invalid: key not hex"


@pytest.mark.parametrize("engine,simulator", [("pipe", "verilator"), ("iter128", "icarus"), ("multi", "verilator")])
def test_run_tdea(engine, simulator):
    """The four TDEA ops through `aesip run` (tdea_mode_engine on tdea_pipe for
    --engine pipe, on tdea_iter for iter128; --engine multi: chan_engine, every request
    on its own channel, all in flight together), both keying options, more keys than key
    slots, AES requests mixed in (outputs in input order), each hardware error followed
    by a good request: key of 20 or 8 bytes (KEY), payload not whole 8-byte blocks
    (LENGTH). Expected values from pycryptodome."""
    need(simulator)
    rng = random.Random(_seed())
    keys = [_tdea_key(rng, n) for n in (24, 16, 24, 16, 24, 16)]
    reqs, exp = [], []
    for i in range(14):
        key = keys[i % len(keys)]
        op = ["tdea-encrypt", "tdea-decrypt", "tdea-cbc-encrypt", "tdea-cbc-decrypt"][i % 4]
        data = rng.randbytes(8 * rng.choice((0, 1, 3, 9)))
        dec = op.endswith("decrypt")
        r = {"op": op, "key": key.hex(), ("ct" if dec else "msg"): data.hex(), "id": i}
        iv = None
        if "cbc" in op:
            iv = rng.randbytes(8)
            r["iv"] = iv.hex()
        reqs.append(r)
        exp.append({"id": i, ("msg" if dec else "ct"): _des3(key, iv, data, dec).hex()})
        if i == 5:
            k, m = rng.randbytes(16), rng.randbytes(16)
            reqs.append({"op": "encrypt", "key": k.hex(), "msg": m.hex()})
            exp.append({"ct": enc(k, m)})
    good_key, m = keys[0], rng.randbytes(16)
    good = ({"op": "tdea-encrypt", "key": good_key.hex(), "msg": m.hex()}, {"ct": _des3(good_key, None, m, False).hex()})
    for bad, e in (({"op": "tdea-encrypt", "key": rng.randbytes(20).hex(), "msg": m.hex()}, "invalid: key length"),
                   ({"op": "tdea-cbc-decrypt", "key": rng.randbytes(8).hex(), "iv": "00" * 8, "ct": ""},
                    "invalid: key length"),
                   ({"op": "tdea-decrypt", "key": good_key.hex(), "ct": rng.randbytes(12).hex()}, "invalid: length"),
                   ({"op": "tdea-cbc-encrypt", "key": good_key.hex(), "iv": "00" * 8, "msg": "00"},
                    "invalid: length")):
        reqs += [bad, good[0]]
        exp += [{"error": e}, good[1]]
    p = run_cli(["run", "--engine", engine, "--sim", simulator], jsonl(reqs))
    assert p.returncode == 0, p.stderr
    assert out_lines(p) == exp


# --------------------------------------------------------------------------- 802.11 CCMP
def test_parse_ccmp():
    """The ccmp ops: fields decoded, PN checked against its 48-bit field and Key ID against
    its 2-bit field, everything else (header, lengths, key length) left to the hardware."""
    from aesip import ccmp_run, families

    def parse(obj):
        return runreq.parse_line(json.dumps(obj), 1, families.JOB_OF)

    k = "00" * 16
    r = parse({"op": "ccmp-encrypt", "key": k, "mpdu": "0000", "pn": 7, "key_id": 3})
    assert r.error is None and (r.job.mpdu, r.job.pn, r.job.key_id) == (bytes(2), 7, 3)
    r = parse({"op": "ccmp-encrypt", "key": k, "mpdu": "", "pn": (1 << 48) - 1})
    assert r.error is None and r.job.key_id == 0
    assert parse({"op": "ccmp-decrypt", "key": k, "mpdu": ""}).error is None
    assert parse({"op": "ccmp-encrypt", "key": "00" * 5, "mpdu": "", "pn": 0}).error is None   # hardware: KEY
    for pn, e in ((-1, "invalid: pn does not fit in 48 bits"), (1 << 48, "invalid: pn does not fit in 48 bits"),
                  ("1", "invalid: pn not an integer"), (True, "invalid: pn not an integer")):
        assert parse({"op": "ccmp-encrypt", "key": k, "mpdu": "", "pn": pn}).error == e
    for kid, e in ((4, "invalid: key_id does not fit in 2 bits"), (-1, "invalid: key_id does not fit in 2 bits"),
                   (1.0, "invalid: key_id not an integer")):
        assert parse({"op": "ccmp-encrypt", "key": k, "mpdu": "", "pn": 1, "key_id": kid}).error == e
    assert parse({"op": "ccmp-encrypt", "key": k, "mpdu": ""}).error == "invalid: missing pn"
    assert parse({"op": "ccmp-decrypt", "key": k}).error == "invalid: missing mpdu"
    assert parse({"op": "ccmp-decrypt", "key": "00" * 33, "mpdu": ""}).error == "invalid: key length"
    assert parse({"op": "ccmp-decrypt", "key": k, "mpdu": "0x"}).error == "invalid: mpdu not hex"
    jobs = [ccmp_run.CcmpJob("ccmp-decrypt", bytes([i]) * 16, b"") for i in (1, 2, 1, 3, 4, 5, 1)]
    cmds, where = ccmp_run.plan(jobs)
    assert [c["cmd"] for c in cmds].count("key") == 5
    assert all(cmds[w]["cmd"] == "mpdu" for w in where)
    assert cmds[where[6]]["slot"] == cmds[where[0]]["slot"]


def test_run_ccmp():
    """`aesip run` with the ccmp ops against the testbench's own 802.11 construction
    (tb/proto/test_ccmp_top.py: header parser, AAD/nonce, cryptography's AESCCM): random
    MPDUs of every shape encrypted and decrypted with three keys; malformed MPDUs, a failed
    MIC and replays answered with the contract's errors, each followed by a good request;
    a key evicted and reloaded clears its counters; an AES op in the same run; `id` copied."""
    from tb.proto.test_ccmp_top import parse, protect, random_mpdu

    need("verilator")
    rng = random.Random(_seed())
    keys = [rng.randbytes(16) for _ in range(3)]
    reqs, exp = [], []
    pn = rng.getrandbits(40)
    for i in range(8):
        key = keys[i % 3]
        m = random_mpdu(rng, rng.choice([0, 1, 16, 37, rng.randrange(300)]))
        pn += 1 + rng.randrange(100)
        kid = rng.randrange(4)
        prot = protect(key, m, pn, kid)
        reqs.append({"op": "ccmp-encrypt", "key": key.hex(), "mpdu": m.hex(), "pn": pn, "key_id": kid, "id": i})
        exp.append({"id": i, "mpdu": prot.hex()})
        reqs.append({"op": "ccmp-decrypt", "key": key.hex(), "mpdu": prot.hex()})
        exp.append({"mpdu": m.hex(), "pn": pn, "key_id": kid})
    good = random_mpdu(rng, 20, "qos", tid=3)
    pn_g = pn + 1000

    def fresh():
        nonlocal pn_g
        pn_g += 1
        return protect(keys[0], good, pn_g), pn_g

    prot, p0 = fresh()
    # the failing frames carry a PN above every accepted one (else they are replays)
    high = protect(keys[0], good, pn_g + (1 << 30))
    flipped = bytearray(high)
    flipped[-1] ^= 4
    no_extiv = bytearray(high)
    no_extiv[parse(good)["hlen"] + 3] &= 0xDF
    bad = [
        ({"op": "ccmp-encrypt", "key": keys[0].hex(), "mpdu": good[:20].hex(), "pn": 1}, "invalid: MPDU too short"),
        ({"op": "ccmp-encrypt", "key": keys[0].hex(), "mpdu": prot.hex(), "pn": 1}, "invalid: Protected bit"),
        ({"op": "ccmp-decrypt", "key": keys[0].hex(), "mpdu": bytes(no_extiv).hex()}, "invalid: ExtIV clear"),
        ({"op": "ccmp-decrypt", "key": keys[0].hex(), "mpdu": bytes(flipped).hex()}, "auth"),
        ({"op": "ccmp-decrypt", "key": keys[1].hex(), "mpdu": high.hex()}, "auth"),
        ({"op": "ccmp-encrypt", "key": rng.randbytes(20).hex(), "mpdu": good.hex(), "pn": 1}, "invalid: key length"),
        ({"op": "ccmp-encrypt", "key": keys[0].hex(), "mpdu": good.hex(), "pn": 1 << 48},
         "invalid: pn does not fit in 48 bits"),
    ]
    for r, e in bad:
        reqs.append(r)
        exp.append({"error": e})
        prot, pn_now = fresh()
        reqs.append({"op": "ccmp-decrypt", "key": keys[0].hex(), "mpdu": prot.hex()})
        exp.append({"mpdu": good.hex(), "pn": pn_now, "key_id": 0})
    # replays: the same frame again, then an older PN
    reqs.append({"op": "ccmp-decrypt", "key": keys[0].hex(), "mpdu": prot.hex()})
    exp.append({"error": "replay"})
    reqs.append({"op": "ccmp-decrypt", "key": keys[0].hex(), "mpdu": protect(keys[0], good, p0).hex()})
    exp.append({"error": "replay"})
    # four other keys evict keys[0] from the 4 slots; reloaded, its counters are clear
    for k in (rng.randbytes(16) for _ in range(4)):
        m = random_mpdu(rng, 5)
        reqs.append({"op": "ccmp-encrypt", "key": k.hex(), "mpdu": m.hex(), "pn": 9})
        exp.append({"mpdu": protect(k, m, 9).hex()})
    reqs.append({"op": "ccmp-decrypt", "key": keys[0].hex(), "mpdu": prot.hex()})
    exp.append({"mpdu": good.hex(), "pn": pn_g, "key_id": 0})
    key = rng.randbytes(16)
    msg = rng.randbytes(32)
    reqs.insert(3, {"op": "encrypt", "key": key.hex(), "msg": msg.hex()})
    exp.insert(3, {"ct": enc(key, msg)})
    p = run_cli(["run", "--engine", "iter128", "--sim", "verilator"], jsonl(reqs))
    assert p.returncode == 0, p.stderr
    assert out_lines(p) == exp


# --------------------------------------------------------------------------- 802.15.4 CCM* (wpan)
def test_parse_wpan():
    """The wpan ops: fields decoded, `src_addr` checked against its 64-bit field (8 bytes),
    everything else (frame parsing, lengths, key length, a missing src_addr) left to the
    hardware."""
    from aesip import families, wpan_run

    def parse(obj):
        return runreq.parse_line(json.dumps(obj), 1, families.JOB_OF)

    k = "00" * 16
    r = parse({"op": "wpan-encrypt", "key": k, "frame": "0000", "src_addr": "acde480000000001"})
    assert r.error is None and (r.job.frame, r.job.src_addr) == (bytes(2), bytes.fromhex("acde480000000001"))
    r = parse({"op": "wpan-decrypt", "key": k, "frame": ""})
    assert r.error is None and r.job.src_addr is None
    assert parse({"op": "wpan-encrypt", "key": "00" * 5, "frame": ""}).error is None   # hardware: KEY
    for src, e in (("acde4800000001", "invalid: src_addr not 8 bytes"), ("00" * 9, "invalid: src_addr not 8 bytes"),
                   ("xyz", "invalid: src_addr not hex"), (7, "invalid: src_addr not hex")):
        assert parse({"op": "wpan-encrypt", "key": k, "frame": "", "src_addr": src}).error == e
    assert parse({"op": "wpan-decrypt", "key": k}).error == "invalid: missing frame"
    assert parse({"op": "wpan-decrypt", "key": "00" * 33, "frame": ""}).error == "invalid: key length"
    assert parse({"op": "wpan-decrypt", "key": k, "frame": "0x"}).error == "invalid: frame not hex"
    jobs = [wpan_run.WpanJob("wpan-decrypt", bytes([i]) * 16, b"") for i in (1, 2, 1, 3, 4, 5, 1)]
    cmds, where = wpan_run.plan(jobs)
    assert [c["cmd"] for c in cmds].count("key") == 5
    assert all(cmds[w]["cmd"] == "frame" for w in where)
    assert cmds[where[6]]["slot"] == cmds[where[0]]["slot"]
    c = wpan_run._frame_cmd(wpan_run.WpanJob("wpan-encrypt", bytes(16), b"", bytes.fromhex("acde480000000001")), 2)
    assert (c["src_valid"], c["src_addr"], c["slot"]) == (1, 0xACDE480000000001, 2)


@pytest.mark.parametrize("simulator,engine", [("verilator", "iter128"), ("verilator", "iter32"),
                                              ("verilator", "pipe"), ("verilator", "multi"),
                                              ("icarus", "iter128")])
def test_run_wpan(simulator, engine):
    """`aesip run` with the wpan ops against the testbench's own 802.15.4 construction
    (tb/proto/test_wpan_top.py: frame parser and builder, cryptography's AESCCM and AES-CTR):
    the IEEE 802.15.4-2006 Annex C data and command frames; random frames of both versions
    and every level encrypted and decrypted with three keys, with `src_addr` where the
    frame carries no extended source address; malformed frames, a missing src_addr and
    failed MICs answered with the contract's errors from the hardware status, each followed
    by a good request; an AES op in the same run; `id` copied; on every engine."""
    from tb.proto.test_wpan_top import KAT_KEY, KATS, build, secure

    need(simulator)
    rng = random.Random(_seed())
    keys = [rng.randbytes(16) for _ in range(3)]
    reqs, exp = [], []
    for name, clear, secured in KATS:
        reqs.append({"op": "wpan-encrypt", "key": KAT_KEY.hex(), "frame": clear, "id": name})
        exp.append({"id": name, "frame": secured})
        reqs.append({"op": "wpan-decrypt", "key": KAT_KEY.hex(), "frame": secured})
        exp.append({"frame": clear})

    def req(op, key, frame, src, **kw):
        r = {"op": op, "key": key.hex(), "frame": frame.hex(), **kw}
        if src is not None:
            r["src_addr"] = src.hex()
        return r

    for i in range(10):
        key = keys[i % 3]
        f, src = build(rng, ver=1 + i % 2, level=1 + i % 7, plen=rng.choice([0, 1, 16, 37, rng.randrange(200)]))
        s = secure(key, f, src)
        reqs.append(req("wpan-encrypt", key, f, src, id=i))
        exp.append({"id": i, "frame": s.hex()})
        reqs.append(req("wpan-decrypt", key, s, src))
        exp.append({"frame": f.hex()})
    good, gsrc = build(rng, ver=2, cmd=False, dam=2, sam=2, level=7, plen=20)
    sgood = secure(keys[0], good, gsrc)
    flipped = bytearray(sgood)
    flipped[-1] ^= 4
    v0 = bytes([good[0], good[1] & 0xCF]) + good[2:]
    no_sec = bytes([good[0] & 0xF7]) + good[1:]
    bad = [
        (req("wpan-encrypt", keys[0], good[:4], gsrc), "invalid: frame too short"),
        (req("wpan-encrypt", keys[0], v0, gsrc), "invalid: frame version not 1 or 2"),
        (req("wpan-encrypt", keys[0], no_sec, gsrc), "invalid: Security Enabled clear"),
        (req("wpan-encrypt", keys[0], good, None),
         "invalid: missing src_addr (the frame carries no extended source address)"),
        (req("wpan-decrypt", keys[0], bytes(flipped), gsrc), "auth"),
        (req("wpan-decrypt", keys[1], sgood, gsrc), "auth"),
        (req("wpan-decrypt", keys[0], sgood, bytes(8)), "auth"),
        (req("wpan-encrypt", rng.randbytes(20), good, gsrc), "invalid: key length"),
        (req("wpan-encrypt", keys[0], good, gsrc[:7]), "invalid: src_addr not 8 bytes"),
    ]
    for r, e in bad:
        reqs.append(r)
        exp.append({"error": e})
        reqs.append(req("wpan-decrypt", keys[0], sgood, gsrc))
        exp.append({"frame": good.hex()})
    key = rng.randbytes(16)
    msg = rng.randbytes(32)
    reqs.insert(3, {"op": "encrypt", "key": key.hex(), "msg": msg.hex()})
    exp.insert(3, {"ct": enc(key, msg)})
    p = run_cli(["run", "--engine", engine, "--sim", simulator], jsonl(reqs))
    assert p.returncode == 0, p.stderr
    assert out_lines(p) == exp
