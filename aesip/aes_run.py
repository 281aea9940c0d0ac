# SPDX-License-Identifier: Apache-2.0
"""The AES op family of `aesip run` (encrypt/decrypt, CBC, CTR, CCM, CCM*): requests
planned into key-slot and packet commands (aesip.planner) and run on aes_mode_engine
built on the chosen block core, or on aes_mode_multi (`--engine multi`)."""
from __future__ import annotations

from aesip import rtl, runreq, session
from aesip.errors import SimError
from aesip.planner import EnginePlanner


def target_for(engine: str) -> session.SimTarget:
    """The simulation of an `aesip run --engine` value (aesip.rtl.RUN_ENGINES): the mode
    engine on that block core, or the multi-lane engine (independent requests in flight
    together on aes_pipe; statuses and outputs still come back in command order)."""
    if engine == rtl.MULTI_ENGINE:
        return session.multi_target()
    return session.engine_target(engine)


def execute(requests: list[runreq.Request], engine: str, simulator: str) -> list[dict]:
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
