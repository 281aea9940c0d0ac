# SPDX-License-Identifier: Apache-2.0
"""Request parsing and validation for `aesip run` (JSON Lines in, JSON Lines out).

See the command-line contract in the README. Every op belongs to an op family
(aesip.families) that says which hardware runs it; this module holds the generic line
parsing and the AES family's requests, each of which runs on the mode engine
(rtl/modes/aes_mode_engine.v, docs/mode_engine.md) as one packet. For those it only
decodes requests and refuses what cannot be encoded on the engine's interface at all:
bad hex, missing fields, wrong JSON types, a key longer than the 256-bit key port, an
IV that is not exactly the 16 bytes of the command's IV field (CBC, CTR), a CCM nonce
longer than the 4-bit nonce_len field can say (15), a tag_len outside the 5-bit field
(0..31), a received tag longer than the 16-byte tag field, lengths >= 2**64. Everything
else -- key length, nonce length 7..13, tag length, whole blocks for ECB/CBC, length
limits, authentication -- is checked by the hardware and reported on its status beat;
`result_for` maps the status error code to the contract's error form.

Fatal input problems (a line that is not a JSON object, an unknown or missing `op`)
stop the parsing: the lines before it are still answered, then the caller reports the
problem on stderr and exits non-zero.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from aesip import iface

BLOCK = 16
MAX_KEY_BYTES = 32    # width of the engine's key_data port (256 bits)
# What the command beat's fields can encode (data/mode_engine.yaml via aesip.iface):
IV_BYTES = iface.CMD_FIELDS["iv"][1] // 8                     # the iv field
MAX_NONCE_BYTES = (1 << iface.CMD_FIELDS["nonce_len"][1]) - 1  # nonce_len
MAX_TAG_LEN = (1 << iface.CMD_FIELDS["tag_len"][1]) - 1        # tag_len
MAX_RTAG_BYTES = iface.CMD_FIELDS["tag"][1] // 8              # the received-tag field
MAX_LEN = 1 << min(iface.CMD_FIELDS["aad_len"][1], iface.CMD_FIELDS["payload_len"][1])

# Every op of the contract: input fields and the output field(s) on success.
OPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "encrypt": (("key", "msg"), ("ct",)),
    "decrypt": (("key", "ct"), ("msg",)),
    "cbc-encrypt": (("key", "iv", "msg"), ("ct",)),
    "cbc-decrypt": (("key", "iv", "ct"), ("msg",)),
    "ctr": (("key", "iv", "msg"), ("ct",)),
    "ccm-encrypt": (("key", "iv", "aad", "msg", "tag_len"), ("ct", "tag")),
    "ccm-decrypt": (("key", "iv", "aad", "ct", "tag"), ("msg",)),
}

# contract op -> engine op (docs/mode_engine.md, table "Ops")
ENGINE_OP = iface.CLI_OPS
assert set(ENGINE_OP) == set(OPS), "data/mode_engine.yaml: CLI ops differ from the contract's"

# The contract's error strings; those the engine reports come from its status error
# code (docs/mode_engine.md, table "Error codes", via aesip.iface.ERROR_CLI).
ERR_KEY_LEN = iface.ERROR_CLI[iface.ERR_KEY]
ERR_NONCE_LEN = iface.ERROR_CLI[iface.ERR_NONCE]
ERR_IV_LEN = "invalid: iv length"
ERR_TAG_LEN = iface.ERROR_CLI[iface.ERR_TAG_LEN]
ERR_LENGTH = iface.ERROR_CLI[iface.ERR_LENGTH]

_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


def engine_error(code: int) -> str:
    return iface.ERROR_CLI.get(code, f"invalid: engine error code {code}")


class FatalInput(Exception):
    """A line that stops processing (malformed JSON or unknown op)."""

    def __init__(self, lineno: int, message: str):
        super().__init__(f"line {lineno}: {message}")
        self.lineno = lineno
        self.message = message


@dataclass
class EngineJob:
    """One packet for the mode engine: fields as they go on the command beat and the
    data stream, unchanged from the request."""

    op: str                # contract op
    key: bytes
    data: bytes            # msg or ct
    iv: bytes = b""        # IV / initial counter block / CCM nonce
    aad: bytes = b""
    tag_len: int = 0       # CCM: tag length in bytes (ccm-decrypt: len(rtag))
    rtag: bytes = b""      # ccm-decrypt: the received tag

    @property
    def engine_op(self) -> str:
        return ENGINE_OP[self.op]

    @property
    def is_ccm(self) -> bool:
        return self.op.startswith("ccm")

    def packet(self, slot: int) -> dict:
        """The executor's packet command (aesip.tb.engine_cli_tb)."""
        return {"cmd": "pkt", "op": self.engine_op, "slot": slot, "iv": self.iv.hex(),
                "nonce_len": len(self.iv) if self.is_ccm else 0, "aad": self.aad.hex(),
                "data": self.data.hex(), "tag_len": self.tag_len if self.is_ccm else 0,
                "rtag": self.rtag.hex(), "cut": False}


@dataclass
class Request:
    lineno: int
    op: str
    has_id: bool = False
    id: object = None
    error: str | None = None          # refused before reaching the hardware
    job: object = None                # work for the hardware (when error is None): the
                                      # family's job (EngineJob for the AES family)
    raw: dict = field(default_factory=dict, repr=False)


@dataclass
class Parsed:
    requests: list[Request]
    fatal: FatalInput | None = None


class Invalid(Exception):
    """A request refused before the hardware; the message is the contract's error string."""


def hex_field(obj: dict, name: str) -> bytes:
    if name not in obj:
        raise Invalid(f"invalid: missing {name}")
    v = obj[name]
    if not isinstance(v, str) or not _HEX.fullmatch(v):
        raise Invalid(f"invalid: {name} not hex")
    return bytes.fromhex(v)


def aes_job(obj: dict, op: str) -> EngineJob:
    """The mode-engine packet of an AES-family request (aesip.families.AES)."""
    fields = OPS[op][0]
    key = hex_field(obj, "key")
    if len(key) > MAX_KEY_BYTES:
        raise Invalid(ERR_KEY_LEN)  # cannot be encoded on key_data / key_bytes
    job = EngineJob(op=op, key=key, data=b"")
    if "iv" in fields:
        job.iv = hex_field(obj, "iv")
        if op.startswith("ccm"):
            if len(job.iv) > MAX_NONCE_BYTES:
                raise Invalid(ERR_NONCE_LEN)  # does not fit nonce_len
        elif len(job.iv) != IV_BYTES:
            raise Invalid(ERR_IV_LEN)  # the IV field has no length: exactly 16 bytes
    if "aad" in fields:
        job.aad = hex_field(obj, "aad")
    if "tag_len" in fields:
        if "tag_len" not in obj:
            raise Invalid("invalid: missing tag_len")
        t = obj["tag_len"]
        if isinstance(t, bool) or not isinstance(t, int):
            raise Invalid("invalid: tag_len not an integer")
        if not 0 <= t <= MAX_TAG_LEN:
            raise Invalid(ERR_TAG_LEN)  # does not fit the 5-bit tag_len field
        job.tag_len = t
    data_field = "msg" if "msg" in fields else "ct"
    job.data = hex_field(obj, data_field)
    if "tag" in fields:
        job.rtag = hex_field(obj, "tag")
        if len(job.rtag) > MAX_RTAG_BYTES:
            raise Invalid(ERR_TAG_LEN)  # does not fit the 16-byte tag field
        job.tag_len = len(job.rtag)
    if len(job.data) >= MAX_LEN or len(job.aad) >= MAX_LEN:
        raise Invalid(ERR_LENGTH)
    return job


AES_JOBS = {op: aes_job for op in OPS}


def parse_line(text: str, lineno: int, jobs: dict | None = None) -> Request | None:
    """Decode one input line; `jobs` maps each known op to its job parser (default: the
    AES ops only; `aesip run` passes aesip.families.JOB_OF, every family's ops). Returns None for a blank line, a Request otherwise (with
    `error` set when the request is refused before the hardware). Raises FatalInput for
    malformed JSON and unknown ops."""
    if not text.strip():
        return None
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise FatalInput(lineno, f"malformed JSON ({e})") from None
    if not isinstance(obj, dict):
        raise FatalInput(lineno, f"malformed request: expected a JSON object, got {type(obj).__name__}")
    op = obj.get("op")
    if "op" not in obj:
        raise FatalInput(lineno, "request has no \"op\" field")
    jobs = AES_JOBS if jobs is None else jobs
    if not isinstance(op, str) or op not in jobs:
        raise FatalInput(lineno, f"unknown op {json.dumps(op)} (known: {', '.join(jobs)})")
    req = Request(lineno=lineno, op=op, has_id="id" in obj, id=obj.get("id"), raw=obj)
    try:
        req.job = jobs[op](obj, op)
    except Invalid as e:
        req.error = str(e)
    return req


def parse_lines(lines, jobs: dict | None = None) -> Parsed:
    """Parse an iterable of lines (str or bytes), numbered from 1. Stops at the first
    fatal line; the requests before it are returned together with the FatalInput."""
    out: list[Request] = []
    for lineno, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as e:
                return Parsed(out, FatalInput(lineno, f"malformed JSON (not UTF-8: {e})"))
        try:
            req = parse_line(line, lineno, jobs)
        except FatalInput as f:
            return Parsed(out, f)
        if req is not None:
            out.append(req)
    return Parsed(out, None)


def result_for(req: Request, res: dict | None = None, probe: dict | None = None) -> dict:
    """The output object for `req`: `id` (when given) then either the result field(s) or
    `error`. `res` is what the executor returned for req.job's packet ({"err", "value",
    "out"}); `probe` the result of the key-probe packet, when one was sent."""
    out: dict = {}
    if req.has_id:
        out["id"] = req.id
    if req.error is not None:
        out["error"] = req.error
        return out
    assert res is not None
    err = res["err"] or (probe["err"] if probe is not None else 0)
    if err:
        out["error"] = engine_error(err)
        return out
    job = req.job
    data = bytes.fromhex(res["out"]) if res.get("out") is not None else b""
    if len(data) != len(job.data):
        raise ValueError(f"line {req.lineno}: the engine returned {len(data)} bytes for a "
                         f"{len(job.data)}-byte payload")
    names = OPS[req.op][1]
    out[names[0]] = data.hex()
    if req.op == "ccm-encrypt":
        out["tag"] = bytes.fromhex(res["value"])[: job.tag_len].hex()
    return out
