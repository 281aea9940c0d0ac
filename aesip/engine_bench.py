# SPDX-License-Identifier: Apache-2.0
"""Cycle-accurate CCM benchmark of aes_mode_engine (the CCM records of `aesip bench`).

Host side, no cocotb: `plan` builds the commands for the engine executor
(aesip.tb.engine_cli_tb, which only drives the ports and records handshake cycles),
`check` compares every result with aesip.ref, `records` turns the handshake cycle
numbers into figures.

For each key size (slot 0) and payload size it measures, with no gaps and no
backpressure, after the engine has gone idle:
  * one packet alone: latency = cycles from its command handshake to the handshake of
    its last result (status beat or last ciphertext beat, whichever is later);
  * `packets` packets back to back (all queued at once): cycles from the first command
    handshake to the last packet's last result.
Every packet is a CCM encryption with a 13-byte nonce, 32 bytes of AAD and an 8-byte tag
(the 802.11 CCMP shape). bits_per_cycle counts payload bits only (not the AAD).
aes_blocks counts the AES blocks the packets send to the two cores, from the engine's
step plan (docs/mode_engine.md): core A (CBC-MAC) 1 (B0) + ceil((a + 2)/16) AAD blocks +
m payload blocks, core B (counters) 1 (Ctr0) + m, for a AAD bytes (0 < a < 0xff00) and m
payload blocks; blocks_per_clock_per_pipe = aes_blocks / cycles / 2.
"""
from __future__ import annotations

import random

AAD_BYTES = 32
NONCE_BYTES = 13
TAG_LEN = 8
SIZES = (16, 64, 256, 1500)
PACKETS = 8
KEY_BITS = (128, 192, 256)
IDLE = 4  # idle cycles before each measurement


def ccm_packet(rng: random.Random, size: int, slot: int = 0) -> dict:
    """One CCM encryption of `size` payload bytes in the measured shape (executor command)."""
    return {"cmd": "pkt", "op": "ccm-encrypt", "slot": slot, "iv": rng.randbytes(NONCE_BYTES).hex(),
            "nonce_len": NONCE_BYTES, "aad": rng.randbytes(AAD_BYTES).hex(), "data": rng.randbytes(size).hex(),
            "tag_len": TAG_LEN, "rtag": "", "cut": False}


def aes_blocks(size: int, aad: int = AAD_BYTES) -> int:
    """AES blocks one CCM packet sends to the two cores (0 < aad < 0xff00)."""
    m = -(-size // 16)
    a_blocks = 1 + (-(-(aad + 2) // 16) if aad else 0) + m
    b_blocks = 1 + m
    return a_blocks + b_blocks


def plan(rng: random.Random, sizes=SIZES, packets: int = PACKETS, key_bits=KEY_BITS,
         counts=None) -> tuple[list[dict], list[dict]]:
    """(commands, measurements): each measurement names its key size, payload size and
    the command indices of its packets; `counts`: packet counts measured (default 1 and
    `packets`)."""
    cmds: list[dict] = []
    meas: list[dict] = []
    for kb in key_bits:
        cmds.append({"cmd": "key", "slot": 0, "key": rng.randbytes(kb // 8).hex()})
        for size in sizes:
            for n in (counts or (1, packets)):
                cmds.append({"cmd": "sync", "idle": IDLE})
                first = len(cmds)
                cmds += [ccm_packet(rng, size) for _ in range(n)]
                meas.append({"key_bits": kb, "size": size, "pkts": list(range(first, len(cmds)))})
    return cmds, meas


def check(commands: list[dict], results: list[dict]) -> tuple[int, list[dict]]:
    """Compare every CCM-encrypt packet's ciphertext and tag with aesip.ref, tracking the
    key of every slot through the key commands. Returns (packets checked, mismatches)."""
    from aesip import ref

    slot_key: dict[int, bytes] = {}
    n, bad = 0, []
    for ci, (c, r) in enumerate(zip(commands, results, strict=True)):
        if c["cmd"] == "key":
            slot_key[c["slot"]] = bytes.fromhex(c["key"])
        elif c["cmd"] == "pkt" and c["op"] == "ccm-encrypt":
            key = slot_key[c["slot"]]
            ct, tag = ref.ccm_encrypt(key, bytes.fromhex(c["iv"]), bytes.fromhex(c["aad"]),
                                      bytes.fromhex(c["data"]), c["tag_len"])
            got_ct = bytes.fromhex(r["out"]) if r["out"] is not None else b""
            got_tag = bytes.fromhex(r["value"])[: c["tag_len"]]
            n += 1
            if r["err"] or r["flag"] or got_ct != ct or got_tag != tag:
                bad.append({"command": ci, "key_bits": len(key) * 8, "bytes": len(ct), "err": r["err"],
                            "ct_ok": got_ct == ct, "tag_ok": got_tag == tag})
    return n, bad


def done_cycle(r: dict) -> int:
    """Cycle of a packet's last result handshake (status or last output beat)."""
    return max(r["t_sts"], r["t_out"] if r["t_out"] is not None else 0)


def records(engine: str, simulator: str, results: list[dict], meas: list[dict]) -> list[dict]:
    recs = []
    lat = {}
    for m in meas:
        rs = [results[i] for i in m["pkts"]]
        cyc = done_cycle(rs[-1]) - rs[0]["t_cmd"]
        n = len(rs)
        if n == 1:
            lat[(m["key_bits"], m["size"])] = cyc
        recs.append({
            "engine": f"ccm-{engine}", "op": "ccm-encrypt", "key_bits": m["key_bits"],
            "bytes_per_packet": m["size"], "aad_bytes": AAD_BYTES, "nonce_bytes": NONCE_BYTES,
            "tag_bytes": TAG_LEN, "packets": n, "cycles": cyc, "cycles_per_packet": round(cyc / n, 1),
            "bits_per_cycle": round(8 * m["size"] * n / cyc, 6),
            "latency_cycles": lat[(m["key_bits"], m["size"])], "sim": simulator,
            "aes_blocks": aes_blocks(m["size"]) * n,
            "blocks_per_clock_per_pipe": round(aes_blocks(m["size"]) * n / cyc / 2, 6),
        })
    return recs
