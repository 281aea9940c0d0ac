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

from aesip import ref, rtl, runreq, sim
from aesip.bench import verify

ROOT = rtl.ROOT
TIMEOUT = 900
NR = {16: 10, 24: 12, 32: 14}


def _seed() -> int:
    s = int(os.environ.get("AESIP_SEED") or random.SystemRandom().randrange(2**32))
    print(f"seed {s} (replay with AESIP_SEED={s})")
    return s


def aesip_cmd() -> list[str]:
    script = Path(sys.executable).parent / "aesip"
    return [str(script)] if script.exists() else [sys.executable, "-m", "aesip.cli"]


def run_cli(args: list[str], stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e.pop("PYTEST_CURRENT_TEST", None)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    e.update(env or {})
    return subprocess.run(aesip_cmd() + args, input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=e, timeout=TIMEOUT)


def jsonl(reqs: list) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in reqs)


def out_lines(p: subprocess.CompletedProcess) -> list[dict]:
    """stdout must hold nothing but JSON objects, one per line."""
    lines = p.stdout.splitlines()
    objs = [json.loads(ln) for ln in lines]
    assert all(isinstance(o, dict) for o in objs), p.stdout
    return objs


def need(simulator: str):
    if not sim.available(simulator):
        pytest.skip(f"{simulator} not installed")


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
    assert p.requests[2].error == "invalid: op not supported by this engine"
    assert p.fatal is not None and p.fatal.lineno == 5 and "frob" in p.fatal.message
    for bad in ("{", "[1, 2]", '"x"', "{}", '{"op": 3}', b"\xff\xfe"):
        p = runreq.parse_lines(['{"op": "encrypt", "key": "00", "msg": ""}', bad])
        assert len(p.requests) == 1 and p.fatal is not None and p.fatal.lineno == 2, bad
    r = runreq.parse_line('{"op": "encrypt", "key": "0011 ", "msg": ""}', 1)
    assert r.error == "invalid: key not hex"
    r = runreq.parse_line('{"op": "encrypt", "key": "00", "msg": "00"}', 1)
    assert r.error == "invalid: message length"
    r = runreq.parse_line('{"op": "encrypt", "key": "' + "00" * 33 + '", "msg": ""}', 1)
    assert r.error == "invalid: key length"
    r = runreq.parse_line('{"op": "encrypt", "key": "' + "00" * 20 + '", "msg": ""}', 1)
    assert r.error is None and len(r.job.key) == 20  # left to the hardware


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


# --------------------------------------------------------------------------- run
@pytest.mark.parametrize("engine", rtl.ENGINES)
def test_run_engine(engine):
    """encrypt/decrypt with every key size, several keys interleaved (slot reuse and
    eviction), multi-block messages, a 20-byte key answered by the hardware as invalid
    with the next request still right, and `id` copied. Default simulator (Verilator)."""
    need("verilator")
    rng = random.Random(_seed())
    keys = [rng.randbytes(n) for n in (16, 24, 32, 16, 32)]
    reqs, exp = [], []
    for i in range(14):
        key = keys[rng.randrange(len(keys))]
        msg = rng.randbytes(16 * rng.randint(1, 3))
        if i % 2:
            reqs.append({"op": "decrypt", "key": key.hex(), "ct": msg.hex(), "id": i})
            exp.append({"id": i, "msg": ref.ecb_decrypt(key, msg).hex()})
        else:
            reqs.append({"op": "encrypt", "key": key.hex(), "msg": msg.hex(), "id": i})
            exp.append({"id": i, "ct": enc(key, msg)})
        if i == 6:
            reqs.append({"op": "encrypt", "key": rng.randbytes(20).hex(), "msg": msg.hex(), "id": "bad"})
            exp.append({"id": "bad", "error": "invalid: key length"})
    p = run_cli(["run", "--engine", engine], jsonl(reqs))
    assert p.returncode == 0, p.stderr
    assert out_lines(p) == exp


def test_run_invalid_requests_icarus():
    """Everything refused per line, each followed by a good request that must still be
    right; unsupported (known) ops answered per line; --sim icarus; -i/-o files."""
    need("icarus")
    rng = random.Random(_seed())
    k = rng.randbytes(16)
    m = rng.randbytes(32)
    good = {"op": "encrypt", "key": k.hex(), "msg": m.hex()}
    good_exp = {"ct": enc(k, m)}
    cases = [
        ({"op": "encrypt", "key": rng.randbytes(20).hex(), "msg": m.hex()}, "invalid: key length"),
        ({"op": "decrypt", "key": rng.randbytes(15).hex(), "ct": m.hex()}, "invalid: key length"),
        ({"op": "encrypt", "key": "", "msg": m.hex()}, "invalid: key length"),
        ({"op": "encrypt", "key": rng.randbytes(20).hex(), "msg": ""}, "invalid: key length"),
        ({"op": "encrypt", "key": rng.randbytes(33).hex(), "msg": m.hex()}, "invalid: key length"),
        ({"op": "encrypt", "key": "xy" * 16, "msg": m.hex()}, "invalid: key not hex"),
        ({"op": "encrypt", "key": k.hex()[:-1], "msg": m.hex()}, "invalid: key not hex"),
        ({"op": "encrypt", "key": k.hex(), "msg": "0q" * 16}, "invalid: msg not hex"),
        ({"op": "decrypt", "key": k.hex(), "ct": 1234}, "invalid: ct not hex"),
        ({"op": "encrypt", "msg": m.hex()}, "invalid: missing key"),
        ({"op": "encrypt", "key": k.hex()}, "invalid: missing msg"),
        ({"op": "decrypt", "key": k.hex(), "msg": m.hex()}, "invalid: missing ct"),
        ({"op": "encrypt", "key": k.hex(), "msg": m.hex()[:-2]}, "invalid: message length"),
        ({"op": "decrypt", "key": k.hex(), "ct": m.hex() + "00"}, "invalid: message length"),
    ]
    for op in ("cbc-encrypt", "cbc-decrypt", "ctr", "ccm-encrypt", "ccm-decrypt"):
        cases.append(({"op": op, "key": k.hex(), "iv": bytes(16).hex(), "msg": m.hex()},
                      "invalid: op not supported by this engine"))
    reqs, exp = [], []
    for n, (req, err) in enumerate(cases):
        reqs += [dict(req, id=n), good]
        exp += [{"id": n, "error": err}, good_exp]
    # an empty message with a legal key is fine
    reqs.append({"op": "decrypt", "key": rng.randbytes(24).hex(), "ct": ""})
    exp.append({"msg": ""})
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
                            {"error": "invalid: op not supported by this engine"},
                            {"id": 3, "msg": ref.ecb_decrypt(k, m).hex()}]
    assert "line 4" in p.stderr and what in p.stderr, p.stderr


# --------------------------------------------------------------------------- bench, demo
def test_bench_json():
    """Contract fields, sane values, each core's documented throughput (docs/cores.md)."""
    need("verilator")
    p = run_cli(["bench", "--json", "--blocks", "16"])
    assert p.returncode == 0, p.stderr
    recs = json.loads(p.stdout)
    assert {(r["engine"], r["op"], r["key_bits"]) for r in recs} == {
        (e, op, kb) for e in rtl.ENGINES for op in ("encrypt", "decrypt") for kb in (128, 192, 256)}
    for r in recs:
        for f in ("engine", "op", "key_bits", "bytes_per_packet", "packets", "cycles", "bits_per_cycle",
                  "latency_cycles"):
            assert f in r, (f, r)
        assert r["bytes_per_packet"] == 16 and r["packets"] == 16
        nr = NR[r["key_bits"] // 8]
        cpb = {"iter32": 4 * (nr + 1), "iter128": nr + 1, "pipe": 1}[r["engine"]]
        assert 0 < r["cycles_per_block"] <= cpb, r
        assert r["bits_per_cycle"] == pytest.approx(128 / r["cycles_per_block"], rel=1e-3)
        assert 0 < r["latency_cycles"] < 200
        # the stream: latency to fill, then one block every cycles_per_block
        assert r["cycles"] == pytest.approx(r["latency_cycles"] + 15 * r["cycles_per_block"], abs=1)
    pipe = [r for r in recs if r["engine"] == "pipe"]
    assert all(r["cycles_per_block"] == 1 and r["bits_per_cycle"] == 128 for r in pipe)
    assert len({r["latency_cycles"] for r in pipe}) == 1, "pipe latency depends on key size"


def test_bench_table():
    need("icarus")
    p = run_cli(["bench", "--engine", "pipe", "--sim", "icarus", "--blocks", "4"])
    assert p.returncode == 0, p.stderr
    assert "pipe" in p.stdout and "latency" in p.stdout
    assert len([ln for ln in p.stdout.splitlines() if ln.startswith("pipe ")]) == 6


def test_demo_small():
    need("verilator")
    p = run_cli(["demo", "--json", "--engine", "iter128", "--kat", "some", "--random", "200",
                 "--seed", str(_seed())])
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    assert [r["key_bits"] for r in rows] == [128, 192, 256]
    assert all(r["mismatches"] == 0 and r["blocks_checked"] > 50 for r in rows)
