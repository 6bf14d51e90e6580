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
from gambler.training.engine import (CALL_CODE, FOLD_CODE, RAISE_CODE, encode_rules, encode_strategy,
                             play_deals, play_deals_parallel, play_hand)
from gambler.evaluator.rng import stream_seed

NL = load_game(NOLIMIT)
V2 = str(Path(__file__).resolve().parent / "data" / "profiles" / "v2-test.yaml")
MIXED = str(Path(__file__).resolve().parent / "data" / "profiles" / "v2-mixed.yaml")
NARROW = str(Path(__file__).resolve().parent / "data" / "profiles" / "v2-narrow.yaml")


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
                                  ("shover", "seed"), ("default", "prober"),
                                  ("catcher", "handmade"), ("sizer", "default"),
                                  ("prober", "shover"), (V2, "seed"), ("shover", V2), (V2, V2),
                                  (MIXED, "seed"), ("default", MIXED), (MIXED, MIXED),
                                  (NARROW, "raise"), ("prober", NARROW), (NARROW, NARROW),
                                  (NARROW, "seed")])
def test_engine_hands_equal_python_hands(deals, pair):
    rules = encode_rules(NL)
    encoded = [encode_strategy(resolve_strategy(name)) for name in pair]
    kinds = np.array([kind for kind, _ in encoded])
    params = np.array([vector for _, vector in encoded])
    ranged_plans = 0
    for i in range(len(deals)):
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
