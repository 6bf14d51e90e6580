"""Win rates of every two-card holding at once, on one deal's board: what a range needs.

A player who reasons about an opponent's range needs the opponent's win rate v = W - L (against
one random hand, as the bot computes it) for *every* holding the opponent might hold, on every
street of the deal. Asking `win_rate` 1,176 times on a flop costs about 1.5 s; this module gets
all of them, for the flop, the turn and the river of a deal, in one pass of about 25 ms.

Holdings are indexed 0..1325: cards a < b (codes) have index b (b - 1) / 2 + a
(`holding_index`); `HOLDING_CARDS[index]` gives the cards back.

The pass (`every_holding_counts`), for a board F + t + r (flop F, turn t, river r):

1. Every runout {x, y} of two cards not in F (1,176 of them) makes a five-card board B. Each of
   the 1,081 holdings h disjoint from B gets its seven-card value on B.
2. Sorted by value, holdings are swept from the weakest up. Before a group of equal values, the
   sweep knows how many holdings are weaker (`below`) and, for each card c, how many weaker
   holdings contain c (`below_card[c]`). A holding {a, b} then beats the weaker holdings that
   share no card with it: below - below_card[a] - below_card[b] (no weaker holding holds both a
   and b, that would be itself). Likewise it ties the group members disjoint from it:
   group - group_card[a] - group_card[b] + 1 (itself is counted in both card counts). Every
   holding faces C(45, 2) = 990 opponents on B, so losses = 990 - wins - ties.
3. Summing over runouts gives the exact flop counts (each holding sees C(47, 2) = 1,081 runouts:
   1,070,190 showdowns, as `flop_counts`); the runouts that contain the deal's turn card give the
   turn counts (46 runouts: 45,540 showdowns); the runout {t, r} gives the river counts (990).

v is then wins / total - losses / total, the same floating-point operations as
`WinRate.from_counts(...).v`, so a holding's v here equals `win_rate(hole, board).v` bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from gambler.evaluator.hand_rank import hand_value, plain_value
from gambler.evaluator.showdown import _board_flush_suit, _cards_key_bits
from gambler.jit import helper, njit

HOLDINGS = 1326
#: Showdowns a holding faces against one random hand on the flop, the turn and the river.
STREET_TOTALS = (1_070_190, 45_540, 990)
_SLOT_BITS = 11  # a runout's holdings are numbered below 2,048 when packed with their values


def holding_index(first: int, second: int) -> int:
    """Index 0..1325 of the holding made of two different card codes."""
    low, high = sorted((int(first), int(second)))
    return high * (high - 1) // 2 + low


def _holding_cards() -> np.ndarray:
    cards = np.empty((HOLDINGS, 2), dtype=np.uint8)
    for high in range(1, 52):
        for low in range(high):
            cards[holding_index(low, high)] = (low, high)
    return cards


#: uint8[1326, 2]: the cards (low code first) of each holding index.
HOLDING_CARDS = _holding_cards()


@helper
def _index_of(low, high):
    return high * (high - 1) // 2 + low


@helper
def _radix_sort(packed, size, scratch, bucket):
    """Sort `packed[:size]` by value (the bits above the slot): two counting passes of 7 and 6
    bits (values are below 8,192), about five times faster than a comparison sort here."""
    for shift, width in ((_SLOT_BITS, 7), (_SLOT_BITS + 7, 6)):
        source = packed if shift == _SLOT_BITS else scratch
        target = scratch if shift == _SLOT_BITS else packed
        digits = 1 << width
        bucket[:digits] = 0
        for k in range(size):
            bucket[(source[k] >> shift) & (digits - 1)] += 1
        total = 0
        for digit in range(digits):
            count = bucket[digit]
            bucket[digit] = total
            total += count
        for k in range(size):
            digit = (source[k] >> shift) & (digits - 1)
            target[bucket[digit]] = source[k]
            bucket[digit] += 1


@helper
def _unseen_pairs(tables, known):
    """The cards not in `known` (ascending) and every pair of them, in the order (i, j), i < j,
    of their positions: (unseen, pair_key, pair_bits, pair_mask, pair_low, pair_high), a pair's
    rank key and suit bits being the sums of its two cards' (as a hand's are), its mask the set
    of its two cards, low < high its cards."""
    known_mask = np.int64(0)
    for k in range(known.shape[0]):
        known_mask |= np.int64(1) << known[k]
    unseen = np.empty(52 - known.shape[0], dtype=np.int64)
    count = 0
    for card in range(52):
        if not (known_mask >> card) & 1:
            unseen[count] = card
            count += 1
    pairs = count * (count - 1) // 2
    pair_key = np.empty(pairs, dtype=np.int64)
    pair_bits = np.empty(pairs, dtype=np.int64)
    pair_mask = np.empty(pairs, dtype=np.int64)
    pair_low = np.empty(pairs, dtype=np.int64)
    pair_high = np.empty(pairs, dtype=np.int64)
    pair = 0
    for i in range(count - 1):
        for j in range(i + 1, count):
            low, high = unseen[i], unseen[j]
            pair_key[pair] = tables.card_keys[low] + tables.card_keys[high]
            pair_bits[pair] = tables.card_bits[low] | tables.card_bits[high]
            pair_mask[pair] = (np.int64(1) << low) | (np.int64(1) << high)
            pair_low[pair] = low
            pair_high[pair] = high
            pair += 1
    return unseen, pair_key, pair_bits, pair_mask, pair_low, pair_high


@njit
def every_holding_counts(tables, board, counts):
    """Exact (wins, ties) of every holding on the flop, turn and river of `board` (5 cards).

    `counts` is int64[3, 1326, 2], filled for street s = 0 (flop), 1 (turn), 2 (river) and every
    holding disjoint from that street's board; rows of holdings that meet the board stay zero.
    Losses are `STREET_TOTALS[s]` - wins - ties. The algorithm is in the module docstring.
    """
    counts[:] = 0
    flop_key, flop_bits = _cards_key_bits(tables, board[:3])
    turn_card = board[3]
    river_card = board[4]
    # The 49 cards not on the flop and the 1,176 pairs of them (each a holding or a runout).
    _, pair_key, pair_bits, pair_mask, pair_low, pair_high = _unseen_pairs(tables, board[:3])
    pairs = pair_key.shape[0]
    packed = np.empty(pairs, dtype=np.int64)
    scratch = np.empty(pairs, dtype=np.int64)
    bucket = np.empty(128, dtype=np.int64)
    below_card = np.zeros(52, dtype=np.int64)
    group_card = np.zeros(52, dtype=np.int64)
    slot_mask = (1 << _SLOT_BITS) - 1
    flop_wins = np.zeros(pairs, dtype=np.int64)
    flop_ties = np.zeros(pairs, dtype=np.int64)
    turn_wins = np.zeros(pairs, dtype=np.int64)
    turn_ties = np.zeros(pairs, dtype=np.int64)
    for runout in range(pairs):
        board_key = flop_key + pair_key[runout]
        board_bits = flop_bits | pair_bits[runout]
        taken = pair_mask[runout]
        has_turn = pair_low[runout] == turn_card or pair_high[runout] == turn_card
        is_river = has_turn and (pair_low[runout] == river_card
                                 or pair_high[runout] == river_card)
        size = 0
        if _board_flush_suit(board_key) < 0:  # no suit has three board cards: no flush
            for holding in range(pairs):
                if pair_mask[holding] & taken:
                    continue
                value = plain_value(tables, board_key + pair_key[holding])
                packed[size] = (np.int64(value) << _SLOT_BITS) | holding
                size += 1
        else:
            for holding in range(pairs):
                if pair_mask[holding] & taken:
                    continue
                value = hand_value(tables, board_key + pair_key[holding],
                                   board_bits | pair_bits[holding])
                packed[size] = (np.int64(value) << _SLOT_BITS) | holding
                size += 1
        _radix_sort(packed, size, scratch, bucket)
        ordered = packed  # now ascending by value
        below = 0
        below_card[:] = 0
        start = 0
        while start < size:
            value = ordered[start] >> _SLOT_BITS
            stop = start + 1
            while stop < size and (ordered[stop] >> _SLOT_BITS) == value:
                stop += 1
            for k in range(start, stop):
                holding = ordered[k] & slot_mask
                group_card[pair_low[holding]] += 1
                group_card[pair_high[holding]] += 1
            group = stop - start
            for k in range(start, stop):
                holding = ordered[k] & slot_mask
                low = pair_low[holding]
                high = pair_high[holding]
                wins = below - below_card[low] - below_card[high]
                ties = group - group_card[low] - group_card[high] + 1
                flop_wins[holding] += wins
                flop_ties[holding] += ties
                if has_turn:
                    turn_wins[holding] += wins
                    turn_ties[holding] += ties
                    if is_river:
                        counts[2, _index_of(low, high), 0] = wins
                        counts[2, _index_of(low, high), 1] = ties
            for k in range(start, stop):
                holding = ordered[k] & slot_mask
                low = pair_low[holding]
                high = pair_high[holding]
                group_card[low] = 0
                group_card[high] = 0
                below_card[low] += 1
                below_card[high] += 1
            below += group
            start = stop
    for holding in range(pairs):
        index = _index_of(pair_low[holding], pair_high[holding])
        counts[0, index, 0] = flop_wins[holding]
        counts[0, index, 1] = flop_ties[holding]
        counts[1, index, 0] = turn_wins[holding]
        counts[1, index, 1] = turn_ties[holding]


@helper
def _rates_of_counts(board, counts, v):
    """v[s, h] = wins / total - losses / total, NaN for holdings that meet street s's board."""
    board_mask = np.int64(0)
    for street in range(3):
        if street == 0:
            total = 1_070_190
            for k in range(3):
                board_mask |= np.int64(1) << board[k]
        elif street == 1:
            total = 45_540
            board_mask |= np.int64(1) << board[3]
        else:
            total = 990
            board_mask |= np.int64(1) << board[4]
        for high in range(1, 52):
            for low in range(high):
                index = _index_of(low, high)
                if (board_mask >> low) & 1 or (board_mask >> high) & 1:
                    v[street, index] = np.nan
                else:
                    wins = counts[street, index, 0]
                    ties = counts[street, index, 1]
                    v[street, index] = wins / total - (total - wins - ties) / total


@njit(parallel=True)
def every_holding_rates(tables, boards, v):
    """v of every holding on the flop, turn and river of each board: v float64[n, 3, 1326]
    (NaN where the holding meets that street's board). All cores, one board per task."""
    for row in prange(boards.shape[0]):
        counts = np.empty((3, HOLDINGS, 2), dtype=np.int64)
        every_holding_counts(tables, boards[row], counts)
        _rates_of_counts(boards[row], counts, v[row])
