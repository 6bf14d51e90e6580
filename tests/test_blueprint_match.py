"""The fast engine against a blueprint (`training.blueprint_match`), checked against independent
players of the same strategies.

* A blueprint that always checks or calls is the `call` baseline: every hand-written exploiter
  wins the same chips on every deal against both, through this engine and `training.engine`.
* The blueprint in the kernel is the TCP bot: at each of its decisions, `BlueprintStrategy.act`
  (same seed, same hand number) takes the action the kernel took.
* `gambler-exploit`'s search against a random mixed blueprint finds an exploiter that beats it
  on held-out deals, and the result it reports is what the engine gives that exploiter there.

The blueprints are `test_lbr_blueprint`'s synthetic ones.
"""

from __future__ import annotations

import numpy as np
import pytest

from gambler.bot.blueprint import BlueprintStrategy
from gambler.bot.exploiters import HAND_WRITTEN, load_exploiter
from gambler.protocol.betting import CALL_ACTION, FOLD_ACTION, BettingState, raise_to
from gambler.protocol.matchstate import MatchState
from gambler.training.blueprint_match import (BlueprintMatchError, blueprint_hand_trace,
                                              check_playable, engine_arrays,
                                              population_against_blueprint)
from gambler.training.deals import cached_deal_set
from gambler.training.engine import (CALL_CODE, EXPLOITER, FOLD_CODE, encode_rules,
                                     encode_strategy, exploiter_vector, play_deals)
from test_lbr_blueprint import GAME, _holes, synthetic_blueprint

SEED = 5


@pytest.fixture(scope="module")
def deals():
    return cached_deal_set(SEED, 0, 300)[0]


def _against(blueprint, vectors, deals):
    tree, offsets, policy, cards = engine_arrays(blueprint, GAME)
    count = len(deals)
    raw = np.zeros((len(vectors), count, 2), dtype=np.int64)
    adjusted = np.zeros((len(vectors), count, 2))
    population_against_blueprint(encode_rules(GAME), EXPLOITER, np.asarray(vectors), tree,
                                 offsets, policy, cards, deals.v, deals.holes, deals.boards,
                                 deals.outcomes, deals.allin_equity, SEED, deals.first_deal, raw,
                                 adjusted)
    return raw, adjusted


def test_a_blueprint_that_always_calls_is_the_call_baseline(deals):
    calls = synthetic_blueprint("call")
    vectors = np.stack([exploiter_vector(load_exploiter(name)) for name in HAND_WRITTEN])
    raw, adjusted = _against(calls, vectors, deals)
    kind_b, params_b = encode_strategy("call")
    for member, vector in enumerate(vectors):
        expected = np.zeros((len(deals), 2), dtype=np.int64)
        expected_adjusted = np.zeros((len(deals), 2))
        play_deals(encode_rules(GAME), EXPLOITER, vector, kind_b, params_b, deals.v,
                   deals.outcomes, deals.allin_equity, SEED, deals.first_deal, expected,
                   expected_adjusted)
        assert np.array_equal(raw[member], expected)
        assert np.array_equal(adjusted[member], expected_adjusted)
        assert np.abs(expected).sum() > 0


def _action(code, amount):
    return FOLD_ACTION if code == FOLD_CODE else CALL_ACTION if code == CALL_CODE else \
        raise_to(int(amount))


def test_the_kernels_blueprint_is_the_tcp_bot(deals):
    mixed = synthetic_blueprint("mixed")
    tree, offsets, policy, cards = engine_arrays(mixed, GAME)
    strategy = BlueprintStrategy(mixed, seed=SEED)
    vector = exploiter_vector(load_exploiter("prober"))
    checked = 0
    for i in range(40):
        holes = deals.holes[i].astype(np.int64)
        board = deals.boards[i].astype(np.int64)
        for order in range(2):
            seat = 1 - order
            number = 2 * (deals.first_deal + i) + order
            trace = np.full((64, 3), -1, dtype=np.int64)
            blueprint_hand_trace(encode_rules(GAME), EXPLOITER, vector, tree, offsets, policy,
                                 cards, deals.v[i], holes, board, seat, SEED, number, trace)
            betting = BettingState.start(GAME)
            for player, code, amount in trace[trace[:, 0] >= 0]:
                action = _action(code, amount)
                if player == seat:
                    shown = GAME.board_cards_through(betting.round)
                    state = MatchState(seat, number, betting,
                                       _holes(seat, tuple(int(c) for c in holes[seat])),
                                       tuple(int(c) for c in board[:shown]))
                    assert strategy.act(state) == action
                    checked += 1
                betting = betting.apply(action)
            assert betting.finished
    assert checked > 80


def test_the_search_beats_a_random_blueprint_on_held_out_deals():
    from gambler.training.evaluate import score_pairs
    from gambler.training.exploit import SearchSettings, search_exploiter

    mixed = synthetic_blueprint("mixed")
    settings = SearchSettings(training_deals=300, validation_deals=200, held_out_deals=400,
                              population=8, elite=2)
    result = search_exploiter(mixed, GAME, seed=SEED, seconds=600, settings=settings,
                              generations=2)
    assert result.held_out.mbb_per_hand - result.held_out.ci95_mbb > 0
    held_out = cached_deal_set(SEED, 0, 900)[0].slice(500, 900)
    _, adjusted = _against(mixed, exploiter_vector(result.exploiter)[None], held_out)
    assert result.held_out.mbb_per_hand == pytest.approx(
        score_pairs(adjusted[0].sum(axis=1), max(GAME.blinds)).mbb_per_hand, rel=1e-12)


def test_strategies_the_engine_cannot_play_against_a_blueprint_are_refused():
    with pytest.raises(BlueprintMatchError, match="random baseline"):
        check_playable(*encode_strategy("random"))


def test_gambler_match_plays_a_blueprint_on_the_fast_engine_from_either_seat():
    from gambler.bot.strategies import resolve_strategy
    from gambler.training.match_cli import blueprint_fast_match, fast_match

    calls = synthetic_blueprint("call")
    seed = resolve_strategy("seed")  # a profile: its mixed play seeded as the engine seeds it
    expected, deals = fast_match(seed, "call", 400, SEED, GAME, workers=1)
    first, count = blueprint_fast_match(seed, calls, 400, SEED, GAME)
    second, _ = blueprint_fast_match(calls, seed, 400, SEED, GAME)
    assert count == deals == 200
    assert np.array_equal(first.raw, expected.raw) and np.array_equal(second.raw, -expected.raw)
    assert np.array_equal(first.adjusted, expected.adjusted)
    assert expected.raw.any()
