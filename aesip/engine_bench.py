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
The packets are CCM encryptions (op 'ccm-encrypt', every key size) with a 13-byte nonce,
32 bytes of AAD and an 8-byte tag (the 802.11 CCMP shape), and, with AES-128 only, the
same packets' store-and-forward CCM decryptions (op 'ccm-decrypt': the received tag in
the command, the plaintext released after it has verified; 1 and `packets` packets):
the plain figures beside which a front end's decryption is measured. bits_per_cycle
counts payload bits only (not the AAD).
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
DEC_KEY_BITS = (128,)   # key sizes of the ccm-decrypt records
IDLE = 4  # idle cycles before each measurement


def ccm_packet(rng: random.Random, size: int, slot: int = 0) -> dict:
    """One CCM encryption of `size` payload bytes in the measured shape (executor command)."""
    return {"cmd": "pkt", "op": "ccm-encrypt", "slot": slot, "iv": rng.randbytes(NONCE_BYTES).hex(),
            "nonce_len": NONCE_BYTES, "aad": rng.randbytes(AAD_BYTES).hex(), "data": rng.randbytes(size).hex(),
            "tag_len": TAG_LEN, "rtag": "", "cut": False}


def ccm_dec_packet(rng: random.Random, key: bytes, size: int, slot: int = 0) -> dict:
    """The store-and-forward CCM decryption of a packet in the measured shape (executor
    command; ciphertext and tag from aesip.ref)."""
    from aesip import ref

    p = ccm_packet(rng, size, slot)
    ct, tag = ref.ccm_encrypt(key, bytes.fromhex(p["iv"]), bytes.fromhex(p["aad"]), bytes.fromhex(p["data"]),
                              TAG_LEN)
    p.update(op="ccm-decrypt", data=ct.hex(), rtag=tag.hex())
    return p


def aes_blocks(size: int, aad: int = AAD_BYTES) -> int:
    """AES blocks one CCM packet sends to the two cores (0 < aad < 0xff00)."""
    m = -(-size // 16)
    a_blocks = 1 + (-(-(aad + 2) // 16) if aad else 0) + m
    b_blocks = 1 + m
    return a_blocks + b_blocks


def plan(rng: random.Random, sizes=SIZES, packets: int = PACKETS, key_bits=KEY_BITS,
         counts=None, dec_key_bits=DEC_KEY_BITS) -> tuple[list[dict], list[dict]]:
    """(commands, measurements): each measurement names its op, key size, payload size
    and the command indices of its packets; `counts`: packet counts of the encryptions
    (default 1 and `packets`); decryptions (key sizes `dec_key_bits`): 1 and `packets`."""
    cmds: list[dict] = []
    meas: list[dict] = []
    for kb in key_bits:
        key = rng.randbytes(kb // 8)
        cmds.append({"cmd": "key", "slot": 0, "key": key.hex()})
        for op in ("ccm-encrypt", "ccm-decrypt") if kb in dec_key_bits else ("ccm-encrypt",):
            for size in sizes:
                for n in (counts or (1, packets)) if op == "ccm-encrypt" else (1, packets):
                    cmds.append({"cmd": "sync", "idle": IDLE})
                    first = len(cmds)
                    cmds += [ccm_packet(rng, size) if op == "ccm-encrypt" else ccm_dec_packet(rng, key, size)
                             for _ in range(n)]
                    meas.append({"op": op, "key_bits": kb, "size": size, "pkts": list(range(first, len(cmds)))})
    return cmds, meas


def check(commands: list[dict], results: list[dict]) -> tuple[int, list[dict]]:
    """Compare every CCM-encrypt packet's ciphertext and tag, and every CCM-decrypt
    packet's plaintext and status, with aesip.ref, tracking the key of every slot through
    the key commands. Returns (packets checked, mismatches)."""
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
        elif c["cmd"] == "pkt" and c["op"] == "ccm-decrypt":
            key = slot_key[c["slot"]]
            pt = ref.ccm_decrypt(key, bytes.fromhex(c["iv"]), bytes.fromhex(c["aad"]), bytes.fromhex(c["data"]),
                                 bytes.fromhex(c["rtag"]))
            got = bytes.fromhex(r["out"]) if r["out"] is not None else b""
            n += 1
            if pt is None or r["err"] or r["flag"] or got != pt:
                bad.append({"command": ci, "key_bits": len(key) * 8, "bytes": len(got), "err": r["err"],
                            "pt_ok": got == pt})
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
        op = m.get("op", "ccm-encrypt")
        if n == 1:
            lat[(op, m["key_bits"], m["size"])] = cyc
        recs.append({
            "engine": f"ccm-{engine}", "op": op, "key_bits": m["key_bits"],
            "bytes_per_packet": m["size"], "aad_bytes": AAD_BYTES, "nonce_bytes": NONCE_BYTES,
            "tag_bytes": TAG_LEN, "packets": n, "cycles": cyc, "cycles_per_packet": round(cyc / n, 1),
            "bits_per_cycle": round(8 * m["size"] * n / cyc, 6),
            "latency_cycles": lat[(op, m["key_bits"], m["size"])], "sim": simulator,
            "aes_blocks": aes_blocks(m["size"]) * n,
            "blocks_per_clock_per_pipe": round(aes_blocks(m["size"]) * n / cyc / 2, 6),
        })
    return recs
