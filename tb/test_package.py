# SPDX-License-Identifier: Apache-2.0
"""Layering of the Python package `aesip` (pure Python, no simulator):

  * the import graph of aesip/ (every `import` / `from ... import` statement, also those
    inside functions) has no cycle;
  * host-side modules (everything outside aesip/tb/) import no cocotb, directly or through
    other aesip modules; only the executors and drivers under aesip/tb/ run inside the
    simulator;
  * aesip.cli only parses arguments and dispatches (it imports no simulation, planning or
    reference code at module level).
"""
from __future__ import annotations

import ast
from pathlib import Path

from aesip.rtl import ROOT

PKG = ROOT / "aesip"
COCOTB = ("cocotb", "cocotbext", "cocotb_bus")


def _modules() -> dict[str, Path]:
    mods = {}
    for p in sorted(PKG.rglob("*.py")):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = p
    return mods


def import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(edges between aesip modules, external top-level packages imported per module)."""
    mods = _modules()
    edges: dict[str, set[str]] = {m: set() for m in mods}
    external: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative import
                    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    base = base[:len(base) - node.level + 1]
                    name = ".".join(base + ([node.module] if node.module else []))
                else:
                    name = node.module
                targets = [f"{name}.{a.name}" if f"{name}.{a.name}" in mods else name for a in node.names]
            for t in targets:
                if t.split(".")[0] == "aesip":
                    while t not in mods:   # aesip.x.attr -> aesip.x
                        t = t.rsplit(".", 1)[0]
                    if t != mod:
                        edges[mod].add(t)
                else:
                    external[mod].add(t.split(".")[0])
    return edges, external


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(edges[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                c = visit(n)
                if c:
                    return c
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(edges):
        if m not in state:
            c = visit(m)
            if c:
                return c
    return None


def _reach(edges: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo += edges[m]
    return seen


def test_find_cycle_works():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_no_import_cycle():
    edges, _ = import_graph()
    assert len(edges) > 10 and "aesip.cli" in edges and "aesip.tb.engdrv" in edges
    cycle = find_cycle(edges)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_host_side_imports_no_cocotb():
    edges, external = import_graph()
    host = [m for m in edges if not (m == "aesip.tb" or m.startswith("aesip.tb."))]
    assert "aesip.session" in host and "aesip.bench" in host
    bad = {}
    for m in host:
        via = sorted(n for n in _reach(edges, m) if external[n] & set(COCOTB))
        if via:
            bad[m] = via
    assert not bad, f"host-side modules that import cocotb (module: the cocotb importers it reaches): {bad}"


def test_cli_only_dispatches():
    """aesip.cli imports at module level only the argument choices and the error types."""
    tree = ast.parse((PKG / "cli.py").read_text())
    top = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("aesip"):
            top |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            top |= {a.name for a in node.names if a.name.startswith("aesip")}
    assert top <= {"aesip.rtl", "aesip.errors.EXIT_SIM", "aesip.errors.EXIT_USAGE", "aesip.errors.SimError",
                   "aesip.errors.UsageError"}, top
    defs = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert defs <= {"build_parser", "main", "cmd_synth", "_add_sim_args"}, defs
