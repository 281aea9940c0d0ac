# SPDX-License-Identifier: Apache-2.0
"""aes_mode_multi (rtl/modes/aes_mode_multi.v: LANES packets in flight on one shared pair
of block cores; docs/mode_engine.md, "aes_mode_multi"): the very same cocotb tests as
aes_mode_engine (imported from tb/modes/test_aes_mode_engine.py, functional and
security), its own throughput test, test_rekey_back_to_back (two key loads into a slot in
use close together: its double-buffered key slots), and the pytest entry.

Throughput (test_throughput): AESIP_TPUT_PKTS (default 16) CCM encryptions of
AESIP_TPUT_BYTES (default 1500) payload bytes with 32 bytes of AAD, 13-byte nonce and
8-byte tag, all queued at once with no gaps and no backpressure. Every ciphertext and tag
is checked against aesip.ref (`cryptography`).

Bound (derived from the design, docs/mode_engine.md "aes_mode_multi" Timing): a CCM
packet with a = 32 AAD bytes and m payload blocks is S = 1 + ceil((a+2)/16) + m steps; a
lane alone issues a step every L = NR_MAX * ROUND_REGS + 1 cycles on aes_pipe (its
latency, docs/pipe.md: 15 for the default NR_MAX = 14, ROUND_REGS = 1), and each core
takes one block per clock, so with LANES <= 16 lanes busy a step costs L cycles plus a
few cycles of arbitration now and then: L + 2 per step is a safe average. Packets run in
waves of LANES (packet n on lane n mod LANES), and the input is one beat per clock in
packet order, so the last lane of a wave starts (min(P, LANES) - 1) * beats after the
first:
    cycles <= waves * S * (L + 2) + (min(P, LANES) - 1) * beats + 200
The single engine needs about P * S * L cycles (one packet at a time); the test also
checks that the aggregate is at least min(P, LANES) / 3 times faster than P * S * L
(the input stagger above costs the rest for a single wave).

LANES, PAIRS, NR_MAX and ROUND_REGS are read from the DUT. On aes_iter128 (step_clocks)
a pair carries one step per T clocks once its lanes keep it busy, so a step of the
busiest pair's k = ceil(LANES / PAIRS) lanes costs max(L + 2, k * T + 2) in the bound, and
the speed-up is checked against min(P, LANES, PAIRS * L / T) / 3 (aes_pipe: as above).
"""
from __future__ import annotations

import math
import os

import cocotb
import pytest
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout

from aesip import ref, rtl
from aesip.tb.coredrv import load_key
from aesip.tb.engdrv import EngineDriver, Packet, engine_core, expect
from aesip.tb.engsoak import Events, monitor
from aesip.tb.seed import test_rng
from tb.modes.test_aes_mode_engine import ENC_ONLY, FUNCTIONAL, SECURITY, case, run_mode_engine, soak_packets
# the shared cocotb tests: cocotb runs every test found in this module
from tb.modes.test_aes_mode_engine import (test_ccm_cavp, test_sp800_38a, test_random,  # noqa: F401
                                           test_bad_input, test_ccm_star, test_profile_1609,
                                           test_no_output_mix, test_unusable_slots,
                                           test_rekey_slot_in_use, test_no_state_left, test_soak,
                                           test_ctr_carries, test_decrypt_ops)

AAD, NONCE, TAG = 32, 13, 8


def step_clocks(dut) -> tuple[int, int]:
    """(L, T) for AES-128 CCM on the DUT's cores: L = clocks of one step of a lane alone
    (core latency + 1), T = clocks a pair needs per step once its lanes keep its cores
    busy (one block each into core A and core B), or 0 for aes_pipe (a block per clock:
    the lanes do not wait for each other in the bound's range, LANES <= 16).
    aes_pipe: L = NR_MAX * ROUND_REGS + 1 (docs/pipe.md); aes_iter128 (docs/iter128.md):
    one-stage L = 10 / ROUNDS_PER_CLK + 1 with one block in a core at a time, T = L;
    two-stage (ROUND_STAGES = 2) L = 2 * 10 + 2 with two blocks in a core, T = L / 2."""
    core = engine_core(dut)
    if core == "pipe":
        return int(dut.NR_MAX.value) * int(dut.ROUND_REGS.value) + 1, 0
    if core != "iter128":
        raise ValueError(f"test_throughput: no step model for core {core}")
    if int(dut.ROUND_STAGES.value) == 2:
        return 22, 11
    step = 10 // int(dut.ROUNDS_PER_CLK.value) + 1
    return step, step


@cocotb.test()
async def test_throughput(dut):
    """16 x 1500-byte CCM packets back to back within the bound of the module docstring."""
    rng = test_rng(f"{__name__}.test_throughput")
    npk = int(os.environ.get("AESIP_TPUT_PKTS", "16"))
    size = int(os.environ.get("AESIP_TPUT_BYTES", "1500"))
    lanes = int(dut.LANES.value)
    lat, per_pair = step_clocks(dut)
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
    pairs = int(dut.PAIRS.value)
    per = math.ceil(lanes / pairs)                       # lanes of the busiest pair
    bound = waves * steps * max(lat + 2, per * per_pair + 2 if per_pair else 0) + (min(npk, lanes) - 1) * beats + 200
    single = npk * steps * lat
    blocks = npk * ((1 + math.ceil((AAD + 2) / 16) + m) + (1 + m))
    # the speed-up over one packet at a time: up to the number of lanes whose steps the
    # cores can carry at once (aes_pipe: all; iterative cores: L / T per pair)
    par = min(npk, lanes, pairs * max(1, lat // per_pair) if per_pair else lanes)
    dut._log.info("LANES=%d PAIRS=%d, step %d clocks (%d per pair when busy): %d packets of %d B in %d cycles "
                  "(bound %d; one at a time ~%d): %.2f payload bits/cycle, %.3f AES blocks per clock per core",
                  lanes, pairs, lat, per_pair, npk, size, cycles, bound, single, 8 * size * npk / cycles,
                  blocks / cycles / (2 * pairs))
    assert cycles <= bound, f"{cycles} cycles > bound {bound}"
    assert cycles * par / 3 <= single, f"{cycles} cycles: not {par / 3:.2f}x faster than {single}"
    await ClockCycles(dut.clk, 20)
    assert drv.out.empty() and drv.sts.empty(), "extra output"


async def _slot0_key(dut, ev: Events, n: int) -> int:
    """Cycle of the slot-0 key handshake number n (0-based), once the monitor has it."""
    while True:
        loads = [c for c, sl, _ in ev.keys if sl == 0]
        if len(loads) > n:
            return loads[n]
        await RisingEdge(dut.clk)


@cocotb.test()
async def test_rekey_back_to_back(dut):
    """Two key loads into a slot in use, close together (docs/mode_engine.md, "aes_mode_multi",
    "Key slots"). A: a long packet runs on the active bank, key 1 goes into the other bank,
    key 2 right after it: no packet took key 1, so key 2 goes into the active bank as soon
    as key 1's expansion is over, without waiting for the long packet (which finishes on
    the old key); a packet queued behind both loads runs on key 2. B: packets on both banks
    (one begun before key 3's load, one after it): key 4 waits until the older one is done,
    not for the younger one, which finishes on key 3; the packet behind key 4 runs on it.
    Expected values from aesip.ref (`cryptography`)."""
    rng = test_rng(f"{__name__}.test_rekey_back_to_back")
    drv = EngineDriver(dut)
    await drv.start()
    ev = Events()
    cocotb.start_soon(monitor(drv, ev))
    keys = [rng.randbytes(16) for _ in range(5)]
    await drv.load_key(0, keys[0])
    nk = 1                                    # slot-0 key handshakes so far
    expansion = 4 * 10 + 9                    # AES-128, the larger of aes_pipe / aes_iter128 (docs/pipe.md)

    def long_packet():
        return Packet("ccm-encrypt", 0, rng.randbytes(NONCE), rng.randbytes(AAD), rng.randbytes(1500), TAG)

    def short_packet():
        return Packet("cbc-encrypt", 0, rng.randbytes(16), b"", rng.randbytes(64))

    async def started(n_cmd: int) -> None:
        while len(ev.cmd) == n_cmd:
            await RisingEdge(dut.clk)

    async def check(p: Packet, key: bytes, what: str) -> None:
        e = expect(p, key)
        assert await with_timeout(drv.status(), 10_000_000, "ns") == (e.err, e.tag), f"{what}: status/tag"
        assert (await with_timeout(drv.output(), 1_000_000, "ns"))[0] == e.data, f"{what}: output"

    # A: key 1 and key 2 back to back while a packet of the slot runs on key 0
    p1, p2 = long_packet(), short_packet()
    n_sts = len(ev.sts)
    n = len(ev.cmd)
    await drv.submit(p1)
    await started(n)
    await ClockCycles(dut.clk, rng.randint(5, 30))
    kick = drv.cycle
    await load_key(dut, 0, keys[1], wait_done=False)
    h1 = await _slot0_key(dut, ev, nk)
    nk += 1
    assert h1 <= kick + 4, f"key 1 waited {h1 - kick} clocks (its bank is free)"
    n = len(ev.cmd)
    cocotb.start_soon(drv.submit(p2))          # held behind both loads
    await load_key(dut, 0, keys[2], wait_done=False)
    h2 = await _slot0_key(dut, ev, nk)
    nk += 1
    assert h2 - h1 <= expansion + 6, f"key 2 waited {h2 - h1} clocks after key 1 (more than key 1's expansion)"
    assert all(c > h2 for c in ev.sts[n_sts:]), "the long packet had finished before key 2 was taken"
    await check(p1, keys[0], "packet begun before both loads (key 0)")
    await check(p2, keys[2], "packet queued behind both loads (key 2)")
    assert ev.cmd[n] > h2, "the packet behind the loads was accepted before the second one"

    # B: packets on both banks, then key 4
    p3, p4, p5 = long_packet(), long_packet(), short_packet()
    n = len(ev.cmd)
    await drv.submit(p3)                       # on key 2
    await started(n)
    await ClockCycles(dut.clk, rng.randint(5, 30))
    kick = drv.cycle
    await load_key(dut, 0, keys[3])            # into the other bank at once; waits for the expansion
    h3 = await _slot0_key(dut, ev, nk)
    nk += 1
    assert h3 <= kick + 4, f"key 3 waited {h3 - kick} clocks (its bank is free)"
    n = len(ev.cmd)
    await drv.submit(p4)                       # on key 3
    await started(n)
    await ClockCycles(dut.clk, rng.randint(5, 30))
    n_sts = len(ev.sts)
    kick = drv.cycle
    await load_key(dut, 0, keys[4], wait_done=False)
    h4 = await _slot0_key(dut, ev, nk)
    nk += 1
    assert h4 > kick + 100, f"key 4 was taken after {h4 - kick} clocks while both banks carried packets"
    assert len([c for c in ev.sts[n_sts:] if c <= h4]) <= 1, "key 4 waited for the younger packet too"
    n = len(ev.cmd)
    await drv.submit(p5)
    await check(p3, keys[2], "packet begun before key 3 (key 2)")
    await check(p4, keys[3], "packet begun after key 3 (key 3)")
    await check(p5, keys[4], "packet after key 4 (key 4)")
    assert ev.cmd[n] > h4
    assert len([c for c, sl, _ in ev.keys if sl == 0]) == nk
    await ClockCycles(dut.clk, 20)
    assert drv.out.empty() and drv.sts.empty(), "extra output"


# ------------------------------------------------------------------------ pytest entry
THROUGHPUT = ["test_throughput"]
REKEY = ["test_rekey_back_to_back"]      # aes_mode_multi only: its double-buffered key slots

# The functional tests (every 5th CAVP CCM record, every 15th on Icarus) with the
# throughput test on aes_pipe with 4 lanes; on Icarus 3 lanes (not a power of two) with
# 4-beat input FIFOs (IN_AW=2: correctness must not depend on the FIFO depth); the
# throughput test alone with the 16 lanes `aesip bench` measures (one step per lane per
# pipeline latency + 1: the pipelines can be full); the security tests and the short soak on both simulators (NR_MAX = 10 on
# Icarus). The soak counts of `make soak` are the second numbers.
CASES = [
    case("functional", "verilator", {"CORE": "pipe", "LANES": 4, "IN_AW": 7}, FUNCTIONAL + THROUGHPUT,
         {"AESIP_CAVP": "some", "AESIP_NRAND": "200"}),
    case("functional", "icarus", {"CORE": "iter128", "LANES": 3, "IN_AW": 2}, FUNCTIONAL,
         {"AESIP_CAVP": "15", "AESIP_NRAND": "30"}),
    case("throughput", "verilator", {"CORE": "pipe", "LANES": 16, "IN_AW": 7}, THROUGHPUT, {}),
    # the 16-lane AES-128 encrypt-only build of `aesip synth` variant lanes16-aes128
    case("throughput", "verilator", {"CORE": "pipe", "LANES": 16, "IN_AW": 7, "NR_MAX": 10, "DIRECTION_B": 0},
         THROUGHPUT, {}),
    # encrypt-only cores (DIRECTION_B = 0) with 2 registers per round (lanes16-aes128-r2):
    # ECB/CBC decryption refused with OP, 24/32-byte keys with KEY, the rest as usual
    case("enc-only", "verilator", {"CORE": "pipe", "LANES": 4, "IN_AW": 7, "NR_MAX": 10, "DIRECTION_B": 0,
                                   "ROUND_REGS": 2}, ENC_ONLY + THROUGHPUT,
         {"AESIP_CAVP": "some", "AESIP_NRAND": "100"}),
    # several pairs of iterative cores (PAIRS): two-stage encrypt-only aes_iter128 (5 lanes
    # on 2 pairs: 3 and 2 lanes), and three pairs at two rounds per clock
    case("pairs", "verilator", {"CORE": "iter128", "LANES": 5, "IN_AW": 7, "PAIRS": 2, "ROUND_STAGES": 2,
                                "DIRECTION_B": 0}, ENC_ONLY + THROUGHPUT, {"AESIP_CAVP": "some", "AESIP_NRAND": "100"}),
    case("pairs", "verilator", {"CORE": "iter128", "LANES": 6, "IN_AW": 7, "PAIRS": 3, "ROUNDS_PER_CLK": 2},
         THROUGHPUT, {}),
    # one lane per pair (synth ccm-multi-iter128 enc-p3), and on Icarus three lanes on two
    # pairs of two-stage cores with both directions in core B; the security tests on pairs
    case("pairs", "verilator", {"CORE": "iter128", "LANES": 3, "IN_AW": 7, "PAIRS": 3, "DIRECTION_B": 0},
         THROUGHPUT, {}),
    case("pairs", "icarus", {"CORE": "iter128", "LANES": 3, "IN_AW": 2, "PAIRS": 2, "ROUND_STAGES": 2}, FUNCTIONAL,
         {"AESIP_CAVP": "15", "AESIP_NRAND": "20"}),
    case("security", "verilator", {"CORE": "iter128", "LANES": 4, "IN_AW": 4, "PAIRS": 2}, SECURITY + REKEY,
         soak_packets(200, 50_000)),
    case("security", "verilator", {"CORE": "pipe", "LANES": 4, "IN_AW": 4, "NR_MAX": 14}, SECURITY + REKEY,
         soak_packets(300, 100_000)),
    case("security", "icarus", {"CORE": "iter128", "LANES": 3, "IN_AW": 4, "NR_MAX": 10}, SECURITY + REKEY,
         soak_packets(60, 10_000)),
]


@pytest.mark.parametrize("simulator,parameters,tests,env", CASES)
def test_aes_mode_multi(simulator, parameters, tests, env):
    run_mode_engine(rtl.MULTI_TOP, __name__, simulator, parameters, tests, env)
