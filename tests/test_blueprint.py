"""Blueprint profiles (`bot.blueprint`): the strategy played is the solve's, real raises are
translated by the pseudo-harmonic mapping, and no hand, however the opponent bets, draws an
illegal action."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gambler.bot.blueprint import BlueprintStrategy, load_blueprint, pseudo_harmonic
from gambler.bot.params import ProfileError
from gambler.bot.strategies import load_strategy
from gambler.protocol.betting import CALL_ACTION, FOLD_ACTION, BettingState, raise_to
from gambler.protocol.gamedef import load_game
from gambler.protocol.matchstate import MatchState
from gambler.solver.config import load_config
from gambler.solver.run import SolveRun

DATA = Path(__file__).parent / "data"
NOLIMIT_LEDUC = DATA / "games" / "leduc.nolimit.2p.game"


def solved(tmp_path_factory, name: str, text: str) -> Path:
    folder = tmp_path_factory.mktemp(name)
    (folder / "solve.yaml").write_text(text)
    run = SolveRun.start(folder / "run", load_config(str(folder / "solve.yaml")), None, None)
    run.run()
    return folder / "run" / "blueprint.yaml"


@pytest.fixture(scope="module")
def leduc(tmp_path_factory):
    return solved(tmp_path_factory, "leduc", "game: leduc.limit.2p.game\ncards: lossless\n"
                  "solver: {batch: 1000}\niterations: 100000\ncheckpoint_minutes: 10\n")


@pytest.fixture(scope="module")
def nolimit(tmp_path_factory):
    return solved(tmp_path_factory, "nolimit", f"game: {NOLIMIT_LEDUC}\ncards: lossless\n"
                  "betting:\n  fractions: {preflop: [0.5, 1], flop: [0.5, 1]}\n"
                  "  max_raises: {preflop: 2, flop: 2}\n"
                  "solver: {batch: 1000}\niterations: 50000\ncheckpoint_minutes: 10\n")


def test_the_pseudo_harmonic_mapping_has_its_published_values():
    # f(x) = (B - x)(1 + A) / ((B - A)(1 + x)): 1 at A, 0 at B; between half pot and pot,
    # three quarters of the pot maps to half pot with probability 0.375 / 0.875.
    assert pseudo_harmonic(0.5, 1.0, 0.5) == 1.0
    assert pseudo_harmonic(0.5, 1.0, 1.0) == 0.0
    assert pseudo_harmonic(0.5, 1.0, 0.75) == pytest.approx(0.375 / 0.875)
    # it is not linear: the midpoint maps to the smaller size less than half the time here
    assert pseudo_harmonic(1.0, 3.0, 2.0) == pytest.approx(2 / 6)


def test_the_strategy_played_is_the_solves(leduc):
    blueprint = load_blueprint(leduc)
    strategy = BlueprintStrategy(blueprint)
    game = blueprint.game
    tree = game.tree
    leduc_game = tree.game
    rng = random.Random(3)
    checked = 0
    for _ in range(200):
        cards = rng.sample(leduc_game.deck, 3)
        betting = BettingState.start(leduc_game)
        while not betting.finished:
            player = betting.current_player
            hole = tuple((cards[p],) if p == player else () for p in range(2))
            board = tuple(cards[2:3]) if betting.round == 1 else ()
            state = MatchState(position=player, hand=0, betting=betting, hole_cards=hole,
                               board=board)
            node, probabilities = strategy.distribution(state)
            assert node == tree.node_of(betting.betting_string())
            labels = blueprint.labels[betting.round]
            seen = (cards[player],) + board
            start = game.offsets[node] + labels[seen] * tree.child_count[node]
            row = np.asarray(blueprint.policy[start:start + tree.child_count[node]])
            assert np.allclose(probabilities, row / row.sum())
            checked += 1
            betting = betting.apply(strategy.act(state))
    assert checked > 400


def random_raise(betting: BettingState, rng: random.Random):
    legal = betting.legal_actions()
    roll = rng.random()
    if legal.can_fold and roll < 0.1:
        return FOLD_ACTION
    if legal.can_raise and roll < 0.7:
        return raise_to(rng.randint(legal.min_raise_to, legal.max_raise_to))
    return CALL_ACTION


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_opponent_betting_draws_an_illegal_action(nolimit_strategy, seed):
    strategy = nolimit_strategy
    game = strategy.tree.game
    rng = random.Random(seed)
    cards = rng.sample(game.deck, 3)
    betting = BettingState.start(game)
    position = rng.randrange(2)
    while not betting.finished:
        if betting.current_player == position:
            hole = tuple((cards[p],) if p == position else () for p in range(2))
            state = MatchState(position=position, hand=seed % 1000, betting=betting,
                               hole_cards=hole, board=tuple(cards[2:3]) if betting.round else ())
            action = strategy.act(state)
            assert betting.check_legal(action) == action
        else:
            action = random_raise(betting, rng)
        betting = betting.apply(action)


@pytest.fixture(scope="module")
def nolimit_strategy(nolimit):
    return load_strategy(str(nolimit))


def test_real_raises_translate_to_the_abstract_sizes_around_them(nolimit_strategy):
    strategy = nolimit_strategy
    tree = strategy.tree
    game = tree.game
    start = BettingState.start(game)  # the small blind faces 100: half pot is 200, pot 300
    on_tree = {200: "r200", 300: "r300", 1200: "r1200"}
    for real, abstract in on_tree.items():
        node = strategy.abstract_node(start.apply(raise_to(real)), hand=0)
        assert tree.betting[node] == abstract
    # 250 (three quarters of the pot) lies between: it is r200 with probability 0.375 / 0.875
    hits = sum(tree.betting[strategy.abstract_node(start.apply(raise_to(250)), hand)] == "r200"
               for hand in range(4000))
    assert abs(hits / 4000 - 0.375 / 0.875) < 0.03
    # past the pot-sized raise and short of all-in: between pot (1) and all-in (5.5)
    node = strategy.abstract_node(start.apply(raise_to(1100)), hand=1)
    assert tree.betting[node] in ("r300", "r1200")


def test_a_blueprint_whose_strategy_does_not_fit_is_refused(leduc, tmp_path):
    np.save(tmp_path / "strategy.npy", np.zeros(7, dtype=np.float32))
    (tmp_path / "config.yaml").write_text((leduc.parent / "config.yaml").read_text())
    (tmp_path / "bp.yaml").write_text("kind: blueprint\nsolve: config.yaml\n"
                                      "strategy: strategy.npy\n")
    with pytest.raises(ProfileError, match=r"has 7 entries; the solve's tables have 2,184"):
        load_strategy(str(tmp_path / "bp.yaml"))


HOLDEM_CATEGORIES = """\
game: holdem.nolimit.2p.reverse_blinds.game
cards: {categories: 20000, seed: 1}
betting:
  fractions: {preflop: [0.5, 1], flop: [1], turn: [1], river: [1]}
  max_raises: {preflop: 2, flop: 1, turn: 1, river: 1}
solver: {batch: 2000}
iterations: 40000
checkpoint_minutes: 10
"""


@pytest.fixture(scope="module")
def holdem(tmp_path_factory):
    return solved(tmp_path_factory, "holdem", HOLDEM_CATEGORIES)


def test_the_bots_buckets_are_the_solves(holdem):
    from gambler.solver.deals import category_buckets, category_deals

    game = load_game()
    rng = np.random.default_rng(1)
    cards = np.argsort(rng.random((300, 52)), axis=1)[:, :9].astype(np.uint8)
    whole = category_buckets(cards[:, :2], cards[:, 4:9])
    for shown, round_ in ((0, 0), (3, 1), (4, 2)):  # from the board seen so far, as the bot is
        assert np.array_equal(category_buckets(cards[:, :2], cards[:, 4:4 + shown])[:, round_],
                              whole[:, round_])
    deals = category_deals(game, 50, seed=7)
    assert deals.kind == "categories"
    assert np.all(deals.buckets.max(axis=(0, 1)) < deals.bucket_counts)


def test_a_holdem_blueprint_plays_through_the_real_dealer_without_a_bad_decision(holdem,
                                                                                 tmp_path):
    # The bot plays the blueprint in seat 0; seat 1 raises to random sizes (off the tree: the
    # abstraction has half pot, pot and all-in), folds and calls, over 60 hands.
    import subprocess
    import sys
    import threading

    from acpc_support import LocalMatch, replay_player
    from gambler.protocol.dealer import DealerOptions

    game = load_game()
    options = DealerOptions(match_name=str(tmp_path / "m"),
                            game_file="holdem.nolimit.2p.reverse_blinds.game", game=game,
                            hands=60, seed=5, names=["blueprint", "other"], quiet=True)
    match = LocalMatch(options)
    rng = random.Random(9)
    match.add_player(1, replay_player(game, lambda state: random_raise(state.betting, rng)))
    bot = subprocess.Popen([sys.executable, "-m", "gambler.adaptive.cli", "127.0.0.1",
                            str(match.ports[0]), "--params", str(holdem), "--seed", "2"],
                           stderr=subprocess.PIPE, text=True)
    try:
        status = match.run()
        _, errors = bot.communicate(timeout=300)
    finally:
        bot.kill()
    lines = errors.splitlines()
    assert status == 0 and bot.returncode == 0, (match.stderr.getvalue(), lines)
    assert lines[0].startswith(f"gambler: playing {holdem.stem}")
    assert lines[-1].startswith("gambler: 60 hands, ")
    # the summary names bad decisions (an illegal action repaired) only when there were some
    assert len(lines) == 2 and "bad decision" not in lines[-1] and "warning" not in errors, lines
