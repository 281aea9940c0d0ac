# SPDX-License-Identifier: Apache-2.0
"""`aesip run`: JSON Lines requests through the RTL engines.

aesip.runreq parses the lines; every op belongs to one op family (aesip.families), and
each family runs all of its requests of the run in one simulation of its hardware (the
AES mode engines for the AES ops, the TDEA engine, the protocol front ends). Outputs
come back in input order. Nothing here computes cryptography.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from aesip import families, runreq
from aesip.aes_run import target_for  # noqa: F401  (the AES family's simulation target)
from aesip.errors import EXIT_INPUT


def execute_requests(requests: list[runreq.Request], engine: str, simulator: str) -> list[dict]:
    """Output objects for `requests` (in order): each op family's requests run together
    in that family's simulation (one per family present), on `engine` where the family
    has a choice of engines."""
    outs: list[dict | None] = [None] * len(requests)
    for fam in families.FAMILIES:
        idx = [i for i, r in enumerate(requests) if r.op in fam.ops]
        if not idx:
            continue
        for i, o in zip(idx, fam.execute([requests[i] for i in idx], engine, simulator)):
            outs[i] = o
    assert all(o is not None for o in outs), "a request of an op no family serves"
    return outs


def run_main(args) -> int:
    if args.input in (None, "-"):
        lines = sys.stdin.buffer.read().splitlines()
    else:
        lines = Path(args.input).read_bytes().splitlines()
    parsed = runreq.parse_lines(lines, families.JOB_OF)
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
