# SPDX-License-Identifier: Apache-2.0
"""The TDEA op family of `aesip run` (`tdea-encrypt`, `tdea-decrypt`, `tdea-cbc-encrypt`,
`tdea-cbc-decrypt`): each request is one packet on tdea_mode_engine
(rtl/modes/tdea_mode_engine.v, docs/tdea.md), keys kept resident in its key slots
(aesip.planner.SlotPlanner), all requests of a run in one simulation (the cocotb
executor aesip.tb.engine_cli_tb, as for the AES engines).

`--engine` picks the TDEA core (aesip.rtl.TDEA_ENGINE_CORE): pipe -> tdea_pipe, iter32 and
iter128 -> tdea_iter. `--engine multi` runs the requests on the multi-channel engine
chan_engine (CORE "tdea", docs/channels.md) instead: request i goes to channel i mod 128,
so the requests of a run are in flight together; keys are loaded between batches of at
most four distinct keys (the four key slots), results come back in input order. Fields are passed through; only what the engine's ports
cannot encode is refused here: bad hex, missing fields, a key longer than the 192-bit
key port (24 bytes), an IV that is not the 8 bytes the engine takes, lengths >= 2**64.
Key length (24 or 16), whole 8-byte blocks and the rest are checked by the hardware and
reported on its status beat (error strings from the generated table aesip.iface.ERROR_CLI).
"""
from __future__ import annotations

from dataclasses import dataclass

from aesip import iface, runreq, session
from aesip.errors import SimError
from aesip.planner import SlotPlanner

BLOCK = 8
MAX_KEY_BYTES = 24    # width of tdea_mode_engine's key_data port (192 bits)
IV_BYTES = 8          # TDEA CBC: the IV in bytes 0..7 of the command's iv field

# Every op of the family (the README's run table): input fields, output fields on success.
OPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "tdea-encrypt": (("key", "msg"), ("ct",)),
    "tdea-decrypt": (("key", "ct"), ("msg",)),
    "tdea-cbc-encrypt": (("key", "iv", "msg"), ("ct",)),
    "tdea-cbc-decrypt": (("key", "iv", "ct"), ("msg",)),
}
# contract op -> engine op (data/mode_engine.yaml, family tdea)
ENGINE_OP = iface.TDEA_CLI_OPS
assert set(ENGINE_OP) == set(OPS), "data/mode_engine.yaml: TDEA CLI ops differ from the contract's"


@dataclass
class TdeaJob:
    """One packet for tdea_mode_engine, fields unchanged from the request."""

    op: str            # contract op
    key: bytes
    data: bytes        # msg or ct
    iv: bytes = b""

    def packet(self, slot: int) -> dict:
        """The executor's packet command (aesip.tb.engine_cli_tb)."""
        return {"cmd": "pkt", "op": ENGINE_OP[self.op], "slot": slot, "iv": self.iv.hex(),
                "nonce_len": 0, "aad": "", "data": self.data.hex(), "tag_len": 0, "rtag": "", "cut": False}


def job(obj: dict, op: str) -> TdeaJob:
    """The tdea_mode_engine packet of a TDEA-family request; raises runreq.Invalid."""
    fields = OPS[op][0]
    key = runreq.hex_field(obj, "key")
    if len(key) > MAX_KEY_BYTES:
        raise runreq.Invalid(runreq.ERR_KEY_LEN)   # cannot be encoded on key_data / key_bytes
    j = TdeaJob(op=op, key=key, data=b"")
    if "iv" in fields:
        j.iv = runreq.hex_field(obj, "iv")
        if len(j.iv) != IV_BYTES:
            raise runreq.Invalid(runreq.ERR_IV_LEN)
    j.data = runreq.hex_field(obj, "msg" if "msg" in fields else "ct")
    if len(j.data) >= runreq.MAX_LEN:
        raise runreq.Invalid(runreq.ERR_LENGTH)
    return j


def result_for(req: runreq.Request, res: dict | None = None) -> dict:
    """The output object: `id` (when given), then the result field or `error`."""
    out: dict = {}
    if req.has_id:
        out["id"] = req.id
    if req.error is not None:
        out["error"] = req.error
        return out
    assert res is not None
    if res["err"]:
        out["error"] = runreq.engine_error(res["err"])
        return out
    data = bytes.fromhex(res["out"]) if res.get("out") is not None else b""
    if len(data) != len(req.job.data):
        raise ValueError(f"line {req.lineno}: the engine returned {len(data)} bytes for a "
                         f"{len(req.job.data)}-byte payload")
    out[OPS[req.op][1][0]] = data.hex()
    return out


CHAN_CH_W = 7


def chan_results(requests: list[runreq.Request], simulator: str) -> dict[int, dict]:
    """Engine results {request index: {"err", "out"}} of the requests with a job, run on
    chan_engine (CORE "tdea"): batches of at most 4 distinct keys, each batch's packets
    on channels i mod 2**CHAN_CH_W, all in flight together."""
    nslot = session.ENGINE_SLOTS
    batches: list[tuple[dict, list[int]]] = []
    for i, r in enumerate(requests):
        if r.job is None:
            continue
        if not batches or (r.job.key not in batches[-1][0] and len(batches[-1][0]) == nslot):
            batches.append(({}, []))
        keys, idx = batches[-1]
        keys.setdefault(r.job.key, len(keys))
        idx.append(i)
    cmds, where = [], []
    for keys, idx in batches:
        cmds += [{"cmd": "key", "slot": s, "key": k.hex()} for k, s in keys.items()]
        items = []
        for n, i in enumerate(idx):
            j = requests[i].job
            items.append({"ch": n % (1 << CHAN_CH_W), "op": ENGINE_OP[j.op], "slot": keys[j.key],
                          "iv": j.iv.hex(), "data": j.data.hex()})
        cmds.append({"cmd": "packets", "items": items, "order": "rr"})
        where.append((len(cmds) - 1, idx, items))
    if not cmds:
        return {}
    resp = session.simulate(session.chan_target("tdea", CHAN_CH_W), simulator, cmds)["results"]
    out: dict[int, dict] = {}
    for k, idx, items in where:
        chans = resp[k]["channels"]
        pos: dict[str, list[int]] = {}   # next status / beat per channel
        for i, it in zip(idx, items):
            ch = str(it["ch"])
            got = chans.get(ch, {"beats": [], "sts": []})
            p = pos.setdefault(ch, [0, 0])
            err = got["sts"][p[0]][0]
            p[0] += 1
            data = b""
            if err == 0:
                n = len(bytes.fromhex(it["data"])) // BLOCK
                data = b"".join(bytes.fromhex(b[0]) for b in got["beats"][p[1]:p[1] + n])
                p[1] += n
            out[i] = {"err": err, "out": data.hex() if err == 0 else None}
    return out


def execute(requests: list[runreq.Request], engine: str, simulator: str) -> list[dict]:
    """Output objects for `requests` (in order), run on tdea_mode_engine on the TDEA core
    that `engine` maps to (session.tdea_target), or on chan_engine for `multi`."""
    if engine == "multi":
        res = chan_results(requests, simulator)
        outs = []
        for i, r in enumerate(requests):
            try:
                outs.append(result_for(r, res.get(i)))
            except (ValueError, KeyError, IndexError) as e:
                raise SimError(f"unexpected response of the engine simulation: {e}") from None
        return outs
    planner = SlotPlanner(session.ENGINE_SLOTS)
    placement = {}
    for i, r in enumerate(requests):
        if r.job is not None:
            planner.commands.append(r.job.packet(planner.slot_for(r.job.key)))
            placement[i] = len(planner.commands) - 1
    results = []
    if placement:
        results = session.simulate(session.tdea_target(engine), simulator, planner.commands)["results"]
    outs = []
    for i, r in enumerate(requests):
        try:
            outs.append(result_for(r, results[placement[i]] if i in placement else None))
        except (ValueError, KeyError, IndexError) as e:
            raise SimError(f"unexpected response of the engine simulation: {e}") from None
    return outs
