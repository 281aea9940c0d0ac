# SPDX-License-Identifier: Apache-2.0
"""`aesip run`: JSON Lines requests through the mode engine in one simulation.

aesip.runreq parses and validates the lines and maps the engine's answers to output
objects; aesip.planner turns the requests into executor commands (keys resident in the
engine's key slots); aesip.session runs them on aes_mode_engine built on the chosen block
core, or on aes_mode_multi (`--engine multi`). Nothing here computes cryptography.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from aesip import rtl, runreq, session
from aesip.errors import EXIT_INPUT, SimError
from aesip.planner import EnginePlanner


def target_for(engine: str) -> session.SimTarget:
    """The simulation of an `aesip run --engine` value (aesip.rtl.RUN_ENGINES): the mode
    engine on that block core, or the multi-lane engine (independent requests in flight
    together on aes_pipe; statuses and outputs still come back in command order)."""
    if engine == rtl.MULTI_ENGINE:
        return session.multi_target()
    return session.engine_target(engine)


def execute_requests(requests: list[runreq.Request], engine: str, simulator: str) -> list[dict]:
    """Output objects for `requests` (in order), running them on the engine `engine`
    (target_for)."""
    planner = EnginePlanner()
    placement = {i: planner.add(r.job) for i, r in enumerate(requests) if r.job is not None}
    results = []
    if placement:
        results = session.simulate(target_for(engine), simulator, planner.commands)["results"]
    outs = []
    for i, r in enumerate(requests):
        if r.job is None:
            outs.append(runreq.result_for(r))
            continue
        pi, qi = placement[i]
        try:
            outs.append(runreq.result_for(r, results[pi], results[qi] if qi is not None else None))
        except (ValueError, KeyError, IndexError) as e:
            raise SimError(f"unexpected response of the engine simulation: {e}") from None
    return outs


def run_main(args) -> int:
    if args.input in (None, "-"):
        lines = sys.stdin.buffer.read().splitlines()
    else:
        lines = Path(args.input).read_bytes().splitlines()
    parsed = runreq.parse_lines(lines)
    outs = execute_requests(parsed.requests, args.engine, args.sim)
    text = "".join(json.dumps(o) + "\n" for o in outs)
    if args.output in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        Path(args.output).write_text(text)
    if parsed.fatal is not None:
        f = parsed.fatal
        print(f"aesip run: error: line {f.lineno}: {f.message}\n"
              f"aesip run: the {len(outs)} request(s) before line {f.lineno} were answered; "
              f"line {f.lineno} and everything after it was not processed", file=sys.stderr)
        return EXIT_INPUT
    return 0
