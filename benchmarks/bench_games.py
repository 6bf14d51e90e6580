"""CFR+ on Kuhn and Leduc: time per iteration and exploitability, against OpenSpiel's C++ solver.

    python -m pip install open_spiel        # the peer, for this script only
    python benchmarks/bench_games.py [--quick]

Both solvers run the same number of iterations in the same process; the table gives the median
time per iteration over repeated runs, the exploitability (NashConv / 2, each library's own exact
best response) of the average policy, and the speed ratio. Without OpenSpiel the peer columns are
empty.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from gambler.games.cfr import average_policy, cfr_iterations, exploitability
from gambler.games.poker_trees import kuhn_tree, leduc_tree
from machine import machine_line


def ours(tree, iterations: int) -> tuple[float, float]:
    regrets = np.zeros((tree.infosets, tree.max_actions))
    strategy_sum = np.zeros_like(regrets)
    started = time.perf_counter()
    cfr_iterations(*tree.arrays(), regrets, strategy_sum, 1, iterations, 1)
    seconds = time.perf_counter() - started
    return seconds / iterations, exploitability(tree, average_policy(tree, strategy_sum))


def openspiel(name: str, iterations: int) -> tuple[float, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    solver = pyspiel.CFRPlusSolver(game)
    started = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = time.perf_counter() - started
    return seconds / iterations, pyspiel.exploitability(game, solver.average_policy())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args()
    repeats = 3 if options.quick else 5
    cases = [("Kuhn", kuhn_tree(), "kuhn_poker", 10_000),
             ("Leduc", leduc_tree(), "leduc_poker", 200 if options.quick else 1000)]
    ours(cases[0][1], 10)  # load the kernels
    print(f"{machine_line()}; CFR+ (alternating updates, regret matching+, "
          f"linear averaging), medians of {repeats} runs")
    print()
    print("| game | iterations | gambler per iteration | exploitability | OpenSpiel C++ per "
          "iteration | OpenSpiel exploitability | speed ratio |")
    print("|---|---|---|---|---|---|---|")
    for label, tree, name, iterations in cases:
        runs = [ours(tree, iterations) for _ in range(repeats)]
        time_ours = statistics.median(seconds for seconds, _ in runs)
        peer_runs = [openspiel(name, iterations) for _ in range(max(1, repeats // 2))]
        if peer_runs[0] is None:
            peer = ("", "", "")
        else:
            time_peer = statistics.median(seconds for seconds, _ in peer_runs)
            peer = (f"{time_peer * 1e3:.3f} ms", f"{peer_runs[0][1]:.2g}",
                    f"{time_peer / time_ours:.1f}x")
        print(f"| {label} | {iterations:,} | {time_ours * 1e3:.4f} ms | {runs[0][1]:.2g} | "
              f"{peer[0]} | {peer[1]} | {peer[2]} |")


if __name__ == "__main__":
    main()
