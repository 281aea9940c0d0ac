# SPDX-License-Identifier: Apache-2.0
"""`aesip bench`: cycle-accurate throughput and latency of the block-cipher cores and of
the CCM mode engine built on them.

For every block core one simulation (aesip.tb.cli_tb) measures, for each key size and
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
simulation per core; see aesip/engine_bench.py for the method): op 'ccm-encrypt'
(every key size) and 'ccm-decrypt' (store-and-forward, AES-128, 1 and `--ccm-packets`),
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
the same fields plus `lanes`, for packets 1, `--ccm-packets`, 32 and 128 back to back;
and, when CCMP records are made too, the same with `lanes` 2 for packets 1 and
`--ccm-packets` (the like-for-like plain figure of the 2-lane CCMP records).

CCMP records (engine 'ccmp-<core>': the IEEE 802.11 CCMP front end ccmp_top on
aes_mode_engine on that core; 'ccmp-multi-pipe': ccmp_top with MULTI = 1, aes_mode_multi
with `lanes` 2 and 16 on aes_pipe, made when `pipe` is benchmarked; `--ccmp-sizes` MSDU
sizes, default 64,256,1500,2304, 'none' for no records; aesip/ccmp_bench.py gives the
method and fields): ops 'ccmp-encrypt' and 'ccmp-decrypt' of QoS Data MPDUs, AES-128,
one MPDU alone and `--ccm-packets` back to back, every output MPDU checked against the
standard's construction (aesip.ref.ccmp_protect / ccmp_unprotect). The text output adds
the front end's cost over the plain CCM record of the same engine configuration (same
core, same lanes, same size and packet count; ccmp_bench.costs) where both were made.

Channel records (engines 'chan-pipe' and 'chan-tdea-pipe': chan_engine with 128
channel contexts on aes_pipe / tdea_pipe, made when `pipe` is benchmarked and
`--channels` is not 'none'; aesip/chan_bench.py gives the method and fields): CBC
encryption of 1504-byte packets over C channels, with `channels`,
`blocks_per_clock_per_pipe` and `pipeline_depth`.

Live-rekey records (engine 'top-<core>': the drop-in IP aesip_top with CORE = that core,
one more simulation, Verilator only; made when `iter128` or `pipe` is benchmarked on
Verilator and `--rekeys` N > 0, default 12; see aesip/rekey_bench.py for the method): op
'rekey', key_bits (128), bytes_per_packet (64; aad_bytes, nonce_bytes, tag_bytes as the
CCM records), rekeys (N keys committed over AXI4-Lite to the slot in use under full
load), packets (sent: 5 (N + 2)), packets_lost (sent - received correctly under the key
in force at the packet's start; must be 0), keys_used, dip_cycles (the largest extra
completion gap at a rekey over the steady-state gap steady_gap_cycles; its bound is
key_expansion_cycles), dip_cycles_median, cycles (first command handshake to the last
packet's last result), bits_per_cycle (payload bits / cycles, the dips included),
latency_cycles (largest commit-to-load time), sim. With `pipe` also engine 'top-multi':
aesip_top with LANES = 4 (aes_mode_multi on aes_pipe), the same fields plus `lanes`; its
dip is bounded by the expansion too (double-buffered key slots; aesip/rekey_bench.py).
"""
from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter

from aesip import ccmp_bench, chan_bench, engine_bench, ref, rekey_bench, rtl, session, throughput
from aesip.errors import EXIT_SIM, SimError, UsageError

KEY_BITS = (128, 192, 256)
OPS = (("encrypt", False), ("decrypt", True))

# Parameter variants of the block cores, benchmarked only when named with --engine
# (engine name -> (block core, parameters, blocks in flight)). Their records have the
# usual 'encrypt'/'decrypt' stream records (cycles_per_block over whole groups of
# `in flight` blocks, since such a core delivers its blocks in groups) plus a serial
# chain record 'cbc-chain' (see chain_commands).
CORE_VARIANTS = {
    "iter128-1st": ("iter128", {"ROUND_STAGES": 1}, 1),       # the default core, for the chain figure
    "iter128-2st": ("iter128", {"ROUND_STAGES": 2}, 2),       # docs/iter128.md
    "iter128-2st-enc": ("iter128", {"ROUND_STAGES": 2, "DIRECTION": 0}, 2),
    "iter128-r2": ("iter128", {"ROUNDS_PER_CLK": 2}, 1),      # two rounds per clock
}
# Parameter variants of the mode engine, measured (CCM records named 'ccm-<name>', CCMP
# records 'ccmp-<name>') when the same name is given with --engine, after the bare core's
# records above: (block core, aes_mode_engine parameters, ccmp_top parameters).
# iter128-r2 = aes_mode_engine on two aes_iter128 with two rounds per clock, both
# encrypt-only (synthesis design ccm-iter128, variant enc-r2), and ccmp_top on it
# (ccmp-iter128, variant r2; ccmp_top builds encrypt-only cores itself).
# iter128-1c = aes_mode_engine on one two-stage aes_iter128 shared by both roles (CORES = 1,
# ROUND_STAGES = 2), encrypt-only (synthesis design ccm-iter128, variant enc-1c); no CCMP
# build (None: ccmp_top has no such parameters).
ENGINE_VARIANTS = {
    "iter128-r2": ("iter128", {"ROUNDS_PER_CLK": 2, "DIRECTION_B": 0}, {"ROUNDS_PER_CLK": 2}),
    "iter128-1c": ("iter128", {"CORES": 1, "ROUND_STAGES": 2, "DIRECTION_B": 0}, None),
}
CHAIN_BLOCKS = 16
# Parameter variants of aes_mode_multi (16 lanes on two aes_pipe cores), benchmarked only
# when named with --engine: the AES-128-only, encrypt-only builds of synthesis design
# ccm-multi-pipe, variants lanes16-aes128 / lanes16-aes128-r2 (issue 13's fallback for
# the LFE5U-85F, which they do not fit either: docs/mode_engine.md). Their
# records are the CCM records of the 16-lane engine ('ccm-multi-aes128', ...) for AES-128
# keys only: the bursts of 1, --ccm-packets and MULTI_PACKETS packets, and the
# store-and-forward decryptions of 1 and --ccm-packets.
# The multi-iter128-* variants are aes_mode_multi on PAIRS pairs of encrypt-only
# aes_iter128 cores, one lane per pair (synthesis design ccm-multi-iter128, variants
# enc-p3, enc-p4, enc-r2-p2: issue 13's packets in flight on iter128), every key size.
# name -> (block core, LANES, parameter overrides)
MULTI_VARIANTS = {
    "multi-aes128": ("pipe", 16, {"NR_MAX": 10, "DIRECTION_B": 0}),
    "multi-aes128-r2": ("pipe", 16, {"NR_MAX": 10, "DIRECTION_B": 0, "ROUND_REGS": 2}),
    "multi-iter128-p3": ("iter128", 3, {"PAIRS": 3, "DIRECTION_B": 0}),
    "multi-iter128-p4": ("iter128", 4, {"PAIRS": 4, "DIRECTION_B": 0}),
    "multi-iter128-r2-p2": ("iter128", 2, {"PAIRS": 2, "DIRECTION_B": 0, "ROUNDS_PER_CLK": 2}),
}


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


def bench_commands(rng: random.Random, nblocks: int, slot: int = 0, key_bits=KEY_BITS, ops=OPS) -> list[dict]:
    """Key load + one bench command per (key size, direction)."""
    cmds = []
    for kb in key_bits:
        cmds.append({"cmd": "key", "slot": slot, "key": rng.randbytes(kb // 8).hex()})
        for _op, dec in ops:
            cmds.append({"cmd": "bench", "slot": slot, "dec": dec, "single": rng.randbytes(16).hex(),
                         "blocks": [rng.randbytes(16).hex() for _ in range(nblocks)]})
    return cmds


def chain_commands(rng: random.Random, nblocks: int, slot: int = 0, key_bits=KEY_BITS) -> list[dict]:
    """Key load + one serial chain (CBC encryption, one block at a time) per key size."""
    cmds = []
    for kb in key_bits:
        cmds.append({"cmd": "key", "slot": slot, "key": rng.randbytes(kb // 8).hex()})
        cmds.append({"cmd": "chain", "slot": slot, "iv": rng.randbytes(16).hex(),
                     "blocks": [rng.randbytes(16).hex() for _ in range(nblocks)]})
    return cmds


def verify_chains(commands: list[dict], results: list[dict]) -> list[dict]:
    """Chain results that differ from aesip.ref.cbc_encrypt (or carry err)."""
    bad, key = [], None
    for ci, (c, r) in enumerate(zip(commands, results, strict=True)):
        if c["cmd"] == "key":
            key = bytes.fromhex(c["key"])
        elif c["cmd"] == "chain":
            exp = ref.cbc_encrypt(key, bytes.fromhex(c["iv"]), bytes.fromhex("".join(c["blocks"])))
            got = bytes.fromhex("".join(o[0] for o in r["out"]))
            if got != exp or any(o[1] for o in r["out"]):
                bad.append({"command": ci, "key": key.hex(), "got": got.hex(), "expected": exp.hex()})
    return bad


def _keyed(commands: list[dict], results: list[dict], cmd: str):
    """(key bits of the last key command before it, command, result) for every command
    `cmd` of a cli_tb run."""
    key_bits = None
    for c, r in zip(commands, results):
        if c["cmd"] == "key":
            key_bits = len(c["key"]) * 4
        if c["cmd"] == cmd:
            yield key_bits, c, r


def chain_records(engine: str, simulator: str, commands: list[dict], results: list[dict]) -> list[dict]:
    """op 'cbc-chain': cycles_per_block = spacing of the input handshakes of a serial
    chain driven by the testbench (includes its turnaround: it offers the next block in
    the cycle after it took the previous output); latency_cycles as the stream records."""
    recs = []
    for key_bits, c, r in _keyed(commands, results, "chain"):
        ic, oc = r["in_cycles"], r["out_cycles"]
        n = len(ic)
        cpb = (ic[-1] - ic[0]) / (n - 1)
        recs.append({
            "engine": engine, "op": "cbc-chain", "key_bits": key_bits, "bytes_per_packet": 16,
            "packets": n, "cycles": oc[-1] - ic[0], "cycles_per_block": round(cpb, 6),
            "bits_per_cycle": round(128 / cpb, 6), "latency_cycles": oc[0] - ic[0], "sim": simulator,
        })
    return recs


def bench_records(engine: str, simulator: str, commands: list[dict], results: list[dict],
                  group: int = 1) -> list[dict]:
    recs = []
    for key_bits, c, r in _keyed(commands, results, "bench"):
        ic, oc = r["in_cycles"], r["out_cycles"]
        n = len(oc)
        span = (n - 1) // group * group          # whole groups of `group` blocks
        cpb = (oc[-1] - oc[-1 - span]) / span if span else float(oc[-1] - ic[0])
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


def run_core(core: str, simulator: str, nblocks: int, seed: int) -> tuple[list[dict], list[dict]]:
    """(records, wrong blocks) for the bare block core `core`, from one simulation."""
    rng = random.Random(f"{seed}-{core}")
    cmds = bench_commands(rng, nblocks)
    res = session.simulate(session.core_target(core), simulator, cmds)["results"]
    return bench_records(core, simulator, cmds, res), verify(cmds, res)[1]


def run_variant(engine: str, simulator: str, nblocks: int, seed: int) -> tuple[list[dict], list[dict]]:
    """(records, wrong blocks) for a core parameter variant (CORE_VARIANTS): the stream
    records and the serial-chain records, from one simulation."""
    core, params, group = CORE_VARIANTS[engine]
    rng = random.Random(f"{seed}-{engine}")
    # an encrypt-only (DIRECTION 0) build gets the encrypt records only
    cmds = bench_commands(rng, nblocks, ops=OPS[:1] if params.get("DIRECTION") == 0 else OPS)
    chain = chain_commands(rng, CHAIN_BLOCKS)
    res = session.simulate(session.with_params(session.core_target(core), params), simulator,
                           cmds + chain)["results"]
    recs = bench_records(engine, simulator, cmds, res[:len(cmds)], group)
    recs += chain_records(engine, simulator, chain, res[len(cmds):])
    return recs, verify(cmds, res[:len(cmds)])[1] + verify_chains(chain, res[len(cmds):])


def run_ccm(core: str, simulator: str, sizes, packets: int, seed: int,
            variant: str | None = None) -> tuple[list[dict], list[dict]]:
    """(CCM records, mismatching packets) for the mode engine on block core `core`, or for
    the ENGINE_VARIANTS build `variant` (records named after it)."""
    name = variant or core
    rng = random.Random(f"{seed}-ccm-{core}")
    cmds, meas = engine_bench.plan(rng, sizes, packets)
    target = session.with_params(session.engine_target(core), ENGINE_VARIANTS[variant][1] if variant else None)
    res = session.simulate(target, simulator, cmds)["results"]
    _n, bad = engine_bench.check(cmds, res)
    return engine_bench.records(name, simulator, res, meas), bad


# aes_mode_multi bench build (aesip.session.multi_target): 16 lanes on aes_pipe, input FIFOs
# of 128 beats. Bursts of 32 and 128 packets show how the aggregate approaches one block
# per clock per pipeline once the fill/drain (one packet's serial CBC-MAC chain) is
# amortised.
MULTI_CORE = "pipe"
MULTI_LANES = session.MULTI_LANES
MULTI_PACKETS = (32, 128)


def simulate_multi(simulator: str, commands: list[dict], lanes: int = MULTI_LANES, core: str = MULTI_CORE,
                   params: dict | None = None) -> dict:
    """A session of aes_mode_multi with `lanes` lanes on block core `core`, with the
    parameter overrides `params`."""
    return session.simulate(session.with_params(session.multi_target(core, lanes), params), simulator, commands)


def run_ccm_multi(simulator: str, sizes, packets: int, seed: int, lanes: int = MULTI_LANES,
                  bursts: bool = True, variant: str | None = None) -> tuple[list[dict], list[dict]]:
    """(CCM records, mismatching packets) for aes_mode_multi on aes_pipe; `bursts`: also
    the long bursts (MULTI_PACKETS), else 1 and `packets` only; `variant`: a
    MULTI_VARIANTS build (its core and lanes; AES-128 keys only on the NR_MAX = 10 builds;
    records named after it)."""
    name = variant or "multi-pipe"
    core, params = MULTI_CORE, None
    if variant:
        core, lanes, params = MULTI_VARIANTS[variant]
    rng = random.Random(f"{seed}-ccm-{name}" + ("" if lanes == MULTI_LANES or variant else f"-lanes{lanes}"))
    counts = sorted({1, packets, *(MULTI_PACKETS if bursts else ())})
    cmds, meas = engine_bench.plan(rng, sizes, packets, counts=counts,
                                   **({"key_bits": (128,)} if params and params.get("NR_MAX") == 10 else {}))
    res = simulate_multi(simulator, cmds, lanes, core, params=params)["results"]
    _n, bad = engine_bench.check(cmds, res)
    recs = engine_bench.records(name, simulator, res, meas)
    for r in recs:
        r["lanes"] = lanes
    return recs, bad


def run_rekey(core: str, simulator: str, rekeys: int, seed: int, lanes: int = 1) -> tuple[list[dict], list[dict]]:
    """([the live-rekey record], lost or wrong packets) for aesip_top on block core `core`
    with LANES = `lanes` (>= 2: aes_mode_multi, record top-multi)."""
    name = core if lanes == 1 else rekey_bench.MULTI_NAME
    rng = random.Random(f"{seed}-rekey-{name}")
    cmds, keys = rekey_bench.plan(rng, rekeys)
    resp = session.simulate(session.top_target(core, lanes), simulator, cmds)
    rows, bad, loads = rekey_bench.check(cmds, resp, keys)
    return ([] if bad else [rekey_bench.record(core, simulator, cmds, resp, rows, loads, lanes=lanes)]), bad


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


def format_ccmp_table(recs: list[dict]) -> str:
    head = ("engine", "op", "key", "bytes", "packets", "cycles", "cyc/packet", "bits/cycle", "latency")
    return _table(head, [
        (r["engine"], r["op"], str(r["key_bits"]), str(r["bytes_per_packet"]), str(r["packets"]), str(r["cycles"]),
         f"{r['cycles_per_packet']:g}", f"{r['bits_per_cycle']:g}", str(r["latency_cycles"]))
        for r in recs
    ])


def format_cost_table(rows: list[dict]) -> str:
    head = ("op", "engine", "lanes", "bytes", "packets", "cycles", "plain CCM", "cost")
    return _table(head, [
        (r["op"], r["engine"], str(r["lanes"] or "-"), str(r["bytes"]), str(r["packets"]), str(r["cycles"]),
         str(r["plain_cycles"]), f"{100 * r['cost']:+.1f} %")
        for r in rows
    ])


def format_chan_table(recs: list[dict]) -> str:
    head = ("engine", "op", "depth", "channels", "packets", "cycles", "bits/cycle", "blk/clk/pipe", "latency")
    return _table(head, [
        (r["engine"], r["op"], str(r["pipeline_depth"]), str(r["channels"]), str(r["packets"]), str(r["cycles"]),
         f"{r['bits_per_cycle']:g}", f"{r['blocks_per_clock_per_pipe']:.3f}", str(r["latency_cycles"]))
        for r in recs
    ])


def format_rekey_table(recs: list[dict]) -> str:
    head = ("engine", "op", "key", "bytes", "rekeys", "packets", "lost", "dip", "steady gap", "expansion",
            "commit->load", "bits/cycle")
    return _table(head, [
        (r["engine"], r["op"], str(r["key_bits"]), str(r["bytes_per_packet"]), str(r["rekeys"]),
         str(r["packets"]), str(r["packets_lost"]), str(r["dip_cycles"]), str(r["steady_gap_cycles"]),
         str(r["key_expansion_cycles"]), str(r["latency_cycles"]), f"{r['bits_per_cycle']:g}")
        for r in recs
    ])


def parse_list(text: str, opt: str, lo: int, hi: int) -> list[int]:
    if text.strip().lower() in ("", "none"):
        return []
    try:
        vals = [int(x) for x in text.split(",")]
    except ValueError:
        raise UsageError(f"{opt}: expected comma-separated numbers, got {text!r}") from None
    if any(not lo <= x <= hi for x in vals):
        raise UsageError(f"{opt}: values must be between {lo} and {hi}")
    return vals


def parse_sizes(text: str) -> list[int]:
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
    cores = args.engine or rtl.CORE_NAMES
    if args.blocks < 2:
        raise UsageError("--blocks must be at least 2")
    if args.ccm_packets < 1:
        raise UsageError("--ccm-packets must be at least 1")
    if args.rekeys < 0:
        raise UsageError("--rekeys must not be negative")
    sizes = parse_sizes(args.ccm_sizes)
    ccmp_sizes = parse_list(args.ccmp_sizes, "--ccmp-sizes", 0, ccmp_bench.BODY_MAX)
    channels = parse_list(args.channels, "--channels", 1, 2 ** chan_bench.CH_W)
    chan_rr = parse_list(args.chan_round_regs, "--chan-round-regs", 1, 4)
    seed = args.seed if args.seed is not None else 1
    all_recs, ccm_recs, rekey_recs, chan_recs, ccmp_recs = [], [], [], [], []
    failed = sim_failed = False

    def measure(label: str, what: str, wrong: str, fn) -> list[dict] | None:
        """One measurement: fn() -> (records, mismatches). The records, or None when the
        simulation failed or something differed from the reference (reported on stderr)."""
        nonlocal failed, sim_failed
        print(f"aesip bench: {label} ({what}) on {args.sim} ...", file=sys.stderr)
        t0 = time.monotonic()
        try:
            recs, bad = fn()
            print(f"aesip bench: {label}: {time.monotonic() - t0:.0f} s (build and simulation)",
                  file=sys.stderr)
        except SimError as err:
            sim_failed = True
            print(f"aesip bench: error: {label}: {err}", file=sys.stderr)
            return None
        if bad:
            failed = True
            print(f"aesip bench: FAILED: {label}: {len(bad)} {wrong} (no figures reported for it); "
                  f"first: {json.dumps(bad[0])}", file=sys.stderr)
            return None
        return recs

    for e in [e for e in cores if e in CORE_VARIANTS]:
        recs = measure(e, f"block core {CORE_VARIANTS[e][0]} with {CORE_VARIANTS[e][1]}",
                       "block(s) differ from the reference", lambda: run_variant(e, args.sim, args.blocks, seed))
        all_recs.extend(recs or [])
    for e in [e for e in cores if e in ENGINE_VARIANTS]:
        if sizes:
            recs = measure(f"ccm-{e}", f"mode engine on {ENGINE_VARIANTS[e][0]} with {ENGINE_VARIANTS[e][1]}",
                           "packet(s) differ from the reference",
                           lambda: run_ccm(ENGINE_VARIANTS[e][0], args.sim, sizes, args.ccm_packets, seed, variant=e))
            ccm_recs.extend(recs or [])
        if ccmp_sizes and ENGINE_VARIANTS[e][2] is not None:
            recs = measure(f"ccmp-{e}", f"ccmp_top, 802.11 CCMP front end, with {ENGINE_VARIANTS[e][2]}",
                           "MPDU(s) differ from the reference",
                           lambda: ccmp_bench.run(ENGINE_VARIANTS[e][0], args.sim, ccmp_sizes, args.ccm_packets,
                                                  seed, params=ENGINE_VARIANTS[e][2], variant=e))
            ccmp_recs.extend(recs or [])
    for e in [e for e in cores if e in MULTI_VARIANTS] if sizes else []:
        recs = measure(f"ccm-{e}", f"aes_mode_multi on {MULTI_VARIANTS[e][0]}, {MULTI_VARIANTS[e][1]} lanes, "
                       f"with {MULTI_VARIANTS[e][2]}",
                       "packet(s) differ from the reference",
                       lambda: run_ccm_multi(args.sim, sizes, args.ccm_packets, seed, variant=e))
        ccm_recs.extend(recs or [])
    cores = [e for e in cores if e not in CORE_VARIANTS and e not in MULTI_VARIANTS and e not in ENGINE_VARIANTS]
    for e in cores:
        recs = measure(e, "block core", "block(s) differ from the reference",
                       lambda: run_core(e, args.sim, args.blocks, seed))
        all_recs.extend(recs or [])
        if args.rekeys and e in rekey_bench.CORES and args.sim == "verilator":
            recs = measure(f"top-{e}", "aesip_top, live rekey", "packet(s) lost or wrong under live rekey",
                           lambda: run_rekey(e, args.sim, args.rekeys, seed))
            rekey_recs.extend(recs or [])
            if e == rekey_bench.MULTI_CORE:
                recs = measure(f"top-{rekey_bench.MULTI_NAME}",
                               f"aesip_top with aes_mode_multi, {rekey_bench.MULTI_LANES} lanes, live rekey",
                               "packet(s) lost or wrong under live rekey",
                               lambda: run_rekey(e, args.sim, args.rekeys, seed, rekey_bench.MULTI_LANES))
                rekey_recs.extend(recs or [])
        elif args.rekeys and e in rekey_bench.CORES:
            tops = f"top-{e}" + (f" and top-{rekey_bench.MULTI_NAME}" if e == rekey_bench.MULTI_CORE else "")
            print(f"aesip bench: {tops} (live rekey) skipped: aesip_top simulates on Verilator only",
                  file=sys.stderr)
        if e == "pipe" and channels:
            for core in chan_bench.CORES:
                for rr in chan_rr:
                    if core == "tdea" and rr > 2:
                        continue        # tdea_pipe: RND_REGS 1 or 2
                    recs = measure(f"{chan_bench.CORES[core][0]} (ROUND_REGS={rr})", "chan_engine, CBC channels",
                                   "channel(s) differ from the reference",
                                   lambda: chan_bench.run(core, args.sim, seed, channels, rr))
                    chan_recs.extend(recs or [])
        for fe, lanes in ([(e, None)] + ([(rtl.MULTI_ENGINE, n) for n in ccmp_bench.MULTI_LANES]
                                         if e == "pipe" else [])) if ccmp_sizes else []:
            name = f"multi-pipe, {lanes} lanes" if lanes else fe
            recs = measure(f"ccmp-{name}", "ccmp_top, 802.11 CCMP front end", "MPDU(s) differ from the reference",
                           lambda: ccmp_bench.run(fe, args.sim, ccmp_sizes, args.ccm_packets, seed,
                                                  lanes or ccmp_bench.MULTI_LANES[0],
                                                  MULTI_PACKETS if lanes == MULTI_LANES else ()))
            ccmp_recs.extend(recs or [])
        if not sizes:
            continue
        recs = measure(f"ccm-{e}", "mode engine", "packet(s) differ from the reference",
                       lambda: run_ccm(e, args.sim, sizes, args.ccm_packets, seed))
        if recs is None:
            continue
        ccm_recs.extend(recs)
        if e != "pipe":
            continue
        recs = measure("ccm-multi-pipe", f"aes_mode_multi, {MULTI_LANES} lanes", "packet(s) differ from the reference",
                       lambda: run_ccm_multi(args.sim, sizes, args.ccm_packets, seed))
        ccm_recs.extend(recs or [])
        for lanes in [n for n in ccmp_bench.MULTI_LANES if n != MULTI_LANES] if ccmp_sizes else []:
            recs = measure(f"ccm-multi-pipe, {lanes} lanes", f"aes_mode_multi, {lanes} lanes (plain figure of the "
                           "ccmp records)", "packet(s) differ from the reference",
                           lambda: run_ccm_multi(args.sim, sizes, args.ccm_packets, seed, lanes, bursts=False))
            ccm_recs.extend(recs or [])
    if args.update_docs and not (failed or sim_failed) and args.sim == "verilator":
        throughput.merge_bench(all_recs + ccm_recs + ccmp_recs + rekey_recs + chan_recs)
        throughput.update_docs()
        print(f"aesip bench: updated {throughput.BENCH_RESULTS.relative_to(throughput.ROOT)} "
              "and the Gbit/s tables", file=sys.stderr)
    elif args.update_docs:
        print("aesip bench: --update-docs takes figures only from a complete Verilator run "
              "without mismatches; nothing written", file=sys.stderr)
    if args.json:
        print(json.dumps(all_recs + ccm_recs + ccmp_recs + rekey_recs + chan_recs, indent=1))
    else:
        if all_recs:
            print(format_table(all_recs))
            print("\ncycles: first input to last output of the stream; cyc/block: steady state; "
                  "latency: input handshake to output valid (clocks)")
            if any(r["op"] == "cbc-chain" for r in all_recs):
                print("cbc-chain: CBC encryption as a serial chain, one block at a time (the next input "
                      "depends on the previous output); cyc/block: spacing of the input handshakes, "
                      "including the testbench's turnaround")
        if ccm_recs:
            print(("\n" if all_recs else "") + format_ccm_table(ccm_recs))
            print(f"\nCCM encryption, {ccm_recs[0]['nonce_bytes']}-byte nonce, {ccm_recs[0]['tag_bytes']}-byte tag; "
                  "bytes: payload per packet; bits/cycle: payload bits per clock; cycles: first command "
                  "handshake to the last packet's last result; latency: of one packet alone (clocks); "
                  "blk/clk/pipe: AES blocks sent to the two cores / cycles / 2; ccm-multi-pipe: "
                  f"aes_mode_multi, {MULTI_LANES} packets in flight on one pair of aes_pipe cores")
        if ccmp_recs:
            print(("\n" if all_recs or ccm_recs else "") + format_ccmp_table(ccmp_recs))
            print(f"\nIEEE 802.11 CCMP front end (ccmp_top), AES-128, QoS Data MPDUs with a "
                  f"{ccmp_bench.HEADER_BYTES}-byte header; bytes: MSDU (frame body) per MPDU; bits/cycle: MSDU "
                  "bits per clock; cycles: first sideband handshake to the last MPDU's last result; latency: of "
                  "one MPDU alone (clocks); ccmp-multi-pipe: ccmp_top with MULTI = 1 (aes_mode_multi, "
                  f"{' and '.join(map(str, ccmp_bench.MULTI_LANES))} lanes)")
            cost = ccmp_bench.costs(ccmp_recs, ccm_recs)
            if cost:
                print("\n" + format_cost_table(cost))
                print("\ncost of the CCMP front end over the plain CCM record of the same op and engine "
                      "configuration (ccm-encrypt / ccm-decrypt, store-and-forward, on ccm-<x> for ccmp-<x>, same "
                      "lanes, payload bytes and packets; the plain packets carry 32 bytes of AAD, one AAD block "
                      "more than the MPDUs' 24)")
        if chan_recs:
            print(("\n" if all_recs or ccm_recs or ccmp_recs else "") + format_chan_table(chan_recs))
            print(f"\nCBC encryption on chan_engine: {chan_bench.PACKET_BYTES}-byte packets on C channels, beats "
                  "interleaved round robin; depth: pipeline clocks of the core; blk/clk/pipe: cipher blocks / "
                  "cycles; latency: first data handshake to first result (clocks)")
        if rekey_recs:
            print(("\n" if all_recs or ccm_recs or ccmp_recs or chan_recs else "") + format_rekey_table(rekey_recs))
            print(f"\nLive rekey on aesip_top: AES-128 keys committed over AXI4-Lite to slot 0 while CCM packets "
                  f"({rekey_recs[0]['bytes_per_packet']} bytes, {rekey_recs[0]['aad_bytes']} of AAD) on slot 0 run at "
                  "full load, every packet checked against aesip.ref under the key in force at its start; lost: "
                  "sent - received correctly; dip: largest extra gap between packet completions at a rekey over "
                  "the steady gap (bound: the key expansion); commit->load: largest clocks from the KEY_CTRL "
                  "write to the key handshake at the engine")
    return EXIT_SIM if sim_failed else 1 if failed else 0
