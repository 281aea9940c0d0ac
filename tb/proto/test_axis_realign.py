# SPDX-License-Identifier: Apache-2.0
"""axis_realign (rtl/proto/axis_realign.v; docs/wimax.md, "The realigner"): random frames
whose beats each carry a contiguous run of bytes anywhere in the beat (empty runs too)
must come out as the same bytes packed from lane 0: every beat full except the last,
whose tkeep is a run of the low lanes, unkept lanes zero, tuser (the OR over the frame)
on the last beat, frames without bytes dropped. With gaps and backpressure; BYTES is
read from the DUT; cases without the input register and with it, normalizing behind it (IN_REG = 1) and in
front of it (IN_REG = 2). A second test checks one beat per clock on aligned input.
"""
from __future__ import annotations

import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge, with_timeout
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from aesip import rtl, sim
from aesip.tb.coredrv import dut_params, random_pause, set_pause
from aesip.tb.seed import run_seed, test_rng


async def setup(dut):
    n = dut_params(dut, ("BYTES",))["BYTES"]
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s"), dut.clk, dut.rst)
    sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m"), dut.clk, dut.rst)
    for x in (src, sink):
        x.log.setLevel("WARNING")
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    await RisingEdge(dut.clk)
    return n, src, sink


async def beat_monitor(dut, n: int, beats: list) -> None:
    """Record (tkeep, tdata, tlast, tuser, cycle) of every output handshake."""
    cycle = 0
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        cycle += 1
        if int(dut.m_tvalid.value) and int(dut.m_tready.value):
            beats.append((int(dut.m_tkeep.value), int(dut.m_tdata.value), int(dut.m_tlast.value),
                          int(dut.m_tuser.value), cycle))


def random_frame(rng: random.Random, n: int) -> tuple[AxiStreamFrame, bytes]:
    data, keep = b"", []
    out = b""
    for _ in range(rng.choice([1, 1, 2, 3, 5, 9])):
        a = rng.randrange(n + 1)
        b = rng.randrange(a, n + 1) if rng.random() < 0.8 else a   # some empty runs
        if rng.random() < 0.3:
            a, b = 0, n                                             # some full beats
        beat = rng.randbytes(n)
        data += beat
        keep += [1 if a <= i < b else 0 for i in range(n)]
        out += beat[a:b]
    return AxiStreamFrame(tdata=data, tkeep=keep), out


@cocotb.test()
async def test_random(dut):
    rng = test_rng(f"{__name__}.test_random")
    n, src, sink = await setup(dut)
    beats: list = []
    cocotb.start_soon(beat_monitor(dut, n, beats))
    set_pause(src, random_pause(rng, 0.3))
    set_pause(sink, random_pause(rng, 0.3))
    frames = []
    for _ in range(300):
        f, exp = random_frame(rng, n)
        f.tuser = rng.getrandbits(1)
        frames.append((f, exp))
        await src.send(f)
    expected = [(exp, f.tuser) for f, exp in frames if exp]
    for k, (exp, user) in enumerate(expected):
        got = await with_timeout(sink.recv(), 1_000_000, "ns")
        assert bytes(got.tdata) == exp, f"frame {k}: {bytes(got.tdata).hex()} expected {exp.hex()}"
    await ClockCycles(dut.clk, 20)
    assert sink.empty(), "extra output frames"
    # beat-level checks: packing, zero lanes, tuser on the last beat only
    full = (1 << n) - 1
    k = 0
    frame_beats: list = []
    for keep, data, last, user, _ in beats:
        frame_beats.append((keep, data, last, user))
        if not last:
            assert keep == full, f"output frame {k}: a beat before the last has tkeep {keep:#x}"
            assert user == 0
            continue
        assert keep != 0 and keep & (keep + 1) == 0, f"output frame {k}: last tkeep {keep:#x}"
        cnt = bin(keep).count("1")
        assert data >> (8 * cnt) == 0, f"output frame {k}: unkept lanes not 0"
        assert user == expected[k][1], f"output frame {k}: tuser {user}"
        assert sum(bin(b[0]).count("1") for b in frame_beats) == len(expected[k][0])
        frame_beats = []
        k += 1
    assert k == len(expected)
    assert int(dut.busy.value) == 0


@cocotb.test()
async def test_rate(dut):
    """Aligned full beats with the output always ready: one beat per clock (also through
    the input register of IN_REG = 1 and 2), one extra clock to flush an unaligned tail."""
    rng = test_rng(f"{__name__}.test_rate")
    n, src, sink = await setup(dut)
    beats: list = []
    cocotb.start_soon(beat_monitor(dut, n, beats))
    nb = 40
    data = rng.randbytes(n * nb)
    # a prefix of 3 bytes, then nb full beats: nb + 1 output beats, the last of 3 bytes
    frame = AxiStreamFrame(tdata=b"\0" * (n - 3) + data[:3] + data, tkeep=[0] * (n - 3) + [1] * 3 + [1] * len(data))
    await src.send(frame)
    got = await with_timeout(sink.recv(), 100_000, "ns")
    assert bytes(got.tdata) == data[:3] + data
    assert len(beats) == nb + 1
    cycles = [b[4] for b in beats]
    assert cycles == list(range(cycles[0], cycles[0] + nb + 1)), f"not one beat per clock: {cycles}"


CASES = [
    pytest.param("verilator", {"BYTES": 16}, id="verilator-BYTES=16"),
    pytest.param("verilator", {"BYTES": 5}, id="verilator-BYTES=5"),
    pytest.param("icarus", {"BYTES": 16}, id="icarus-BYTES=16"),
    pytest.param("verilator", {"BYTES": 16, "IN_REG": 1}, id="verilator-BYTES=16-IN_REG=1"),
    pytest.param("icarus", {"BYTES": 5, "IN_REG": 1}, id="icarus-BYTES=5-IN_REG=1"),
    pytest.param("verilator", {"BYTES": 16, "IN_REG": 2}, id="verilator-BYTES=16-IN_REG=2"),
    pytest.param("icarus", {"BYTES": 3, "IN_REG": 2}, id="icarus-BYTES=3-IN_REG=2"),
]


@pytest.mark.parametrize("simulator,parameters", CASES)
def test_axis_realign(simulator, parameters):
    sim.require(simulator)
    sim.run_and_check(
        toplevel=rtl.REALIGN_TOP,
        sources=rtl.realign_sources(),
        test_module=__name__,
        sim=simulator,
        parameters=parameters,
        seed=run_seed(),
        quiet=True,
    )
