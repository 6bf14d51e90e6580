"""Hand strength at showdown, for any game the `.game` format allows.

Only comparisons between players of the same hand matter, and they all hold the same number of
cards. Hands of 5 to 7 cards (hold'em) are valued by the evaluator's tables; other sizes (Kuhn's
single card, Leduc's two, games with three hole cards and a full board) by the same poker ranking
in plain Python: the best five cards when there are more than five, and with fewer than five only
pairs, two pair, trips and quads can form.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from gambler.evaluator.hand_rank import rank_hands_unchecked
from gambler.evaluator.tables import five_card_strength


def hand_strength(cards: Sequence[int]):
    """A value that orders hands of the same size: higher is better, equal ties.

    5 to 7 cards give the evaluator's integer value; other sizes a tuple (category, ranks...).
    """
    count = len(cards)
    if 5 <= count <= 7:
        return int(rank_hands_unchecked(np.array([cards], dtype=np.uint8))[0])
    if count > 7:
        return max(_five_strength(subset) for subset in itertools.combinations(cards, 5))
    ranks = sorted((card // 4 for card in cards), reverse=True)
    groups = sorted(((ranks.count(rank), rank) for rank in set(ranks)), reverse=True)
    shape = [size for size, _ in groups]
    category = 7 if shape[0] == 4 else 3 if shape[0] == 3 else shape.count(2)
    return (category, *(rank for _, rank in groups))


def _five_strength(cards: Sequence[int]) -> tuple:
    ranks = tuple(sorted(card // 4 for card in cards))
    flush = len({card % 4 for card in cards}) == 1
    return five_card_strength(ranks, flush)
