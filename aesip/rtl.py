# SPDX-License-Identifier: Apache-2.0
"""Single source of truth for RTL file lists, top modules and default parameters."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"

# Shared primitives (rtl/common); every core depends on all of them.
COMMON = [
    "common/aes_sbox_lut_fwd.v",
    "common/aes_sbox_lut_inv.v",
    "common/aes_sbox_comp.v",
    "common/aes_sbox.v",
    "common/aes_subword.v",
    "common/aes_mixcolumn.v",
    "common/aes_ks_t.v",
    "common/aes_keylen.v",
    "common/aes_key_expand.v",
]

# Verilog headers (`include), found through the include directories below.
INCLUDES = ["common/aesip_check.vh"]
INCLUDE_DIRS = [RTL / "common"]

# engine name -> (top module, extra files under rtl/)
CORES = {
    "iter32": ("aes_iter32", ["cores/aes_iter32.v"]),
    "iter128": ("aes_iter128", ["cores/aes_iter128.v"]),
    "pipe": ("aes_pipe", ["cores/aes_pipe_rkmem.v", "cores/aes_pipe_stage.v", "cores/aes_pipe.v"]),
}

ENGINES = list(CORES)


def sources(extra: list[str] | None = None) -> list[Path]:
    """Absolute paths of the common primitives plus `extra` (paths relative to rtl/)."""
    files = COMMON + list(extra or [])
    return [RTL / f for f in files]


def core_sources(engine: str) -> list[Path]:
    top, files = CORES[engine]
    return sources(files)


def core_top(engine: str) -> str:
    return CORES[engine][0]


def all_rtl_files() -> list[Path]:
    """Every synthesizable RTL file in the tree."""
    return sorted(p for p in RTL.rglob("*.v"))


def verilog_value(value) -> str:
    """A parameter value as a Verilog literal: strings quoted (CORE = "pipe"), numbers as is."""
    return f'"{value}"' if isinstance(value, str) else str(value)


# The mode engine (rtl/modes) on top of one of the block cores, selected by name through
# the aes_core wrapper: the engine's CORE parameter is the engine name (in this order).
ENGINE_CORE = ["iter128", "iter32", "pipe"]
MODES = ["cores/aes_core.v", "modes/axis_commit_fifo.v", "modes/aes_key_slots.v", "modes/aes_mode_lane.v",
         "modes/aes_mode_engine.v"]


def engine_sources(core: str = "iter128") -> list[Path]:
    return sources(CORES[core][1] + MODES)


# Several packets in flight on one shared pair of cores (rtl/modes/aes_mode_multi.v)
MULTI_TOP = "aes_mode_multi"
MULTI = MODES[:-1] + ["modes/aes_mode_multi.v"]


def multi_sources(core: str = "pipe") -> list[Path]:
    return sources(CORES[core][1] + MULTI)
