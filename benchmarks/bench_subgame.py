"""Subgame solving's cost: milliseconds a CFR+ iteration over exact hands, river and turn.

    python benchmarks/bench_subgame.py [--iterations 20] [--runs 3] [--curve]

Rows, each a median over `--runs` of `--iterations` iterations (after one untimed iteration,
which compiles the kernels), on the board AsKd7h4c(2s), both players 1,000 chips in:

* small ranges (the tests' five holdings each, overlapping) on the river, beside the peer
  measured in the same run on the same subgame: the games lab's CFR+ (`games.cfr`) on the
  subgame built as an extensive-form game (the tests' `_lab_game`: a chance node over the pairs
  of holdings, an information set per holding and public node);
* full ranges (every holding) on the river, bets of half the pot and the pot, two raises;
* full ranges on the turn, a pot-sized bet and one raise a street (the river dealt exactly).

With `--curve`, then the full-range turn subgame's exploitability (chips a hand, pot 2,000)
after 10, 30, 100 and 300 iterations, and the seconds they took.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the lab's version of a subgame

from machine import machine_line, median_seconds  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--curve", action="store_true", help="the turn's exploitability curve")
    options = parser.parse_args()

    import numpy as np

    from gambler.evaluator.cards import as_cards
    from gambler.games.cfr import solve
    from gambler.solver.subgame import Subgame
    from test_subgame import _lab_game, _small_ranges

    iterations, runs = options.iterations, options.runs
    river, turn = as_cards("AsKd7h4c2s"), as_cards("AsKd7h4c")

    def per_iteration(subgame) -> float:
        subgame.solve(1)
        return 1000 * median_seconds(lambda: subgame.solve(iterations), runs) / iterations

    print(machine_line())
    print()
    print("| subgame | public nodes | ms an iteration | peer, ms an iteration | peer / this |")
    print("|---|---|---|---|---|")
    small = Subgame(river, _small_ranges(1), spent=1000, stack=4000)
    lab, _ = _lab_game(small)
    solve(lab, "cfr+", iterations=1)
    lab_ms = 1000 * median_seconds(lambda: solve(lab, "cfr+", iterations=iterations),
                                   runs) / iterations
    mine = per_iteration(small)
    print(f"| river, 5 holdings each | {small.tree.nodes:,} | {mine:.3f} | {lab_ms:.3f} "
          f"(games lab CFR+) | {lab_ms / mine:.2f} |")
    for label, board, fractions, raises in (
            ("river, full ranges, 1/2 pot and pot, 2 raises", river, (0.5, 1.0), 2),
            ("turn, full ranges, pot, 1 raise a street", turn, (1.0,), 1)):
        subgame = Subgame(board, np.ones((2, 1326)), spent=1000, fractions=fractions,
                          max_raises=raises)
        print(f"| {label} | {subgame.tree.nodes:,} | {per_iteration(subgame):.2f} | | |")
    if options.curve:
        import time

        subgame = Subgame(turn, np.ones((2, 1326)), spent=1000, fractions=(1.0,), max_raises=1)
        print()
        print("| turn, full ranges: iterations | seconds | exploitability, chips a hand |")
        print("|---|---|---|")
        seconds = 0.0  # solving only, not the best responses
        for total in (10, 30, 100, 300):
            started = time.perf_counter()
            subgame.solve(total - subgame.iterations)
            seconds += time.perf_counter() - started
            print(f"| {total} | {seconds:.1f} | {subgame.exploitability():.2f} |")


if __name__ == "__main__":
    main()
