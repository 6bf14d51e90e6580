"""Range-aware v (`evaluator.narrowing`): the opponent model checked against treys' hand ranks,
v against the narrowed range against a brute force with treys on the river, and the three ways
of computing it (one hand, all holdings at once, the plain v when nothing narrows) equal bit for
bit."""

import itertools
import math
import random
from pathlib import Path

import numpy as np
import pytest
from treys import Card, Evaluator

from gambler.evaluator.cards import card_text, parse_cards
from gambler.evaluator.holdings import HOLDING_CARDS, HOLDINGS, holding_index
from gambler.evaluator import narrowing
from gambler.evaluator.narrowing import (every_holding_range_v, holding_preflop_v,
                                         narrowed_range, narrowing_rounds, raised_rounds,
                                         range_aware_v)
from gambler.evaluator.rates import win_rate
from gambler.evaluator.tables import load_tables
from gambler.protocol import load_game
from gambler.protocol.betting import CALL_ACTION, Action, parse_betting, raise_to

TABLES = load_tables()
PREFLOP_V = holding_preflop_v()
KEEP = np.array([0.3, 0.4, 0.5, 0.25])
TREYS = Evaluator()


def treys_rank(cards) -> int:
    """treys' rank of the best five of `cards` (codes): 1 is a royal flush, higher is worse."""
    return TREYS.evaluate([Card.new(card_text(c)) for c in cards[:2]],
                          [Card.new(card_text(c)) for c in cards[2:]])


def possible(board):
    return [index for index, (a, b) in enumerate(HOLDING_CARDS) if a not in board and b not in board]


def expected_range(board, raised, keep):
    """The module docstring's model, written with treys (a lower rank is stronger)."""
    live = possible(board)
    kept = set(live)
    for round_ in range(len(board) - 1):
        if not (raised >> round_) & 1 or keep[round_] >= 1:
            continue
        if round_ == 0:
            strength = {i: PREFLOP_V[i] for i in live}
        else:
            strength = {i: -treys_rank(list(HOLDING_CARDS[i]) + list(board[:2 + round_]))
                        for i in live}
        count = max(1, math.ceil(keep[round_] * len(live)))
        threshold = sorted(strength.values(), reverse=True)[count - 1]
        kept &= {i for i in live if strength[i] >= threshold}
    return kept


@pytest.mark.parametrize("board, raised", [("Qh7c2d", 2), ("Qh7c2d", 1), ("Qh7c2d", 3),
                                           ("AsKsQsJs", 4), ("9c9d4h3s", 6),
                                           ("Tc8c6h5d2s", 8), ("Tc8c6h5d2s", 15),
                                           ("Tc8c6h5d2s", 0)])
def test_the_range_is_the_strongest_share_by_each_raised_rounds_strength(board, raised):
    codes = parse_cards(board)
    weights = np.empty(HOLDINGS)
    count = narrowed_range(TABLES, codes, PREFLOP_V, raised, KEEP, weights)
    ours = {int(i) for i in np.flatnonzero(weights)}
    assert ours == expected_range(list(codes), raised, KEEP)
    assert count == len(ours) and set(np.unique(weights)) <= {0.0, 1.0}
    if raised == 0:
        assert count == len(possible(list(codes)))


def test_on_the_river_v_is_a_brute_force_against_the_range():
    rng = np.random.default_rng(5)
    for _ in range(6):
        cards = rng.permutation(52)[:7].astype(np.uint8)
        hole, board = cards[:2], cards[2:]
        weights = np.empty(HOLDINGS)
        narrowed_range(TABLES, board, PREFLOP_V, 9, KEEP, weights)  # preflop and river raises
        ours = treys_rank(list(hole) + list(board))
        wins = ties = total = 0
        for index in np.flatnonzero(weights):
            a, b = HOLDING_CARDS[index]
            if a in hole or b in hole:
                continue
            theirs = treys_rank([a, b] + list(board))
            wins += ours < theirs
            ties += ours == theirs
            total += 1
        v = range_aware_v(TABLES, hole, board, PREFLOP_V, 9, KEEP)
        assert v == pytest.approx((wins - (total - wins - ties)) / total, abs=1e-12)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_one_hand_and_all_holdings_agree_bit_for_bit(size):
    rng = np.random.default_rng(size)
    cards = rng.permutation(52)[:size].astype(np.uint8)
    raised = 0b11 if size == 3 else 0b101
    weights = np.empty(HOLDINGS)
    narrowed_range(TABLES, cards, PREFLOP_V, raised, KEEP, weights)
    every = np.empty(HOLDINGS)
    every_holding_range_v(TABLES, cards, weights, every)
    live = [i for i in possible(list(cards))]
    for index in rng.choice(live, size=12 if size == 3 else 40, replace=False):
        hole = HOLDING_CARDS[index].astype(np.uint8)
        assert every[index] == range_aware_v(TABLES, hole, cards, PREFLOP_V, raised, KEEP)
    assert np.isnan(every[[i for i in range(HOLDINGS) if i not in set(live)]]).all()


def test_nothing_narrows_without_a_raise_v_is_the_plain_v_bit_for_bit():
    for text in ("AsKc", "7h6h", "2c7d"):
        hole = parse_cards(text)
        for board in ("Qh7c2d", "Qh7c2dTs", "Qh7c2dTs3c"):
            board_codes = parse_cards(board)
            if set(hole) & set(board_codes):
                continue
            assert range_aware_v(TABLES, hole, board_codes, PREFLOP_V, 0, KEEP) == \
                win_rate(hole, board_codes).v
            assert range_aware_v(TABLES, hole, board_codes, PREFLOP_V, 15,
                                 np.ones(4)) == win_rate(hole, board_codes).v


def test_a_range_without_our_cards_left_is_nan():
    # Keep 1 holding on the river: the strongest, the royal flush AhKh with the board's QhJhTh.
    board = parse_cards("QhJhTh2c3d")
    keep = np.array([1.0, 1.0, 1.0, 1e-9])
    weights = np.empty(HOLDINGS)
    assert narrowed_range(TABLES, board, PREFLOP_V, 8, keep, weights) == 1
    assert weights[holding_index(int(parse_cards("Ah")[0]), int(parse_cards("Kh")[0]))] == 1.0
    assert np.isnan(range_aware_v(TABLES, parse_cards("AhKc"), board, PREFLOP_V, 8, keep))
    assert range_aware_v(TABLES, parse_cards("AsKc"), board, PREFLOP_V, 8, keep) == -1.0


def test_raised_rounds_reads_who_raised_where():
    game = load_game()
    betting = parse_betting(game, "r300c/cr600c/r1200r3600c/")
    # Position 1 acts first preflop in this game, position 0 first after the flop.
    assert raised_rounds(betting, 1) == 0b111 and raised_rounds(betting, 0) == 0b100


@pytest.mark.parametrize("raised, keep, round_, expected", [
    (0b1111, (0.3, 0.4, 0.5, 0.6), 0, 0),          # never before the flop
    (0b0001, (0.3, 0.4, 0.5, 0.6), 1, 0b0001),     # a preflop raise narrows from the flop on
    (0b0011, (0.3, 1.0, 0.5, 0.6), 1, 0b0001),     # a round with narrow 1 does not
    (0b0110, (1.0, 0.4, 0.5, 1.0), 2, 0b0110),
    (0b1111, (0.3, 0.4, 0.5, 0.6), 2, 0b0111),     # rounds still to come do not
    (0b1010, (1.0, 1.0, 1.0, 1.0), 3, 0),
    (0b1010, (0.3, 0.4, 0.5, 0.6), 3, 0b1010),
])
def test_the_rounds_that_narrow(raised, keep, round_, expected):
    assert narrowing_rounds(raised, np.array(keep), round_) == expected


def rounds_that_narrow_by_hand(betting, bot, keep):
    """The rule written out on the betting at the bot's first decision of a round: nothing
    before the flop; from it, the rounds (preflop included) in which the opponent raised before
    this decision and whose `narrow` is below 1."""
    round_ = betting.round
    if round_ == 0:
        return 0
    mask = 0
    for r in range(round_ + 1):
        if keep[r] < 1 and any(action.kind == "r" and actor != bot
                               for action, actor in zip(betting.actions[r], betting.actors[r])):
            mask |= 1 << r
    return mask


def test_the_bot_narrows_by_the_rule_at_its_first_decision_of_each_round(monkeypatch):
    """The TCP bot, hand after hand against an opponent who often raises a little: the
    narrowing it asks `range_aware_v` for, at the first decision of each round only, is the rule
    written out by hand. The engine plays the bot's hands bit for bit (`test_engine`), and
    `gambler-lbr`'s model of the bot matches the reference LBR, which writes the rule out
    separately (`test_lbr`): so each caller of `narrowing_rounds` is checked."""
    from dataclasses import replace

    from gambler.bot.params import load_profile
    from gambler.bot.strategies import ProfileStrategy
    from gambler.protocol import BettingState
    from gambler.protocol.matchstate import MatchState
    from gambler.training.deals import deal_cards

    narrow = load_profile(str(Path(__file__).resolve().parent / "data" / "profiles"
                              / "v2-narrow.yaml"))
    rounds = list(narrow.rounds)
    rounds[2] = replace(rounds[2], narrow=1.0)  # the turn's raises do not narrow
    profile = replace(narrow, rounds=tuple(rounds))
    asked = []

    def fake_range_aware_v(tables, hole, board, preflop_v, raised, keep):
        asked.append((len(board) - 2, int(raised)))
        return 0.3 + 0.01 * int(raised)  # mode 2 (call up to U) in every round after the flop

    monkeypatch.setattr(narrowing, "range_aware_v", fake_range_aware_v)
    game = load_game()
    holes, boards = deal_cards(21, 0, 200)
    expected = []
    excluded_turn = later_decisions = 0
    for hand in range(200):
        bot_position = hand % 2
        bot = ProfileStrategy(profile,  # mode 2 in every round: calls, so hands go on
                              lambda hole, board, hand, round_: (0.0, 0.5, 0.0, 0.3)[round_])
        opponent = random.Random(hand)
        cards = [tuple(int(c) for c in holes[hand, p]) for p in range(2)]
        board = tuple(int(c) for c in boards[hand])
        state = BettingState.start(game)
        planned = set()
        while not state.finished:
            player = state.current_player
            view = MatchState(player, hand, state,
                              tuple(cards[p] if p == player else () for p in range(2)),
                              board[:state.board_cards_visible])
            if player == bot_position:
                if state.round not in planned:
                    planned.add(state.round)
                    mask = rounds_that_narrow_by_hand(state, bot_position, profile.keep)
                    if mask:
                        expected.append((state.round, mask))
                else:  # the opponent raised after the bot's first decision: no new plan
                    later_decisions += 1
                action = bot.act(view)
            else:
                legal = state.legal_actions()  # the opponent: a small raise 40% of the time
                action = (raise_to(legal.min_raise_to)
                          if legal.can_raise and opponent.random() < 0.4 else CALL_ACTION)
            state = state.apply(action)
        excluded_turn += (raised_rounds(state, 1 - bot_position) >> 2) & 1
    assert asked == expected
    # Every part of the rule was at work: preflop raises narrowing later rounds, turn raises
    # left out (narrow 1), the opponent's raises after the bot's first decision of a round.
    assert len(expected) > 200 and sum(mask & 1 for _, mask in expected) > 100
    assert excluded_turn > 30 and later_decisions > 50
    # And the bot takes the rule from `narrowing_rounds`: another rule, other requests.
    state = BettingState.start(game).apply(Action("r", 300))  # position 1 raises preflop
    flop = MatchState(0, 0, state.apply(Action("c")), (cards[0], ()), board[:3])
    for rule, requests in ((narrowing_rounds, [(1, 0b1)]), (lambda *_: 0, [])):
        monkeypatch.setattr(narrowing, "narrowing_rounds", rule)
        asked.clear()
        ProfileStrategy(profile, lambda hole, board, hand, round_: 0.0).act(flop)
        assert asked == requests
