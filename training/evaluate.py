"""Duplicate evaluation: strategy A against strategy B over a deal set, with a confidence interval.

Each deal is played twice with the seats swapped; the unit of evaluation is the pair: A's chips
over its two hands, d_i. With n pairs, A's result is mean(d) / 2 chips per hand, reported in
milli-big-blinds per hand (mbb/hand = 1000 chips / big blind / hand), and its 95% confidence
interval is +- 1.96 sd(d) / sqrt(n) / 2, over pairs (the two hands of a pair are not
independent, the pairs are).

Where the work runs (`Backend`): in this process; in N local worker processes (`workers=N`); or
on a Dask distributed cluster (`scheduler="tcp://..."`, the `cluster` extra). Work is cut into
chunks of deals; every chunk's result depends only on its deal numbers, so the answer is the same
on any backend and any number of workers.
"""

from __future__ import annotations

import concurrent.futures
import math
import multiprocessing
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from gambler.errors import GamblerError
from gambler.training.deals import DealSet
from gambler.training.engine import NARROW, PROFILE, STRIDE, play_deals, range_cache

Z95 = 1.959963984540054
#: Student's t at 0.975 for 1 to 30 degrees of freedom (the standard tables, to 3 decimals).
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(degrees: int) -> float:
    """Student's t quantile at 0.975 for `degrees` degrees of freedom: the half-width of a 95%
    interval on a mean of degrees + 1 numbers is t95(degrees) x their sd / sqrt(count). Up to 30
    from the table; above, the Cornish-Fisher expansion in 1 / degrees about Z95 (its error
    under 1e-4 there). Below one degree of freedom there is no interval (inf).

    >>> t95(9), round(t95(60), 3), round(t95(1_000_000), 4), t95(0)
    (2.262, 2.0, 1.96, inf)
    """
    if degrees < 1:  # one number or none: no interval
        return math.inf
    if degrees <= len(_T975):
        return _T975[degrees - 1]
    z, n = Z95, float(degrees)
    return (z + (z ** 3 + z) / (4 * n) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * n ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * n ** 3))


@dataclass(frozen=True)
class Score:
    """A's result against one opponent: mbb/hand with its 95% half-width, over `deals` pairs."""

    mbb_per_hand: float
    ci95_mbb: float
    deals: int

    @property
    def hands(self) -> int:
        return 2 * self.deals

    def __str__(self) -> str:
        return f"{self.mbb_per_hand:+.1f} ± {self.ci95_mbb:.1f} mbb/hand"


def score_pairs(pair_chips: np.ndarray, big_blind: int) -> Score:
    """The `Score` of per-pair chip totals (A's chips over both hands of each deal)."""
    pairs = pair_chips.astype(np.float64)
    count = pairs.shape[0]
    scale = 1000.0 / big_blind / 2
    mean = float(pairs.mean()) * scale if count else 0.0
    spread = float(pairs.std(ddof=1)) * scale / math.sqrt(count) if count > 1 else math.inf
    return Score(mean, Z95 * spread, count)


def score_matches(pair_chips: np.ndarray, big_blind: int, match_deals: int) -> Score:
    """The `Score` of per-pair chip totals played as consecutive matches of `match_deals` deals
    against a bot that learns within a match (a portfolio): the mean over every pair, the 95%
    interval over the matches (each match's mean one number; the hands of a match are not
    independent when the bot learns from them), Student's t at len(matches) - 1 degrees of
    freedom (`t95`)."""
    pairs = pair_chips.astype(np.float64)
    scale = 1000.0 / big_blind / 2
    means = np.array([pairs[start:start + match_deals].mean() * scale
                      for start in range(0, len(pairs), match_deals)])
    mean = float(pairs.mean() * scale) if len(pairs) else 0.0
    return Score(mean, score_means(means).ci95_mbb, len(pairs))


def score_means(means) -> Score:
    """The `Score` of several matches' results (mbb/hand each, as many hands each): their mean,
    and the 95% Student t interval over them (the matches are independent; the hands of a match
    are not when a bot learns from them). `deals`: the number of matches."""
    values = np.asarray(means, dtype=np.float64)
    count = values.shape[0]
    if count < 2:
        return Score(float(values.mean()) if count else 0.0, math.inf, count)
    half = t95(count - 1) * float(values.std(ddof=1)) / math.sqrt(count)
    return Score(float(values.mean()), half, count)


# --- work units -----------------------------------------------------------------------------------

_WORKER_DEALS: dict[str, DealSet] = {}
_KEPT_DEAL_SETS = 8  # a training run alternates between its training, fresh and validation sets


def kept(cache: dict, key, make, limit: int = _KEPT_DEAL_SETS):
    """`cache[key]`, made by `make()` when missing; past `limit` entries the oldest goes (dicts
    keep insertion order). `limit` 0: nothing is kept, `make()` every time."""
    if limit <= 0:
        return cache[key] if key in cache else make()
    if key not in cache:
        if len(cache) >= limit:
            del cache[next(iter(cache))]
        cache[key] = make()
    return cache[key]


_RANGE_CACHES: dict[tuple, np.ndarray] = {}


def _range_cache_for(deals: DealSet, kind: int, params: np.ndarray, start: int, stop: int):
    """Deals start .. stop - 1 of this process's cache of range-aware v for the deal set and
    this profile's `narrow` setting (`engine.range_cache`), or None when the strategy does not
    narrow: the steps of a training run replay the same deals, so after the first the plans'
    exact range counts are looked up."""
    if kind != PROFILE:
        return None
    keep = tuple(np.asarray(params)[:4 * STRIDE].reshape(4, STRIDE)[:, NARROW].tolist())
    if min(keep) >= 1.0:
        return None
    key = (deals.seed, deals.first_deal, len(deals), deals.method, keep)
    return kept(_RANGE_CACHES, key, lambda: range_cache(len(deals)))[start:stop]


_HOLDING_RATES: dict[tuple, np.ndarray] = {}


def _holding_rates_for(deals: DealSet, pairs, start: int, stop: int):
    """Deals start .. stop - 1 of every holding's v on the deal set's boards, when some pair
    has a profile with range defence (`training.defended`), else None. Kept for the set's two
    latest uses in this process (about 32 KB a deal)."""
    from gambler.training.engine import uses_own_range

    if not any(uses_own_range(kind, np.asarray(params))
               for kind_a, params_a, kind_b, params_b in pairs
               for kind, params in ((kind_a, params_a), (kind_b, params_b))):
        return None
    from gambler.training.defended import deal_set_holding_rates

    key = (deals.seed, deals.first_deal, len(deals))
    rates = kept(_HOLDING_RATES, key, lambda: deal_set_holding_rates(*key), limit=2)
    return rates[start:stop]


class Chips(NamedTuple):
    """A's chips per deal (both hands of each duplicate pair) against one opponent."""

    raw: np.ndarray        # int64[n]: as the cards fell
    adjusted: np.ndarray   # float64[n]: all-in hands scored by their equity at the all-in


def _play_chunk(deals: DealSet | str, start: int, stop: int, rules, pairs, seed: int):
    """A's `Chips` per deal for each (kind_a, params_a, kind_b, params_b) in `pairs`.

    `deals` is the deal set, or (in worker processes) the path of its cache file, loaded once
    per process.
    """
    if isinstance(deals, str):
        path = deals
        deals = kept(_WORKER_DEALS, path, lambda: DealSet.load(path))
    part = deals.slice(start, stop)
    holding_v = _holding_rates_for(deals, pairs, start, stop)
    results = []
    for kind_a, params_a, kind_b, params_b in pairs:
        chips = np.zeros((stop - start, 2), dtype=np.int64)
        adjusted = np.zeros((stop - start, 2), dtype=np.float64)
        play_deals(rules, kind_a, params_a, kind_b, params_b, part.v, part.outcomes,
                   part.allin_equity, seed, part.first_deal, chips, adjusted, part.holes,
                   part.boards, cache_a=_range_cache_for(deals, kind_a, params_a, start, stop),
                   cache_b=_range_cache_for(deals, kind_b, params_b, start, stop),
                   holding_v=holding_v)
        results.append(Chips(chips.sum(axis=1), adjusted.sum(axis=1)))
    return results


def _warm_worker() -> None:
    """Load the engine in a fresh worker process (from numba's cache)."""
    rules = np.zeros(19, dtype=np.int64)
    rules[1], rules[3], rules[4] = 1, 1, 1
    play_deals(rules, 1, np.zeros(44), 1, np.zeros(44), np.zeros((0, 2, 4)),
               np.zeros(0, dtype=np.int8), np.zeros((0, 3)), 0, 0,
               np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2)))


class BackendError(GamblerError):
    """A backend that cannot start: no dask.distributed, or no scheduler at the address."""


CONNECT_SECONDS = 10  # how long to wait for a Dask scheduler


class Backend:
    """Runs chunks of engine work: here, in local processes, or on a Dask cluster."""

    def __init__(self, workers: int = 1, scheduler: str | None = None, client=None):
        self.workers = max(1, workers)
        self.pool = None
        self.client = client
        if scheduler is not None and client is None:
            try:
                from dask.distributed import Client
            except ImportError:
                raise BackendError("--scheduler needs dask.distributed: "
                                   "pip install 'gambler[cluster]'") from None
            try:
                self.client = Client(scheduler, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError, ValueError) as error:
                raise BackendError(f"cannot reach the Dask scheduler at {scheduler}: "
                                   f"{error}") from None
        if self.client is None and self.workers > 1:
            context = multiprocessing.get_context("spawn")  # no fork of numba's threads
            self.pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_warm_worker)
        self._scattered: dict[str, object] = {}

    @property
    def parallelism(self) -> int:
        if self.client is not None:
            return max(1, sum(self.client.nthreads().values()))
        return self.workers

    def run(self, deals: DealSet, deals_path: str | None, rules, pairs, seed: int) -> list[Chips]:
        """A's `Chips` per deal for each pair of encoded strategies."""
        count = len(deals)
        chunks = max(1, min(count, 4 * self.parallelism)) if self.parallelism > 1 else 1
        bounds = [(count * k // chunks, count * (k + 1) // chunks) for k in range(chunks)]
        if self.client is not None:
            source = kept(self._scattered, deals.key,
                           lambda: self.client.scatter(deals, broadcast=True))
            futures = [self.client.submit(_play_chunk, source, start, stop, rules, pairs, seed,
                                          pure=False) for start, stop in bounds]
            parts = self.client.gather(futures)
        elif self.pool is not None:
            if deals_path is None:
                raise BackendError("worker processes read deal sets from their cache files: "
                                   "give Backend.run the deal set's file")
            futures = [self.pool.submit(_play_chunk, str(deals_path), start, stop, rules, pairs,
                                        seed) for start, stop in bounds]
            parts = [future.result() for future in futures]
        else:
            parts = [_play_chunk(deals, start, stop, rules, pairs, seed)
                     for start, stop in bounds]
        return [Chips(np.concatenate([part[index].raw for part in parts]),
                      np.concatenate([part[index].adjusted for part in parts]))
                for index in range(len(pairs))]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
        if self.client is not None:
            self.client.close()
            self.client = None
