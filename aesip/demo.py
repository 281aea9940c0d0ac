"""`aesip demo` (what `make demo` runs): an embedded workload through every core.

For each core, one simulation (Verilator by default) runs:
  1. NIST CAVP ECB records (GFSbox, KeySbox, VarKey, VarTxt, MMT; 128/192/256; encrypt
     and decrypt) from `cryptography_vectors`: all 2138 by default (`--kat some`: every
     4th);
  2. `--random` N random blocks: both key slots hold random keys of random sizes, every
     block picks a random slot and direction, and a random slot is rekeyed (new random
     size) between bursts of 50..300 blocks;
  3. a throughput/latency measurement per key size and direction (as `aesip bench`).
Every output block is compared bit-exactly with aesip.ref (OpenSSL via `cryptography`),
and the NIST records also with their published values. Prints one row per core and key
size; exits 1 if any block differs.
"""
from __future__ import annotations

import json
import os
import random
import sys
import time
from collections import Counter

from aesip import rtl, vectors
from aesip.bench import bench_commands, bench_records, verify
from aesip.runreq import BlockJob

BENCH_BLOCKS = 32
SIZES = (16, 24, 32)


def kat_records(which: str) -> list[dict]:
    if which == "none":
        return []
    recs = vectors.aes_ecb_records()
    return recs if which == "all" else recs[::4]


def build_commands(rng: random.Random, kats: list[dict], nrandom: int):
    """(commands, KAT placements: record index -> (command, offset, count))."""
    from aesip.cli import NSLOTS, BlockPlanner

    planner = BlockPlanner(NSLOTS)
    for i, r in enumerate(kats):
        planner.add(i, BlockJob(key=r["key"], data=r["ct"] if r["dec"] else r["pt"], dec=r["dec"]))
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


def run_engine(engine: str, simulator: str, kats: list[dict], nrandom: int, seed: int):
    from aesip.cli import simulate

    rng = random.Random(f"{seed}-{engine}")
    cmds, placement = build_commands(rng, kats, nrandom)
    t0 = time.monotonic()
    resp = simulate(engine, simulator, cmds)
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
    return checked, bad, bench_records(engine, simulator, cmds, res), elapsed, resp.get("cycles", 0)


def _both(vals: list) -> str:
    vals = [f"{v:g}" if isinstance(v, float) else str(v) for v in vals]
    return vals[0] if len(set(vals)) == 1 else "/".join(vals)


def demo_main(args) -> int:
    from aesip.cli import UsageError

    engines = args.engine or rtl.ENGINES
    if args.random < 0:
        raise UsageError("--random must not be negative")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    kats = kat_records(args.kat)
    print(f"aesip demo: seed {seed} (replay with --seed {seed}); per core {len(kats)} NIST ECB records, "
          f"{args.random} random blocks, {BENCH_BLOCKS * 6 + 6} benchmark blocks; simulator {args.sim}",
          file=sys.stderr)
    rows, failures = [], []
    for e in engines:
        print(f"aesip demo: {e} ...", file=sys.stderr)
        checked, bad, brecs, elapsed, cycles = run_engine(e, args.sim, kats, args.random, seed)
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
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        head = ("engine", "key bits", "blocks checked", "mismatches", "cycles/block", "bits/cycle", "latency")
        table = [head] + [(r["engine"], str(r["key_bits"]), str(r["blocks_checked"]), str(r["mismatches"]),
                           _both(r["cycles_per_block"]), _both(r["bits_per_cycle"]), _both(r["latency_cycles"]))
                          for r in rows]
        w = [max(len(t[i]) for t in table) for i in range(len(head))]
        out = ["  ".join(c.ljust(w[i]) if i == 0 else c.rjust(w[i]) for i, c in enumerate(t)) for t in table]
        out.insert(1, "  ".join("-" * x for x in w))
        print("\n".join(out))
        total = sum(r["blocks_checked"] for r in rows)
        print(f"\n{total} blocks through the RTL ({args.sim}), every one compared with aesip.ref "
              f"(OpenSSL); NIST records also with their published values.")
        print("cycles/block: back-to-back steady state; latency: clocks from input to output handshake; "
              "a/b = encrypt/decrypt where they differ.")
        print("RESULT: " + ("PASS" if not failures else f"FAIL ({len(failures)} mismatching blocks)"))
    return 1 if failures else 0
