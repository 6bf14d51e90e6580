"""`gambler-solve --scheduler`: what a Dask cluster costs a batch, against the same batch here.

    python benchmarks/bench_solve_cluster.py [--batches 5] [--sizes 100000,1000000] [--from-run DIR]

One machine cannot show a cluster's gain, only its overhead: per batch the regret table goes out
to the worker and the chunks' deltas come back (`solver.cluster`). So this runs the shipped
blueprint abstraction's batches (configs/solve/blueprint.yaml, pruning as configured; with
`--from-run DIR`, from that run's last checkpoint, as late in a run) both here and on a local
Dask cluster of one worker process with every core, and prints the median iterations a second
of each and their ratio, per batch size. A cluster of n such machines runs about n times the
cluster rate, once the batch is long enough for the ratio to be near 1.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace
from pathlib import Path

from machine import machine_line


def median_rate(solve, batches: int, cluster=None) -> float:
    seconds = []
    for _ in range(batches):
        began = time.perf_counter()
        solve.run_batches(1, cluster)
        seconds.append(time.perf_counter() - began)
    return solve.settings.batch / statistics.median(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--from-run", default=None)
    options = parser.parse_args()

    import os

    from dask.distributed import Client, LocalCluster

    from gambler.solver.cluster import SolveCluster
    from gambler.solver.config import load_config
    from gambler.solver.run import abstract_game
    from gambler.solver.solve import Solve

    config = load_config("blueprint")
    game = abstract_game(config, print)
    start = (Solve.load_checkpoint(Path(options.from_run) / "checkpoint.npz", game)
             if options.from_run else None)
    cores = os.cpu_count()
    print(machine_line())
    print()
    rows = []
    with LocalCluster(n_workers=1, threads_per_worker=cores, processes=True,
                      dashboard_address=None) as local, Client(local) as client:
        cluster = SolveCluster(client, game)
        for size in (int(text) for text in options.sizes.split(",")):
            settings = replace(config.settings, batch=size, prune_after=0)
            pair = []
            for where in (None, cluster):
                solve = Solve(game, settings)
                if start is not None:
                    solve.regrets[:] = start.regrets
                    solve.strategy_sum[:] = start.strategy_sum
                    solve.batches = start.batches
                solve.compile()
                solve.run_batches(1, where)  # the worker's first batch loads its kernels
                pair.append(median_rate(solve, options.batches, where))
            rows.append((size, *pair))
    print(f"| batch (iterations) | here, it/s | Dask cluster, 1 worker x {cores} threads, it/s "
          "| cluster / here |")
    print("|---:|---:|---:|---:|")
    for size, here, there in rows:
        print(f"| {size:,} | {here:,.0f} | {there:,.0f} | {there / here:.2f} |")


if __name__ == "__main__":
    main()
