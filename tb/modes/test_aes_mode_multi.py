# SPDX-License-Identifier: Apache-2.0
"""aes_mode_multi (rtl/modes/aes_mode_multi.v: LANES packets in flight on one shared pair
of block cores; docs/mode_engine.md, "aes_mode_multi"): the very same cocotb tests as
aes_mode_engine (imported from tb/modes/test_aes_mode_engine.py, functional and
security), its own throughput test, and the pytest entry.

Throughput (test_throughput): AESIP_TPUT_PKTS (default 16) CCM encryptions of
AESIP_TPUT_BYTES (default 1500) payload bytes with 32 bytes of AAD, 13-byte nonce and
8-byte tag, all queued at once with no gaps and no backpressure. Every ciphertext and tag
is checked against aesip.ref (`cryptography`).

Bound (derived from the design, docs/mode_engine.md "aes_mode_multi" Timing): a CCM
packet with a = 32 AAD bytes and m payload blocks is S = 1 + ceil((a+2)/16) + m steps; a
lane alone issues a step every latency + 1 = 15 cycles on aes_pipe, and each core takes
one block per clock, so with LANES <= 16 lanes busy a step costs 15 cycles plus a few
cycles of arbitration now and then: 17 per step is a safe average. Packets run in waves
of LANES (packet n on lane n mod LANES), and the input is one beat per clock in packet
order, so the last lane of a wave starts (min(P, LANES) - 1) * beats after the first:
    cycles <= waves * S * 17 + (min(P, LANES) - 1) * beats + 200
The single engine needs about P * S * 15 cycles (one packet at a time); the test also
checks that the aggregate is at least min(P, LANES) / 3 times faster than P * S * 15
(the input stagger above costs the rest for a single wave).

LANES and the other parameters are read from the DUT.
"""
from __future__ import annotations

import math
import os

import cocotb
import pytest
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout

from aesip import ref, rtl
from aesip.tb.engdrv import EngineDriver, Packet
from aesip.tb.seed import test_rng
from tb.modes.test_aes_mode_engine import FUNCTIONAL, SECURITY, case, run_mode_engine, soak_packets
# the shared cocotb tests: cocotb runs every test found in this module
from tb.modes.test_aes_mode_engine import (test_ccm_cavp, test_sp800_38a, test_random,  # noqa: F401
                                           test_bad_input, test_no_output_mix, test_unusable_slots,
                                           test_rekey_slot_in_use, test_no_state_left, test_soak)

AAD, NONCE, TAG = 32, 13, 8


@cocotb.test()
async def test_throughput(dut):
    """16 x 1500-byte CCM packets back to back within the bound of the module docstring."""
    rng = test_rng(f"{__name__}.test_throughput")
    npk = int(os.environ.get("AESIP_TPUT_PKTS", "16"))
    size = int(os.environ.get("AESIP_TPUT_BYTES", "1500"))
    lanes = int(dut.LANES.value)
    drv = EngineDriver(dut)
    await drv.start()
    key = rng.randbytes(16)
    await drv.load_key(0, key)
    await ClockCycles(dut.clk, 4)
    pkts = [Packet("ccm-encrypt", 0, rng.randbytes(NONCE), rng.randbytes(AAD), rng.randbytes(size), TAG)
            for _ in range(npk)]

    first_cmd = []

    async def watch_cmd():
        while not first_cmd:
            await RisingEdge(dut.clk)
            if int(dut.s_axis_cmd_tvalid.value) and int(dut.s_axis_cmd_tready.value):
                first_cmd.append(drv.cycle)

    async def feed():
        for p in pkts:
            await drv.submit(p)

    cocotb.start_soon(watch_cmd())
    cocotb.start_soon(feed())
    last = 0
    for i, p in enumerate(pkts):
        err, tag = await with_timeout(drv.status(), 2_000_000, "ns")
        last = max(last, drv.cycle)
        data, flag = await with_timeout(drv.output(), 100_000, "ns")
        last = max(last, drv.cycle)
        ct, etag = ref.ccm_encrypt(key, p.iv, p.aad, p.data, TAG)
        assert err == 0 and flag == 0, f"packet {i}: err {err} flag {flag}"
        assert data == ct, f"packet {i}: ciphertext differs from the reference"
        assert tag == etag.ljust(16, b"\0"), f"packet {i}: tag {tag.hex()} expected {etag.hex()}"
    cycles = last - first_cmd[0]
    m = math.ceil(size / 16)
    steps = 1 + math.ceil((AAD + 2) / 16) + m           # per packet
    beats = math.ceil(AAD / 16) + m
    waves = math.ceil(npk / lanes)
    bound = waves * steps * 17 + (min(npk, lanes) - 1) * beats + 200
    single = npk * steps * 15
    blocks = npk * ((1 + math.ceil((AAD + 2) / 16) + m) + (1 + m))
    dut._log.info("LANES=%d: %d packets of %d B in %d cycles (bound %d; one at a time ~%d): "
                  "%.2f payload bits/cycle, %.3f AES blocks per clock per pipeline",
                  lanes, npk, size, cycles, bound, single, 8 * size * npk / cycles, blocks / cycles / 2)
    assert cycles <= bound, f"{cycles} cycles > bound {bound}"
    assert cycles * min(npk, lanes) / 3 <= single, f"{cycles} cycles: not {min(npk, lanes) / 3:.2f}x faster than {single}"
    await ClockCycles(dut.clk, 20)
    assert drv.out.empty() and drv.sts.empty(), "extra output"


# ------------------------------------------------------------------------ pytest entry
THROUGHPUT = ["test_throughput"]

# The functional tests (every 5th CAVP CCM record) with the throughput test on aes_pipe
# with 4 lanes; on Icarus 3 lanes (not a power of two) with 4-beat input FIFOs (IN_AW=2:
# correctness must not depend on the FIFO depth); the throughput test alone with the 16
# lanes `aesip bench` measures (one step per lane per pipeline latency + 1: the pipelines
# can be full); the security tests and the short soak on both simulators (NR_MAX = 10 on
# Icarus). The soak counts of `make soak` are the second numbers.
CASES = [
    case("functional", "verilator", {"CORE": "pipe", "LANES": 4, "IN_AW": 7}, FUNCTIONAL + THROUGHPUT,
         {"AESIP_CAVP": "some", "AESIP_NRAND": "200"}),
    case("functional", "icarus", {"CORE": "iter128", "LANES": 3, "IN_AW": 2}, FUNCTIONAL,
         {"AESIP_CAVP": "some", "AESIP_NRAND": "30"}),
    case("throughput", "verilator", {"CORE": "pipe", "LANES": 16, "IN_AW": 7}, THROUGHPUT, {}),
    case("security", "verilator", {"CORE": "pipe", "LANES": 4, "IN_AW": 4, "NR_MAX": 14}, SECURITY,
         soak_packets(300, 100_000)),
    case("security", "icarus", {"CORE": "iter128", "LANES": 3, "IN_AW": 4, "NR_MAX": 10}, SECURITY,
         soak_packets(60, 10_000)),
]


@pytest.mark.parametrize("simulator,parameters,tests,env", CASES)
def test_aes_mode_multi(simulator, parameters, tests, env):
    run_mode_engine(rtl.MULTI_TOP, __name__, simulator, parameters, tests, env)
