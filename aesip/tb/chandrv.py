# SPDX-License-Identifier: Apache-2.0
"""Testbench driver for the multi-channel engine chan_engine (docs/channels.md), through
its cocotb wrapper tb/modes/tb_chan_engine.v (packet ends in tuser, so the cocotbext-axi
stream models see one frame per beat and channels can interleave beat by beat).

`ChanPacket` is one packet on one channel; `expect()` gives what the engine must return
for it, from the independent references in aesip.ref (`cryptography`), never from the
RTL. `ChanDriver.schedule()` orders commands and beats by the engine's source rule
(docs/channels.md, "Order"): a packet's command before its beats, and a channel's next
command only after the last beat of its previous packet."""
from __future__ import annotations

import random
from dataclasses import dataclass

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from aesip import iface, ref
from aesip.tb.coredrv import clock_and_reset, load_key, random_pause, set_pause
from aesip.tb.engdrv import Packet

AES_FAMILY = {v for k, v in iface.OPS.items() if not k.startswith("ccm")}
TDEA_FAMILY = set(iface.TDEA_OPS.values())


@dataclass
class ChanPacket:
    ch: int
    op: str                      # engine op name (iface.ALL_OPS)
    slot: int = 0
    iv: bytes = b""
    data: bytes = b""
    raw_op: int | None = None    # overrides for bad-input tests
    aad_len: int | None = None
    data_len: int | None = None
    nbeats: int | None = None    # beats actually sent (framing tests); None: from the data
    tag_beat: bool = False       # the command's tag_beat flag (refused with OP), one beat more

    def command(self) -> bytes:
        return Packet(op=self.op, slot=self.slot, iv=self.iv, data=self.data, tag_len=0,
                      raw_op=self.raw_op, aad_len=self.aad_len, data_len=self.data_len,
                      tag_beat=self.tag_beat).command()

    def beats(self, bb: int) -> list[bytes]:
        n = (len(self.data) + bb - 1) // bb if self.nbeats is None else self.nbeats
        n += int(self.tag_beat)
        d = self.data.ljust(n * bb, b"\0")
        return [d[i * bb:(i + 1) * bb] for i in range(n)]


@dataclass
class Expect:
    beats: list            # [(data bytes, valid byte count, fail flag)]
    err: int
    value: bytes           # 16-byte status value


# the AES ops that need the inverse cipher: refused with OP by an encrypt-only build
# (chan_engine DIRECTION = 0)
INVERSE_OPS = {iface.OPS["ecb-decrypt"], iface.OPS["cbc-decrypt"]}


def key_ok(key: bytes | None, tdea: bool, nr_max: int = 14) -> bool:
    """A usable key: a legal length, and for AES no more rounds (FIPS-197: Nr = 10, 12,
    14 for 16, 24, 32 bytes) than the core has (NR_MAX)."""
    if key is None:
        return False
    if tdea:
        return len(key) in (16, 24)
    return len(key) in ref.ROUNDS and ref.ROUNDS[len(key)] <= nr_max


def expect(p: ChanPacket, keys: dict, tdea: bool, len_w: int = 16, nr_max: int = 14,
           inverse: bool = True) -> Expect:
    """What chan_engine returns for packet `p` with key slots `keys` (slot -> key bytes,
    or None for a slot without a usable key), on a build with NR_MAX `nr_max` whose core
    has the inverse cipher when `inverse` (DIRECTION 2) or not (DIRECTION 0)."""
    bb = 8 if tdea else 16
    zero = bytes(16)
    op = iface.ALL_OPS[p.op] if p.raw_op is None else p.raw_op
    plen = len(p.data) if p.data_len is None else p.data_len
    alen = 0 if p.aad_len is None else p.aad_len
    fam = TDEA_FAMILY if tdea else AES_FAMILY
    if op not in fam or (not tdea and not inverse and op in INVERSE_OPS) or p.tag_beat:
        return Expect([], iface.ERR_OP, zero)
    ctr = not tdea and op == iface.OPS["ctr"]
    if alen or plen >= (1 << len_w) or (not ctr and plen % bb):
        return Expect([], iface.ERR_LENGTH, zero)
    key = keys.get(p.slot)
    if not key_ok(key, tdea, nr_max):
        return Expect([], iface.ERR_KEY, zero)
    name = [k for k, v in iface.ALL_OPS.items() if v == op][0]
    d = p.data
    mac = name == "cbc-mac"
    value = zero
    if tdea:
        dec = name.endswith("decrypt")
        out = ref.tdea_ecb(key, d, dec) if "ecb" in name else ref.tdea_cbc(key, p.iv[:8], d, dec) if d else b""
        if name == "tdea-cbc-encrypt" and d:
            value = out[-8:].ljust(16, b"\0")
    elif name in ("ecb-encrypt", "ecb-decrypt"):
        out = ref.ecb(key, d, name == "ecb-decrypt") if d else b""
    elif name in ("cbc-encrypt", "cbc-mac"):
        out = ref.cbc_encrypt(key, p.iv, d) if d else b""
        if d:
            value = out[-16:]
    elif name == "cbc-decrypt":
        out = ref.cbc_decrypt(key, p.iv, d) if d else b""
    else:
        out = ref.ctr(key, p.iv, d) if d else b""
    n = (plen + bb - 1) // bb
    sent = n if p.nbeats is None else p.nbeats
    blocks = []
    for i in range(n):
        blk = out[i * bb:(i + 1) * bb]
        blocks.append((blk.ljust(bb, b"\0"), len(blk), 0))
    if sent != n and n:
        # framing: the blocks before the offending beat come out, then status FRAMING
        good = min(sent, n) - 1
        return Expect([] if mac else blocks[:good], iface.ERR_FRAMING, zero)
    return Expect([] if mac else blocks, iface.ERR_OK, value if n else zero)


class ChanDriver:
    def __init__(self, dut, period_ns: int = 10):
        self.dut = dut
        self.period_ns = period_ns
        self.tdea = len(dut.s_axis_tdata) == 64
        self.bb = len(dut.s_axis_tdata) // 8
        self.ch_w = len(dut.s_axis_tdest)
        self.slot_w = len(dut.key_slot)
        # the build's AES options (tb_chan_engine parameters; TDEA builds ignore them)
        self.nr_max = int(dut.NR_MAX.value)
        self.inverse = int(dut.DIRECTION.value) != 0
        self.cmd = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_cmd"), dut.clk, dut.rst)
        self.src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.out = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
        self.sts = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis_sts"), dut.clk, dut.rst)
        for x in (self.cmd, self.src, self.out, self.sts):
            x.log.setLevel("WARNING")
        self.cycle = 0
        self.beats_by_ch: dict[int, list] = {}
        self.sts_by_ch: dict[int, list] = {}
        self.n_beats = 0
        self.n_sts = 0
        self.last_out_cycle = 0

    async def start(self) -> None:
        await clock_and_reset(self.dut, self.period_ns)
        cocotb.start_soon(self._count())
        cocotb.start_soon(self._collect_out())
        cocotb.start_soon(self._collect_sts())
        await self.wait_scrub()

    async def wait_scrub(self) -> None:
        """The RAM scrub after rst / zeroize and the core's key-store scrub."""
        await ClockCycles(self.dut.clk, 2 ** max(self.ch_w, 7) + 2 ** (self.slot_w + 1) + 8)

    async def _count(self):
        while True:
            await RisingEdge(self.dut.clk)
            self.cycle += 1

    async def _collect_out(self):
        while True:
            f = await self.out.recv()
            tu = f.tuser if isinstance(f.tuser, int) else f.tuser[-1]
            ch = f.tdest if isinstance(f.tdest, int) else f.tdest[-1]
            # the sink compacts a frame: the lanes with tkeep = 0 are gone (and tkeep with them)
            keep = sum(f.tkeep) if f.tkeep else len(f.tdata)
            data = bytes(f.tdata).ljust(self.bb, b"\0")
            self.beats_by_ch.setdefault(int(ch), []).append((data, keep, int(tu) & 1, int(tu) >> 1))
            self.n_beats += 1
            self.last_out_cycle = self.cycle

    async def _collect_sts(self):
        while True:
            f = await self.sts.recv()
            ch = f.tdest if isinstance(f.tdest, int) else f.tdest[-1]
            self.sts_by_ch.setdefault(int(ch), []).append(iface.unpack_status(f.tdata))
            self.n_sts += 1
            self.last_out_cycle = self.cycle

    def set_gaps(self, rng: random.Random, p_gap: float = 0.0, p_bp: float = 0.0) -> None:
        for s in (self.cmd, self.src):
            set_pause(s, random_pause(rng, p_gap) if p_gap > 0 else None)
        for s in (self.out, self.sts):
            set_pause(s, random_pause(rng, p_bp) if p_bp > 0 else None)

    async def load_key(self, slot: int, key: bytes, key_bytes: int | None = None) -> None:
        await load_key(self.dut, slot, key, True, key_bytes)

    async def zeroize(self) -> None:
        self.dut.zeroize.value = 1
        await RisingEdge(self.dut.clk)
        self.dut.zeroize.value = 0

    def schedule(self, pkts: list[ChanPacket], rng: random.Random | None = None) -> list:
        """Events ("cmd", pkt) / ("beat", ch, data, last) in an order the engine accepts:
        per channel its packets in list order; across channels round robin (rng None) or
        a random pick each beat."""
        queues: dict[int, list[ChanPacket]] = {}
        for p in pkts:
            queues.setdefault(p.ch, []).append(p)
        cur: dict[int, list] = {}
        chans = sorted(queues)
        ev: list = []
        i = 0
        while chans:
            if rng is None:
                i %= len(chans)
                ch = chans[i]
            else:
                ch = rng.choice(chans)
            if ch not in cur:
                p = queues[ch].pop(0)
                ev.append(("cmd", p))
                cur[ch] = p.beats(self.bb)
            if cur[ch]:
                b = cur[ch].pop(0)
                ev.append(("beat", ch, b, not cur[ch]))
            if not cur[ch]:
                del cur[ch]
                if not queues[ch]:
                    chans.remove(ch)
                    continue
            i += 1
        return ev

    def send(self, events: list) -> None:
        for e in events:
            if e[0] == "cmd":
                self.cmd.send_nowait(AxiStreamFrame(tdata=e[1].command(), tdest=e[1].ch))
            else:
                self.src.send_nowait(AxiStreamFrame(tdata=e[2], tdest=e[1], tuser=int(e[3])))

    async def wait_results(self, n_sts: int, timeout: int = 200000) -> None:
        """Wait until `n_sts` statuses in all have arrived (raises on timeout)."""
        start = self.cycle
        while self.n_sts < n_sts:
            await RisingEdge(self.dut.clk)
            assert self.cycle - start < timeout, f"timeout: {self.n_sts} of {n_sts} statuses"

    async def wait_idle(self, quiet: int = 400) -> None:
        """Wait until the sources are empty and nothing came out for `quiet` clocks."""
        while not (self.cmd.empty() and self.src.empty() and self.cmd.idle() and self.src.idle()):
            await RisingEdge(self.dut.clk)
        while self.cycle - self.last_out_cycle < quiet:
            await RisingEdge(self.dut.clk)

    def expect(self, p: ChanPacket, keys: dict, len_w: int = 16) -> Expect:
        """expect() for this build (core, NR_MAX, DIRECTION)."""
        return expect(p, keys, self.tdea, len_w, self.nr_max, self.inverse)

    def check(self, pkts: list[ChanPacket], keys: dict, beats: dict, stss: dict, len_w: int = 16) -> int:
        """check() for this build (core, NR_MAX, DIRECTION)."""
        return check(pkts, keys, self.tdea, beats, stss, len_w, self.nr_max, self.inverse)

    def take(self):
        """Results collected so far (per channel beats and statuses), and reset."""
        b, s = self.beats_by_ch, self.sts_by_ch
        self.beats_by_ch, self.sts_by_ch = {}, {}
        return b, s


def check(pkts: list[ChanPacket], keys: dict, tdea: bool, beats: dict, stss: dict, len_w: int = 16,
          nr_max: int = 14, inverse: bool = True) -> int:
    """Compare the collected results with the references, channel by channel: every
    status and beat, nothing lost, duplicated or reordered. Returns the packets checked."""
    by_ch: dict[int, list[ChanPacket]] = {}
    for p in pkts:
        by_ch.setdefault(p.ch, []).append(p)
    for ch, ps in by_ch.items():
        exp_b, exp_s = [], []
        for p in ps:
            e = expect(p, keys, tdea, len_w, nr_max, inverse)
            for j, (d, k, f) in enumerate(e.beats):
                exp_b.append((d, k, f, int(j == len(e.beats) - 1 and e.err == iface.ERR_OK)))
            exp_s.append((e.err, e.value))
        got_s = stss.get(ch, [])
        got_b = beats.get(ch, [])
        assert len(got_s) == len(exp_s), f"channel {ch}: {len(got_s)} statuses, expected {len(exp_s)}"
        for i, (g, x) in enumerate(zip(got_s, exp_s)):
            assert g == x, (f"channel {ch} packet {i} ({ps[i].op}, {len(ps[i].data)} bytes): status "
                            f"{iface.error_name(g[0])} {g[1].hex()}, expected {iface.error_name(x[0])} {x[1].hex()}")
        assert len(got_b) == len(exp_b), f"channel {ch}: {len(got_b)} beats, expected {len(exp_b)}"
        for i, (g, x) in enumerate(zip(got_b, exp_b)):
            assert g == x, f"channel {ch} beat {i}: got {g}, expected {x}"
    extra = set(stss) - set(by_ch)
    assert not extra, f"statuses on channels without packets: {sorted(extra)}"
    return len(pkts)
