# SPDX-License-Identifier: Apache-2.0
"""Independent reference models (OpenSSL via `cryptography`).

Nothing here is derived from our RTL; tests and the CLI compare the RTL against these.
"""
from __future__ import annotations

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

# Number of rounds Nr per key length in bytes (FIPS-197 Figure 4); the one table every
# test and tool uses.
ROUNDS = {16: 10, 24: 12, 32: 14}


def ecb_encrypt(key: bytes, data: bytes) -> bytes:
    e = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return e.update(data) + e.finalize()


def ecb_decrypt(key: bytes, data: bytes) -> bytes:
    d = Cipher(algorithms.AES(key), modes.ECB()).decryptor()
    return d.update(data) + d.finalize()


def ecb(key: bytes, data: bytes, dec: bool) -> bytes:
    return ecb_decrypt(key, data) if dec else ecb_encrypt(key, data)


def tdea_ecb(key: bytes, data: bytes, dec: bool) -> bytes:
    """TDEA (3DES) ECB, keying option 1 (24-byte key K1 K2 K3) or 2 (16 bytes, K3 = K1)."""
    from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES

    if len(key) == 16:   # keying option 2 as K1 K2 K1 (cryptography deprecates 16-byte keys)
        key = key + key[:8]
    c = Cipher(TripleDES(key), modes.ECB())
    x = c.decryptor() if dec else c.encryptor()
    return x.update(data) + x.finalize()


def tdea_cbc(key: bytes, iv: bytes, data: bytes, dec: bool) -> bytes:
    """TDEA (3DES) CBC (SP 800-38A) over whole 8-byte blocks, keying option 1 or 2."""
    from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES

    if len(key) == 16:
        key = key + key[:8]
    c = Cipher(TripleDES(key), modes.CBC(iv))
    x = c.decryptor() if dec else c.encryptor()
    return x.update(data) + x.finalize()


def fips197_sbox() -> list[int]:
    """S-box computed from its definition in FIPS-197 Section 5.1.1: multiplicative
    inverse in GF(2^8) mod x^8+x^4+x^3+x+1 followed by the affine transformation."""

    def mul(a: int, b: int) -> int:
        r = 0
        while b:
            if b & 1:
                r ^= a
            a <<= 1
            if a & 0x100:
                a ^= 0x11B
            b >>= 1
        return r

    inv = [0] * 256
    for a in range(1, 256):
        # a^254 = a^-1
        r, p, e = 1, a, 254
        while e:
            if e & 1:
                r = mul(r, p)
            p = mul(p, p)
            e >>= 1
        inv[a] = r
    out = []
    for x in range(256):
        b = inv[x]
        s = 0
        for i in range(8):
            bit = (b >> i) ^ (b >> ((i + 4) % 8)) ^ (b >> ((i + 5) % 8)) ^ (b >> ((i + 6) % 8)) ^ (b >> ((i + 7) % 8)) ^ (0x63 >> i)
            s |= (bit & 1) << i
        out.append(s)
    return out


def fips197_inv_sbox() -> list[int]:
    s = fips197_sbox()
    inv = [0] * 256
    for i, v in enumerate(s):
        inv[v] = i
    return inv


def cbc_encrypt(key: bytes, iv: bytes, data: bytes) -> bytes:
    e = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return e.update(data) + e.finalize()


def cbc_decrypt(key: bytes, iv: bytes, data: bytes) -> bytes:
    d = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    return d.update(data) + d.finalize()


def ctr(key: bytes, counter: bytes, data: bytes) -> bytes:
    """CTR with a 128-bit big-endian counter block incremented mod 2^128 (SP 800-38A)."""
    e = Cipher(algorithms.AES(key), modes.CTR(counter)).encryptor()
    return e.update(data) + e.finalize()


def cbc_mac(key: bytes, iv: bytes, data: bytes) -> bytes:
    """Raw CBC-MAC over whole blocks = last block of the CBC encryption (IV usually 0)."""
    if not data:
        return iv
    return cbc_encrypt(key, iv, data)[-16:]


def ccm_star_m0(key: bytes, nonce: bytes, data: bytes) -> bytes:
    """CCM* with M = 0 (IEEE 802.15.4-2015 Annex B, security level 4: encryption only):
    AES-CTR over the payload with the CCM counter blocks A_i = flags || nonce || i,
    flags = L - 1 (L = 15 - len(nonce)), i from 1, no MAC. Its own inverse. The AAD takes
    no part (a-data is unused when M = 0). Built on `cryptography`'s AES-CTR, whose
    128-bit big-endian counter never carries out of the L-byte counter field here (the
    payload is < 2**(8L) blocks' worth of bytes when the length field fits)."""
    if not 7 <= len(nonce) <= 13:
        raise ValueError("CCM* nonce must be 7..13 bytes")
    q = 15 - len(nonce)
    if q < 8 and len(data) >= 1 << (8 * q):
        raise ValueError("payload too long for the L-byte length field")
    a1 = bytes([q - 1]) + nonce + (1).to_bytes(q, "big")
    return ctr(key, a1, data) if data else b""


def ccm_encrypt(key: bytes, nonce: bytes, aad: bytes, msg: bytes, tag_len: int) -> tuple[bytes, bytes]:
    """(ciphertext, tag); tag_len 0 is CCM* encryption only (ccm_star_m0, empty tag)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    if tag_len == 0:
        return ccm_star_m0(key, nonce, msg), b""
    out = AESCCM(key, tag_length=tag_len).encrypt(nonce, msg, aad or None)
    return out[: len(msg)], out[len(msg):]


def ccm_decrypt(key: bytes, nonce: bytes, aad: bytes, ct: bytes, tag: bytes) -> bytes | None:
    """Plaintext, or None when the tag does not verify; an empty tag is CCM* encryption
    only (M = 0: nothing to verify, ccm_star_m0)."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    if not tag:
        return ccm_star_m0(key, nonce, ct)
    try:
        return AESCCM(key, tag_length=len(tag)).decrypt(nonce, ct + tag, aad or None)
    except InvalidTag:
        return None

# ---------------------------------------------------------------------------- 802.11 CCMP
# CCMP-128 (IEEE 802.11-2016 12.5.3) built from the standard: the MAC header (9.2.3,
# 9.2.4) parsed here, AAD (12.5.3.3.3), nonce (12.5.3.3.4) and CCMP header (12.5.3.2)
# assembled here, the CCM part by `cryptography`'s AESCCM (M = 8, L = 2). The expected
# values of tb/proto/test_ccmp_top.py, tb/test_cli.py and the ccmp records of `aesip
# bench`; nothing comes from the RTL. Layout details: tb/proto/test_ccmp_top.py.
CCMP_MIC_LEN = 8


def _AESCCM(key: bytes, tag_length: int):
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    return AESCCM(key, tag_length=tag_length)


def ccmp_parse(mpdu: bytes) -> dict | None:
    """MAC header fields of an MPDU (802.11-2016 9.2.3, 9.2.4); None when it is too short
    or not a Data / Management frame."""
    if len(mpdu) < 2:
        return None
    fc0, fc1 = mpdu[0], mpdu[1]
    ver, typ, sub = fc0 & 3, (fc0 >> 2) & 3, fc0 >> 4
    if ver != 0 or typ not in (0, 2):
        return None
    data, mgmt = typ == 2, typ == 0
    tods, fromds, order = fc1 & 1, (fc1 >> 1) & 1, fc1 >> 7
    a4 = data and tods and fromds
    qos = data and bool(sub & 8)
    htc = bool(order) and (qos or mgmt)
    hlen = 24 + 6 * a4 + 2 * qos + 4 * htc
    if len(mpdu) < hlen:
        return None
    qoff = 30 if a4 else 24
    return dict(data=data, mgmt=mgmt, a4=a4, qos=qos, htc=htc, hlen=hlen,
                tid=(mpdu[qoff] & 0x0F) if qos else 0, protected=(fc1 >> 6) & 1)


def ccmp_aad_nonce(hdr: bytes, p: dict, pn: int) -> tuple[bytes, bytes]:
    fc0 = hdr[0] & 0x8F if p["data"] else hdr[0]
    fc1 = (hdr[1] & ~0x38 & 0xFF) | 0x40
    if p["qos"]:
        fc1 &= 0x7F
    aad = bytes([fc0, fc1]) + hdr[4:22] + bytes([hdr[22] & 0x0F, 0])
    if p["a4"]:
        aad += hdr[24:30]
    if p["qos"]:
        aad += bytes([p["tid"], 0])
    flags = (p["tid"] if p["qos"] else 0) | (0x10 if p["mgmt"] else 0)
    nonce = bytes([flags]) + hdr[10:16] + pn.to_bytes(6, "big")
    return aad, nonce


def ccmp_protect(key: bytes, mpdu: bytes, pn: int, key_id: int = 0) -> bytes:
    p = ccmp_parse(mpdu)
    hdr, body = mpdu[:p["hlen"]], mpdu[p["hlen"]:]
    aad, nonce = ccmp_aad_nonce(hdr, p, pn)
    pnb = pn.to_bytes(6, "little")
    ccmph = pnb[:2] + bytes([0, 0x20 | (key_id << 6)]) + pnb[2:]
    hdr_o = hdr[:1] + bytes([hdr[1] | 0x40]) + hdr[2:]
    return hdr_o + ccmph + _AESCCM(key, tag_length=CCMP_MIC_LEN).encrypt(nonce, body, aad)


def ccmp_unprotect(key: bytes, mpdu: bytes) -> tuple[bytes, int, int] | None:
    """(plaintext MPDU, PN, Key ID), None when the MIC does not verify."""
    p = ccmp_parse(mpdu)
    h = p["hlen"]
    hdr, ccmph, rest = mpdu[:h], mpdu[h:h + 8], mpdu[h + 8:]
    pn = int.from_bytes(ccmph[:2] + ccmph[4:8], "little")
    aad, nonce = ccmp_aad_nonce(hdr, p, pn)
    from cryptography.exceptions import InvalidTag

    try:
        pt = _AESCCM(key, tag_length=CCMP_MIC_LEN).decrypt(nonce, rest, aad)
    except InvalidTag:
        return None
    return hdr[:1] + bytes([hdr[1] & 0xBF]) + hdr[2:] + pt, pn, ccmph[3] >> 6
