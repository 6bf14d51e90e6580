"""Deal sets: the cards of many heads-up hold'em hands, with everything that depends only on them.

A deal is two hole cards per position and a five-card board. Deal i of a seed is drawn from its
own SplitMix64 stream (`stream_seed(seed, i)`), so any range of a deal set can be regenerated on
its own. Because neither depends on how anyone plays, a deal set also carries

* `v[i, p, r]`: the win rate W - L of position p's hole cards on round r's board (r = 0 preflop
  .. 3 river), exact by default (the evaluator's preflop table and enumeration), or Monte Carlo
  with a fixed number of samples and the deal set's seed;
* `outcomes[i]`: +1 if position 0 wins the showdown, -1 if position 1 does, 0 for a split;
* `allin_equity[i, r]`: position 0's exact equity against position 1's cards with round r's
  board (r = 0 preflop, 1 flop, 2 turn): what a hand whose chips all went in during round r is
  worth, for the all-in adjusted results (`training.engine.adjusted_payoff_of`).

Computing v costs about 3 ms a deal exact (almost all of it the two flops), so deal sets are
cached on disk (`~/.cache/gambler/deals/`, or `$GAMBLER_DEALS`) and reused by every match and
every training run that asks for the same seed, range and method.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import uint64

from gambler.errors import GamblerError
from gambler.evaluator.hand_rank import rank_hands_unchecked
from gambler.evaluator.matchups import allin_equities
from gambler.evaluator.rates import win_rates
from gambler.evaluator.rng import GOLDEN_GAMMA, mix64, stream_seed
from gambler.evaluator.showdown import SAMPLER_VERSION
from gambler.jit import helper, njit

CHUNK = 2000  # deals per batch of win-rate work (the unit of progress reports)

#: Core-seconds per deal, for what `estimate_seconds` tells a user before a long computation: a
#: deal set's exact v (almost all of it the two flops), and LBR's holding tables (every holding's
#: v on three streets). Measured with one numba thread on a 2-core x86 VM (CPU time, compilation
#: excluded): 3.2 ms and 37 ms a deal.
DEAL_CORE_SECONDS = 0.0032
HOLDINGS_CORE_SECONDS = 0.037


def estimate_seconds(deals: int, core_seconds: float = DEAL_CORE_SECONDS,
                     cores: int | None = None) -> float:
    """About how long computing `deals` deals takes on `cores` (default: numba's threads)."""
    if cores is None:
        import numba

        cores = numba.get_num_threads()
    return deals * core_seconds / max(1, cores)


@helper
def _draw(cards, top, uniform):
    """One Fisher-Yates step: move a card chosen by `uniform` (32 random bits) below `top`.

    Returns (the card, the new top). Lemire's multiply-shift maps the bits to 0..top-1.
    """
    pick = (uniform * top) >> uint64(32)
    top -= uint64(1)
    card = cards[pick]
    cards[pick] = cards[top]
    cards[top] = card
    return card, top


@njit
def _deal_cards(seed, first_deal, holes, boards):
    """Deal i: nine cards by a partial Fisher-Yates shuffle of a fresh deck, from stream i."""
    cards = np.empty(9, dtype=np.uint8)
    for i in range(holes.shape[0]):
        deck = np.arange(52).astype(np.uint8)
        state = stream_seed(seed, first_deal + i)
        top = uint64(52)
        for k in range(9):
            state = state + GOLDEN_GAMMA
            card, top = _draw(deck, top, mix64(state) >> uint64(32))
            cards[k] = card
        holes[i, 0, 0], holes[i, 0, 1] = cards[0], cards[1]
        holes[i, 1, 0], holes[i, 1, 1] = cards[2], cards[3]
        for k in range(5):
            boards[i, k] = cards[4 + k]


def deal_cards(seed: int, first_deal: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(holes uint8[n, 2, 2], boards uint8[n, 5]) for deals first_deal .. first_deal + n - 1."""
    holes = np.empty((count, 2, 2), dtype=np.uint8)
    boards = np.empty((count, 5), dtype=np.uint8)
    _deal_cards(seed, first_deal, holes, boards)
    return holes, boards


class DealSetError(GamblerError, ValueError):
    """A deal set asked for in a way the cache cannot serve."""


@dataclass(frozen=True)
class DealSet:
    """Deals `first_deal .. first_deal + len - 1` of `seed`, with their win rates and outcomes."""

    seed: int
    first_deal: int
    method: str                 # "exact" or "mc<samples>v<sampler version>"
    holes: np.ndarray           # uint8[n, 2, 2]
    boards: np.ndarray          # uint8[n, 5]
    v: np.ndarray               # float64[n, 2, 4]
    outcomes: np.ndarray        # int8[n]
    allin_equity: np.ndarray    # float64[n, 3]

    def __len__(self) -> int:
        return self.outcomes.shape[0]

    @property
    def key(self) -> str:
        return f"s{self.seed}-d{self.first_deal}-n{len(self)}-{self.method}"

    def slice(self, start: int, stop: int) -> DealSet:
        return DealSet(self.seed, self.first_deal + start, self.method, self.holes[start:stop],
                       self.boards[start:stop], self.v[start:stop], self.outcomes[start:stop],
                       self.allin_equity[start:stop])

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp.npz")
        np.savez(temporary, seed=self.seed, first_deal=self.first_deal, method=self.method,
                 holes=self.holes, boards=self.boards, v=self.v, outcomes=self.outcomes,
                 allin_equity=self.allin_equity)
        temporary.replace(path)

    @classmethod
    def load(cls, path: Path) -> DealSet:
        """A saved deal set; one saved before the all-in equities existed gets them now."""
        with np.load(path) as data:
            holes, boards = data["holes"], data["boards"]
            equity = data["allin_equity"] if "allin_equity" in data.files else None
            if equity is None:
                equity = allin_equities(holes, boards)
            return cls(int(data["seed"]), int(data["first_deal"]), str(data["method"]),
                       holes, boards, data["v"], data["outcomes"], equity)


def deals_cache_dir() -> Path:
    """`$GAMBLER_DEALS`, else `deals/` under gambler's cache root (`gambler.caches`)."""
    from gambler import caches

    return caches.deals_dir()


def _method_name(samples: int | None) -> str:
    return "exact" if samples is None else f"mc{samples}v{SAMPLER_VERSION}"


def compute_deal_set(seed: int, first_deal: int, count: int, samples: int | None = None,
                     progress: Callable[[int], None] | None = None) -> DealSet:
    """Deal the cards and compute v and the outcomes (all cores, numba threads)."""
    holes, boards = deal_cards(seed, first_deal, count)
    return deal_set_from_cards(holes, boards, seed, first_deal, samples, progress)


def deal_set_from_cards(holes: np.ndarray, boards: np.ndarray, seed: int = 0,
                        first_deal: int = 0, samples: int | None = None,
                        progress: Callable[[int], None] | None = None) -> DealSet:
    """A deal set for given cards (holes uint8[n, 2, 2], boards uint8[n, 5]): v and outcomes."""
    count = holes.shape[0]
    v = np.empty((count, 2, 4), dtype=np.float64)
    for start in range(0, count, CHUNK):
        stop = min(count, start + CHUNK)
        rows = stop - start
        # Every (deal, position, street) row: hole and board prefix of 0, 3, 4 or 5 cards.
        row_holes = np.repeat(holes[start:stop].reshape(rows * 2, 2), 4, axis=0)
        row_boards = np.repeat(np.repeat(boards[start:stop], 2, axis=0), 4, axis=0)
        sizes = np.tile(np.array([0, 3, 4, 5]), rows * 2)
        rates = win_rates(row_holes, row_boards, board_sizes=sizes, samples=samples,
                          seed=seed * 7919 + first_deal + start)
        v[start:stop] = rates.v.reshape(rows, 2, 4)
        if progress is not None:
            progress(rows)
    seven = np.concatenate([holes.reshape(count * 2, 2), np.repeat(boards, 2, axis=0)], axis=1)
    values = rank_hands_unchecked(seven).astype(np.int64).reshape(count, 2)
    outcomes = np.sign(values[:, 0] - values[:, 1]).astype(np.int8)
    return DealSet(seed, first_deal, _method_name(samples), holes, boards, v, outcomes,
                   allin_equities(holes, boards))


#: Deals per block of a computation: each finished block is cached on its own, so an interrupted
#: computation keeps what it finished (a multiple of CHUNK: blocks give the same numbers).
BLOCK = 10 * CHUNK


def _cache_path(seed: int, first_deal: int, count: int, samples: int | None) -> Path:
    return deals_cache_dir() / f"s{seed}-d{first_deal}-n{count}-{_method_name(samples)}.npz"


def _load_cached(path: Path) -> DealSet | None:
    """A cached deal set, or None if the file is missing or damaged (then it is removed)."""
    if not path.exists():
        return None
    try:
        deals = DealSet.load(path)
        with np.load(path) as data:
            if "allin_equity" not in data.files:  # saved by an earlier version: upgrade
                deals.save(path)
        return deals
    except (OSError, ValueError, KeyError):
        path.unlink(missing_ok=True)  # a damaged cache file: compute it again
        return None


def _larger_cached(seed: int, first_deal: int, count: int,
                   samples: int | None) -> tuple[DealSet, Path] | None:
    """A cached set of the same seed, first deal and method with at least `count` deals: deal i
    is the same in every set, so its first `count` deals are the set asked for."""
    pattern = f"s{seed}-d{first_deal}-n*-{_method_name(samples)}.npz"
    sizes = []
    for path in deals_cache_dir().glob(pattern):
        size_text = path.name.split("-n", 1)[1].split("-", 1)[0]
        if size_text.isdigit() and int(size_text) > count:
            sizes.append((int(size_text), path))
    for _, path in sorted(sizes):
        deals = _load_cached(path)
        if deals is not None:
            return deals.slice(0, count), path
    return None


BYTES_PER_DEAL = 4 + 5 + 64 + 1 + 24  # holes, board, v, outcome, all-in equities


def _check_memory(count: int) -> None:
    """Refuse at once a set that could not fit in this machine's memory (rather than compute
    blocks for hours and fail at the end)."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return
    needed = count * BYTES_PER_DEAL
    if needed > memory:
        raise MemoryError(f"{count:,} deals need about {needed / 2**30:,.0f} GiB, more than this "
                          f"machine's {memory / 2**30:,.0f} GiB")


def concatenate(parts: list[DealSet]) -> DealSet:
    """Consecutive deal sets of one seed and method as one."""
    first = parts[0]
    return DealSet(first.seed, first.first_deal, first.method,
                   *(np.concatenate([getattr(part, name) for part in parts])
                     for name in ("holes", "boards", "v", "outcomes", "allin_equity")))


def cached_deal_set(seed: int, first_deal: int, count: int, samples: int | None = None,
                    progress: Callable[[int], None] | None = None,
                    announce: Callable[[int], None] | None = None) -> tuple[DealSet, Path]:
    """The deal set from the cache, computed and stored first if missing: (deals, its file).

    A larger cached set of the same seed serves any prefix of it (the file returned is then the
    larger one, whose first `count` deals these are). A computation runs in blocks of `BLOCK`
    deals, each cached as it finishes, so an interrupted one resumes where it stopped; the
    blocks make way for the whole set's file at the end. `announce(deals)` is told, once and
    before any computing starts, how many deals at most are left to compute (never, when the
    cache has them all): the moment to say how long it will take (`estimate_seconds`)."""
    path = _cache_path(seed, first_deal, count, samples)
    deals = _load_cached(path)
    if deals is None:
        larger = _larger_cached(seed, first_deal, count, samples)
        if larger is not None:
            deals, path = larger
    if deals is not None:
        if progress is not None:
            progress(count)
        return deals, path
    _check_memory(count)
    if count <= BLOCK:
        if announce is not None:
            announce(count)
        deals = compute_deal_set(seed, first_deal, count, samples, progress)
        deals.save(path)
        return deals, path
    blocks = []
    announced = announce is None
    for start in range(0, count, BLOCK):
        size = min(BLOCK, count - start)

        def announce_rest(_, remaining=count - start):  # cached blocks before it say nothing
            nonlocal announced
            if not announced:
                announced = True
                announce(remaining)

        block, _ = cached_deal_set(seed, first_deal + start, size, samples, progress,
                                   announce_rest)
        blocks.append(block)
    deals = concatenate(blocks)
    deals.save(path)
    for start in range(0, count, BLOCK):
        _cache_path(seed, first_deal + start, min(BLOCK, count - start),
                    samples).unlink(missing_ok=True)
    return deals, path


# --- every holding's v, for range models (LBR) ----------------------------------------------------

HOLDINGS_CHUNK = 1000  # deals per cached file of holding win rates (about 32 MB)


def holdings_cache_dir() -> Path:
    """`holdings/` beside the deals folder (`gambler.caches.holdings_dir`)."""
    from gambler import caches

    return caches.holdings_dir()


def _holding_rates_of(seed: int, start: int, count: int) -> np.ndarray:
    from gambler.evaluator.holdings import HOLDINGS, every_holding_rates
    from gambler.evaluator.tables import load_tables

    _, boards = deal_cards(seed, start, count)
    rates = np.empty((count, 3, HOLDINGS), dtype=np.float64)
    every_holding_rates(load_tables(), boards, rates)
    return rates


def cached_holding_rates(seed: int, start: int, count: int,
                         announce: Callable[[int], None] | None = None) -> np.ndarray:
    """v of every holding on the flop, turn and river of deals start .. start + count - 1 of
    `seed`: float64[count, 3, 1326] (`evaluator.holdings`), within one chunk of
    `HOLDINGS_CHUNK` deals. Cached on disk per chunk; a full chunk's file serves any prefix of
    it (deal i of a seed is the same in every set). `announce(deals)` is told how many deals'
    holdings are about to be computed, before computing them (never, when cached)."""
    chunk = start // HOLDINGS_CHUNK
    if (start + count - 1) // HOLDINGS_CHUNK != chunk or count < 1:
        raise DealSetError(f"cached_holding_rates reads within one chunk of {HOLDINGS_CHUNK:,} "
                           f"deals, not deals {start:,}..{start + count - 1:,}")
    directory = holdings_cache_dir()
    for size in (HOLDINGS_CHUNK, count):
        path = directory / f"s{seed}-d{chunk * HOLDINGS_CHUNK}-n{size}.npy"
        if path.exists() and size >= start - chunk * HOLDINGS_CHUNK + count:
            try:
                offset = start - chunk * HOLDINGS_CHUNK
                return np.load(path, mmap_mode="r")[offset:offset + count].copy()
            except (OSError, ValueError):
                path.unlink(missing_ok=True)  # a damaged cache file: compute it again
    first = chunk * HOLDINGS_CHUNK
    size = start - first + count
    if announce is not None:
        announce(size)
    rates = _holding_rates_of(seed, first, size)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"s{seed}-d{first}-n{size}.npy"
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp.npy")
    np.save(temporary, rates)
    temporary.replace(path)
    return rates[start - first:].copy()
