# SPDX-License-Identifier: Apache-2.0
"""The wall-clock limit on a simulator run (aesip/sim.py, AESIP_SIM_TIMEOUT).

tb/conftest.py sets the limit for the whole suite, so that a test that never ends (a DUT
that stopped handshaking while its bench waits for it) fails with a message naming its
build instead of holding the CI run until the CI's own limit. Here a cocotb test that
never ends is run with a limit of a few seconds: the run must stop, soon, with that
message.
"""
from __future__ import annotations

import time
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import Timer

from aesip import rtl, sim

TOP_DIR = Path(__file__).resolve().parent / "common"
LIMIT_S = 5


@cocotb.test()
async def never_ends(dut):
    """Drives the column forever (run only by the pytest entry below, with a limit)."""
    col = 0
    while True:
        dut.col_in.value = col
        dut.inv.value = 0
        col = (col + 1) & 0xFFFFFFFF
        await Timer(1, "ns")


def test_sim_timeout_stops_a_run_that_never_ends(monkeypatch, tmp_path):
    sim.require("verilator")
    monkeypatch.setenv("AESIP_SIM_TIMEOUT", str(LIMIT_S))
    t0 = time.monotonic()
    # the model's build is not under the limit; its run is
    with pytest.raises(RuntimeError, match=rf"stopped after {LIMIT_S} s of wall-clock time"):
        sim.run(toplevel="tb_mixcolumn_top",
                sources=rtl.sources() + [TOP_DIR / "tb_mixcolumn_top.v"],
                test_module=__name__, testcase="never_ends", sim="verilator",
                build_base=tmp_path, quiet=True)
    elapsed = time.monotonic() - t0
    # build (about 30 s on 2 cores) + the limit + the kill grace (10 s), with room
    assert elapsed < 300, f"the run took {elapsed:.0f} s"


def test_sim_timeout_value(monkeypatch):
    monkeypatch.delenv("AESIP_SIM_TIMEOUT", raising=False)
    assert sim.sim_timeout() == 0
    monkeypatch.setenv("AESIP_SIM_TIMEOUT", "0")
    assert sim.sim_timeout() == 0
    monkeypatch.setenv("AESIP_SIM_TIMEOUT", "90")
    assert sim.sim_timeout() == 90
    monkeypatch.setenv("AESIP_SIM_TIMEOUT", "ten minutes")
    with pytest.raises(ValueError, match="AESIP_SIM_TIMEOUT"):
        sim.sim_timeout()


def test_drop_pch(monkeypatch, tmp_path):
    """A built Verilator model loses its precompiled headers (about 300 MB a model; a full
    run once filled a CI machine's disk with them), unless AESIP_KEEP_PCH=1."""
    names = ["Vtop__pch.h.fast.gch", "Vtop__pch.h.slow.gch", "Vtop__ALL.a", "aes_pipe"]
    for n in names:
        (tmp_path / n).write_bytes(b"x")
    monkeypatch.setenv("AESIP_KEEP_PCH", "1")
    sim.drop_pch(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)
    monkeypatch.delenv("AESIP_KEEP_PCH")
    sim.drop_pch(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Vtop__ALL.a", "aes_pipe"]
