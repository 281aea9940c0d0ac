# SPDX-License-Identifier: Apache-2.0
"""Throughput on fabric: Gbit/s = payload bits per clock (aesip bench) x Fmax (aesip synth).

Both inputs are committed measurement files: `syn/results.json` (written by
`aesip synth --update-docs`) and `syn/bench.json` (written by `aesip bench --update-docs`).
`update_docs` joins them into one table per design and rewrites it between the
`gbps-table` markers of docs/synthesis.md and README.md; both commands call it, so
a new synthesis or bench result updates the Gbit/s column with the command that made it.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYNTH_RESULTS = ROOT / "syn" / "results.json"
BENCH_RESULTS = ROOT / "syn" / "bench.json"
DOCS = (ROOT / "docs" / "synthesis.md", ROOT / "README.md")
TABLE_BEGIN = "<!-- gbps-table:begin -->"
TABLE_END = "<!-- gbps-table:end -->"

# One row per (synthesis design, variant): the bench record whose bits/cycle it moves.
# bench: (bench engine, op, key bits, payload bytes per packet, packets in the burst).
ROWS = [
    ("iter32", "default", ("iter32", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    # block-RAM S-boxes: the same 44 clocks per block (bench of the default iter32)
    ("iter32", "sbox-bram", ("iter32", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("iter128", "default", ("iter128", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("iter128", "enc-only", ("iter128", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("iter128", "two-stage", ("iter128-2st", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("iter128", "two-stage-enc", ("iter128-2st-enc", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("iter128", "r2", ("iter128-r2", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("iter128", "r2-enc", ("iter128-r2", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("pipe", "default", ("pipe", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("pipe", "aes128-enc", ("pipe", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    # block-RAM S-boxes: the same one block per clock (bench of the default pipe)
    ("pipe", "bram", ("pipe", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("pipe", "aes128-enc-bram", ("pipe", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("pipe", "bram-r5", ("pipe", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("pipe", "aes128-enc-bram-r5", ("pipe", "encrypt", 128, 16, None), "AES-128 ECB stream"),
    ("ccm-iter32", "default", ("ccm-iter32", "ccm-encrypt", 128, 1500, 1), "one 1500-byte CCM packet"),
    ("ccm-iter128", "default", ("ccm-iter128", "ccm-encrypt", 128, 1500, 1), "one 1500-byte CCM packet"),
    # both cores encrypt-only (DIRECTION_B = 0): the same CCM cycles (bench of the default)
    ("ccm-iter128", "enc", ("ccm-iter128", "ccm-encrypt", 128, 1500, 1), "one 1500-byte CCM packet"),
    # two rounds per clock in both cores (aesip bench --engine iter128-r2)
    ("ccm-iter128", "enc-r2", ("ccm-iter128-r2", "ccm-encrypt", 128, 1500, 1), "one 1500-byte CCM packet"),
    # one shared two-stage core (aesip bench --engine iter128-1c)
    ("ccm-iter128", "enc-1c", ("ccm-iter128-1c", "ccm-encrypt", 128, 1500, 1), "one 1500-byte CCM packet"),
    ("ccm-pipe", "default", ("ccm-pipe", "ccm-encrypt", 128, 1500, 1), "one 1500-byte CCM packet"),
    ("ccm-multi-pipe", "lanes16", ("ccm-multi-pipe", "ccm-encrypt", 128, 1500, 128),
     "128 back-to-back 1500-byte CCM packets"),
    # 16 lanes on AES-128 encrypt-only pipelines (aesip bench --engine multi-aes128 / -r2)
    ("ccm-multi-pipe", "lanes16-aes128", ("ccm-multi-aes128", "ccm-encrypt", 128, 1500, 128),
     "128 back-to-back 1500-byte CCM packets"),
    ("ccm-multi-pipe", "lanes16-aes128-r2", ("ccm-multi-aes128-r2", "ccm-encrypt", 128, 1500, 128),
     "128 back-to-back 1500-byte CCM packets"),
    # aes_mode_multi on pairs of encrypt-only iter128 cores, one lane per pair (aesip bench
    # --engine multi-iter128-p3 / -p4 / -r2-p2)
    ("ccm-multi-iter128", "enc-p3", ("ccm-multi-iter128-p3", "ccm-encrypt", 128, 1500, 128),
     "128 back-to-back 1500-byte CCM packets"),
    ("ccm-multi-iter128", "enc-p4", ("ccm-multi-iter128-p4", "ccm-encrypt", 128, 1500, 128),
     "128 back-to-back 1500-byte CCM packets"),
    ("ccm-multi-iter128", "enc-r2-p2", ("ccm-multi-iter128-r2-p2", "ccm-encrypt", 128, 1500, 128),
     "128 back-to-back 1500-byte CCM packets"),
    # the 802.11 CCMP front end on the iter128 mode engine (MSDU bits per clock)
    ("ccmp-iter128", "default", ("ccmp-iter128", "ccmp-encrypt", 128, 1500, 1), "one 1500-byte MSDU, CCMP"),
    ("ccmp-iter128", "default", ("ccmp-iter128", "ccmp-encrypt", 128, 1500, 8),
     "8 back-to-back 1500-byte MSDUs, CCMP"),
    # two rounds per clock in both cores (aesip bench --engine iter128-r2)
    ("ccmp-iter128", "r2", ("ccmp-iter128-r2", "ccmp-encrypt", 128, 1500, 1), "one 1500-byte MSDU, CCMP"),
    ("ccmp-iter128", "r2", ("ccmp-iter128-r2", "ccmp-encrypt", 128, 1500, 8),
     "8 back-to-back 1500-byte MSDUs, CCMP"),
]

# Published open cores, measured by the same flow (figures as quoted in issue 13; the
# compact core's bits/cycle is its 0.12 Gbit/s divided by its 50.6 MHz).
# (name, xc7 LUT, ECP5 LUT4, Fmax MHz, bits/cycle, Gbit/s)
REFERENCES = [
    ("open pipelined AES-128 core", "12.2k", "-", "133.7", "128", "17.1"),
    ("open compact AES-128 core", "-", "3.9k", "50.6", "2.4", "0.12"),
]


def bench_key(rec: dict) -> tuple:
    """Identity of a bench record (a new measurement of the same thing replaces it)."""
    return (rec["engine"], rec["op"], rec["key_bits"], rec["bytes_per_packet"],
            rec["packets"], rec.get("lanes"), rec.get("channels"), rec.get("pipeline_depth"))


def _bench_match(recs: list[dict], sel: tuple) -> dict | None:
    engine, op, kb, size, pkts = sel
    found = [r for r in recs if r["engine"] == engine and r["op"] == op and r["key_bits"] == kb
             and r["bytes_per_packet"] == size and (pkts is None or r["packets"] == pkts)]
    return found[-1] if found else None


def _synth_match(recs: list[dict], engine: str, variant: str, target: str) -> dict | None:
    for r in recs:
        # the default nextpnr flow's record (a --tmg-ripup placement is kept beside it)
        if ((r["engine"], r["variant"], r["target"]) == (engine, variant, target)
                and not r.get("error") and not r.get("pnr")):
            return r
    return None


def gbps(bits_per_cycle: float | None, fmax_mhz: float | None) -> float | None:
    """Payload Gbit/s at Fmax, or None when either figure is missing."""
    if bits_per_cycle is None or fmax_mhz is None:
        return None
    return bits_per_cycle * fmax_mhz / 1000.0


def rows(synth: list[dict], bench: list[dict]) -> list[dict]:
    """The joined figures, one dict per ROWS entry."""
    out = []
    for engine, variant, sel, what in ROWS:
        x = _synth_match(synth, engine, variant, "xc7")
        e = _synth_match(synth, engine, variant, "ecp5")
        b = _bench_match(bench, sel)
        bpc = b["bits_per_cycle"] if b else None
        fmax = e.get("fmax_mhz") if e else None
        out.append({"engine": engine, "variant": variant, "workload": what,
                    "xc7_luts": x and x["luts"], "xc7_ffs": x and x["ffs"],
                    "ecp5_luts": e and e["luts"], "ecp5_ffs": e and e["ffs"],
                    "ecp5_brams": e and e["brams"], "fmax_mhz": fmax,
                    "bits_per_cycle": bpc, "gbps": gbps(bpc, fmax)})
    return out


def _fmt(v, digits: int = 1) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}f}" if v != int(v) or digits else f"{int(v)}"
    return str(v)


def format_table(synth: list[dict], bench: list[dict]) -> str:
    head = ("design", "variant", "workload", "xc7 LUT / FF", "ECP5 LUT4 / FF / DP16KD",
            "Fmax MHz (ECP5)", "bits/cycle", "Gbit/s")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows(synth, bench):
        xc7 = f"{_fmt(r['xc7_luts'])} / {_fmt(r['xc7_ffs'])}" if r["xc7_luts"] is not None else "-"
        ecp = (f"{_fmt(r['ecp5_luts'])} / {_fmt(r['ecp5_ffs'])} / {_fmt(r['ecp5_brams'], 0)}"
               if r["ecp5_luts"] is not None else "-")
        lines.append("| " + " | ".join((
            f"`{r['engine']}`", r["variant"], r["workload"], xc7, ecp, _fmt(r["fmax_mhz"]),
            _fmt(r["bits_per_cycle"], 2), _fmt(r["gbps"], 2))) + " |")
    for name, xc7, ecp5, fmax, bpc, g in REFERENCES:
        lines.append(f"| {name} (issue 13, same flow) | - | AES-128 stream | {xc7} | {ecp5} | "
                     f"{fmax} | {bpc} | {g} |")
    return "\n".join(lines)


def load(path: Path) -> list[dict]:
    return json.loads(path.read_text()) if path.exists() else []


def merge_bench(records: list[dict]) -> None:
    """Merge bench records into syn/bench.json (a record replaces one of the same identity)."""
    merged = {bench_key(r): r for r in load(BENCH_RESULTS)}
    for r in records:
        merged[bench_key(r)] = r
    BENCH_RESULTS.write_text(json.dumps(list(merged.values()), indent=1) + "\n")


def render(text: str, table: str, where: str, begin: str = TABLE_BEGIN, end: str = TABLE_END) -> str:
    """`text` with the lines between its `begin` and `end` markers replaced by `table`
    (also used by aesip.synth for its own table)."""
    if begin not in text or end not in text:
        raise RuntimeError(f"{where}: {begin} / {end} markers not found")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{table}\n{end}{tail}"


def update_docs() -> None:
    """Rewrite the Gbit/s table in docs/synthesis.md and README.md from the committed files."""
    table = format_table(load(SYNTH_RESULTS), load(BENCH_RESULTS))
    for doc in DOCS:
        doc.write_text(render(doc.read_text(), table, str(doc.relative_to(ROOT))))
