"""Range-aware v: the opponent's range narrowed by its raises, and v = W - L against that range.

The opponent model (a version 2 profile's `narrow`: per round r a fraction f_r in (0, 1], 1 for
"no narrowing") is a prior strategy: an opponent who raised in round r holds one of its f_r
strongest holdings by round r's strength. Precisely, at a decision on the board visible now:

* The possible holdings are the 1,326 (`evaluator.holdings` order) that share no card with the
  visible board. Our own hole is not removed here, so the range is the same whatever we hold
  (which is what lets a local best response model us exactly); our cards are removed in the
  showdown count, as in every range (`evaluator.ranges`).
* A holding's strength on round 0 is its v before the flop (the 169-class table,
  `holding_preflop_v`); on round r >= 1 the value of its best five cards with round r's board
  (3, 4 or 5 cards: made hands, no draws).
* Kept on round r: the ceil(f_r n) strongest of the n possible holdings, and every holding tied
  with the weakest of them.
* The range: weight 1 for a holding kept on every round in which the opponent raised (a round
  with f = 1 keeps them all), 0 otherwise.

v is then (wins - losses) / showdowns against the range, counted exactly over every completion
of the board (`evaluator.ranges.range_counts`). With weights 0 and 1 every count is an integer,
so any order of summation gives the same v bit for bit: the bot, the engine and LBR
(`every_holding_range_counts`, all holdings at once) agree exactly. If no holding of the range
is left once our cards are removed, v is NaN and the caller keeps the plain v.
"""

from __future__ import annotations

import math

import numpy as np

from gambler.evaluator.hand_rank import hand_value
from gambler.evaluator.holdings import (
    _SLOT_BITS,
    HOLDING_CARDS,
    HOLDINGS,
    _index_of,
    _radix_sort,
    _unseen_pairs,
)
from gambler.evaluator.ranges import range_counts
from gambler.evaluator.showdown import _cards_key_bits
from gambler.jit import helper, njit


def holding_preflop_v() -> np.ndarray:
    """float64[1326]: v of every holding before the flop (the class table), as `win_rate`
    computes it."""
    from gambler.evaluator.preflop import class_indices, class_preflop_v

    return class_preflop_v()[class_indices(HOLDING_CARDS)]


def raised_rounds(betting, position: int) -> int:
    """The bitmask of rounds (bit r for round r) in which the player at `position` raised so far
    (a `protocol.betting.BettingState`)."""
    mask = 0
    for round_, (actions, actors) in enumerate(zip(betting.actions, betting.actors)):
        if any(action.kind == "r" and actor == position
               for action, actor in zip(actions, actors)):
            mask |= 1 << round_
    return mask


@helper
def narrowing_rounds(raised, keep, round_):
    """The rounds (bitmask, bit r for round r) by which a range-aware player narrows its
    opponent's range for its plan in `round_`: the rounds of `raised` (the opponent's raises, as
    `raised_rounds` reads them) whose fraction `keep[r]` is below 1, and none before the flop
    (0: the plain v stands). The plan is made at the player's first decision of the round, so of
    this round's raises only those before it count. The one statement of the rule: the TCP bot
    (`bot.strategies`), the engine and LBR's model of the bot all call it. Plain Python or numba."""
    mask = np.int64(0)
    if round_ == 0:
        return mask
    for r in range(round_ + 1):
        if keep[r] < 1.0 and (raised >> r) & 1:
            mask |= np.int64(1) << r
    return mask


@helper
def _holding_strength(tables, board, round_, preflop_v, low, high, index):
    if round_ == 0:
        return preflop_v[index]
    key, bits = _cards_key_bits(tables, board[:2 + round_])
    return np.float64(hand_value(tables, key + tables.card_keys[low] + tables.card_keys[high],
                                 bits | tables.card_bits[low] | tables.card_bits[high]))


@njit
def narrowed_range(tables, board, preflop_v, raised, keep, weights):
    """Fill `weights` (float64[1326]) with the range of an opponent who raised in the rounds of
    the bitmask `raised`, on the visible `board` (3, 4 or 5 cards), `keep[r]` the fraction kept
    on round r (module docstring). Returns the number of holdings in the range."""
    board_mask = np.int64(0)
    for k in range(board.shape[0]):
        board_mask |= np.int64(1) << board[k]
    weights[:] = 0.0
    n = 0
    for high in range(1, 52):
        for low in range(high):
            if not ((board_mask >> low) & 1 or (board_mask >> high) & 1):
                weights[_index_of(low, high)] = 1.0
                n += 1
    strength = np.empty(HOLDINGS, dtype=np.float64)
    values = np.empty(n, dtype=np.float64)
    for round_ in range(board.shape[0] - 1):  # rounds 0 .. the current one (3 cards: round 1)
        if not (raised >> round_) & 1 or keep[round_] >= 1.0:
            continue
        count = 0
        for high in range(1, 52):
            for low in range(high):
                index = _index_of(low, high)
                if (board_mask >> low) & 1 or (board_mask >> high) & 1:
                    continue
                strength[index] = _holding_strength(tables, board, round_, preflop_v, low, high,
                                                    index)
                values[count] = strength[index]
                count += 1
        values.sort()
        kept = max(1, min(n, int(math.ceil(keep[round_] * n))))
        threshold = values[n - kept]
        for high in range(1, 52):
            for low in range(high):
                index = _index_of(low, high)
                if weights[index] > 0.0 and strength[index] < threshold:
                    weights[index] = 0.0
    total = 0
    for index in range(HOLDINGS):
        total += weights[index] > 0.0
    return total


@njit
def range_aware_v(tables, hole, board, preflop_v, raised, keep):
    """v = (wins - losses) / showdowns of `hole` on `board` against `narrowed_range`; NaN if the
    range is empty once our cards are removed."""
    weights = np.empty(HOLDINGS, dtype=np.float64)
    narrowed_range(tables, board, preflop_v, raised, keep, weights)
    matrix = np.zeros((52, 52), dtype=np.float64)
    for high in range(1, 52):
        for low in range(high):
            matrix[low, high] = weights[_index_of(low, high)]
            matrix[high, low] = matrix[low, high]
    wins, ties, losses = range_counts(tables, hole, board, matrix)
    total = wins + ties + losses
    if total == 0.0:
        return np.nan
    return wins / total - losses / total


@njit
def every_holding_range_counts(tables, board, weights, counts):
    """Exact (wins, ties, showdowns) of every holding on `board` (3, 4 or 5 cards) against the
    0/1 range `weights` (float64[1326]), all at once: `counts` int64[1326, 3], zero for holdings
    that meet the board. Each holding's counts equal `range_counts` for it (module docstring).

    The sweep of `evaluator.holdings.every_holding_counts` with weights: for each completion of
    the board (1,081 pairs on the flop, 46 cards on the turn, none on the river) the holdings
    disjoint from the five cards are sorted by value; a holding {a, b} beats the weight below it
    less the weight below it holding a or b, ties likewise within its group (plus its own weight,
    counted in both card sums), and faces the whole weight less the weight holding a or b (plus
    its own)."""
    counts[:] = 0
    size_board = board.shape[0]
    known_key, known_bits = _cards_key_bits(tables, board)
    unseen, pair_key, pair_bits, pair_mask, pair_low, pair_high = _unseen_pairs(tables, board)
    count = unseen.shape[0]
    pairs = pair_key.shape[0]
    pair_weight = np.empty(pairs, dtype=np.int64)
    for pair in range(pairs):
        pair_weight[pair] = np.int64(weights[_index_of(pair_low[pair], pair_high[pair])] > 0.0)
    # The completions: pairs of unseen cards (flop), single cards (turn), or none (river).
    missing = 5 - size_board
    completions = pairs if missing == 2 else count if missing == 1 else 1
    packed = np.empty(pairs, dtype=np.int64)
    scratch = np.empty(pairs, dtype=np.int64)
    bucket = np.empty(128, dtype=np.int64)
    below_card = np.zeros(52, dtype=np.int64)
    group_card = np.zeros(52, dtype=np.int64)
    all_card = np.zeros(52, dtype=np.int64)
    wins_of = np.zeros(pairs, dtype=np.int64)
    ties_of = np.zeros(pairs, dtype=np.int64)
    total_of = np.zeros(pairs, dtype=np.int64)
    slot_mask = (1 << _SLOT_BITS) - 1
    for completion in range(completions):
        if missing == 2:
            board_key = known_key + pair_key[completion]
            board_bits = known_bits | pair_bits[completion]
            taken = pair_mask[completion]
        elif missing == 1:
            card = unseen[completion]
            board_key = known_key + tables.card_keys[card]
            board_bits = known_bits | tables.card_bits[card]
            taken = np.int64(1) << card
        else:
            board_key = known_key
            board_bits = known_bits
            taken = np.int64(0)
        size = 0
        everyone = 0
        all_card[:] = 0
        for holding in range(pairs):
            if pair_mask[holding] & taken:
                continue
            value = hand_value(tables, board_key + pair_key[holding],
                               board_bits | pair_bits[holding])
            packed[size] = (np.int64(value) << _SLOT_BITS) | holding
            size += 1
            weight = pair_weight[holding]
            everyone += weight
            all_card[pair_low[holding]] += weight
            all_card[pair_high[holding]] += weight
        _radix_sort(packed, size, scratch, bucket)
        below = 0
        below_card[:] = 0
        start = 0
        while start < size:
            value = packed[start] >> _SLOT_BITS
            stop = start + 1
            while stop < size and (packed[stop] >> _SLOT_BITS) == value:
                stop += 1
            group = 0
            for k in range(start, stop):
                holding = packed[k] & slot_mask
                weight = pair_weight[holding]
                group += weight
                group_card[pair_low[holding]] += weight
                group_card[pair_high[holding]] += weight
            for k in range(start, stop):
                holding = packed[k] & slot_mask
                low = pair_low[holding]
                high = pair_high[holding]
                weight = pair_weight[holding]
                wins_of[holding] += below - below_card[low] - below_card[high]
                ties_of[holding] += group - group_card[low] - group_card[high] + weight
                total_of[holding] += everyone - all_card[low] - all_card[high] + weight
            for k in range(start, stop):
                holding = packed[k] & slot_mask
                low = pair_low[holding]
                high = pair_high[holding]
                weight = pair_weight[holding]
                group_card[low] = 0
                group_card[high] = 0
                below_card[low] += weight
                below_card[high] += weight
            below += group
            start = stop
    for holding in range(pairs):
        index = _index_of(pair_low[holding], pair_high[holding])
        counts[index, 0] = wins_of[holding]
        counts[index, 1] = ties_of[holding]
        counts[index, 2] = total_of[holding]


@njit
def every_holding_range_v(tables, board, weights, v):
    """`v[h]` (float64[1326]) of every holding against the 0/1 range `weights`, as
    `range_aware_v` computes it for one; NaN for holdings that meet the board or face no
    holding of the range."""
    counts = np.empty((HOLDINGS, 3), dtype=np.int64)
    every_holding_range_counts(tables, board, weights, counts)
    for index in range(HOLDINGS):
        total = np.float64(counts[index, 2])
        if total == 0.0:
            v[index] = np.nan
        else:
            wins = np.float64(counts[index, 0])
            losses = total - wins - np.float64(counts[index, 1])
            v[index] = wins / total - losses / total
