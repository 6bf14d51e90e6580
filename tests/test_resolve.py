"""Re-solving profiles (`bot.resolve`): the ranges are the blueprint's, an off-tree bet is solved
as itself, no betting draws an illegal action, and the bot plays through the real dealer, alone
and as a portfolio member.

* The ranges at the start of the river are checked against the Python bot: for each holding, the
  product over a player's actions of the probability that the blueprint (`BlueprintStrategy`'s
  own node walk, bucket lookup and real actions), holding it, takes the action seen.
* The subgame's own solver is checked against the games lab in tests/test_subgame.py, paths
  included; here, that the bot's river strategy is the solve's at the node the betting reached.

The blueprint is the synthetic one of tests/test_lbr_blueprint.py (random buckets, a random mixed
strategy): any such table is a valid blueprint, and a real one takes an hour to build.
"""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gambler.bot.params import ProfileError
from gambler.bot.resolve import (RIVER, Resolve, ResolveStrategy, blueprint_ranges, load_resolve,
                                 river_path)
from gambler.evaluator.holdings import HOLDING_CARDS, holding_index
from gambler.protocol.betting import BettingState
from gambler.protocol.gamedef import load_game
from gambler.protocol.matchstate import MatchState
from gambler.solver.subgame import RAISE as SUB_RAISE, Subgame, follow

GAME = load_game()


@pytest.fixture(scope="module")
def mixed():
    from test_lbr_blueprint import synthetic_blueprint

    return synthetic_blueprint("mixed")


def _holes(position, pair):
    return tuple(tuple(pair) if p == position else () for p in range(2))


def _random_action(betting: BettingState, rng: random.Random):
    from test_blueprint import random_raise

    return random_raise(betting, rng)


def _to_the_river(strategy, position, holes, board, hand, rng):
    """The betting of a hand in which `strategy` (its blueprint) sits at `position` and the other
    seat bets at random, stopped at the river's first state (None if the hand ended before)."""
    betting = BettingState.start(GAME)
    while not betting.finished and betting.round < RIVER:
        player = betting.current_player
        shown = GAME.board_cards_through(betting.round)
        state = MatchState(player, hand, betting, _holes(player, holes[player]),
                           tuple(board[:shown]))
        action = strategy.base.act(state) if player == position else \
            _random_action(betting, rng)
        betting = betting.apply(action)
    return None if betting.finished else betting


def _python_weight(strategy, betting, position, player, pair, board, hand):
    """The blueprint's chance that `player`, holding `pair`, made its pre-river actions, from
    the Python bot alone: the node before and after each action by `abstract_node` on the
    betting so far; every child whose real action is the one seen (the bot's own seat) or the
    child the action translated to (the other's)."""
    base = strategy.base
    tree = base.tree
    if set(pair) & set(board):
        return 0.0
    replay = BettingState.start(GAME)
    weight = 1.0
    for round_ in range(RIVER):
        for action, actor in zip(betting.actions[round_], betting.actors[round_]):
            node = base.abstract_node(replay, hand)
            after = replay.apply(action)
            child = base.abstract_node(after, hand)
            if node is None or child is None:
                return weight
            if actor == player:
                count = int(tree.child_count[node])
                first = int(tree.child_start[node])
                children = [int(c) for c in tree.children[first:first + count]]
                own = MatchState(player, hand, replay, _holes(player, pair),
                                 tuple(board[:GAME.board_cards_through(round_)]))
                start = int(base.blueprint.game.offsets[node]) + \
                    base.bucket(own, round_) * count
                row = np.asarray(base.blueprint.policy[start:start + count], dtype=float)
                row = row / row.sum()
                if player == position:
                    taken = [base._real_action(replay, node, c) == action for c in children]
                else:
                    taken = [c == child for c in children]
                weight *= sum(p for p, given in zip(row, taken) if given)
            replay = after
    return weight


def test_the_ranges_are_the_blueprints_chances_of_the_actions_seen(mixed):
    strategy = ResolveStrategy(Resolve("x.yaml", "", mixed, iterations=1), seed=4)
    rng = random.Random(2)
    deals = np.random.default_rng(5)
    checked = hands = 0
    for hand in range(40):
        cards = [int(c) for c in deals.permutation(52)[:9]]
        holes, board = ((cards[0], cards[1]), (cards[2], cards[3])), cards[4:9]
        position = hand % 2
        betting = _to_the_river(strategy, position, holes, board, hand, rng)
        if betting is None:
            continue
        hands += 1
        ranges = blueprint_ranges(strategy.base, betting, position, hand, board,
                                  strategy._offsets, strategy._policy, strategy._cards,
                                  strategy._holding_cards)
        sample = deals.choice(1326, size=60, replace=False)
        for player in range(2):
            for h in sample:
                pair = tuple(int(c) for c in HOLDING_CARDS[h])
                expected = _python_weight(strategy, betting, position, player, pair, board, hand)
                assert ranges[player, h] == pytest.approx(expected, rel=1e-6, abs=1e-12)
                checked += expected > 0
        if hands == 8:
            break
    assert hands == 8 and checked > 300


def _river_state(strategy, seed):
    """A river decision of the bot (seat 0 or 1 by the seed), the other seat betting at random
    before and on the river; None when the hand ends first."""
    rng = random.Random(seed)
    cards = [int(c) for c in np.random.default_rng(seed).permutation(52)[:9]]
    holes, board = ((cards[0], cards[1]), (cards[2], cards[3])), cards[4:9]
    position = seed % 2
    betting = _to_the_river(strategy, position, holes, board, seed, rng)
    while betting is not None and not betting.finished:
        player = betting.current_player
        state = MatchState(player, seed, betting, _holes(player, holes[player]), tuple(board))
        if player == position:
            return state
        betting = betting.apply(_random_action(betting, rng))
    return None


def test_the_river_strategy_is_the_solves_at_the_node_the_betting_reached(mixed):
    strategy = ResolveStrategy(Resolve("x.yaml", "", mixed, iterations=30), seed=1)
    raised = played = 0
    for seed in range(60):
        state = _river_state(strategy, seed)
        if state is None:
            continue
        path = river_path(state.betting)
        subgame = Subgame(state.board, strategy.river_ranges(state),
                          spent=state.betting.round_start[0], first=GAME.first_player[RIVER],
                          path=path)
        subgame.solve(30)
        node = follow(subgame.tree, path)
        count = int(subgame.tree.child_count[node])
        expected = subgame.average_policy()[node, holding_index(*state.our_hole), :count]
        _, explained = strategy.act_and_explain(state)
        shown = [float(part.split(":")[1]) for part in explained["probabilities"].split()]
        np.testing.assert_allclose(shown, expected, atol=5e-4)
        if path and path[-1][0] == SUB_RAISE:  # the bet faced is in the tree as itself
            assert subgame.tree.action_to[node] == path[-1][1]
            raised += 1
        played += 1
        if played == 6:
            break
    assert played == 6 and raised >= 2


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_betting_draws_an_illegal_action(mixed, seed):
    strategy = ResolveStrategy(Resolve("x.yaml", "", mixed, iterations=3, max_raises=1), seed=7)
    state = _river_state(strategy, seed)
    if state is None:
        return
    action = strategy.act(state)
    assert state.betting.check_legal(action) == action
