"""LBR against blueprints (`training.lbr_blueprint`): checked against the Python bot it measures
and against LBR on the automaton's side.

* The bot in the kernel is the TCP bot: at every one of its decisions, `BlueprintStrategy.act`
  (same seed, same hand number) takes the action the kernel took.
* The range is the strategy's: at each of LBR's decisions, every holding's weight is the product
  over the bot's actions of the probability that, holding it, the bot (`distribution`,
  `_real_action`, its Python bucket lookup) takes the real action seen.
* A blueprint that always checks or calls is the `call` baseline: LBR wins the same chips on
  every deal against both, through the two independent LBR kernels.

The blueprint here is synthetic: a small betting tree, a card abstraction of random buckets (any
table is a valid abstraction; building a real one takes minutes) and a random mixed strategy.
"""

from __future__ import annotations

import numpy as np
import pytest

from gambler.bot.blueprint import Blueprint, BlueprintStrategy
from gambler.protocol.betting import CALL_ACTION, FOLD_ACTION, BettingState, raise_to
from gambler.protocol.gamedef import load_game
from gambler.protocol.matchstate import MatchState
from gambler.solver.betting import BettingAbstraction, build_tree
from gambler.solver.solve import AbstractGame
from gambler.training.engine import CALL_CODE, FOLD_CODE, encode_rules
from gambler.training.lbr import lbr_tables, parse_action_sets, run_lbr

GAME = load_game()


def synthetic_blueprint(policy_kind: str, buckets: int = 3, seed: int = 0) -> Blueprint:
    from solver_support import synthetic_card_abstraction

    rng = np.random.default_rng(seed + 1)
    cards = synthetic_card_abstraction(buckets, seed)
    tree = build_tree(GAME, BettingAbstraction(((0.5, 1.0), (1.0,), (1.0,), (1.0,)), True,
                                               (2, 1, 1, 1)))
    game = AbstractGame(tree, cards)
    policy = rng.random(game.size).astype(np.float32)
    if policy_kind == "call":  # every decision: check or call with probability 1
        policy[:] = 0.0
        for node in np.flatnonzero(tree.kind == 0):
            count = int(tree.child_count[node])
            children = tree.children[tree.child_start[node]:tree.child_start[node] + count]
            calls = int(np.flatnonzero(tree.action_kind[children] == 1)[0])
            start = int(game.offsets[node])
            policy[start + calls:start + count * int(game.bucket_counts[tree.round[node]]):
                   count] = 1.0
    return Blueprint("synthetic.yaml", "", game, policy, None)


@pytest.fixture(scope="module")
def mixed():
    return synthetic_blueprint("mixed")


def _arrays(blueprint):
    from gambler.evaluator.tables import load_tables
    from gambler.training.lbr_blueprint import blueprint_arrays

    return blueprint_arrays(blueprint), load_tables(), lbr_tables()


def _hand(blueprint, deal, lbr, actions, seed=3, hand_number=None):
    from gambler.training.lbr_blueprint import blueprint_lbr_hand

    (tree, offsets, policy, cards), tables, lookups = _arrays(blueprint)
    holes, board = deal
    trace = np.full((40, 4), -1, dtype=np.int64)
    ranges = np.zeros((12, 1326))
    number = hand_number if hand_number is not None else 2 * 7 + lbr
    ok, _ = blueprint_lbr_hand(encode_rules(GAME), lbr, tree, offsets, policy, cards,
                               np.array(holes[lbr]), np.array(holes[1 - lbr]), np.array(board),
                               number, seed, tables, lookups, parse_action_sets(actions), trace,
                               ranges)
    assert ok
    return [tuple(row) for row in trace if row[0] >= 0], ranges, number


def _real(row):
    _, _, code, amount = row
    return FOLD_ACTION if code == FOLD_CODE else CALL_ACTION if code == CALL_CODE else \
        raise_to(int(amount))


def _deals(count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        cards = [int(c) for c in rng.permutation(52)[:9]]
        yield ((cards[0], cards[1]), (cards[2], cards[3])), cards[4:9]


def _translations(strategy, node, betting, action, number, index):
    """Where `action` takes abstract `node` (None: off the tree) and with what probability, from
    the bot's own `_child_for` with its draw forced to each side of the pseudo-harmonic split."""
    import gambler.bot.blueprint as module

    tree = strategy.tree
    if node is None or tree.kind[node] != 0 or tree.round[node] != betting.round or \
            tree.player[node] != betting.current_player:
        return [(None, 1.0)]
    real_bet = betting.max_spent
    outcomes = {}
    original = module.draw
    try:
        for u in (0.0, 1.0 - 1e-12):
            module.draw = lambda *_: u
            outcomes[u] = strategy._child_for(node, action, number, index, real_bet)
    finally:
        module.draw = original
    low, high = outcomes[0.0], outcomes[1.0 - 1e-12]
    if low == high:
        return [(low, 1.0)]
    smaller = module._pot_fraction(int(tree.action_to[low]), max(tree.spent0[node],
                                                                   tree.spent1[node]))
    larger = module._pot_fraction(int(tree.action_to[high]), max(tree.spent0[node],
                                                                   tree.spent1[node]))
    keep = module.pseudo_harmonic(smaller, larger, module._pot_fraction(action.raise_to,
                                                                          real_bet))
    return [(low, keep), (high, 1.0 - keep)]


@pytest.mark.parametrize("actions", ["FCPA,FCPA,FCPA,FCPA", "FCHPA,FCHPA,FCHPA,FCHPA",
                                     "FCMDX,FCMDX,FCDXA,FCDXA"])
def test_the_kernels_bot_and_range_are_the_python_bots(mixed, actions):
    strategy = BlueprintStrategy(mixed, seed=3)
    tree = mixed.game.tree
    holdings = _holdings()
    checked_weights = bot_decisions = splits = 0
    for deal in _deals(30, 11):
        holes, board = deal
        for lbr in range(2):
            trace, ranges, number = _hand(mixed, deal, lbr, actions)
            bot = 1 - lbr
            betting = BettingState.start(GAME)
            # LBR's belief, computed here from the Python bot: (abstract node, weights) branches
            branches = [(0, np.array([0.0 if set(pair) & set(holes[lbr]) else 1.0
                                      for pair in holdings]))]
            decision = 0
            for index, row in enumerate(trace):
                round_, player = int(row[0]), int(row[1])
                shown = GAME.board_cards_through(round_)
                seen = set(board[:shown])
                alive = np.array([0.0 if set(pair) & seen else 1.0 for pair in holdings])
                branches = [(node, weights * alive) for node, weights in branches]
                action = _real(row)
                if player == bot:
                    state = MatchState(bot, number, betting, _holes(bot, holes[bot]),
                                       tuple(board[:shown]))
                    assert strategy.act(state) == action  # the TCP bot's own choice
                    bot_decisions += 1
                    for node, weights in branches:
                        _weigh_by_the_action(strategy, tree, node, weights, betting, action,
                                             number, bot, board[:shown], holdings)
                elif actions.split(",")[round_] != "C":
                    expected = sum(weights for _, weights in branches)
                    np.testing.assert_allclose(ranges[decision], expected, rtol=1e-9,
                                               atol=1e-12)
                    checked_weights += int((expected > 0).sum())
                    decision += 1
                moved = {}
                for node, weights in branches:
                    ways = _translations(strategy, node, betting, action, number, index)
                    splits += len(ways) - 1
                    for child, p in ways:
                        moved[child] = moved.get(child, 0.0) + p * weights
                branches = list(moved.items())
                betting = betting.apply(action)
    assert bot_decisions > 30 and checked_weights > 20_000
    if "X" in actions:
        assert splits > 0  # 2 and 3 pots fall between pot and all-in: the belief branches


def _weigh_by_the_action(strategy, tree, node, weights, betting, action, number, bot, board,
                         holdings):
    """weights[h] *= the chance that the bot, holding h, in abstract `node`, takes `action`."""
    if node is None or tree.kind[node] != 0:
        weights *= 1.0 if action == CALL_ACTION else 0.0
        return
    count = int(tree.child_count[node])
    first = int(tree.child_start[node])
    gives = [strategy._real_action(betting, node, int(tree.children[first + c])) == action
             for c in range(count)]
    start = int(strategy.blueprint.game.offsets[node])
    for h, pair in enumerate(holdings):
        if weights[h] == 0.0:
            continue
        own = MatchState(bot, number, betting, _holes(bot, pair), tuple(board))
        bucket = strategy.bucket(own, int(tree.round[node]))
        row = np.asarray(strategy.blueprint.policy[start + bucket * count:
                                                    start + (bucket + 1) * count], dtype=float)
        probabilities = row / row.sum()
        weights[h] *= sum(p for p, given in zip(probabilities, gives) if given)


def _holdings():
    from gambler.evaluator.holdings import HOLDING_CARDS

    return [tuple(int(c) for c in pair) for pair in HOLDING_CARDS]


def _holes(position, pair):
    return tuple(tuple(pair) if p == position else () for p in range(2))


@pytest.mark.parametrize("actions", ["C,C,FCPA,FCPA", "FCMA,FCMA,FCMA,FCMA",
                                     "FCHPA,FCHPA,FCHPA,FCHPA"])
def test_a_blueprint_that_always_calls_is_the_call_baseline(actions):
    calls = synthetic_blueprint("call")
    blueprint = run_lbr(calls, GAME, hands=160, seed=5, actions=actions)
    baseline = run_lbr("call", GAME, hands=160, seed=5, actions=actions)
    assert np.array_equal(blueprint.chips, baseline.chips)
    assert np.array_equal(blueprint.lines, baseline.lines)
    assert np.abs(blueprint.chips).sum() > 0


def test_lbr_beats_a_random_mixed_blueprint(mixed):
    # A strategy of random numbers folds to raises far too often: LBR must win a lot.
    result = run_lbr(mixed, GAME, hands=400, seed=5, actions="FCPA,FCPA,FCPA,FCPA")
    score = result.score
    assert score.mbb_per_hand - score.ci95_mbb > 1000


def test_a_blueprint_without_a_card_abstraction_is_refused_in_one_message():
    from gambler.solver.deals import category_deals
    from gambler.training.lbr_blueprint import BlueprintLbrError

    tree = build_tree(GAME, BettingAbstraction(((1.0,),) * 4, True, (1, 1, 1, 1)))
    game = AbstractGame(tree, category_deals(GAME, 50, seed=1))
    blueprint = Blueprint("small.yaml", "", game, np.ones(game.size, dtype=np.float32), None)
    with pytest.raises(BlueprintLbrError, match=r"^small.yaml: LBR plays blueprints of heads-up "
                                                r"hold'em with a card abstraction .*this one has "
                                                r"categories deals$"):
        run_lbr(blueprint, GAME, hands=10, seed=5)
