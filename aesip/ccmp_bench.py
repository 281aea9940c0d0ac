# SPDX-License-Identifier: Apache-2.0
"""Cycle-accurate benchmark of the IEEE 802.11 CCMP front end (the ccmp records of
`aesip bench`; rtl/proto/ccmp_top.v, docs/ccmp.md).

Host side, no cocotb: `plan` builds "burst" commands for the front-end executor
(aesip.tb.frame_cli via aesip.tb.ccmp_cli_tb, which only drives the ports and records
handshake cycles), `check` compares every output MPDU with the standard's construction
(aesip.ref.ccmp_protect / ccmp_unprotect: own header parser, `cryptography`'s AESCCM),
`records` turns the cycles into figures.

Workload: QoS Data MPDUs with a 26-byte MAC header (AAD 24 bytes: 2 AAD blocks with its
length field), AES-128 (CCMP-128), MSDU (frame body) sizes `sizes` (default 64, 256,
1500, 2304 bytes), all on key slot 0, TID 0, PNs increasing through the run (every
decryption passes the replay check). For each op and size, after the front end has gone
idle: one MPDU alone (latency = cycles from its sideband beat's handshake to its last
result: status or last output beat, whichever is later), then `packets` MPDUs queued at
once, no gaps or backpressure (cycles = first sideband handshake to the last MPDU's
last result); on the 16-lane engine also bursts of 32 and 128 MPDUs (the burst lengths of
the plain 16-lane CCM records, `bursts`). Decryptions take the protected MPDUs the reference builds.

Record fields: engine ('ccmp-<core>': ccmp_top on aes_mode_engine on that core;
'ccmp-multi-pipe': ccmp_top with MULTI = 1, aes_mode_multi with `lanes` (MULTI_LANES: 2
and 16) lanes on aes_pipe),
op ('ccmp-encrypt' / 'ccmp-decrypt'), key_bits (128), bytes_per_packet (MSDU bytes),
header_bytes (26), mpdu_bytes (input MPDU), packets, cycles, cycles_per_packet,
bits_per_cycle (MSDU bits / cycles), latency_cycles, sim, aes_blocks (AES blocks sent to
the two cores, engine step plan), blocks_per_clock_per_pipe (aes_blocks / cycles / 2),
and `lanes` on the multi-lane engine.

`costs` sets each record beside the plain CCM record of the same engine configuration
(ccmp-<x> against ccm-<x>, the same `lanes`), payload size, packet count and key size:
the front end's cost in cycles. The plain records carry 32 bytes of AAD, one AAD block
more than the CCMP workload's 24 (aesip/engine_bench.py); ccmp-decrypt is set beside the
plain store-and-forward ccm-decrypt record (AES-128, 1 and 8 packets; the tag in the
command, the plaintext released after it has verified), ccmp-encrypt beside
ccm-encrypt.
"""
from __future__ import annotations

import random

from aesip import ccmp_iface, ccmp_run, engine_bench, ref, rtl, session

SIZES = (64, 256, 1500, 2304)
BODY_MAX = 2304       # the largest MSDU (the front end's input buffer holds one MPDU of it)
PACKETS = 8
KEY_BITS = 128
HEADER_BYTES = 26
AAD_BYTES = 24        # FC, A1-A3, SC, QC of a QoS Data frame (12.5.3.3.3)
IDLE = 4              # idle cycles before each measurement
OPS = ("ccmp-encrypt", "ccmp-decrypt")
MULTI_LANES = (2, 16)  # ccmp_top MULTI = 1: aes_mode_multi with LANES = 2 and 16 (the plain
                       # ccm-multi-pipe records: 16 lanes, and 2 lanes for this comparison)


def qos_mpdu(rng: random.Random, size: int) -> bytes:
    """A plaintext QoS Data MPDU (ToDS, no A4, Order clear, TID 0) with `size` body bytes."""
    fc = bytes([0x88, 0x01])
    qc = bytes([0x00, 0x00])
    return fc + rng.randbytes(22) + qc + rng.randbytes(size)


def plan(rng: random.Random, sizes=SIZES, packets: int = PACKETS, bursts=()) -> tuple[list[dict], list[dict]]:
    """(commands, measurements): a key load, then one burst per (op, size, count) for the
    counts 1, `packets` and `bursts`; each measurement names its op, size and command
    index."""
    key = rng.randbytes(KEY_BITS // 8)
    cmds: list[dict] = [{"cmd": "key", "slot": 0, "key": key.hex()}]
    meas: list[dict] = []
    pn = 1
    for op in OPS:
        for size in sizes:
            for n in sorted({1, packets, *bursts}):
                frames = []
                for _ in range(n):
                    m = qos_mpdu(rng, size)
                    kid = rng.randrange(4)
                    f = {"op": op, "slot": 0, "pn": pn, "key_id": kid, "plain": m.hex()}
                    mpdu = m if op == "ccmp-encrypt" else ref.ccmp_protect(key, m, pn, kid)
                    f["mpdu"], f["frame_len"] = mpdu.hex(), ccmp_run.frame_len(mpdu)
                    frames.append(f)
                    pn += 1
                meas.append({"op": op, "size": size, "cmd": len(cmds)})
                cmds.append({"cmd": "burst", "idle": IDLE, "frames": frames})
    return cmds, meas


def check(commands: list[dict], results: list[dict]) -> tuple[int, list[dict]]:
    """Compare every MPDU's output and status with the reference, tracking the slot's key.
    Returns (MPDUs checked, mismatches)."""
    key = None
    n, bad = 0, []
    for ci, (c, r) in enumerate(zip(commands, results, strict=True)):
        if c["cmd"] == "key":
            key = bytes.fromhex(c["key"])
            continue
        if c["cmd"] != "burst":
            continue
        for k, (f, got) in enumerate(zip(c["frames"], r["frames"], strict=True)):
            plain = bytes.fromhex(f["plain"])
            if f["op"] == "ccmp-encrypt":
                exp = ref.ccmp_protect(key, plain, f["pn"], f["key_id"])
                ok = got["out"] == exp.hex()
            else:
                exp_u = ref.ccmp_unprotect(key, bytes.fromhex(f["mpdu"]))
                ok = (exp_u == (plain, f["pn"], f["key_id"]) and got["out"] == plain.hex()
                      and got["pn"] == f["pn"] and got["key_id"] == f["key_id"])
            n += 1
            if got["err"] != ccmp_iface.ERR_OK or got["flag"] or not ok:
                bad.append({"command": ci, "frame": k, "op": f["op"], "bytes": len(plain), "err": got["err"],
                            "flag": got["flag"], "out_ok": ok})
    return n, bad


def done_cycle(r: dict) -> int:
    """Cycle of an MPDU's last result handshake (status or last output beat)."""
    return max(r["t_sts"], r["t_out"] if r["t_out"] is not None else 0)


def records(engine: str, simulator: str, results: list[dict], meas: list[dict], lanes: int | None = None) -> list[dict]:
    recs = []
    lat = {}
    for m in meas:
        rs = results[m["cmd"]]["frames"]
        cyc = done_cycle(rs[-1]) - rs[0]["t_cmd"]
        n = len(rs)
        if n == 1:
            lat[(m["op"], m["size"])] = cyc
        blocks = engine_bench.aes_blocks(m["size"], AAD_BYTES) * n
        rec = {
            "engine": f"ccmp-{engine}", "op": m["op"], "key_bits": KEY_BITS, "bytes_per_packet": m["size"],
            "header_bytes": HEADER_BYTES,
            "mpdu_bytes": HEADER_BYTES + m["size"] + (16 if m["op"] == "ccmp-decrypt" else 0),
            "packets": n, "cycles": cyc, "cycles_per_packet": round(cyc / n, 1),
            "bits_per_cycle": round(8 * m["size"] * n / cyc, 6),
            "latency_cycles": lat[(m["op"], m["size"])], "sim": simulator,
            "aes_blocks": blocks, "blocks_per_clock_per_pipe": round(blocks / cyc / 2, 6),
        }
        if lanes is not None:
            rec["lanes"] = lanes
        recs.append(rec)
    return recs


def run(engine: str, simulator: str, sizes, packets: int, seed: int,
        lanes: int = MULTI_LANES[0], bursts=(), params: dict | None = None,
        variant: str | None = None) -> tuple[list[dict], list[dict]]:
    """(records, mismatching MPDUs) for ccmp_top on `engine` (a block core, or
    rtl.MULTI_ENGINE: MULTI = 1 on aes_pipe with LANES = `lanes`), from one simulation;
    `bursts`: more burst lengths measured besides 1 and `packets`; `params`: ccmp_top
    parameter overrides of a parameter variant, whose records are named `variant`."""
    multi = engine == rtl.MULTI_ENGINE
    name = variant or ("multi-pipe" if multi else engine)
    overrides = {**({"LANES": lanes} if multi else {}), **(params or {})}
    target = session.with_params(ccmp_run.target_for(engine), overrides)
    rng = random.Random(f"{seed}-ccmp-{name}" + (f"-lanes{lanes}" if multi and lanes != MULTI_LANES[0] else ""))
    cmds, meas = plan(rng, sizes, packets, bursts)
    res = session.simulate(target, simulator, cmds)["results"]
    _n, bad = check(cmds, res)
    return records(name, simulator, res, meas, lanes if multi else None), bad


def costs(ccmp_recs: list[dict], ccm_recs: list[dict]) -> list[dict]:
    """Each ccmp record with its like-for-like plain CCM record (op ccm-encrypt /
    ccm-decrypt for ccmp-encrypt / ccmp-decrypt, engine ccm-<x> for ccmp-<x>, the same
    lanes, bytes_per_packet, packets, key_bits): rows of engine, lanes,
    op, bytes, packets, ccmp cycles, plain cycles, cost (ccmp / plain - 1). Records
    without a plain counterpart are left out."""
    plain = {(r["op"], r["engine"], r.get("lanes"), r["key_bits"], r["bytes_per_packet"], r["packets"]): r
             for r in ccm_recs}
    rows = []
    for r in ccmp_recs:
        p = plain.get(("ccm-" + r["op"].removeprefix("ccmp-"), "ccm-" + r["engine"].removeprefix("ccmp-"),
                       r.get("lanes"), r["key_bits"], r["bytes_per_packet"], r["packets"]))
        if p is None:
            continue
        rows.append({"engine": r["engine"], "lanes": r.get("lanes"), "op": r["op"], "bytes": r["bytes_per_packet"],
                     "packets": r["packets"], "cycles": r["cycles"], "plain_cycles": p["cycles"],
                     "cost": r["cycles"] / p["cycles"] - 1})
    return rows
