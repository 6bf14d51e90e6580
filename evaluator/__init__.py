"""Cards, hand values and win rates: the hot path under every decision the bot makes.

    cards ──► hand values (numba, lookup tables) ──► win rates (exact, Monte Carlo, preflop table)

Public API (the README's "Python API"):

* `parse_cards("AsKc")` -> uint8 codes (rank * 4 + suit, the ACPC order); `format_cards`.
* `rank_hands(hands)` -> values of many 5-, 6- or 7-card hands (higher is better).
* `win_rate(hole, board, samples=None, seed=None)` -> `WinRate` (win, tie, loss, v = win - loss).
* `win_rates(holes, boards, ...)` -> the same for many rows at once, in parallel.
* `matchup(hole_a, hole_b, board)` -> A's exact win, tie, loss against one known hand.
* `warm_up()` loads (or compiles) every kernel, for programs that must answer fast from the start.
"""

import gc
import importlib
from typing import TYPE_CHECKING

from gambler.evaluator.cards import CardError, format_cards, parse_cards

if TYPE_CHECKING:
    from gambler.evaluator.hand_rank import CATEGORY_NAMES, category_name, hand_category, rank_hands
    from gambler.evaluator.matchups import matchup
    from gambler.evaluator.rates import WinRate, WinRates, win_rate, win_rates

__all__ = ["CardError", "parse_cards", "format_cards", "rank_hands", "hand_category",
           "category_name", "CATEGORY_NAMES", "win_rate", "win_rates", "WinRate", "WinRates",
           "matchup", "warm_up"]

# The numba parts load on first use, so that what needs only cards (the protocol layer, the
# dealer, `gambler --help`) starts without importing numba.
_LAZY = {name: "gambler.evaluator.hand_rank"
         for name in ("rank_hands", "hand_category", "category_name", "CATEGORY_NAMES")}
_LAZY.update({name: "gambler.evaluator.rates" for name in ("win_rate", "win_rates", "WinRate", "WinRates")})
_LAZY["matchup"] = "gambler.evaluator.matchups"


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
