"""The hand-rank lookup tables: how they are built, shipped and loaded.

Design (after OMPEval's): a hand of 5 to 7 cards is summarised by one 64-bit integer, the sum of
its cards' keys, so that a hand is valued with one addition per card and two table reads.

* Bits 0..31 hold the sum of the cards' *rank keys*. `RANK_KEYS` are 13 integers chosen (by
  `search_rank_keys`, greedily, smallest first) so that every multiset of at most 7 ranks with at
  most 4 of each rank has a different sum: the sum identifies the ranks of the hand. There are
  76,155 such multisets and the largest sum is 18,393,157.
* Bits 32..47 are four 4-bit suit counters, each started at 3 (`SUIT_COUNTERS_START`), so a
  counter reaches 8 exactly when its suit holds 5 or more cards: `key & FLUSH_CHECK` is non-zero
  iff the hand has a flush.
* Without a flush, the rank sum goes through a perfect hash to `rank_values`: row `sum >> 10`,
  column `sum & 1023`, and `hash_offsets[row]` is that row's displacement (rows are packed into one
  array first-fit, largest rows first, so no two multisets share a slot).
* With a flush (only one suit can hold 5 of 7 cards, and then no full house or quads is possible),
  the 13-bit mask of the flush suit's ranks indexes `flush_values`.

Hand values are dense: 1 (7-5-4-3-2 offsuit) .. 7462 (royal flush), higher is better, equal values
tie, one value per distinct 5-card hand strength (treys' rank is `7463 - value`).

The tables are deterministic and small (about 410 KB); they ship in `evaluator/data/` and
`python -m gambler.evaluator.tables` rebuilds them.
"""

from __future__ import annotations

import itertools
import sys
import zipfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

from gambler.errors import GamblerError
from gambler.jit import njit

RANK_COUNT = 13
MAX_CARDS = 7
#: Greedy smallest keys with distinct sums over all rank multisets of <= 7 cards, <= 4 per rank.
RANK_KEYS = (1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520)
SUIT_SHIFT = 32
SUIT_COUNTERS_START = 0x3333 << SUIT_SHIFT
FLUSH_CHECK = 0x8888 << SUIT_SHIFT
RANK_SUM_MASK = (1 << SUIT_SHIFT) - 1
HASH_SHIFT = 10
SUIT_LANE = 16  # bits per suit in a card-set mask: bit 16 * suit + rank

# Hand categories, weakest first, with the first value of each (values are 1..7462).
CATEGORY_NAMES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")
CATEGORY_FIRST_VALUE = (1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453)
DISTINCT_VALUES = 7462

DATA_FILE = Path(__file__).resolve().parent / "data" / "hand_tables.npz"


class EvaluatorDataError(GamblerError):
    """A data file shipped with the evaluator (`evaluator/data/`) that is missing, unreadable or
    not what this version expects; the message names the file and the command that rebuilds it."""


def read_data_file(path: Path, read, rebuild: str):
    """`read(path)`, with any failure to open or parse the file raised as `EvaluatorDataError`."""
    try:
        return read(path)
    except EvaluatorDataError:
        raise
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as reason:
        raise EvaluatorDataError(f"{path} cannot be read ({type(reason).__name__}: {reason}); "
                                 f"rebuild it with `{rebuild}`") from None


class HandTables(NamedTuple):
    """Everything a kernel needs to value hands; passed to kernels as one argument."""

    card_keys: np.ndarray     # int64[52]: rank key + (1 << (32 + 4 * suit))
    card_bits: np.ndarray     # int64[52]: 1 << (16 * suit + rank)
    hash_offsets: np.ndarray  # int32[rows]: displacement of each perfect-hash row
    rank_values: np.ndarray   # uint16[slots]: value of the best non-flush hand, by hashed rank sum
    #                           (0 in the slots no hand uses; see `perfect_hash`)
    flush_values: np.ndarray  # uint16[8192]: value of the best flush, by 13-bit rank mask


# --- the card keys -------------------------------------------------------------------------------

def card_keys() -> np.ndarray:
    codes = np.arange(52)
    keys = np.array(RANK_KEYS, dtype=np.int64)[codes // 4]
    return keys + (np.int64(1) << (SUIT_SHIFT + 4 * (codes % 4)))


def card_bits() -> np.ndarray:
    codes = np.arange(52)
    return np.int64(1) << (SUIT_LANE * (codes % 4) + codes // 4)


def rank_multisets() -> np.ndarray:
    """Every multiset of at most 7 ranks, at most 4 of each: int64[76155, 13] rank counts."""
    counts = np.zeros((1, RANK_COUNT), dtype=np.int64)
    for rank in range(RANK_COUNT):
        sizes = counts.sum(axis=1)
        blocks = []
        for copies in range(5):
            block = counts[sizes + copies <= MAX_CARDS].copy()
            block[:, rank] = copies
            blocks.append(block)
        counts = np.concatenate(blocks)
    return counts


@njit
def _first_valid_key(sums, sizes, start, present):
    """Smallest key >= start that adds a rank without making two multisets' sums equal.

    Adding `c` copies of a rank with key k to multisets over the earlier ranks collides iff some
    sum s2 (of a multiset with at most 7 - d cards) plus d * k is another sum, for d = 1..4.
    """
    key = start
    while True:
        clash = False
        for copies in range(1, 5):
            for i in range(sums.shape[0]):
                if sizes[i] <= MAX_CARDS - copies:
                    target = sums[i] + copies * key
                    if target < present.shape[0] and present[target]:
                        clash = True
                        break
            if clash:
                break
        if not clash:
            return key
        key += 1


def search_rank_keys() -> tuple[int, ...]:
    """Recompute `RANK_KEYS` (a few seconds): each key the smallest that keeps sums distinct."""
    sums = np.zeros(1, dtype=np.int64)
    sizes = np.zeros(1, dtype=np.int64)
    keys: list[int] = []
    for rank in range(RANK_COUNT):
        present = np.zeros(int(sums.max()) + 1, dtype=np.bool_)
        present[sums] = True
        # A shuffled scan finds a clash for a bad key within a few steps.
        order = np.random.default_rng(0).permutation(sums.shape[0])
        key = 1 if rank == 0 else _first_valid_key(sums[order], sizes[order], keys[-1] + 1, present)
        keys.append(int(key))
        sum_blocks, size_blocks = [], []
        for copies in range(5):
            keep = sizes + copies <= MAX_CARDS
            sum_blocks.append(sums[keep] + copies * key)
            size_blocks.append(sizes[keep] + copies)
        sums, sizes = np.concatenate(sum_blocks), np.concatenate(size_blocks)
    return tuple(keys)


# --- 5-card strengths ----------------------------------------------------------------------------

def _straight_top(ranks: set[int]) -> int:
    """Top rank of the best straight within `ranks`, or -1 (the wheel A-2-3-4-5 tops at 5 = 3)."""
    for top in range(12, 3, -1):
        if all(top - i in ranks for i in range(5)):
            return top
    if {12, 0, 1, 2, 3} <= ranks:
        return 3
    return -1


def five_card_strength(ranks: tuple[int, ...], flush: bool) -> tuple:
    """A sortable strength of exactly five cards: (category, tie-breaking ranks...).

    Tie-breakers are ranks grouped by multiplicity, larger groups first, higher ranks first
    within a group: a full house KKK22 is (6, 11, 0), two pair QQ55A is (2, 10, 3, 12).
    """
    distinct = set(ranks)
    top = _straight_top(distinct) if len(distinct) == 5 else -1
    if flush:
        return (8, top) if top >= 0 else (5, *sorted(ranks, reverse=True))
    if top >= 0:
        return (4, top)
    groups = sorted(((ranks.count(r), r) for r in distinct), reverse=True)
    shape = tuple(count for count, _ in groups)
    category = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1,
                (1, 1, 1, 1, 1): 0}[shape]
    return (category, *(rank for _, rank in groups))


def five_card_values() -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]:
    """Dense values 1..7462 of all 5-card hands, keyed by their sorted ranks: (without a flush,
    with a flush)."""
    plain = [r for r in itertools.combinations_with_replacement(range(RANK_COUNT), 5)
             if max(r.count(x) for x in r) <= 4]
    suited = list(itertools.combinations(range(RANK_COUNT), 5))
    strengths = sorted({five_card_strength(r, False) for r in plain}
                       | {five_card_strength(r, True) for r in suited})
    assert len(strengths) == DISTINCT_VALUES == len(plain) + len(suited)
    value_of = {strength: i + 1 for i, strength in enumerate(strengths)}
    return ({r: value_of[five_card_strength(r, False)] for r in plain},
            {r: value_of[five_card_strength(r, True)] for r in suited})


def best_value(ranks: tuple[int, ...], values: dict[tuple[int, ...], int]) -> int:
    """Best 5-card value within 5..7 sorted ranks (0 for fewer than five)."""
    if len(ranks) < 5:
        return 0
    return max(values[subset] for subset in itertools.combinations(ranks, 5))


# --- the perfect hash ----------------------------------------------------------------------------

@njit
def _displace_rows(row_start, columns, order, capacity):
    """First-fit row displacement: a start for each row so no two occupied cells coincide."""
    occupied = np.zeros(capacity, dtype=np.bool_)
    displacement = np.zeros(row_start.shape[0] - 1, dtype=np.int64)
    for row in order:
        first, last = row_start[row], row_start[row + 1]
        if first == last:
            continue
        start = 0
        while True:
            if start + columns[last - 1] >= capacity:
                raise ValueError("row displacement ran out of room")
            fits = True
            for j in range(first, last):
                if occupied[start + columns[j]]:
                    fits = False
                    break
            if fits:
                break
            start += 1
        for j in range(first, last):
            occupied[start + columns[j]] = True
        displacement[row] = start
    return displacement


#: The largest rank sum any 7 card codes can reach, valid hand or not (7 aces of any suits).
LARGEST_REACHABLE_SUM = MAX_CARDS * RANK_KEYS[-1]


def perfect_hash(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Row offsets and slot of each sum: slot = sum + offsets[sum >> HASH_SHIFT], all distinct.

    Also the number of slots the table needs, which covers more than the sums given: the offsets
    reach every row up to `LARGEST_REACHABLE_SUM` (rows past the last real one map their columns
    to slots 0..1023), and every column of every row lands on a slot below the count. So the
    lookup of any 7 card codes' rank sum, a repeated card or seven aces included, reads inside
    the tables: a kernel that checks its rows in the pass that values them (`rank_hands`) needs
    no branch or clamp for the bad rows whose values it then discards.
    """
    order_of_sums = np.argsort(sums, kind="stable")
    sorted_sums = sums[order_of_sums]
    rows = sorted_sums >> HASH_SHIFT
    columns = sorted_sums & ((1 << HASH_SHIFT) - 1)
    row_count = (LARGEST_REACHABLE_SUM >> HASH_SHIFT) + 1
    row_sizes = np.bincount(rows, minlength=row_count)
    row_start = np.concatenate([[0], np.cumsum(row_sizes)]).astype(np.int64)
    fill_order = np.argsort(-row_sizes, kind="stable").astype(np.int64)
    capacity = 64 * sums.shape[0] + (1 << HASH_SHIFT)  # far more than first-fit needs
    displacement = _displace_rows(row_start, columns, fill_order, capacity)
    offsets = (displacement - (np.arange(row_count, dtype=np.int64) << HASH_SHIFT)).astype(np.int32)
    slots = sums + offsets[sums >> HASH_SHIFT]
    assert np.unique(slots).shape[0] == sums.shape[0], "perfect hash collision"
    return offsets, slots, int(displacement.max()) + (1 << HASH_SHIFT)


# --- building, saving, loading -------------------------------------------------------------------

def build_tables() -> HandTables:
    """Build every table from first principles (about 2 s)."""
    plain_values, flush_values_by_ranks = five_card_values()
    multisets = rank_multisets()
    sums = multisets @ np.array(RANK_KEYS, dtype=np.int64)
    offsets, slots, slot_count = perfect_hash(sums)
    rank_values = np.zeros(slot_count, dtype=np.uint16)
    memo: dict[tuple[int, ...], int] = {}
    for counts, slot in zip(multisets.tolist(), slots.tolist()):
        ranks = tuple(rank for rank in range(RANK_COUNT) for _ in range(counts[rank]))
        if ranks not in memo:
            memo[ranks] = best_value(ranks, plain_values)
        rank_values[slot] = memo[ranks]
    flush_values = np.zeros(1 << RANK_COUNT, dtype=np.uint16)
    for mask in range(1 << RANK_COUNT):
        ranks = tuple(rank for rank in range(RANK_COUNT) if mask >> rank & 1)
        if len(ranks) >= 5:
            flush_values[mask] = best_value(ranks, flush_values_by_ranks)
    return HandTables(card_keys(), card_bits(), offsets, rank_values, flush_values)


def save_tables(tables: HandTables, path: Path = DATA_FILE) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, hash_offsets=tables.hash_offsets.astype(np.int32),
                        rank_values=tables.rank_values, flush_values=tables.flush_values,
                        rank_keys=np.array(RANK_KEYS))


_loaded: HandTables | None = None


def load_tables() -> HandTables:
    """The shipped tables (read once per process)."""
    global _loaded
    if _loaded is None:
        _loaded = read_data_file(DATA_FILE, _read_tables, "python -m gambler.evaluator.tables")
    return _loaded


def _read_tables(path: Path) -> HandTables:
    with np.load(path) as data:
        if tuple(data["rank_keys"].tolist()) != RANK_KEYS:
            raise EvaluatorDataError(f"{path} was built for other rank keys; "
                                     "rebuild it with `python -m gambler.evaluator.tables`")
        return HandTables(card_keys(), card_bits(), data["hash_offsets"].astype(np.int32),
                          data["rank_values"], data["flush_values"])


def main(argv: list[str] | None = None) -> int:
    tables = build_tables()
    save_tables(tables)
    size = sum(array.nbytes for array in tables)
    print(f"wrote {DATA_FILE} ({size / 1024:.0f} KB in memory, "
          f"{tables.rank_values.shape[0]} rank slots, {tables.hash_offsets.shape[0]} hash rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
