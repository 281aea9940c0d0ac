# SPDX-License-Identifier: Apache-2.0
"""Fail-closed checking for the mode engines (aes_mode_engine, aes_mode_multi;
docs/mode_engine.md, "Security"): a monitor of every handshake, the key in force at a
cycle, a checker that attributes status and output frames to packets by their handshake
cycles, and the randomized soak with zeroize and key-load events (`soak`). Used by
tb/modes/test_aes_mode_engine.py::test_soak (also on aes_mode_multi) and `make soak`.
Expected values come from aesip.ref (`cryptography`) through aesip.tb.engdrv.expect.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, Timer, with_timeout

from aesip import iface, ref
from aesip.iface import ERR_AUTH, ERR_ZEROIZED
from aesip.tb.coredrv import load_key
from aesip.tb.engdrv import EngineDriver, Packet, Result, expect, random_packet

KEY_SIZES = (16, 24, 32)


# ---------------------------------------------------------------------------- monitor
@dataclass
class Events:
    cmd: list = field(default_factory=list)     # cycle of each command handshake
    sts: list = field(default_factory=list)     # cycle of each status handshake
    tlast: list = field(default_factory=list)   # cycle of each output tlast handshake
    keys: list = field(default_factory=list)    # (cycle, slot, key bytes or None)
    zero: list = field(default_factory=list)    # cycles with zeroize high


async def monitor(drv: EngineDriver, ev: Events) -> None:
    """Record the handshakes of every stream and port into `ev`, cycle by cycle."""
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
            ev.keys.append((c, int(d.key_slot.value), raw[:n] if n in KEY_SIZES else b"?" * n))
        if int(d.zeroize.value):
            ev.zero.append(c)


async def pulse_zeroize(dut) -> None:
    await RisingEdge(dut.clk)
    dut.zeroize.value = 1
    await RisingEdge(dut.clk)
    dut.zeroize.value = 0


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


@dataclass(frozen=True)
class Checker:
    """The reference for one build: `buf_bytes` (16 * 2**BUF_AW, store-and-forward
    limit) and `nr_max_bytes` (the largest key its NR_MAX allows)."""

    buf_bytes: int
    nr_max_bytes: int

    def usable(self, key: bytes | None) -> bytes | None:
        """The key a slot loaded with `key` holds for the engine (None: unusable)."""
        if key is None or len(key) not in KEY_SIZES or len(key) > self.nr_max_bytes:
            return None
        return key

    def expect(self, p: Packet, key: bytes | None) -> Result:
        return expect(p, key, self.buf_bytes, self.nr_max_bytes)

    def full_stream(self, p: Packet, key: bytes | None) -> bytes | None:
        """Every output byte the packet would produce if it ran to its end (for CCM
        decryption the CTR decryption whether or not the tag verifies)."""
        if key is None or not p.data or p.op == "cbc-mac":
            return None
        if p.op == "ccm-decrypt":
            c, _ = ref.ccm_encrypt(key, p.iv, p.aad, p.data, p.tag_len)   # CTR is its own inverse
            return c
        return self.expect(p, key).data

    def zeroized_frame_ok(self, p: Packet, key, e: Result, data: bytes, last_user: int) -> bool:
        """A frame of a packet that ended ZEROIZED: either all of it had been presented
        before the zeroize (the whole output, as it would have been), or a prefix of the
        real output closed by the terminator beat (one zero byte, tuser = 1)."""
        full = self.full_stream(p, key)
        if full is None:
            return False
        if data == full and (e.err == 0 or last_user == 1):
            return True
        return last_user == 1 and data[-1:] == b"\0" and full.startswith(data[:-1])

    def check_batch(self, pkts, ev: Events, first: int, sts_frames, out_frames, start_keys,
                    tally: Tally) -> None:
        """Attribute status and output frames to packets by their handshake cycles and
        check each packet against the reference. The engines present a packet's status
        only after its tlast beat has left, and the next packet's tlast only after that
        status: so an output frame belongs to the first packet whose status handshake
        comes after its tlast."""
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
            key = self.usable(key_loaded(ev, p.slot, c, start_keys.get(p.slot)))
            e = self.expect(p, key)
            z_must = any(z == c for z in ev.zero)
            z_may = any(c <= z <= s for z in ev.zero)
            fr = frames.get(i)
            name = f"packet {first + i} ({p.op}, slot {p.slot}, {len(p.data)} B, cmd@{c} sts@{s})"
            if err == ERR_ZEROIZED:
                tally.zeroized += 1
                if not z_may:
                    tally.bad("wrong", f"{name}: ZEROIZED without a zeroize in flight")
                if val != bytes(16):
                    tally.bad("wrong", f"{name}: ZEROIZED status with a nonzero value")
                if fr is not None:
                    data, user = bytes(fr.tdata), fr.tuser
                    last_user = int(user[-1]) if isinstance(user, list) and user else int(user or 0)
                    if not self.zeroized_frame_ok(p, key, e, data, last_user):
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
            if e.err == ERR_AUTH and data != self.full_stream(p, key):
                tally.bad("wrong", f"{name}: cut-through output differs from the CTR decryption")
            if e.err != 0 and e.err != ERR_AUTH:
                tally.bad("wrong", f"{name}: output frame for a failed packet")


# ---------------------------------------------------------------------------- soak
def random_key(rng: random.Random) -> bytes:
    r = rng.random()
    if r < 0.06:
        return rng.randbytes(rng.choice([0, 8, 20, 31]))        # illegal length
    return rng.randbytes(rng.choice(KEY_SIZES))                 # 32 may exceed NR_MAX


async def feed(drv: EngineDriver, pkts) -> None:
    for p in pkts:
        await drv.submit(p)


async def wait_count(cond) -> None:
    while not cond():
        await Timer(100, "ns")


async def soak(drv: EngineDriver, chk: Checker, rng: random.Random, total: int,
               p_zero: float = 0.5, p_rekey: float = 0.5) -> Tally:
    """Run `total` random packets in batches through the started driver `drv`, with a
    zeroize (probability `p_zero` per batch) and key loads into random slots, also slots
    in use (`p_rekey`), at random cycles; check every packet with `chk`."""
    dut = drv.dut
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
        gen_keys = {s: (chk.usable(keys.get(s)) or rng.randbytes(16)) for s in range(nslots)}
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
            chk.check_batch(pkts, ev, first, sts_frames[s0:], out_frames[o0:], start_keys, tally)
            break
        await ClockCycles(dut.clk, 30)
        chk.check_batch(pkts, ev, first, sts_frames[s0:s0 + n], out_frames[o0:], start_keys, tally)
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
