"""`aesip` command line: run requests through the real RTL in simulation, benchmarks,
synthesis and the demo workload.

    aesip run   [--engine iter32|iter128|pipe] [--sim verilator|icarus] [-i IN] [-o OUT]
    aesip bench [--json] [--engine ...] [--sim ...] [--blocks N]
    aesip synth [...]            (aesip.synth.synth_main)
    aesip demo  [--engine ...] [--sim ...] [--random N] [--seed S] [--kat all|some]

Nothing here computes cryptography, except bench and demo comparing the RTL's results
with aesip.ref. Every simulation is one cocotb run of aesip.tb.cli_tb, a command executor
for one core; builds are cached per user (see build_base()) and serialized with a lock,
so concurrent invocations are safe. Compiler and simulator output goes to log files next
to the build; stdout carries only the command's output.

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

# Key slots the CLI uses: the cores' default SLOT_W = 1 (docs/cores.md). The testbench
# checks every slot number against the width of the core's key_slot port.
NSLOTS = 2
TB_MODULE = "aesip.tb.cli_tb"


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


def check_engine(engine: str, simulator: str) -> None:
    from aesip import sim

    if engine not in rtl.CORES:
        raise UsageError(f"unknown engine {engine!r} (choose from {', '.join(rtl.ENGINES)})")
    missing = [str(p) for p in rtl.core_sources(engine) if not p.exists()]
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


def simulate(engine: str, simulator: str, commands: list[dict], *, seed: int | None = None,
             progress: bool = True) -> dict:
    """Run `commands` (see aesip.tb.cli_tb) on the RTL of `engine` in one simulation and
    return the testbench's response {"results": [...], "cycles": n}."""
    from aesip import sim

    check_engine(engine, simulator)
    # A parent pytest run must not turn this into a pytest-style cocotb run.
    os.environ.pop("PYTEST_CURRENT_TEST", None)
    top = rtl.core_top(engine)
    base = build_base()
    params: dict = {}
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
                    sources=rtl.core_sources(engine),
                    test_module=TB_MODULE,
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
class BlockPlanner:
    """Turns block jobs into testbench commands. Keys stay in the core's slots (LRU) so
    a repeated key is not reloaded, and blocks of consecutive requests whose keys are
    resident are streamed together; a slot is only reloaded when no pending block uses it."""

    def __init__(self, nslots: int = NSLOTS):
        self.commands: list[dict] = []
        self.slot_key: list[bytes | None] = [None] * nslots
        self.lru = list(range(nslots))  # least recently used first
        self.items: list[list] = []
        self.pending: list[tuple[int, int, int]] = []  # (job index, offset, count)
        self.busy: set[int] = set()
        self.placement: dict[int, tuple[int, int, int]] = {}

    def _use(self, slot: int) -> None:
        self.lru.remove(slot)
        self.lru.append(slot)

    def flush(self) -> None:
        if not self.items:
            return
        ci = len(self.commands)
        self.commands.append({"cmd": "blocks", "items": self.items})
        for j, off, n in self.pending:
            self.placement[j] = (ci, off, n)
        self.items, self.pending, self.busy = [], [], set()

    def slot_for(self, key: bytes) -> int:
        if key in self.slot_key:
            slot = self.slot_key.index(key)
        else:
            free = [s for s in self.lru if s not in self.busy]
            if not free:
                self.flush()
                free = list(self.lru)
            slot = free[0]
            self.commands.append({"cmd": "key", "slot": slot, "key": key.hex()})
            self.slot_key[slot] = key
        self._use(slot)
        return slot

    def add(self, index: int, job: runreq.BlockJob) -> None:
        slot = self.slot_for(job.key)
        # A request without data still goes through the core once (a probe block whose
        # data is discarded) so that the hardware reports whether the key is valid.
        blocks = [job.data[k:k + 16] for k in range(0, len(job.data), 16)] or [bytes(16)]
        self.pending.append((index, len(self.items), len(blocks)))
        self.items.extend([b.hex(), job.dec, slot] for b in blocks)
        self.busy.add(slot)

    def finish(self) -> list[dict]:
        self.flush()
        return self.commands


def execute_requests(requests: list[runreq.Request], engine: str, simulator: str) -> list[dict]:
    """Output objects for `requests` (in order), running the block jobs on the RTL."""
    planner = BlockPlanner()
    for i, r in enumerate(requests):
        if r.job is not None:
            planner.add(i, r.job)
    commands = planner.finish()
    results = simulate(engine, simulator, commands)["results"] if commands else []
    outs = []
    for i, r in enumerate(requests):
        if r.job is None:
            outs.append(runreq.result_for(r))
            continue
        ci, off, n = planner.placement[i]
        got = results[ci]["out"][off:off + n]
        errs = {e for _, e in got}
        if len(errs) != 1:
            raise SimError(f"line {r.lineno}: the core flagged only some blocks of one key as invalid")
        err = bool(errs.pop())
        data = b"".join(bytes.fromhex(h) for h, _ in got) if r.job.data else b""
        outs.append(runreq.result_for(r, data, err))
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
def _add_sim_args(p: argparse.ArgumentParser, engine_default: str | None, multi: bool = False) -> None:
    if multi:
        p.add_argument("--engine", action="append", choices=rtl.ENGINES,
                       help="core to use (repeatable; default: all)")
    else:
        p.add_argument("--engine", default=engine_default, choices=rtl.ENGINES,
                       help=f"core to use (default: {engine_default})")
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
                       "selected core, write one JSON object per request line, in order.")
    _add_sim_args(r, "pipe")
    r.add_argument("-i", "--input", metavar="IN.jsonl", help="requests (default: stdin)")
    r.add_argument("-o", "--output", metavar="OUT.jsonl", help="results (default: stdout)")

    b = sub.add_parser("bench", help="cycle-accurate throughput and latency from simulation")
    _add_sim_args(b, None, multi=True)
    b.add_argument("--json", action="store_true", help="print a JSON list of records")
    b.add_argument("--blocks", type=int, default=64, metavar="N",
                   help="blocks streamed back to back per measurement (default 64)")
    b.add_argument("--seed", type=int, help="seed of the random keys and data")

    sub.add_parser("synth", help="synthesis figures (Yosys/nextpnr); options: aesip synth --help",
                   add_help=False)

    d = sub.add_parser("demo", help="embedded workload through every core, checked against the reference")
    _add_sim_args(d, None, multi=True)
    d.add_argument("--random", type=int, default=3000, metavar="N",
                   help="random blocks per core (default 3000)")
    d.add_argument("--kat", choices=["all", "some", "none"], default="all",
                   help="NIST ECB KAT/MMT records: all (default, 2138), every 4th, or none")
    d.add_argument("--seed", type=int, help="seed of the random workload")
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
