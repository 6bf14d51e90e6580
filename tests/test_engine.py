"""The fast engine plays exactly the protocol's rules and the bot's automaton."""

from pathlib import Path

import numpy as np
import pytest

from acpc_support import LIMIT, NOLIMIT
from gambler.bot.params import load_profile
from gambler.bot.strategies import load_strategy, resolve_strategy
from gambler.protocol import BettingState, load_game
from gambler.protocol.betting import Action
from gambler.protocol.matchstate import MatchState
from gambler.training.deals import compute_deal_set, deal_cards
from gambler.training import engine
from gambler.training.engine import (CALL_CODE, FOLD_CODE, RAISE_CODE, encode_rules, encode_strategy,
                             play_deals, play_deals_parallel, play_hand)
from gambler.evaluator.rng import stream_seed

NL = load_game(NOLIMIT)
V2 = str(Path(__file__).resolve().parent / "data" / "profiles" / "v2-test.yaml")
MIXED = str(Path(__file__).resolve().parent / "data" / "profiles" / "v2-mixed.yaml")
NARROW = str(Path(__file__).resolve().parent / "data" / "profiles" / "v2-narrow.yaml")
V3 = str(Path(__file__).resolve().parent / "data" / "profiles" / "v3-defend.yaml")


@pytest.fixture(scope="module")
def deals():
    return compute_deal_set(seed=3, first_deal=0, count=300)


def python_hand(game, strategies, v, deal, hand_number=0):
    """The same hand through `BettingState` and the bot's strategies (v looked up)."""
    state = BettingState.start(game)
    board = tuple(int(card) for card in deal.boards)
    holes = tuple(tuple(int(card) for card in hole) for hole in deal.holes)
    while not state.finished:
        player = state.current_player
        view = MatchState(player, hand_number, state, tuple(holes[p] if p == player else ()
                                                  for p in range(2)),
                          board[:state.board_cards_visible])
        state = state.apply(strategies[player].act(view))
    return state, state.payoffs(holes, board)


def table_strategy(name, v_of_deal):
    """The TCP bot's strategy for `name`, with v looked up from the deal set."""
    strategy = load_strategy(name)
    if hasattr(strategy, "win_rate"):
        strategy.win_rate = lambda hole, board, hand, round_: v_of_deal[hole][round_]
    return strategy


@pytest.mark.parametrize("pair", [("seed", "handmade"), ("handmade", "seed"), ("seed", "call"),
                                  ("allin", "seed"), ("raise", "handmade"), ("seed", "seed"),
                                  ("shover", "seed"), ("default-v2", "prober"),
                                  ("catcher", "handmade"), ("sizer", "default-v2"),
                                  ("prober", "shover"), (V2, "seed"), ("shover", V2), (V2, V2),
                                  (MIXED, "seed"), ("default-v2", MIXED), (MIXED, MIXED),
                                  (NARROW, "raise"), ("prober", NARROW), (NARROW, NARROW),
                                  (NARROW, "seed"), (V3, "seed"), ("prober", V3),
                                  ("sizer", V3), (V3, V3), (V3, "raise"), ("shover", V3)])
def test_engine_hands_equal_python_hands(deals, pair):
    rules = encode_rules(NL)
    encoded = [encode_strategy(resolve_strategy(name)) for name in pair]
    kinds = np.array([kind for kind, _ in encoded])
    params = np.array([vector for _, vector in encoded])
    ranged_plans = 0
    for i in range(200):  # of the 300 (the Python hands are the test's cost)
        deal = deals.slice(i, i + 1)
        v_of_hole = {tuple(int(c) for c in deal.holes[0, p]): deal.v[0, p] for p in range(2)}
        strategies = [table_strategy(name, v_of_hole) for name in pair]
        state, payoffs = python_hand(NL, strategies, v_of_hole,
                                     type("D", (), {"holes": deal.holes[0],
                                                    "boards": deal.boards[0]}), i)
        trace = np.full((64, 3), -1, dtype=np.int64)
        ours, _ = play_hand(rules, kinds, params, deal.v[0], deal.outcomes[0],
                            np.uint64(stream_seed(0, i)), trace, 0, i, holes=deal.holes[0],
                            board=deal.boards[0])
        actions = [record for record in trace if record[0] >= 0]
        replay = BettingState.start(NL)
        for _, code, amount in actions:
            replay = replay.apply(Action("f") if code == FOLD_CODE else
                                  Action("c") if code == CALL_CODE else Action("r", int(amount)))
        assert replay.betting_string() == state.betting_string(), i
        assert ours == payoffs[0], i
        ranged_plans += sum(getattr(strategy, "range_plans_made", 0) for strategy in strategies)
    # A range-aware profile replaced v by its range-aware v in many plans (and the engine did too,
    # or the actions would differ).
    assert (ranged_plans > 0) == (NARROW in pair)


@pytest.mark.parametrize("opponent", ["prober", "sizer", "seed"])
def test_the_defence_line_changes_play_where_the_mode_would_fold(deals, opponent):
    """v3-defend is v2-test with defence lines: against bettors the two differ on many deals (so
    the equality above covers the line), and only by calls instead of folds."""
    rules = encode_rules(NL)
    chips = {}
    for name in (V2, V3):
        result = np.zeros((len(deals), 2), dtype=np.int64)
        play_deals(rules, *encode_strategy(resolve_strategy(name)),
                   *encode_strategy(resolve_strategy(opponent)), deals.v, deals.outcomes,
                   deals.allin_equity, 5, deals.first_deal, result, np.zeros((len(deals), 2)))
        chips[name] = result
    assert (chips[V2] != chips[V3]).sum() > 10


def test_duplicate_pairs_cancel_and_workers_do_not_matter(deals):
    rules = encode_rules(NL)
    ka, pa = encode_strategy(load_profile("seed"))
    serial = np.zeros((len(deals), 2), dtype=np.int64)
    play_deals(rules, ka, pa, ka, pa, deals.v, deals.outcomes, deals.allin_equity, 5,
               deals.first_deal, serial, np.zeros((len(deals), 2)))
    assert (serial.sum(axis=1) == 0).all()  # the same strategy on both sides: every pair cancels
    kb, pb = encode_strategy("random")
    whole = np.zeros((len(deals), 2), dtype=np.int64)
    whole_adjusted = np.zeros((len(deals), 2))
    play_deals(rules, ka, pa, kb, pb, deals.v, deals.outcomes, deals.allin_equity, 5,
               deals.first_deal, whole, whole_adjusted)
    parts = np.zeros((len(deals), 2), dtype=np.int64)
    parts_adjusted = np.zeros((len(deals), 2))
    for start in range(0, len(deals), 70):  # any split gives the same results
        part = deals.slice(start, start + 70)
        play_deals(rules, ka, pa, kb, pb, part.v, part.outcomes, part.allin_equity, 5,
                   part.first_deal, parts[start:start + 70], parts_adjusted[start:start + 70])
    threaded = np.zeros((len(deals), 2), dtype=np.int64)
    threaded_adjusted = np.zeros((len(deals), 2))
    play_deals_parallel(rules, ka, pa, kb, pb, deals.v, deals.outcomes, deals.allin_equity, 5,
                        deals.first_deal, threaded, threaded_adjusted)
    np.testing.assert_array_equal(whole, parts)
    np.testing.assert_array_equal(whole, threaded)
    np.testing.assert_array_equal(whole_adjusted, parts_adjusted)
    np.testing.assert_array_equal(whole_adjusted, threaded_adjusted)


def test_chips_are_conserved_and_bounded(deals):
    """The same hand seen from either strategy is zero-sum; no hand exceeds the stacks."""
    rules = encode_rules(NL)
    ka, pa = encode_strategy(load_profile("seed"))
    kb, pb = encode_strategy("allin")
    a_first = np.zeros((len(deals), 2), dtype=np.int64)
    b_first = np.zeros((len(deals), 2), dtype=np.int64)
    play_deals(rules, ka, pa, kb, pb, deals.v, deals.outcomes, deals.allin_equity, 9, 0, a_first,
               np.zeros((len(deals), 2)))
    play_deals(rules, kb, pb, ka, pa, deals.v, deals.outcomes, deals.allin_equity, 9, 0, b_first,
               np.zeros((len(deals), 2)))
    # Hand 1 of (A, B) is hand 2 of (B, A): A at position 0, B at position 1.
    np.testing.assert_array_equal(a_first[:, 0], -b_first[:, 1])
    np.testing.assert_array_equal(a_first[:, 1], -b_first[:, 0])
    assert np.abs(a_first).max() <= 20000 and (np.abs(a_first) == 20000).any()


def test_limit_games_follow_the_rules_too():
    game = load_game(LIMIT)
    rules = encode_rules(game)
    deals = compute_deal_set(seed=4, first_deal=0, count=60)
    kinds = np.array([encode_strategy("raise")[0], encode_strategy("random")[0]])
    params = np.zeros((2, 44))
    for i in range(len(deals)):
        trace = np.full((64, 3), -1, dtype=np.int64)
        payoff, _ = play_hand(rules, kinds, params, deals.v[i], deals.outcomes[i],
                              np.uint64(stream_seed(1, i)), trace)
        state = BettingState.start(game)
        for _, code, amount in [record for record in trace if record[0] >= 0]:
            if code == RAISE_CODE:  # the engine's raise-to is the limit game's one raise size
                assert amount == state.legal_actions().max_raise_to
            state = state.apply(Action("f") if code == FOLD_CODE else Action("c")
                                if code == CALL_CODE else Action("r"))
        assert state.finished
        holes = [tuple(int(c) for c in deals.holes[i, p]) for p in range(2)]
        assert payoff == state.payoffs(holes, tuple(int(c) for c in deals.boards[i]))[0]


def test_deals_depend_only_on_seed_and_index():
    holes, boards = deal_cards(11, 0, 50)
    later_holes, later_boards = deal_cards(11, 20, 30)
    np.testing.assert_array_equal(holes[20:], later_holes)
    np.testing.assert_array_equal(boards[20:], later_boards)
    every = np.concatenate([holes.reshape(50, 4), boards], axis=1)
    assert all(len(set(row)) == 9 for row in every.tolist())


def test_the_range_cache_gives_the_same_hands_and_is_read(deals):
    """`play_deals` with caches of range-aware v: the same chips as without, the cache filled on
    the first call and read on the next (a cache that lies changes the hands)."""
    from gambler.training.engine import range_cache

    rules = encode_rules(NL)
    ka, pa = encode_strategy(resolve_strategy(NARROW))
    kb, pb = encode_strategy("raise")
    n = len(deals)
    arrays = (deals.v, deals.outcomes, deals.allin_equity, 5, 0)
    plain = np.zeros((n, 2), dtype=np.int64), np.zeros((n, 2))
    play_deals(rules, ka, pa, kb, pb, *arrays, *plain, deals.holes, deals.boards)
    cache = range_cache(n)
    for _ in range(2):
        cached = np.zeros((n, 2), dtype=np.int64), np.zeros((n, 2))
        play_deals(rules, ka, pa, kb, pb, *arrays, *cached, deals.holes, deals.boards,
                   cache_a=cache)
        np.testing.assert_array_equal(cached[0], plain[0])
        np.testing.assert_array_equal(cached[1], plain[1])
    filled = ~np.isnan(cache)
    assert filled.sum() > 100 and not filled[:, :, 0].any()  # after the flop only
    cache[filled] = 1.0  # every narrowed plan now believes it holds the nuts
    lied = np.zeros((n, 2), dtype=np.int64), np.zeros((n, 2))
    play_deals(rules, ka, pa, kb, pb, *arrays, *lied, deals.holes, deals.boards, cache_a=cache)
    assert (lied[0] != plain[0]).sum() > 10


def distinct_profile():
    """A version 3 profile with a different number in every field of every round (and both
    settings of `levels` and of `price`; a defence line in three rounds)."""
    from gambler.bot.params import Profile, RoundParams

    rounds = []
    for r in range(4):
        step = 0.01 * (r + 1)
        rounds.append(RoundParams(thresholds=(-0.5 + step, 0.1 + step, 0.6 + step),
                                  call=(1.1 + step, 1.2 + step, 1.3 + step, 1.4 + step),
                                  raise_=(2.1 + step, 2.2 + step, 2.3 + step, 2.4 + step),
                                  levels="pot" if r % 2 else "chips",
                                  price_margin=None if r == 2 else 0.05 + step,
                                  slow_play=0.15 + step, bluff=0.25 + step,
                                  bluff_size=0.55 + step, mixing=True, narrow=0.35 + step,
                                  defend=None if r == 1 else (-0.7 + step, 0.8 + step)))
    return Profile(tuple(rounds), version=3)


def test_the_named_offsets_read_back_every_field_of_the_packed_profile():
    """`profile_vector` packs with the constants beside `STRIDE`; reading each constant back
    gives the profile's own field (a swapped or shifted offset fails here)."""
    profile = distinct_profile()
    kind, vector = encode_strategy(profile)
    assert kind == engine.PROFILE and vector.shape == (engine.STRATEGY_NUMBERS,)
    for r, numbers in enumerate(profile.rounds):
        base = engine.STRIDE * r

        def read(offset):
            return vector[base + offset]

        assert (read(engine.THRESHOLD_X), read(engine.THRESHOLD_Y),
                read(engine.THRESHOLD_Z)) == numbers.thresholds
        assert tuple(read(o) for o in (engine.CALL_0, engine.CALL_1, engine.CALL_2,
                                       engine.CALL_3)) == numbers.call
        assert tuple(read(o) for o in (engine.RAISE_0, engine.RAISE_1, engine.RAISE_2,
                                       engine.RAISE_3)) == numbers.raise_
        assert read(engine.LEVELS) == (1.0 if numbers.levels == "pot" else 0.0)
        assert read(engine.PRICE) == (0.0 if numbers.price_margin is None else 1.0)
        assert read(engine.PRICE_MARGIN) == (numbers.price_margin or 0.0)
        assert read(engine.SLOW_PLAY) == numbers.slow_play
        assert read(engine.BLUFF) == numbers.bluff
        assert read(engine.BLUFF_SIZE) == numbers.bluff_size
        assert read(engine.NARROW) == numbers.narrow
        assert (read(engine.DEFEND_0), read(engine.DEFEND_1)) == (numbers.defend or (2.0, 0.0))
    # Every number of the profile landed in a slot of its own: nothing else is non-zero.
    named = [getattr(engine, name) for name in (
        "THRESHOLD_X", "THRESHOLD_Y", "THRESHOLD_Z", "CALL_0", "CALL_1", "CALL_2", "CALL_3",
        "RAISE_0", "RAISE_1", "RAISE_2", "RAISE_3", "LEVELS", "PRICE", "PRICE_MARGIN",
        "SLOW_PLAY", "BLUFF", "BLUFF_SIZE", "NARROW", "DEFEND_0", "DEFEND_1")]
    assert len(named) == len(set(named)) == engine.STRIDE
    spare = np.delete(vector[:4 * engine.STRIDE].reshape(4, engine.STRIDE), named, axis=1)
    assert not spare.any() and not vector[4 * engine.STRIDE:].any()
    # The engine's own readers: the mixing chance by mode, and the narrowing fractions.
    assert engine.mixing_probability(vector, 1, -1.0) == profile.rounds[1].bluff
    assert engine.mixing_probability(vector, 1, 1.0) == profile.rounds[1].slow_play
    assert tuple(engine.narrow_fractions(vector)) == profile.keep


def test_what_the_engine_cannot_play_is_an_engine_error(deals):
    from types import SimpleNamespace

    from gambler.errors import GamblerError

    with pytest.raises(engine.EngineError, match="heads-up games only, not 3 players"):
        encode_rules(SimpleNamespace(num_players=3))
    with pytest.raises(engine.EngineError, match="unknown baseline 'fold'"):
        encode_strategy("fold")
    ka, pa = encode_strategy(resolve_strategy(NARROW))
    n = len(deals)
    with pytest.raises(engine.EngineError, match="needs the deals' cards"):
        play_deals(encode_rules(NL), ka, pa, ka, pa, deals.v, deals.outcomes, deals.allin_equity,
                   5, 0, np.zeros((n, 2), dtype=np.int64), np.zeros((n, 2)))
    assert issubclass(engine.EngineError, GamblerError) and issubclass(engine.EngineError,
                                                                       ValueError)
