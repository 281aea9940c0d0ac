# SPDX-License-Identifier: Apache-2.0
"""`aesip demo` (what `make demo` runs): an embedded workload through every core, then a
packet mix through the CCM mode engine.

Part 1 -- for each core (`--engine`, default all), one simulation (Verilator by default)
of the bare core runs:
  1. NIST CAVP ECB records (GFSbox, KeySbox, VarKey, VarTxt, MMT; 128/192/256; encrypt
     and decrypt) from `cryptography_vectors`: all 2138 by default (`--kat some`: every
     4th);
  2. `--random` N random blocks: both key slots hold random keys of random sizes, every
     block picks a random slot and direction, and a random slot is rekeyed (new random
     size) between bursts of 50..300 blocks;
  3. a throughput/latency measurement per key size and direction (as `aesip bench`).
Every output block is compared bit-exactly with aesip.ref (OpenSSL via `cryptography`),
and the NIST records also with their published values.

Part 2 -- `--ccm` N packets (default 400; 0 skips it) through aes_mode_engine built on
`--ccm-core` (default iter128), in one simulation, streamed back to back: payloads of
16..1500 bytes (an IMIX-like mix of small, medium and full-size frames), 0..32 bytes of
random AAD, nonces of 7..13 bytes (mostly 13), tags of 4..16 bytes (mostly 8); the four
key slots hold keys of all three sizes and a random slot is rekeyed with a key of a
random size every 30..60 packets. Half of the packets are CCM encryptions, half
decryption-verifications (store-and-forward) of ciphertexts made by aesip.ref, of which
one in five is tampered with (one bit flipped in the ciphertext, tag, AAD or nonce) and
must be rejected with the AUTH status and no plaintext. Every result is compared with
aesip.ref. Printed per payload size class: packets, verified throughput (payload bits
per clock of engine occupancy: from the packet's command handshake to its last result,
or to the next command handshake if that came first) and average latency (command
handshake to last result: status, or last output beat).

Exits 1 if any block or packet differs from the reference.
"""
from __future__ import annotations

import json
import os
import random
import sys
import time
from collections import Counter

from aesip import iface, ref, rtl, session, vectors
from aesip.bench import bench_commands, bench_records, verify
from aesip.errors import UsageError
from aesip.planner import BlockPlanner

BENCH_BLOCKS = 32
SIZES = (16, 24, 32)
NSLOTS = 2  # key slots of the bare cores (SLOT_W = 1)


def kat_records(which: str) -> list[dict]:
    if which == "none":
        return []
    recs = vectors.aes_ecb_records()
    return recs if which == "all" else recs[::4]


def build_commands(rng: random.Random, kats: list[dict], nrandom: int):
    """(commands, KAT placements: record index -> (command, offset, count))."""
    planner = BlockPlanner(NSLOTS)
    for i, r in enumerate(kats):
        planner.add(i, r["key"], r["ct"] if r["dec"] else r["pt"], r["dec"])
    cmds = planner.finish()
    placement = planner.placement
    for s in range(NSLOTS):
        cmds.append({"cmd": "key", "slot": s, "key": rng.randbytes(rng.choice(SIZES)).hex()})
    done = 0
    while done < nrandom:
        n = min(nrandom - done, rng.randint(50, 300))
        cmds.append({"cmd": "blocks", "items": [[rng.randbytes(16).hex(), rng.random() < 0.5, rng.randrange(NSLOTS)]
                                                for _ in range(n)]})
        done += n
        cmds.append({"cmd": "key", "slot": rng.randrange(NSLOTS), "key": rng.randbytes(rng.choice(SIZES)).hex()})
    cmds += bench_commands(rng, BENCH_BLOCKS)
    return cmds, placement


def run_core(core: str, simulator: str, kats: list[dict], nrandom: int, seed: int):
    """Part 1 on the bare block core `core`."""
    rng = random.Random(f"{seed}-{core}")
    cmds, placement = build_commands(rng, kats, nrandom)
    t0 = time.monotonic()
    resp = session.simulate(session.core_target(core), simulator, cmds)
    elapsed = time.monotonic() - t0
    res = resp["results"]
    checked, bad = verify(cmds, res)
    # The NIST records also against their published values.
    for i, r in enumerate(kats):
        ci, off, n = placement[i]
        got = b"".join(bytes.fromhex(h) for h, _ in res[ci]["out"][off:off + n])
        exp = r["pt"] if r["dec"] else r["ct"]
        if got != exp:
            bad.append({"kat": r["name"], "key_bits": len(r["key"]) * 8, "got": got.hex(), "expected": exp.hex()})
    return checked, bad, bench_records(core, simulator, cmds, res), elapsed, resp.get("cycles", 0)


# --------------------------------------------------------------------------- CCM mix
SIZE_CLASSES = ((16, 64), (65, 256), (257, 1024), (1025, 1500))
KEY_SIZES = (16, 24, 32)
ENGINE_SLOTS = session.ENGINE_SLOTS


def _class_of(n: int) -> str:
    for lo, hi in SIZE_CLASSES:
        if lo <= n <= hi:
            return f"{lo}-{hi}"
    raise ValueError(n)


def _payload_size(rng: random.Random) -> int:
    u = rng.random()
    if u < 0.35:
        return rng.randint(16, 64)        # acks, sensor readings, VoIP
    if u < 0.60:
        return rng.randint(65, 256)
    if u < 0.75:
        return rng.randint(257, 1024)
    return 1500 if rng.random() < 0.4 else rng.randint(1025, 1500)  # full-size frames


def _flip(b: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(b))
    return b[:i] + bytes([b[i] ^ (1 << rng.randrange(8))]) + b[i + 1:]


def ccm_mix_commands(rng: random.Random, npackets: int) -> tuple[list[dict], dict[int, str]]:
    """(engine executor commands, planned kind per packet command: enc / dec / tampered)."""
    cmds: list[dict] = []
    kinds: dict[int, str] = {}
    keys: list[bytes] = []
    for slot, kb in enumerate([16, 24, 32, rng.choice(KEY_SIZES)][:ENGINE_SLOTS]):
        keys.append(rng.randbytes(kb))
        cmds.append({"cmd": "key", "slot": slot, "key": keys[slot].hex()})
    next_rekey = rng.randint(30, 60)
    for i in range(npackets):
        if i == next_rekey:
            slot = rng.randrange(ENGINE_SLOTS)
            keys[slot] = rng.randbytes(rng.choice(KEY_SIZES))
            cmds.append({"cmd": "key", "slot": slot, "key": keys[slot].hex()})
            next_rekey += rng.randint(30, 60)
        slot = rng.randrange(ENGINE_SLOTS)
        nonce = rng.randbytes(rng.choice((13, 13, 13, 13, 7, 8, 9, 10, 11, 12)))
        tag_len = rng.choice((8, 8, 8, 4, 16, 16, 6, 10, 12, 14))
        aad = rng.randbytes(rng.randint(0, 32))
        msg = rng.randbytes(_payload_size(rng))
        pkt = {"cmd": "pkt", "slot": slot, "iv": nonce.hex(), "nonce_len": len(nonce), "aad": aad.hex(),
               "tag_len": tag_len, "rtag": "", "cut": False}
        if rng.random() < 0.5:
            pkt.update(op="ccm-encrypt", data=msg.hex())
            kind = "enc"
        else:
            ct, tag = ref.ccm_encrypt(keys[slot], nonce, aad, msg, tag_len)
            kind = "dec"
            if rng.random() < 0.2:
                kind = "tampered"
                where = rng.choice(("ct", "tag", "aad", "nonce"))
                if where == "ct":
                    ct = _flip(ct, rng)
                elif where == "tag":
                    tag = _flip(tag, rng)
                elif where == "aad" and aad:
                    aad = _flip(aad, rng)
                else:
                    nonce = _flip(nonce, rng)
            pkt.update(op="ccm-decrypt", data=ct.hex(), rtag=tag.hex(), iv=nonce.hex(), aad=aad.hex())
        kinds[len(cmds)] = kind
        cmds.append(pkt)
    return cmds, kinds


def ccm_check(cmds: list[dict], results: list[dict], kinds: dict[int, str]) -> tuple[list[dict], list[dict]]:
    """Compare every packet with aesip.ref (tracking the key of every slot). Returns
    (one row per packet: command index, size class, kind, ok, cycles), mismatches."""
    slot_key: dict[int, bytes] = {}
    rows, bad = [], []
    for ci, (c, r) in enumerate(zip(cmds, results, strict=True)):
        if c["cmd"] == "key":
            slot_key[c["slot"]] = bytes.fromhex(c["key"])
            continue
        if c["cmd"] != "pkt":
            continue
        key = slot_key[c["slot"]]
        nonce, aad, data = bytes.fromhex(c["iv"]), bytes.fromhex(c["aad"]), bytes.fromhex(c["data"])
        got = bytes.fromhex(r["out"]) if r["out"] is not None else None
        why = None
        if c["op"] == "ccm-encrypt":
            ct, tag = ref.ccm_encrypt(key, nonce, aad, data, c["tag_len"])
            if r["err"] != 0:
                why = f"status error {r['err']}"
            elif (got or b"") != ct or bytes.fromhex(r["value"])[: c["tag_len"]] != tag or r["flag"]:
                why = "ciphertext or tag differs from the reference"
        else:
            msg = ref.ccm_decrypt(key, nonce, aad, data, bytes.fromhex(c["rtag"]))
            if (msg is None) != (kinds[ci] == "tampered"):
                why = "the reference disagrees with the planned verdict"
            elif msg is None:
                if r["err"] != iface.ERR_AUTH or got is not None:
                    why = f"tampered packet not rejected (status {r['err']}, output {'released' if got else 'none'})"
            elif r["err"] != 0:
                why = f"status error {r['err']}"
            elif (got or b"") != msg or r["flag"]:
                why = "plaintext differs from the reference"
        done = max(r["t_sts"], r["t_out"] or 0)
        row = {"command": ci, "class": _class_of(len(data)), "kind": kinds[ci], "bytes": len(data),
               "key_bits": len(key) * 8, "ok": why is None, "t_cmd": r["t_cmd"], "done": done}
        rows.append(row)
        if why is not None:
            bad.append({"command": ci, "op": c["op"], "kind": kinds[ci], "key_bits": len(key) * 8,
                        "bytes": len(data), "aad_bytes": len(aad), "nonce_bytes": len(nonce),
                        "tag_len": c["tag_len"], "why": why})
    return rows, bad


def ccm_stats(rows: list[dict], core: str) -> list[dict]:
    """Per size class (and 'all'): packets, kinds, verified throughput, average latency."""
    for k, r in enumerate(rows):
        nxt = rows[k + 1]["t_cmd"] if k + 1 < len(rows) else r["done"]
        r["occupancy"] = max(1, min(nxt, r["done"]) - r["t_cmd"])
        r["latency"] = r["done"] - r["t_cmd"]
    out = []
    classes = [f"{lo}-{hi}" for lo, hi in SIZE_CLASSES] + ["all"]
    for cl in classes:
        rs = [r for r in rows if cl in ("all", r["class"])]
        if not rs:
            continue
        ok = [r for r in rs if r["ok"]]
        # verified throughput: payload bits of the packets that matched the reference
        # (rejected tampered packets carry no payload out) over the engine's occupancy
        vbits = sum(8 * r["bytes"] for r in ok if r["kind"] != "tampered")
        occ = sum(r["occupancy"] for r in rs)
        out.append({
            "engine": f"ccm-{core}", "size_class": cl, "packets": len(rs),
            "encrypt": sum(r["kind"] == "enc" for r in rs), "decrypt": sum(r["kind"] == "dec" for r in rs),
            "tampered_rejected": sum(r["kind"] == "tampered" and r["ok"] for r in rs),
            "tampered": sum(r["kind"] == "tampered" for r in rs),
            "payload_bytes": sum(r["bytes"] for r in rs), "mismatches": len(rs) - len(ok),
            "occupancy_cycles": occ, "bits_per_cycle": round(vbits / occ, 3),
            "avg_latency_cycles": round(sum(r["latency"] for r in rs) / len(rs), 1),
        })
    if rows:
        span = rows[-1]["done"] - rows[0]["t_cmd"]
        out[-1]["wall_cycles"] = span  # first command to last result, key loads included
        vb = sum(8 * r["bytes"] for r in rows if r["ok"] and r["kind"] != "tampered")
        out[-1]["wall_bits_per_cycle"] = round(vb / span, 3)
    return out


def run_ccm_mix(core: str, simulator: str, npackets: int, seed: int):
    rng = random.Random(f"{seed}-ccm-{core}")
    cmds, kinds = ccm_mix_commands(rng, npackets)
    t0 = time.monotonic()
    resp = session.simulate(session.engine_target(core), simulator, cmds)
    elapsed = time.monotonic() - t0
    rows, bad = ccm_check(cmds, resp["results"], kinds)
    return ccm_stats(rows, core), bad, elapsed, resp.get("cycles", 0)


def format_ccm(stats: list[dict]) -> str:
    head = ("engine", "payload bytes", "packets", "enc/dec/tampered", "mismatches", "bits/cycle",
            "avg latency")
    table = [head] + [(r["engine"], r["size_class"], str(r["packets"]),
                       f"{r['encrypt']}/{r['decrypt']}/{r['tampered']}", str(r["mismatches"]),
                       f"{r['bits_per_cycle']:g}", f"{r['avg_latency_cycles']:g}") for r in stats]
    w = [max(len(t[i]) for t in table) for i in range(len(head))]
    out = ["  ".join(c.ljust(w[i]) if i == 0 else c.rjust(w[i]) for i, c in enumerate(t)) for t in table]
    out.insert(1, "  ".join("-" * x for x in w))
    return "\n".join(out)


def _both(vals: list) -> str:
    vals = [f"{v:g}" if isinstance(v, float) else str(v) for v in vals]
    return vals[0] if len(set(vals)) == 1 else "/".join(vals)


def demo_main(args) -> int:
    cores = args.engine or rtl.CORE_NAMES
    if args.random < 0:
        raise UsageError("--random must not be negative")
    if args.ccm < 0:
        raise UsageError("--ccm must not be negative")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    kats = kat_records(args.kat)
    print(f"aesip demo: seed {seed} (replay with --seed {seed}); per core {len(kats)} NIST ECB records, "
          f"{args.random} random blocks, {BENCH_BLOCKS * 6 + 6} benchmark blocks; then {args.ccm} CCM "
          f"packets through the mode engine on {args.ccm_core}; simulator {args.sim}", file=sys.stderr)
    rows, failures = [], []
    for e in cores:
        print(f"aesip demo: {e} ...", file=sys.stderr)
        checked, bad, brecs, elapsed, cycles = run_core(e, args.sim, kats, args.random, seed)
        nbad = Counter(b["key_bits"] for b in bad)
        print(f"aesip demo: {e}: {sum(checked.values())} blocks, {cycles} clock cycles, "
              f"{elapsed:.1f} s (including any build)", file=sys.stderr)
        for b in bad[:5]:
            print(f"aesip demo: MISMATCH {e}: {json.dumps(b)}", file=sys.stderr)
        failures += [(e, b) for b in bad]
        for kb in (128, 192, 256):
            br = [r for r in brecs if r["key_bits"] == kb]
            rows.append({
                "engine": e, "key_bits": kb, "blocks_checked": checked[kb], "mismatches": nbad[kb],
                "cycles_per_block": [r["cycles_per_block"] for r in br],
                "bits_per_cycle": [r["bits_per_cycle"] for r in br],
                "latency_cycles": [r["latency_cycles"] for r in br],
            })
    ccm = []
    if args.ccm:
        print(f"aesip demo: ccm-{args.ccm_core} (mode engine) ...", file=sys.stderr)
        ccm, bad, elapsed, cycles = run_ccm_mix(args.ccm_core, args.sim, args.ccm, seed)
        print(f"aesip demo: ccm-{args.ccm_core}: {args.ccm} packets, {cycles} clock cycles, "
              f"{elapsed:.1f} s (including any build)", file=sys.stderr)
        for b in bad[:5]:
            print(f"aesip demo: MISMATCH ccm-{args.ccm_core}: {json.dumps(b)}", file=sys.stderr)
        failures += [(f"ccm-{args.ccm_core}", b) for b in bad]
    if args.json:
        print(json.dumps(rows + ccm, indent=1))
    else:
        if rows:
            head = ("engine", "key bits", "blocks checked", "mismatches", "cycles/block", "bits/cycle", "latency")
            table = [head] + [(r["engine"], str(r["key_bits"]), str(r["blocks_checked"]), str(r["mismatches"]),
                               _both(r["cycles_per_block"]), _both(r["bits_per_cycle"]),
                               _both(r["latency_cycles"])) for r in rows]
            w = [max(len(t[i]) for t in table) for i in range(len(head))]
            out = ["  ".join(c.ljust(w[i]) if i == 0 else c.rjust(w[i]) for i, c in enumerate(t)) for t in table]
            out.insert(1, "  ".join("-" * x for x in w))
            print("\n".join(out))
            total = sum(r["blocks_checked"] for r in rows)
            print(f"\n{total} blocks through the bare cores ({args.sim}), every one compared with aesip.ref "
                  f"(OpenSSL); NIST records also with their published values.")
            print("cycles/block: back-to-back steady state; latency: clocks from input to output handshake; "
                  "a/b = encrypt/decrypt where they differ.")
        if ccm:
            print(("\n" if rows else "") + format_ccm(ccm))
            t = ccm[-1]
            print(f"\n{t['packets']} CCM packets ({t['payload_bytes']} payload bytes) through aes_mode_engine on "
                  f"{args.ccm_core} ({args.sim}), every result compared with aesip.ref; "
                  f"{t['tampered_rejected']} of {t['tampered']} tampered packets rejected with no plaintext.")
            print("bits/cycle: verified payload bits per clock of engine occupancy (a packet's command handshake "
                  "to its last result, or to the next command); avg latency: command handshake to last result "
                  f"(clocks). Whole run, key loads included: {t['wall_bits_per_cycle']:g} bits/cycle over "
                  f"{t['wall_cycles']} cycles.")
        print("RESULT: " + ("PASS" if not failures else f"FAIL ({len(failures)} mismatching blocks/packets)"))
    return 1 if failures else 0
