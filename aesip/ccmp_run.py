# SPDX-License-Identifier: Apache-2.0
"""The IEEE 802.11 CCMP op family of `aesip run` (`ccmp-encrypt`, `ccmp-decrypt`; contract
in the README): every request is one MPDU for the hardware front end ccmp_fe on the mode
engine (rtl/proto/ccmp_top.v, docs/ccmp.md). The MPDU goes to the hardware unchanged; the
hardware parses the MAC header, builds the AAD and nonce, checks the frame, verifies the
MIC and the replay counters, and reports malformed MPDUs, failed MICs and replays on its
status, which map to the contract's errors through the generated table
aesip.ccmp_iface.ERROR_CLI. This module only decodes requests, assigns key slots, and
refuses what the front end's interface cannot encode at all: a key longer than the 256-bit
key port, a PN outside the 48-bit field, a Key ID outside the 2-bit field.

Replay ("in this run"): the decryptions of one run go through the same hardware in input
order; a key keeps its slot while it is used, so its replay counters persist through the
run; a key that needs a slot evicts the least recently used one, and the reload clears
that slot's counters (aesip.frame_run.plan).

`--engine iter32|iter128|pipe` builds ccmp_top on aes_mode_engine on that block core;
`--engine multi` on aes_mode_multi (ccmp_top LANES default 2) on aes_pipe."""
from __future__ import annotations

from dataclasses import dataclass

from aesip import ccmp_iface, frame_run, rtl, runreq, session

TB_MODULE = "aesip.tb.ccmp_cli_tb"
PN_BITS = ccmp_iface.CMD_FIELDS["pn"][1]
KEY_ID_BITS = ccmp_iface.CMD_FIELDS["key_id"][1]

# contract op -> (input fields, output fields on success)
OPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "ccmp-encrypt": (("key", "mpdu", "pn", "key_id"), ("mpdu",)),
    "ccmp-decrypt": (("key", "mpdu"), ("mpdu", "pn", "key_id")),
}
assert set(OPS) == set(ccmp_iface.CLI_OPS), "data/mode_engine.yaml: ccmp CLI ops differ from the contract's"


@dataclass
class CcmpJob:
    op: str
    key: bytes
    mpdu: bytes
    pn: int = 0
    key_id: int = 0


def _int_field(obj: dict, name: str, bits: int) -> int:
    v = obj[name]
    if isinstance(v, bool) or not isinstance(v, int):
        raise runreq.Invalid(f"invalid: {name} not an integer")
    if not 0 <= v < (1 << bits):
        raise runreq.Invalid(f"invalid: {name} does not fit in {bits} bits")
    return v


def job(obj: dict, op: str) -> CcmpJob:
    key = runreq.hex_field(obj, "key")
    if len(key) > runreq.MAX_KEY_BYTES:
        raise runreq.Invalid(runreq.ERR_KEY_LEN)   # cannot be encoded on key_data / key_bytes
    j = CcmpJob(op=op, key=key, mpdu=runreq.hex_field(obj, "mpdu"))
    if op == "ccmp-encrypt":
        if "pn" not in obj:
            raise runreq.Invalid("invalid: missing pn")
        j.pn = _int_field(obj, "pn", PN_BITS)
        if "key_id" in obj:
            j.key_id = _int_field(obj, "key_id", KEY_ID_BITS)
    return j


def target_for(engine: str) -> session.SimTarget:
    """ccmp_top on aes_mode_engine built on the block core `engine`, or (`multi`) on
    aes_mode_multi on aes_pipe (ccmp_top parameter MULTI = 1)."""
    return frame_run.target_for(engine, rtl.CCMP_TOP, rtl.ccmp_sources, TB_MODULE)


def frame_len(mpdu: bytes) -> int:
    """The sideband's frame_len for an MPDU: its length, as a DMA descriptor gives it (an
    MPDU then runs cut-through, docs/ccmp.md); 0 (not given) for a length the field
    cannot hold, which the front end reports as too long anyway."""
    return len(mpdu) if len(mpdu) < 1 << ccmp_iface.CMD_FIELDS["frame_len"][1] else 0


def _mpdu_cmd(j: CcmpJob, slot: int) -> dict:
    return {"cmd": "mpdu", "op": j.op, "slot": slot, "pn": j.pn, "key_id": j.key_id,
            "frame_len": frame_len(j.mpdu), "mpdu": j.mpdu.hex()}


def plan(jobs: list[CcmpJob]) -> tuple[list[dict], list[int]]:
    """Executor commands (key loads into the least recently used slot when an MPDU's key
    is not loaded, then the MPDU) and the index of each job's result."""
    return frame_run.plan(jobs, _mpdu_cmd)


def result_for(req: runreq.Request, res: dict | None = None) -> dict:
    return frame_run.result_for(req, res, ccmp_iface, "mpdu", "ccmp-decrypt", ("pn", "key_id"))


def execute(requests: list[runreq.Request], engine: str, simulator: str) -> list[dict]:
    """Output objects for `requests` (in order), all run in one simulation of ccmp_top."""
    return frame_run.execute(requests, target_for(engine), simulator, _mpdu_cmd, result_for, "ccmp")
