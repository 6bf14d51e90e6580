"""Exact preflop win rates for the 169 classes of starting hands, computed once and shipped.

Before the flop a hand's win rate depends only on its class: a pair (`AA`), two ranks suited
(`AKs`) or offsuit (`AKo`), since relabelling suits changes nothing. For each class the table
holds the exact counts of wins, ties and losses over every opponent hand and every board:
C(50, 5) x C(45, 2) = 2,118,760 x 990 = 2,097,572,400 showdowns per hole, found by the reference
enumerator `evaluator.showdown.enumerate_counts` (about 2e9 showdowns a class, some minutes on two
cores for the whole table). The table lives in `evaluator/data/preflop.csv`;
`python -m gambler.evaluator.preflop` rebuilds it.

Class index: 13 * a + b with ranks 2..A = 0..12; a pair has a = b, a suited hand a > b (high rank
first), an offsuit hand a < b (low rank first), as in the usual 13 x 13 grid of starting hands.
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

import numpy as np
from numba import prange

from gambler.evaluator.cards import RANKS
from gambler.evaluator.showdown import enumerate_counts
from gambler.evaluator.tables import EvaluatorDataError, load_tables, read_data_file
from gambler.jit import njit

CLASS_COUNT = 169
SHOWDOWNS_PER_HAND = 2_118_760 * 990
DATA_FILE = Path(__file__).resolve().parent / "data" / "preflop.csv"


def class_index(first: int, second: int) -> int:
    """Class index of the hole made of two card codes."""
    high, low = max(first >> 2, second >> 2), min(first >> 2, second >> 2)
    if high == low or (first & 3) == (second & 3):
        return 13 * high + low
    return 13 * low + high


def class_indices(holes: np.ndarray) -> np.ndarray:
    """Class index of each hole in an integer array of shape (n, 2) of card codes."""
    holes = np.asarray(holes, dtype=np.int64)
    ranks, suits = holes // 4, holes % 4
    high, low = ranks.max(axis=1), ranks.min(axis=1)
    suited_or_pair = (suits[:, 0] == suits[:, 1]) | (high == low)
    return np.where(suited_or_pair, 13 * high + low, 13 * low + high)


def class_name(index: int) -> str:
    """`'AA'`, `'AKs'`, `'72o'` for a class index."""
    a, b = divmod(index, 13)
    if a == b:
        return RANKS[a] * 2
    return f"{RANKS[a]}{RANKS[b]}s" if a > b else f"{RANKS[b]}{RANKS[a]}o"


def class_combos(index: int) -> int:
    """Number of two-card holes in a class: 6 for a pair, 4 suited, 12 offsuit."""
    a, b = divmod(index, 13)
    return 6 if a == b else (4 if a > b else 12)


def representative(index: int) -> tuple[int, int]:
    """One hole of the class (high card first): suits spades/hearts, or spades twice if suited."""
    a, b = divmod(index, 13)
    if a == b:
        return a * 4 + 3, a * 4 + 2
    if a > b:
        return a * 4 + 3, b * 4 + 3
    return b * 4 + 3, a * 4 + 2


def class_preflop_v() -> np.ndarray:
    """float64[169]: v = W - L of each class before the flop, from the table."""
    counts = load_table()
    total = counts.sum(axis=1)
    return counts[:, 0] / total - counts[:, 2] / total


@njit(parallel=True)
def _class_counts(tables, holes, counts):
    for row in prange(holes.shape[0]):
        wins, ties, losses = enumerate_counts(tables, holes[row], holes[row, :0])
        counts[row, 0] = wins
        counts[row, 1] = ties
        counts[row, 2] = losses


def build_table(classes=range(CLASS_COUNT)) -> np.ndarray:
    """Exact (wins, ties, losses) counts for the given classes: int64[len(classes), 3]."""
    holes = np.array([representative(index) for index in classes], dtype=np.uint8)
    counts = np.zeros((holes.shape[0], 3), dtype=np.int64)
    _class_counts(load_tables(), holes, counts)
    return counts


def save_table(counts: np.ndarray, path: Path = DATA_FILE) -> None:
    with open(path, "w", newline="") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(["class", "combos", "wins", "ties", "losses"])
        for index in range(CLASS_COUNT):
            writer.writerow([class_name(index), class_combos(index), *counts[index].tolist()])


_table: np.ndarray | None = None


def load_table() -> np.ndarray:
    """The shipped counts, int64[169, 3] by class index (read once per process)."""
    global _table
    if _table is None:
        _table = read_data_file(DATA_FILE, _read_table, "python -m gambler.evaluator.preflop")
    return _table


def _read_table(path: Path) -> np.ndarray:
    """The counts of a table file; a missing class, an unknown one or a bad count raises."""
    table = np.zeros((CLASS_COUNT, 3), dtype=np.int64)
    names = {class_name(index): index for index in range(CLASS_COUNT)}
    with open(path, newline="") as file:
        rows = list(csv.DictReader(file))
    if len(rows) != CLASS_COUNT:
        raise EvaluatorDataError(f"{path}: {len(rows)} classes, expected {CLASS_COUNT}; "
                                 "rebuild it with `python -m gambler.evaluator.preflop`")
    missing = sorted(set(names) - {row.get("class") for row in rows})
    if missing:
        raise EvaluatorDataError(f"{path}: no row for class {missing[0]}; "
                                 "rebuild it with `python -m gambler.evaluator.preflop`")
    for row in rows:
        table[names[row["class"]]] = (int(row["wins"]), int(row["ties"]), int(row["losses"]))
    return table


def main(argv: list[str] | None = None) -> int:
    started = time.perf_counter()
    counts = build_table()
    save_table(counts)
    print(f"wrote {DATA_FILE}: {CLASS_COUNT} classes x {SHOWDOWNS_PER_HAND:,} showdowns "
          f"in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
