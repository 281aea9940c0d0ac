# SPDX-License-Identifier: Apache-2.0
"""`aesip demo --top`: a scenario through the drop-in IP aesip_top (docs/soc.md) in one
Verilator simulation (executor aesip.tb.top_cli_tb), printing the register reads and
what the hardware did, every step checked:

  1. power-up known-answer self-test: SELFTEST read after busy = 0 (pass, the build's tests);
  2. identification: VERSION (magic 0xAE51, major 1) and FEATURES (core, NR_MAX, key sizes, lanes,
     slots) against the build;
  3. key load over AXI4-Lite: slot 0 AES-128, slot 1 AES-256 (KEY words, KEY_CTRL
     len | commit, KEY_STATUS polled until not pending); KEY_STATUS, SLOT_SUMMARY,
     INTR_STATUS.key_loaded read; the key words read back as 0 (write-only);
  4. CCM traffic: encryptions and decryptions on both slots, checked against aesip.ref
     (`cryptography`); PKT_COUNT;
  5. live rekey: a new key committed to slot 0 over AXI4-Lite while packets on slot 0 run
     back to back; every packet checked under the key in force when its command was
     accepted (the last key handshake of the slot at the engine before it); none lost;
  6. a tampered packet (one tag bit flipped): status AUTH, no plaintext, AUTH_FAIL_COUNT
     + 1, INTR_STATUS.auth_fail;
  7. zeroize: CTRL.zeroize written, read 1 while the wipe runs, polled until it reads 0;
     SLOT_SUMMARY 0, INTR_STATUS.zeroize_done; a packet afterwards fails with KEY and
     KEY_ERR_COUNT counts it.

Random keys and data come from the seed (printed; `--seed` replays). No key is printed:
the key words are only reported as read back (0). Exit status 0 only if every check
passed (1 otherwise).
"""
from __future__ import annotations

import os
import random

from aesip import csr, iface, ref, session
from aesip.engine_bench import ccm_packet
from aesip.errors import UsageError

TRAFFIC = 8          # step 4 packets
REKEY_PKTS = 12      # step 5 packets on slot 0, the rekey after REKEY_AFTER of them
REKEY_AFTER = 4


def _pkt(rng: random.Random, slot: int, key: bytes, dec: bool = False, tamper: bool = False) -> dict:
    p = ccm_packet(rng, rng.randint(1, 200), slot)
    if dec:
        ct, tag = ref.ccm_encrypt(key, bytes.fromhex(p["iv"]), bytes.fromhex(p["aad"]), bytes.fromhex(p["data"]),
                                  p["tag_len"])
        if tamper:
            tag = bytes([tag[0] ^ 0x01]) + tag[1:]
        p.update(op="ccm-decrypt", data=ct.hex(), rtag=tag.hex())
    return p


def plan(rng: random.Random) -> tuple[list[dict], dict]:
    """(commands, keys and command indices the report needs)."""
    cmds: list[dict] = []
    at: dict = {}

    def add(name: str, cmd: dict) -> int:
        cmds.append(cmd)
        at.setdefault(name, []).append(len(cmds) - 1)
        return len(cmds) - 1

    k0, k1, k2 = rng.randbytes(16), rng.randbytes(32), rng.randbytes(16)
    add("bring_up", {"cmd": "bring_up"})
    for reg in ("SELFTEST", "VERSION", "FEATURES"):
        add(reg, {"cmd": "read", "reg": reg})
    add("key", {"cmd": "key", "slot": 0, "key": k0.hex()})
    add("key", {"cmd": "key", "slot": 1, "key": k1.hex()})
    for reg in ("SLOT[0].KEY_STATUS", "SLOT[1].KEY_STATUS", "SLOT_SUMMARY", "INTR_STATUS"):
        add(reg, {"cmd": "read", "reg": reg})
    for s in (0, 1):
        for i in range(8):
            add("keyword", {"cmd": "read", "reg": f"SLOT[{s}].KEY[{i}]"})
    add("clear", {"cmd": "write", "reg": "INTR_STATUS", "value": 0xFF})
    keys = {0: k0, 1: k1}
    for i in range(TRAFFIC):
        s = i % 2
        add("traffic", _pkt(rng, s, keys[s], dec=rng.random() < 0.5))
    add("sync", {"cmd": "sync", "idle": 4})
    add("PKT_COUNT", {"cmd": "read", "reg": "PKT_COUNT"})
    add("rekey", {"cmd": "rekey", "slot": 0, "key": k2.hex(), "after": TRAFFIC + REKEY_AFTER})
    for _ in range(REKEY_PKTS):
        add("live", ccm_packet(rng, 64, 0))
    add("sync", {"cmd": "sync", "idle": 4})
    add("SLOT[0].KEY_STATUS", {"cmd": "read", "reg": "SLOT[0].KEY_STATUS"})
    add("clear", {"cmd": "write", "reg": "INTR_STATUS", "value": 0xFF})
    add("tamper", _pkt(rng, 1, k1, dec=True, tamper=True))
    add("sync", {"cmd": "sync", "idle": 4})
    for reg in ("AUTH_FAIL_COUNT", "INTR_STATUS"):
        add(reg, {"cmd": "read", "reg": reg})
    add("clear", {"cmd": "write", "reg": "INTR_STATUS", "value": 0xFF})
    add("zeroize", {"cmd": "zeroize"})
    for reg in ("SLOT_SUMMARY", "INTR_STATUS"):
        add(reg, {"cmd": "read", "reg": reg})
    add("after", _pkt(rng, 0, k2))
    add("sync", {"cmd": "sync", "idle": 4})
    for reg in ("KEY_ERR_COUNT", "PKT_COUNT"):
        add(reg, {"cmd": "read", "reg": reg})
    return cmds, {"at": at, "keys": {0: [k0, k2], 1: [k1]}}


def check_packet(c: dict, r: dict, key: bytes | None) -> str | None:
    """None if the result equals aesip.ref's for `key` (None: no key in the slot), else why."""
    if key is None:
        return None if r["err"] == iface.ERR_KEY and r["out"] is None else f"status {r['err']}, expected KEY"
    nonce, aad, data = bytes.fromhex(c["iv"]), bytes.fromhex(c["aad"]), bytes.fromhex(c["data"])
    got = bytes.fromhex(r["out"]) if r["out"] is not None else None
    if c["op"] == "ccm-encrypt":
        ct, tag = ref.ccm_encrypt(key, nonce, aad, data, c["tag_len"])
        ok = r["err"] == 0 and got == ct and bytes.fromhex(r["value"])[: c["tag_len"]] == tag and not r["flag"]
        return None if ok else f"status {r['err']}; ciphertext/tag differ from the reference"
    msg = ref.ccm_decrypt(key, nonce, aad, data, bytes.fromhex(c["rtag"]))
    if msg is None:
        return None if r["err"] == iface.ERR_AUTH and got is None else f"status {r['err']}, expected AUTH, no output"
    return None if r["err"] == 0 and got == msg and not r["flag"] else f"status {r['err']}; plaintext differs"


class Report:
    def __init__(self):
        self.failed = 0
        self.checks = 0

    def line(self, ok: bool, text: str) -> None:
        self.checks += 1
        self.failed += not ok
        print(f"[{'ok' if ok else 'FAIL'}] {text}")


def report(core: str, cmds: list[dict], resp: dict, info: dict) -> int:
    """Print every step with its register reads; returns the number of failed checks."""
    at, res = info["at"], resp["results"]
    rep = Report()

    def val(name: str, k: int = 0) -> int:
        return res[at[name][k]]["value"]

    def f(reg: str, name: str, v: int) -> int:
        return csr.field(reg, name, v)

    print("-- 1. power-up known-answer self-test")
    st = res[at["bring_up"][0]]["selftest"]
    v = val("SELFTEST")
    tests = {10: 0xC3, 12: 0xCF, 14: 0xFF}
    nr = f("FEATURES", "nr_max", val("FEATURES"))
    rep.line(st["pass"] == 1 and st["fail"] == 0 and f("SELFTEST", "pass", v) == 1 and st["tests"] == tests.get(nr),
             f"SELFTEST = {v:#010x}: busy {st['busy']}, pass {st['pass']}, fail {st['fail']}, tests {st['tests']:#04x} "
             f"({bin(st['tests']).count('1')} known-answer tests passed in hardware)")
    print("-- 2. identification")
    v = val("VERSION")
    rep.line(f("VERSION", "magic", v) == 0xAE51 and f("VERSION", "major", v) == 1,
             f"VERSION = {v:#010x}: magic {f('VERSION', 'magic', v):#06x}, register map "
             f"{f('VERSION', 'major', v)}.{f('VERSION', 'minor', v)}")
    v = val("FEATURES")
    fcore = csr.CORE_IDS.get(f("FEATURES", "core", v), "?")
    rep.line(fcore == core and nr == 14 and f("FEATURES", "key_sizes", v) == 7 and f("FEATURES", "slots", v) == 4
             and f("FEATURES", "lanes", v) == 1,
             f"FEATURES = {v:#010x}: core {fcore}, NR_MAX {nr}, key sizes {f('FEATURES', 'key_sizes', v):#05b}, "
             f"{f('FEATURES', 'slots', v)} key slots, {f('FEATURES', 'lanes', v)} lane(s)")
    print("-- 3. key load over AXI4-Lite (KEY[0..7], KEY_CTRL = len | commit, poll KEY_STATUS)")
    for s, bits in ((0, 128), (1, 256)):
        v = val(f"SLOT[{s}].KEY_STATUS")
        rep.line(v == 1, f"slot {s}: AES-{bits} key committed; SLOT[{s}].KEY_STATUS = {v:#x} "
                         f"(loaded {v & 1}, pending {v >> 1 & 1})")
    v = val("SLOT_SUMMARY")
    rep.line(f("SLOT_SUMMARY", "loaded", v) == 0b11, f"SLOT_SUMMARY = {v:#010x}: slots 0 and 1 loaded")
    words = [res[i]["value"] for i in at["keyword"]]
    rep.line(not any(words), f"SLOT[0..1].KEY[0..7] read back: {'all 0' if not any(words) else 'NOT 0'} "
                             "(write-only; the key now lives only in the engine)")
    v = val("INTR_STATUS")
    rep.line(f("INTR_STATUS", "key_loaded", v) == 1, f"INTR_STATUS = {v:#04x}: key_loaded")

    keys = {s: list(k) for s, k in info["keys"].items()}
    t0 = res[at["bring_up"][0]]["cycle"]
    loads = [(t, s) for t, s in resp["loads"] if t >= t0]

    def key_at(slot: int, t_cmd: int) -> bytes | None:
        gen = sum(1 for t, s in loads if s == slot and t < t_cmd) - 1
        return keys[slot][gen] if 0 <= gen < len(keys[slot]) else None

    print(f"-- 4. CCM traffic ({TRAFFIC} packets on slots 0 and 1) against cryptography")
    bad = [(i, why) for i in at["traffic"] if (why := check_packet(cmds[i], res[i], key_at(cmds[i]["slot"],
                                                                                       res[i]["t_cmd"])))]
    n_dec = sum(cmds[i]["op"] == "ccm-decrypt" for i in at["traffic"])
    rep.line(not bad, f"{TRAFFIC} packets ({TRAFFIC - n_dec} encrypt, {n_dec} decrypt): "
                      f"{TRAFFIC - len(bad)} equal to the reference" + (f"; first bad: {bad[0]}" if bad else ""))
    v = val("PKT_COUNT")
    rep.line(v == TRAFFIC, f"PKT_COUNT = {v}")
    print(f"-- 5. live rekey: a new AES-128 key committed to slot 0 while {REKEY_PKTS} packets on it run back to back")
    rk = res[at["rekey"][0]]
    l0 = [t for t, s in loads if s == 0]
    gens = [sum(1 for t in l0 if t < res[i]["t_cmd"]) - 1 for i in at["live"]]
    bad = [(i, why) for i in at["live"] if (why := check_packet(cmds[i], res[i], key_at(0, res[i]["t_cmd"])))]
    new_load = l0[1] if len(l0) > 1 else None
    rep.line(len(l0) == 2 and new_load is not None,
             f"KEY_CTRL commit written at cycle {rk['t_commit']}, key handshake at the engine at cycle {new_load}, "
             f"KEY_STATUS pending = 0 seen at cycle {rk['t_done']}")
    rep.line(not bad and 0 < gens.count(0) < REKEY_PKTS and gens.count(1) > 0,
             f"{REKEY_PKTS} packets: {gens.count(0)} under the old key, {gens.count(1)} under the new one (the key in "
             f"force at each packet's command), {len(bad)} lost or wrong" + (f"; first: {bad[0]}" if bad else ""))
    v = val("SLOT[0].KEY_STATUS", 1)
    rep.line(v == 1, f"SLOT[0].KEY_STATUS = {v:#x} (loaded, not pending)")
    print("-- 6. tampered packet (one tag bit flipped)")
    i = at["tamper"][0]
    why = check_packet(cmds[i], res[i], keys[1][0])
    rep.line(why is None and res[i]["err"] == iface.ERR_AUTH,
             f"status {iface.error_name(res[i]['err'])}, "
             f"{'no plaintext released' if res[i]['out'] is None else 'OUTPUT RELEASED'}")
    v = val("AUTH_FAIL_COUNT")
    rep.line(v == 1, f"AUTH_FAIL_COUNT = {v}")
    v = val("INTR_STATUS", 1)
    rep.line(v == csr.Csr.intr_mask("pkt_done", "auth_fail"), f"INTR_STATUS = {v:#04x}: pkt_done, auth_fail")
    print("-- 7. zeroize")
    z = res[at["zeroize"][0]]
    first = f("CTRL", "zeroize", z["first"])
    rep.line(first == 1, f"CTRL.zeroize written 1; first read {first} (wipe running), read 0 after {z['cycles']} "
                         f"clocks ({z['polls']} reads)")
    v = val("SLOT_SUMMARY", 1)
    rep.line(f("SLOT_SUMMARY", "loaded", v) == 0, f"SLOT_SUMMARY = {v:#010x}: no slot loaded")
    v = val("INTR_STATUS", 2)
    rep.line(f("INTR_STATUS", "zeroize_done", v) == 1, f"INTR_STATUS = {v:#04x}: zeroize_done")
    i = at["after"][0]
    why = check_packet(cmds[i], res[i], None)
    rep.line(why is None, f"packet on slot 0 after the zeroize: status {iface.error_name(res[i]['err'])}, "
                          "no output")
    v = val("KEY_ERR_COUNT")
    rep.line(v == 1, f"KEY_ERR_COUNT = {v}")
    v = val("PKT_COUNT", 1)
    total = TRAFFIC + REKEY_PKTS + 2
    rep.line(v == total, f"PKT_COUNT = {v} (every packet of the run counted)")
    print(f"RESULT: {'PASS' if not rep.failed else 'FAIL'} ({rep.checks - rep.failed} of {rep.checks} checks passed)")
    return rep.failed


def top_demo_main(args) -> int:
    core = args.ccm_core
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    if args.sim != "verilator":
        raise UsageError("--top: aesip_top simulates on Verilator only (its CSR block is SystemVerilog)")
    print(f"aesip demo --top: aesip_top (CORE = {core}) on verilator; seed {seed} (replay with --seed {seed})")
    cmds, info = plan(random.Random(f"{seed}-top"))
    resp = session.simulate(session.top_target(core), "verilator", cmds)
    return 1 if report(core, cmds, resp, info) else 0
