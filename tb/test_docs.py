# SPDX-License-Identifier: Apache-2.0
"""Documentation checks (run by `make test`; no simulation).

  * every figure source in docs/figures (Graphviz .dot, WaveDrom .json) has its SVG
    committed beside it, and that SVG is what the pinned tool renders from the source
    now (rendered into a temporary directory and compared byte for byte: both tools
    give identical output from run to run; a failure names the labels that differ);
  * no SVG without a source, every figure embedded by some page, no WaveDrom block left
    inline in a page (the sources live in docs/figures, aesip/gen_docs.py renders them);
  * the figure tools are pinned in requirements.txt and those versions are installed;
  * every relative link and image in README.md and docs/*.md points to an existing file;
  * every `file.py::test_name` that docs/testplan.md names is defined in that file;
  * the Gbit/s tables in README.md and docs/synthesis.md are what aesip.throughput makes
    of the committed syn/results.json and syn/bench.json, and its join computes
    bits/cycle x Fmax.

Regenerate the figures with `make docs` (python -m aesip.gen_docs).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

from aesip import gen_docs, throughput
from aesip.rtl import ROOT

SOURCES = gen_docs.sources()
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def _rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def _tracked(path: Path) -> bool | None:
    """True/False if git knows whether `path` is tracked; None without git or a repository."""
    if not shutil.which("git") or not (ROOT / ".git").exists():
        return None
    r = subprocess.run(["git", "ls-files", "--error-unmatch", _rel(path)], cwd=ROOT,
                       capture_output=True, text=True)
    return r.returncode == 0


def test_figure_sources_exist():
    kinds = {p.suffix for p in SOURCES}
    assert {".dot", ".json"} <= kinds, f"expected Graphviz and WaveDrom sources, found {kinds}"


@pytest.mark.parametrize("src", SOURCES, ids=[p.name for p in SOURCES])
def test_figure_svg_committed_and_current(src: Path, tmp_path: Path):
    svg = gen_docs.svg_for(src)
    assert svg.exists(), f"{_rel(svg)} missing: run `make docs` and commit it"
    for p in (src, svg):
        assert _tracked(p) is not False, f"{_rel(p)} is not committed (git add it)"
    problem = gen_docs.compare(src, tmp_path)
    assert problem is None, problem


def test_every_svg_has_a_source():
    stems = {p.stem for p in SOURCES}
    orphans = [_rel(p) for p in sorted(gen_docs.FIGURES.glob("*.svg")) if p.stem not in stems]
    assert not orphans, f"SVGs without a source in docs/figures: {orphans}"


def _page_text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def test_every_figure_is_embedded():
    text = "\n".join(_page_text(p) for p in PAGES)
    missing = [p.name for p in SOURCES
               if f"figures/{gen_docs.svg_for(p).name})" not in text
               or f"figures/{p.name})" not in text]
    assert not missing, ("figures whose SVG is not embedded (![...](figures/NAME.svg)) or whose "
                         f"source is not linked from README.md or docs/*.md: {missing}")


def test_no_inline_wavedrom():
    inline = [_rel(p) for p in PAGES if re.search(r"^\s*```\s*wavedrom", _page_text(p), re.M)]
    assert not inline, (f"WaveDrom blocks inline in {inline}: move each to docs/figures/NAME.json, "
                        "run `make docs`, embed figures/NAME.svg")


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        m = re.match(r"^\s*([A-Za-z0-9_.-]+)\s*==\s*(\S+)", line)
        if m:
            pins[m.group(1).lower().replace("_", "-")] = m.group(2)
    return pins


@pytest.mark.parametrize("pkg", ["graphviz-pure", "yowasp-wavedrom"])
def test_figure_tools_pinned(pkg: str):
    pins = _pins()
    assert pkg in pins, f"{pkg} is not pinned in requirements.txt"
    installed = metadata.version(pkg)
    assert installed == pins[pkg], (f"{pkg} {installed} installed, requirements.txt pins "
                                    f"{pins[pkg]}: the figures would not be reproducible")


# ----------------------------------------------------------------- links
_FENCE = re.compile(r"^\s*(```|~~~).*?^\s*\1[^\n]*$", re.M | re.S)
_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
_HTML = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)\s*=\s*\"([^\"]+)\"", re.I)


def links(markdown: str) -> list[str]:
    """Link and image targets of a markdown text, outside code blocks and code spans."""
    text = _CODE.sub("", _FENCE.sub("", markdown))
    return [m.group(1) for rx in (_INLINE, _REFDEF, _HTML) for m in rx.finditer(text)]


def _relative(target: str) -> str | None:
    """The file part of a relative link, None for URLs, mail and in-page anchors."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith(("#", "//")):
        return None
    path = target.split("#", 1)[0].split("?", 1)[0]
    return path or None


def test_link_parser():
    md = ("see [a](docs/a.md#x), ![f](figures/f.svg \"t\"), [u](https://x.org/y), [h](#top),\n"
          "`[not](a link)` and\n```\n[nor](this)\n```\n[r]: docs/r.md\n<img src=\"i.svg\">\n"
          "[nested [brackets]](n.md)")
    got = [t for t in (_relative(x) for x in links(md)) if t]
    assert got == ["docs/a.md", "figures/f.svg", "n.md", "docs/r.md", "i.svg"], got


@pytest.mark.parametrize("page", PAGES, ids=[_rel(p) for p in PAGES])
def test_relative_links_exist(page: Path):
    broken = []
    for target in links(_page_text(page)):
        path = _relative(target)
        if path is None:
            continue
        dest = (page.parent / path).resolve()
        if not dest.exists():
            broken.append(target)
        elif ROOT.resolve() not in dest.parents and dest != ROOT.resolve():
            broken.append(f"{target} (outside the repository)")
    assert not broken, f"{_rel(page)}: relative links to missing files: {broken}"


# ----------------------------------------------------------------- test plan
_TESTREF = re.compile(r"`((?:tb/)?[\w/]*?\w+\.py)::(\w+)")


def test_testplan_names_exist():
    """docs/testplan.md names tests as `tb/dir/file.py::name` (or `file.py::name` for a file
    under tb/ with a unique name); each must be a function defined in that file."""
    plan = _page_text(ROOT / "docs" / "testplan.md")
    refs = sorted(set(_TESTREF.findall(plan)))
    assert len(refs) > 20, "docs/testplan.md names too few tests: parser out of date?"
    tb_files = list((ROOT / "tb").rglob("*.py"))
    wrong = []
    for file, name in refs:
        if file.startswith("tb/"):
            cands = [ROOT / file]
        else:
            cands = [p for p in tb_files if p.name == Path(file).name]
        if len(cands) != 1 or not cands[0].exists():
            wrong.append(f"{file} (no such file under tb/, or not unique)")
            continue
        if not re.search(rf"^\s*(?:async\s+)?def\s+{name}\s*\(", cands[0].read_text(), re.M):
            wrong.append(f"{file}::{name}")
    assert not wrong, f"docs/testplan.md names tests that do not exist: {wrong}"


def test_durations_name_collected_tests():
    """tb/durations.txt (the run order, tb/conftest.py) names only tests that exist and
    parses; a renamed test would silently drop out of the longest-first order."""
    import sys
    from tb.conftest import load_durations
    durations = load_durations()
    assert len(durations) > 20, "tb/durations.txt lists too few entries"
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist",
                        "-p", "no:cacheprovider", "tb"], cwd=ROOT, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    collected = {line.strip() for line in p.stdout.splitlines() if "::" in line}
    assert len(collected) > 500, p.stdout[-2000:]
    stale = sorted(set(durations) - collected)
    assert not stale, f"tb/durations.txt names tests that are not collected: {stale}"


@pytest.mark.parametrize("page", throughput.DOCS, ids=_rel)
def test_gbps_table_current(page: Path):
    """The committed Gbit/s table is the one the committed measurement files give."""
    table = throughput.format_table(throughput.load(throughput.SYNTH_RESULTS),
                                    throughput.load(throughput.BENCH_RESULTS))
    text = page.read_text()
    assert throughput.render(text, table, _rel(page)) == text, (
        f"{_rel(page)}: Gbit/s table out of date; run python -c 'from aesip import "
        "throughput; throughput.update_docs()' (or aesip bench/synth --update-docs)")


def test_chan_table_current():
    """docs/channels.md's channel table is the one the channel records of syn/bench.json
    give, and the plot it links exists (python -m aesip.chan_plot writes both)."""
    from aesip import chan_plot

    text = chan_plot.DOC.read_text()
    want = throughput.render(text, chan_plot.table_text(), "docs/channels.md", chan_plot.BEGIN, chan_plot.END)
    assert want == text, "docs/channels.md: channel table out of date; run python -m aesip.chan_plot"
    assert chan_plot.records(), "syn/bench.json has no channel records"
    assert chan_plot.PNG.exists() and chan_plot.PNG.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_gbps_join():
    """Gbit/s = bits/cycle x ECP5 Fmax of the matching synthesis and bench records; a
    missing figure gives no Gbit/s rather than a guess."""
    synth = [{"engine": "iter128", "variant": "default", "target": "ecp5", "luts": 9000,
              "ffs": 600, "brams": 0, "fmax_mhz": 125.0},
             {"engine": "iter128", "variant": "default", "target": "xc7", "luts": 3000,
              "ffs": 600, "brams": 0, "fmax_mhz": None},
             {"engine": "pipe", "variant": "default", "target": "ecp5", "luts": 1, "ffs": 1,
              "brams": 0, "fmax_mhz": None, "error": "does not fit"}]
    bench = [{"engine": "iter128", "op": "encrypt", "key_bits": 128, "bytes_per_packet": 16,
              "packets": 64, "bits_per_cycle": 12.8},
             {"engine": "iter128", "op": "encrypt", "key_bits": 256, "bytes_per_packet": 16,
              "packets": 64, "bits_per_cycle": 9.14},
             {"engine": "pipe", "op": "encrypt", "key_bits": 128, "bytes_per_packet": 16,
              "packets": 64, "bits_per_cycle": 128.0}]
    by = {(r["engine"], r["variant"]): r for r in throughput.rows(synth, bench)}
    r = by[("iter128", "default")]
    assert (r["xc7_luts"], r["ecp5_luts"], r["fmax_mhz"]) == (3000, 9000, 125.0)
    assert r["bits_per_cycle"] == 12.8 and r["gbps"] == pytest.approx(1.6)
    assert by[("pipe", "default")]["gbps"] is None          # no place-and-route result
    assert by[("iter32", "default")]["bits_per_cycle"] is None
    assert throughput.gbps(None, 100.0) is None and throughput.gbps(128, None) is None


def test_endpoint_census():
    """`aesip synth --census`: register inputs (FF DI/M/CE/LSR, LUT-RAM write ports, DP16KD
    address / enable / reset / write inputs, not its clock) of a
    nextpnr detailed timing report later than the period, grouped by register name with
    the indices folded; a LUT input is not an endpoint, and a register counts once (its
    latest arrival) however many nets reach it."""
    from aesip import synth
    rep = {"detailed_net_timings": [
        {"net": "a", "driver": "x", "port": "Q", "endpoints": [
            {"cell": "g_st[1].sub_TRELLIS_FF_Q_3", "port": "M", "delay": [1.0, 7.5]},
            {"cell": "g_st[2].sub_TRELLIS_FF_Q_4", "port": "M", "delay": [1.0, 6.0]},
            {"cell": "g_st[2].sub_TRELLIS_FF_Q_5", "port": "DI", "delay": [1.0, 5.0]},
            {"cell": "u_lut_LUT4_Z", "port": "A", "delay": [1.0, 9.0]}]},
        {"net": "b", "driver": "y", "port": "Q", "endpoints": [
            {"cell": "g_st[1].sub_TRELLIS_FF_Q_3", "port": "M", "delay": [1.0, 7.0]},
            {"cell": "u_obuf.data_mem.0.1$DPRAM_COMB0", "port": "WAD1", "delay": [2.0, 8.25]},
            {"cell": "u_obuf.data_mem.0.1$DPRAM_COMB0", "port": "A", "delay": [2.0, 9.5]}]},
        {"net": "c", "driver": "z", "port": "Q", "endpoints": [
            {"cell": "g_st[3].u_bram.u_dp16kd", "port": "ADA4", "delay": [1.0, 7.75]},
            {"cell": "g_st[3].u_bram.u_dp16kd", "port": "CLKA", "delay": [1.0, 9.0]}]}]}
    groups = synth.endpoint_census(rep, 5.5)
    assert groups == [
        {"group": "u_obuf.data_mem.#.#$DPRAM_COMB#", "port": "WAD1", "count": 1, "worst_ns": 8.25},
        {"group": "g_st[#].u_bram.u_dp#kd", "port": "ADA4", "count": 1, "worst_ns": 7.75},
        {"group": "g_st[#].sub_TRELLIS_FF_Q_#", "port": "M", "count": 2, "worst_ns": 7.5}]
    assert synth.endpoint_census(rep, 10.0) == []
    text = synth.format_census("pipe", 5.5, groups, limit=1)
    assert "4 endpoints later than 5.5 ns" in text and "2 more groups" in text


def test_synth_seeds():
    """`aesip synth --seed A --seed B`: one placement per seed on the nextpnr targets,
    each in its own cache directory (the default seed's keeps the plain name), one
    synthesis-only xc7 run; the spread line lists every seed with min / median / max."""
    from aesip import synth
    args = synth.build_parser().parse_args(
        ["--engine", "iter32", "--variant", "default", "--target", "ecp5", "--target", "xc7",
         "--seed", str(synth.DEFAULT_SEED), "--seed", "7", "--seed", "9", "--seed", "7"])
    jobs = synth.plan(args)
    got = sorted((j.target, j.seed, j.dir.name) for j in jobs)
    assert got == sorted([
        ("ecp5", synth.DEFAULT_SEED, "iter32-default-ecp5"),
        ("ecp5", 7, "iter32-default-ecp5-s7"), ("ecp5", 9, "iter32-default-ecp5-s9"),
        ("xc7", synth.DEFAULT_SEED, "iter32-default-xc7")])
    recs = [{"engine": "iter32", "variant": "default", "target": "ecp5", "seed": s, "fmax_mhz": f}
            for s, f in ((1, 90.0), (7, 99.5), (9, 93.25))]
    recs.append({"engine": "iter32", "variant": "default", "target": "xc7", "seed": None,
                 "fmax_mhz": None})
    line = synth.format_spread(recs)
    assert line == ("iter32/default/ecp5: seed 1 90.00, seed 7 99.50, seed 9 93.25; "
                    "min 90.00, median 93.25, max 99.50 MHz")
    assert synth.format_spread(recs[:1]) == ""
    assert synth.synth_main(["--engine", "iter32", "--seed", "1", "--seed", "2",
                             "--update-docs"]) == 2


def test_synth_tmg_ripup():
    """`aesip synth --tmg-ripup`: nextpnr (ecp5, ice40) gets --tmg-ripup, each placement is
    cached in its own directory (`-tr`) under its own key, the record says so ("pnr") and
    is kept beside the default flow's in syn/results.json; the Gbit/s tables keep using
    the default flow's record; xc7 (synthesis only) is unchanged."""
    from aesip import synth, throughput
    args = synth.build_parser().parse_args(
        ["--engine", "iter32", "--variant", "default", "--target", "ecp5", "--target", "xc7",
         "--tmg-ripup", "--seed", "1", "--seed", "3"])
    jobs = synth.plan(args)
    got = sorted((j.target, j.seed, j.dir.name, j.pnr_extra) for j in jobs)
    assert got == sorted([
        ("ecp5", 1, "iter32-default-ecp5-tr", ["--tmg-ripup"]),
        ("ecp5", 3, "iter32-default-ecp5-tr-s3", ["--tmg-ripup"]),
        ("xc7", 1, "iter32-default-xc7", [])])
    plain = synth.Job("iter32", "default", {}, "ecp5", synth.DEFAULT_FREQ, 1)
    tr = [j for j in jobs if j.target == "ecp5" and j.seed == 1][0]
    ys, pnr = synth._scripts(plain)
    ys_tr, pnr_tr = synth._scripts(tr)
    assert ys == ys_tr.replace(str(tr.dir), str(plain.dir))
    assert pnr_tr == pnr + " --tmg-ripup" and "--tmg-ripup" not in pnr
    base = {"engine": "iter32", "variant": "default", "target": "ecp5", "params": {},
            "device": "LFE5U-85F", "luts": 1, "ffs": 1, "brams": 0, "lutrams": 0,
            "fmax_mhz": 100.0}
    rip = dict(base, fmax_mhz=110.0, pnr="tmg-ripup")
    assert synth.record_key(base) != synth.record_key(rip)
    assert "nextpnr --tmg-ripup" in synth.format_table([rip])
    assert "tmg-ripup" not in synth.format_table([base])
    assert throughput._synth_match([rip, base], "iter32", "default", "ecp5") is base
    assert throughput._synth_match([rip], "iter32", "default", "ecp5") is None
    line = synth.format_spread([dict(rip, seed=1), dict(rip, seed=3, fmax_mhz=120.0),
                                dict(base, seed=1)])
    assert line.startswith("iter32/default/ecp5/tmg-ripup: seed 1 110.00, seed 3 120.00")
