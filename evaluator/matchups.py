"""Exact equity of one hand against another: the showdown of two known holdings.

For holdings A and B and a board of k = 0, 3, 4 or 5 cards, every completion of the board from
the 48 - k cards left is dealt once and both hands are valued: C(48, 5) = 1,712,304 boards before
the flop, C(45, 2) = 990 on the flop, 44 on the turn, 1 on the river. `matchup_counts` gives A's
(wins, ties, losses) by that enumeration.

Before the flop that is 3.4 million hand values a matchup, too slow for every hand of a match, so
the preflop counts ship as a table (`evaluator/data/matchups.npz`, built by
`python -m gambler.evaluator.matchups`). Relabelling suits changes no showdown, so the table holds one
row per class of matchups under the 24 permutations of the suits, and one orientation of each
unordered pair: 47,008 rows for the 812,175 unordered pairs of disjoint holdings. A matchup's key
is the smallest, over the suit permutations, of the four card codes (each hand's two cards
high first) read as a base-52 number; the row is stored under the smaller of the keys of (A, B)
and (B, A), with the counts of the hand written first.

`matchup(hole_a, hole_b, board)` answers any spot (the table before the flop, enumeration after),
and `allin_equities` the equities of many deals at once, as the all-in adjustment needs them.
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import prange

from gambler.evaluator.cards import BOARD_SIZES, CardError, as_cards, card_text
from gambler.evaluator.hand_rank import hand_value
from gambler.evaluator.showdown import SUIT_COUNTERS_START, keys_bits_except
from gambler.evaluator.tables import EvaluatorDataError, load_tables, read_data_file
from gambler.jit import helper, njit

PREFLOP_BOARDS = 1_712_304  # C(48, 5)
MATCHUP_CLASSES = 47_008
DATA_FILE = Path(__file__).resolve().parent / "data" / "matchups.npz"
#: int64[24, 4]: every permutation of the four suits.
SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


@njit
def matchup_counts(tables, hole_a, hole_b, board):
    """A's (wins, ties, losses) against B over every completion of `board` (0, 3, 4, 5 cards)."""
    taken = np.int64(0)
    for card in (hole_a[0], hole_a[1], hole_b[0], hole_b[1]):
        taken |= np.int64(1) << card
    board_key = SUIT_COUNTERS_START
    board_bits = np.int64(0)
    for k in range(board.shape[0]):
        taken |= np.int64(1) << board[k]
        board_key += tables.card_keys[board[k]]
        board_bits |= tables.card_bits[board[k]]
    rest = 52 - 4 - board.shape[0]
    keys, bits = keys_bits_except(tables, taken, rest)
    key_a = tables.card_keys[hole_a[0]] + tables.card_keys[hole_a[1]]
    bits_a = tables.card_bits[hole_a[0]] | tables.card_bits[hole_a[1]]
    key_b = tables.card_keys[hole_b[0]] + tables.card_keys[hole_b[1]]
    bits_b = tables.card_bits[hole_b[0]] | tables.card_bits[hole_b[1]]
    missing = 5 - board.shape[0]
    wins = 0
    ties = 0
    total = 0
    if missing == 0:
        wins, ties, total = _showdown(tables, board_key, board_bits, key_a, bits_a, key_b, bits_b)
    elif missing == 1:
        for i in range(rest):
            w, t, n = _showdown(tables, board_key + keys[i], board_bits | bits[i],
                                key_a, bits_a, key_b, bits_b)
            wins += w
            ties += t
            total += n
    elif missing == 2:
        for i in range(rest - 1):
            for j in range(i + 1, rest):
                w, t, n = _showdown(tables, board_key + keys[i] + keys[j],
                                    board_bits | bits[i] | bits[j], key_a, bits_a, key_b, bits_b)
                wins += w
                ties += t
                total += n
    else:
        wins, ties, total = _preflop_counts(tables, board_key, keys, bits, key_a, bits_a, key_b,
                                            bits_b)
    return wins, ties, total - wins - ties


@helper
def _showdown(tables, board_key, board_bits, key_a, bits_a, key_b, bits_b):
    value_a = hand_value(tables, board_key + key_a, board_bits | bits_a)
    value_b = hand_value(tables, board_key + key_b, board_bits | bits_b)
    return int(value_a > value_b), int(value_a == value_b), 1


@helper
def _preflop_counts(tables, start_key, keys, bits, key_a, bits_a, key_b, bits_b):
    """Every five-card board from the cards whose keys and bits are given, built incrementally."""
    rest = keys.shape[0]
    wins = 0
    ties = 0
    total = 0
    for i in range(rest - 4):
        key_i = start_key + keys[i]
        bits_i = bits[i]
        for j in range(i + 1, rest - 3):
            key_j = key_i + keys[j]
            bits_j = bits_i | bits[j]
            for k in range(j + 1, rest - 2):
                key_k = key_j + keys[k]
                bits_k = bits_j | bits[k]
                for m in range(k + 1, rest - 1):
                    key_m = key_k + keys[m]
                    bits_m = bits_k | bits[m]
                    for n in range(m + 1, rest):
                        key = key_m + keys[n]
                        board_bits = bits_m | bits[n]
                        value_a = hand_value(tables, key + key_a, board_bits | bits_a)
                        value_b = hand_value(tables, key + key_b, board_bits | bits_b)
                        wins += value_a > value_b
                        ties += value_a == value_b
                        total += 1
    return wins, ties, total


# --- the preflop table ---------------------------------------------------------------------------

@helper
def oriented_key(permutations, a0, a1, b0, b1):
    """The smallest base-52 key of (A, B) over the suit permutations."""
    best = np.int64(52 ** 4)
    for p in range(permutations.shape[0]):
        c0 = (a0 >> 2) * 4 + permutations[p, a0 & 3]
        c1 = (a1 >> 2) * 4 + permutations[p, a1 & 3]
        d0 = (b0 >> 2) * 4 + permutations[p, b0 & 3]
        d1 = (b1 >> 2) * 4 + permutations[p, b1 & 3]
        high_a, low_a = max(c0, c1), min(c0, c1)
        high_b, low_b = max(d0, d1), min(d0, d1)
        key = ((high_a * 52 + low_a) * 52 + high_b) * 52 + low_b
        if key < best:
            best = key
    return best


@njit
def matchup_keys(permutations, holes_a, holes_b, keys, flipped):
    """For each row: the table key of the matchup, and whether it is stored as (B, A)."""
    for row in range(holes_a.shape[0]):
        forward = oriented_key(permutations, np.int64(holes_a[row, 0]),
                                np.int64(holes_a[row, 1]), np.int64(holes_b[row, 0]),
                                np.int64(holes_b[row, 1]))
        backward = oriented_key(permutations, np.int64(holes_b[row, 0]),
                                 np.int64(holes_b[row, 1]), np.int64(holes_a[row, 0]),
                                 np.int64(holes_a[row, 1]))
        keys[row] = min(forward, backward)
        flipped[row] = backward < forward


def _key_cards(key: int) -> tuple[int, int, int, int]:
    key, b1 = divmod(key, 52)
    key, b0 = divmod(key, 52)
    a0, a1 = divmod(key, 52)
    return a0, a1, b0, b1


def canonical_keys() -> np.ndarray:
    """The sorted table keys of every class of preflop matchups (47,008)."""
    holdings = np.array(list(itertools.combinations(range(52), 2)), dtype=np.uint8)
    first, second = np.triu_indices(holdings.shape[0], k=1)
    a, b = holdings[first], holdings[second]
    disjoint = ((a[:, 0] != b[:, 0]) & (a[:, 0] != b[:, 1]) & (a[:, 1] != b[:, 0])
                & (a[:, 1] != b[:, 1]))
    holes_a, holes_b = holdings[first[disjoint]], holdings[second[disjoint]]
    keys = np.empty(holes_a.shape[0], dtype=np.int64)
    flipped = np.empty(holes_a.shape[0], dtype=np.bool_)
    matchup_keys(SUIT_PERMUTATIONS, holes_a, holes_b, keys, flipped)
    return np.unique(keys)


@njit(parallel=True)
def _table_counts(tables, keys, counts):
    for row in prange(keys.shape[0]):
        key = keys[row]
        b1 = key % 52
        key //= 52
        b0 = key % 52
        key //= 52
        a1 = key % 52
        a0 = key // 52
        hole_a = np.array([a0, a1], dtype=np.uint8)
        hole_b = np.array([b0, b1], dtype=np.uint8)
        wins, ties, losses = matchup_counts(tables, hole_a, hole_b, hole_a[:0])
        counts[row, 0] = wins
        counts[row, 1] = ties


def build_table(keys: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(keys, counts int32[n, 2] of the first hand's wins and ties) for the given keys."""
    keys = canonical_keys() if keys is None else np.asarray(keys, dtype=np.int64)
    counts = np.zeros((keys.shape[0], 2), dtype=np.int64)
    _table_counts(load_tables(), keys, counts)
    return keys, counts.astype(np.int32)


def save_table(keys: np.ndarray, counts: np.ndarray, path: Path = DATA_FILE) -> None:
    np.savez_compressed(path, keys=keys, wins=counts[:, 0], ties=counts[:, 1])


_table: tuple[np.ndarray, np.ndarray] | None = None


def load_table() -> tuple[np.ndarray, np.ndarray]:
    """(keys int64[47008], counts int64[47008, 2]) of the shipped table, read once a process."""
    global _table
    if _table is None:
        _table = read_data_file(DATA_FILE, _read_table, "python -m gambler.evaluator.matchups")
    return _table


def _read_table(path: Path) -> tuple[np.ndarray, np.ndarray]:
    with np.load(path) as data:
        keys = data["keys"].astype(np.int64)
        counts = np.stack([data["wins"], data["ties"]], axis=1).astype(np.int64)
    if keys.shape[0] != MATCHUP_CLASSES or counts.shape[0] != MATCHUP_CLASSES:
        raise EvaluatorDataError(f"{path}: {keys.shape[0]} rows, expected {MATCHUP_CLASSES}; "
                                 "rebuild it with `python -m gambler.evaluator.matchups`")
    return keys, counts


def preflop_counts(holes_a: np.ndarray, holes_b: np.ndarray) -> np.ndarray:
    """A's exact (wins, ties, losses) before the flop for each row: int64[n, 3] (from the table).
    Inputs are uint8[n, 2] of disjoint, valid holdings (not checked here)."""
    table_keys, table_counts = load_table()
    rows = holes_a.shape[0]
    keys = np.empty(rows, dtype=np.int64)
    flipped = np.empty(rows, dtype=np.bool_)
    matchup_keys(SUIT_PERMUTATIONS, holes_a, holes_b, keys, flipped)
    found = np.searchsorted(table_keys, keys)
    stored = table_counts[found]
    wins = np.where(flipped, PREFLOP_BOARDS - stored[:, 0] - stored[:, 1], stored[:, 0])
    ties = stored[:, 1]
    return np.stack([wins, ties, PREFLOP_BOARDS - wins - ties], axis=1)


@dataclass(frozen=True)
class Matchup:
    """A's exact share of the showdowns against B on a board: win, tie, loss fractions."""

    win: float
    tie: float
    loss: float

    @property
    def equity(self) -> float:
        """win + tie / 2: A's expected share of the pot."""
        return self.win + self.tie / 2


def matchup(hole_a, hole_b, board=()) -> Matchup:
    """A against B, exact (the shipped table before the flop, enumeration after).

    Cards are strings or code sequences; the six (or more) cards must be distinct.

    >>> round(matchup("AcAd", "KhKs").equity, 4)  # aces against kings, no suit shared
    0.8126
    >>> matchup("2c3d", "4h5s", "AsKsQsJsTs").tie  # the royal flush on board splits
    1.0
    """
    wins, ties, losses = _showdown_counts(hole_a, hole_b, board)
    total = wins + ties + losses
    return Matchup(wins / total, ties / total, losses / total)


def allin_equity(hole_a, hole_b, board=()) -> float:
    """A's equity against B as the all-in adjustment scores it, (wins + ties / 2) / boards in
    the order of operations of `allin_equities` (the fast engine's deal sets): the two agree to
    the last bit, where `matchup(...).equity` may not.

    >>> holes = as_cards("AcAdKhKs").reshape(1, 2, 2)
    >>> board = as_cards("2c3c4cTd5h").reshape(1, 5)
    >>> mine = [allin_equity("AcAd", "KhKs", "2c3c4cTd5h"[:2 * n]) for n in (0, 3, 4)]
    >>> mine == allin_equities(holes, board)[0].tolist()
    True
    """
    wins, ties, losses = _showdown_counts(hole_a, hole_b, board)
    return (wins + 0.5 * ties) / (wins + ties + losses)


def _showdown_counts(hole_a, hole_b, board) -> tuple[int, int, int]:
    """A's (wins, ties, losses) against B over every completion of the board, the cards checked
    (strings or codes, all distinct)."""
    a = as_cards(hole_a, count=2, what="hole")
    b = as_cards(hole_b, count=2, what="opponent hole")
    board_codes = as_cards(board, count=BOARD_SIZES, what="board")
    seen: set[int] = set()
    for card in (*a.tolist(), *b.tolist(), *board_codes.tolist()):
        if card in seen:
            raise CardError(f"card {card_text(card)} appears twice")
        seen.add(card)
    if board_codes.shape[0] == 0:
        wins, ties, losses = preflop_counts(a[None, :], b[None, :])[0].tolist()
    else:
        wins, ties, losses = matchup_counts(load_tables(), a, b, board_codes)
    return int(wins), int(ties), int(losses)

@njit(parallel=True)
def _later_equities(tables, holes, boards, equities):
    """Position 0's equity against position 1 with the flop and with the turn, per deal."""
    for row in prange(holes.shape[0]):
        for street, size in ((1, 3), (2, 4)):
            wins, ties, losses = matchup_counts(tables, holes[row, 0], holes[row, 1],
                                                boards[row, :size])
            equities[row, street] = (wins + 0.5 * ties) / (wins + ties + losses)


def allin_equities(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """float64[n, 3]: position 0's exact equity against position 1 (holes uint8[n, 2, 2]) with
    no board, the flop and the turn of `boards` (uint8[n, 5]): what an all-in at round 0, 1 or
    2 is worth. About 10 us a deal (the flop's 990 boards), on all cores."""
    holes = np.ascontiguousarray(holes, dtype=np.uint8)
    boards = np.ascontiguousarray(boards, dtype=np.uint8)
    equities = np.zeros((holes.shape[0], 3), dtype=np.float64)
    if holes.shape[0]:
        counts = preflop_counts(holes[:, 0], holes[:, 1])
        equities[:, 0] = (counts[:, 0] + 0.5 * counts[:, 1]) / PREFLOP_BOARDS
        _later_equities(load_tables(), holes, boards, equities)
    return equities


def main(argv: list[str] | None = None) -> int:
    started = time.perf_counter()
    keys, counts = build_table()
    save_table(keys, counts)
    print(f"wrote {DATA_FILE}: {keys.shape[0]:,} matchups x {PREFLOP_BOARDS:,} boards "
          f"in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
