"""Hand against hand, and every holding at once: against treys, the single-hand kernels and
the shipped preflop table."""

import itertools

import numpy as np
import pytest

from conftest import random_hands
from gambler.evaluator import CardError, parse_cards, win_rate
from gambler.evaluator.holdings import (HOLDING_CARDS, HOLDINGS, STREET_TOTALS, every_holding_counts,
                                every_holding_rates, holding_index)
from gambler.evaluator.matchups import (MATCHUP_CLASSES, PREFLOP_BOARDS, allin_equities, build_table,
                                load_table, matchup, matchup_counts, preflop_counts)
from gambler.evaluator.preflop import CLASS_COUNT, load_table as load_class_table, representative
from gambler.evaluator.tables import load_tables

HOLDING_LIST = np.array(list(itertools.combinations(range(52), 2)), dtype=np.uint8)


def treys_matchup(hole_a, hole_b, board, treys_cards, evaluator):
    """A's (wins, ties, losses) against B by brute force with treys."""
    a, b, known = parse_cards(hole_a), parse_cards(hole_b), parse_cards(board)
    rest = sorted(set(range(52)) - set(a.tolist()) - set(b.tolist()) - set(known.tolist()))
    wins = ties = losses = 0
    for completion in itertools.combinations(rest, 5 - len(known)):
        full = treys_cards[np.r_[known, completion].astype(int)].tolist()
        ours = evaluator.evaluate(full, treys_cards[a].tolist())  # treys: lower is better
        theirs = evaluator.evaluate(full, treys_cards[b].tolist())
        wins += ours < theirs
        ties += ours == theirs
        losses += ours > theirs
    return wins, ties, losses


@pytest.mark.parametrize("hole_a, hole_b, board", [
    ("AsKc", "QhQd", "7c2d9s"), ("7h6h", "AcAd", "5h4h2c"), ("2c2d", "3h3s", "AsKsQsJs"),
    ("Td9d", "8c8h", "8d7d6c2s"), ("AhKh", "AdKd", "QhJh2c3h7d"),
])
def test_postflop_matchups_equal_treys(hole_a, hole_b, board, treys_cards, treys_evaluator):
    expected = treys_matchup(hole_a, hole_b, board, treys_cards, treys_evaluator)
    got = matchup_counts(load_tables(), parse_cards(hole_a), parse_cards(hole_b),
                         parse_cards(board))
    assert tuple(got) == expected


def test_preflop_table_sums_to_the_class_table():
    """Summed over every opponent holding, a hand's matchup counts are its counts against a
    random hand: the shipped 169-class table, built by another enumerator."""
    classes = load_class_table()
    for index in range(CLASS_COUNT):
        hole = np.array(representative(index), dtype=np.uint8)
        others = HOLDING_LIST[~np.isin(HOLDING_LIST, hole).any(axis=1)]
        counts = preflop_counts(np.repeat(hole[None], len(others), axis=0), others)
        assert counts.sum(axis=0).tolist() == classes[index].tolist(), index
        assert (counts.sum(axis=1) == PREFLOP_BOARDS).all()


def test_preflop_table_rows_are_rebuilt_exactly_and_symmetric():
    keys, counts = load_table()
    assert keys.shape[0] == MATCHUP_CLASSES and (np.diff(keys) > 0).all()
    chosen = keys[np.random.default_rng(5).choice(keys.shape[0], 3, replace=False)]
    _, rebuilt = build_table(chosen)
    assert rebuilt.tolist() == counts[np.searchsorted(keys, chosen)].tolist()
    # A against B is B against A seen from the other side, under any relabelling of suits.
    rng = np.random.default_rng(6)
    cards = random_hands(rng, 200, 4)
    forward = preflop_counts(cards[:, :2], cards[:, 2:])
    backward = preflop_counts(cards[:, 2:], cards[:, :2])
    assert (forward[:, 0] == backward[:, 2]).all() and (forward[:, 1] == backward[:, 1]).all()
    relabel = np.array([2, 0, 3, 1])
    moved = (cards // 4) * 4 + relabel[cards % 4]
    assert (preflop_counts(moved[:, :2], moved[:, 2:]) == forward).all()


def test_a_preflop_matchup_agrees_with_treys_sampled():
    """One matchup against treys on 20,000 random boards: within 4 standard errors."""
    from treys import Card, Evaluator
    evaluator = Evaluator()
    a, b = parse_cards("AcAd"), parse_cards("KhKs")
    exact = matchup("AcAd", "KhKs")
    rest = np.array(sorted(set(range(52)) - set(a.tolist()) - set(b.tolist())))
    rng = np.random.default_rng(7)
    as_treys = [Card.new(text) for text in ("Ac", "Ad")], [Card.new(text) for text in ("Kh", "Ks")]
    from gambler.evaluator.cards import card_text
    wins = 0
    samples = 20000
    for _ in range(samples):
        board = [Card.new(card_text(card)) for card in rng.choice(rest, 5, replace=False)]
        wins += evaluator.evaluate(board, as_treys[0]) < evaluator.evaluate(board, as_treys[1])
    error = np.sqrt(exact.win * (1 - exact.win) / samples)
    assert abs(wins / samples - exact.win) < 4 * error


def test_matchup_checks_its_cards_and_handles_degenerate_boards():
    assert matchup("2c3d", "4h5s", "AsKsQsJsTs").tie == 1.0
    assert matchup("AsAh", "2c7d", "AdAcKh2h2s").win == 1.0
    with pytest.raises(CardError, match="As appears twice"):
        matchup("AsKs", "AsQd")
    with pytest.raises(CardError):
        matchup("AsKs", "QdQc", "2c3c")


def test_allin_equities_of_deals():
    rng = np.random.default_rng(8)
    cards = random_hands(rng, 30, 9)
    holes, boards = cards[:, :4].reshape(30, 2, 2), cards[:, 4:]
    equities = allin_equities(holes, boards)
    for row in range(30):
        for street, size in ((0, 0), (1, 3), (2, 4)):
            expected = matchup(holes[row, 0], holes[row, 1], boards[row, :size]).equity
            assert equities[row, street] == pytest.approx(expected, abs=1e-15)


# --- every holding at once --------------------------------------------------------------------

def test_holding_index_is_a_bijection():
    assert HOLDING_CARDS.shape == (HOLDINGS, 2)
    seen = {holding_index(int(a), int(b)) for a, b in HOLDING_CARDS}
    assert seen == set(range(HOLDINGS))
    assert all(holding_index(int(b), int(a)) == index
               for index, (a, b) in enumerate(HOLDING_CARDS))


@pytest.mark.parametrize("board", ["Qh7c2d9s3h", "AsKsQs2s3d", "7c7d7h2s2c"])
def test_every_holding_equals_win_rate_bit_for_bit(board):
    """Each street's v for every holding is `win_rate(...).v` exactly (checked on all holdings
    for the turn and the river, and on a sample for the flop, whose single-hand kernel is slow)."""
    codes = parse_cards(board)
    v = np.zeros((1, 3, HOLDINGS))
    every_holding_rates(load_tables(), codes[None, :], v)
    counts = np.zeros((3, HOLDINGS, 2), dtype=np.int64)
    every_holding_counts(load_tables(), codes, counts)
    rng = np.random.default_rng(9)
    for street, size in ((0, 3), (1, 4), (2, 5)):
        visible = set(codes[:size].tolist())
        indices = range(HOLDINGS) if street else rng.choice(HOLDINGS, 60, replace=False)
        for index in indices:
            a, b = (int(card) for card in HOLDING_CARDS[index])
            if a in visible or b in visible:
                assert np.isnan(v[0, street, index])
                assert counts[street, index].tolist() == [0, 0]
                continue
            rate = win_rate([a, b], codes[:size].tolist())
            assert v[0, street, index] == rate.v, (street, index)
            assert counts[street, index, 0] == round(rate.win * STREET_TOTALS[street])
            assert counts[street, index, 1] == round(rate.tie * STREET_TOTALS[street])
