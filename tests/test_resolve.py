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


SYNTHETIC_SOLVE = """\
game: holdem.nolimit.2p.reverse_blinds.game
cards: {flop: 3, turn: 3, river: 3, seed: 0}
betting:
  fractions: {preflop: [0.5, 1], flop: [1], turn: [1], river: [1]}
  all_in: true
  max_raises: {preflop: 2, flop: 1, turn: 1, river: 1}
"""


@pytest.fixture(scope="module")
def resolve_file(mixed, tmp_path_factory):
    """A resolve profile on disk over the synthetic blueprint: its card abstraction put in the
    cache under its spec's name (as `gambler-solve` would build it), its strategy saved."""
    from solver_support import synthetic_card_abstraction

    from gambler import caches
    from gambler.solver.cards import save_card_abstraction
    from gambler.solver.config import load_config
    from gambler.solver.run import abstract_game

    abstraction = synthetic_card_abstraction(3, 0)
    folder = caches.abstractions_dir() / abstraction.spec.name()
    if not (folder / "spec.json").is_file():
        save_card_abstraction(abstraction, folder)
    home = tmp_path_factory.mktemp("resolve")
    (home / "config.yaml").write_text(SYNTHETIC_SOLVE)
    assert abstract_game(load_config(str(home / "config.yaml"))).size == mixed.policy.shape[0]
    np.save(home / "strategy.npy", mixed.policy)
    (home / "blueprint.yaml").write_text("kind: blueprint\nsolve: config.yaml\n"
                                         "strategy: strategy.npy\n")
    (home / "resolve.yaml").write_text("kind: resolve\nblueprint: blueprint.yaml\n"
                                       "iterations: 20\nmax_raises: 1\n")
    return home / "resolve.yaml"


def test_a_resolve_profile_plays_through_the_real_dealer_without_a_bad_decision(resolve_file,
                                                                                tmp_path):
    # `gambler HOST PORT -p resolve.yaml` in seat 0; seat 1 raises to random sizes (off the
    # subgame's sizes), folds and calls, over 40 hands.
    from acpc_support import LocalMatch, replay_player
    from gambler.protocol.dealer import DealerOptions

    options = DealerOptions(match_name=str(tmp_path / "m"),
                            game_file="holdem.nolimit.2p.reverse_blinds.game", game=GAME,
                            hands=40, seed=5, names=["resolve", "other"], quiet=True)
    match = LocalMatch(options)
    rng = random.Random(9)
    match.add_player(1, replay_player(GAME, lambda state: _random_action(state.betting, rng)))
    bot = subprocess.Popen([sys.executable, "-m", "gambler.adaptive.cli", "127.0.0.1",
                            str(match.ports[0]), "--params", str(resolve_file), "--seed", "2",
                            "--log", str(tmp_path / "bot.log")],
                           stderr=subprocess.PIPE, text=True)
    try:
        status = match.run()
        _, errors = bot.communicate(timeout=300)
    finally:
        bot.kill()
    lines = errors.splitlines()
    assert status == 0 and bot.returncode == 0, (match.stderr.getvalue(), lines)
    assert lines[0].startswith("gambler: playing resolve")
    assert lines[-1].startswith("gambler: 40 hands, ")
    assert len(lines) == 2 and "bad decision" not in lines[-1] and "warning" not in errors, lines
    log = (tmp_path / "bot.log").read_text()
    assert log.count("river subgame") >= 5, log[:2000]  # the decisions that re-solved


def test_a_resolve_profile_is_a_portfolio_member(resolve_file, tmp_path):
    from gambler.bot.portfolio import PortfolioStrategy, load_portfolio
    from gambler.bot.strategies import load_strategy

    (tmp_path / "p.yaml").write_text(f"kind: portfolio\nmembers: [{resolve_file}, call]\n")
    portfolio = load_portfolio(str(tmp_path / "p.yaml"))
    strategy = load_strategy(str(tmp_path / "p.yaml"), seed=3, game=GAME)
    assert isinstance(strategy, PortfolioStrategy) and len(portfolio.members) == 2
    alone = ResolveStrategy(load_resolve(resolve_file), seed=3)
    checked = 0
    for seed in range(40):
        state = _river_state(alone, seed)
        if state is None:
            continue
        action = strategy.act(state)
        assert state.betting.check_legal(action) == action
        checked += 1
    assert checked >= 5


def test_bad_resolve_profiles_are_refused_by_file_and_field(tmp_path):
    cases = {"blueprint: 3": "blueprint: expected",
             "blueprint: b\nstreets: [turn, river]": "streets:",
             "blueprint: b\niterations: 0": "iterations:",
             "blueprint: b\nfractions: [0.5, -1]": "fractions:",
             "blueprint: b\nmax_raises: x": "max_raises:",
             "blueprint: b\nspeed: 3": "unknown key 'speed'"}
    for text, message in cases.items():
        path = tmp_path / "r.yaml"
        path.write_text("kind: resolve\n" + text + "\n")
        with pytest.raises(ProfileError, match=message) as error:
            load_resolve(path)
        assert str(path) in str(error.value)
    path.write_text("kind: resolve\nblueprint: blueprint\n")
    with pytest.raises(ProfileError, match="gambler-solve blueprint --install blueprint"):
        ResolveStrategy(load_resolve(path))  # the shipped config's blueprint, not installed


def test_river_lbr_against_the_blueprint_is_the_kernels_chip_for_chip(mixed):
    """`training.lbr_resolve` with the blueprint answering on the river plays every hand as
    LBR's kernel against the blueprint (`training.lbr_blueprint`) at C,C,C,FCPA: the same
    actions, the same chips."""
    from gambler.evaluator.tables import load_tables
    from gambler.training.engine import CALL_CODE, FOLD_CODE, RAISE_CODE, encode_rules
    from gambler.training.lbr import lbr_tables, parse_action_sets
    from gambler.training.lbr_blueprint import blueprint_arrays, blueprint_lbr_hand
    from gambler.training.lbr_resolve import BlueprintRiver, lbr_hand

    tree, offsets, policy, cards = blueprint_arrays(mixed)
    tables, lookups = load_tables(), lbr_tables()
    sets = parse_action_sets("C,C,C,FCPA")
    codes = {"f": FOLD_CODE, "c": CALL_CODE, "r": RAISE_CODE}
    bot = BlueprintRiver(ResolveStrategy(Resolve("x.yaml", "", mixed), seed=3))
    deals = np.random.default_rng(8)
    rivers = raised = 0
    for i in range(50):
        cards9 = [int(c) for c in deals.permutation(52)[:9]]
        holes, board = [(cards9[0], cards9[1]), (cards9[2], cards9[3])], cards9[4:9]
        for lbr in range(2):
            number = 2 * i + lbr
            trace = np.full((40, 4), -1, dtype=np.int64)
            ok, chips0 = blueprint_lbr_hand(encode_rules(GAME), lbr, tree, offsets, policy,
                                            cards, np.array(holes[lbr]),
                                            np.array(holes[1 - lbr]), np.array(board), number,
                                            3, tables, lookups, sets, trace, np.zeros((12, 1326)))
            chips, betting = lbr_hand(bot, GAME, lbr, holes, board, number, int(sets[RIVER]))
            kernel = [(int(code), int(amount) if code == RAISE_CODE else 0)
                      for _, _, code, amount in trace if code >= 0]
            python = [(codes[a.kind], a.raise_to) for actions in betting.actions
                      for a in actions]
            assert ok and python == kernel, (i, lbr)
            if not betting.folded[0] and not betting.folded[1]:  # the kernel's chips if
                assert abs(chips) == abs(chips0)                 # position 0 wins
            else:
                assert chips == (chips0 if lbr == 0 else -chips0)
            if len(betting.actions) > RIVER and betting.actions[RIVER]:
                rivers += 1
                raised += any(a.kind == "r" and actor == lbr for a, actor in
                              zip(betting.actions[RIVER], betting.actors[RIVER]))
    assert rivers > 20 and raised > 5  # measured: 27 rivers, 15 with a raise of LBR's


def test_the_tools_that_do_not_play_it_yet_say_so(resolve_file):
    from gambler.training.aivat_holdem import AivatLogError, check_scorable
    from gambler.training.engine import EngineError, encode_strategy

    resolve = load_resolve(resolve_file)
    with pytest.raises(EngineError, match="kind: resolve"):
        encode_strategy(resolve)
    with pytest.raises(AivatLogError, match="re-solving bot"):
        check_scorable(resolve)
    result = subprocess.run([sys.executable, "-m", "gambler.training.lbr_cli", str(resolve_file),
                             "--hands", "10"], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "LBR against it is not built yet" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
