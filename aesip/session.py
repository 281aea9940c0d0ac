# SPDX-License-Identifier: Apache-2.0
"""Simulation sessions of the `aesip` commands: build (once, cached) and run one
testbench over a list of executor commands, return what the hardware answered.

A session runs one of these targets (SimTarget), each driven by a cocotb command
executor under aesip/tb/ (which only drives ports and records results; the host side
plans the work and checks the results):
  * core_target(core):   a bare block core (aes_iter32 / aes_iter128 / aes_pipe),
                         executor aesip.tb.cli_tb (block-core records of `bench`, part 1 of `demo`);
  * engine_target(core): the mode engine aes_mode_engine on that block core, executor
                         aesip.tb.engine_cli_tb (`run`, the CCM parts of `bench` and `demo`);
  * multi_target(core):  the multi-lane mode engine aes_mode_multi, same executor;
  * tdea_target(engine): the TDEA mode engine tdea_mode_engine, same executor;
  * chan_target(core):   the multi-channel engine chan_engine (through its wrapper
                         tb/modes/tb_chan_engine.v), executor aesip.tb.chan_cli_tb (the
                         channel records of `bench`);
  * top_target(core):    the drop-in IP aesip_top on that block core (Verilator only: its
                         CSR block is SystemVerilog), executor aesip.tb.top_cli_tb (the
                         live-rekey record of `bench`, `demo --top`); top_target(core,
                         lanes) with lanes >= 2: aesip_top with LANES = lanes
                         (aes_mode_multi inside; the `top-multi` rekey record).

Builds are cached per user (build_base()) and serialized with a lock per build
directory, so concurrent invocations are safe. Compiler and simulator output goes to log
files next to the build; stdout carries only the command's output. Host side: this
module does not import cocotb (aesip.sim imports the cocotb runner only when running).
"""
from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from aesip import rtl, sim
from aesip.errors import SimError, UsageError

CORE_TB_MODULE = "aesip.tb.cli_tb"
ENGINE_TB_MODULE = "aesip.tb.engine_cli_tb"
TOP_TB_MODULE = "aesip.tb.top_cli_tb"
CHAN_TB_MODULE = "aesip.tb.chan_cli_tb"
ENGINE_TOP = rtl.MODE_ENGINE_TOP
# The mode engines as the CLI builds them: SLOT_W = 2 (4 key slots), other parameters
# default. The bare block cores keep their defaults (SLOT_W = 1, docs/cores.md); their
# executor checks every slot number against the width of the core's key_slot port.
ENGINE_SLOT_W = 2
ENGINE_SLOTS = 2 ** ENGINE_SLOT_W
# aes_mode_multi as `bench` builds it: 16 lanes (a lane issues one step per latency + 1 =
# 15 cycles on aes_pipe, so 16 lanes can keep both pipelines busy every clock); input
# FIFOs of 128 beats hold a whole 1500-byte packet with its AAD.
MULTI_LANES = 16
MULTI_IN_AW = 7


@dataclass(frozen=True)
class SimTarget:
    """What one session simulates: top module, sources, parameters, cocotb executor."""

    core: str                 # block core name (rtl.CORES)
    top: str
    sources: list = field(hash=False)
    params: dict = field(hash=False)
    tb_module: str


def with_params(t: SimTarget, params: dict | None) -> SimTarget:
    """`t` with its parameters overridden by `params` (a parameter variant of a build)."""
    return dataclasses.replace(t, params={**t.params, **(params or {})})


def core_param(core: str) -> str:
    """The mode engines' CORE parameter for a block core name: the name itself."""
    return core


def core_target(core: str) -> SimTarget:
    _known(core)
    return SimTarget(core, rtl.core_top(core), rtl.core_sources(core), {}, CORE_TB_MODULE)


def engine_target(core: str) -> SimTarget:
    _known(core)
    c = core_param(core)
    return SimTarget(core, ENGINE_TOP, rtl.mode_engine_sources(c), {"CORE": c, "SLOT_W": ENGINE_SLOT_W},
                     ENGINE_TB_MODULE)


def multi_target(core: str = "pipe", lanes: int = MULTI_LANES, in_aw: int = MULTI_IN_AW) -> SimTarget:
    _known(core)
    c = core_param(core)
    return SimTarget(core, rtl.MULTI_TOP, rtl.multi_sources(c),
                     {"CORE": c, "SLOT_W": ENGINE_SLOT_W, "LANES": lanes, "IN_AW": in_aw}, ENGINE_TB_MODULE)


def tdea_target(engine: str) -> SimTarget:
    """tdea_mode_engine (rtl/modes/tdea_mode_engine.v) for an `aesip run --engine` value:
    pipe and multi -> CORE "pipe" (tdea_pipe), iter32 and iter128 -> CORE "iter"
    (tdea_iter) (aesip.rtl.TDEA_ENGINE_CORE); same executor as the AES engines."""
    if engine not in rtl.TDEA_ENGINE_CORE:
        raise UsageError(f"unknown engine {engine!r} (choose from {', '.join(rtl.TDEA_ENGINE_CORE)})")
    c = rtl.TDEA_ENGINE_CORE[engine]
    return SimTarget(rtl.TDEA_ENGINE_CORES[c], rtl.TDEA_ENGINE_TOP, rtl.tdea_engine_sources(c),
                     {"CORE": c, "SLOT_W": ENGINE_SLOT_W}, ENGINE_TB_MODULE)


def chan_target(core: str = "aes", ch_w: int = 7, round_regs: int = 1) -> SimTarget:
    """chan_engine with CORE = `core` ("aes" or "tdea"), 2**ch_w channels, 4 key slots."""
    if core not in ("aes", "tdea"):
        raise UsageError(f"unknown channel-engine core {core!r} (choose from aes, tdea)")
    name = "pipe" if core == "aes" else "tdea-pipe"
    return SimTarget(name, rtl.CHAN_TB_TOP, rtl.chan_sources(tb=True),
                     {"CORE": core, "CH_W": ch_w, "SLOT_W": ENGINE_SLOT_W, "ROUND_REGS": round_regs},
                     CHAN_TB_MODULE)


def top_target(core: str, lanes: int = 1) -> SimTarget:
    """aesip_top with CORE = `core` and LANES = `lanes` (1: aes_mode_engine; >= 2:
    aes_mode_multi), its other parameters default (4 key slots, NR_MAX 14, IN_AW 7)."""
    _known(core)
    c = core_param(core)
    params = {"CORE": c} if lanes == 1 else {"CORE": c, "LANES": lanes}
    return SimTarget(core, rtl.SOC_TOP, rtl.soc_sources(c), params, TOP_TB_MODULE)


def _known(core: str) -> None:
    if core not in rtl.CORES:
        raise UsageError(f"unknown block core {core!r} (choose from {', '.join(rtl.CORE_NAMES)})")


def build_base() -> Path:
    """Per-user build cache: $AESIP_BUILD_DIR/cli, else sim_build/cli in the repository,
    else ~/.cache/aesip/sim_build/cli (when the repository is not writable)."""
    env = os.environ.get("AESIP_BUILD_DIR")
    cands = [Path(env)] if env else [
        rtl.ROOT / "sim_build",
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aesip" / "sim_build",
    ]
    err = None
    for c in cands:
        d = c / "cli"
        try:
            d.mkdir(parents=True, exist_ok=True)
            if os.access(d, os.W_OK):
                return d
        except OSError as e:
            err = e
    raise SimError(f"no writable build directory (tried {', '.join(map(str, cands))}): {err}")


def check(target: SimTarget, simulator: str) -> None:
    """UsageError / SimError before any build: sources, simulator name and installation."""
    missing = [str(p) for p in target.sources if not p.exists()]
    if missing:
        raise SimError(f"engine {target.core}: RTL source(s) missing: {', '.join(missing)}")
    if simulator not in sim.SIMULATORS:
        raise UsageError(f"unknown simulator {simulator!r} (choose from {', '.join(sim.SIMULATORS)})")
    if not sim.available(simulator):
        raise SimError(f"simulator {simulator} is not installed")


@contextlib.contextmanager
def stdout_to_stderr():
    """Send anything written to file descriptor 1 (by us or by child processes) to
    stderr, so stdout carries only the command's own output."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _tail(path: Path, n: int = 25) -> str:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join("    " + ln for ln in lines[-n:])


def simulate(target: SimTarget, simulator: str, commands: list[dict], *, seed: int | None = None,
             progress: bool = True) -> dict:
    """Run `commands` through `target`'s executor in one simulation and return its
    response {"results": [...], "cycles": n}."""
    check(target, simulator)
    # A parent pytest run must not turn this into a pytest-style cocotb run.
    os.environ.pop("PYTEST_CURRENT_TEST", None)
    top, params = target.top, target.params
    base = build_base()
    # the CLI's test benches use the top module's ports only, except the SoC's, which
    # reads the engine's state through its hierarchy (aesip/tb/top_cli_tb.py): the
    # modules of rtl.SOC_PUBLIC
    internals = rtl.SOC_PUBLIC if target.tb_module == TOP_TB_MODULE else False
    bdir = sim.build_dir_for(top, simulator, params, base, internals)
    binary = bdir / ("sim.vvp" if simulator == "icarus" else top)
    with tempfile.TemporaryDirectory(prefix="aesip-") as tmp, \
            open(base / f"{bdir.name}.lock", "w") as lock:
        reqf, respf = Path(tmp) / "req.json", Path(tmp) / "resp.json"
        reqf.write_text(json.dumps({"commands": commands}))
        fcntl.flock(lock, fcntl.LOCK_EX)
        if progress and not binary.exists():
            print(f"aesip: building {top} for {simulator} (once; cached in {bdir})", file=sys.stderr)
        stage = "build"
        try:
            with stdout_to_stderr():
                results = sim.run(
                    toplevel=top,
                    sources=target.sources,
                    test_module=target.tb_module,
                    sim=simulator,
                    parameters=params,
                    extra_env={"AESIP_CLI_REQ": str(reqf), "AESIP_CLI_RESP": str(respf)},
                    seed=seed,
                    build_base=base,
                    quiet=True,
                    internals=internals,
                )
                stage = "simulation"
                sim.check_results(results)
        except (Exception, SystemExit) as e:  # the cocotb runner calls sys.exit on simulator failure
            if isinstance(e, SystemExit):
                stage = "simulation"
            log = bdir / ("build.log" if stage == "build" else "test.log")
            raise SimError(f"{stage} of {top} ({simulator}) failed: {e}\n  log {log}:\n{_tail(log)}") from None
        if not respf.exists():
            raise SimError(f"simulation of {top} ({simulator}) wrote no results; log {bdir / 'test.log'}")
        return json.loads(respf.read_text())
