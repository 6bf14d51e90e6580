"""Hand values for 5, 6 and 7 cards: numba kernels and their checked Python entry point.

A hand's value is an integer in 1..7462, higher is better, equal values tie (see
`evaluator.tables` for the key-sum design). The building blocks below are what every other
kernel uses:

* a hand's *key* is `SUIT_COUNTERS_START` plus the sum of `card_keys` of its cards, and its
  *bits* the OR of `card_bits`; both can be built incrementally, a card at a time;
* `plain_value(tables, key)` values the ranks alone (correct whenever the hand has no flush);
* `flush_value(tables, bits, suit)` is the best flush in `suit`, or 0 when that suit holds fewer
  than five cards. With at most 7 cards a flush excludes quads and full houses, so the value of a
  hand whose only possible flush suit is `suit` is `max(plain_value, flush_value)`, with no branch;
* `hand_value(tables, key, bits)` values any hand as `max(plain_value, flush_value)` in the suit
  that `flush_suit(key)` finds, again with no branch.
"""

from __future__ import annotations

import numpy as np
from numba import uint32, uint64

from gambler.evaluator.cards import CardError, DECK_SIZE
from gambler.evaluator.tables import (CATEGORY_FIRST_VALUE, CATEGORY_NAMES, FLUSH_CHECK, HASH_SHIFT,
                              SUIT_COUNTERS_START, SUIT_LANE, SUIT_SHIFT, HandTables,
                              load_tables)
from gambler.jit import helper, njit, popcount

__all__ = ["rank_hands", "hand_category", "category_name", "CATEGORY_NAMES", "plain_value",
           "flush_value", "hand_value", "flush_suit"]


@helper
def plain_value(tables, key):
    """Value of the hand's ranks through the perfect hash (ignores flushes)."""
    rank_sum = uint32(key)
    return tables.rank_values[uint32(rank_sum + tables.hash_offsets[rank_sum >> HASH_SHIFT])]


@helper
def flush_value(tables, bits, suit):
    """Best flush among the cards of `suit` in `bits`, 0 with fewer than five of them."""
    return tables.flush_values[uint64((bits >> (SUIT_LANE * suit)) & 0x1FFF)]


@helper
def flush_suit(key):
    """The suit holding five or more cards if the hand has a flush, else 0 (no branch).

    Only one suit can hold five of at most seven cards, so at most one counter has bit 3 set.
    """
    counters = (key >> (SUIT_SHIFT + 3)) & 0x1111
    return ((counters >> 4) & 1) | ((counters >> 7) & 2) | (((counters >> 12) & 1) * 3)


@helper
def hand_value(tables, key, bits):
    """Value of any hand of 5 to 7 cards from its key and bits (no branch)."""
    return max(plain_value(tables, key), flush_value(tables, bits, flush_suit(key)))


@helper
def _plain_pass(tables, hands, values, flush_rows, card_count):
    """Value every row of `hands` by its ranks; list the rows with a flush in `flush_rows`.

    Returns how many rows have a flush. No branch: the row index is always written, and the count
    moves on only for a flush.
    """
    card_keys = tables.card_keys
    flush_count = 0
    for row in range(hands.shape[0]):
        key = SUIT_COUNTERS_START
        for column in range(card_count):
            key += card_keys[hands[row, column]]
        values[row] = plain_value(tables, key)
        flush_rows[flush_count] = row
        flush_count += (key & FLUSH_CHECK) != 0
    return flush_count


@helper
def _revalue_flushes(tables, hands, values, flush_rows, flush_count):
    """The second pass of `_rank_rows` and `_rank_rows_checked`: value the first `flush_count`
    rows listed in `flush_rows` (the rows with a flush) with their flush."""
    card_count = hands.shape[1]
    for i in range(flush_count):
        row = flush_rows[i]
        key = SUIT_COUNTERS_START
        bits = 0
        for column in range(card_count):
            key += tables.card_keys[hands[row, column]]
            bits |= tables.card_bits[hands[row, column]]
        values[row] = flush_value(tables, bits, flush_suit(key))


@njit
def _rank_rows(tables, hands, values, flush_rows):
    """Values of each row of `hands` (uint8[n, k], k = 5..7, every row valid).

    One branch-free pass values every row by its ranks and notes the rows with a flush; a second
    pass revalues those (about 3% of random 7-card hands). Branching on the flush inside the
    first pass costs more: the mispredictions discard the table reads in flight. The card count
    reaches the first pass as a constant, so that LLVM unrolls its inner loop (1.6 times faster
    than a loop over `hands.shape[1]` cards).
    """
    card_count = hands.shape[1]
    if card_count == 7:
        flush_count = _plain_pass(tables, hands, values, flush_rows, 7)
    elif card_count == 6:
        flush_count = _plain_pass(tables, hands, values, flush_rows, 6)
    else:
        flush_count = _plain_pass(tables, hands, values, flush_rows, 5)
    _revalue_flushes(tables, hands, values, flush_rows, flush_count)


#: The byte values a card code can take in a uint8 array: 0..51 are cards, 52..255 are not.
CODE_VALUES = 256
#: The key of a byte that is not a card: bit 48, above the suit counters (each counts at most
#: 3 + 7 = 10 < 16, so a key of valid cards never carries into bit 48).
BAD_CODE_KEY = 1 << 48


_checked_keys: np.ndarray | None = None


def checked_keys(tables: HandTables) -> np.ndarray:
    """The card key of every byte (int64[256]): `card_keys` for 0..51, `BAD_CODE_KEY` beyond, so
    that the checked pass reads a key for any byte and a bad byte marks its row's key."""
    global _checked_keys
    if _checked_keys is None:
        keys = np.full(CODE_VALUES, BAD_CODE_KEY, dtype=np.int64)
        keys[:DECK_SIZE] = tables.card_keys
        _checked_keys = keys
    return _checked_keys


@helper
def _checked_plain_pass(tables, keys, hands, values, flush_rows, card_count):
    """`_plain_pass` that also checks every row in the same loop: (rows with a flush, whether
    every row is a set of `card_count` distinct codes 0..51).

    Per card, beyond the valuing, one bit set: `seen |= 1 << (code & 63)` (a `bts`). A row is
    good iff its `seen` has `card_count` bits, none at 52 or above, and no byte was above 51. Each
    row has at most `card_count` bits, so all rows have that many iff the bits add up to
    `card_count * rows`; a byte above 51 has key `BAD_CODE_KEY`, which lands in bits 48..63 of its
    row's key (bytes 52..63 also set bits 52..63 of `seen`, bytes from 64 alias a card's bit: the
    key catches both), so the OR of all keys shows any. Per row: a `popcnt`, an add and an OR,
    no branch. A bad row is still valued, from a rank sum of up to 7 arbitrary cards, which
    the tables cover (`evaluator.tables.perfect_hash`); its value is never returned, since the
    call then raises. This costs about half the valuing (measured at 100k random 7-card rows),
    where the separate checking pass it replaced cost as much as the valuing.
    """
    flush_count = 0
    bits_total = np.uint64(0)
    keys_or = np.int64(0)
    for row in range(hands.shape[0]):
        key = SUIT_COUNTERS_START
        seen = np.uint64(0)
        for column in range(card_count):
            card = hands[row, column]
            key += keys[card]
            seen |= np.uint64(1) << np.uint64(card & 63)
        bits_total += popcount(seen)
        keys_or |= key
        values[row] = plain_value(tables, key)
        flush_rows[flush_count] = row
        flush_count += (key & FLUSH_CHECK) != 0
    all_good = (bits_total == np.uint64(card_count * hands.shape[0])
                and (keys_or & ~np.int64(BAD_CODE_KEY - 1)) == 0)
    return flush_count, all_good


@njit
def _rank_rows_checked(tables, keys, hands, values, flush_rows):
    """`_rank_rows` for rows of any bytes (`keys` from `checked_keys`): False (and values
    unfinished) if a row is not a set of distinct cards 0..51, else True with every value
    written. One pass both checks and values."""
    card_count = hands.shape[1]
    if card_count == 7:
        flush_count, all_good = _checked_plain_pass(tables, keys, hands, values, flush_rows, 7)
    elif card_count == 6:
        flush_count, all_good = _checked_plain_pass(tables, keys, hands, values, flush_rows, 6)
    else:
        flush_count, all_good = _checked_plain_pass(tables, keys, hands, values, flush_rows, 5)
    if not all_good:
        return False
    _revalue_flushes(tables, hands, values, flush_rows, flush_count)
    return True


@helper
def distinct_codes(hands, row, card_count):
    """Are the first `card_count` cards of `hands[row]` distinct codes 0..51?

    Branch-free, so a loop over many rows is not slowed by mispredictions; indexing the row in
    place (not a slice of it) keeps array views, and their reference counts, out of that loop.
    """
    seen = np.uint64(0)
    repeated = np.uint64(0)
    too_high = False
    for column in range(card_count):
        card = hands[row, column]
        too_high |= card >= DECK_SIZE
        bit = np.uint64(1) << np.uint64(card & 63)
        repeated |= seen & bit
        seen |= bit
    return not (too_high or repeated)


@helper
def _first_invalid_row_of(hands, card_count):
    """`_first_invalid_row` for rows of `card_count` cards, a constant the caller passes."""
    for row in range(hands.shape[0]):
        if not distinct_codes(hands, row, card_count):
            return row
    return -1


@njit
def _first_invalid_row(hands):
    """Index of the first row (uint8[n, k], k = 5..7) with a code above 51 or a repeated card,
    or -1. `rank_hands` runs it only once its checked pass has found a bad row, to name it.
    """
    card_count = hands.shape[1]
    if card_count == 7:
        return _first_invalid_row_of(hands, 7)
    if card_count == 6:
        return _first_invalid_row_of(hands, 6)
    return _first_invalid_row_of(hands, 5)


def rank_hands_unchecked(hands: np.ndarray, tables: HandTables | None = None) -> np.ndarray:
    """`rank_hands` without the input checks, for callers whose rows are known to be valid."""
    tables = load_tables() if tables is None else tables
    values = np.empty(hands.shape[0], dtype=np.uint16)
    _rank_rows(tables, hands, values, np.empty(hands.shape[0], dtype=np.int64))
    return values


def rank_hands(hands) -> np.ndarray:
    """Values (uint16, higher is better, ties equal) of many hands of 5, 6 or 7 cards at once.

    `hands` is an integer array of shape (n, k) of card codes (see `evaluator.cards`), k in 5..7;
    a code outside 0..51 or a card repeated within a row raises `CardError` naming the first such
    row. The rows are checked in the pass that values them (`_checked_plain_pass`), so the checked
    call runs at about two thirds of the speed of `rank_hands_unchecked`; an array of another integer type is
    range-checked, then converted to uint8, first.

    >>> from evaluator.cards import parse_cards
    >>> wheel, six_high = parse_cards("5c4d3h2sAc"), parse_cards("6c5d4h3s2c")
    >>> values = rank_hands(np.stack([wheel, six_high]))
    >>> [category_name(v) for v in values], bool(values[0] < values[1])
    (['straight', 'straight'], True)
    """
    array = np.asarray(hands)
    if array.ndim != 2 or not 5 <= array.shape[1] <= 7:
        raise CardError(f"hands must have shape (n, 5..7), not {array.shape}")
    if array.dtype != np.uint8:
        if array.size and (not np.issubdtype(array.dtype, np.integer)
                           or array.min() < 0 or array.max() >= DECK_SIZE):
            raise CardError("hands must hold integer card codes 0..51")
        array = array.astype(np.uint8)
    array = np.ascontiguousarray(array)
    tables = load_tables()
    values = np.empty(array.shape[0], dtype=np.uint16)
    if not _rank_rows_checked(tables, checked_keys(tables), array, values,
                              np.empty(array.shape[0], dtype=np.int64)):
        bad_row = _first_invalid_row(array)  # only now: find the row to name
        raise CardError(f"row {bad_row} of hands is not a set of distinct cards 0..51: "
                        f"{array[bad_row].tolist()}")
    return values


_CATEGORY_BOUNDS = np.array(CATEGORY_FIRST_VALUE[1:])


def hand_category(values) -> np.ndarray:
    """Category index of each value: 0 = high card ... 8 = straight flush (`CATEGORY_NAMES`)."""
    return np.searchsorted(_CATEGORY_BOUNDS, np.asarray(values), side="right")


def category_name(value: int) -> str:
    """`'two pair'`, `'straight flush'`, ... for one hand value."""
    return CATEGORY_NAMES[int(hand_category(value))]
