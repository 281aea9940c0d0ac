# SPDX-License-Identifier: Apache-2.0
"""The op families of `aesip run`: which hardware serves which contract op.

Each family lists its ops (input fields, output fields on success), parses a request's
fields into a job for its hardware (`job(obj, op)`, raising runreq.Invalid with the
contract's error string for what cannot be encoded on the hardware's interface), and
runs a list of its requests in one simulation (`execute(requests, engine, simulator)`,
one output object per request, in order, `id` included). A new front end adds one
Family here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from aesip import aes_run, ccmp_run, runreq, tdea_run, wimax_run, wpan_run


@dataclass(frozen=True)
class Family:
    name: str
    ops: dict           # contract op -> (input fields, output fields on success)
    job: Callable       # (request object, op) -> job; raises runreq.Invalid
    execute: Callable   # (requests, engine, simulator) -> output objects


AES = Family("aes", runreq.OPS, runreq.aes_job, aes_run.execute)

# TDEA ECB/CBC on tdea_mode_engine (docs/tdea.md; --engine pipe/multi: tdea_pipe,
# iter32/iter128: tdea_iter)
TDEA = Family("tdea", tdea_run.OPS, tdea_run.job, tdea_run.execute)

# IEEE 802.16e PDU protection on the wimax_fe front end (docs/wimax.md)
WIMAX = Family("wimax", wimax_run.OPS, wimax_run.job, wimax_run.execute)

# IEEE 802.11 CCMP on the ccmp_fe front end (docs/ccmp.md)
CCMP = Family("ccmp", ccmp_run.OPS, ccmp_run.job, ccmp_run.execute)

# IEEE 802.15.4 CCM* on the wpan_fe front end (docs/wpan.md)
WPAN = Family("wpan", wpan_run.OPS, wpan_run.job, wpan_run.execute)

FAMILIES: list[Family] = [AES, TDEA, WIMAX, CCMP, WPAN]

FAMILY_OF: dict[str, Family] = {op: f for f in FAMILIES for op in f.ops}
assert len(FAMILY_OF) == sum(len(f.ops) for f in FAMILIES), "an op in two families"
JOB_OF: dict = {op: f.job for op, f in FAMILY_OF.items()}
