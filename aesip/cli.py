# SPDX-License-Identifier: Apache-2.0
"""`aesip` command line: run requests through the real RTL in simulation, benchmarks,
synthesis and the demo workload.

    aesip run   [--engine iter32|iter128|pipe] [--sim verilator|icarus] [-i IN] [-o OUT]
    aesip bench [--json] [--engine ...] [--sim ...] [--blocks N] [--ccm-sizes LIST] [--ccm-packets N]
    aesip synth [...]            (aesip.synth.synth_main)
    aesip demo  [--engine ...] [--sim ...] [--random N] [--seed S] [--kat all|some|none] [--ccm N]

Nothing here computes cryptography, except bench and demo comparing the RTL's results
with aesip.ref. `run` sends every request as one packet through the mode engine
(rtl/modes/aes_mode_engine.v with CORE = the chosen core, docs/mode_engine.md), all
lines of one input in one simulation of aesip.tb.engine_cli_tb (a command executor);
the block-core benchmarks and the block-core demo run the bare cores through
aesip.tb.cli_tb. Builds are cached per user (see build_base()) and serialized with a
lock, so concurrent invocations are safe. Compiler and simulator output goes to log
files next to the build; stdout carries only the command's output.

Exit status: 0 success, 1 malformed input / unknown op (`run`) or wrong results
(`bench`, `demo`), 2 usage error, 3 build or simulation failure.
"""
from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import logging
import os
import sys
import tempfile
from pathlib import Path

from aesip import rtl, runreq

EXIT_INPUT = 1
EXIT_USAGE = 2
EXIT_SIM = 3

# Bare cores (bench/demo): default parameters (SLOT_W = 1, docs/cores.md); the testbench
# checks every slot number against the width of the core's key_slot port.
TB_MODULE = "aesip.tb.cli_tb"
# The mode engine as the CLI builds it: SLOT_W = 2 (4 key slots), other parameters default.
ENGINE_SLOT_W = 2
ENGINE_SLOTS = 2 ** ENGINE_SLOT_W
ENGINE_TB_MODULE = "aesip.tb.engine_cli_tb"
ENGINE_TOP = "aes_mode_engine"


class SimError(Exception):
    """Build or simulation failure (with a hint where the log is)."""


class UsageError(Exception):
    pass


# --------------------------------------------------------------------------- simulation
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


def engine_core(engine: str) -> str:
    """The mode engine's CORE parameter for a core name: the name itself ("iter128", ...)."""
    return engine


def _target(engine: str, modes: bool) -> tuple[str, list, dict, str]:
    """(top module, sources, parameters, cocotb module) of a simulation."""
    if modes:
        return (ENGINE_TOP, rtl.engine_sources(engine_core(engine)),
                {"CORE": engine_core(engine), "SLOT_W": ENGINE_SLOT_W}, ENGINE_TB_MODULE)
    return rtl.core_top(engine), rtl.core_sources(engine), {}, TB_MODULE


def check_engine(engine: str, simulator: str, modes: bool = False) -> None:
    from aesip import sim

    if engine not in rtl.CORES:
        raise UsageError(f"unknown engine {engine!r} (choose from {', '.join(rtl.ENGINES)})")
    missing = [str(p) for p in _target(engine, modes)[1] if not p.exists()]
    if missing:
        raise SimError(f"engine {engine}: RTL source(s) missing: {', '.join(missing)}")
    if simulator not in sim.SIMULATORS:
        raise UsageError(f"unknown simulator {simulator!r} (choose from {', '.join(sim.SIMULATORS)})")
    if not sim.available(simulator):
        raise SimError(f"simulator {simulator} is not installed")


@contextlib.contextmanager
def _stdout_to_stderr():
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


def simulate(engine: str, simulator: str, commands: list[dict], *, modes: bool = False,
             seed: int | None = None, progress: bool = True) -> dict:
    """Run `commands` in one simulation and return the testbench's response
    {"results": [...], "cycles": n}: on the bare core `engine` (aesip.tb.cli_tb), or with
    `modes` on the mode engine built on that core (aesip.tb.engine_cli_tb)."""
    from aesip import sim

    check_engine(engine, simulator, modes)
    # A parent pytest run must not turn this into a pytest-style cocotb run.
    os.environ.pop("PYTEST_CURRENT_TEST", None)
    top, sources, params, tb_module = _target(engine, modes)
    base = build_base()
    bdir = sim.build_dir_for(top, simulator, params, base)
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
            with _stdout_to_stderr():
                results = sim.run(
                    toplevel=top,
                    sources=sources,
                    test_module=tb_module,
                    sim=simulator,
                    parameters=params,
                    extra_env={"AESIP_CLI_REQ": str(reqf), "AESIP_CLI_RESP": str(respf)},
                    seed=seed,
                    build_base=base,
                    quiet=True,
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


# --------------------------------------------------------------------------- run
class EnginePlanner:
    """Turns engine jobs into executor commands (aesip.tb.engine_cli_tb). Keys stay in
    the engine's key slots (least recently used slot evicted), so a repeated key is not
    reloaded; the executor reloads a slot only after every packet in flight that uses it
    has its status. Packets stream back to back otherwise."""

    def __init__(self, nslots: int = ENGINE_SLOTS):
        self.commands: list[dict] = []
        self.slot_key: list[bytes | None] = [None] * nslots
        self.lru = list(range(nslots))  # least recently used first

    def slot_for(self, key: bytes) -> int:
        if key in self.slot_key:
            slot = self.slot_key.index(key)
        else:
            slot = self.lru[0]
            self.commands.append({"cmd": "key", "slot": slot, "key": key.hex()})
            self.slot_key[slot] = key
        self.lru.remove(slot)
        self.lru.append(slot)
        return slot

    def add(self, job: runreq.EngineJob) -> tuple[int, int | None]:
        """Queue `job`; returns the command index of its packet and of its key probe.

        A non-CCM packet with an empty payload never reaches the AES cores, so the
        hardware would not see an illegal key: such a request also sends a probe packet
        (ECB encryption of one zero block, same slot) whose status tells whether the
        slot's key is valid; the probe's data is discarded."""
        slot = self.slot_for(job.key)
        self.commands.append(job.packet(slot))
        pi, qi = len(self.commands) - 1, None
        if not job.is_ccm and not job.data:
            self.commands.append(runreq.EngineJob("encrypt", job.key, bytes(16)).packet(slot))
            qi = len(self.commands) - 1
        return pi, qi


def execute_requests(requests: list[runreq.Request], engine: str, simulator: str) -> list[dict]:
    """Output objects for `requests` (in order), running them on the mode engine."""
    planner = EnginePlanner()
    placement = {i: planner.add(r.job) for i, r in enumerate(requests) if r.job is not None}
    results = simulate(engine, simulator, planner.commands, modes=True)["results"] if placement else []
    outs = []
    for i, r in enumerate(requests):
        if r.job is None:
            outs.append(runreq.result_for(r))
            continue
        pi, qi = placement[i]
        try:
            outs.append(runreq.result_for(r, results[pi], results[qi] if qi is not None else None))
        except (ValueError, KeyError, IndexError) as e:
            raise SimError(f"unexpected response of the engine simulation: {e}") from None
    return outs


def cmd_run(args) -> int:
    if args.input in (None, "-"):
        lines = sys.stdin.buffer.read().splitlines()
    else:
        lines = Path(args.input).read_bytes().splitlines()
    parsed = runreq.parse_lines(lines)
    outs = execute_requests(parsed.requests, args.engine, args.sim)
    text = "".join(json.dumps(o) + "\n" for o in outs)
    if args.output in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        Path(args.output).write_text(text)
    if parsed.fatal is not None:
        f = parsed.fatal
        print(f"aesip run: error: line {f.lineno}: {f.message}\n"
              f"aesip run: the {len(outs)} request(s) before line {f.lineno} were answered; "
              f"line {f.lineno} and everything after it was not processed", file=sys.stderr)
        return EXIT_INPUT
    return 0


# --------------------------------------------------------------------------- main
def _add_sim_args(p: argparse.ArgumentParser, engine_default: str | None, multi: bool = False,
                  what: str = "core to use") -> None:
    if multi:
        p.add_argument("--engine", action="append", choices=rtl.ENGINES,
                       help=f"{what} (repeatable; default: all)")
    else:
        p.add_argument("--engine", default=engine_default, choices=rtl.ENGINES,
                       help=f"{what} (default: {engine_default})")
    p.add_argument("--sim", default="verilator", choices=["verilator", "icarus"],
                   help="simulator (default: verilator)")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="aesip", description="Open AES engines in Verilog: run requests, "
                                "benchmarks, synthesis and the demo through the real RTL.")
    from aesip import __version__

    p.add_argument("--version", action="version", version=f"aesip {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    r = sub.add_parser("run", help="JSON Lines requests through the RTL in simulation",
                       description="Read JSON Lines requests, run them through one simulation of the "
                       "mode engine (aes_mode_engine) built on the selected core, write one JSON object "
                       "per request line, in order.")
    _add_sim_args(r, "pipe", what="AES core the mode engine is built on (CORE parameter)")
    r.add_argument("-i", "--input", metavar="IN.jsonl", help="requests (default: stdin)")
    r.add_argument("-o", "--output", metavar="OUT.jsonl", help="results (default: stdout)")

    b = sub.add_parser("bench", help="cycle-accurate throughput and latency from simulation")
    _add_sim_args(b, None, multi=True, what="core to measure, bare and under the CCM mode engine")
    b.add_argument("--json", action="store_true", help="print a JSON list of records")
    b.add_argument("--blocks", type=int, default=64, metavar="N",
                   help="blocks streamed back to back per measurement (default 64)")
    b.add_argument("--seed", type=int, help="seed of the random keys and data")
    b.add_argument("--ccm-sizes", default="16,64,256,1500", metavar="LIST",
                   help="CCM payload sizes in bytes for the mode-engine records (default 16,64,256,1500; "
                   "'none': no CCM records)")
    b.add_argument("--ccm-packets", type=int, default=8, metavar="N",
                   help="CCM packets sent back to back per measurement (default 8)")

    sub.add_parser("synth", help="synthesis figures (Yosys/nextpnr); options: aesip synth --help",
                   add_help=False)

    d = sub.add_parser("demo", help="embedded workload through every core and a CCM packet mix through "
                       "the mode engine, checked against the reference")
    _add_sim_args(d, None, multi=True)
    d.add_argument("--random", type=int, default=3000, metavar="N",
                   help="random blocks per core (default 3000)")
    d.add_argument("--kat", choices=["all", "some", "none"], default="all",
                   help="NIST ECB KAT/MMT records: all (default, 2138), every 4th, or none")
    d.add_argument("--seed", type=int, help="seed of the random workload")
    d.add_argument("--ccm", type=int, default=400, metavar="N",
                   help="CCM packets through the mode engine (default 400; 0: skip)")
    d.add_argument("--ccm-core", default="iter128", choices=rtl.ENGINES,
                   help="core the CCM mode engine is built on (default iter128)")
    d.add_argument("--json", action="store_true", help="print the table as JSON records")
    return p


def cmd_synth(argv: list[str]) -> int:
    try:
        from aesip import synth
    except ModuleNotFoundError as e:
        if e.name not in ("aesip.synth",):
            raise
        print("aesip synth: the synthesis flow (aesip/synth.py) is not available in this checkout",
              file=sys.stderr)
        return EXIT_SIM
    rc = synth.synth_main(argv)
    return int(rc or 0)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # The cocotb runner logs its commands and warnings through `logging`; its output
    # goes to log files and failures are reported by us, so keep it off the terminal.
    logging.getLogger().addHandler(logging.NullHandler())
    if argv and argv[0] == "synth":
        return cmd_synth(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        if args.command == "run":
            return cmd_run(args)
        if args.command == "bench":
            from aesip import bench

            return bench.bench_main(args)
        if args.command == "demo":
            from aesip import demo

            return demo.demo_main(args)
    except UsageError as e:
        print(f"aesip {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except SimError as e:
        print(f"aesip {args.command}: error: {e}", file=sys.stderr)
        return EXIT_SIM
    except OSError as e:
        print(f"aesip {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `aesip run | head`
        sys.stderr.close()
        return 1
    return EXIT_USAGE


if __name__ == "__main__":
    # Re-import so that `python -m aesip.cli` shares one module (and its exception
    # classes) with aesip.bench / aesip.demo.
    from aesip.cli import main as _main

    sys.exit(_main())
