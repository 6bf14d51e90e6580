"""A solve whose batches' chunks run on a Dask cluster has the tables of a local run, bit for bit.

Two in-process workers with one and two threads, so the chunks split unevenly (`chunk_ranges`),
and more chunks than threads; on Leduc (a finite deal list) and on hold'em through a card
abstraction, the two kernels a blueprint solve can use.
"""

from __future__ import annotations

import numpy as np
import pytest

from gambler.protocol.gamedef import load_game
from gambler.solver.betting import BettingAbstraction, build_tree
from gambler.solver.cluster import SolveCluster, chunk_ranges, connect, pack, unpack
from gambler.solver.deals import lossless_deals
from gambler.solver.config import load_config
from gambler.solver.errors import SolverError
from gambler.solver.run import SolveRun
from gambler.solver.solve import AbstractGame, Solve, SolveSettings

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def client():
    workers = {name: {"cls": distributed.Worker, "options": {"nthreads": threads}}
               for name, threads in (("one", 1), ("two", 2))}
    scheduler = {"cls": distributed.Scheduler, "options": {"dashboard_address": None}}
    with distributed.SpecCluster(workers, scheduler) as cluster, \
            distributed.Client(cluster) as client:
        client.wait_for_workers(2)
        yield client


def leduc() -> AbstractGame:
    game = load_game("leduc.limit.2p.game")
    return AbstractGame(build_tree(game, BettingAbstraction(((),) * 2, all_in=False)),
                        lossless_deals(game))


def small_holdem() -> AbstractGame:
    from solver_support import synthetic_card_abstraction

    tree = build_tree(load_game(), BettingAbstraction(((1.0,),) * 4, True, (1, 1, 1, 1)))
    return AbstractGame(tree, synthetic_card_abstraction(3, 0))


@pytest.mark.parametrize("make_game, settings, batches", [
    (leduc, SolveSettings(weighting="dcfr", batch=700, chunks=5, seed=4), 6),
    (small_holdem, SolveSettings(batch=500, chunks=4, seed=2, prune_below=-50.0,
                                 prune_after=2), 5),
])
def test_a_cluster_solve_has_a_local_solves_tables(client, make_game, settings, batches):
    game = make_game()
    local = Solve(game, settings)
    local.run_batches(batches)
    spread = Solve(game, settings)
    cluster = SolveCluster(client, game)
    spread.run_batches(batches, cluster)
    assert spread.batches == local.batches == batches
    assert local.regrets.any() and local.strategy_sum.any()
    assert np.array_equal(spread.regrets, local.regrets)
    assert np.array_equal(spread.strategy_sum, local.strategy_sum)


def test_chunks_split_over_workers_by_their_threads():
    assert chunk_ranges(5, [1, 2]) == [(0, 1), (1, 4)]
    assert chunk_ranges(6, [2, 2, 2]) == [(0, 2), (2, 2), (4, 2)]
    assert chunk_ranges(1, [1, 1]) == [(0, 0), (0, 1)]


def test_a_delta_row_survives_packing_sparse_or_dense():
    sparse = np.zeros(100, dtype=np.float32)
    sparse[[3, 97]] = (1.5, -2.25)
    dense = np.arange(1, 11, dtype=np.float32)
    for row, form in ((sparse, "sparse"), (dense, "dense")):
        packed = pack(row)
        assert packed[0] == form
        out = np.full_like(row, 7.0)
        unpack(packed, out)
        assert np.array_equal(out, row)


def test_gambler_solve_on_a_cluster_writes_a_local_runs_strategy(client, tmp_path):
    import subprocess
    import sys

    config = tmp_path / "leduc.yaml"
    config.write_text("game: leduc.limit.2p.game\ncards: lossless\n"
                      "solver: {batch: 400, chunks: 3}\niterations: 4000\n")
    address = client.scheduler.address
    result = subprocess.run([sys.executable, "-m", "gambler.solver.cli", str(config),
                             "--run-dir", str(tmp_path / "cluster"), "--scheduler", address],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    SolveRun.start(tmp_path / "local", load_config(str(config), 0), None, None).run()
    assert f"chunks run on 2 Dask workers, 3 threads at {address}" in result.stderr
    assert np.array_equal(np.load(tmp_path / "local" / "strategy.npy"),
                          np.load(tmp_path / "cluster" / "strategy.npy"))


def test_no_scheduler_at_the_address_is_one_line_and_no_run(tmp_path):
    import subprocess
    import sys

    with pytest.raises(SolverError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        connect("tcp://127.0.0.1:9")
    result = subprocess.run([sys.executable, "-m", "gambler.solver.cli", "leduc", "--run-dir",
                             str(tmp_path / "run"), "--scheduler", "tcp://127.0.0.1:9"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 1 and not (tmp_path / "run").exists()
    [line] = result.stderr.splitlines()
    assert line.startswith("gambler-solve: error: cannot reach the Dask scheduler at "
                           "tcp://127.0.0.1:9")
