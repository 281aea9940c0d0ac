# SPDX-License-Identifier: Apache-2.0
"""The IEEE 802.16e op family of `aesip run` (`wimax-encrypt`, `wimax-decrypt`; contract in
the README): every request is one PDU for the hardware front end wimax_fe on the mode
engine (rtl/proto/wimax_top.v, docs/wimax.md). The PDU goes to the hardware unchanged;
the hardware parses the header, builds the nonce, checks lengths and flags and reports
malformed PDUs and failed ICVs on its status, which map to the contract's errors through
the generated table aesip.wimax_iface.ERROR_CLI. This module only decodes requests,
assigns key slots, and refuses what the front end's interface cannot encode at all: a
key longer than the 256-bit key port, a PN outside the 32-bit field.

`--engine iter32|iter128|pipe` builds wimax_top on aes_mode_engine on that block core;
`--engine multi` on aes_mode_multi (2 lanes) on aes_pipe. The front end has one PDU in
flight, so the multi-lane engine gives the same results and no speed-up yet."""
from __future__ import annotations

from dataclasses import dataclass

from aesip import frame_run, rtl, runreq, session, wimax_iface

TB_MODULE = "aesip.tb.wimax_cli_tb"
PN_BITS = wimax_iface.CMD_FIELDS["pn"][1]

# contract op -> (input fields, output fields on success)
OPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "wimax-encrypt": (("key", "pdu", "pn"), ("pdu",)),
    "wimax-decrypt": (("key", "pdu"), ("pdu", "pn")),
}
assert set(OPS) == set(wimax_iface.CLI_OPS), "data/mode_engine.yaml: wimax CLI ops differ from the contract's"


@dataclass
class WimaxJob:
    op: str
    key: bytes
    pdu: bytes
    pn: int = 0


def job(obj: dict, op: str) -> WimaxJob:
    key = runreq.hex_field(obj, "key")
    if len(key) > runreq.MAX_KEY_BYTES:
        raise runreq.Invalid(runreq.ERR_KEY_LEN)   # cannot be encoded on key_data / key_bytes
    j = WimaxJob(op=op, key=key, pdu=runreq.hex_field(obj, "pdu"))
    if "pn" in OPS[op][0]:
        if "pn" not in obj:
            raise runreq.Invalid("invalid: missing pn")
        pn = obj["pn"]
        if isinstance(pn, bool) or not isinstance(pn, int):
            raise runreq.Invalid("invalid: pn not an integer")
        if not 0 <= pn < (1 << PN_BITS):
            raise runreq.Invalid("invalid: pn does not fit in 32 bits")
        j.pn = pn
    return j


def target_for(engine: str) -> session.SimTarget:
    """wimax_top on aes_mode_engine built on the block core `engine`, or (`multi`) on
    aes_mode_multi on aes_pipe (wimax_top parameter MULTI = 1)."""
    return frame_run.target_for(engine, rtl.WIMAX_TOP, rtl.wimax_sources, TB_MODULE)


def _pdu_cmd(j: WimaxJob, slot: int) -> dict:
    return {"cmd": "pdu", "op": j.op, "slot": slot, "pn": j.pn, "pdu": j.pdu.hex()}


def plan(jobs: list[WimaxJob]) -> tuple[list[dict], list[int]]:
    """Executor commands (key loads into the least recently used slot when a PDU's key is
    not loaded, then the PDU) and the index of each job's result."""
    return frame_run.plan(jobs, _pdu_cmd)


def result_for(req: runreq.Request, res: dict | None = None) -> dict:
    return frame_run.result_for(req, res, wimax_iface, "pdu", "wimax-decrypt", ("pn",))


def execute(requests: list[runreq.Request], engine: str, simulator: str) -> list[dict]:
    """Output objects for `requests` (in order), all run in one simulation of wimax_top."""
    return frame_run.execute(requests, target_for(engine), simulator, _pdu_cmd, result_for, "wimax")
