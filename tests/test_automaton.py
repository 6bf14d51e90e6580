"""The four-mode automaton: every mode and boundary, and legality over random states."""

import pytest
from hypothesis import given, settings, strategies as st

from acpc_support import LIMIT, NOLIMIT
from gambler.bot.automaton import (BET_TO_END, GIVE_UP, RAISE_TO, WAIT_AND_SEE, RoundPlan, choose_action,
                           mode_for, plan_for_state, plan_round)
from gambler.bot.params import RoundParams, load_profile
from gambler.protocol import BettingState, load_game, parse_betting, raise_to
from gambler.protocol.betting import Action

NL = load_game(NOLIMIT)


def act(mode, call_limit, raise_target, betting):
    plan = RoundPlan(mode, 0.0, call_limit, raise_target)
    return str(choose_action(plan, parse_betting(NL, betting)))


# (mode, U, T, betting so far, expected action). Positions: "" = small blind facing the big
# blind's 100; "c" = big blind, nothing owed; "r300" = big blind facing 300; "cc/" = first to act
# on the flop; "r20000" = big blind facing an all-in.
TABLE = [
    (GIVE_UP, 10**6, 10**6, "", "f"),            # facing a bet: fold, whatever U
    (GIVE_UP, 0, 0, "c", "c"),                   # nothing owed: check, never fold
    (GIVE_UP, 0, 0, "cc/", "c"),
    (WAIT_AND_SEE, 300, 0, "r300", "c"),         # O = U: call (fold only when O > U)
    (WAIT_AND_SEE, 299, 0, "r300", "f"),         # O > U: fold
    (WAIT_AND_SEE, -50, 0, "c", "c"),            # nothing owed: check even with U < O
    (WAIT_AND_SEE, 20000, 0, "r20000", "c"),     # call an all-in within U
    (RAISE_TO, 299, 5000, "r300", "f"),          # O > U: fold before any raise
    (RAISE_TO, 300, 500, "r300", "r500"),        # min raise-to 500 = T: raise to T
    (RAISE_TO, 300, 499, "r300", "c"),           # min raise-to 500 > T: call
    (RAISE_TO, 300, 90000, "r300", "r20000"),    # T above the stack: all in
    (RAISE_TO, 0, 1000, "cc/", "r1000"),         # not facing: raise to T
    (RAISE_TO, 0, 150, "cc/", "c"),              # min raise-to 200 > T: check
    (RAISE_TO, 20000, 30000, "r20000", "c"),     # no raise is legal: call
    (BET_TO_END, -10**6, 800, "r300", "r800"),   # O < T: raise to T; never fold despite U
    (BET_TO_END, 0, 300, "r300", "r600"),        # O = T: twice O
    (BET_TO_END, 0, 100, "r300", "r600"),        # O > T: twice O
    (BET_TO_END, 0, 0, "r300r1000r4000", "r8000"),
    (BET_TO_END, 0, 0, "r300r1000r4000r12000", "r20000"),  # 2 O above the stack: all in
    (BET_TO_END, 0, 150, "c", "r200"),           # O = 100 < T = 150 < min 200: the minimum
    (BET_TO_END, -1, -1, "r20000", "c"),         # facing all-in: call, never fold
]


@pytest.mark.parametrize("mode, call_limit, raise_target, betting, expected", TABLE)
def test_each_mode_and_boundary(mode, call_limit, raise_target, betting, expected):
    assert act(mode, call_limit, raise_target, betting) == expected


def test_modes_switch_exactly_at_the_thresholds():
    thresholds = (-0.1, 0.2, 0.5)
    assert [mode_for(thresholds, v) for v in (-0.1000001, -0.1, 0.1999999, 0.2, 0.4999, 0.5)] \
        == [GIVE_UP, WAIT_AND_SEE, WAIT_AND_SEE, RAISE_TO, RAISE_TO, BET_TO_END]


def test_plans_use_the_rounds_polynomials():
    seed = load_profile("seed")
    plan = plan_round(seed.rounds[3], 0.3)  # river: y = 0.117 <= 0.3 < z = 0.486
    assert plan.mode == RAISE_TO
    assert plan.call_limit == int(4270.02 + 19267.1 * 0.3 + 948.997 * 0.09 - 491.894 * 0.027)
    assert plan.raise_target == int(254.358 + 19795.7 * 0.3 + 368.699 * 0.09 - 656.29 * 0.027)


@pytest.mark.parametrize("mode, v, margin, expected", [
    # The small blind faces a flop bet to 400 with 100 in: to_call 300, pot 500, so the price is
    # 300 / 800 = 0.375; with v = 0.2 the equity is 0.6.
    (WAIT_AND_SEE, 0.2, 0.2, "c"),      # 0.6 >= 0.375 + 0.2: call
    (WAIT_AND_SEE, 0.2, 0.226, "f"),    # 0.6 < 0.601: fold
    (WAIT_AND_SEE, 0.2, 0.224, "c"),
    (RAISE_TO, 0.2, 0.3, "f"),          # mode 3 folds on price too, before raising
    (RAISE_TO, 0.2, -0.1, "r1000"),     # a negative margin calls cheaper: then raises to T
    (BET_TO_END, 0.2, 0.9, "r1000"),    # mode 4 never folds
])
def test_price_aware_calls(mode, v, margin, expected):
    plan = RoundPlan(mode, v, -10**6, 1000, margin)  # U would fold everything: unused
    assert str(choose_action(plan, parse_betting(NL, "cc/r400"))) == expected


@pytest.mark.parametrize("mode, v, defend, betting, expected", [
    # Facing a flop bet to 400 with 100 in: to_call 300, pot 500, price 300 / 800 = 0.375.
    (GIVE_UP, -0.3, (0.0, -1.0), "cc/r400", "c"),     # line 0 - 0.375 = -0.375 <= -0.3: call
    (GIVE_UP, -0.3, (0.0, -0.5), "cc/r400", "f"),     # line -0.1875 > -0.3: fold
    (GIVE_UP, -0.3, None, "cc/r400", "f"),            # no line: give up folds (version 2)
    (GIVE_UP, 0.25, (0.25, 0.0), "cc/r400", "c"),     # v on the line: call
    (GIVE_UP, 0.2499, (0.25, 0.0), "cc/r400", "f"),
    # A minimum bet (to 200: to_call 100, pot 300, price 0.25) is cheaper than a pot bet (to 300:
    # price 200 / 600 = 1/3): with d1 = 1, v = 0.3 calls the first and folds the second.
    (GIVE_UP, 0.3, (0.05, 1.0), "cc/r200", "c"),      # line 0.3
    (GIVE_UP, 0.3, (0.05, 1.0), "cc/r300", "f"),      # line 0.3833
    (WAIT_AND_SEE, 0.3, (0.1, 0.5), "cc/r400", "c"),  # too dear (U below), line 0.2875: call
    (WAIT_AND_SEE, 0.28, (0.1, 0.5), "cc/r400", "f"),
    (RAISE_TO, 0.3, (0.1, 0.5), "cc/r400", "c"),      # defended: calls, never raises to T
    (BET_TO_END, 0.3, (0.9, 0.0), "cc/r400", "r1000"),  # mode 4 never folds: the line is moot
    (GIVE_UP, -0.9, (-1.0, 0.0), "cc/", "c"),         # nothing owed: check, as always
])
def test_the_defence_line_calls_what_the_mode_would_fold(mode, v, defend, betting, expected):
    plan = RoundPlan(mode, v, -10**6, 1000, defend=defend)  # U folds every bet
    assert str(choose_action(plan, parse_betting(NL, betting))) == expected


def test_a_plan_takes_the_rounds_defence_line():
    flop = load_profile("tests/data/profiles/v3-defend.yaml").rounds[1]
    assert plan_round(flop, -0.2).defend == flop.defend == (-0.6, 1.6)
    assert plan_round(load_profile("tests/data/profiles/v3-defend.yaml").rounds[2], 0.0) \
        .defend is None
    # RoundParams.defends is the same line: v >= d0 + d1 to_call / (pot + to_call).
    assert flop.defends(-0.6 + 1.6 * 0.375, 300, 500)
    assert not flop.defends(-0.6 + 1.6 * 0.375 - 1e-9, 300, 500)


def test_pot_levels_start_from_the_round():
    flop = load_profile("tests/data/profiles/v2-test.yaml").rounds[1]
    state = parse_betting(NL, "r300c/r400")  # the flop began at 300 each: S = 300, P = 600
    plan = plan_for_state(flop, 0.3, state)
    pots = lambda c: c[0] + c[1] * 0.3 + c[2] * 0.09 + c[3] * 0.027  # noqa: E731
    assert plan.call_limit == int(300 + pots(flop.call) * 600)
    assert plan.raise_target == int(300 + pots(flop.raise_) * 600)
    preflop = parse_betting(NL, "")  # preflop: S = the big blind, P = both blinds
    assert (max(preflop.round_start), sum(preflop.round_start)) == (100, 150)


MIXED_FLOP = RoundParams((-0.1, 0.2, 0.5), (0, 0, 0, 0), (0.5, 0, 0, 0), levels="pot",
                         price_margin=0.0, slow_play=0.3, bluff=0.2, bluff_size=0.75, mixing=True)


@pytest.mark.parametrize("v, draw, betting, expected", [
    # Mode 3 (0.2 <= v < 0.5), nothing owed on the flop (S = 100, P = 200): it bets to T =
    # 100 + 0.5 x 200 = 200, unless the draw slow-plays it (u < 0.3): then it checks...
    (0.3, 0.5, "cc/", "r200"),
    (0.3, 0.29, "cc/", "c"),
    # ... and, bet into, it plays its mode: raises to T if it can (here the minimum is 300 > 200,
    # so it calls).
    (0.3, 0.29, "cc/r200", "c"),
    (0.6, 0.29, "cc/", "c"),            # mode 4 slow-plays too
    (0.6, 0.29, "cc/r200", "r400"),     # and check-raises: twice the bet
    (0.0, 0.1, "cc/", "c"),             # mode 2 never mixes
    # Mode 1 (v < -0.1): a bluff with u < 0.2 bets to 100 + 0.75 x 200 = 250; facing a bet, fold.
    (-0.5, 0.19, "cc/", "r250"),
    (-0.5, 0.21, "cc/", "c"),
    (-0.5, 0.1, "cc/r200", "f"),
])
def test_mixed_play_slow_plays_and_bluffs_by_the_draw(v, draw, betting, expected):
    state = parse_betting(NL, betting)
    plan = plan_for_state(MIXED_FLOP, v, state, draw)
    assert str(choose_action(plan, state)) == expected
    assert MIXED_FLOP.mixing_probability(v) == (0.3 if v >= 0.2 else 0.2 if v < -0.1 else 0.0)


@st.composite
def random_states(draw, game):
    state = BettingState.start(game)
    for _ in range(draw(st.integers(0, 12))):
        legal = state.legal_actions()
        choices = ["c"] + (["f"] if legal.can_fold else []) + (["r"] if legal.can_raise else [])
        kind = draw(st.sampled_from(choices))
        action = raise_to(draw(st.integers(legal.min_raise_to, legal.max_raise_to))) \
            if kind == "r" else Action(kind)
        after = state.apply(action)
        if after.finished:
            break
        state = after
    return state


@pytest.mark.parametrize("game", [NL, load_game(LIMIT)], ids=["nolimit", "limit"])
@settings(max_examples=400, deadline=None)
@given(data=st.data(), mode=st.integers(0, 3), call_limit=st.integers(-30000, 60000),
       raise_target=st.integers(-30000, 60000), v=st.floats(-1, 1),
       margin=st.none() | st.floats(-1, 1))
def test_the_action_is_always_legal(game, data, mode, call_limit, raise_target, v, margin):
    state = data.draw(random_states(game))
    action = choose_action(RoundPlan(mode, v, call_limit, raise_target, margin), state)
    assert state.check_legal(action).kind == action.kind  # raises if illegal
    if action.kind == "f":
        assert state.legal_actions().can_fold and mode != BET_TO_END
