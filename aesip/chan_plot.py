# SPDX-License-Identifier: Apache-2.0
"""`python -m aesip.chan_plot`: the channel figures of docs/channels.md from the channel
records in syn/bench.json (written by `aesip bench --update-docs`, aesip/chan_bench.py):

  * docs/figures/channels.png: pipeline utilization (blocks per clock per pipeline)
    against the number of channels, one line per engine and pipeline depth, and against
    the pipeline depth, one line per channel count;
  * the table between the chan-table markers of docs/channels.md.

`table_text()` alone (no matplotlib) is what tb/test_docs.py compares with the page."""
from __future__ import annotations

import sys

from aesip import throughput

DOC = throughput.ROOT / "docs" / "channels.md"
PNG = throughput.ROOT / "docs" / "figures" / "channels.png"
BEGIN, END = "<!-- chan-table:begin -->", "<!-- chan-table:end -->"


def records() -> list[dict]:
    recs = [r for r in throughput.load(throughput.BENCH_RESULTS) if "channels" in r and "pipeline_depth" in r]
    return sorted(recs, key=lambda r: (r["engine"], r["pipeline_depth"], r["channels"]))


def table_text(recs: list[dict] | None = None) -> str:
    recs = records() if recs is None else recs
    if not recs:
        return "(no channel records in syn/bench.json yet)"
    rows = ["| engine | op | pipeline depth | channels | packets | cycles | blocks/clock/pipeline | bits/cycle | latency |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in recs:
        rows.append(f"| `{r['engine']}` | {r['op']} | {r['pipeline_depth']} | {r['channels']} | {r['packets']} | "
                    f"{r['cycles']} | {r['blocks_per_clock_per_pipe']:.3f} | {r['bits_per_cycle']:g} | "
                    f"{r['latency_cycles']} |")
    return "\n".join(rows)


def write_table() -> None:
    DOC.write_text(throughput.render(DOC.read_text(), table_text(), "docs/channels.md", BEGIN, END))


def plot() -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    recs = records()
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    lines: dict[tuple, list] = {}
    for r in recs:
        lines.setdefault((r["engine"], r["pipeline_depth"]), []).append(r)
    for (eng, depth), rs in sorted(lines.items()):
        a.plot([r["channels"] for r in rs], [r["blocks_per_clock_per_pipe"] for r in rs], marker="o",
               label=f"{eng}, depth {depth}")
    a.set_xscale("log", base=2)
    a.set_xlabel("channels")
    a.set_ylabel("blocks per clock per pipeline")
    a.set_title("CBC encryption, 1504-byte packets")
    a.set_ylim(0, 1.05)
    a.grid(True, alpha=0.3)
    a.legend(fontsize=7)
    by_ch: dict[tuple, list] = {}
    for r in recs:
        by_ch.setdefault((r["engine"], r["channels"]), []).append(r)
    for (eng, ch), rs in sorted(by_ch.items()):
        if len(rs) < 2:
            continue
        rs = sorted(rs, key=lambda r: r["pipeline_depth"])
        b.plot([r["pipeline_depth"] for r in rs], [r["blocks_per_clock_per_pipe"] for r in rs], marker="s",
               label=f"{eng}, {ch} channels")
    b.set_xlabel("pipeline depth (clocks)")
    b.set_ylabel("blocks per clock per pipeline")
    b.set_title("against pipeline depth")
    b.set_ylim(0, 1.05)
    b.grid(True, alpha=0.3)
    b.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(PNG, dpi=90, metadata={"Software": None})
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    write_table()
    plot()
    print(f"wrote {PNG.relative_to(throughput.ROOT)} and the table of {DOC.relative_to(throughput.ROOT)}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
