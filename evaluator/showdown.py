"""Showdown counting kernels: how often a hand wins, ties and loses against one random hand.

The opponent's two hole cards and the missing board cards are dealt uniformly without
replacement from the `unseen` cards (the 50 - k not in our hole or the k-card board). Every kernel
returns integer counts (wins, ties, losses); `evaluator.win_rate` turns them into rates. Inputs
are trusted: `evaluator.win_rate` validates cards before calling in.

Exact enumeration, three ways:

* `enumerate_counts` is the reference: every completion of the board (C(n, 5 - k)), then every
  opponent hand from the 45 cards left (990). It is what `exact_counts` uses on the river and
  what builds the preflop table (2,097,572,400 showdowns per hand).
* `turn_counts` and `flop_counts` use a symmetry. The opponent's seven cards are the known board
  plus *all* m + 2 unknown cards (m = 5 - k missing board cards), whichever of them fall on the
  board; only our value depends on the split. So for each (m + 2)-subset S of the unseen cards
  value the opponent once, and compare with our value for each of the C(m + 2, m) ways S splits
  into board cards and opponent cards. On the flop that is C(47, 4) = 178,365 opponent values
  (and 1,081 of ours) for 1,070,190 showdowns; on the turn C(46, 3) = 15,180 for 45,540.

Monte Carlo: `sampled_counts` draws deals by a partial Fisher-Yates shuffle of the unseen cards
(a shuffle may start from any order, so the deck is never reset between samples).
"""

from __future__ import annotations

import numpy as np
from numba import prange, uint64

from evaluator.hand_rank import flush_value, hand_value, plain_value
from evaluator.rng import GOLDEN_GAMMA, mix64, stream_seed
from evaluator.tables import SUIT_COUNTERS_START, SUIT_SHIFT
from gambler.jit import njit

BOARD_SIZE = 5
_LOW_32 = uint64(0xFFFFFFFF)
_32 = uint64(32)
_ONE = uint64(1)


@njit
def _cards_key_bits(tables, cards):
    """Key (with the suit counters' start) and bits of a set of cards."""
    key = SUIT_COUNTERS_START
    bits = 0
    for card in cards:
        key += tables.card_keys[card]
        bits |= tables.card_bits[card]
    return key, bits


@njit
def _board_flush_suit(board_key):
    """The suit with three or more of the five board cards, or -1 (then no flush is possible)."""
    for suit in range(4):
        if ((board_key >> (SUIT_SHIFT + 4 * suit)) & 0xF) - 3 >= 3:
            return suit
    return -1


@njit
def _river_counts(tables, board_key, board_bits, our_value, keys, bits, count):
    """(wins, ties) of `our_value` against every pair of the cards whose keys and bits are given.

    `board_key` and `board_bits` describe the five board cards.
    """
    suit = _board_flush_suit(board_key)
    wins = 0
    ties = 0
    if suit < 0:
        for i in range(count - 1):
            key_i = board_key + keys[i]
            for j in range(i + 1, count):
                value = plain_value(tables, key_i + keys[j])
                wins += value < our_value
                ties += value == our_value
    else:
        for i in range(count - 1):
            key_i = board_key + keys[i]
            bits_i = board_bits | bits[i]
            for j in range(i + 1, count):
                value = max(plain_value(tables, key_i + keys[j]),
                            flush_value(tables, bits_i | bits[j], suit))
                wins += value < our_value
                ties += value == our_value
    return wins, ties


@njit
def enumerate_counts(tables, hole, board, unseen):
    """(wins, ties, losses) by plain enumeration: each board completion, then each opponent hand."""
    missing = BOARD_SIZE - board.shape[0]
    unseen_count = unseen.shape[0]
    known_key, known_bits = _cards_key_bits(tables, board)
    hole_key = tables.card_keys[hole[0]] + tables.card_keys[hole[1]]
    hole_bits = tables.card_bits[hole[0]] | tables.card_bits[hole[1]]

    chosen = np.arange(missing)  # indices into `unseen` of the completion, increasing
    rest_keys = np.empty(unseen_count, dtype=np.int64)
    rest_bits = np.empty(unseen_count, dtype=np.int64)
    wins = 0
    ties = 0
    total = 0
    while True:
        board_key = known_key
        board_bits = known_bits
        rest_count = 0
        next_chosen = 0
        for index in range(unseen_count):
            card = unseen[index]
            if next_chosen < missing and chosen[next_chosen] == index:
                board_key += tables.card_keys[card]
                board_bits |= tables.card_bits[card]
                next_chosen += 1
            else:
                rest_keys[rest_count] = tables.card_keys[card]
                rest_bits[rest_count] = tables.card_bits[card]
                rest_count += 1
        our_value = hand_value(tables, board_key + hole_key, board_bits | hole_bits)
        round_wins, round_ties = _river_counts(tables, board_key, board_bits, our_value,
                                               rest_keys, rest_bits, rest_count)
        wins += round_wins
        ties += round_ties
        total += rest_count * (rest_count - 1) // 2
        # Next combination of `missing` indices out of `unseen_count`, in lexicographic order.
        position = missing - 1
        while position >= 0 and chosen[position] == unseen_count - missing + position:
            position -= 1
        if position < 0:
            break
        chosen[position] += 1
        for later in range(position + 1, missing):
            chosen[later] = chosen[later - 1] + 1
    return wins, ties, total - wins - ties


@njit
def turn_counts(tables, hole, board, unseen):
    """(wins, ties, losses) with four board cards, by the subset symmetry (module docstring)."""
    n = unseen.shape[0]
    board_key, board_bits = _cards_key_bits(tables, board)
    keys, bits, ours = _completions(tables, hole, board_key, board_bits, unseen, 1)
    wins = 0
    ties = 0
    for a in range(n - 2):
        key_a = board_key + keys[a]
        bits_a = board_bits | bits[a]
        for b in range(a + 1, n - 1):
            key_ab = key_a + keys[b]
            bits_ab = bits_a | bits[b]
            for c in range(b + 1, n):
                theirs = hand_value(tables, key_ab + keys[c], bits_ab | bits[c])
                wins += (theirs < ours[a, a]) + (theirs < ours[b, b]) + (theirs < ours[c, c])
                ties += (theirs == ours[a, a]) + (theirs == ours[b, b]) + (theirs == ours[c, c])
    total = 3 * (n * (n - 1) * (n - 2) // 6)
    return wins, ties, total - wins - ties


@njit
def _completions(tables, hole, board_key, board_bits, unseen, missing):
    """Keys and bits of the unseen cards, and our value for each way they complete the board.

    `ours[i, j]` is our value when unseen[i] and unseen[j] complete a 3-card board, `ours[i, i]`
    when unseen[i] completes a 4-card board, and every entry is our value on a full board.
    """
    n = unseen.shape[0]
    keys = np.empty(n, dtype=np.int64)
    bits = np.empty(n, dtype=np.int64)
    for i in range(n):
        keys[i] = tables.card_keys[unseen[i]]
        bits[i] = tables.card_bits[unseen[i]]
    hole_key = tables.card_keys[hole[0]] + tables.card_keys[hole[1]] + board_key
    hole_bits = tables.card_bits[hole[0]] | tables.card_bits[hole[1]] | board_bits
    ours = np.zeros((n, n), dtype=np.int32)
    if missing == 2:
        for i in range(n - 1):
            for j in range(i + 1, n):
                value = hand_value(tables, hole_key + keys[i] + keys[j],
                                   hole_bits | bits[i] | bits[j])
                ours[i, j] = value
                ours[j, i] = value
    elif missing == 1:
        for i in range(n):
            ours[i, i] = hand_value(tables, hole_key + keys[i], hole_bits | bits[i])
    else:
        ours[:, :] = hand_value(tables, hole_key, hole_bits)
    return keys, bits, ours


@njit
def flop_counts(tables, hole, board, unseen):
    """(wins, ties, losses) with three board cards, by the subset symmetry (module docstring)."""
    n = unseen.shape[0]
    board_key, board_bits = _cards_key_bits(tables, board)
    keys, bits, ours = _completions(tables, hole, board_key, board_bits, unseen, 2)
    wins = 0
    ties = 0
    for a in range(n - 3):
        key_a = board_key + keys[a]
        bits_a = board_bits | bits[a]
        for b in range(a + 1, n - 2):
            key_ab = key_a + keys[b]
            bits_ab = bits_a | bits[b]
            ours_ab = ours[a, b]
            for c in range(b + 1, n - 1):
                key_abc = key_ab + keys[c]
                bits_abc = bits_ab | bits[c]
                ours_ac = ours[a, c]
                ours_bc = ours[b, c]
                for d in range(c + 1, n):
                    theirs = hand_value(tables, key_abc + keys[d], bits_abc | bits[d])
                    wins += ((theirs < ours_ab) + (theirs < ours_ac) + (theirs < ours_bc)
                             + (theirs < ours[a, d]) + (theirs < ours[b, d])
                             + (theirs < ours[c, d]))
                    ties += ((theirs == ours_ab) + (theirs == ours_ac) + (theirs == ours_bc)
                             + (theirs == ours[a, d]) + (theirs == ours[b, d])
                             + (theirs == ours[c, d]))
    total = 6 * (n * (n - 1) * (n - 2) * (n - 3) // 24)
    return wins, ties, total - wins - ties


@njit
def exact_counts(tables, hole, board, unseen):
    """(wins, ties, losses) by exact enumeration, the fastest way for the board's size."""
    if board.shape[0] == 3:
        return flop_counts(tables, hole, board, unseen)
    if board.shape[0] == 4:
        return turn_counts(tables, hole, board, unseen)
    return enumerate_counts(tables, hole, board, unseen)


@njit
def _draw(cards, top, uniform):
    """One Fisher-Yates step: move a card chosen by `uniform` (32 random bits) below `top`.

    Returns (the card, the new top). Lemire's multiply-shift maps the bits to 0..top-1.
    """
    pick = (uniform * top) >> _32
    top -= _ONE
    card = cards[pick]
    cards[pick] = cards[top]
    cards[top] = card
    return card, top


@njit
def sampled_counts(tables, hole, board, unseen, samples, state):
    """(wins, ties, losses) over `samples` random deals drawn with the SplitMix64 `state`.

    Each 64-bit output of the generator gives two 32-bit numbers, one per card. On the flop,
    turn and river our value depends only on which unseen cards complete the board, so it is
    computed once per completion (as in `flop_counts`) and looked up per sample; preflop it is
    computed per sample. `unseen` is shuffled in place (its contents stay the same set).
    """
    if board.shape[0] == 0:
        return _sampled_preflop(tables, hole, unseen, samples, state)
    missing = BOARD_SIZE - board.shape[0]
    n = unseen.shape[0]
    board_key, board_bits = _cards_key_bits(tables, board)
    keys, bits, ours = _completions(tables, hole, board_key, board_bits, unseen, missing)
    order = np.arange(n).astype(np.uint8)  # shuffled indices into `unseen`
    wins = 0
    ties = 0
    for _ in range(samples):
        top = uint64(n)
        state += GOLDEN_GAMMA
        word = mix64(state)
        if missing == 2:
            first, top = _draw(order, top, word >> _32)
            second, top = _draw(order, top, word & _LOW_32)
            our_value = ours[first, second]
            state += GOLDEN_GAMMA
            word = mix64(state)
            third, top = _draw(order, top, word >> _32)
            fourth, top = _draw(order, top, word & _LOW_32)
            key = board_key + keys[first] + keys[second] + keys[third] + keys[fourth]
            hand_bits = board_bits | bits[first] | bits[second] | bits[third] | bits[fourth]
        elif missing == 1:
            first, top = _draw(order, top, word >> _32)
            our_value = ours[first, first]
            second, top = _draw(order, top, word & _LOW_32)
            state += GOLDEN_GAMMA
            third, top = _draw(order, top, mix64(state) >> _32)
            key = board_key + keys[first] + keys[second] + keys[third]
            hand_bits = board_bits | bits[first] | bits[second] | bits[third]
        else:
            our_value = ours[0, 0]
            first, top = _draw(order, top, word >> _32)
            second, top = _draw(order, top, word & _LOW_32)
            key = board_key + keys[first] + keys[second]
            hand_bits = board_bits | bits[first] | bits[second]
        their_value = hand_value(tables, key, hand_bits)
        wins += their_value < our_value
        ties += their_value == our_value
    return wins, ties, samples - wins - ties


@njit
def _sampled_preflop(tables, hole, unseen, samples, state):
    """`sampled_counts` with no board: seven cards a sample, both hands valued each time."""
    card_keys = tables.card_keys
    card_bits = tables.card_bits
    hole_key = card_keys[hole[0]] + card_keys[hole[1]]
    hole_bits = card_bits[hole[0]] | card_bits[hole[1]]
    wins = 0
    ties = 0
    for _ in range(samples):
        top = uint64(unseen.shape[0])
        board_key = SUIT_COUNTERS_START
        board_bits = 0
        for _ in range(2):
            state += GOLDEN_GAMMA
            word = mix64(state)
            card, top = _draw(unseen, top, word >> _32)
            board_key += card_keys[card]
            board_bits |= card_bits[card]
            card, top = _draw(unseen, top, word & _LOW_32)
            board_key += card_keys[card]
            board_bits |= card_bits[card]
        state += GOLDEN_GAMMA
        word = mix64(state)
        card, top = _draw(unseen, top, word >> _32)
        board_key += card_keys[card]
        board_bits |= card_bits[card]
        first, top = _draw(unseen, top, word & _LOW_32)
        state += GOLDEN_GAMMA
        second, top = _draw(unseen, top, mix64(state) >> _32)
        our_value = hand_value(tables, board_key + hole_key, board_bits | hole_bits)
        their_value = hand_value(tables, board_key + card_keys[first] + card_keys[second],
                                 board_bits | card_bits[first] | card_bits[second])
        wins += their_value < our_value
        ties += their_value == our_value
    return wins, ties, samples - wins - ties


@njit
def unseen_cards(hole, board, board_size, unseen):
    """Fill `unseen` with the 50 - board_size cards not in `hole` or `board[:board_size]`."""
    taken = (np.int64(1) << hole[0]) | (np.int64(1) << hole[1])
    for i in range(board_size):
        taken |= np.int64(1) << board[i]
    count = 0
    for card in range(52):
        if not (taken >> card) & 1:
            unseen[count] = card
            count += 1
    return count


@njit(parallel=True)
def batch_counts(tables, holes, boards, board_sizes, samples, seed, counts):
    """Counts for many rows at once, in parallel: `counts[row] = (wins, ties, losses)`.

    Row `row` is hole `holes[row]` and board `boards[row, :board_sizes[row]]`. `samples` = 0
    means exact enumeration (callers keep preflop rows out: they take 2e9 showdowns each), else
    Monte Carlo on the row's own stream of `seed`, so results never depend on the thread count.
    """
    for row in prange(holes.shape[0]):
        size = board_sizes[row]
        unseen = np.empty(52, dtype=np.uint8)
        count = unseen_cards(holes[row], boards[row], size, unseen)
        board = boards[row, :size]
        if samples == 0:
            wins, ties, losses = exact_counts(tables, holes[row], board, unseen[:count])
        else:
            wins, ties, losses = sampled_counts(tables, holes[row], board, unseen[:count],
                                                samples, stream_seed(seed, row))
        counts[row, 0] = wins
        counts[row, 1] = ties
        counts[row, 2] = losses
