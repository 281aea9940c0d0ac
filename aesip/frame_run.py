# SPDX-License-Identifier: Apache-2.0
"""What the protocol front ends' `aesip run` families share (aesip.wimax_run,
aesip.ccmp_run): key-slot planning, the simulation target, and running planned
commands in one simulation. No cryptography."""
from __future__ import annotations

from typing import Callable

from aesip import rtl, runreq, session
from aesip.errors import SimError


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


def result_for(req: runreq.Request, res: dict | None, iface, frame_field: str,
               dec_op: str, dec_fields: tuple[str, ...]) -> dict:
    """The output object of a front-end request: `id` (when given), then `error` (refused
    before the hardware, or the front end's status error code mapped by its generated
    interface module `iface`: ERR_OK, ERROR_CLI), or the output frame as `frame_field`
    plus, for `dec_op`, the status fields `dec_fields` (PN, key id)."""
    out: dict = {}
    if req.has_id:
        out["id"] = req.id
    if req.error is not None:
        out["error"] = req.error
        return out
    assert res is not None
    err = res["err"]
    if err != iface.ERR_OK:
        out["error"] = iface.ERROR_CLI.get(err, f"invalid: front end error code {err}")
        return out
    if res.get("out") is None:
        raise ValueError(f"line {req.lineno}: the front end reported OK without an output frame")
    out[frame_field] = res["out"]
    if req.op == dec_op:
        for f in dec_fields:
            out[f] = res[f]
    return out


def execute(requests: list, target: session.SimTarget, simulator: str,
            frame_cmd: Callable[[object, int], dict], result: Callable[[runreq.Request, dict | None], dict],
            what: str) -> list[dict]:
    """Output objects for `requests` (in order), all run in one simulation of `target`;
    `result(request, executor result)` maps each; `what` names the simulation in errors."""
    res_of = run(requests, target, simulator, frame_cmd)
    outs = []
    for i, r in enumerate(requests):
        try:
            outs.append(result(r, res_of.get(i)))
        except (ValueError, KeyError) as e:
            raise SimError(f"unexpected response of the {what} simulation: {e}") from None
    return outs
