"""The MCCFR solver: iterations a second on two cores, and exploitability against iterations.

    python benchmarks/bench_solver.py [--batches 10] [--curve-batches 1000] [--from-run DIR]

Prints two markdown tables.

1. Speed (median of `--batches` batches of 100,000 iterations; an iteration is a deal and a
   traversal for each position): the shipped blueprint's abstraction (configs/solve/blueprint.yaml,
   its card abstraction built first if it is not cached: minutes) from zero regrets without
   pruning, and with regret-based pruning after its warm-up; with `--from-run DIR` (a finished
   `gambler-solve blueprint` run), also with pruning from that run's last checkpoint (regrets
   grown by the whole run, so pruned as late in a run) and the run's own average over its
   whole length (its log); and Leduc hold'em, beside the games lab's own external-sampling
   MCCFR on Leduc, the peer measured in the same run.
2. The curve: exact exploitability (mbb/hand) of the average strategy in a small hold'em
   abstraction (`solver.deals.category_deals`: pot raises and all-in, made-hand buckets with
   perfect recall, 20,000 fixed deals) after 2,000 to 2,000,000 iterations.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

from machine import machine_line


def rates(solve, batches: int) -> float:
    """The median iterations a second of `batches` single batches."""
    seconds = []
    for _ in range(batches):
        began = time.perf_counter()
        solve.run_batches(1)
        seconds.append(time.perf_counter() - began)
    return solve.settings.batch / statistics.median(seconds)


def speed_rows(batches: int, from_run: str | None = None) -> list[tuple[str, float]]:
    from gambler.games.cfr import solve as lab_solve
    from gambler.games.poker_trees import leduc_tree
    from gambler.solver.config import load_config
    from gambler.solver.run import abstract_game
    from gambler.solver.solve import Solve

    config = load_config("blueprint")
    game = abstract_game(config, print)
    unpruned = Solve(game, replace(config.settings, prune_below=None))
    unpruned.compile()
    rows = [(f"blueprint abstraction ({game.tree.nodes:,} nodes, {game.information_sets():,} "
             "information sets), no pruning", rates(unpruned, batches))]
    pruned = Solve(game, config.settings)
    pruned.compile()
    pruned.run_batches(config.settings.prune_after + 10)  # the warm-up, and regrets to prune by
    rows.append((f"the same, pruning after batch {config.settings.prune_after} (measured from "
                 f"batch {pruned.batches})", rates(pruned, batches)))
    del pruned, unpruned
    if from_run:
        import json
        from pathlib import Path

        late = Solve.load_checkpoint(Path(from_run) / "checkpoint.npz", game)
        late.compile()
        rows.append((f"the same, pruning, from {from_run} at {late.iterations:,} iterations",
                     rates(late, batches)))
        last = json.loads((Path(from_run) / "log.jsonl").read_text().splitlines()[-1])
        rows.append((f"{from_run}: its average over {last['iterations']:,} iterations (its log)",
                     float(last["iterations_per_second"])))
        del late
    leduc = load_config("leduc")
    leduc_game = abstract_game(leduc)
    small = Solve(leduc_game, replace(leduc.settings, batch=100_000))
    small.compile()
    rows.append(("Leduc hold'em (solver)", rates(small, batches)))
    tree = leduc_tree()
    lab_solve(tree, "mccfr", 1000, seed=1)  # compile
    began = time.perf_counter()
    lab_solve(tree, "mccfr", 1_000_000, seed=1)
    rows.append(("Leduc hold'em (games lab mccfr, peer)", 1_000_000 /
                 (time.perf_counter() - began)))
    return rows


def curve_rows(max_batches: int) -> list[tuple[int, float]]:
    from gambler.protocol.gamedef import load_game
    from gambler.solver.betting import BettingAbstraction, build_tree
    from gambler.solver.deals import category_deals
    from gambler.solver.solve import AbstractGame, Solve, SolveSettings, exploitability

    game = load_game()
    tree = build_tree(game, BettingAbstraction(((1.0,),) * 4, True, (2, 1, 1, 1)))
    abstract = AbstractGame(tree, category_deals(game, 20_000, seed=1))
    solve = Solve(abstract, SolveSettings(batch=2000, chunks=2, seed=2))
    rows = []
    batches = 1
    while batches <= max_batches:
        solve.run_batches(batches - solve.batches)
        _, br0, br1 = exploitability(abstract, solve.policy())
        rows.append((solve.iterations, (br0 + br1) / 2 / game.big_blind * 1000))
        batches *= 10
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--curve-batches", type=int, default=1000)
    parser.add_argument("--from-run", default=None, help="a finished `gambler-solve blueprint` "
                        "run folder: also measure pruning from its last checkpoint")
    options = parser.parse_args()
    print(machine_line())
    print()
    rows = speed_rows(options.batches, options.from_run)
    peer = rows[-1][1]
    print("| solve | iterations/s | vs the lab's Leduc MCCFR |")
    print("|---|---:|---:|")
    for name, rate in rows:
        print(f"| {name} | {rate:,.0f} | {rate / peer:.2f} |")
    print()
    print("| iterations | exploitability, mbb/hand |")
    print("|---:|---:|")
    for iterations, mbb in curve_rows(options.curve_batches):
        print(f"| {iterations:,} | {mbb:,.1f} |")


if __name__ == "__main__":
    main()
