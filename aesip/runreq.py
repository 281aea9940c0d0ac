"""Request parsing and validation for `aesip run` (JSON Lines in, JSON Lines out).

See the command-line contract in the README. This module only decodes requests and
checks what cannot be encoded on a core's interface at all (hex syntax, missing
fields, keys longer than the 256-bit key port, messages that are not whole blocks).
Everything else -- in particular whether a key length is legal -- is left to the
hardware, which reports it on its `err` status bit; `result_for` maps that status
back to the contract's error form.

Fatal input problems (a line that is not a JSON object, an unknown or missing `op`)
stop the parsing: the lines before it are still answered, then the caller reports the
problem on stderr and exits non-zero.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

BLOCK = 16
MAX_KEY_BYTES = 32  # width of the cores' key_data port (256 bits)

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

# Ops the block-cipher cores implement (ECB, one block per beat).
BLOCK_OPS = {"encrypt": False, "decrypt": True}  # op -> dec flag

ERR_KEY_LEN = "invalid: key length"
ERR_MSG_LEN = "invalid: message length"
ERR_UNSUPPORTED = "invalid: op not supported by this engine"

_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


class FatalInput(Exception):
    """A line that stops processing (malformed JSON or unknown op)."""

    def __init__(self, lineno: int, message: str):
        super().__init__(f"line {lineno}: {message}")
        self.lineno = lineno
        self.message = message


@dataclass
class BlockJob:
    """Work for a block-cipher core: `data` (whole blocks) with `key` in direction `dec`."""

    key: bytes
    data: bytes
    dec: bool

    @property
    def nblocks(self) -> int:
        return len(self.data) // BLOCK


@dataclass
class Request:
    lineno: int
    op: str
    has_id: bool = False
    id: object = None
    error: str | None = None          # refused before reaching the hardware
    job: BlockJob | None = None       # work for the hardware (when error is None)
    raw: dict = field(default_factory=dict, repr=False)


@dataclass
class Parsed:
    requests: list[Request]
    fatal: FatalInput | None = None


class _Invalid(Exception):
    pass


def _hex_field(obj: dict, name: str) -> bytes:
    if name not in obj:
        raise _Invalid(f"invalid: missing {name}")
    v = obj[name]
    if not isinstance(v, str) or not _HEX.fullmatch(v):
        raise _Invalid(f"invalid: {name} not hex")
    return bytes.fromhex(v)


def _block_job(obj: dict, op: str) -> BlockJob:
    dec = BLOCK_OPS[op]
    key = _hex_field(obj, "key")
    if len(key) > MAX_KEY_BYTES:
        raise _Invalid(ERR_KEY_LEN)  # cannot be encoded on key_data / key_bytes
    data_field = OPS[op][0][1]
    data = _hex_field(obj, data_field)
    if len(data) % BLOCK:
        raise _Invalid(ERR_MSG_LEN)  # ECB works on whole blocks only
    return BlockJob(key=key, data=data, dec=dec)


def parse_line(text: str, lineno: int, supported: set[str] | None = None) -> Request | None:
    """Decode one input line. Returns None for a blank line, a Request otherwise (with
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
    if not isinstance(op, str) or op not in OPS:
        raise FatalInput(lineno, f"unknown op {json.dumps(op)} (known: {', '.join(OPS)})")
    req = Request(lineno=lineno, op=op, has_id="id" in obj, id=obj.get("id"), raw=obj)
    supported = set(BLOCK_OPS) if supported is None else supported
    if op not in supported:
        req.error = ERR_UNSUPPORTED
        return req
    try:
        req.job = _block_job(obj, op)
    except _Invalid as e:
        req.error = str(e)
    return req


def parse_lines(lines, supported: set[str] | None = None) -> Parsed:
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
            req = parse_line(line, lineno, supported)
        except FatalInput as f:
            return Parsed(out, f)
        if req is not None:
            out.append(req)
    return Parsed(out, None)


def result_for(req: Request, out_data: bytes | None = None, err: bool = False) -> dict:
    """The output object for `req`: `id` (when given) then either the result field or
    `error`. `out_data`/`err` are what the hardware returned for req.job."""
    res: dict = {}
    if req.has_id:
        res["id"] = req.id
    if req.error is not None:
        res["error"] = req.error
    elif err:
        res["error"] = ERR_KEY_LEN
    else:
        assert out_data is not None
        res[OPS[req.op][1][0]] = out_data.hex()
    return res
