# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for the fail-closed guarantees of aes_mode_engine and aes_mode_multi
(docs/mode_engine.md, "Security"): command-time key checks, zeroize at random cycles
under load, key loads into slots in use, and no state left behind. `test_soak` is the
randomized soak (every op, key size and slot, tampered decryptions, gaps and
backpressure on every stream, zeroize and rekey events); `make test` runs a short one,
`make soak` a long one. Expected values come from `cryptography` (aesip.ref) only.

Environment:
  AESIP_SOAK_PACKETS  packets in test_soak (default 300)
  AESIP_NR_MAX        the engine's NR_MAX parameter (default 14)
  AESIP_CORE          iter128 / iter32 / pipe: which core registers to inspect
  AESIP_LANES         aes_mode_multi only: the number of lanes
"""
from __future__ import annotations

import os
import random
from dataclasses import dataclass, field

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, Timer, with_timeout

from aesip import ref
from aesip.tb.coredrv import load_key
from aesip import iface
from aesip.iface import ERR_AUTH as AUTH
from aesip.iface import ERR_KEY as KEY
from aesip.iface import ERR_ZEROIZED as ZEROIZED
from aesip.tb.engdrv import EngineDriver, Packet, Result, expect
from aesip.tb.seed import test_rng
from tb.modes.engine_tests import random_packet, run_packets

BUF_BYTES = 4096
NR_MAX = int(os.environ.get("AESIP_NR_MAX", "14"))
NR_MAX_BYTES = {nr: kb for kb, nr in ref.ROUNDS.items()}[NR_MAX]  # largest key size it supports
ALL_OPS = list(iface.OPS)


def rng_for(name: str) -> random.Random:
    return test_rng(f"{__name__}.{name}")


def usable(key: bytes | None) -> bytes | None:
    """The key a slot loaded with `key` holds for the engine (None: unusable)."""
    if key is None or len(key) not in (16, 24, 32) or len(key) > NR_MAX_BYTES:
        return None
    return key


def full_stream(p: Packet, key: bytes | None) -> bytes | None:
    """Every output byte the packet would produce if it ran to its end (for CCM
    decryption the CTR decryption whether or not the tag verifies)."""
    if key is None or not p.data or p.op == "cbc-mac":
        return None
    if p.op == "ccm-decrypt":
        c, _ = ref.ccm_encrypt(key, p.iv, p.aad, p.data, p.tag_len)   # CTR is its own inverse
        return c
    return expect(p, key, BUF_BYTES, NR_MAX_BYTES).data


def zeroized_frame_ok(p: Packet, key, e: Result, data: bytes, last_user: int) -> bool:
    """A frame of a packet that ended ZEROIZED: either all of it had been presented
    before the zeroize (the whole output, as it would have been), or a prefix of the real
    output closed by the terminator beat (one zero byte, tuser = 1)."""
    full = full_stream(p, key)
    if full is None:
        return False
    if data == full and (e.err == 0 or last_user == 1):
        return True
    return last_user == 1 and data[-1:] == b"\0" and full.startswith(data[:-1])


def is_multi(dut) -> bool:
    return hasattr(dut, "g_lane")


def lanes(dut) -> list:
    if is_multi(dut):
        return [dut.g_lane[i].u_lane for i in range(int(os.environ.get("AESIP_LANES", "2")))]
    return [dut.u_lane]


# ---------------------------------------------------------------------------- monitor
@dataclass
class Events:
    cmd: list = field(default_factory=list)     # cycle of each command handshake
    sts: list = field(default_factory=list)     # cycle of each status handshake
    tlast: list = field(default_factory=list)   # cycle of each output tlast handshake
    keys: list = field(default_factory=list)    # (cycle, slot, key bytes or None)
    zero: list = field(default_factory=list)    # cycles with zeroize high


async def monitor(drv: EngineDriver, ev: Events) -> None:
    d = drv.dut
    edge = RisingEdge(d.clk)
    while True:
        await edge
        c = drv.cycle
        if int(d.s_axis_cmd_tvalid.value) and int(d.s_axis_cmd_tready.value):
            ev.cmd.append(c)
        if int(d.m_axis_sts_tvalid.value) and int(d.m_axis_sts_tready.value):
            ev.sts.append(c)
        if int(d.m_axis_tvalid.value) and int(d.m_axis_tready.value) and int(d.m_axis_tlast.value):
            ev.tlast.append(c)
        if int(d.key_valid.value) and int(d.key_ready.value):
            n = int(d.key_bytes.value)
            raw = int(d.key_data.value).to_bytes(32, "little")
            ev.keys.append((c, int(d.key_slot.value), raw[:n] if n in (16, 24, 32) else b"?" * n))
        if int(d.zeroize.value):
            ev.zero.append(c)


async def pulse_zeroize(dut) -> None:
    await RisingEdge(dut.clk)
    dut.zeroize.value = 1
    await RisingEdge(dut.clk)
    dut.zeroize.value = 0


# ---------------------------------------------------------------------------- checker
@dataclass
class Tally:
    packets: int = 0
    wrong: int = 0
    lost: int = 0
    duplicated: int = 0
    hangs: int = 0
    zeroized: int = 0
    problems: list = field(default_factory=list)

    def bad(self, what: str, msg: str) -> None:
        setattr(self, what, getattr(self, what) + 1)
        if len(self.problems) < 20:
            self.problems.append(msg)


def key_loaded(ev: Events, slot: int, before: float, k: bytes | None) -> bytes | None:
    """The key last loaded into `slot` by a command accepted at cycle `before`, given
    the batch's zeroize and key-load events and `k`, the slot's key at the batch start."""
    last_z = max((z for z in ev.zero if z < before), default=-1)
    if last_z >= 0:
        k = None
    for c, s, key in ev.keys:
        if s == slot and last_z < c < before:
            k = key
    return k


def key_at(ev: Events, slot: int, cycle: int, start: dict) -> bytes | None:
    """The usable key of `slot` for a command accepted at `cycle`."""
    return usable(key_loaded(ev, slot, cycle, start.get(slot)))


def check_batch(pkts, ev: Events, first: int, sts_frames, out_frames, start_keys, tally: Tally) -> None:
    """Attribute status and output frames to packets by their handshake cycles and check
    each packet against the reference. The engines present a packet's status only after
    its tlast beat has left, and the next packet's tlast only after that status: so an
    output frame belongs to the first packet whose status handshake comes after its tlast."""
    n = len(pkts)
    cmds = ev.cmd[first:first + n]
    sts_c = ev.sts[first:first + n]
    frames = {}
    for (t, f) in out_frames:
        i = next((k for k in range(len(sts_c)) if sts_c[k] > t), None)
        if i is None:
            tally.bad("duplicated", f"an output frame (tlast at cycle {t}) after the last status")
            continue
        if i in frames:
            tally.bad("duplicated", f"packet {first + i}: two output frames")
            continue
        frames[i] = f
    if len(sts_frames) < n:
        tally.lost += n - len(sts_frames)
        tally.problems.append(f"{n - len(sts_frames)} packets without status")
    for i, (p, f) in enumerate(zip(pkts, sts_frames)):
        tally.packets += 1
        err, val = iface.unpack_status(f.tdata)
        c, s = cmds[i], sts_c[i]
        key = key_at(ev, p.slot, c, start_keys)
        e = expect(p, key, BUF_BYTES, NR_MAX_BYTES)
        z_must = any(z == c for z in ev.zero)
        z_may = any(c <= z <= s for z in ev.zero)
        fr = frames.get(i)
        name = f"packet {first + i} ({p.op}, slot {p.slot}, {len(p.data)} B, cmd@{c} sts@{s})"
        if err == ZEROIZED:
            tally.zeroized += 1
            if not z_may:
                tally.bad("wrong", f"{name}: ZEROIZED without a zeroize in flight")
            if val != bytes(16):
                tally.bad("wrong", f"{name}: ZEROIZED status with a nonzero value")
            if fr is not None:
                data, user = bytes(fr.tdata), fr.tuser
                last_user = int(user[-1]) if isinstance(user, list) and user else int(user or 0)
                if not zeroized_frame_ok(p, key, e, data, last_user):
                    tally.bad("wrong", f"{name}: zeroized frame is neither the whole output nor a "
                                       f"flagged prefix of it closed by a zero-byte terminator")
            continue
        if z_must:
            tally.bad("wrong", f"{name}: accepted in the zeroize cycle but status {err}")
        if err != e.err or val != e.tag:
            tally.bad("wrong", f"{name}: status {err} {val.hex()}, expected {e.err} {e.tag.hex()}")
            continue
        if (fr is not None) != (e.data is not None):
            tally.bad("wrong", f"{name}: output frame {'present' if fr is not None else 'missing'}")
            continue
        if fr is None:
            continue
        data, user = bytes(fr.tdata), fr.tuser
        last_user = int(user[-1]) if isinstance(user, list) and user else int(user or 0)
        if last_user != e.fail_flag:
            tally.bad("wrong", f"{name}: last-beat flag {last_user}, expected {e.fail_flag}")
        if e.err == 0 and data != e.data:
            tally.bad("wrong", f"{name}: output differs from the reference")
        if e.err == AUTH and data != full_stream(p, key):
            tally.bad("wrong", f"{name}: cut-through output differs from the CTR decryption")
        if e.err != 0 and e.err != AUTH:
            tally.bad("wrong", f"{name}: output frame for a failed packet")


# ---------------------------------------------------------------------------- soak
def random_key(rng: random.Random) -> bytes:
    r = rng.random()
    if r < 0.06:
        return rng.randbytes(rng.choice([0, 8, 20, 31]))        # illegal length
    return rng.randbytes(rng.choice([16, 24, 32]))              # 32 may exceed NR_MAX


async def soak(dut, total: int, name: str, p_zero: float = 0.5, p_rekey: float = 0.5) -> Tally:
    rng = rng_for(name)
    drv = EngineDriver(dut)
    await drv.start()
    ev = Events()
    cocotb.start_soon(monitor(drv, ev))
    nslots = 2 ** len(dut.key_slot)
    keys: dict[int, bytes | None] = {}
    for s in range(nslots):
        if rng.random() < 0.85:
            keys[s] = random_key(rng)
            await drv.load_key(s, keys[s])
    tally = Tally()
    sts_frames, out_frames = [], []

    async def collect_sts():
        while True:
            sts_frames.append(await drv.sts.recv())

    nframes = [0]

    async def collect_out():
        while True:
            f = await drv.out.recv()
            out_frames.append((ev.tlast[nframes[0]], f))
            nframes[0] += 1

    cocotb.start_soon(collect_sts())
    cocotb.start_soon(collect_out())
    done = 0
    while done < total:
        n = min(total - done, rng.randint(4, 24))
        drv.set_gaps(rng, rng.choice([0.0, 0.2, 0.6]), rng.choice([0.0, 0.2, 0.6]))
        gen_keys = {s: (usable(keys.get(s)) or rng.randbytes(16)) for s in range(nslots)}
        pkts = [random_packet(rng, gen_keys, p_big=0.01) for _ in range(n)]
        first = len(ev.cmd)
        s0, o0 = len(sts_frames), len(out_frames)
        start_keys = dict(keys)
        cocotb.start_soon(feed(drv, pkts))
        # chaos: zeroize and key loads (also into slots in use) at random cycles
        if rng.random() < p_zero:
            await ClockCycles(dut.clk, rng.randint(1, 12 * n))
            await pulse_zeroize(dut)
        if rng.random() < p_rekey:
            for _ in range(rng.randint(1, 3)):
                await ClockCycles(dut.clk, rng.randint(0, 20 * n))
                s = rng.randrange(nslots)
                await with_timeout(load_key(dut, s, random_key(rng), wait_done=False), 5_000_000, "ns")
        try:
            await with_timeout(wait_count(lambda: len(sts_frames) - s0 >= n), 40_000_000, "ns")
        except Exception:   # noqa: BLE001 -- a stuck engine: report and stop
            tally.hangs += 1
            tally.problems.append(f"hang: {len(sts_frames) - s0} of {n} statuses after packet {first}")
            check_batch(pkts, ev, first, sts_frames[s0:], out_frames[o0:], start_keys, tally)
            break
        await ClockCycles(dut.clk, 30)
        check_batch(pkts, ev, first, sts_frames[s0:s0 + n], out_frames[o0:], start_keys, tally)
        if len(sts_frames) > s0 + n:
            tally.bad("duplicated", f"{len(sts_frames) - s0 - n} extra status beats")
        del sts_frames[:], out_frames[:]
        # the key state after the batch, then reload what zeroize wiped
        for s in range(nslots):
            keys[s] = key_loaded(ev, s, float("inf"), keys.get(s))
        if ev.zero or rng.random() < 0.3:
            for s in range(nslots):
                if keys.get(s) is None and rng.random() < 0.8:
                    keys[s] = random_key(rng)
                    await drv.load_key(s, keys[s])
        ev.keys.clear()
        ev.zero.clear()
        done += n
    drv.set_gaps(rng, 0.0, 0.0)
    dut._log.info("soak: packets %d, wrong %d, lost %d, duplicated %d, hangs %d (zeroized %d)",
                  tally.packets, tally.wrong, tally.lost, tally.duplicated, tally.hangs, tally.zeroized)
    for p in tally.problems:
        dut._log.error("  %s", p)
    return tally


async def feed(drv: EngineDriver, pkts) -> None:
    for p in pkts:
        await drv.submit(p)


async def wait_count(cond) -> None:
    while not cond():
        await Timer(100, "ns")


@cocotb.test()
async def test_soak(dut):
    """Randomized packets of every op, key size and slot (including unusable slots) with
    tampered decryptions, random gaps and backpressure on every stream, zeroize at random
    cycles and key loads into random slots (also slots in use) at random times. Every
    packet either completes exactly as the reference says for the key in force when its
    command was accepted, or (only with a zeroize between its command and its status)
    fails with ZEROIZED and releases at most a flagged prefix of its real output."""
    total = int(os.environ.get("AESIP_SOAK_PACKETS", "300"))
    t = await soak(dut, total, "test_soak")
    print(f"SOAK packets={t.packets} wrong={t.wrong} lost={t.lost} duplicated={t.duplicated} "
          f"hangs={t.hangs} zeroized={t.zeroized}")
    assert t.packets == total and t.wrong == 0 and t.lost == 0 and t.duplicated == 0 and t.hangs == 0, \
        "; ".join(t.problems)
    assert t.zeroized > 0 or total < 100, "the soak never hit a packet with zeroize"


# ---------------------------------------------------------------------------- directed
def op_packets(rng: random.Random, slot: int, key: bytes) -> list[Packet]:
    """One packet of every op (CCM decryption store-and-forward and cut-through)."""
    out = []
    for op in ALL_OPS:
        if op.startswith("ccm"):
            p = Packet(op, slot, rng.randbytes(13), rng.randbytes(20), rng.randbytes(50), 8)
            if op == "ccm-decrypt":
                ct, tag = ref.ccm_encrypt(key, p.iv, p.aad, p.data, 8)
                p.data, p.rtag = ct, tag
                out.append(Packet(op, slot, p.iv, p.aad, ct, 8, tag, cut=True))
        elif op == "ctr":
            p = Packet(op, slot, rng.randbytes(16), b"", rng.randbytes(45))
        else:
            p = Packet(op, slot, rng.randbytes(16), b"", rng.randbytes(48))
        out.append(p)
    return out


@cocotb.test()
async def test_unusable_slots(dut):
    """Every op on a never-loaded slot, a slot loaded with an illegal length, a slot whose
    key is larger than NR_MAX allows (or, with NR_MAX = 14, a zeroized slot) and an
    out-of-range slot number: status KEY, no output beat, the data drained; the good
    packet after each one is right."""
    rng = rng_for("test_unusable_slots")
    drv = EngineDriver(dut)
    await drv.start()
    good_key = rng.randbytes(16)
    await drv.load_key(0, good_key)
    await drv.load_key(1, rng.randbytes(20))                      # illegal length
    big = rng.randbytes(32) if NR_MAX < 14 else rng.randbytes(24)
    await drv.load_key(3, big)                                    # > NR_MAX when NR_MAX < 14
    bad_slots = [1, 2] + ([3] if NR_MAX < 14 else [])
    pkts, exps = [], []
    good = op_packets(rng, 0, good_key)
    for s in bad_slots + [7]:
        for k, p in enumerate(op_packets(rng, s if s < 4 else 0, good_key)):
            if s == 7:
                p.slot = 200     # out of range for SLOT_W = 2
            pkts += [p, good[k % len(good)]]
            exps += [Result(KEY, bytes(16), None), expect(good[k % len(good)], good_key)]
    await run_packets(drv, pkts, exps)
    # zeroize, reload slot 0 only: slots 1..3 are now "zeroized"
    await drv.load_key(2, rng.randbytes(16))
    await pulse_zeroize(dut)
    await ClockCycles(dut.clk, 300)
    good_key = rng.randbytes(NR_MAX_BYTES)
    await drv.load_key(0, good_key)
    good = op_packets(rng, 0, good_key)
    pkts, exps = [], []
    for s in (1, 2, 3):
        for k, p in enumerate(op_packets(rng, s, good_key)):
            pkts += [p, good[k]]
            exps += [Result(KEY, bytes(16), None), expect(good[k], good_key)]
    await run_packets(drv, pkts, exps)


@cocotb.test()
async def test_rekey_slot_in_use(dut):
    """A key load into the slot of a long packet in flight waits until the packet has
    finished (the packet completes with the old key); a load into another slot goes
    ahead meanwhile; the packet after the load uses the new key."""
    rng = rng_for("test_rekey_slot_in_use")
    drv = EngineDriver(dut)
    await drv.start()
    ev = Events()
    cocotb.start_soon(monitor(drv, ev))
    old, new, other = rng.randbytes(16), rng.randbytes(32 if NR_MAX == 14 else 16), rng.randbytes(16)
    await drv.load_key(0, old)
    await drv.load_key(1, rng.randbytes(16))
    for trial in range(3):
        drv.set_gaps(rng, 0.3 * trial, 0.3 * trial)
        long_p = Packet("ccm-encrypt", 0, rng.randbytes(13), rng.randbytes(16), rng.randbytes(1500), 16)
        next_p = Packet("cbc-encrypt", 0, rng.randbytes(16), b"", rng.randbytes(64))
        side_p = Packet("ctr", 1, rng.randbytes(16), b"", rng.randbytes(40))
        await drv.submit(long_p)
        await ClockCycles(dut.clk, rng.randint(5, 60))
        k1 = cocotb.start_soon(load_key(dut, 0, new, wait_done=False))
        await ClockCycles(dut.clk, 2)
        e_long = expect(long_p, old)
        err, tag = await with_timeout(drv.status(), 10_000_000, "ns")
        assert (err, tag) == (e_long.err, e_long.tag), "the packet in flight did not finish with the old key"
        data, _ = await drv.output()
        assert data == e_long.data
        await k1
        key_c = [c for c, s, _ in ev.keys if s == 0][-1]
        assert key_c > ev.cmd[-1] + 60, "the slot-0 load did not wait for its packet"
        # slot 1 meanwhile: a load and a packet while slot 0 waits
        await load_key(dut, 1, other)
        await drv.submit(side_p)
        await drv.submit(next_p)
        e = expect(side_p, other)
        assert await with_timeout(drv.status(), 10_000_000, "ns") == (e.err, e.tag)
        assert (await drv.output())[0] == e.data
        e = expect(next_p, new)
        assert await with_timeout(drv.status(), 10_000_000, "ns") == (e.err, e.tag), "the next packet did not use the new key"
        assert (await drv.output())[0] == e.data
        old, new = new, rng.randbytes(16)
    drv.set_gaps(rng, 0.0, 0.0)


def regs_nonzero(dut, core: str) -> list[str]:
    """Names of lane / core registers that still hold a nonzero value."""
    bad = []
    names = ["chain_value", "keystream", "tag_keystream", "counter", "prev_block", "aad_carry_reg", "received_tag",
             "flight_beat", "held_data", "m_axis_sts_tdata"]
    for ln in lanes(dut):
        for nm in names:
            if int(getattr(ln, nm).value) != 0:
                bad.append(f"{ln._path}.{nm}")
        if int(ln.u_buf.m_data.value) != 0:
            bad.append(f"{ln._path}.u_buf.m_data")
    if is_multi(dut):
        for i in range(len(lanes(dut))):
            for nm in ("a_cap_d", "b_cap_d"):
                if int(getattr(dut.g_lane[i], nm).value) != 0:
                    bad.append(f"g_lane[{i}].{nm}")
    gen = {"iter128": "g_iter128", "iter32": "g_iter32", "pipe": "g_pipe"}[core]
    for u in ("u_a", "u_b"):
        c = getattr(getattr(dut, u), gen).u_core
        if core == "iter128":
            regs = ["st", "out_data"]
        elif core == "iter32":
            regs = ["in_block", "row0", "row1", "row2", "row3", "window", "computed_word", "out_data"]
        else:
            regs = []
            bad += pipe_regs_nonzero(c)
        for nm in regs:
            if int(getattr(c, nm).value) != 0:
                bad.append(f"{c._path}.{nm}")
    return bad


def pipe_regs_nonzero(c) -> list[str]:
    """aes_pipe (ROUND_REGS = 1, the engines' build): the stage registers and round-key
    registers that still hold a nonzero value."""
    bad = []
    regs = [(c.g_st[0].u_stage.g_ark0.ark_data, "g_st[0].ark_data")]
    for j in range(1, NR_MAX + 1):
        rnd = c.g_st[j].u_stage.g_round
        regs.append((rnd.rk_q, f"g_st[{j}].rk_q"))
        if j < NR_MAX:
            regs.append((rnd.g_reg.ark_data, f"g_st[{j}].ark_data"))
    return [f"{c._path}.{name}" for h, name in regs if int(h.value) != 0]


@cocotb.test()
async def test_no_state_left(dut):
    """After every op's packet the lanes' datapath registers (chaining value, keystream,
    counter, tag, staging, status, buffer output register, capture registers), the
    iterative cores' state and output registers and every aes_pipe stage and round-key
    register read zero; after a zeroize in the middle of a packet the same holds, and
    every buffer and FIFO entry (aes_pipe's output buffer RAM too) reads zero."""
    core = os.environ.get("AESIP_CORE", "iter128")
    rng = rng_for("test_no_state_left")
    drv = EngineDriver(dut)
    await drv.start()
    key = rng.randbytes(32 if NR_MAX == 14 else 16)
    await drv.load_key(0, key)
    for p in op_packets(rng, 0, key):
        await run_packets(drv, [p], [expect(p, key)])
        await ClockCycles(dut.clk, 5)
        bad = regs_nonzero(dut, core)
        assert not bad, f"after {p.op}: registers not cleared: {bad}"
    # zeroize in the middle of long packets
    drv.set_gaps(rng, 0.0, 0.5)
    for p in [Packet("ccm-encrypt", 0, rng.randbytes(13), rng.randbytes(30), rng.randbytes(900), 8),
              Packet("ctr", 0, rng.randbytes(16), b"", rng.randbytes(900))]:
        await drv.submit(p)
    await ClockCycles(dut.clk, 120)
    await pulse_zeroize(dut)
    err, _ = await with_timeout(drv.status(), 10_000_000, "ns")
    assert err == ZEROIZED, f"the packet in flight ended with status {err}, not ZEROIZED"
    err, _ = await with_timeout(drv.status(), 10_000_000, "ns")
    assert err in (ZEROIZED, KEY), f"the second packet ended with status {err}"   # KEY: accepted after
    drv.set_gaps(rng, 0.0, 0.0)
    await ClockCycles(dut.clk, 300)
    while not drv.out.empty():
        data, flag = await drv.output()
        assert flag == 1 and data[-1:] == b"\0", "a zeroized packet's frame was not closed by a terminator"
    bad = regs_nonzero(dut, core)
    for ln in lanes(dut):
        for i in range(2 ** len(ln.u_buf.wipe_addr)):
            if int(ln.u_buf.mem[i].value) & ((1 << 128) - 1) != 0:   # tdata (framing bits may remain)
                bad.append(f"{ln._path}.u_buf.mem[{i}]")
                break
    if is_multi(dut):
        for i in range(len(lanes(dut))):
            f = dut.g_lane[i].u_in
            for k in range(2 ** len(f.wipe_addr)):
                if int(f.mem[k].value) != 0:
                    bad.append(f"g_lane[{i}].u_in.mem[{k}]")
                    break
    if core == "pipe":
        for u in ("u_a", "u_b"):
            c = getattr(dut, u).g_pipe.u_core
            for i in range(2 ** len(c.u_obuf.wipe_addr)):
                if int(c.u_obuf.data_mem[i].value) != 0:
                    bad.append(f"{c._path}.u_obuf.data_mem[{i}]")
                    break
    assert not bad, f"after zeroize: not cleared: {bad}"
    # and the engine works again after a reload
    key = rng.randbytes(16)
    await drv.load_key(0, key)
    for p in op_packets(rng, 0, key):
        await run_packets(drv, [p], [expect(p, key)])
