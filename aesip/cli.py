# SPDX-License-Identifier: Apache-2.0
"""`aesip` command line: argument parsing and dispatch, nothing else.

    aesip run   [--engine iter32|iter128|pipe] [--sim verilator|icarus] [-i IN] [-o OUT]
    aesip bench [--json] [--update-docs] [--engine ...] [--sim ...] [--blocks N] [--ccm-sizes LIST] [--ccm-packets N] [--ccmp-sizes LIST] [--channels LIST] [--chan-round-regs LIST] [--rekeys N]
    aesip synth [...]            (aesip.synth.synth_main)
    aesip demo  [--engine ...] [--sim ...] [--random N] [--seed S] [--kat all|some|none] [--ccm N]
    aesip demo --top [--ccm-core CORE] [--seed S]   (aesip.top_demo.top_demo_main)

The commands live in aesip.run (run_main), aesip.bench (bench_main), aesip.demo
(demo_main) and aesip.synth (synth_main); they simulate through aesip.session. `--engine`
names the block core (the mode engine for `run` is built on it). Nothing here computes
cryptography.

Exit status: 0 success, 1 malformed input / unknown op (`run`) or wrong results
(`bench`, `demo`), 2 usage error, 3 build or simulation failure.
"""
from __future__ import annotations

import argparse
import logging
import sys

from aesip import rtl
from aesip.errors import EXIT_SIM, EXIT_USAGE, SimError, UsageError


# --------------------------------------------------------------------------- main
def _add_sim_args(p: argparse.ArgumentParser, engine_default: str | None, multi: bool = False,
                  what: str = "core to use", choices: list[str] | None = None) -> None:
    choices = choices or rtl.CORE_NAMES
    if multi:
        p.add_argument("--engine", action="append", choices=choices,
                       help=f"{what} (repeatable; default: all)")
    else:
        p.add_argument("--engine", default=engine_default, choices=choices,
                       help=f"{what} (default: {engine_default})")
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
                       "mode engine (aes_mode_engine) built on the selected core, write one JSON object "
                       "per request line, in order.")
    _add_sim_args(r, "pipe", choices=rtl.RUN_ENGINES,
                  what="block core the mode engine aes_mode_engine is built on (CORE parameter), "
                  f"or {rtl.MULTI_ENGINE!r}: the multi-lane engine aes_mode_multi on aes_pipe; the "
                  "TDEA ops run on tdea_mode_engine with tdea_pipe (pipe, multi) or tdea_iter "
                  "(iter32, iter128)")
    r.add_argument("-i", "--input", metavar="IN.jsonl", help="requests (default: stdin)")
    r.add_argument("-o", "--output", metavar="OUT.jsonl", help="results (default: stdout)")

    b = sub.add_parser("bench", help="cycle-accurate throughput and latency from simulation")
    _add_sim_args(b, None, multi=True, what="core to measure, bare and under the CCM mode engine; "
                  "iter128-1st / iter128-2st / iter128-2st-enc: aes_iter128 with ROUND_STAGES = 1 / 2 / 2 and "
                  "DIRECTION = 0, bare core only, stream and serial-chain records, measured only when named; "
                  "iter128-r2: aes_iter128 with ROUNDS_PER_CLK = 2 (stream and serial-chain records) and the "
                  "CCM mode engine on two of them, encrypt-only (ccm-iter128-r2), measured only when named; "
                  "iter128-1c: the CCM mode engine on one shared aes_iter128 with ROUND_STAGES = 2 "
                  "(CORES = 1), encrypt-only (ccm-iter128-1c), measured only when named; "
                  "multi-aes128 / multi-aes128-r2: aes_mode_multi with 16 lanes on AES-128 encrypt-only "
                  "pipelines (ROUND_REGS 1 / 2), CCM records for AES-128 keys, measured only when named; "
                  "multi-iter128-p3 / -p4 / -r2-p2: aes_mode_multi on 3 / 4 / 2 pairs of encrypt-only "
                  "aes_iter128 cores (PAIRS, one lane per pair; -r2: ROUNDS_PER_CLK = 2), CCM records, "
                  "measured only when named",
                  choices=rtl.CORE_NAMES + ["iter128-1st", "iter128-2st", "iter128-2st-enc", "iter128-r2",
                                            "iter128-1c", "multi-aes128", "multi-aes128-r2", "multi-iter128-p3",
                                            "multi-iter128-p4", "multi-iter128-r2-p2"])
    b.add_argument("--json", action="store_true", help="print a JSON list of records")
    b.add_argument("--blocks", type=int, default=64, metavar="N",
                   help="blocks streamed back to back per measurement (default 64)")
    b.add_argument("--seed", type=int, help="seed of the random keys and data")
    b.add_argument("--ccm-sizes", default="16,64,256,1500", metavar="LIST",
                   help="CCM payload sizes in bytes for the mode-engine records (default 16,64,256,1500; "
                   "'none': no CCM records)")
    b.add_argument("--ccmp-sizes", default="64,256,1500,2304", metavar="LIST",
                   help="MSDU sizes in bytes for the 802.11 CCMP front-end records (ccmp_top, encrypt and "
                   "decrypt; default 64,256,1500,2304; 'none': no CCMP records)")
    b.add_argument("--update-docs", action="store_true",
                   help="merge the records into syn/bench.json and rewrite the Gbit/s tables "
                        "(bits/cycle x ECP5 Fmax) in docs/synthesis.md and README.md")
    b.add_argument("--ccm-packets", type=int, default=8, metavar="N",
                   help="CCM packets sent back to back per measurement (default 8)")
    b.add_argument("--channels", default="1,4,16,64,128", metavar="LIST",
                   help="channel records (chan_engine: AES-128 and TDEA CBC encryption of 1504-byte packets "
                   "interleaved over C channels, made when pipe is benchmarked) for these C (default "
                   "1,4,16,64,128; 1 .. 128; 'none': no channel records)")
    b.add_argument("--chan-round-regs", default="1", metavar="LIST",
                   help="ROUND_REGS of the cores for the channel records, one build each (default 1; "
                   "e.g. 1,2,3,4 for the depth sweep of docs/channels.md)")
    b.add_argument("--rekeys", type=int, default=12, metavar="N",
                   help="live-rekey record (aesip_top, Verilator, with iter128 and pipe): N keys committed "
                   "over AXI4-Lite under full load (default 12; 0: no rekey record)")

    sub.add_parser("synth", help="synthesis figures (Yosys/nextpnr); options: aesip synth --help",
                   add_help=False)

    d = sub.add_parser("demo", help="embedded workload through every core and a CCM packet mix through "
                       "the mode engine, checked against the reference")
    _add_sim_args(d, None, multi=True)
    d.add_argument("--random", type=int, default=3000, metavar="N",
                   help="random blocks per core (default 3000)")
    d.add_argument("--kat", choices=["all", "some", "none"], default="all",
                   help="NIST ECB KAT/MMT records: all (default, 2138), every 4th, or none")
    d.add_argument("--seed", type=int, help="seed of the random workload")
    d.add_argument("--ccm", type=int, default=400, metavar="N",
                   help="CCM packets through the mode engine (default 400; 0: skip)")
    d.add_argument("--ccm-core", default="iter128", choices=rtl.CORE_NAMES,
                   help="core the CCM mode engine is built on (default iter128)")
    d.add_argument("--json", action="store_true", help="print the table as JSON records")
    d.add_argument("--top", action="store_true",
                   help="instead: a scenario through the drop-in IP aesip_top (Verilator; on the --ccm-core "
                   "core): self-test, ID registers, key load over AXI4-Lite, CCM traffic, live rekey, tampered "
                   "packet, zeroize, with the register reads printed and every step checked (--engine, --random, "
                   "--kat, --ccm and --json do not apply)")
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
            from aesip import run

            return run.run_main(args)
        if args.command == "bench":
            from aesip import bench

            return bench.bench_main(args)
        if args.command == "demo" and args.top:
            from aesip import top_demo

            return top_demo.top_demo_main(args)
        if args.command == "demo":
            from aesip import demo

            return demo.demo_main(args)
    except UsageError as e:
        print(f"aesip {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except SimError as e:
        print(f"aesip {args.command}: error: {e}", file=sys.stderr)
        return EXIT_SIM
    except OSError as e:  # also BrokenPipeError, e.g. `aesip run | head`: one line, no traceback
        print(f"aesip {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
