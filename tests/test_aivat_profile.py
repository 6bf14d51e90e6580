"""AIVAT for automaton profiles (`training.aivat_profile`), checked against an independent
computation in Python.

The oracle keeps the bot's range as the TCP bot's own `bot.own_range.OwnRange` does (the Python
automaton's `plan_for_state` and `choose_action` for each holding and plan, the preflop chart's
class shares, range defence's percentiles), values every holding by `evaluator.matchups.matchup`,
and computes each term of the estimate by its definition (`training.aivat_holdem`'s module
docstring). The kernel must give every term, the estimate and the range at the end: `seed` (no
mixing), `default-v2` (slow play and bluffs) and `default-static` (a preflop chart, range
defence, slow play), on hands the Python bot played against an opponent that folds, calls and
raises at random.
"""

from __future__ import annotations

import numpy as np
import pytest

from gambler.bot.automaton import choose_action, plan_for_state
from gambler.bot.chart import (CALL as CHART_CALL, FOLD as CHART_FOLD, KIND_OF_LETTER, follow,
                               real_action)
from gambler.bot.own_range import MIXED, PLAIN, WEIGHT, OwnRange, chart_shares
from gambler.bot.params import range_bets_at
from gambler.bot.strategies import member_strategy, resolve_strategy
from gambler.evaluator.holdings import HOLDING_CARDS
from gambler.evaluator.matchups import matchup
from gambler.protocol.betting import (CALL_ACTION, FOLD, FOLD_ACTION, RAISE, BettingState,
                                      raise_to)
from gambler.training.aivat_holdem import (OK, TERM_CHANCE, TERM_DECISION, _completed,
                                              _trace_of, preflop_equities, score_hands)
from test_aivat_holdem import GAME, _play


def _equities(other, board, visible, live):
    equity = np.zeros(len(HOLDING_CARDS))
    if visible == 0:
        return preflop_equities(other)
    for h in np.flatnonzero(live):
        equity[h] = matchup(HOLDING_CARDS[h], other, board[:visible]).equity
    return equity


def _value(betting, known, action, equity):
    """u(x, s a) for every holding: the chips a fold leaves, else the check-down of the new
    matched stake."""
    if action.kind == FOLD:
        return np.full(len(equity), -float(betting.spent[known]))
    spent = action.raise_to if action.kind == RAISE else min(betting.max_spent,
                                                             GAME.stacks[known])
    return (2 * equity - 1) * min(spent, betting.spent[1 - known])


def _chart_actions(chart, node, betting):
    legal = betting.legal_actions()
    low, high = (legal.min_raise_to, legal.max_raise_to) if legal.can_raise else (-1, -1)
    bet = betting.max_spent
    actions = set()
    for chart_action in chart.nodes[node].actions:
        kind, amount = real_action(chart_action, bet, sum(betting.spent),
                                   bet - betting.spent[betting.current_player], low, high)
        actions.add(FOLD_ACTION if kind == CHART_FOLD else CALL_ACTION if kind == CHART_CALL
                    else raise_to(int(amount)))
    return actions


def oracle(profile, hand, name):
    """(terms [(kind, before, after)], base, W at the end) by the definitions, in Python."""
    known = hand.names.index(name)
    other = tuple(hand.hole_cards[1 - known])
    board = _completed(hand.board, hand.hole_cards)
    alive = ~np.isin(HOLDING_CARDS, other).any(axis=1)
    own = OwnRange(profile)
    own.rows[:] = 0.0
    own.rows[WEIGHT] = 1.0
    own._start_round(0, board)
    equity = _equities(other, board, 0, alive)
    terms = []
    betting = BettingState.start(GAME)

    def deal(up_to):
        nonlocal equity
        while own._round < up_to:
            stake = min(betting.spent)
            mass = own.masses() * alive
            before = (mass * (2 * equity - 1) * stake).sum() / mass.sum()
            own._start_round(own._round + 1, board)
            mass = own.masses() * alive
            equity = _equities(other, board, 2 + own._round, mass > 0)
            after = (mass * (2 * equity - 1) * stake).sum() / mass.sum()
            terms.append((TERM_CHANCE, before, after))

    history = [(action, actor) for actions, actors in zip(hand.betting.actions,
                                                          hand.betting.actors)
               for action, actor in zip(actions, actors)]
    for action, actor in history:
        deal(betting.round)
        if actor == known:
            rows = own.rows
            round_ = betting.round
            chart = profile.preflop_chart
            node = -1
            if chart is not None and round_ == 0:
                node = follow(chart, [(KIND_OF_LETTER[taken.kind], taken.raise_to)
                                      for taken in betting.actions[0]])
            by_action = {}
            if node >= 0:
                for candidate in _chart_actions(chart, node, betting):
                    shares = chart_shares(chart, node, betting, candidate)[own.classes]
                    by_action[candidate] = own.masses() * alive * shares
            else:
                params = profile.rounds[round_]
                values = own.values(round_)
                facing = betting.spent[betting.current_player] < betting.max_spent
                decides = params.range_defence is not None if facing else range_bets_at(
                    params.range_bet, params.range_bet_position, betting.current_player)
                if decides:
                    own._update_percentiles(round_)
                for h in np.flatnonzero((rows[WEIGHT] > 0) & alive):
                    chance = rows[1, h]
                    for row, draw, share in ((PLAIN, 1.0, 1 - chance), (MIXED, 0.0, chance)):
                        mass = rows[WEIGHT, h] * share * rows[row, h]
                        if mass > 0:
                            percentile = float(own.percentiles[h]) if decides else None
                            taken = choose_action(plan_for_state(params, float(values[h]),
                                                                 betting, draw), betting,
                                                  percentile)
                            by_action.setdefault(taken, np.zeros(len(alive)))[h] += mass
            total = sum(mass.sum() for mass in by_action.values())
            before = sum((mass * _value(betting, known, candidate, equity)).sum()
                         for candidate, mass in by_action.items()) / total
            mass = by_action[action]
            after = (mass * _value(betting, known, action, equity)).sum() / mass.sum()
            terms.append((TERM_DECISION, before, after))
            own._narrow(betting, action)
        betting = betting.apply(action)
    if not any(betting.folded):
        deal(3)
    mass = own.masses() * alive
    if any(betting.folded):
        payoff = np.full(len(mass), hand.values[known])
    else:
        payoff = (2 * equity - 1) * min(betting.spent)
    return terms, (mass * payoff).sum() / mass.sum(), mass


def _kernel(profile, hand, name):
    from gambler.evaluator.holdings import every_holding_rates
    from gambler.evaluator.tables import load_tables
    from gambler.training.aivat_profile import profile_aivat_hand
    from gambler.training.engine import encode_rules, encode_strategy
    from gambler.training.lbr import lbr_tables

    kind, params = encode_strategy(profile)
    known = hand.names.index(name)
    board = np.array(_completed(hand.board, hand.hole_cards), dtype=np.int64)
    holding_v = np.zeros((1, 3, 1326))
    tables = load_tables()
    every_holding_rates(tables, board[None].astype(np.uint8), holding_v)
    trace = _trace_of(hand)
    terms = np.zeros((16, 5))
    final = np.zeros(1326)
    status, out, rows = profile_aivat_hand(
        encode_rules(GAME), known, kind, np.asarray(params, dtype=np.float64), tables,
        lbr_tables(), holding_v[0], np.array(hand.hole_cards[known], dtype=np.int64),
        np.array(hand.hole_cards[1 - known], dtype=np.int64), board, trace, len(trace),
        preflop_equities(hand.hole_cards[1 - known]), terms, final)
    return status, out, terms[:rows], final


@pytest.mark.parametrize("name,count", [("seed", 6), ("default-v2", 10), ("default-static", 10)])
def test_every_term_is_the_definitions_computed_in_python(name, count):
    profile = resolve_strategy(name)
    strategy = member_strategy(profile, seed=4)
    rng = np.random.default_rng(31)
    checked = 0
    for number in range(count):
        hand = _play(strategy, number % 2, number, rng)
        terms, base, mass = oracle(profile, hand, "bp")
        status, out, kernel_terms, final = _kernel(profile, hand, "bp")
        assert status == OK
        assert [int(row[0]) for row in kernel_terms] == [kind for kind, _, _ in terms]
        for (_, before, after), row in zip(terms, kernel_terms):
            assert row[1] == pytest.approx(before, rel=1e-9, abs=1e-6)
            assert row[2] == pytest.approx(after, rel=1e-9, abs=1e-6)
        assert out[1] == pytest.approx(base, rel=1e-9, abs=1e-6)
        np.testing.assert_allclose(final, mass, rtol=1e-9, atol=1e-12)
        assert out[0] == hand.value_of("bp")
        checked += len(terms)
    assert checked > count


def test_the_estimates_average_to_the_chips_with_a_smaller_spread():
    profile = resolve_strategy("default-v2")
    strategy = member_strategy(profile, seed=4)
    rng = np.random.default_rng(32)
    hands = [_play(strategy, number % 2, number, rng) for number in range(300)]
    scores = score_hands(profile, hands, "bp")
    gap = scores.estimates - scores.chips
    assert abs(gap.mean()) < 3 * gap.std() / np.sqrt(len(hands))
    assert scores.estimates.std() < 0.7 * scores.chips.std()
