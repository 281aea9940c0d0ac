# SPDX-License-Identifier: Apache-2.0
"""Regenerate the documentation figures (docs/figures/*.svg) from their text sources.

    python -m aesip.gen_docs            # = make docs: render every source, rewrite changed SVGs
    python -m aesip.gen_docs --check    # render into a temporary directory and compare; exit 1
                                        # if an SVG is missing or differs from its source
    python -m aesip.gen_docs --list     # source -> SVG, and the tool that renders it

Every figure is a text source in docs/figures/ with its SVG beside it (same stem). Both
are committed, so the figures show on GitHub; the markdown pages embed the SVG and link
the source.

  NAME.dot   Graphviz, rendered by `graphviz-pure -Kdot -Tsvg NAME.dot -o NAME.svg`
             (PyPI `graphviz-pure`, a Rust port of Graphviz 16.1; its command is
             `graphviz-pure`, there is no `dot` executable)
  NAME.json  WaveDrom, rendered by `yowasp-wavedrom NAME.json NAME.svg` (PyPI
             `yowasp-wavedrom`; it reads the source with Python's json module, so the
             source is strict JSON: no comments, no trailing commas)

Both tools are pinned in requirements.txt. With the pinned versions the output is
byte-identical from run to run (checked when they were pinned), so --check and
tb/test_docs.py compare bytes; on a mismatch they also report which text labels differ.
The tools are taken from the running interpreter's bin/ directory (the project's .venv),
else from PATH.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from aesip.rtl import ROOT

DOCS = ROOT / "docs"
FIGURES = DOCS / "figures"

# source suffix -> (console script, argv builder(source, output))
RENDERERS = {
    ".dot": ("graphviz-pure", lambda src, out: ["-Kdot", "-Tsvg", str(src), "-o", str(out)]),
    ".json": ("yowasp-wavedrom", lambda src, out: [str(src), str(out)]),
}


def tool(name: str) -> str:
    """Path of a console script: next to the running interpreter, else on PATH."""
    cand = Path(sys.executable).parent / name
    if cand.exists():
        return str(cand)
    found = shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} not found (install the pinned toolchain: make venv)")
    return found


def sources(figures: Path = FIGURES) -> list[Path]:
    """Every figure source under docs/figures, sorted."""
    return sorted(p for p in figures.iterdir() if p.is_file() and p.suffix in RENDERERS)


def svg_for(src: Path) -> Path:
    return src.with_suffix(".svg")


def render(src: Path, out: Path) -> None:
    """Render one source into `out` (an SVG file) with its pinned tool."""
    name, args = RENDERERS[src.suffix]
    out.parent.mkdir(parents=True, exist_ok=True)
    r = subprocess.run([tool(name)] + args(src, out), capture_output=True, text=True,
                       cwd=src.parent)
    if r.returncode != 0 or not out.exists():
        raise RuntimeError(f"{name} failed on {src.relative_to(ROOT)} (exit {r.returncode}):\n"
                           f"{(r.stdout + r.stderr).strip()}")


_TEXT = re.compile(r"<text\b[^>]*>(.*?)</text>", re.S)
_TAGS = re.compile(r"<[^>]+>")


def svg_texts(svg: str) -> list[str]:
    """The text labels of an SVG, in document order (nested tspans joined)."""
    out = []
    for m in _TEXT.finditer(svg):
        t = _TAGS.sub("", m.group(1))
        t = (t.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
             .replace("&#45;", "-").replace("&#160;", " ").replace("&amp;", "&"))
        if t.strip():
            out.append(t.strip())
    return out


def compare(src: Path, tmpdir: Path) -> str | None:
    """Render `src` into tmpdir and compare with the committed SVG beside it.
    None if identical, else a description of the problem."""
    committed = svg_for(src)
    rel = committed.relative_to(ROOT)
    if not committed.exists():
        return f"{rel} missing (run `make docs` and commit it)"
    fresh = tmpdir / committed.name
    render(src, fresh)
    new, old = fresh.read_bytes(), committed.read_bytes()
    if new == old:
        return None
    a, b = svg_texts(old.decode()), svg_texts(new.decode())
    if a == b:
        what = "the same text labels, different geometry or styling"
    else:
        gone = [t for t in a if t not in b]
        added = [t for t in b if t not in a]
        what = f"labels only in the committed SVG: {gone[:8]}; only in a fresh render: {added[:8]}"
    return f"{rel} is not up to date with {src.name} ({what}); run `make docs` and commit it"


def check(figures: Path = FIGURES) -> list[str]:
    problems = []
    with tempfile.TemporaryDirectory(prefix="aesip-docs-") as d:
        for src in sources(figures):
            p = compare(src, Path(d))
            if p:
                problems.append(p)
    return problems


def generate(figures: Path = FIGURES) -> list[Path]:
    """Render every source; rewrite only the SVGs whose content changed. Returns them."""
    changed = []
    with tempfile.TemporaryDirectory(prefix="aesip-docs-") as d:
        for src in sources(figures):
            fresh = Path(d) / svg_for(src).name
            render(src, fresh)
            dst = svg_for(src)
            if not dst.exists() or dst.read_bytes() != fresh.read_bytes():
                shutil.copyfile(fresh, dst)
                changed.append(dst)
    return changed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m aesip.gen_docs",
                                description="Render docs/figures/*.dot (Graphviz) and *.json "
                                "(WaveDrom) to the SVGs beside them.")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--check", action="store_true",
                   help="do not write; exit 1 if an SVG is missing or out of date")
    g.add_argument("--list", action="store_true", help="list the sources and their tools")
    args = p.parse_args(argv)
    if args.list:
        for src in sources():
            print(f"{src.relative_to(ROOT)} -> {svg_for(src).relative_to(ROOT)}"
                  f"  ({RENDERERS[src.suffix][0]})")
        return 0
    if args.check:
        problems = check()
        for msg in problems:
            print(msg, file=sys.stderr)
        if not problems:
            print(f"{len(sources())} figures up to date")
        return 1 if problems else 0
    changed = generate()
    for f in changed:
        print(f"wrote {os.path.relpath(f, ROOT)}")
    print(f"{len(sources())} figures, {len(changed)} rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
