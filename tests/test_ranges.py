"""Win rates against a weighted range: the notation, and exact W, T, L checked three ways (every
weight 1 is `win_rate` count for count, one holding is the matchup, and a brute force with treys
for weighted ranges with card removal)."""

import itertools
import json

import numpy as np
import pytest
from treys import Card, Evaluator

from gambler.evaluator.cards import card_text, parse_cards
from gambler.evaluator.holdings import HOLDING_CARDS, holding_index
from gambler.evaluator.matchups import matchup
from gambler.evaluator.ranges import RangeError, live_combos, parse_range, range_win_rate
from gambler.evaluator.rates import win_rate
from test_equity_cli import run  # gambler-equity in this process: (code, out, err)


def combos(text):
    weights = parse_range(text)
    return sorted(card_text(a) + card_text(b) for a, b in HOLDING_CARDS[weights > 0])


@pytest.mark.parametrize("text, count", [
    ("QQ+", 18), ("22-55", 24), ("55-22", 24), ("AKs", 4), ("AKo", 12), ("AK", 16), ("KA", 16),
    ("A2s+", 48), ("KTo+", 36), ("A2s-A5s", 16), ("AsKc", 1), ("QQ+, AKs,AQo", 34),
    ("22+", 78), ("32", 16)])
def test_notation_counts_combos(text, count):
    assert int(parse_range(text).sum()) == count


def test_notation_names_the_right_holdings():
    assert set(combos("AKs")) == {"KcAc", "KdAd", "KhAh", "KsAs"}
    assert set(combos("TT+")) == {
        card_text(a) + card_text(b)
        for a, b in HOLDING_CARDS if a // 4 == b // 4 and a // 4 >= 8}
    assert set(combos("A2s-A4s")) == {f"{low}{s}A{s}" for low in "234" for s in "cdhs"}


def test_weights_and_the_last_word():
    weights = parse_range("AK:0.5, AKs")
    assert weights[holding_index(*parse_cards("AsKs"))] == 1.0
    assert weights[holding_index(*parse_cards("AsKc"))] == 0.5
    assert weights.sum() == 4 + 12 * 0.5


@pytest.mark.parametrize("text, fragment", [
    ("AKx", "range token 'AKx'"), ("QQs", "a pair is neither suited nor offsuit"),
    ("T9s:2", "the weight must be a number in [0, 1]"), ("T9s:x", "the weight"),
    ("AsAs", "the same card twice"), ("AsXc", "range token 'AsXc'"), ("", "empty range"),
    ("AK,,QQ", "an empty token"), ("22-AKs", "a span joins"), ("AKs-QJs", "a span joins")])
def test_bad_ranges_name_the_token(text, fragment):
    with pytest.raises(RangeError) as error:
        parse_range(text)
    assert fragment in str(error.value)


SPOTS = [("AsKc", ""), ("7h6h", ""), ("AsKc", "Qh7c2d"), ("2c2d", "Th9h8h"),
         ("AsKc", "Qh7c2d9s"), ("5c4c", "6c7d8h2s"), ("AsKc", "Qh7c2d9s3c"),
         ("2c3d", "AsKsQsJsTs")]


@pytest.mark.parametrize("hole, board", SPOTS)
def test_every_weight_one_is_the_random_hand(hole, board):
    against_all = range_win_rate(hole, board, np.ones(1326))
    random_hand = win_rate(hole, board)
    assert (against_all.win, against_all.tie, against_all.loss) == pytest.approx(
        (random_hand.win, random_hand.tie, random_hand.loss), abs=1e-15)


@pytest.mark.parametrize("hole, board", SPOTS)
def test_one_holding_is_the_matchup(hole, board):
    rng = np.random.default_rng(len(board) * 7 + ord(hole[0]))
    known = set(parse_cards(hole).tolist() + parse_cards(board).tolist())
    free = [card for card in range(52) if card not in known]
    for _ in range(3):
        a, b = rng.choice(free, size=2, replace=False)
        other = card_text(int(a)) + card_text(int(b))
        rate, expected = range_win_rate(hole, board, other), matchup(hole, other, board)
        assert (rate.win, rate.tie, rate.loss) == pytest.approx(
            (expected.win, expected.tie, expected.loss), abs=1e-15)


_treys = Evaluator()


def brute_force(hole, board, weights):
    """W, T, L by plain enumeration with treys: every holding of weight w > 0, every completion."""
    hole_codes, board_codes = parse_cards(hole).tolist(), parse_cards(board).tolist()
    as_treys = {code: Card.new(card_text(code)) for code in range(52)}
    known = set(hole_codes + board_codes)
    totals = np.zeros(3)
    for index in np.flatnonzero(weights):
        theirs = HOLDING_CARDS[index].tolist()
        if known & set(theirs):
            continue
        rest = [c for c in range(52) if c not in known and c not in theirs]
        for completion in itertools.combinations(rest, 5 - len(board_codes)):
            full = [as_treys[c] for c in board_codes + list(completion)]
            ours = _treys.evaluate(full, [as_treys[c] for c in hole_codes])
            their_rank = _treys.evaluate(full, [as_treys[c] for c in theirs])
            outcome = 0 if ours < their_rank else 1 if ours == their_rank else 2  # lower wins
            totals[outcome] += weights[index]
    return totals / totals.sum()


@pytest.mark.parametrize("hole, board, text", [
    ("AsKc", "Qh7c2d9s3c", "QQ+, AKs, 32:0.3, T9s:0.5"),
    ("Th9h", "8h7c2h5d", "88-JJ:0.7, AhKh, 63, KQ"),
    ("AsKc", "Qh7c2d", "QdQc, 7s7h:0.25, AdJd:0.5, 2s2h"),
])
def test_weighted_ranges_with_card_removal_match_a_brute_force(hole, board, text):
    weights = parse_range(text)
    rate = range_win_rate(hole, board, weights)
    assert (rate.win, rate.tie, rate.loss) == pytest.approx(brute_force(hole, board, weights),
                                                            abs=1e-12)


def test_preflop_range_is_the_weighted_matchups():
    weights = parse_range("AA, KQs:0.5")
    rate = range_win_rate("AsKs", "", weights)
    parts = [(w, matchup("AsKs", card_text(a) + card_text(b)))
             for (a, b), w in zip(HOLDING_CARDS.tolist(), weights)
             if w and not {a, b} & set(parse_cards("AsKs").tolist())]
    total = sum(w for w, _ in parts)
    assert len(parts) == 3 + 3  # AA without the As, KQs without KsQs
    assert rate.win == pytest.approx(sum(w * m.win for w, m in parts) / total, abs=1e-15)
    assert rate.tie == pytest.approx(sum(w * m.tie for w, m in parts) / total, abs=1e-15)


def test_an_empty_live_range_is_an_error():
    assert live_combos("AsAh", "Ac2d7h", "AA") == 0
    with pytest.raises(RangeError, match="empty once the cards"):
        range_win_rate("AsAh", "Ac2d7h", "AA")


def test_equity_cli_against_a_range(capsys):
    code, out, err = run(capsys, "AsKc", "--board", "Qh7c2d", "--vs", "QQ+,AKs,AQo", "--json")
    result = json.loads(out)
    expected = range_win_rate("AsKc", "Qh7c2d", "QQ+,AKs,AQo")
    assert code == 0 and err == ""
    assert (result["vs"], result["combos"], result["win"]) == ("QQ+,AKs,AQo", 18, expected.win)
    code, out, _ = run(capsys, "AsKc", "--vs", "QdQh")
    assert code == 0 and out.splitlines()[0] == "AsKc preflop against QdQh (1 combo live) (exact)"


@pytest.mark.parametrize("argv, message", [
    (["AsKc", "--vs", "AKx"], "gambler-equity: error: range token 'AKx'"),
    (["AsKc", "--vs", "KK", "--samples", "100"],
     "gambler-equity: error: --samples applies to a random opponent, not to --vs"),
    (["AsKc", "--board", "AhAd2c", "--vs", "AA"],
     "gambler-equity: error: the range is empty once the cards in the hole and on the board"),
])
def test_equity_cli_range_errors(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code != 0 and out == "" and err.startswith(message) and len(err.splitlines()) == 1


@pytest.mark.parametrize("board", ["", "Qh7c2d", "Qh7c2d9s", "Qh7c2d9s3h"])
def test_a_range_of_zero_weights_is_blamed_on_its_weights(board):
    with pytest.raises(RangeError) as error:
        range_win_rate("AsKc", board, "AA:0,KK:0")
    assert str(error.value) == "range 'AA:0,KK:0': every holding of the range has weight 0"
    with pytest.raises(RangeError) as error:
        range_win_rate("AsKc", board, np.zeros(1326))
    assert str(error.value) == "every holding of the range has weight 0"


def test_weights_are_blamed_even_where_card_removal_would_empty_the_range_too():
    with pytest.raises(RangeError, match="every holding of the range has weight 0"):
        range_win_rate("AsAh", "Ac2d7h", "AA:0")


def test_card_removal_is_blamed_when_only_blocked_holdings_weigh_more_than_0():
    # KK weighs 0 but is live; every AA, the only weight above 0, holds a known ace
    for text in ("AA,KK:0", "AsAh:0.5,AcAd:0"):
        with pytest.raises(RangeError) as error:
            range_win_rate("AsAh", "Ac2d7h", text)
        assert str(error.value) == ("the range is empty once the cards in the hole and on the "
                                    "board are removed")


@pytest.mark.parametrize("argv, message", [
    (["AsKc", "--vs", "AA:0,KK:0"], "range 'AA:0,KK:0': every holding of the range has weight 0"),
    (["AsKc", "--board", "Qh7c2d", "--vs", "AA:0"],
     "range 'AA:0': every holding of the range has weight 0"),
    (["AsAh", "--board", "Ac7c2d", "--vs", "AA,KK:0"],
     "the range is empty once the cards in the hole and on the board are removed"),
])
def test_equity_cli_blames_weights_or_card_removal(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (1, "", f"gambler-equity: error: {message}\n")
