"""The arithmetic of results: duplicate scores, their confidence intervals, the all-in adjustment
and ACPC logs, each on small cases worked out by hand."""

import math

import numpy as np
import pytest

from acpc_support import ACPC, NOLIMIT
from gambler.bot.params import load_profile
from gambler.evaluator import parse_cards
from gambler.evaluator.matchups import matchup
from gambler.protocol import load_game
from gambler.protocol.errors import ProtocolError
from gambler.protocol.logs import parse_log, parse_state_line, read_log
from gambler.training.deals import compute_deal_set
from gambler.training.engine import encode_rules, encode_strategy, play_deals
from gambler.training.evaluate import Score, score_pairs
from gambler.training.luck import adjusted_values, allin_round

GAME = load_game(NOLIMIT)


# --- duplicate scores ---------------------------------------------------------------------------

def test_score_of_pairs_worked_by_hand():
    # Four deals; A's chips over both hands of each: +100, -50, +250, 0 (big blind 100).
    # Mean 75 chips a pair = 37.5 chips a hand = 375 mbb/hand. Sample sd of the pairs:
    # deviations 25, -125, 175, -75 -> squares 625 + 15625 + 30625 + 5625 = 52500, / 3 = 17500,
    # sd = 132.2876 chips a pair; standard error of the mean 66.1438; per hand 33.0719 chips
    # = 330.719 mbb; 95% half-width 1.959964 x 330.719 = 648.2 mbb/hand.
    score = score_pairs(np.array([100, -50, 250, 0]), big_blind=100)
    assert score == Score(pytest.approx(375.0), pytest.approx(648.197, abs=1e-3), 4)
    assert score.hands == 8
    assert str(score) == "+375.0 ± 648.2 mbb/hand"


def test_score_scales_with_the_big_blind_and_degenerate_sizes():
    score = score_pairs(np.array([20, 20, 20]), big_blind=10)  # 10 chips a hand = 1 big blind
    assert score.mbb_per_hand == pytest.approx(1000.0) and score.ci95_mbb == 0.0
    single = score_pairs(np.array([40]), big_blind=100)
    assert single.mbb_per_hand == pytest.approx(200.0) and single.ci95_mbb == math.inf
    assert score_pairs(np.array([], dtype=np.int64), big_blind=100).deals == 0


# --- the all-in adjustment ----------------------------------------------------------------------

def hand(line: str):
    return parse_state_line(GAME, line, "test")


def test_preflop_allin_is_scored_by_the_exact_matchup():
    # Position 0 (AcAd) raises all in, position 1 (KhKs) calls; the board gives kings a set.
    logged = hand("STATE:0:r20000c///:AcAd|KhKs/Kd7c2s/3h/9d:-20000|20000:a|b")
    assert allin_round(logged.betting) == 0
    equity = matchup("AcAd", "KhKs").equity  # 0.8126 for the aces
    adjusted = adjusted_values(logged)
    assert adjusted == (pytest.approx((2 * equity - 1) * 20000), pytest.approx(-(2 * equity - 1)
                                                                                * 20000))
    assert adjusted[0] == pytest.approx(12502.2, abs=0.1)  # (2 x 0.81256 - 1) x 20,000


def test_flop_and_turn_allins_and_hands_that_stay_raw():
    flop = hand("STATE:1:cc/r400r20000c//:AsKs|QdQc/Qs7s2d/3c/4h:-20000|20000:a|b")
    assert allin_round(flop.betting) == 1
    equity = matchup("AsKs", "QdQc", "Qs7s2d").equity
    assert adjusted_values(flop)[0] == pytest.approx((2 * equity - 1) * 20000)
    turn = hand("STATE:2:cc/cc/r300r20000c/:AsKs|QdQc/Qs7s2d/3s/4h:20000|-20000:a|b")
    assert allin_round(turn.betting) == 2
    assert adjusted_values(turn)[0] == pytest.approx(
        (2 * matchup("AsKs", "QdQc", "Qs7s2d3s").equity - 1) * 20000)
    river = hand("STATE:3:cc/cc/cc/r20000c:AsKs|QdQc/Qs7s2d/3c/4h:-20000|20000:a|b")
    folded = hand("STATE:4:r20000f:AsKs|QdQc:-100|100:a|b")  # the big blind folds
    for raw in (river, folded):
        assert allin_round(raw.betting) is None and adjusted_values(raw) == raw.values


def test_engine_adjustment_is_unbiased_and_narrower():
    """Over 6,000 deals the adjusted mean agrees with the raw mean (the adjustment only removes
    the run-out's luck); where all-ins decide the result (the seed profile against all in) its
    interval is much narrower. (Against the random player most of the spread is its own dice,
    which the adjustment leaves alone.)"""
    deals = compute_deal_set(seed=41, first_deal=0, count=6000)
    rules = encode_rules(GAME)
    for a, b, narrowing in (("random", "call", 1.05), (load_profile("seed"), "allin", 0.6)):
        chips = np.zeros((len(deals), 2), dtype=np.int64)
        adjusted = np.zeros((len(deals), 2))
        play_deals(rules, *encode_strategy(a), *encode_strategy(b), deals.v, deals.outcomes,
                   deals.allin_equity, 3, 0, chips, adjusted)
        raw = score_pairs(chips.sum(axis=1), GAME.big_blind)
        luckless = score_pairs(adjusted.sum(axis=1), GAME.big_blind)
        difference = score_pairs(chips.sum(axis=1) - adjusted.sum(axis=1), GAME.big_blind)
        assert abs(difference.mbb_per_hand) < difference.ci95_mbb
        assert luckless.ci95_mbb < narrowing * raw.ci95_mbb


# --- logs ---------------------------------------------------------------------------------------

def test_real_dealer_log_reads_back_with_its_values():
    hands = read_log(GAME, ACPC / "example-nolimit.log")
    assert len(hands) == 2000
    first = hands[0]
    assert first.hand == 0 and first.names == ("gambler", "example")
    assert first.values == (-100.0, 100.0) and first.board == tuple(parse_cards("AhKh6c"))
    # The log's SCORE line is the sum of each player's values.
    score = (ACPC / "example-nolimit.log").read_text().strip().splitlines()[-1]
    totals = dict(zip(score.split(":")[2].split("|"),
                      (float(value) for value in score.split(":")[1].split("|"))))
    for name, total in totals.items():
        assert sum(logged.value_of(name) for logged in hands) == pytest.approx(total)
    assert sum(allin_round(logged.betting) is not None for logged in hands) > 100


@pytest.mark.parametrize("line, message", [
    ("STATE:0:cc/cr10839f:7s5s|3c6h/AhKh6c:-100|99:a|b", "are not the hand's payoffs"),
    ("STATE:0:cc/cr10839:7s5s|3c6h/AhKh6c:-100|100:a|b", "not a finished hand"),
    ("STATE:0:cc/cr10839f:7s5s|3c6h/AhKh6c:-100:a|b", "expected 2 values and 2 names"),
    ("STATE:x:cc/cr10839f:7s5s|3c6h/AhKh6c:-100|100:a|b", "bad hand number"),
    ("STATE:0:cc/cr10839f:7s5s|3c6h:-100|100:a|b",
     "expected '/' before the board cards of round 1"),
])
def test_bad_log_lines_name_the_line(line, message):
    with pytest.raises(ProtocolError, match=message) as error:
        parse_log(GAME, ["# a comment", line], "m.log")
    assert str(error.value).startswith("m.log:2: ")


# --- errors ---------------------------------------------------------------------------------------

def test_three_handed_hands_are_log_errors_not_bare_value_errors():
    from gambler.errors import GamblerError
    from gambler.protocol.betting import parse_betting
    from gambler.protocol.logs import LoggedHand, LogError
    from gambler.training.report import build_report

    game = load_game(ACPC / "games" / "holdem.nolimit.3p.game")
    betting = parse_betting(game, "r20000cc///")  # all in preflop: the adjustment applies
    holes = tuple(tuple(parse_cards(text)) for text in ("AsAd", "KsKd", "QsQd"))
    hand = LoggedHand(7, betting, holes, tuple(parse_cards("2c3c4c5d7h")),
                      betting.payoffs(holes, parse_cards("2c3c4c5d7h")), ("a", "b", "c"), "m.log:9")
    assert issubclass(LogError, GamblerError)
    with pytest.raises(LogError, match="^m.log:9: the all-in adjustment is for heads-up hands, "
                                       "this one has 3 players"):
        adjusted_values(hand)
    with pytest.raises(LogError, match="^m.log:9: gambler-report reads heads-up logs"):
        build_report([[hand]])


@pytest.mark.parametrize("line, message", [
    ("4 0 AsKd| r300f +100", "result '\\+100' is not the hand's payoff -100 for position 0"),
    ("4 2 AsKd| r300f -100", "bad position '2'"),
    ("4 0 |2c3d r300f +100", "no hole cards for the bot's position 0"),
    ("4 0 AsKd| r300 +100", "not a finished hand"),
    ("4 0 AsKd|", "not <hand> <position> <cards> <betting> <result>"),
])
def test_bad_bot_log_lines_name_the_line(line, message):
    from gambler.protocol.logs import LogError

    with pytest.raises(LogError, match=message) as error:
        parse_log(GAME, ["# hand position cards betting result", "decision 4 1 preflop v=0.1",
                         line], "bot.log")
    assert str(error.value).startswith("bot.log:3: ")


def test_a_bot_log_line_reads_as_the_dealers_line_of_the_same_hand():
    """The bot's view of a showdown (both holes shown) and of a fold (the other's hidden)."""
    from gambler.protocol.logs import parse_bot_hand_line

    state = parse_state_line(GAME, "STATE:2:r300c/r600f:AsKd|2c3d/AhKh9s:300|-300:a|b")
    bot = parse_bot_hand_line(GAME, "2 0 AsKd|/AhKh9s r300c/r600f +300")
    assert (bot.hand, bot.betting, bot.board, bot.values) == (2, state.betting, state.board,
                                                              state.values)
    assert bot.names == ("gambler", "opponent") and bot.hole_cards[1] == ()
    swapped = parse_bot_hand_line(GAME, "1 1 2c3d|AsKd/AhKh9s/7c/4d cc/cc/cc/cc +100")
    assert swapped.names == ("opponent", "gambler") and swapped.values == (-100.0, 100.0)
    with pytest.raises(ProtocolError, match="either the dealer's STATE lines or the bot's"):
        parse_log(GAME, ["STATE:2:r300c/r600f:AsKd|2c3d/AhKh9s:300|-300:a|b",
                         "2 0 AsKd|/AhKh9s r300c/r600f +300"], "mixed.log")


def test_the_match_result_separates_thousands():
    from gambler.training.match_cli import describe

    lines = describe({"a": "a", "b": "b", "hands": 20_000, "mbb_per_hand": 1008.44,
                      "ci95_mbb": 171.9, "mbb_per_hand_allin_adjusted": -1234.5,
                      "ci95_mbb_allin_adjusted": 1500.0, "allin_luck_mbb_per_hand": 2242.94,
                      "ci95_allin_luck_mbb": 1499.96, "seconds": 1234.56, "engine": "fast",
                      "seed": 7})
    assert lines == [
        "a vs b: +1,008.4 mbb/hand ± 171.9 (95% CI) over 20,000 hands (10,000 duplicate deals, "
        "seed 7), 1,234.6 s, fast engine",
        "  all-in adjusted: -1,234.5 mbb/hand ± 1,500.0 (all-ins before the river scored by "
        "their equity; the run-outs' luck: +2,242.9 ± 1,500.0)"]
