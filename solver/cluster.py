"""A solve's batches spread over a Dask cluster (`gambler-solve --scheduler ADDR`).

A batch's chunks need only the tables as they were at the batch's start (`solver.mccfr`), so
each machine of a cluster can run some of them. Per batch:

1. the regret table is broadcast to the workers that take part;
2. each of those workers runs a contiguous range of the batch's chunks with every core it has
   (`mccfr.finite_batch`'s first_chunk), and sends back their deltas, each packed as its nonzero
   entries where that is smaller;
3. here, the deltas are unpacked into their rows and merged in chunk order, as a local batch is.

So the tables are those of a local run of the same config, bit for bit, whatever the cluster, and
a lost worker's chunks are rerun elsewhere to the same deltas. Workers need gambler installed (the
same version) and nothing else: the abstract game's arrays are sent to them once.

The traffic per batch is the regret table out to each worker (4 bytes an entry) and at most the
deltas back (8 bytes a touched entry and chunk, at most 8 an entry). Against the shipped blueprint
abstraction (18.6 M entries) that is 74 MB out per worker a batch, so a cluster wants batches long
enough for that to be small beside the solving: `batch` of a million iterations or more, and
`chunks` at least the cluster's cores (a chunk runs on one core). Both are in the solve config,
and both change the result, as they do locally.
"""

from __future__ import annotations

import threading

import numpy as np

from gambler.solver.errors import SolverError
from gambler.solver.solve import TABLE_DTYPE, AbstractGame, ChunkWork, run_chunks

CONNECT_SECONDS = 10  # how long to wait for the scheduler

#: numba's workqueue threading layer cannot run two parallel kernels at once in one process, and
#: Dask may put two workers in one process (`LocalCluster(processes=False)`): one at a time.
_KERNEL_LOCK = threading.Lock()


def pack(row: np.ndarray) -> tuple:
    """A delta row as ("dense", row) or ("sparse", indices, values), whichever is smaller."""
    indices = np.flatnonzero(row)
    if 2 * indices.size >= row.size:
        return ("dense", row)
    return ("sparse", indices.astype(np.int64 if row.size >= 2**31 else np.int32), row[indices])


def unpack(packed: tuple, out: np.ndarray) -> None:
    """Write a `pack`ed row into `out` (every entry)."""
    if packed[0] == "dense":
        out[:] = packed[1]
    else:
        out[:] = 0.0
        out[packed[1]] = packed[2]


def worker_chunks(work: ChunkWork, regrets: np.ndarray, seed: int, batch: int, iterations: int,
                  first_chunk: int, count: int, chunks: int,
                  prune: tuple[float, float]) -> list[tuple[tuple, tuple]]:
    """On a worker: chunks first_chunk .. first_chunk + count - 1 of the batch, as (packed
    regret delta, packed strategy delta) per chunk."""
    d_regrets = np.zeros((count, regrets.shape[0]), dtype=TABLE_DTYPE)
    d_strategy = np.zeros_like(d_regrets)
    with _KERNEL_LOCK:
        run_chunks(work, regrets, d_regrets, d_strategy, seed, batch, iterations, first_chunk,
                   chunks, prune)
    return [(pack(d_regrets[row]), pack(d_strategy[row])) for row in range(count)]


def chunk_ranges(chunks: int, threads: list[int]) -> list[tuple[int, int]]:
    """(first chunk, count) per worker: the chunks in contiguous ranges in proportion to the
    workers' threads (a worker may get none when there are fewer chunks than workers)."""
    total = sum(threads)
    bounds = [chunks * sum(threads[:k]) // total for k in range(len(threads) + 1)]
    return [(bounds[k], bounds[k + 1] - bounds[k]) for k in range(len(threads))]


def connect(address: str):
    """A Dask client of the scheduler at `address` (`SolverError` if there is none there, or no
    dask.distributed)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise SolverError("--scheduler needs dask.distributed: "
                          "pip install 'gambler[cluster]'") from None
    try:
        return Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as error:
        raise SolverError(f"cannot reach the Dask scheduler at {address}: {error}") from None


class SolveCluster:
    """A Dask client and an abstract game whose arrays its workers hold."""

    def __init__(self, client, game: AbstractGame):
        self.client = client
        self.work = client.scatter(game.chunk_work(), broadcast=True, hash=False)

    def describe(self) -> str:
        threads = self.client.nthreads()
        return f"{len(threads)} Dask workers, {sum(threads.values())} threads"

    def run_chunks(self, regrets: np.ndarray, d_regrets: np.ndarray, d_strategy: np.ndarray,
                   seed: int, batch: int, iterations: int, prune: tuple[float, float]) -> None:
        """Every chunk of a batch on the workers: their deltas in d_regrets and d_strategy."""
        chunks = d_regrets.shape[0]
        workers = sorted(self.client.nthreads().items())
        if not workers:
            raise SolverError("the Dask cluster has no workers")
        ranges = [(address, first, count) for (address, _), (first, count)
                  in zip(workers, chunk_ranges(chunks, [n for _, n in workers])) if count]
        addresses = [address for address, _, _ in ranges]
        tables = self.client.scatter(regrets, workers=addresses, broadcast=True, hash=False)
        futures = [self.client.submit(worker_chunks, self.work, tables, seed, batch, iterations,
                                      first, count, chunks, prune, workers=[address],
                                      allow_other_workers=True, pure=False)
                   for address, first, count in ranges]
        for future, (_, first, count) in zip(futures, ranges):
            for row, (regret, strategy) in enumerate(future.result()):
                unpack(regret, d_regrets[first + row])
                unpack(strategy, d_strategy[first + row])

    def close(self) -> None:
        self.client.close()
