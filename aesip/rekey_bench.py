# SPDX-License-Identifier: Apache-2.0
"""Live rekey under full load on aesip_top (the "rekey" record of `aesip bench`).

Host side, no cocotb: `plan` builds the commands for the aesip_top executor
(aesip.tb.top_cli_tb, Verilator only), `check` compares every packet with aesip.ref under
the key in force when the packet started, `record` turns the handshake cycles into
figures.

The scenario (docs/soc.md, "Timing of a commit"): after the power-up self-test, an
AES-128 key is loaded into slot 0 over AXI4-Lite; then `packets` CCM encryptions of
`size` payload bytes (the CCM records' shape: 13-byte nonce, 32 bytes of AAD, 8-byte tag,
aesip.engine_bench) on slot 0 are all queued at once (command and data streams always
valid, outputs always ready: full load), and `rekeys` new AES-128 keys are committed to
slot 0 over AXI4-Lite while they run: rekey i (1..N) once PER*i + a random 0..PER-1
packets have completed (seeded), so every commit lands while packets of the slot are in
the engine, with at least PER packets after the last one.

Key in force: a packet runs under the key of the last key handshake of slot 0 at the
engine's key port before its command handshake (docs/soc.md). A packet is lost unless its
status is OK and its ciphertext and tag equal aesip.ref's under that key;
packets_lost = packets sent - packets received correctly.

dip_cycles: packet completions (a packet's last result handshake: status or last output
beat) are spaced by the steady-state gap G (the median spacing away from rekeys). For a
rekey, the dip is the largest spacing of the two completions that follow its key
handshake (the first packet whose command follows the load waits for the key expansion)
minus G; dip_cycles is the largest dip over all rekeys (dip_cycles_median: their median).
With LANES = k >= 2 (top-multi) the spacing is taken between completions k packets apart
(packet j runs on lane j mod k after packet j - k: one lane's packet time; consecutive
completions leave in bursts, a few clocks apart within one) and over the k + 1
completions that follow the handshake; k = 1 is the rule above.
Bound: the key expansion of an AES-128 key, key_ready low 4Nr + 4 = 44 clocks on
aes_iter128, 4Nr + 10 = 50 on aes_pipe (EXPANSION; docs/iter128.md, docs/pipe.md);
latency_cycles: the largest commit-to-load time (KEY_CTRL write completed to the key
handshake at the engine: waits for the packet of the slot in the engine).

top-multi (made with the `pipe` run): aesip_top with LANES = MULTI_LANES (aes_mode_multi on
aes_pipe), the same scenario and checks, a `lanes` field. aes_mode_multi has
double-buffered key slots: the load goes into a bank of the slot that no running packet
uses (the other bank, or the active one for a second load soon after a first) while the lanes finish
their packets on the old key, and only the commands for the slot wait for the expansion
(docs/mode_engine.md, "aes_mode_multi", "Key slots"), so its dip is bounded by the key
expansion as well (+ 2 clocks: the registered bank flip; docs/soc.md, "Timing of a
commit").
"""
from __future__ import annotations

import random
import statistics

from aesip import engine_bench

SIZE = 64
PER = 5          # packets between rekeys
KEY_BYTES = 16
CORES = ("iter128", "pipe")
EXPANSION = {"iter128": 4 * 10 + 4, "pipe": 4 * 10 + 10}   # AES-128 key expansion, clocks
# top-multi: aesip_top with LANES = MULTI_LANES (aes_mode_multi) on MULTI_CORE, made with
# the `pipe` run (double-buffered key slots: no lane drain at a rekey; docs/soc.md).
MULTI_NAME = "multi"
MULTI_CORE = "pipe"
MULTI_LANES = 4


def n_packets(rekeys: int) -> int:
    return PER * (rekeys + 2)


def plan(rng: random.Random, rekeys: int, size: int = SIZE) -> tuple[list[dict], list[bytes]]:
    """(commands, keys of slot 0 in commit order: the initial one, then one per rekey)."""
    keys = [rng.randbytes(KEY_BYTES) for _ in range(rekeys + 1)]
    cmds = [{"cmd": "bring_up"}, {"cmd": "key", "slot": 0, "key": keys[0].hex()}, {"cmd": "sync", "idle": 4}]
    cmds += [{"cmd": "rekey", "slot": 0, "key": k.hex(), "after": PER * i + rng.randrange(PER)}
             for i, k in enumerate(keys[1:], 1)]
    cmds += [engine_bench.ccm_packet(rng, size) for _ in range(n_packets(rekeys))]
    cmds.append({"cmd": "sync", "idle": 4})
    return cmds, keys


def _slot0_loads(commands: list[dict], resp: dict) -> list[int]:
    """Cycles of the slot-0 key handshakes from the user's key load on (the power-up
    self-test's KAT loads come before the bring_up result)."""
    t0 = next(r["cycle"] for c, r in zip(commands, resp["results"]) if c["cmd"] == "bring_up")
    return [c for c, s in resp["loads"] if s == 0 and c >= t0]


def check(commands: list[dict], resp: dict, keys: list[bytes]) -> tuple[list[dict], list[dict], list[int]]:
    """(one row per packet: command index, key generation, ok, t_cmd, done; mismatches;
    slot-0 key handshake cycles). A packet is checked against aesip.ref under the key in
    force at its command handshake."""
    from aesip import ref

    loads = _slot0_loads(commands, resp)
    rows, bad = [], []
    if len(loads) != len(keys):
        bad.append({"why": f"{len(loads)} key loads of slot 0 seen, {len(keys)} committed"})
    for ci, (c, r) in enumerate(zip(commands, resp["results"], strict=True)):
        if c["cmd"] != "pkt":
            continue
        gen = sum(1 for t in loads if t < r["t_cmd"]) - 1
        why = None
        if not 0 <= gen < len(keys):
            why = f"no key loaded before the command (generation {gen})"
        else:
            ct, tag = ref.ccm_encrypt(keys[gen], bytes.fromhex(c["iv"]), bytes.fromhex(c["aad"]),
                                      bytes.fromhex(c["data"]), c["tag_len"])
            got = bytes.fromhex(r["out"]) if r["out"] is not None else b""
            if r["err"] != 0:
                why = f"status error {r['err']}"
            elif r["flag"] or got != ct or bytes.fromhex(r["value"])[: c["tag_len"]] != tag:
                why = "ciphertext or tag differs from the reference under the key in force"
        rows.append({"command": ci, "gen": gen, "ok": why is None, "t_cmd": r["t_cmd"],
                     "done": engine_bench.done_cycle(r)})
        if why is not None:
            bad.append({"command": ci, "key_generation": gen, "why": why})
    return rows, bad, loads


def dips(rows: list[dict], loads: list[int], lanes: int = 1) -> tuple[float, list[int]]:
    """(steady-state completion gap G, dip per rekey in clocks; see the module doc): gaps
    between completions `lanes` packets apart."""
    gaps = {j: rows[j]["done"] - rows[j - lanes]["done"] for j in range(lanes, len(rows))}
    windows = []
    for t in loads[1:]:
        j = next((k for k, r in enumerate(rows) if r["t_cmd"] > t), None)
        if j is not None:
            windows.append([k for k in range(j, j + lanes + 1) if k in gaps])
    around = {k for w in windows for k in w}
    steady = statistics.median(g for j, g in gaps.items() if j not in around)
    return steady, [round(max(gaps[k] for k in w) - steady) for w in windows if w]


def record(core: str, simulator: str, commands: list[dict], resp: dict, rows: list[dict],
           loads: list[int], size: int = SIZE, lanes: int = 1) -> dict:
    """The record of engine top-<core> (lanes = 1), or top-multi (lanes >= 2: aesip_top
    with LANES = lanes on block core `core`, with a `lanes` field)."""
    steady, dip = dips(rows, loads, lanes)
    rk = [(r["t_commit"], c["key"]) for c, r in zip(commands, resp["results"]) if c["cmd"] == "rekey"]
    lat = [max(0, ld - tc) for (tc, _), ld in zip(rk, loads[1:])]
    n = len(rows)
    cyc = rows[-1]["done"] - rows[0]["t_cmd"]
    rec = {
        "engine": f"top-{core if lanes == 1 else MULTI_NAME}", "op": "rekey", "key_bits": 8 * KEY_BYTES, "bytes_per_packet": size,
        "aad_bytes": engine_bench.AAD_BYTES, "nonce_bytes": engine_bench.NONCE_BYTES,
        "tag_bytes": engine_bench.TAG_LEN, "rekeys": len(rk), "packets": n,
        "packets_lost": n - sum(r["ok"] for r in rows), "keys_used": len({r["gen"] for r in rows}),
        "dip_cycles": max(dip), "dip_cycles_median": round(statistics.median(dip)),
        "steady_gap_cycles": round(steady), "key_expansion_cycles": EXPANSION[core],
        "cycles": cyc, "bits_per_cycle": round(8 * size * n / cyc, 6),
        "latency_cycles": max(lat), "sim": simulator,
    }
    if lanes > 1:
        rec["lanes"] = lanes
    return rec

