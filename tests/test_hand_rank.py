"""Hand values: agreement with treys, exact category counts, and golden spots."""

import itertools

import numpy as np
import pytest

from conftest import random_hands
from gambler.evaluator import CardError, category_name, hand_category, parse_cards, rank_hands
from gambler.evaluator.hand_rank import hand_value, rank_hands_unchecked
from gambler.evaluator.tables import (CATEGORY_FIRST_VALUE, DISTINCT_VALUES, HASH_SHIFT, RANK_KEYS, SUIT_COUNTERS_START,
                              build_tables, load_tables, rank_multisets, search_rank_keys)
from gambler.jit import njit, popcount


def values(*hands: str) -> list[int]:
    return rank_hands(np.stack([parse_cards(hand) for hand in hands])).tolist()


def test_every_five_card_hand_matches_treys(treys_cards, treys_evaluator):
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)
    ours = rank_hands(hands)
    five = treys_evaluator._five  # treys' own 5-card lookup: 1 = royal flush ... 7462 = 7-high
    theirs = np.array([five(hand) for hand in treys_cards[hands].tolist()])
    np.testing.assert_array_equal(ours, DISTINCT_VALUES + 1 - theirs)
    # 5-card category counts, straight flush to high card (treys' documentation, Wikipedia)
    counts = np.bincount(hand_category(ours), minlength=9)[::-1]
    assert counts.tolist() == [40, 624, 3744, 5108, 10200, 54912, 123552, 1098240, 1302540]


@pytest.mark.parametrize("size, count", [(7, 300_000), (6, 100_000)])
def test_random_hands_match_treys(treys_cards, treys_evaluator, size, count):
    hands = random_hands(np.random.default_rng(size), count, size)
    ours = rank_hands(hands)
    as_treys = treys_cards[hands].tolist()
    evaluate = treys_evaluator.evaluate
    theirs = np.array([evaluate(hand[:2], hand[2:]) for hand in as_treys])
    np.testing.assert_array_equal(ours, DISTINCT_VALUES + 1 - theirs)


@njit
def _seven_card_category_counts(tables, first_values):
    """Counts per category over all C(52, 7) hands, keys built one card at a time."""
    counts = np.zeros(9, dtype=np.int64)
    keys = tables.card_keys
    bits = tables.card_bits
    for a in range(46):
        ka, ba = SUIT_COUNTERS_START + keys[a], bits[a]
        for b in range(a + 1, 47):
            kb, bb = ka + keys[b], ba | bits[b]
            for c in range(b + 1, 48):
                kc, bc = kb + keys[c], bb | bits[c]
                for d in range(c + 1, 49):
                    kd, bd = kc + keys[d], bc | bits[d]
                    for e in range(d + 1, 50):
                        ke, be = kd + keys[e], bd | bits[e]
                        for f in range(e + 1, 51):
                            kf, bf = ke + keys[f], be | bits[f]
                            for g in range(f + 1, 52):
                                value = hand_value(tables, kf + keys[g], bf | bits[g])
                                category = 0
                                while category < 8 and value >= first_values[category + 1]:
                                    category += 1
                                counts[category] += 1
    return counts


def test_all_seven_card_hands_by_category():
    counts = _seven_card_category_counts(load_tables(), np.array(CATEGORY_FIRST_VALUE))
    assert counts[::-1].tolist() == [41_584, 224_848, 3_473_184, 4_047_644, 6_180_020,
                                     6_461_620, 31_433_400, 58_627_800, 23_294_460]
    assert counts.sum() == 133_784_560


# Golden spots: each row is (stronger or equal hand, weaker hand, relation).
GOLDEN = [
    ("6c5d4h3s2c", "5c4d3h2sAc", ">", "six-high straight beats the wheel"),
    ("5c4d3h2sAc", "KcKdKhQs2c", ">", "the wheel beats three kings"),
    ("5s4s3s2sAs", "AcAdAhAsKc", ">", "the steel wheel beats four aces"),
    ("6s5s4s3s2s", "5s4s3s2sAs", ">", "six-high straight flush beats the steel wheel"),
    ("AsKsQsJsTs", "KsQsJsTs9s", ">", "royal flush is the best straight flush"),
    ("AsKsQsJsTs2c3d", "AsKsQsJsTs4h5h", "=", "the board plays: royal flush on board splits"),
    ("AhAdKc7s2dQc3h", "AhAdKc7s2dQd4h", "=", "kicker split: A A K Q 7 for both"),
    ("AhAdKc7s2dQc3h", "AhAdKc7s2dJd4h", ">", "the queen kicker beats the jack"),
    ("KcKdQhQs5c2h2d", "KcKdQhQs5c3h3d", "=", "counterfeited: both play K K Q Q 5"),
    ("KcKdQhQs5cAh2d", "KcKdQhQs5c3h3d", ">", "the ace plays as kicker"),
    ("2c2d2hAsAc", "AcAdAhKsKc", "<", "full houses rank by their trips"),
    ("AhJh9h4h2h", "KhQhJh9h7h", ">", "flushes rank by their highest card"),
    ("TcTdTh9s9cAsKs", "TcTdTh9s9c8s8h", "=", "two full houses on one board: tens full of nines"),
    ("7c7d7h7s2c", "7c7d7h7sAc", "<", "quads rank by kicker"),
]


@pytest.mark.parametrize("stronger, weaker, relation, why", GOLDEN)
def test_golden_spots(stronger, weaker, relation, why):
    first, second = rank_hands(parse_cards(stronger)[None, :])[0], \
        rank_hands(parse_cards(weaker)[None, :])[0]
    assert {">": first > second, "<": first < second, "=": first == second}[relation], why


def test_categories_and_extremes():
    assert values("7c5d4h3s2c", "AsKsQsJsTs") == [1, DISTINCT_VALUES]
    names = [category_name(value) for value in values(
        "7c5d4h3s2c", "2c2d4h5s7c", "2c2d4h4s7c", "2c2d2h4s7c", "5c4d3h2sAc", "Ac9c4c3c2c",
        "2c2d2h4s4c", "2c2d2h2s4c", "5c4c3c2cAc")]
    assert names == ["high card", "pair", "two pair", "three of a kind", "straight", "flush",
                     "full house", "four of a kind", "straight flush"]


def test_bad_hands_are_refused_with_the_row():
    with pytest.raises(CardError, match="row 1"):
        rank_hands(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]]))
    with pytest.raises(CardError, match="0..51"):
        rank_hands(np.array([[0, 1, 2, 3, 52]]))
    with pytest.raises(CardError, match="shape"):
        rank_hands(np.zeros((2, 4), dtype=np.uint8))


@pytest.mark.parametrize("card_count", [5, 6, 7])
@pytest.mark.parametrize("bad_card", [None, 52, 64, 255])  # None repeats the row's first card
def test_bad_uint8_rows_are_found_for_every_card_count(card_count, bad_card):
    """uint8 input skips the dtype conversion, so the kernel's own check must catch the row."""
    hands = np.arange(3 * card_count, dtype=np.uint8).reshape(3, card_count)
    hands[2, card_count - 1] = hands[2, 0] if bad_card is None else bad_card
    with pytest.raises(CardError, match="row 2"):
        rank_hands(hands)


def test_shipped_tables_equal_a_fresh_build():
    fresh, shipped = build_tables(), load_tables()
    for name, array in fresh._asdict().items():
        np.testing.assert_array_equal(array, getattr(shipped, name), err_msg=name)


def test_rank_keys_give_distinct_sums():
    sums = rank_multisets() @ np.array(RANK_KEYS)
    assert sums.shape[0] == 76_155 and np.unique(sums).shape[0] == sums.shape[0]


def test_any_seven_codes_look_up_inside_the_tables():
    """The checked pass values bad rows before it rejects them, so the rank sum of any multiset
    of up to 7 ranks (a rank up to 7 times: a card repeated) must hash to a row and a slot inside
    the shipped tables; the rows of real hands keep their values."""
    tables = load_tables()
    sums = np.array([sum(RANK_KEYS[rank] for rank in ranks)
                     for size in range(8)
                     for ranks in itertools.combinations_with_replacement(range(13), size)])
    assert sums.shape[0] == 77_520
    rows = sums >> HASH_SHIFT
    assert rows.max() == 7 * RANK_KEYS[-1] >> HASH_SHIFT == tables.hash_offsets.shape[0] - 1
    slots = sums + tables.hash_offsets[rows]
    assert slots.min() >= 0 and slots.max() < tables.rank_values.shape[0]


def test_popcount_counts_bits():
    count = njit(lambda value: popcount(value))
    for value in [0, 1, 0b1011, (1 << 52) - 1, (1 << 64) - 1, 1 << 63]:
        assert count(np.uint64(value)) == bin(value).count("1")


@pytest.mark.slow
def test_rank_keys_are_what_the_search_finds():
    assert search_rank_keys() == RANK_KEYS


def test_bad_hands_messages_are_exact():
    """The checked pass refuses with the same words as the separate check it replaced."""
    with pytest.raises(CardError) as error:
        rank_hands(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]], dtype=np.uint8))
    assert str(error.value) == ("row 1 of hands is not a set of distinct cards 0..51: "
                                "[0, 1, 2, 3, 3]")
    with pytest.raises(CardError) as error:
        rank_hands(np.array([[0, 1, 2, 3, 52]]))
    assert str(error.value) == "hands must hold integer card codes 0..51"
    with pytest.raises(CardError) as error:
        rank_hands(np.array([[0.0, 1, 2, 3, 4]]))
    assert str(error.value) == "hands must hold integer card codes 0..51"
    with pytest.raises(CardError) as error:
        rank_hands(np.zeros((2, 4), dtype=np.uint8))
    assert str(error.value) == "hands must have shape (n, 5..7), not (2, 4)"


def test_every_pair_of_bytes_is_checked():
    """Rows [a, b, 2d, 5h, 9s, Qc, Ks] for every pair of bytes a, b in 0..255: the one-pass check
    accepts exactly the rows of seven distinct codes below 52, which then get their values."""
    fixed = [1, 14, 31, 40, 47]  # 2d 5h 9s Qc Ks
    for a in range(256):
        rows = np.array([[a, b, *fixed] for b in range(256)], dtype=np.uint8)
        good = [a < 52 and b < 52 and a != b and a not in fixed and b not in fixed
                for b in range(256)]
        for row, is_good in zip(rows, good):
            if is_good:
                assert rank_hands(row[None]) == rank_hands_unchecked(row[None])
            else:
                with pytest.raises(CardError, match="row 0 "):
                    rank_hands(row[None])


@pytest.mark.parametrize("row", [
    [52, 53, 54, 55, 56, 57, 58],   # seven bad codes (bits 52..58: seven bits, the key marks them)
    [255] * 7,                      # seven equal bad codes
    [0, 64, 8, 12, 17, 21, 25],     # 64 sets the bit of code 0: seven bits, the key marks it
    [0] * 7,                        # seven equal good codes
    [51] * 7,                       # the largest rank sum seven codes reach (a lookup in bounds)
    [0, 1, 2, 3, 4, 5, 255],        # the last only
    [51, 50, 49, 48, 47, 46, 51],   # As twice, far apart
])
def test_rows_the_bit_count_and_key_check_must_catch(row):
    hands = np.array([[0, 4, 8, 12, 17, 21, 25], row], dtype=np.uint8)
    with pytest.raises(CardError, match=r"^row 1 of hands"):
        rank_hands(hands)


def test_the_first_bad_row_is_named_and_flush_rows_do_not_hide_it():
    hands = random_hands(np.random.default_rng(3), 1_000, 7)
    hands[0] = parse_cards("AsKsQsJsTs2c3d")  # a flush row, valued in the second pass
    hands[600, 6] = hands[600, 0]
    hands[700, 3] = 99
    with pytest.raises(CardError, match="row 600 "):
        rank_hands(hands)
    hands[600, 6] = 99
    hands[:600, 0], hands[:600, 1] = 200, 201
    with pytest.raises(CardError, match=r"row 0 of hands .*\[200, 201, "):
        rank_hands(hands)


@pytest.mark.parametrize("card_count", [5, 6, 7])
def test_checked_values_equal_the_kernel(card_count):
    hands = random_hands(np.random.default_rng(card_count), 50_000, card_count)
    np.testing.assert_array_equal(rank_hands(hands), rank_hands_unchecked(hands))
    np.testing.assert_array_equal(rank_hands(hands.astype(np.int64)), rank_hands_unchecked(hands))
    assert rank_hands(np.zeros((0, card_count), dtype=np.uint8)).shape == (0,)
