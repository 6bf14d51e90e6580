"""The bot through `gambler-dealer` on loopback: ms/hand and decision latency.

    python benchmarks/bench_bot.py [--hands 2000] [--blueprint blueprint]

Runs three matches, each as separate processes (dealer + two `gambler`), and prints one markdown
table: wall-clock ms/hand over the match (the dealer's and both bots' work, on this machine's two
cores) and each side's decision latency p50/p99 as the bot reports it. The peer measured in the
same run is `random` against `random`: the cost of the protocol and the processes alone. With
`--blueprint NAME` (an installed blueprint, `gambler-solve --install`), a fourth match: the
blueprint against the seed bot.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from machine import machine_line

GAME = "holdem.nolimit.2p.reverse_blinds.game"
SUMMARY = re.compile(r"gambler: ([\d,]+) hands.*latency p50 ([\d.]+) ms, p99 ([\d.]+) ms")


def match(first: str, second: str, hands: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        dealer = subprocess.Popen([sys.executable, "-m", "gambler.protocol.dealer_cli", "bench", GAME,
                                   str(hands), str(seed), "one", "two", "-q"], cwd=folder,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        ports = dealer.stdout.readline().split()
        bots = [subprocess.Popen([sys.executable, "-m", "gambler.bot.cli", "127.0.0.1", port,
                                  "--params", params, "--quiet", "--seed", str(seat)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                for seat, (port, params) in enumerate(zip(ports, (first, second)))]
        started = None
        # The match clock starts when the dealer deals (after both bots' start-up): the first
        # hand's line in the log.
        log = os.path.join(folder, "bench.log")
        while started is None:
            if os.path.exists(log) and "STATE:" in open(log).read():
                started = time.perf_counter()
            time.sleep(0.001)
        outputs = [bot.communicate()[1] for bot in bots]
        dealer.communicate()
        seconds = time.perf_counter() - started
    latency = [SUMMARY.search(output).groups() for output in outputs]
    return {"ms_per_hand": 1000 * seconds / (hands - 1),
            "p50": [float(p50) for _, p50, _ in latency],
            "p99": [float(p99) for _, _, p99 in latency]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--blueprint", default=None, help="also play this blueprint against "
                        "the seed bot")
    options = parser.parse_args()
    floor = match("random", "random", options.hands, 1)
    rows = [("random vs random (protocol floor)", floor)]
    rows.append(("seed bot vs random", match("seed", "random", options.hands, 2)))
    rows.append(("seed bot vs seed bot", match("seed", "seed", options.hands, 3)))
    if options.blueprint:
        rows.append((f"{options.blueprint} vs seed bot",
                     match(options.blueprint, "seed", options.hands, 4)))
    print(f"{machine_line()}; {options.hands} hands per match, exact win rates")
    print()
    print("| match | ms/hand | ratio to the floor | latency p50 / p99 (first bot) | "
          "latency p50 / p99 (second bot) |")
    print("|---|---|---|---|---|")
    for name, result in rows:
        print(f"| {name} | {result['ms_per_hand']:.2f} | "
              f"{result['ms_per_hand'] / floor['ms_per_hand']:.2f}x | "
              f"{result['p50'][0]:.3f} / {result['p99'][0]:.3f} ms | "
              f"{result['p50'][1]:.3f} / {result['p99'][1]:.3f} ms |")


if __name__ == "__main__":
    main()
