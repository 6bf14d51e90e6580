"""Win rates against a weighted range of opponent holdings, exactly, with card removal.

A range gives each of the 1,326 holdings a weight in [0, 1] (`evaluator.holdings.HOLDING_CARDS`
order). For our hole h on the visible board b, the opponent's holding o and the missing board
cards are dealt with probability proportional to w(o) over every (o, completion) that shares no
card with h, b or each other. W, T, L are then the weighted shares of the showdowns our hand
wins, ties and loses; with every weight 1 they are `evaluator.win_rate`'s, count for count.

* River: our value once, each holding in the range valued once (990 at most).
* Turn and flop: the subset symmetry of `evaluator.showdown`: each (m + 2)-subset of the unseen
  cards is valued once as the opponent's seven cards, and every way it splits into m board cards
  and the opponent's two is one showdown of weight w(those two) (C(47, 4) = 178,365 values on the
  flop; subsets all of whose splits weigh 0 are skipped).
* Preflop: the shipped table of every preflop matchup (`evaluator.matchups`), summed over the
  holdings with their weights.

Ranges are written in the usual notation, comma-separated (`parse_range`): `QQ+`, `22-55`,
`AKs`, `AKo`, `AK` (both), `A2s+`, `KTo+`, `A2s-A5s`, a single holding `AsKc`, and a weight
suffix `:0.5`. A holding named twice takes the last weight.
"""

from __future__ import annotations

import re

import numpy as np

from gambler.evaluator.cards import BOARD_SIZES, RANKS, SUITS, CardError, as_cards, card_code
from gambler.evaluator.hand_rank import hand_value
from gambler.evaluator.holdings import HOLDING_CARDS, HOLDINGS, holding_index
from gambler.evaluator.rates import WinRate
from gambler.evaluator.showdown import _cards_key_bits, unseen_cards
from gambler.evaluator.tables import SUIT_COUNTERS_START, load_tables
from gambler.jit import njit


class RangeError(CardError):
    """A range that cannot be read, whose every weight is 0, or that is empty once the known cards
    are removed."""


_PAIR_ORDER = {rank: index for index, rank in enumerate(RANKS)}
_TOKEN = re.compile(r"^(?P<hand>[^:]+?)(?::(?P<weight>[^:]+))?$")
_HAND = re.compile(r"^(?P<high>[2-9TJQKA])(?P<low>[2-9TJQKA])(?P<kind>[so]?)(?P<plus>\+?)$")
_SPAN = re.compile(r"^(?P<first>[2-9TJQKA]{2}[so]?)-(?P<last>[2-9TJQKA]{2}[so]?)$")
_NOTATION = ("a holding (AsKc), a pair (QQ, QQ+, 22-55), two ranks with s, o or neither (AKs, "
             "AKo, AK, A2s+, A2s-A5s), optionally :weight")


def _combos(high: int, low: int, kind: str) -> list[tuple[int, int]]:
    """The holdings of ranks (high, low): suited (s), offsuit (o) or both ('')."""
    cards = []
    for suit_high in range(4):
        for suit_low in range(4):
            if high == low and suit_low <= suit_high:
                continue
            if high != low and kind == "s" and suit_high != suit_low:
                continue
            if high != low and kind == "o" and suit_high == suit_low:
                continue
            cards.append((4 * high + suit_high, 4 * low + suit_low))
    return cards


def _class_hands(text: str, token: str) -> list[tuple[int, int, str]]:
    """(high rank, low rank, kind) of every class a hand token names."""
    span = _SPAN.match(text)
    if span:
        first, last = (_class_hands(part, token) for part in (span["first"], span["last"]))
        (high_a, low_a, kind_a), (high_b, low_b, kind_b) = first[0], last[0]
        if high_a == low_a and high_b == low_b:
            lo, hi = sorted((high_a, high_b))
            return [(rank, rank, "") for rank in range(lo, hi + 1)]
        if high_a == high_b and kind_a == kind_b and low_a != high_a and low_b != high_b:
            lo, hi = sorted((low_a, low_b))
            return [(high_a, rank, kind_a) for rank in range(lo, hi + 1)]
        raise RangeError(f"range token {token!r}: a span joins two pairs or two hands with the "
                         "same first rank and kind (22-55, A2s-A5s)")
    hand = _HAND.match(text)
    if not hand:
        raise RangeError(f"range token {token!r}: expected {_NOTATION}")
    high, low = _PAIR_ORDER[hand["high"]], _PAIR_ORDER[hand["low"]]
    kind, plus = hand["kind"], bool(hand["plus"])
    if high == low:
        if kind:
            raise RangeError(f"range token {token!r}: a pair is neither suited nor offsuit")
        return [(rank, rank, "") for rank in range(high, 13 if plus else high + 1)]
    if low > high:
        high, low = low, high
    return [(high, rank, kind) for rank in range(low, high if plus else low + 1)]


def parse_range(text: str) -> np.ndarray:
    """float64[1,326]: the weight of each holding (`HOLDING_CARDS` order) in a range's notation.

    >>> weights = parse_range("QQ+, AKs")
    >>> int(weights.sum())  # 3 pairs x 6 + 4 suited
    22
    >>> float(parse_range("AsKc:0.25").sum())
    0.25
    """
    if not isinstance(text, str) or not text.strip():
        raise RangeError(f"empty range {text!r}: expected {_NOTATION}")
    weights = np.zeros(HOLDINGS, dtype=np.float64)
    for token in (part.strip() for part in text.split(",")):
        if not token:
            raise RangeError(f"range {text!r}: an empty token between commas")
        match = _TOKEN.match(token)
        hand, weight_text = match["hand"].strip(), match["weight"]
        weight = 1.0
        if weight_text is not None:
            try:
                weight = float(weight_text)
            except ValueError:
                weight = -1.0
            if not 0.0 <= weight <= 1.0:
                raise RangeError(f"range token {token!r}: the weight must be a number in [0, 1]")
        if len(hand) == 4 and hand[1] in SUITS and hand[3] in SUITS:
            try:
                first, second = card_code(hand[:2]), card_code(hand[2:])
            except CardError as error:
                raise RangeError(f"range token {token!r}: {error}") from None
            if first == second:
                raise RangeError(f"range token {token!r}: the same card twice")
            weights[holding_index(first, second)] = weight
            continue
        for high, low, kind in _class_hands(hand, token):
            for first, second in _combos(high, low, kind):
                weights[holding_index(first, second)] = weight
    return weights


def _as_weights(range_) -> np.ndarray:
    if isinstance(range_, str):
        return parse_range(range_)
    weights = np.asarray(range_, dtype=np.float64)
    if weights.shape != (HOLDINGS,):
        raise RangeError(f"a range is float[{HOLDINGS}] over evaluator.holdings.HOLDING_CARDS, "
                         f"not shape {weights.shape}")
    if not np.all(np.isfinite(weights)) or weights.min() < 0:
        raise RangeError("range weights must be finite and non-negative")
    return weights


def weight_matrix(weights: np.ndarray) -> np.ndarray:
    """float64[52, 52]: the weight of holding {i, j} at [i, j] and [j, i] (0 on the diagonal)."""
    matrix = np.zeros((52, 52), dtype=np.float64)
    first, second = HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]
    matrix[first, second] = weights
    matrix[second, first] = weights
    return matrix


@njit
def range_counts(tables, hole, board, weights):
    """Weighted (wins, ties, losses) of `hole` on a 3, 4 or 5-card `board` against the range
    `weights` (float64[52, 52], `weight_matrix`), exactly (module docstring)."""
    unseen = unseen_cards(hole, board)
    n = unseen.shape[0]
    keys = np.empty(n, dtype=np.int64)
    bits = np.empty(n, dtype=np.int64)
    for i in range(n):
        keys[i] = tables.card_keys[unseen[i]]
        bits[i] = tables.card_bits[unseen[i]]
    board_key, board_bits = _cards_key_bits(tables, board)
    hole_key, hole_bits = _cards_key_bits(tables, hole)
    ours_key = board_key + hole_key - SUIT_COUNTERS_START
    ours_bits = board_bits | hole_bits
    wins = 0.0
    ties = 0.0
    total = 0.0
    missing = 5 - board.shape[0]
    if missing == 0:
        ours = hand_value(tables, ours_key, ours_bits)
        for i in range(n - 1):
            for j in range(i + 1, n):
                w = weights[unseen[i], unseen[j]]
                if w == 0.0:
                    continue
                theirs = hand_value(tables, board_key + keys[i] + keys[j],
                                    board_bits | bits[i] | bits[j])
                wins += w * (theirs < ours)
                ties += w * (theirs == ours)
                total += w
        return wins, ties, total - wins - ties
    if missing == 1:
        single = np.empty(n, dtype=np.int64)
        for i in range(n):
            single[i] = hand_value(tables, ours_key + keys[i], ours_bits | bits[i])
        for a in range(n - 2):
            for b in range(a + 1, n - 1):
                w_ab = weights[unseen[a], unseen[b]]
                for c in range(b + 1, n):
                    w_bc = weights[unseen[b], unseen[c]]
                    w_ac = weights[unseen[a], unseen[c]]
                    if w_ab == 0.0 and w_bc == 0.0 and w_ac == 0.0:
                        continue
                    theirs = hand_value(tables, board_key + keys[a] + keys[b] + keys[c],
                                        board_bits | bits[a] | bits[b] | bits[c])
                    # the board card, then the opponent's two
                    wins += (w_bc * (theirs < single[a]) + w_ac * (theirs < single[b])
                             + w_ab * (theirs < single[c]))
                    ties += (w_bc * (theirs == single[a]) + w_ac * (theirs == single[b])
                             + w_ab * (theirs == single[c]))
                    total += w_ab + w_bc + w_ac
        return wins, ties, total - wins - ties
    pair = np.zeros((n, n), dtype=np.int64)
    for i in range(n - 1):
        for j in range(i + 1, n):
            value = hand_value(tables, ours_key + keys[i] + keys[j], ours_bits | bits[i] | bits[j])
            pair[i, j] = value
            pair[j, i] = value
    for a in range(n - 3):
        for b in range(a + 1, n - 2):
            w_ab = weights[unseen[a], unseen[b]]
            for c in range(b + 1, n - 1):
                w_ac = weights[unseen[a], unseen[c]]
                w_bc = weights[unseen[b], unseen[c]]
                for d in range(c + 1, n):
                    w_cd = weights[unseen[c], unseen[d]]
                    w_bd = weights[unseen[b], unseen[d]]
                    w_ad = weights[unseen[a], unseen[d]]
                    if (w_ab == 0.0 and w_ac == 0.0 and w_bc == 0.0 and w_cd == 0.0
                            and w_bd == 0.0 and w_ad == 0.0):
                        continue
                    theirs = hand_value(tables, board_key + keys[a] + keys[b] + keys[c] + keys[d],
                                        board_bits | bits[a] | bits[b] | bits[c] | bits[d])
                    # board (a, b) and the opponent (c, d), and so on for the six splits
                    wins += (w_cd * (theirs < pair[a, b]) + w_bd * (theirs < pair[a, c])
                             + w_ad * (theirs < pair[b, c]) + w_bc * (theirs < pair[a, d])
                             + w_ac * (theirs < pair[b, d]) + w_ab * (theirs < pair[c, d]))
                    ties += (w_cd * (theirs == pair[a, b]) + w_bd * (theirs == pair[a, c])
                             + w_ad * (theirs == pair[b, c]) + w_bc * (theirs == pair[a, d])
                             + w_ac * (theirs == pair[b, d]) + w_ab * (theirs == pair[c, d]))
                    total += w_ab + w_ac + w_bc + w_cd + w_bd + w_ad
    return wins, ties, total - wins - ties


def _preflop_range_counts(hole: np.ndarray, weights: np.ndarray) -> tuple[float, float, float]:
    from gambler.evaluator.matchups import preflop_counts

    first, second = HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]
    live = (weights > 0) & (first != hole[0]) & (first != hole[1]) & (second != hole[0]) \
        & (second != hole[1])
    if not live.any():
        return 0.0, 0.0, 0.0
    holdings = HOLDING_CARDS[live].astype(np.uint8)
    ours = np.repeat(hole[None, :].astype(np.uint8), holdings.shape[0], axis=0)
    counts = preflop_counts(ours, holdings).astype(np.float64)
    wins, ties, losses = (weights[live] @ counts).tolist()
    return wins, ties, losses


def range_win_rate(hole, board, range_) -> WinRate:
    """Exact win rate of `hole` on `board` (0, 3, 4 or 5 cards) against `range_`: a range's
    notation (`parse_range`) or float weights over the 1,326 holdings.

    A range with no live holding of positive weight has no win rate and raises `RangeError`,
    which blames its weights when every holding weighs 0 (`"AA:0,KK:0"`), else card removal
    (every holding of positive weight shares a card with the hole or the board).

    >>> round(range_win_rate("AsKc", "", "QdQh").equity, 4)  # one holding: the matchup
    0.4284
    >>> range_win_rate("2c3d", "AsKsQsJsTs", "AA").tie  # AcAd, AcAh, AdAh: the board splits
    1.0
    """
    hole_codes = as_cards(hole, count=2, what="hole")
    board_codes = as_cards(board, count=BOARD_SIZES, what="board")
    weights = _as_weights(range_)
    if not weights.any():  # the weights' fault, whatever the cards: say so, not "card removal"
        named = f"range {range_!r}: " if isinstance(range_, str) else ""
        raise RangeError(f"{named}every holding of the range has weight 0")
    known = hole_codes.tolist() + board_codes.tolist()
    if len(set(known)) != len(known):
        raise CardError("the hole and the board share a card")
    if board_codes.shape[0] == 0:
        wins, ties, losses = _preflop_range_counts(hole_codes, weights)
    else:
        wins, ties, losses = range_counts(load_tables(), hole_codes, board_codes,
                                          weight_matrix(weights))
    total = wins + ties + losses
    if total <= 0:  # some holding weighs more than 0 (above), and every such one is blocked
        raise RangeError("the range is empty once the cards in the hole and on the board are "
                         "removed")
    return WinRate(wins / total, ties / total, losses / total, exact=True)


def live_combos(hole, board, range_) -> float:
    """The range's total weight once the known cards are removed (its combos, for weights 1)."""
    weights = _as_weights(range_)
    known = set(as_cards(hole, count=2, what="hole").tolist()
                + as_cards(board, count=BOARD_SIZES, what="board").tolist())
    live = np.array([not ({int(a), int(b)} & known) for a, b in HOLDING_CARDS])
    return float(weights[live].sum())


__all__ = ["RangeError", "live_combos", "parse_range", "range_counts",
           "range_win_rate", "weight_matrix"]
