# SPDX-License-Identifier: Apache-2.0
"""`aesip bench`: cycle-accurate throughput and latency of the block-cipher cores and of
the CCM mode engine built on them.

For every engine one simulation (aesip.tb.cli_tb) measures, for each key size and
direction: the latency of one block sent into the idle core (clocks from the input
handshake to the output handshake, docs/cores.md), then `--blocks` N blocks streamed back
to back (input always valid, output always ready). Every output block is checked against
aesip.ref; a wrong or flagged block makes the command fail (exit 1) instead of printing
figures for broken hardware.

Record fields:
  engine, op ('encrypt'/'decrypt'), key_bits, bytes_per_packet (16: one block),
  packets (N), cycles (first input handshake to last output handshake of the N-block
  stream), cycles_per_block (steady state: spacing of the output handshakes),
  bits_per_cycle (128 / cycles_per_block), latency_cycles, sim.

CCM records (engine 'ccm-<core>': aes_mode_engine with CORE = that core, one more
simulation per core; see aesip/tb/engine_bench.py for the method): op 'ccm-encrypt',
key_bits, bytes_per_packet (payload; `--ccm-sizes`, default 16,64,256,1500), aad_bytes
(32), nonce_bytes (13), tag_bytes (8), packets (1 = a single packet, or `--ccm-packets`
back to back, default 8), cycles (first command handshake to the last packet's last
result), cycles_per_packet, bits_per_cycle (payload bits / cycles), latency_cycles (of
a single packet), sim, aes_blocks (AES blocks the packets send to the two cores, from
the engine's step plan, docs/mode_engine.md), blocks_per_clock_per_pipe (aes_blocks /
cycles / 2: how full the two cores are kept). Every ciphertext and tag is checked
against aesip.ref.

Multi-packet CCM records (engine 'ccm-multi-pipe': aes_mode_multi with LANES = `lanes`
(16) lanes on one shared pair of aes_pipe cores, measured whenever `pipe` is benchmarked):
the same fields plus `lanes`, for packets 1, `--ccm-packets`, 32 and 128 back to back.
"""
from __future__ import annotations

import json
import random
import sys
from collections import Counter

from aesip import ref, rtl

KEY_BITS = (128, 192, 256)
OPS = (("encrypt", False), ("decrypt", True))


def verify(commands: list[dict], results: list[dict]) -> tuple[Counter, list[dict]]:
    """Compare every block the hardware returned for `commands` with aesip.ref, tracking
    the key held by every slot through the key commands. Returns (blocks checked per key
    size in bits, one dict per wrong block: flagged with err, or wrong data)."""
    slot_key: dict[int, bytes] = {}
    checked: Counter = Counter()
    bad = []

    def check(ci: int, k: int, blk_hex: str, dec: bool, slot: int, got: list) -> None:
        key = slot_key[slot]
        exp = ref.ecb(key, bytes.fromhex(blk_hex), dec)
        data, err = bytes.fromhex(got[0]), got[1]
        checked[len(key) * 8] += 1
        if err or data != exp:
            bad.append({"command": ci, "item": k, "key_bits": len(key) * 8, "key": key.hex(), "dec": dec,
                        "in": blk_hex, "got": data.hex(), "err": err, "expected": exp.hex()})

    for ci, (c, r) in enumerate(zip(commands, results, strict=True)):
        if c["cmd"] == "key":
            slot_key[c["slot"]] = bytes.fromhex(c["key"])
        elif c["cmd"] == "blocks":
            for k, ((h, dec, slot), got) in enumerate(zip(c["items"], r["out"], strict=True)):
                check(ci, k, h, bool(dec), slot, got)
        elif c["cmd"] == "bench":
            check(ci, -1, c["single"], c["dec"], c["slot"], r["single"])
            for k, (h, got) in enumerate(zip(c["blocks"], r["out"], strict=True)):
                check(ci, k, h, c["dec"], c["slot"], got)
    return checked, bad


def bench_commands(rng: random.Random, nblocks: int, slot: int = 0, key_bits=KEY_BITS) -> list[dict]:
    """Key load + one bench command per (key size, direction)."""
    cmds = []
    for kb in key_bits:
        cmds.append({"cmd": "key", "slot": slot, "key": rng.randbytes(kb // 8).hex()})
        for _op, dec in OPS:
            cmds.append({"cmd": "bench", "slot": slot, "dec": dec, "single": rng.randbytes(16).hex(),
                         "blocks": [rng.randbytes(16).hex() for _ in range(nblocks)]})
    return cmds


def bench_records(engine: str, simulator: str, commands: list[dict], results: list[dict]) -> list[dict]:
    recs = []
    key_bits = None
    for c, r in zip(commands, results):
        if c["cmd"] == "key":
            key_bits = len(c["key"]) * 4
        if c["cmd"] != "bench":
            continue
        ic, oc = r["in_cycles"], r["out_cycles"]
        n = len(oc)
        cpb = (oc[-1] - oc[0]) / (n - 1) if n > 1 else float(oc[-1] - ic[0])
        recs.append({
            "engine": engine,
            "op": "decrypt" if c["dec"] else "encrypt",
            "key_bits": key_bits,
            "bytes_per_packet": 16,
            "packets": n,
            "cycles": oc[-1] - ic[0],
            "cycles_per_block": round(cpb, 6),
            "bits_per_cycle": round(128 / cpb, 6),
            "latency_cycles": r["latency"],
            "sim": simulator,
        })
    return recs


def run_engine(engine: str, simulator: str, nblocks: int, seed: int) -> tuple[list[dict], list[dict]]:
    """(records, wrong blocks) for one engine, from one simulation."""
    from aesip.cli import simulate

    rng = random.Random(f"{seed}-{engine}")
    cmds = bench_commands(rng, nblocks)
    res = simulate(engine, simulator, cmds)["results"]
    return bench_records(engine, simulator, cmds, res), verify(cmds, res)[1]


def run_ccm(engine: str, simulator: str, sizes, packets: int, seed: int) -> tuple[list[dict], list[dict]]:
    """(CCM records, mismatching packets) for the mode engine on core `engine`."""
    from aesip.cli import simulate
    from aesip.tb import engine_bench

    rng = random.Random(f"{seed}-ccm-{engine}")
    cmds, meas = engine_bench.plan(rng, sizes, packets)
    res = simulate(engine, simulator, cmds, modes=True)["results"]
    _n, bad = engine_bench.check(cmds, res)
    return engine_bench.records(engine, simulator, res, meas), bad


# aes_mode_multi bench build: 16 lanes (a lane issues one step per latency + 1 = 15 cycles
# on aes_pipe, so 16 lanes can keep both pipelines busy every clock); input FIFOs of 128
# beats hold a whole 1500-byte packet with its AAD. Bursts of 32 and 128 packets show how
# the aggregate approaches one block per clock per pipeline once the fill/drain (one
# packet's serial CBC-MAC chain) is amortised.
MULTI_LANES = 16
MULTI_IN_AW = 7
MULTI_PACKETS = (32, 128)


def simulate_multi(simulator: str, commands: list[dict], lanes: int = MULTI_LANES, core: str = "pipe") -> dict:
    """aesip.cli.simulate for aes_mode_multi (same executor, aesip.tb.engine_cli_tb)."""
    import fcntl
    import os
    import tempfile
    from pathlib import Path

    from aesip import cli, sim

    cli.check_engine(core, simulator, modes=True)
    os.environ.pop("PYTEST_CURRENT_TEST", None)
    top = rtl.MULTI_TOP
    params = {"CORE": core, "SLOT_W": cli.ENGINE_SLOT_W, "LANES": lanes, "IN_AW": MULTI_IN_AW}
    base = cli.build_base()
    bdir = sim.build_dir_for(top, simulator, params, base)
    with tempfile.TemporaryDirectory(prefix="aesip-") as tmp, open(base / f"{bdir.name}.lock", "w") as lock:
        reqf, respf = Path(tmp) / "req.json", Path(tmp) / "resp.json"
        reqf.write_text(json.dumps({"commands": commands}))
        fcntl.flock(lock, fcntl.LOCK_EX)
        stage = "build"
        try:
            with cli._stdout_to_stderr():
                results = sim.run(toplevel=top, sources=rtl.multi_sources(core), test_module=cli.ENGINE_TB_MODULE,
                                  sim=simulator, parameters=params,
                                  extra_env={"AESIP_CLI_REQ": str(reqf), "AESIP_CLI_RESP": str(respf)},
                                  build_base=base, quiet=True)
                stage = "simulation"
                sim.check_results(results)
        except (Exception, SystemExit) as e:  # the cocotb runner calls sys.exit on simulator failure
            if isinstance(e, SystemExit):
                stage = "simulation"
            log = bdir / ("build.log" if stage == "build" else "test.log")
            raise cli.SimError(f"{stage} of {top} ({simulator}) failed: {e}\n  log {log}:\n{cli._tail(log)}") from None
        if not respf.exists():
            raise cli.SimError(f"simulation of {top} ({simulator}) wrote no results; log {bdir / 'test.log'}")
        return json.loads(respf.read_text())


def run_ccm_multi(simulator: str, sizes, packets: int, seed: int, lanes: int = MULTI_LANES) -> tuple[list[dict], list[dict]]:
    """(CCM records, mismatching packets) for aes_mode_multi on aes_pipe."""
    from aesip.tb import engine_bench

    rng = random.Random(f"{seed}-ccm-multi-pipe")
    counts = sorted({1, packets, *MULTI_PACKETS})
    cmds, meas = engine_bench.plan(rng, sizes, packets, counts=counts)
    res = simulate_multi(simulator, cmds, lanes)["results"]
    _n, bad = engine_bench.check(cmds, res)
    recs = engine_bench.records("multi-pipe", simulator, res, meas)
    for r in recs:
        r["lanes"] = lanes
    return recs, bad


def _table(head: tuple, rows: list[tuple]) -> str:
    rows = [head] + rows
    w = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w[i]) if i < 2 else c.rjust(w[i]) for i, c in enumerate(row)) for row in rows]
    lines.insert(1, "  ".join("-" * x for x in w))
    return "\n".join(lines)


def format_table(recs: list[dict]) -> str:
    head = ("engine", "op", "key", "blocks", "cycles", "cyc/block", "bits/cycle", "latency")
    return _table(head, [
        (r["engine"], r["op"], str(r["key_bits"]), str(r["packets"]), str(r["cycles"]),
         f"{r['cycles_per_block']:g}", f"{r['bits_per_cycle']:g}", str(r["latency_cycles"]))
        for r in recs
    ])


def format_ccm_table(recs: list[dict]) -> str:
    head = ("engine", "op", "key", "bytes", "aad", "packets", "cycles", "cyc/packet", "bits/cycle", "latency",
            "blk/clk/pipe")
    return _table(head, [
        (r["engine"], r["op"], str(r["key_bits"]), str(r["bytes_per_packet"]), str(r["aad_bytes"]),
         str(r["packets"]), str(r["cycles"]), f"{r['cycles_per_packet']:g}", f"{r['bits_per_cycle']:g}",
         str(r["latency_cycles"]), f"{r['blocks_per_clock_per_pipe']:.3f}")
        for r in recs
    ])


def parse_sizes(text: str) -> list[int]:
    from aesip.cli import UsageError

    if text.strip().lower() in ("", "none"):
        return []
    try:
        sizes = [int(x) for x in text.split(",")]
    except ValueError:
        raise UsageError(f"--ccm-sizes: expected comma-separated byte counts, got {text!r}") from None
    if any(not 0 <= x <= 1 << 20 for x in sizes):
        raise UsageError("--ccm-sizes: sizes must be between 0 and 1048576 bytes")
    return sizes


def bench_main(args) -> int:
    from aesip.cli import EXIT_SIM, SimError, UsageError

    engines = args.engine or rtl.ENGINES
    if args.blocks < 2:
        raise UsageError("--blocks must be at least 2")
    if args.ccm_packets < 1:
        raise UsageError("--ccm-packets must be at least 1")
    sizes = parse_sizes(args.ccm_sizes)
    seed = args.seed if args.seed is not None else 1
    all_recs, ccm_recs, failed, sim_failed = [], [], False, False
    for e in engines:
        print(f"aesip bench: {e} on {args.sim} ...", file=sys.stderr)
        try:
            recs, bad = run_engine(e, args.sim, args.blocks, seed)
        except SimError as err:
            sim_failed = True
            print(f"aesip bench: error: {e}: {err}", file=sys.stderr)
        else:
            if bad:
                failed = True
                print(f"aesip bench: FAILED: {e}: {len(bad)} block(s) differ from the reference "
                      f"(no figures reported for it); first: {json.dumps(bad[0])}", file=sys.stderr)
            else:
                all_recs.extend(recs)
        if not sizes:
            continue
        print(f"aesip bench: ccm-{e} (mode engine) on {args.sim} ...", file=sys.stderr)
        try:
            recs, bad = run_ccm(e, args.sim, sizes, args.ccm_packets, seed)
        except SimError as err:
            sim_failed = True
            print(f"aesip bench: error: ccm-{e}: {err}", file=sys.stderr)
            continue
        if bad:
            failed = True
            print(f"aesip bench: FAILED: ccm-{e}: {len(bad)} packet(s) differ from the reference "
                  f"(no figures reported for it); first: {json.dumps(bad[0])}", file=sys.stderr)
            continue
        ccm_recs.extend(recs)
        if e != "pipe":
            continue
        print(f"aesip bench: ccm-multi-pipe (aes_mode_multi, {MULTI_LANES} lanes) on {args.sim} ...", file=sys.stderr)
        try:
            recs, bad = run_ccm_multi(args.sim, sizes, args.ccm_packets, seed)
        except SimError as err:
            sim_failed = True
            print(f"aesip bench: error: ccm-multi-pipe: {err}", file=sys.stderr)
            continue
        if bad:
            failed = True
            print(f"aesip bench: FAILED: ccm-multi-pipe: {len(bad)} packet(s) differ from the reference "
                  f"(no figures reported for it); first: {json.dumps(bad[0])}", file=sys.stderr)
            continue
        ccm_recs.extend(recs)
    if args.json:
        print(json.dumps(all_recs + ccm_recs, indent=1))
    else:
        if all_recs:
            print(format_table(all_recs))
            print("\ncycles: first input to last output of the stream; cyc/block: steady state; "
                  "latency: input handshake to output valid (clocks)")
        if ccm_recs:
            print(("\n" if all_recs else "") + format_ccm_table(ccm_recs))
            print(f"\nCCM encryption, {ccm_recs[0]['nonce_bytes']}-byte nonce, {ccm_recs[0]['tag_bytes']}-byte tag; "
                  "bytes: payload per packet; bits/cycle: payload bits per clock; cycles: first command "
                  "handshake to the last packet's last result; latency: of one packet alone (clocks); "
                  "blk/clk/pipe: AES blocks sent to the two cores / cycles / 2; ccm-multi-pipe: "
                  f"aes_mode_multi, {MULTI_LANES} packets in flight on one pair of aes_pipe cores")
    return EXIT_SIM if sim_failed else 1 if failed else 0
