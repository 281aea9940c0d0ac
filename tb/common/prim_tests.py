# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for the shared AES primitives in rtl/common.

Run through tb/common/test_primitives.py, which picks the toplevel and its testcases:
  tb_sbox_top (IMPL 0 and 1)      sbox_exhaustive, sbox_fips197_values, subword_random
  tb_mixcolumn_top                mixcolumn_vectors, mixcolumn_roundtrip
  aes_key_expand (SBOX_IMPL 0/1)  key_expand_fips197, key_expand_random_encrypt,
                                  key_expand_start_ignored_while_busy, key_expand_abort

Expected values come from the FIPS-197 definitions (aesip.ref.fips197_sbox, the
MixColumns matrices written out below), from values printed in FIPS-197, and from
`cryptography` (OpenSSL) via aesip.ref.ecb_encrypt; never from the RTL.
"""
from __future__ import annotations

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, Timer

from aesip import ref

SBOX = ref.fips197_sbox()
INV_SBOX = ref.fips197_inv_sbox()


# cocotb 2 reseeds each test with a value derived from the run seed and the test name;
# the run seed (what AESIP_SEED / COCOTB_RANDOM_SEED set) is the one seen at import time.
RUN_SEED = cocotb.RANDOM_SEED


def rng_for_test() -> random.Random:
    seed = cocotb.RANDOM_SEED
    cocotb.log.info("run seed %d (replay with AESIP_SEED=%d), this test's seed %d", RUN_SEED, RUN_SEED, seed)
    return random.Random(seed)


def printed(hexstr: str) -> int:
    """A word/column as printed in FIPS-197 (first byte first) -> our bit layout
    (byte n at bits [8n+7:8n])."""
    return int.from_bytes(bytes.fromhex(hexstr), "little")


# ======================================================================= S-box
# Entries printed in FIPS-197 Figure 7 (S-box) and Figure 14 (inverse S-box).
FIG7 = {0x00: 0x63, 0x01: 0x7C, 0x10: 0xCA, 0x53: 0xED, 0x9A: 0xB8, 0xFF: 0x16}
FIG14 = {0x00: 0x52, 0x01: 0x09, 0x10: 0x7C, 0xED: 0x53, 0x9A: 0x37, 0xFF: 0x7D}


IMPLS = (0, 1)


async def sbox_eval(dut, x: int, inv: int) -> dict[int, tuple[int, int, int]]:
    """{IMPL: (DIR=0, DIR=1, DIR=2 outputs)} of tb_sbox_top for byte x and direction inv."""
    dut.byte_in.value = x
    dut.inv.value = inv
    await Timer(1, "ns")
    return {i: (int(getattr(dut, f"out_fwd{i}").value), int(getattr(dut, f"out_inv{i}").value),
                int(getattr(dut, f"out_both{i}").value)) for i in IMPLS}


@cocotb.test()
async def sbox_exhaustive(dut):
    """Both implementations: all 256 inputs x both values of inv for DIR 0, 1 and 2
    against the S-box computed from its FIPS-197 definition. DIR 0/1 must ignore inv."""
    n = 0
    for inv in (0, 1):
        for x in range(256):
            outs = await sbox_eval(dut, x, inv)
            for impl, (f, r, b) in outs.items():
                where = f"IMPL={impl} inv={inv}"
                assert f == SBOX[x], f"{where} DIR=0: S({x:02x}) = {f:02x}, expected {SBOX[x]:02x}"
                assert r == INV_SBOX[x], f"{where} DIR=1: InvS({x:02x}) = {r:02x}, expected {INV_SBOX[x]:02x}"
                exp = INV_SBOX[x] if inv else SBOX[x]
                assert b == exp, f"{where} DIR=2: in={x:02x} got {b:02x}, expected {exp:02x}"
                n += 1
    dut._log.info("checked %d (impl, input, inv) cases on DIR 0/1/2", n)
    assert n == 2 * 256 * len(IMPLS)


@cocotb.test()
async def sbox_fips197_values(dut):
    """Spot checks of both implementations against values printed in FIPS-197 Figures 7
    and 14 (these also guard the computed reference tables)."""
    for x, s in FIG7.items():
        assert SBOX[x] == s, "reference S-box disagrees with FIPS-197 Figure 7"
        for inv in (0, 1):
            for impl, (f, _, b) in (await sbox_eval(dut, x, inv)).items():
                assert f == s, f"IMPL={impl} DIR=0: S({x:02x}) = {f:02x}, FIPS-197 Fig. 7 says {s:02x}"
                if not inv:
                    assert b == s, f"IMPL={impl} DIR=2: S({x:02x}) = {b:02x}, FIPS-197 Fig. 7 says {s:02x}"
    for x, s in FIG14.items():
        assert INV_SBOX[x] == s, "reference inverse S-box disagrees with FIPS-197 Figure 14"
        for inv in (0, 1):
            for impl, (_, r, b) in (await sbox_eval(dut, x, inv)).items():
                assert r == s, f"IMPL={impl} DIR=1: InvS({x:02x}) = {r:02x}, FIPS-197 Fig. 14 says {s:02x}"
                if inv:
                    assert b == s, f"IMPL={impl} DIR=2: InvS({x:02x}) = {b:02x}, FIPS-197 Fig. 14 says {s:02x}"


@cocotb.test()
async def subword_random(dut):
    """aes_subword (DIR=2, both implementations): the FIPS-197 Appendix A.1 SubWord
    example (i = 4: cf4f3c09 -> 8a84eb01) both ways, then random words both ways."""
    rng = rng_for_test()
    cases = [(printed("cf4f3c09"), 0), (printed("8a84eb01"), 1)]
    cases += [(rng.getrandbits(32), rng.getrandbits(1)) for _ in range(300)]
    for i, (w, inv) in enumerate(cases):
        dut.word_in.value = w
        dut.inv.value = inv
        await Timer(1, "ns")
        tab = INV_SBOX if inv else SBOX
        exp = sum(tab[(w >> (8 * k)) & 0xFF] << (8 * k) for k in range(4))
        if i == 0:
            assert exp == printed("8a84eb01"), "reference disagrees with FIPS-197 A.1"
        for impl in IMPLS:
            got = int(getattr(dut, f"word_out{impl}").value)
            assert got == exp, f"IMPL={impl} SubWord inv={inv} {w:08x}: got {got:08x}, expected {exp:08x}"


# ================================================================= MixColumns
def gmul(a: int, b: int) -> int:
    """Multiplication in GF(2^8) modulo m(x) = x^8 + x^4 + x^3 + x + 1 (FIPS-197 4.2)."""
    r = 0
    for _ in range(8):
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a & 0x100:
            a ^= 0x11B
    return r


# FIPS-197 equations (5.6) and (5.10)
MIX = ((2, 3, 1, 1), (1, 2, 3, 1), (1, 1, 2, 3), (3, 1, 1, 2))
INV_MIX = ((0xE, 0xB, 0xD, 0x9), (0x9, 0xE, 0xB, 0xD), (0xD, 0x9, 0xE, 0xB), (0xB, 0xD, 0x9, 0xE))


def mix_ref(col: int, mat) -> int:
    a = [(col >> (8 * r)) & 0xFF for r in range(4)]
    out = 0
    for r in range(4):
        v = 0
        for c in range(4):
            v ^= gmul(mat[r][c], a[c])
        out |= v << (8 * r)
    return out


# FIPS-197 Appendix B, round 1: columns after ShiftRows -> after MixColumns
APPX_B = [("d4bf5d30", "046681e5"), ("e0b452ae", "e0cb199a"),
          ("b84111f1", "48f8d37a"), ("1e2798e5", "2806264c")]


def structured_columns() -> list[int]:
    cols = [0, 0xFFFFFFFF]
    for pos in range(4):
        cols += [v << (8 * pos) for v in range(1, 256)]   # one non-zero byte (all single bits too)
    cols += [v * 0x01010101 for v in range(1, 255)]       # four equal bytes
    cols += [printed(i) for i, _ in APPX_B]
    return cols


async def mix_eval(dut, col: int, inv: int) -> tuple[int, int, int]:
    dut.col_in.value = col
    dut.inv.value = inv
    await Timer(1, "ns")
    return int(dut.out_fwd.value), int(dut.out_inv.value), int(dut.out_both.value)


@cocotb.test()
async def mixcolumn_vectors(dut):
    """Structured and random columns, both values of inv, DIR 0/1/2 against the FIPS-197
    matrices; plus the FIPS-197 Appendix B round-1 columns."""
    rng = rng_for_test()
    for i, o in APPX_B:
        assert mix_ref(printed(i), MIX) == printed(o), "reference disagrees with FIPS-197 Appendix B"
        f, _, b = await mix_eval(dut, printed(i), 0)
        assert f == printed(o) and b == printed(o), f"MixColumns({i}) != {o} (FIPS-197 App. B)"
        _, r, b = await mix_eval(dut, printed(o), 1)
        assert r == printed(i) and b == printed(i), f"InvMixColumns({o}) != {i} (FIPS-197 App. B)"
    cols = structured_columns() + [rng.getrandbits(32) for _ in range(1500)]
    for col in cols:
        em, ei = mix_ref(col, MIX), mix_ref(col, INV_MIX)
        for inv in (0, 1):
            f, r, b = await mix_eval(dut, col, inv)
            assert f == em, f"DIR=0 inv={inv} Mix({col:08x}) = {f:08x}, expected {em:08x}"
            assert r == ei, f"DIR=1 inv={inv} InvMix({col:08x}) = {r:08x}, expected {ei:08x}"
            exp = ei if inv else em
            assert b == exp, f"DIR=2 inv={inv} in={col:08x}: got {b:08x}, expected {exp:08x}"
    dut._log.info("checked %d columns x 2 directions", len(cols))


@cocotb.test()
async def mixcolumn_roundtrip(dut):
    """InvMix(Mix(x)) == x and Mix(InvMix(x)) == x through the RTL (DIR=2 instance and the
    DIR=0/1 instances)."""
    rng = rng_for_test()
    cols = structured_columns()[::5] + [rng.getrandbits(32) for _ in range(500)]
    for x in cols:
        f, _, y = await mix_eval(dut, x, 0)
        _, r, z = await mix_eval(dut, y, 1)
        assert z == x, f"DIR=2: InvMix(Mix({x:08x})) = {z:08x}"
        assert r == x and f == y, f"DIR=1(DIR=0({x:08x})) = {r:08x}"
        _, r, y = await mix_eval(dut, x, 1)
        f, _, z = await mix_eval(dut, y, 0)
        assert z == x, f"DIR=2: Mix(InvMix({x:08x})) = {z:08x}"
        assert f == x and r == y, f"DIR=0(DIR=1({x:08x})) = {f:08x}"


# ============================================================== key expansion
KEY_CODE = {16: 0, 24: 1, 32: 2}
NR = {16: 10, 24: 12, 32: 14}

# FIPS-197 Appendix A (key expansion examples): key, then {index: word as printed}.
FIPS_KEYS = [
    ("2b7e151628aed2a6abf7158809cf4f3c",
     {4: "a0fafe17", 5: "88542cb1", 6: "23a33939", 7: "2a6c7605",
      40: "d014f9a8", 41: "c9ee2589", 42: "e13f0cc8", 43: "b6630ca6"}),
    ("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
     {6: "fe0c91f7", 48: "e98ba06f", 49: "448c773c", 50: "8ecc7204", 51: "01002202"}),
    ("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
     {8: "9ba35411", 9: "8e6925af", 56: "fe4890d1", 57: "e6188d0b", 58: "046df344", 59: "706c631e"}),
]


def aes_encrypt_words(words: list[int], nr: int, pt: bytes) -> bytes:
    """Plain FIPS-197 Cipher() (Section 5.1) that takes its round keys from `words`
    (w[4r+c] = round key r, column c; byte n of a word at bits [8n+7:8n])."""
    s = list(pt)

    def add_round_key(r: int) -> None:
        for c in range(4):
            w = words[4 * r + c]
            for i in range(4):
                s[4 * c + i] ^= (w >> (8 * i)) & 0xFF

    add_round_key(0)
    for rnd in range(1, nr + 1):
        s = [SBOX[b] for b in s]
        s = [s[4 * ((c + i) % 4) + i] for c in range(4) for i in range(4)]  # ShiftRows
        if rnd != nr:
            for c in range(4):
                col = mix_ref(int.from_bytes(bytes(s[4 * c:4 * c + 4]), "little"), MIX)
                s[4 * c:4 * c + 4] = list(col.to_bytes(4, "little"))
        add_round_key(rnd)
    return bytes(s)


def check_words_by_encryption(rng: random.Random, key: bytes, words: list[int], nblocks: int = 3) -> None:
    for _ in range(nblocks):
        pt = rng.randbytes(16)
        got = aes_encrypt_words(words, NR[len(key)], pt)
        exp = ref.ecb_encrypt(key, pt)
        assert got == exp, (f"AES-{8 * len(key)} key {key.hex()}: round keys from the RTL give "
                            f"{got.hex()}, OpenSSL gives {exp.hex()}")


def key_field(key: bytes, rng: random.Random) -> int:
    """key_data value: the key in bytes 0.., random junk in the bytes the size ignores."""
    return int.from_bytes(key + rng.randbytes(32 - len(key)), "little")


async def ke_reset(dut) -> None:
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.zeroize.value = 0
    dut.start.value = 0
    dut.key_data.value = 0
    dut.key_size.value = 0
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)
    await ke_assert_idle(dut, "after reset")
    await RisingEdge(dut.clk)


async def ke_assert_idle(dut, when: str) -> None:
    """In ReadOnly: idle and nothing (in particular no key material) on the word output."""
    await ReadOnly()
    assert int(dut.busy.value) == 0, f"busy high {when}"
    assert int(dut.w_valid.value) == 0, f"w_valid high {when}"
    assert int(dut.w_last.value) == 0, f"w_last high {when}"
    assert int(dut.w_data.value) == 0, f"w_data not cleared {when}"


async def ke_expand(dut, rng: random.Random, key: bytes, size_code: int | None = None,
                    start_while_busy: bool = False) -> list[int]:
    """Start an expansion (called just after a rising edge, core idle), collect every
    word and check the timing of the header: start in cycle 0 -> w[k] with w_idx = k in
    cycle k+1, w_last with the final word, busy high from cycle 1 to the final word and
    low after it. With start_while_busy, start stays high with another key during the
    whole expansion (it must be ignored)."""
    n = 4 * (NR[len(key)] + 1)
    dut.key_data.value = key_field(key, rng)
    dut.key_size.value = KEY_CODE[len(key)] if size_code is None else size_code
    dut.start.value = 1
    await RisingEdge(dut.clk)  # cycle 0 ends: start sampled
    if start_while_busy:
        dut.key_data.value = rng.getrandbits(256)
        dut.key_size.value = rng.randrange(4)
    else:
        dut.start.value = 0
        dut.key_data.value = 0
    words = []
    for k in range(n):
        await ReadOnly()  # cycle k+1
        assert int(dut.busy.value) == 1, f"busy low in cycle {k + 1}"
        assert int(dut.w_valid.value) == 1, f"w_valid low in cycle {k + 1}"
        assert int(dut.w_idx.value) == k, f"w_idx = {int(dut.w_idx.value)} in cycle {k + 1}, expected {k}"
        last = int(dut.w_last.value)
        assert last == (k == n - 1), f"w_last = {last} with w[{k}] of {n}"
        words.append(int(dut.w_data.value))
        await RisingEdge(dut.clk)
    dut.start.value = 0
    await ke_assert_idle(dut, f"after the final word (cycle {n + 1})")
    await RisingEdge(dut.clk)
    await ke_assert_idle(dut, f"in cycle {n + 2}")
    await RisingEdge(dut.clk)
    return words


@cocotb.test()
async def key_expand_fips197(dut):
    """FIPS-197 Appendix A keys (AES-128/192/256): emitted words vs the printed words,
    the first Nk words equal the key, and the whole schedule encrypts like OpenSSL.
    key_size 2'd3 must behave as AES-256."""
    rng = rng_for_test()
    await ke_reset(dut)
    for khex, exp in FIPS_KEYS:
        key = bytes.fromhex(khex)
        for code in ([KEY_CODE[len(key)], 3] if len(key) == 32 else [KEY_CODE[len(key)]]):
            words = await ke_expand(dut, rng, key, size_code=code)
            nk = len(key) // 4
            assert words[:nk] == [printed(key[4 * i:4 * i + 4].hex()) for i in range(nk)], "w[0..Nk-1] != key"
            for i, w in exp.items():
                assert words[i] == printed(w), (f"AES-{8 * len(key)} (key_size {code}): w[{i}] = "
                                                f"{words[i].to_bytes(4, 'little').hex()}, FIPS-197 says {w}")
            check_words_by_encryption(rng, key, words)


@cocotb.test()
async def key_expand_random_encrypt(dut):
    """Random keys of every size (junk in the unused key bytes): AES with exactly the
    emitted round-key words must match OpenSSL for random plaintexts."""
    rng = rng_for_test()
    await ke_reset(dut)
    n = 0
    for _ in range(6):
        for klen in (16, 24, 32):
            key = rng.randbytes(klen)
            words = await ke_expand(dut, rng, key)
            check_words_by_encryption(rng, key, words)
            n += 1
    dut._log.info("checked %d random key schedules", n)


@cocotb.test()
async def key_expand_start_ignored_while_busy(dut):
    """start held high (with another key and size) during an expansion is ignored."""
    rng = rng_for_test()
    await ke_reset(dut)
    for klen in (16, 24, 32, 16):
        key = rng.randbytes(klen)
        words = await ke_expand(dut, rng, key, start_while_busy=True)
        check_words_by_encryption(rng, key, words, nblocks=2)


def key_window_values(dut) -> list[int]:
    """White-box: the expansion window registers (aes_key_expand.win)."""
    return [int(dut.win[j].value) for j in range(8)]


@cocotb.test()
async def key_expand_abort(dut):
    """zeroize (or rst) at a random point of an expansion, including in the start cycle
    and on the final word, aborts it: busy/w_valid fall at once, the word output and the
    internal window read zero, nothing resumes, and the next expansion is correct."""
    rng = rng_for_test()
    await ke_reset(dut)
    trials = [(klen, r, sig) for klen in (16, 24, 32) for r in (-1, 0, 4 * NR[klen] + 3)
              for sig in ("zeroize", "rst")]
    trials += [(klen, rng.randrange(4 * NR[klen] + 4), rng.choice(("zeroize", "rst")))
               for klen in (16, 24, 32) for _ in range(3)]
    for klen, r, sig in trials:
        key = rng.randbytes(klen)
        dut.key_data.value = key_field(key, rng)
        dut.key_size.value = KEY_CODE[klen]
        dut.start.value = 1
        if r >= 0:
            await RisingEdge(dut.clk)  # start sampled
            dut.start.value = 0
            dut.key_data.value = 0
            for _ in range(r):         # w[0] .. w[r-1] go by; abort while w[r] is shown
                await RisingEdge(dut.clk)
            getattr(dut, sig).value = 1
            await ReadOnly()
            assert int(dut.busy.value) == 1 and int(dut.w_idx.value) == r, "abort not placed as intended"
        else:                          # abort in the same cycle as start
            getattr(dut, sig).value = 1
        await RisingEdge(dut.clk)
        getattr(dut, sig).value = 0
        dut.start.value = 0
        dut.key_data.value = 0
        where = f"after {sig} at word {r} of AES-{8 * klen}"
        await ke_assert_idle(dut, where)
        assert key_window_values(dut) == [0] * 8, f"key window not cleared {where}"
        for _ in range(3):
            await RisingEdge(dut.clk)
            await ke_assert_idle(dut, where + " (later)")
        await RisingEdge(dut.clk)
        key2 = rng.randbytes(rng.choice((16, 24, 32)))
        words = await ke_expand(dut, rng, key2)
        check_words_by_encryption(rng, key2, words, nblocks=1)
        await ReadOnly()
        assert key_window_values(dut) == [0] * 8, "key window not cleared after a completed expansion"
        await RisingEdge(dut.clk)
    dut._log.info("checked %d aborts", len(trials))
