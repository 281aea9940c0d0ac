# SPDX-License-Identifier: Apache-2.0
"""FIPS-197 written out in Python for the primitive tests (tb/common): GF(2^8)
multiplication, the MixColumns matrices and a plain Cipher() that takes its round keys
from a list of words. Written from the standard's text, independent of the RTL."""
from __future__ import annotations

from aesip import ref

SBOX = ref.fips197_sbox()
INV_SBOX = ref.fips197_inv_sbox()


def printed(hexstr: str) -> int:
    """A word/column as printed in FIPS-197 (first byte first) -> our bit layout
    (byte n at bits [8n+7:8n])."""
    return int.from_bytes(bytes.fromhex(hexstr), "little")


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
