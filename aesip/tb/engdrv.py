# SPDX-License-Identifier: Apache-2.0
"""Driver, reference model and random packets for the mode engines aes_mode_engine and
aes_mode_multi (docs/mode_engine.md)."""
from __future__ import annotations

import random
from dataclasses import dataclass

import cocotb
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from aesip import iface, rtl
from aesip.iface import (ERR_AUTH, ERR_BUFFER, ERR_KEY, ERR_LENGTH, ERR_NONCE, ERR_OP, ERR_TAG_LEN,
                         OPS)
from aesip.tb.coredrv import clock_and_reset, load_key, random_pause, set_pause


def sel_engine(sel):
    """The mode engine inside an aes_mode_sel instance (rtl/modes/aes_mode_sel.v): the
    aes_mode_engine (LANES = 1, g_single.u_eng) or the aes_mode_multi (LANES >= 2,
    g_multi.u_eng) it builds; both have the same ports."""
    return (sel.g_single if hasattr(sel, "g_single") else sel.g_multi).u_eng


def engine_cores(eng) -> list:
    """The aes_core instances of a mode engine handle: aes_mode_engine builds cores A and B
    (g_two.u_a, g_two.u_b) or, with CORES = 1, one core shared by both roles
    (g_one.u_ab.u_core, inside aes_core_share); aes_mode_multi has PAIRS pairs
    (g_pair[p].u_a, g_pair[p].u_b)."""
    if hasattr(eng, "g_one"):
        return [eng.g_one.u_ab.u_core]
    if hasattr(eng, "g_two"):
        return [eng.g_two.u_a, eng.g_two.u_b]
    return [c for p in range(int(eng.PAIRS.value)) for c in (eng.g_pair[p].u_a, eng.g_pair[p].u_b)]


def engine_core(eng) -> str:
    """The block core an engine was built on (its CORE parameter), from the generate block
    aes_core built (g_iter128, g_iter32 or g_pipe): both simulators show the hierarchy
    alike, while a string parameter reads differently on Icarus and Verilator."""
    return next(c for c in rtl.CORE_NAMES if hasattr(engine_cores(eng)[0], f"g_{c}"))


def ccm_step_clocks(top) -> int:
    """Clocks per AES-128 CCM step (docs/mode_engine.md "Timing") of the mode engine that
    a protocol top builds in its aes_mode_sel `u_eng`: the core latency + 1, i.e.
    aes_iter128 10 / ROUNDS_PER_CLK + 1, aes_iter32 45, aes_pipe 15; with one shared
    two-stage aes_iter128 (CORES = 1, ROUND_STAGES = 2, aes_core_share with its input
    registers) 2 Nr + 4 = 24. Other CORES = 1 builds have no documented step: an error."""
    eng = sel_engine(top.u_eng)
    core = engine_core(eng)
    if hasattr(eng, "g_one"):
        if core != "iter128" or int(eng.ROUND_STAGES.value) != 2:
            raise ValueError("ccm_step_clocks: CORES = 1 is documented only on a two-stage aes_iter128")
        return 24
    return {"iter128": 10 // int(top.ROUNDS_PER_CLK.value) + 1, "iter32": 45, "pipe": 15}[core]


@dataclass
class Packet:
    op: str
    slot: int = 0
    iv: bytes = b""          # nonce (CCM) or IV / initial counter
    aad: bytes = b""
    data: bytes = b""
    tag_len: int = 16
    rtag: bytes = b""        # CCM decryption: received tag
    cut: bool = False        # CCM decryption: cut-through instead of store-and-forward
    tag_beat: bool = False   # CCM decryption: the received tag as the last data beat (the
                             # command's tag field then carries its complement: ignored)
    # overrides for bad-input tests (None: derived from the fields above)
    nonce_len: int | None = None
    aad_len: int | None = None
    data_len: int | None = None
    raw_op: int | None = None
    beats: list | None = None  # explicit (tdata bytes, tkeep list, tlast) beats

    def command(self) -> bytes:
        op = iface.ALL_OPS[self.op] if self.raw_op is None else self.raw_op
        nlen = len(self.iv) if self.nonce_len is None else self.nonce_len
        alen = len(self.aad) if self.aad_len is None else self.aad_len
        plen = len(self.data) if self.data_len is None else self.data_len
        f = iface.CMD_FIELDS
        return iface.pack_command(
            op=op, cut=int(self.cut), tag_beat=int(self.tag_beat), slot=self.slot,
            nonce_len=nlen & ((1 << f["nonce_len"][1]) - 1), tag_len=self.tag_len & ((1 << f["tag_len"][1]) - 1),
            aad_len=alen, payload_len=plen,
            iv=int.from_bytes(self.iv[:16].ljust(16, b"\0"), "little"),
            tag=int.from_bytes(self.rtag[:16].ljust(16, b"\0"), "little") ^ (((1 << 128) - 1) if self.tag_beat else 0))

    def frame(self, beat: int = 16) -> AxiStreamFrame | None:
        """AAD beats then payload beats, each segment starting on a beat boundary
        (`beat` bytes per beat: 16 on the AES engines, 8 on tdea_mode_engine); with
        tag_beat, a last beat with the received tag (its first tag_len bytes)."""
        if self.beats is not None:
            data, keep = b"", []
            for d, k, _ in self.beats:
                data += d
                keep += k
            return AxiStreamFrame(tdata=data, tkeep=keep) if data else None

        def seg(b: bytes):
            n = (len(b) + beat - 1) // beat * beat
            return b.ljust(n, b"\0"), [1] * len(b) + [0] * (n - len(b))

        ad, ak = seg(self.aad)
        pd, pk = seg(self.data)
        if self.tag_beat:
            td, tk = seg(self.rtag[: self.tag_len] if self.tag_len else b"")
            if not td:   # t = 0 (refused with OP): a beat without bytes
                td, tk = bytes(beat), [0] * beat
            pd, pk = pd + td, pk + tk
        if not ad and not pd:
            return None
        # the last beat is shortened by cocotbext-axi only if we cut it: keep tkeep explicit
        return AxiStreamFrame(tdata=ad + pd, tkeep=ak + pk)


@dataclass
class Result:
    err: int
    tag: bytes
    data: bytes | None = None   # None: no output frame
    fail_flag: int = 0
    out_len: int | None = None  # failed packets: expected output length (None: payload length)


class EngineDriver:
    def __init__(self, dut, period_ns: int = 10):
        self.dut = dut
        self.period_ns = period_ns
        self.cmd = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_cmd"), dut.clk, dut.rst)
        self.src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.out = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
        self.sts = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis_sts"), dut.clk, dut.rst)
        for x in (self.cmd, self.src, self.out, self.sts):
            x.log.setLevel("WARNING")
        self.cycle = 0
        self.beat = len(dut.s_axis_tkeep)   # bytes per data beat

    async def start(self) -> None:
        await clock_and_reset(self.dut, self.period_ns)
        cocotb.start_soon(self._count())

    async def _count(self):
        while True:
            await RisingEdge(self.dut.clk)
            self.cycle += 1

    async def load_key(self, slot: int, key: bytes) -> None:
        await load_key(self.dut, slot, key)

    def set_gaps(self, rng: random.Random, p_gap: float = 0.0, p_bp: float = 0.0) -> None:
        for s in (self.cmd, self.src):
            set_pause(s, random_pause(rng, p_gap) if p_gap > 0 else None)
        for s in (self.out, self.sts):
            set_pause(s, random_pause(rng, p_bp) if p_bp > 0 else None)

    async def submit(self, pkt: Packet) -> None:
        await self.cmd.send(AxiStreamFrame(tdata=pkt.command()))
        f = pkt.frame(self.beat)
        if f is not None:
            await self.src.send(f)

    async def status(self) -> tuple[int, bytes]:
        f = await self.sts.recv()
        return iface.unpack_status(f.tdata)

    async def output(self) -> tuple[bytes, int]:
        f = await self.out.recv()
        tu = f.tuser if isinstance(f.tuser, int) else (f.tuser[-1] if f.tuser else 0)
        return bytes(f.tdata), int(tu)


def expect(pkt: Packet, key: bytes | None, buf_bytes: int = 4096, nr_max_bytes: int = 32) -> Result:
    """Expected engine result for a well-framed packet, from the independent references
    in aesip.ref (cryptography / OpenSSL). `key` None: the slot holds no valid key;
    `nr_max_bytes`: the largest key the engine was built for (its NR_MAX)."""
    from aesip import ref

    op = pkt.op
    a, d = pkt.aad, pkt.data
    ccm = op.startswith("ccm")
    # command-time checks, in the engine's priority order (docs/mode_engine.md)
    if (pkt.raw_op is not None and pkt.raw_op not in OPS.values() or (pkt.cut and op != "ccm-decrypt")
            or (pkt.tag_beat and (op != "ccm-decrypt" or pkt.tag_len == 0))):
        return Result(ERR_OP, bytes(16))
    nlen = len(pkt.iv) if pkt.nonce_len is None else pkt.nonce_len
    if ccm and not 7 <= nlen <= 13:
        return Result(ERR_NONCE, bytes(16))
    if ccm and (pkt.tag_len not in iface.CMD_LEGAL["tag_len"]):   # 0 = CCM* M = 0
        return Result(ERR_TAG_LEN, bytes(16))
    q = 15 - nlen
    if (ccm and q < 8 and len(d) >= 1 << (8 * q)) or (not ccm and a) or (
        op not in ("ctr",) and not ccm and len(d) % 16
    ):
        return Result(ERR_LENGTH, bytes(16))
    if op == "ccm-decrypt" and not pkt.cut and pkt.tag_len and len(d) > buf_bytes:   # M = 0: not buffered
        return Result(ERR_BUFFER, bytes(16))
    if pkt.slot >= 256:
        return Result(ERR_KEY, bytes(16))
    if key is None or len(key) not in (16, 24, 32) or len(key) > nr_max_bytes:
        # fail closed: checked when the command is accepted; no output beat at all
        return Result(ERR_KEY, bytes(16), None)
    if op == "ecb-encrypt":
        return Result(0, bytes(16), ref.ecb_encrypt(key, d) if d else None)
    if op == "ecb-decrypt":
        return Result(0, bytes(16), ref.ecb_decrypt(key, d) if d else None)
    if op == "cbc-encrypt":
        c = ref.cbc_encrypt(key, pkt.iv, d) if d else b""
        return Result(0, c[-16:] if d else pkt.iv, c or None)
    if op == "cbc-decrypt":
        p = ref.cbc_decrypt(key, pkt.iv, d) if d else b""
        return Result(0, d[-16:] if d else pkt.iv, p or None)
    if op == "ctr":
        c = ref.ctr(key, pkt.iv, d) if d else b""
        nxt = ((int.from_bytes(pkt.iv, "big") + (len(d) + 15) // 16) % (1 << 128)).to_bytes(16, "big")
        return Result(0, nxt, c or None)
    if op == "cbc-mac":
        return Result(0, ref.cbc_mac(key, pkt.iv, d), None)
    if op == "ccm-encrypt":
        c, t = ref.ccm_encrypt(key, pkt.iv, a, d, pkt.tag_len)
        return Result(0, t.ljust(16, b"\0"), c or None)
    if op == "ccm-decrypt":
        p = ref.ccm_decrypt(key, pkt.iv, a, d, pkt.rtag[: pkt.tag_len])
        if p is None:
            if pkt.cut and d:
                return Result(ERR_AUTH, bytes(16), b"", 1)  # streamed, flagged
            return Result(ERR_AUTH, bytes(16), None)
        return Result(0, bytes(16), p or None)
    raise ValueError(op)


def random_packet(rng: random.Random, slot_keys: dict, p_big: float = 0.1) -> Packet:
    """A random packet of any op on a random slot of `slot_keys` (slot -> key, used to
    build CCM decryptions, a quarter of them tampered: one bit of the tag, ciphertext or
    AAD flipped). CCM spans every nonce and tag length (also 0: CCM* encryption only,
    where tampering can only garble the plaintext) with AAD and payload of 0..600 bytes; p_big: probability of a 'big' packet (3 in 10 of the big CCM packets have an
    AAD of about 0xFF00 bytes, around the 2-byte / 6-byte length-encoding switch)."""
    from aesip import ref

    op = rng.choice(["ecb-encrypt", "ecb-decrypt", "cbc-encrypt", "cbc-decrypt", "ctr", "cbc-mac",
                     "ccm-encrypt", "ccm-encrypt", "ccm-decrypt", "ccm-decrypt"])
    slot = rng.randrange(len(slot_keys))
    big = rng.random() < p_big
    if op.startswith("ccm"):
        nlen = rng.randint(7, 13)
        q = 15 - nlen
        tlen = rng.choice(iface.CMD_LEGAL["tag_len"])
        alen = rng.choice([0, 0, rng.randint(1, 40), rng.randint(0, 600)])
        if big and rng.random() < 0.3:
            alen = rng.randint(0xFF00 - 20, 0xFF00 + 40)   # around the 2-byte / 6-byte encoding switch
        plen = rng.choice([0, rng.randint(1, 40), rng.randint(0, 600)])
        plen = min(plen, (1 << (8 * q)) - 1)
        p = Packet(op, slot, rng.randbytes(nlen), rng.randbytes(alen), rng.randbytes(plen), tlen)
        if op == "ccm-decrypt":
            p.cut = rng.random() < 0.3
            p.tag_beat = tlen > 0 and rng.random() < 0.3
            ct, tag = ref.ccm_encrypt(slot_keys[slot], p.iv, p.aad, p.data, tlen)
            if rng.random() < 0.25:  # tamper: flip one bit of tag, ciphertext or AAD
                what = rng.choice(["tag", "data", "aad"]) if (p.data and p.aad) else "tag"
                if tlen == 0:   # nothing to tamper with but the data and the (ignored) AAD
                    what = "data" if p.data else ("aad" if p.aad else "none")
                if what == "none":
                    pass
                elif what == "tag":
                    b = rng.randrange(8 * tlen)
                    tag = (int.from_bytes(tag, "big") ^ (1 << b)).to_bytes(tlen, "big")
                elif what == "data":
                    b = rng.randrange(8 * len(ct))
                    ct = (int.from_bytes(ct, "big") ^ (1 << b)).to_bytes(len(ct), "big")
                else:
                    b = rng.randrange(8 * len(p.aad))
                    p.aad = (int.from_bytes(p.aad, "big") ^ (1 << b)).to_bytes(len(p.aad), "big")
            p.data, p.rtag = ct, tag
        return p
    n = rng.choice([0, 1, 2, 3, rng.randint(1, 40)])
    if op == "ctr":
        plen = rng.choice([0, rng.randint(1, 100), 16 * n])
        iv = rng.randbytes(16) if rng.random() < 0.7 else b"\xff" * 14 + rng.randbytes(2)  # wrap
        return Packet(op, slot, iv, b"", rng.randbytes(plen))
    iv = rng.randbytes(16) if op != "cbc-mac" or rng.random() < 0.5 else bytes(16)
    return Packet(op, slot, iv, b"", rng.randbytes(16 * n))
