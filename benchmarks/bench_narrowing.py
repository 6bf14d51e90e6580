"""Range-aware v: the latency of a live decision, and the cost of modelling it for LBR.

    python benchmarks/bench_narrowing.py [--decisions 2000]

1. A live decision: `ProfileStrategy.act` of a range-aware profile (`tests/data/profiles/
   v2-narrow.yaml`) on random flop, turn and river states in which the opponent raised before
   and in the round (so v is computed against the narrowed range, exactly), p50 and p99 over
   the decisions; the peer is the same profile with `narrow` off (the plain exact v) on the same
   states, and the ratio of the medians.
2. What LBR pays to model such a bot: v of every holding against the narrowed range at once
   (`every_holding_range_v`), against one hand's range-aware v times the 1,081 holdings.

Prints one markdown table, the machine line first.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from machine import machine_line

ROOT = Path(__file__).resolve().parent.parent
BETTING = {3: "r300c/r600", 4: "r300c/r600c/r1800", 5: "r300c/r600c/r1800c/r5000"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=2000)
    options = parser.parse_args()

    import numpy as np

    from gambler.bot.params import load_profile
    from gambler.bot.strategies import ProfileStrategy
    from gambler.evaluator.cards import card_text
    from gambler.evaluator.holdings import HOLDINGS
    from gambler.evaluator.narrowing import (every_holding_range_v, holding_preflop_v,
                                             narrowed_range, range_aware_v)
    from gambler.evaluator.tables import load_tables
    from gambler.protocol import load_game, parse_matchstate

    game = load_game()
    narrow = load_profile(ROOT / "tests" / "data" / "profiles" / "v2-narrow.yaml")
    plain = replace(narrow, rounds=tuple(replace(r, narrow=1.0) for r in narrow.rounds))
    rng = np.random.default_rng(1)
    rows = []
    for size, name in ((3, "flop"), (4, "turn"), (5, "river")):
        states = []
        for hand in range(options.decisions):
            cards = [card_text(int(c)) for c in rng.permutation(52)[:2 + size]]
            board = "/".join(["".join(cards[2:5])] + cards[5:])
            # Position 1 to act, facing the opponent's raise; the opponent raised every round.
            states.append(parse_matchstate(game, f"MATCHSTATE:1:{hand}:{BETTING[size]}:"
                                                 f"|{''.join(cards[:2])}/{board}"))
        times = {}
        for label, profile in (("range-aware", narrow), ("plain", plain)):
            strategy = ProfileStrategy(profile)
            strategy.act(states[0])  # compile or load the kernels
            elapsed = []
            for state in states:
                started = time.perf_counter()
                strategy.act(state)
                elapsed.append(time.perf_counter() - started)
            if label == "range-aware":
                assert strategy.range_plans_made >= len(states) - 5
            times[label] = np.array(elapsed) * 1000
        ranged, peer = times["range-aware"], times["plain"]
        rows.append((f"live decision, {name}: range-aware v (p50 / p99 ms)",
                     f"{np.median(ranged):.2f} / {np.percentile(ranged, 99):.2f}",
                     f"plain exact v: {np.median(peer):.2f} / {np.percentile(peer, 99):.2f}",
                     f"{np.median(ranged) / np.median(peer):.1f}x"))

    tables = load_tables()
    preflop_v = holding_preflop_v()
    keep = np.array(narrow.keep)
    for size, name in ((3, "flop"), (4, "turn")):
        every_ms, one_ms = [], []
        for _ in range(10):
            cards = rng.permutation(52)[:2 + size].astype(np.uint8)
            board = cards[2:]
            weights = np.empty(HOLDINGS)
            narrowed_range(tables, board, preflop_v, 0b11, keep, weights)
            out = np.empty(HOLDINGS)
            started = time.perf_counter()
            every_holding_range_v(tables, board, weights, out)
            every_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            for _ in range(20):
                range_aware_v(tables, cards[:2], board, preflop_v, 0b11, keep)
            one_ms.append((time.perf_counter() - started) / 20 * 1000)
        holdings = 1081 if size == 3 else 1035
        rows.append((f"every holding's range-aware v, {name} (ms)", f"{np.median(every_ms):.1f}",
                     f"one hand x {holdings:,}: {np.median(one_ms) * holdings:.0f}",
                     f"{np.median(one_ms) * holdings / np.median(every_ms):.0f}x faster"))

    print(machine_line() + f", {options.decisions:,} decisions a street")
    print()
    print("| figure | gambler | peer (same run) | ratio |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
