# SPDX-License-Identifier: Apache-2.0
"""What the protocol front ends' `aesip run` families share (aesip.wimax_run,
aesip.ccmp_run): key-slot planning, the simulation target, and running planned
commands in one simulation. No cryptography."""
from __future__ import annotations

from typing import Callable

from aesip import rtl, session


def plan(jobs: list, frame_cmd: Callable[[object, int], dict]) -> tuple[list[dict], list[int]]:
    """Executor commands (a key load into the least recently used slot when a job's key
    (`job.key`) is not loaded, then `frame_cmd(job, slot)`) and the index of each job's
    result. A key stays in its slot while it is used, so the front end's per-slot state
    (CCMP replay counters) persists for that key through the run; a reload clears it."""
    slots: list[bytes | None] = [None] * session.ENGINE_SLOTS
    used = [0] * session.ENGINE_SLOTS
    cmds: list[dict] = []
    where = []
    for t, j in enumerate(jobs, 1):
        if j.key in slots:
            s = slots.index(j.key)
        else:
            s = min(range(len(slots)), key=lambda i: used[i])
            slots[s] = j.key
            cmds.append({"cmd": "key", "slot": s, "key": j.key.hex()})
        used[s] = t
        where.append(len(cmds))
        cmds.append(frame_cmd(j, s))
    return cmds, where


def target_for(engine: str, top: str, sources: Callable[[str], list], tb_module: str) -> session.SimTarget:
    """Front end `top` on aes_mode_engine built on the block core `engine`, or (`multi`)
    on aes_mode_multi on aes_pipe (the top's parameter MULTI = 1)."""
    multi = engine == rtl.MULTI_ENGINE
    core = "pipe" if multi else engine
    session._known(core)
    params = {"CORE": core, "SLOT_W": session.ENGINE_SLOT_W}
    if multi:
        params["MULTI"] = 1
    return session.SimTarget(core, top, sources(core), params, tb_module)


def run(requests: list, target: session.SimTarget, simulator: str,
        frame_cmd: Callable[[object, int], dict]) -> dict[int, dict]:
    """The executor's result of each request with a job (by request index), all in one
    simulation of `target` (none when no request has a job)."""
    idx = [i for i, r in enumerate(requests) if r.job is not None]
    if not idx:
        return {}
    cmds, where = plan([requests[i].job for i in idx], frame_cmd)
    results = session.simulate(target, simulator, cmds)["results"]
    return {i: results[w] for i, w in zip(idx, where)}
