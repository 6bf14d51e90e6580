"""Showdown counting kernels: how often a hand wins, ties and loses against one random hand.

The opponent's two hole cards and the missing board cards are dealt uniformly without
replacement from the `unseen` cards (the 50 - k not in our hole or the k-card board). Every kernel
returns integer counts (wins, ties, losses); `evaluator.win_rate` turns them into rates. Inputs
are trusted: `evaluator.win_rate` validates cards before calling in.

Exact enumeration, three ways:

* `enumerate_counts` is the reference: every completion of the board (C(n, 5 - k)), then every
  opponent hand from the 45 cards left (990). It builds the preflop table (2,097,572,400
  showdowns per hand) and checks the fast kernels in the tests.
* `river_counts` values our hand once and each of the 990 opponent hands.
* `turn_counts` and `flop_counts` use a symmetry. The opponent's seven cards are the known board
  plus *all* m + 2 unknown cards (m = 5 - k missing board cards), whichever of them fall on the
  board; only our value depends on the split. So for each (m + 2)-subset S of the unseen cards
  value the opponent once, and compare with our value for each of the C(m + 2, m) ways S splits
  into board cards and opponent cards. On the flop that is C(47, 4) = 178,365 opponent values
  (and 1,081 of ours) for 1,070,190 showdowns; on the turn C(46, 3) = 15,180 for 45,540.

Monte Carlo: `sampled_counts` (with a board) and `sampled_preflop_counts` draw the missing board
cards and the opponent's pair as indices into tables of the unseen cards and of their pairs,
rejecting a draw that meets a card already dealt. Samples are thus independent of each other (a
shuffled deck would chain each sample to the previous one through memory).

Every kernel takes `(tables, hole, board, ...)` and finds the unseen cards itself. Callers pick
the kernel for the street in Python: a numba function that dispatches to others is compiled (and
optimised) again with all of them inlined, which doubles the cold-start compile time.
"""

from __future__ import annotations

import numpy as np
from numba import prange, uint64

from gambler.evaluator.hand_rank import flush_value, hand_value, plain_value
from gambler.evaluator.rng import GOLDEN_GAMMA, mix64, stream_seed
from gambler.evaluator.tables import SUIT_COUNTERS_START, SUIT_SHIFT
from gambler.jit import helper, njit

BOARD_SIZE = 5
_LOW_32 = uint64(0xFFFFFFFF)
_32 = uint64(32)
_ONE = uint64(1)
#: Changes whenever the Monte Carlo kernels draw different deals for the same seed (results that
#: were cached under another version, such as training deal sets, are then recomputed).
SAMPLER_VERSION = 2


@helper
def _cards_key_bits(tables, cards):
    """Key (with the suit counters' start) and bits of a set of cards."""
    key = SUIT_COUNTERS_START
    bits = 0
    for i in range(cards.shape[0]):
        key += tables.card_keys[cards[i]]
        bits |= tables.card_bits[cards[i]]
    return key, bits


@helper
def _taken(hole, board):
    """The cards of `hole` and `board` as a 52-bit mask."""
    taken = (np.int64(1) << hole[0]) | (np.int64(1) << hole[1])
    for i in range(board.shape[0]):
        taken |= np.int64(1) << board[i]
    return taken


@njit
def unseen_cards(hole, board):
    """The 50 - len(board) cards not in `hole` or `board`, ascending (uint8)."""
    taken = _taken(hole, board)
    unseen = np.empty(50 - board.shape[0], dtype=np.uint8)
    count = 0
    for card in range(52):
        if not (taken >> card) & 1:
            unseen[count] = card
            count += 1
    return unseen


@helper
def _unseen_keys_bits(tables, hole, board):
    """Keys and bits of the unseen cards, in the order of `unseen_cards`.

    Built directly rather than through `unseen_cards`: its uint8 array costs the exact kernels
    about 0.5 s more compile time on a cold start.
    """
    return keys_bits_except(tables, _taken(hole, board), 50 - board.shape[0])


@helper
def keys_bits_except(tables, taken, count):
    """Keys and bits of the `count` cards not in the 52-bit mask `taken`, ascending."""
    keys = np.empty(count, dtype=np.int64)
    bits = np.empty(count, dtype=np.int64)
    found = 0
    for card in range(52):
        if not (taken >> card) & 1:
            keys[found] = tables.card_keys[card]
            bits[found] = tables.card_bits[card]
            found += 1
    return keys, bits


@helper
def _board_flush_suit(board_key):
    """The suit with three or more of the five board cards, or -1 (then no flush is possible)."""
    for suit in range(4):
        if ((board_key >> (SUIT_SHIFT + 4 * suit)) & 0xF) - 3 >= 3:
            return suit
    return -1


@helper
def _opponent_counts(tables, board_key, board_bits, our_value, keys, bits, count):
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
def enumerate_counts(tables, hole, board):
    """(wins, ties, losses) by plain enumeration: each board completion, then each opponent hand."""
    unseen = unseen_cards(hole, board)
    missing = BOARD_SIZE - board.shape[0]
    unseen_count = unseen.shape[0]
    known_key, known_bits = _cards_key_bits(tables, board)
    hole_key, hole_bits = _cards_key_bits(tables, hole)
    hole_key -= SUIT_COUNTERS_START

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
        round_wins, round_ties = _opponent_counts(tables, board_key, board_bits, our_value,
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
def river_counts(tables, hole, board):
    """(wins, ties, losses) on a full board: our value against each of the 990 hands."""
    keys, bits = _unseen_keys_bits(tables, hole, board)
    board_key, board_bits = _cards_key_bits(tables, board)
    hole_key, hole_bits = _cards_key_bits(tables, hole)
    our_value = hand_value(tables, board_key + hole_key - SUIT_COUNTERS_START,
                           board_bits | hole_bits)
    n = keys.shape[0]
    wins, ties = _opponent_counts(tables, board_key, board_bits, our_value, keys, bits, n)
    return wins, ties, n * (n - 1) // 2 - wins - ties


@helper
def _completions(tables, hole, board):
    """Everything the turn, flop and Monte Carlo kernels start from: the unseen cards' keys and
    bits, the board's key and bits, and our value for each way the unseen cards complete the
    board.

    `ours[i, j]` when unseen cards i and j complete a 3-card board, `ours[i, i]` when card i
    completes a 4-card board, `ours[0, 0]` on a full board.
    """
    keys, bits = _unseen_keys_bits(tables, hole, board)
    board_key, board_bits = _cards_key_bits(tables, board)
    n = keys.shape[0]
    hole_key, hole_bits = _cards_key_bits(tables, hole)
    hole_key += board_key - SUIT_COUNTERS_START
    hole_bits |= board_bits
    if board.shape[0] == BOARD_SIZE:
        ours = np.zeros((1, 1), dtype=np.int32)
        ours[0, 0] = hand_value(tables, hole_key, hole_bits)
        return keys, bits, board_key, board_bits, ours
    ours = np.zeros((n, n), dtype=np.int32)
    if board.shape[0] == 3:
        for i in range(n - 1):
            for j in range(i + 1, n):
                value = hand_value(tables, hole_key + keys[i] + keys[j],
                                   hole_bits | bits[i] | bits[j])
                ours[i, j] = value
                ours[j, i] = value
    else:
        for i in range(n):
            ours[i, i] = hand_value(tables, hole_key + keys[i], hole_bits | bits[i])
    return keys, bits, board_key, board_bits, ours


@njit
def turn_counts(tables, hole, board):
    """(wins, ties, losses) with four board cards, by the subset symmetry (module docstring)."""
    keys, bits, board_key, board_bits, ours = _completions(tables, hole, board)
    n = keys.shape[0]
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
def flop_counts(tables, hole, board):
    """(wins, ties, losses) with three board cards, by the subset symmetry (module docstring)."""
    keys, bits, board_key, board_bits, ours = _completions(tables, hole, board)
    n = keys.shape[0]
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


@helper
def _pairs(keys, bits):
    """Every pair i < j of the unseen cards: its key, its bits, and its two indices as a mask."""
    n = keys.shape[0]
    count = n * (n - 1) // 2
    pair_keys = np.empty(count, dtype=np.int64)
    pair_bits = np.empty(count, dtype=np.int64)
    pair_masks = np.empty(count, dtype=np.uint64)
    pair = 0
    for i in range(n - 1):
        for j in range(i + 1, n):
            pair_keys[pair] = keys[i] + keys[j]
            pair_bits[pair] = bits[i] | bits[j]
            pair_masks[pair] = (_ONE << uint64(i)) | (_ONE << uint64(j))
            pair += 1
    return pair_keys, pair_bits, pair_masks


@njit
def sampled_counts(tables, hole, board, samples, state):
    """(wins, ties, losses) over `samples` random deals from the SplitMix64 `state`; 3 to 5
    board cards.

    A deal is a completion of the board, then the opponent's pair. Both are drawn as indices into
    precomputed tables, so that samples do not depend on each other (a shuffled deck would chain
    every sample to the previous one through memory): on the flop the completion is a uniform pair
    of the unseen cards, on the turn one uniform card, on the river the one empty completion; the
    opponent's hand is a uniform pair, drawn again while it shares a card with the completion
    (rejection keeps it uniform among the pairs left: 8% of draws on the flop, 4% on the turn).
    Each 64-bit output of the generator gives two 32-bit numbers, mapped to a range by Lemire's
    multiply-shift. Our value depends only on the completion, so it is computed once per
    completion (as in `flop_counts`) and looked up per sample; one loop serves every street.
    """
    missing = BOARD_SIZE - board.shape[0]
    keys, bits, board_key, board_bits, ours = _completions(tables, hole, board)
    n = keys.shape[0]
    pair_keys, pair_bits, pair_masks = _pairs(keys, bits)
    # The completions: their keys, bits, cards (as masks of unseen-card indices) and our values.
    if missing == 2:
        completion_keys, completion_bits, completion_masks = pair_keys, pair_bits, pair_masks
        completion_ours = np.empty(pair_keys.shape[0], dtype=np.int32)
        pair = 0
        for i in range(n - 1):
            for j in range(i + 1, n):
                completion_ours[pair] = ours[i, j]
                pair += 1
    elif missing == 1:
        completion_keys, completion_bits = keys, bits
        completion_masks = _ONE << np.arange(n).astype(np.uint64)
        completion_ours = np.diag(ours).copy()
    else:
        completion_keys = np.zeros(1, dtype=np.int64)
        completion_bits = np.zeros(1, dtype=np.int64)
        completion_masks = np.zeros(1, dtype=np.uint64)
        completion_ours = ours[0].copy()
    completion_count = uint64(completion_keys.shape[0])
    pair_count = uint64(pair_keys.shape[0])
    wins = 0
    ties = 0
    for _ in range(samples):
        state += GOLDEN_GAMMA
        word = mix64(state)
        completion = ((word >> _32) * completion_count) >> _32
        taken = completion_masks[completion]
        theirs = ((word & _LOW_32) * pair_count) >> _32
        while pair_masks[theirs] & taken:
            state += GOLDEN_GAMMA
            theirs = ((mix64(state) & _LOW_32) * pair_count) >> _32
        their_value = hand_value(
            tables, board_key + completion_keys[completion] + pair_keys[theirs],
            board_bits | completion_bits[completion] | pair_bits[theirs])
        our_value = completion_ours[completion]
        wins += their_value < our_value
        ties += their_value == our_value
    return wins, ties, samples - wins - ties


@njit
def sampled_preflop_counts(tables, hole, samples, state):
    """`sampled_counts` with no board; both hands are valued each time.

    A deal is the opponent's pair, then the board as two pairs and a card, each drawn uniformly
    from the unseen cards and drawn again while it meets a card already dealt (rejection keeps
    each uniform among the cards left, so the whole deal is uniform; 0.41 extra draws a deal).
    """
    keys, bits = _unseen_keys_bits(tables, hole, hole[:0])
    pair_keys, pair_bits, pair_masks = _pairs(keys, bits)
    n = uint64(keys.shape[0])
    pair_count = uint64(pair_keys.shape[0])
    hole_key = tables.card_keys[hole[0]] + tables.card_keys[hole[1]]
    hole_bits = tables.card_bits[hole[0]] | tables.card_bits[hole[1]]
    wins = 0
    ties = 0
    for _ in range(samples):
        state += GOLDEN_GAMMA
        word = mix64(state)
        theirs = ((word >> _32) * pair_count) >> _32
        taken = pair_masks[theirs]
        first = ((word & _LOW_32) * pair_count) >> _32
        while pair_masks[first] & taken:
            state += GOLDEN_GAMMA
            first = ((mix64(state) >> _32) * pair_count) >> _32
        taken |= pair_masks[first]
        state += GOLDEN_GAMMA
        word = mix64(state)
        second = ((word >> _32) * pair_count) >> _32
        while pair_masks[second] & taken:
            state += GOLDEN_GAMMA
            second = ((mix64(state) >> _32) * pair_count) >> _32
        taken |= pair_masks[second]
        card = ((word & _LOW_32) * n) >> _32
        while (taken >> card) & _ONE:
            state += GOLDEN_GAMMA
            card = ((mix64(state) >> _32) * n) >> _32
        board_key = SUIT_COUNTERS_START + pair_keys[first] + pair_keys[second] + keys[card]
        board_bits = pair_bits[first] | pair_bits[second] | bits[card]
        our_value = hand_value(tables, board_key + hole_key, board_bits | hole_bits)
        their_value = hand_value(tables, board_key + pair_keys[theirs],
                                 board_bits | pair_bits[theirs])
        wins += their_value < our_value
        ties += their_value == our_value
    return wins, ties, samples - wins - ties


@njit(parallel=True)
def batch_counts(tables, holes, boards, board_sizes, samples, seed, counts):
    """Counts for many rows at once, in parallel: `counts[row] = (wins, ties, losses)`.

    Row `row` is hole `holes[row]` and board `boards[row, :board_sizes[row]]`. `samples` = 0
    means exact enumeration (callers keep preflop rows out: they take 2e9 showdowns each), else
    Monte Carlo on the row's own stream of `seed`, so results never depend on the thread count.
    """
    for row in prange(holes.shape[0]):
        hole = holes[row]
        board = boards[row, :board_sizes[row]]
        size = board.shape[0]
        if samples == 0:
            if size == 3:
                wins, ties, losses = flop_counts(tables, hole, board)
            elif size == 4:
                wins, ties, losses = turn_counts(tables, hole, board)
            else:
                wins, ties, losses = river_counts(tables, hole, board)
        elif size == 0:
            wins, ties, losses = sampled_preflop_counts(tables, hole, samples,
                                                        stream_seed(seed, row))
        else:
            wins, ties, losses = sampled_counts(tables, hole, board, samples,
                                                stream_seed(seed, row))
        counts[row, 0] = wins
        counts[row, 1] = ties
        counts[row, 2] = losses


#: The exact kernel for each board size after the flop.
EXACT_KERNELS = {3: flop_counts, 4: turn_counts, 5: river_counts}
