"""Win rates against one uniformly random opponent hand: the number every decision starts from.

For our hole cards h and the visible board b, deal the opponent two cards and the rest of the
board uniformly without replacement from the unseen cards, and let W, T, L be the probabilities
that our best hand is better, equal, worse. The seed bot decides on v = W - L (its expected
share of the pot's contested half if nobody folded); equity is W + T / 2 = (1 + v) / 2.

* Exact (the default): preflop from the 169-class table (`evaluator.preflop`), otherwise by
  enumeration (`evaluator.showdown`): river 990 showdowns, turn 45,540, flop 1,070,190.
* Monte Carlo on request (`samples=N`): N independent deals, seeded; the standard error of v is
  sqrt((W + L - v^2) / N) with the sample rates (each deal scores +1, 0 or -1).

`win_rate` answers one spot; `win_rates` answers many rows at once, in parallel, with results that
do not depend on the number of threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from gambler.evaluator.cards import BOARD_SIZES, CardError, as_cards, card_text
from gambler.evaluator.hand_rank import distinct_codes
from gambler.evaluator.preflop import class_index, class_indices, load_table
from gambler.evaluator.showdown import (EXACT_KERNELS, batch_counts, sampled_counts,
                                sampled_preflop_counts)
from gambler.evaluator.rng import stream_seed
from gambler.evaluator.tables import load_tables
from gambler import MAX_SEED
from gambler.jit import njit



#: Monte Carlo deals per kernel call (about a quarter of a second): interrupts and progress
#: happen between calls. Up to this many samples, one call on stream 0 of the seed.
MONTE_CARLO_CHUNK = 10_000_000


@dataclass(frozen=True)
class WinRate:
    """W, T, L of one spot (fractions summing to 1) and how they were found."""

    win: float
    tie: float
    loss: float
    exact: bool
    samples: int | None = None  # Monte Carlo deals, None when exact
    seed: int | None = None     # the seed the deals were drawn with, None when exact

    @property
    def v(self) -> float:
        """W - L, in [-1, 1]."""
        return self.win - self.loss

    @property
    def equity(self) -> float:
        """W + T / 2, the expected share of the pot at showdown."""
        return self.win + self.tie / 2

    @property
    def std_error(self) -> float:
        """Standard error of v (0 when exact)."""
        if self.exact:
            return 0.0
        variance = self.win + self.loss - self.v ** 2
        return math.sqrt(max(variance, 0.0) / self.samples)

    @classmethod
    def from_counts(cls, wins: int, ties: int, losses: int, **how) -> WinRate:
        total = wins + ties + losses
        return cls(wins / total, ties / total, losses / total, **how)


def _resolve_seed(seed: int | None) -> int:
    if seed is None:
        return int(np.random.SeedSequence().entropy % (MAX_SEED + 1))
    if (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
            or not 0 <= seed <= MAX_SEED):
        raise CardError(f"seed must be an integer in 0..2**63-1, not {seed!r}")
    return int(seed)


def _check_samples(samples) -> None:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise CardError(f"samples must be a positive integer, not {samples!r}")


def win_rate(hole, board=(), samples: int | None = None, seed: int | None = None,
             progress=None) -> WinRate:
    """Win rate of `hole` (2 cards) on `board` (0, 3, 4 or 5 cards) against one random hand.

    Cards are strings (`"AsKc"`) or sequences of codes. `samples=None` is exact; `samples=N`
    draws N deals with `seed` (a fresh random seed if None, reported in the result), in chunks
    of `MONTE_CARLO_CHUNK` deals, chunk k from stream k of the seed (so Ctrl-C is answered
    between chunks, well within a second); `progress(done, total)` is told after each chunk.

    >>> win_rate("2c3d", "AsKsQsJsTs").equity  # the royal flush on board splits every pot
    0.5
    >>> rate = win_rate("AsKc", "Qh7c2d")  # 1,070,190 showdowns on the flop
    >>> [round(share * 1_070_190) for share in (rate.win, rate.tie, rate.loss)]
    [589791, 11469, 468930]
    """
    hole_codes = as_cards(hole, count=2, what="hole")
    board_codes = as_cards(board, count=BOARD_SIZES, what="board")
    hole_list, board_list = hole_codes.tolist(), board_codes.tolist()
    for card in hole_list:
        if card in board_list:
            raise CardError(f"card {card_text(card)} is both in the hole and on the board")
    if samples is None:
        if not board_list:
            wins, ties, losses = load_table()[class_index(*hole_list)].tolist()
        else:
            kernel = EXACT_KERNELS[len(board_list)]
            wins, ties, losses = kernel(load_tables(), hole_codes, board_codes)
        return WinRate.from_counts(wins, ties, losses, exact=True)
    _check_samples(samples)
    used_seed = _resolve_seed(seed)
    counts = np.zeros(3, dtype=np.int64)
    tables = load_tables()
    for chunk, start in enumerate(range(0, int(samples), MONTE_CARLO_CHUNK)):
        size = min(MONTE_CARLO_CHUNK, int(samples) - start)
        state = np.uint64(stream_seed(used_seed, chunk))
        if board_list:
            counts += sampled_counts(tables, hole_codes, board_codes, size, state)
        else:
            counts += sampled_preflop_counts(tables, hole_codes, size, state)
        if progress is not None:
            progress(start + size, int(samples))
    wins, ties, losses = counts.tolist()
    return WinRate.from_counts(wins, ties, losses, exact=False, samples=int(samples),
                               seed=used_seed)


# --- many rows at once ---------------------------------------------------------------------------

@dataclass(frozen=True)
class WinRates:
    """Per-row W, T, L (float64 arrays) of a batch, and how they were found."""

    win: np.ndarray
    tie: np.ndarray
    loss: np.ndarray
    exact: bool
    samples: int | None = None
    seed: int | None = None

    @property
    def v(self) -> np.ndarray:
        return self.win - self.loss

    @property
    def equity(self) -> np.ndarray:
        return self.win + self.tie / 2


@njit
def _first_invalid_batch_row(holes, boards, board_sizes):
    """First row whose hole and board prefix are not distinct codes 0..51, or -1."""
    cards = np.empty((1, 7), dtype=np.uint8)
    for row in range(holes.shape[0]):
        size = board_sizes[row]
        if size != 0 and size != 3 and size != 4 and size != 5:
            return row
        cards[0, 0], cards[0, 1] = holes[row, 0], holes[row, 1]
        cards[0, 2:2 + size] = boards[row, :size]
        if not distinct_codes(cards, 0, 2 + size):
            return row
    return -1


def _as_code_array(values, columns, name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != 2 or array.shape[1] not in columns:
        raise CardError(f"{name} must have shape (n, {' or '.join(map(str, columns))}), "
                        f"not {array.shape}")
    if array.dtype != np.uint8:
        if array.size and (not np.issubdtype(array.dtype, np.integer)
                           or array.min() < 0 or array.max() >= 52):
            raise CardError(f"{name} must hold integer card codes 0..51")
        array = array.astype(np.uint8)
    return np.ascontiguousarray(array)


def win_rates(holes, boards=None, board_sizes=None, samples: int | None = None,
              seed: int | None = 0) -> WinRates:
    """Win rates of many rows: hole `holes[i]` (uint8[n, 2]) on board `boards[i]`.

    `boards` is uint8[n, k] for a common board size k in (0, 3, 4, 5); with `board_sizes`
    (int[n]) it is uint8[n, 5] and row i uses its first `board_sizes[i]` cards. Exact unless
    `samples` is given; Monte Carlo rows use streams of `seed` by row index, so the result is the
    same on any number of threads. Preflop exact rows come from the class table.
    """
    holes = _as_code_array(holes, (2,), "holes")
    rows = holes.shape[0]
    if boards is None:
        boards = np.zeros((rows, 0), dtype=np.uint8)
    boards = _as_code_array(boards, (0, 3, 4, 5), "boards")
    if boards.shape[0] != rows:
        raise CardError(f"holes has {rows} rows but boards has {boards.shape[0]}")
    if board_sizes is None:
        sizes = np.full(rows, boards.shape[1], dtype=np.int64)
    else:
        sizes = np.asarray(board_sizes, dtype=np.int64).reshape(-1)
        if sizes.shape[0] != rows or boards.shape[1] != 5:
            raise CardError("board_sizes needs one size per row and boards of shape (n, 5)")
    padded = np.zeros((rows, 5), dtype=np.uint8)
    padded[:, :boards.shape[1]] = boards
    bad_row = _first_invalid_batch_row(holes, padded, sizes)
    if bad_row >= 0:
        raise CardError(f"row {bad_row}: hole {holes[bad_row].tolist()} and board "
                        f"{padded[bad_row, :max(sizes[bad_row], 0)].tolist()} are not "
                        "distinct codes 0..51 with 0, 3, 4 or 5 board cards")

    counts = np.zeros((rows, 3), dtype=np.int64)
    if samples is None:
        preflop = sizes == 0
        if preflop.any():
            counts[preflop] = load_table()[class_indices(holes[preflop])]
        later = np.flatnonzero(~preflop)
        if later.size:
            later_counts = np.zeros((later.size, 3), dtype=np.int64)
            batch_counts(load_tables(), holes[later], padded[later], sizes[later], 0, 0,
                         later_counts)
            counts[later] = later_counts
        how = dict(exact=True)
    else:
        _check_samples(samples)
        used_seed = _resolve_seed(seed)
        batch_counts(load_tables(), holes, padded, sizes, int(samples), used_seed, counts)
        how = dict(exact=False, samples=int(samples), seed=used_seed)
    total = counts.sum(axis=1)
    return WinRates(counts[:, 0] / total, counts[:, 1] / total, counts[:, 2] / total, **how)
