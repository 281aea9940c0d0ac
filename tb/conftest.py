# SPDX-License-Identifier: Apache-2.0
"""Run order of the suite: the entries measured slowest (tb/durations.txt) first, longest
first, then the rest in pytest's order.

`make test` runs 2 workers with `--dist worksteal`. In pytest's order the simulations come
first and the many short checks (lint, parameter checks, docs) last, and the longest entry
(`test_cli.py::test_bench_json`, about 10 minutes) sits in the middle: the run could end
with one worker still in it and the other idle. Longest first, the last entries to run
are short ones. The order changes nothing else: every entry is independent (each builds
its own model or waits for the one it shares, aesip/sim.py).

It also sets the wall-clock limit of one simulator run for the suite (AESIP_SIM_TIMEOUT,
aesip/sim.py: sim_timeout), unless the environment gives one: a simulation that never
ends then fails its test with a message naming its build after 20 minutes, about four
times the longest entry in tb/durations.txt (a CLI bench of many runs; one simulator run
takes at most about 80 s there), instead of holding the CI run until the CI's own limit.
`make soak` lifts it (0)."""
from __future__ import annotations

import os
import re
from pathlib import Path

os.environ.setdefault("AESIP_SIM_TIMEOUT", "1200")

DURATIONS = Path(__file__).with_name("durations.txt")
_LINE = re.compile(r"^\s*([0-9.]+)s?(?:\s+call)?\s+(\S+)\s*$")


def load_durations(path: Path = DURATIONS) -> dict[str, float]:
    """nodeid -> seconds from the durations file (comment and blank lines skipped)."""
    out: dict[str, float] = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            raise ValueError(f"{path}: not '<seconds> <nodeid>': {line!r}")
        out[m.group(2)] = float(m.group(1))
    return out


def pytest_collection_modifyitems(session, config, items):
    durations = load_durations()
    if not durations:
        return
    order = {item.nodeid: i for i, item in enumerate(items)}
    items.sort(key=lambda it: (-durations.get(it.nodeid, 0.0), order[it.nodeid]))
