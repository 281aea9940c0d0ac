# SPDX-License-Identifier: Apache-2.0
"""The IEEE 802.15.4 CCM* op family of `aesip run` (`wpan-encrypt`, `wpan-decrypt`;
contract in the README): every request is one frame for the hardware front end wpan_fe
on the mode engine (rtl/proto/wpan_top.v, docs/wpan.md). The frame goes to the hardware
unchanged; the hardware parses the MAC header (frame versions 1 and 2, addressing, the
Auxiliary Security Header, header IEs), splits the frame into a and m, builds the nonce,
verifies the MIC and reports malformed frames and failed MICs on its status, which map
to the contract's errors through the generated table aesip.wpan_iface.ERROR_CLI. This
module only decodes requests, assigns key slots, and refuses what the front end's
interface cannot encode at all: a key longer than the 256-bit key port, a `src_addr`
that is not 8 bytes (the 64-bit sideband field).

`src_addr` is the sender's extended (EUI-64) address in canonical order, most
significant byte first, as it enters the nonce (e.g. "acde480000000001"; inside a frame
the same address is little-endian: 01 00 00 00 00 48 de ac). The hardware uses it only
when the frame carries no extended source address; a frame that needs it and a request
without it is `invalid: missing src_addr ...` (reported by the hardware).

`--engine iter32|iter128|pipe` builds wpan_top on aes_mode_engine on that block core;
`--engine multi` on aes_mode_multi (2 lanes) on aes_pipe (one frame in flight)."""
from __future__ import annotations

from dataclasses import dataclass

from aesip import frame_run, rtl, runreq, session, wpan_iface

TB_MODULE = "aesip.tb.wpan_cli_tb"
SRC_BYTES = wpan_iface.CMD_FIELDS["src_addr"][1] // 8

# contract op -> (input fields, output fields on success)
OPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "wpan-encrypt": (("key", "frame", "src_addr"), ("frame",)),
    "wpan-decrypt": (("key", "frame", "src_addr"), ("frame",)),
}
assert set(OPS) == set(wpan_iface.CLI_OPS), "data/mode_engine.yaml: wpan CLI ops differ from the contract's"


@dataclass
class WpanJob:
    op: str
    key: bytes
    frame: bytes
    src_addr: bytes | None = None


def job(obj: dict, op: str) -> WpanJob:
    key = runreq.hex_field(obj, "key")
    if len(key) > runreq.MAX_KEY_BYTES:
        raise runreq.Invalid(runreq.ERR_KEY_LEN)   # cannot be encoded on key_data / key_bytes
    j = WpanJob(op=op, key=key, frame=runreq.hex_field(obj, "frame"))
    if "src_addr" in obj:
        j.src_addr = runreq.hex_field(obj, "src_addr")
        if len(j.src_addr) != SRC_BYTES:
            raise runreq.Invalid(f"invalid: src_addr not {SRC_BYTES} bytes")
    return j


def target_for(engine: str) -> session.SimTarget:
    """wpan_top on aes_mode_engine built on the block core `engine`, or (`multi`) on
    aes_mode_multi on aes_pipe (wpan_top parameter MULTI = 1)."""
    return frame_run.target_for(engine, rtl.WPAN_TOP, rtl.wpan_sources, TB_MODULE)


def _frame_cmd(j: WpanJob, slot: int) -> dict:
    src = 0 if j.src_addr is None else int.from_bytes(j.src_addr, "big")
    return {"cmd": "frame", "op": j.op, "slot": slot, "src_valid": int(j.src_addr is not None),
            "src_addr": src, "frame": j.frame.hex()}


def plan(jobs: list[WpanJob]) -> tuple[list[dict], list[int]]:
    """Executor commands (key loads into the least recently used slot when a frame's key
    is not loaded, then the frame) and the index of each job's result."""
    return frame_run.plan(jobs, _frame_cmd)


def result_for(req: runreq.Request, res: dict | None = None) -> dict:
    return frame_run.result_for(req, res, wpan_iface, "frame", "wpan-decrypt", ())


def execute(requests: list[runreq.Request], engine: str, simulator: str) -> list[dict]:
    """Output objects for `requests` (in order), all run in one simulation of wpan_top."""
    return frame_run.execute(requests, target_for(engine), simulator, _frame_cmd, result_for, "wpan")
