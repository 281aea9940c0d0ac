# SPDX-License-Identifier: Apache-2.0
"""Two block-cipher ports side by side, as the mode engines' cores A and B: the stream
models and the expected results per side, for test wrappers that name the ports
s_a_axis_* / m_a_axis_* and s_b_axis_* / m_b_axis_* (tuser = {slot, dec} in, err out).

Used by tb/modes/test_aes_core_share.py (one core behind both ports) and
tb/cores/test_aes_iter128_pair.py (two cores on one key expansion). Expected values come
only from aesip.ref (`cryptography`)."""
from __future__ import annotations

from cocotb.triggers import with_timeout
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from aesip import ref
from aesip.tb.coredrv import clock_and_reset

SIDES = ("a", "b")


class IdleZeroSource(AxiStreamSource):
    """cocotbext-axi's stream source, idle data and sideband driven 0 instead of X at
    start: aes_iter128's s_axis_tready may depend on the offered slot (tuser) even while
    tvalid is low, and the source samples tready every clock, so an X there stops it on
    Icarus."""
    _init_x = False


class TwoSides:
    """Both sides' stream models and the expected results, per side in order. `label`
    names a side in failure messages ("side", "core")."""

    def __init__(self, dut, label: str = "side"):
        self.dut = dut
        self.label = label
        self.src = {s: IdleZeroSource(AxiStreamBus.from_prefix(dut, f"s_{s}_axis"), dut.clk, dut.rst)
                    for s in SIDES}
        self.snk = {s: AxiStreamSink(AxiStreamBus.from_prefix(dut, f"m_{s}_axis"), dut.clk, dut.rst)
                    for s in SIDES}
        self.expected = {s: [] for s in SIDES}

    async def send(self, side: str, slot: int, dec: bool, block: bytes, key: bytes | None) -> None:
        """Offer one block; remember its expected result (None: an error result)."""
        self.expected[side].append(None if key is None else ref.ecb(key, block, dec))
        await self.src[side].send(AxiStreamFrame(block, tuser=(slot << 1) | int(dec)))

    async def check(self, side: str, n: int | None = None, timeout_ns: int = 2_000_000) -> None:
        """Take the next `n` results of `side` (default: all expected) and compare them with
        the expectations: a good block's ciphertext or plaintext, or err = 1 with zero data."""
        n = len(self.expected[side]) if n is None else n
        who = f"{self.label} {side}"
        for _ in range(n):
            frame = await with_timeout(self.snk[side].recv(), timeout_ns, "ns")
            exp = self.expected[side].pop(0)
            data = bytes(frame.tdata)
            err = int(frame.tuser) if not isinstance(frame.tuser, list) else int(frame.tuser[0])
            if exp is None:
                assert err == 1 and data == bytes(16), f"{who}: error result expected, got err={err} {data.hex()}"
            else:
                assert err == 0, f"{who}: unexpected err on a good block"
                assert data == exp, f"{who}: {data.hex()} != {exp.hex()}"


async def start(dut) -> None:
    """Both sides' inputs idle (Icarus leaves undriven inputs X), clock, reset."""
    for side in SIDES:
        getattr(dut, f"s_{side}_axis_tvalid").value = 0
        getattr(dut, f"s_{side}_axis_tuser").value = 0
        getattr(dut, f"s_{side}_axis_tdata").value = 0
        getattr(dut, f"m_{side}_axis_tready").value = 0
    await clock_and_reset(dut, 10)
