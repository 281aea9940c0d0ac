# SPDX-License-Identifier: Apache-2.0
"""Channel records of `aesip bench`: CBC encryption on the multi-channel engine
chan_engine (docs/channels.md), AES-128 on aes_pipe and three-key TDEA on tdea_pipe.

Method: one simulation per core and ROUND_REGS (a 128-context build, CH_W = 7, four key
slots with random keys; channel c uses slot c mod 4). For each channel count C
(`--channels`, default 1,4,16,64,128) every one of C channels sends max(1, 8 // C)
packets of 1504 bytes (1500-byte packets padded to whole blocks: 94 AES / 188 TDEA
blocks) with a random IV; the beats of the channels are interleaved round robin and
the outputs are always ready. Every ciphertext block and every status is checked
against aesip.ref; a mismatch fails the command instead of printing figures.

Record fields (contract of ../shared/README.md plus): engine ('chan-pipe' or
'chan-tdea-pipe'), op ('cbc-encrypt' / 'tdea-cbc-encrypt'), key_bits (128 / 192),
bytes_per_packet (1504), packets (all channels), channels (C), cycles (first command
handshake to the last status handshake), bits_per_cycle (payload bits / cycles),
blocks_per_clock_per_pipe (cipher blocks / cycles: how full the one pipeline is kept),
latency_cycles (first data handshake to the first result handshake), pipeline_depth
(clocks of the core's pipeline: 14 * ROUND_REGS on aes_pipe with NR_MAX 14, 48 *
ROUND_REGS + 3 on tdea_pipe: its input, result and output registers), round_regs, sim.
"""
from __future__ import annotations

import random

from aesip import ref, session

CHANNELS = (1, 4, 16, 64, 128)
CH_W = 7
SLOTS = 4
PACKET_BYTES = 1504
CORES = {  # core -> (engine name, op, key bytes, block bytes, pipeline clocks per ROUND_REGS,
           #          pipeline clocks besides the rounds)
    "aes": ("chan-pipe", "cbc-encrypt", 16, 16, 14, 0),
    "tdea": ("chan-tdea-pipe", "tdea-cbc-encrypt", 24, 8, 48, 3),
}


def packets_per_channel(c: int) -> int:
    return max(1, 8 // c)


def plan(rng: random.Random, core: str, channels) -> tuple[list[dict], dict]:
    """Executor commands and the keys by slot."""
    _eng, op, kb, bb, _d, _x = CORES[core]
    keys = {s: rng.randbytes(kb) for s in range(SLOTS)}
    cmds = [{"cmd": "key", "slot": s, "key": k.hex()} for s, k in keys.items()]
    for c in channels:
        items = []
        for _ in range(packets_per_channel(c)):
            for ch in range(c):
                items.append({"ch": ch, "op": op, "slot": ch % SLOTS, "iv": rng.randbytes(bb).hex(),
                              "data": rng.randbytes(PACKET_BYTES).hex()})
        cmds.append({"cmd": "packets", "items": items, "order": "rr", "channels": c})
    return cmds, keys


def expected(core: str, item: dict, keys: dict) -> bytes:
    key, iv, data = keys[item["slot"]], bytes.fromhex(item["iv"]), bytes.fromhex(item["data"])
    if core == "tdea":
        return ref.tdea_cbc(key, iv, data, False)
    return ref.cbc_encrypt(key, iv, data)


def check(core: str, cmds: list[dict], resp: dict, keys: dict) -> list[dict]:
    """Mismatches (empty when every packet came out right)."""
    bad = []
    bb = CORES[core][3]
    for cmd, res in zip(cmds, resp["results"]):
        if cmd["cmd"] != "packets":
            continue
        per_ch: dict[int, list[dict]] = {}
        for it in cmd["items"]:
            per_ch.setdefault(it["ch"], []).append(it)
        for ch, items in per_ch.items():
            got = res["channels"].get(str(ch), {"beats": [], "sts": []})
            cts = [expected(core, it, keys) for it in items]
            want = b"".join(cts)
            out = b"".join(bytes.fromhex(b[0]) for b in got["beats"])
            sts = got["sts"]
            want_sts = [[0, ct[-bb:].ljust(16, b"\0").hex()] for ct in cts]
            if out != want or sts != want_sts or any(b[2] for b in got["beats"]):
                bad.append({"channels": cmd["channels"], "ch": ch, "beats": len(got["beats"]),
                            "statuses": sts[:3]})
    return bad


def target(core: str, round_regs: int = 1) -> session.SimTarget:
    return session.chan_target(core, CH_W, round_regs)


def run(core: str, simulator: str, seed: int, channels=CHANNELS, round_regs: int = 1) -> tuple[list[dict], list[dict]]:
    """(records, mismatches) for one core and ROUND_REGS."""
    rng = random.Random(f"{seed}-chan-{core}-{round_regs}")
    cmds, keys = plan(rng, core, channels)
    resp = session.simulate(target(core, round_regs), simulator, cmds)
    bad = check(core, cmds, resp, keys)
    if bad:
        return [], bad
    eng, op, kb, bb, depth, extra = CORES[core]
    recs = []
    for cmd, res in zip(cmds, resp["results"]):
        if cmd["cmd"] != "packets":
            continue
        n = len(cmd["items"])
        cyc = res["cycles"]
        blocks = n * PACKET_BYTES // bb
        recs.append({
            "engine": eng, "op": op, "key_bits": kb * 8, "bytes_per_packet": PACKET_BYTES,
            "packets": n, "channels": cmd["channels"], "cycles": cyc,
            "bits_per_cycle": round(n * PACKET_BYTES * 8 / cyc, 3),
            "blocks_per_clock_per_pipe": round(blocks / cyc, 4),
            "latency_cycles": res["latency"], "pipeline_depth": depth * round_regs + extra,
            "round_regs": round_regs, "sim": simulator,
        })
    return recs, []
