"""Cards, hand values and win rates: the hot path under every decision the bot makes.

    cards ──► hand values (numba, lookup tables) ──► win rates (exact, Monte Carlo, preflop table)

A card is a code 0..51 (rank * 4 + suit, the ACPC order: `2c` = 0, `As` = 51); a hand's value is
an integer 1..7462, higher is better, equal values tie (one value per distinct 5-card strength).
W, T, L are the probabilities of winning, tying and losing the showdown against one uniformly
random opponent hand (or a weighted range), dealt with the rest of the board from the unseen
cards; the bot decides on v = W - L.

Public API:

* `parse_cards("AsKc")` -> uint8 codes; `format_cards` the reverse.
* `rank_hands(hands)` -> values of many 5-, 6- or 7-card hands, every row checked in the same
  pass that values it.
* `win_rate(hole, board, samples=None, seed=None)` -> `WinRate` (win, tie, loss, v = win - loss):
  exact by default (a shipped table preflop, enumeration later), Monte Carlo with `samples`.
* `win_rates(holes, boards, ...)` -> the same for many rows at once, in parallel.
* `matchup(hole_a, hole_b, board)` -> A's exact win, tie, loss against one known hand.
* `warm_up()` loads (or compiles) every kernel, for programs that must answer fast from the start.

Modules: `cards` (text and codes, the only place card input is checked), `tables` (the hand-rank
tables), `hand_rank`, `showdown` (exact and sampled counts), `rng` (the kernels' seeded
generator), `rates`, `preflop` and `matchups` (shipped preflop tables), `ranges` (win rates
against a weighted range), `holdings` (the win rate of every holding on one board), `narrowing`
(the opponent's range narrowed by its raises), `cli` (`gambler-equity`).

Errors: bad input raises `CardError` (a `gambler.errors.GamblerError` and a `ValueError`), or its
subclass `ranges.RangeError` for a range; a shipped data file that is missing or corrupt raises
`EvaluatorDataError` (a `GamblerError`), naming the file and the command that rebuilds it.
"""

import gc
import importlib
from typing import TYPE_CHECKING

from gambler.evaluator.cards import CardError, format_cards, parse_cards

if TYPE_CHECKING:
    from gambler.evaluator.hand_rank import CATEGORY_NAMES, category_name, hand_category, rank_hands
    from gambler.evaluator.matchups import matchup
    from gambler.evaluator.rates import WinRate, WinRates, win_rate, win_rates
    from gambler.evaluator.tables import EvaluatorDataError

__all__ = ["CardError", "EvaluatorDataError", "parse_cards", "format_cards", "rank_hands",
           "hand_category", "category_name", "CATEGORY_NAMES", "win_rate", "win_rates", "WinRate",
           "WinRates", "matchup", "warm_up"]

# The numba parts load on first use, so that what needs only cards (the protocol layer, the
# dealer, `gambler --help`) starts without importing numba.
_LAZY = {name: "gambler.evaluator.hand_rank"
         for name in ("rank_hands", "hand_category", "category_name", "CATEGORY_NAMES")}
_LAZY.update({name: "gambler.evaluator.rates" for name in ("win_rate", "win_rates", "WinRate", "WinRates")})
_LAZY["matchup"] = "gambler.evaluator.matchups"
_LAZY["EvaluatorDataError"] = "gambler.evaluator.tables"


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'evaluator' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def warm_up(samples: bool = False, batch: bool = False) -> None:
    """Load the kernels a decision uses (from numba's cache, or compile them once).

    Always the exact win-rate kernels; the Monte Carlo ones with `samples=True`; the parallel
    batch kernel that training uses with `batch=True`. Each kernel costs about a second to compile
    the first time, a few milliseconds to load from the cache after that. This is also where
    numba itself is imported, unless something else imported it first.
    """
    # numba's first kernel load imports its registries: about 10^5 objects, all long-lived, that
    # the garbage collector would scan over and over as they arrive (about 0.03 s here).
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        import numpy as np

        from gambler.evaluator.rates import win_rate, win_rates

        for board in ("", "Qh7c2d", "Qh7c2d9s", "Qh7c2d9s3h"):
            win_rate("AsKc", board)
            if samples:
                win_rate("AsKc", board, samples=1, seed=0)
        if batch:
            holes = np.array([[51, 44]], dtype=np.uint8)
            win_rates(holes, np.array([[0, 4, 8]], dtype=np.uint8))
            win_rates(holes, np.array([[0, 4, 8]], dtype=np.uint8), samples=1)
    finally:
        if collecting:
            gc.enable()
