# SPDX-License-Identifier: Apache-2.0
"""aes_key_expand (both S-box implementations): the emitted round-key words and their
timing, start while busy, abort on zeroize/rst.

This file holds the cocotb tests and the pytest entry that builds and runs them (on
Verilator and Icarus). Expected values come from the FIPS-197 definitions and printed
values (tb/common/fips197.py, aesip.ref.fips197_sbox) and from `cryptography`
(OpenSSL); never from the RTL.
"""
from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

from aesip import ref, rtl, sim
from aesip.tb.seed import run_seed, test_rng
from tb.common.fips197 import SBOX, aes_encrypt_words, printed

HERE = Path(__file__).resolve().parent


KEY_CODE = {16: 0, 24: 1, 32: 2}
NR = ref.ROUNDS

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


def check_words_by_encryption(rng: random.Random, key: bytes, words: list[int], nblocks: int = 3) -> None:
    for _ in range(nblocks):
        pt = rng.randbytes(16)
        got = aes_encrypt_words(words, NR[len(key)], pt)
        exp = ref.ecb_encrypt(key, pt)
        assert got == exp, (f"AES-{8 * len(key)} key {key.hex()}: round keys from the RTL give "
                            f"{got.hex()}, OpenSSL gives {exp.hex()}")


LAST_WORD_BIT = {0: 96, 1: 160, 2: 224, 3: 224}   # key_last: word Nk-1 of key_data


def drive_key(dut, data: int, size: int) -> None:
    """key_data and key_size with key_last consistent with them: the key's last word, as a
    caller of a SUB_AHEAD build supplies it (ignored without SUB_AHEAD). The tests present
    a key one clock before start and keep it there with start (SUB_AHEAD = 2 takes
    key_last in the clock before start, the others take everything with start)."""
    dut.key_size.value = size
    dut.key_data.value = aligned(data, size) if key_aligned(dut) else data
    dut.key_last.value = (data >> LAST_WORD_BIT[size]) & 0xFFFFFFFF


def key_aligned(dut) -> bool:
    """The build's KEY_ALIGNED (a build that cannot show it is taken as 0: a KEY_ALIGNED
    build fed unaligned keys fails the expansion checks)."""
    try:
        return int(dut.KEY_ALIGNED.value) == 1
    except AttributeError:
        return False


def aligned(data: int, size: int) -> int:
    """key_data as a KEY_ALIGNED caller gives it (aes_pipe's kx_key): the key's Nk words at
    the top of the 256 bits (words 8-Nk .. 7), zero below."""
    nk = {0: 4, 1: 6}.get(size, 8)
    return (data & ((1 << (32 * nk)) - 1)) << (32 * (8 - nk))


def clear_key_data(dut) -> None:
    """key_data and key_last to zero (key_size left as it is)."""
    dut.key_data.value = 0
    dut.key_last.value = 0


def key_field(key: bytes, rng: random.Random) -> int:
    """key_data value: the key in bytes 0.., random junk in the bytes the size ignores."""
    return int.from_bytes(key + rng.randbytes(32 - len(key)), "little")


async def ke_reset(dut) -> None:
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.zeroize.value = 0
    dut.start.value = 0
    drive_key(dut, 0, 0)
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)
    await ke_assert_idle(dut, "after reset")
    await RisingEdge(dut.clk)


SUBWORD_ZERO = SBOX[0] * 0x01010101   # SubWord(00000000)


async def ke_assert_idle(dut, when: str) -> None:
    """In ReadOnly: idle and nothing (in particular no key material) on the word output."""
    await ReadOnly()
    assert int(dut.busy.value) == 0, f"busy high {when}"
    assert int(dut.w_valid.value) == 0, f"w_valid high {when}"
    assert int(dut.w_last.value) == 0, f"w_last high {when}"
    assert int(dut.w_data.value) == 0, f"w_data not cleared {when}"
    ahead = getattr(dut, "g_sub_ahead", None)   # SUB_AHEAD >= 1: the SubWord registers
    if ahead is not None:
        x_q = int(ahead.x_q.value)
        sub_q = int(ahead.sub_q.value)
        assert x_q == 0, f"x_q not cleared {when}"
        # SUB_AHEAD = 2 loads SubWord(x_q) while idle: with x_q zero (no key on the port)
        # that is SubWord(0), the FIPS-197 S-box of 00 in every byte, no key material
        allowed = {0, SUBWORD_ZERO} if int(dut.SUB_AHEAD.value) == 2 else {0}
        assert sub_q in allowed, f"sub_q = {sub_q:08x} {when}, expected one of {sorted(allowed)}"


async def ke_expand(dut, rng: random.Random, key: bytes, size_code: int | None = None,
                    start_while_busy: bool = False) -> list[int]:
    """Start an expansion (called just after a rising edge, core idle), collect every
    word and check the timing of the header: start in cycle 0 -> w[k] with w_idx = k in
    cycle k+1, w_last with the final word, busy high from cycle 1 to the final word and
    low after it. With start_while_busy, start stays high with another key during the
    whole expansion (it must be ignored)."""
    n = 4 * (NR[len(key)] + 1)
    drive_key(dut, key_field(key, rng), KEY_CODE[len(key)] if size_code is None else size_code)
    await RisingEdge(dut.clk)  # the clock before start (SUB_AHEAD = 2 takes key_last)
    dut.start.value = 1
    await RisingEdge(dut.clk)  # cycle 0 ends: start sampled
    if start_while_busy:
        drive_key(dut, rng.getrandbits(256), rng.randrange(4))
    else:
        dut.start.value = 0
        clear_key_data(dut)
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
    clear_key_data(dut)
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
    rng = test_rng()
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
    rng = test_rng()
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
    rng = test_rng()
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
    rng = test_rng()
    await ke_reset(dut)
    trials = [(klen, r, sig) for klen in (16, 24, 32) for r in (-1, 0, 4 * NR[klen] + 3)
              for sig in ("zeroize", "rst")]
    trials += [(klen, rng.randrange(4 * NR[klen] + 4), rng.choice(("zeroize", "rst")))
               for klen in (16, 24, 32) for _ in range(3)]
    for klen, r, sig in trials:
        key = rng.randbytes(klen)
        drive_key(dut, key_field(key, rng), KEY_CODE[klen])
        await RisingEdge(dut.clk)      # the clock before start
        dut.start.value = 1
        if r >= 0:
            await RisingEdge(dut.clk)  # start sampled
            dut.start.value = 0
            clear_key_data(dut)
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
        clear_key_data(dut)
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


# ------------------------------------------------------------------------ pytest entry
CASES = [pytest.param(s, p, id=sim.case_id(s, p))
         for p in [{"SBOX_IMPL": 0}, {"SBOX_IMPL": 1}, {"SBOX_IMPL": 0, "SUB_AHEAD": 1}, {"SBOX_IMPL": 1, "SUB_AHEAD": 1},
                   {"SBOX_IMPL": 0, "SUB_AHEAD": 2}, {"SBOX_IMPL": 0, "SUB_AHEAD": 2, "KEY_ALIGNED": 1}]
         for s in sim.SIMULATORS]


@pytest.mark.parametrize("simulator,parameters", CASES)
def test_aes_key_expand(simulator, parameters):
    """Every key-expansion test, both S-box implementations, on each simulator."""
    sim.require(simulator)
    sim.run_and_check(
        toplevel="aes_key_expand",
        sources=rtl.sources(),
        test_module=__name__,
        sim=simulator,
        parameters=parameters,
        seed=run_seed(),
        quiet=True,
    )
