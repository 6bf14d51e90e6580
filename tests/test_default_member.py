"""The shipped member `default-static` (since 0.8.0) never bets first after the flop: slow play 1
and no bluffs on the flop, turn and river, so with nothing owed every hand checks, whatever v
and the mixing draw, and a hand in "bet to the end" that is bet into raises (the check-raise);
raised back after it, only v >= 0.95 raises again (since 0.9.0). The TCP automaton and the
engine agree; the members before it (kept in tests/data/profiles/) did bet, and did raise back."""

from pathlib import Path

import numpy as np

from acpc_support import NOLIMIT
from gambler.bot.automaton import mode_action, plan_for_state
from gambler.bot.params import load_profile
from gambler.protocol import BettingState, load_game
from gambler.protocol.betting import Action
from gambler.training.engine import RAISE_CODE, automaton_action, encode_strategy

NL = load_game(NOLIMIT)
ROOT = Path(__file__).resolve().parent.parent
BEFORE = ROOT / "tests" / "data" / "profiles" / "member-0.6.0.yaml"  # the member of 0.6.0 and 0.7.0


def checked_to(round_: int, checks: int) -> BettingState:
    """A limped preflop (the small blind calls, the big blind checks), every later round checked
    through, then `checks` checks in `round_` (0: the big blind, first after the flop, to act;
    1: the small blind after the big blind's check)."""
    state = BettingState.start(NL)
    for _ in range(2 + 2 * (round_ - 1) + checks):
        state = state.apply(Action("c"))
    assert state.round == round_ and state.max_spent == state.spent[state.current_player]
    return state


def first_bets(profile) -> int:
    """How many (round, seat, v, draw) cases with nothing owed the TCP automaton bets in; the
    engine, its mixed plan drawn where the round's probability is 1, agrees on each."""
    params = encode_strategy(profile)[1]
    bets = 0
    for round_ in (1, 2, 3):
        rules = profile.rounds[round_]
        for checks in (0, 1):
            state = checked_to(round_, checks)
            legal = state.legal_actions()
            for v in np.linspace(-1, 1, 81):
                for draw in (0.0, 0.5, 0.999):
                    action = mode_action(plan_for_state(rules, v, state, draw), state)
                    bets += action.kind == "r"
                probability = rules.mixing_probability(v)
                code, _ = automaton_action(params, round_, v, state.spent[state.current_player],
                                           state.max_spent, sum(state.spent),
                                           max(state.round_start), sum(state.round_start),
                                           legal.min_raise_to, legal.max_raise_to,
                                           probability == 1.0)
                if probability in (0.0, 1.0):  # the draw cannot matter
                    assert (code == RAISE_CODE) == (action.kind == "r"), (round_, checks, v)
    return bets


def test_the_shipped_member_never_bets_first_after_the_flop():
    assert first_bets(load_profile("default-static")) == 0
    assert first_bets(load_profile(BEFORE)) > 100  # the member before it bet "bet to the end"


def test_the_shipped_member_check_raises_bet_to_the_end():
    """Bet into (the big blind checked, the small blind bet the pot), a hand with v >= z
    raises and one below calls or folds, in the TCP automaton and the engine alike."""
    profile = load_profile("default-static")
    params = encode_strategy(profile)[1]
    for round_ in (1, 2, 3):
        rules = profile.rounds[round_]
        state = checked_to(round_, 1).apply(Action("r", 300))  # the big blind faces 200 more
        legal = state.legal_actions()
        for v in (rules.thresholds[2], 0.99):
            action = mode_action(plan_for_state(rules, v, state, 0.0), state)
            code, _ = automaton_action(params, round_, v, state.spent[state.current_player],
                                       state.max_spent, sum(state.spent), max(state.round_start),
                                       sum(state.round_start), legal.min_raise_to,
                                       legal.max_raise_to, True)
            assert action.kind == "r" and code == RAISE_CODE, (round_, v)
        below = mode_action(plan_for_state(rules, rules.thresholds[2] - 0.01, state, 0.0), state)
        assert below.kind != "r"


def test_the_shipped_member_raised_back_after_its_check_raise_reraises_only_from_095():
    """Check-raised to 900 and raised back to 2,100, a hand in "bet to the end" (v at least the
    round's z) raises again only from v = 0.95 (end_reraise, since 0.9.0) and calls below it, on
    the flop, turn and river, in the TCP automaton and the engine alike; the member before it
    raised back with all of them."""
    before = load_profile(ROOT / "tests" / "data" / "profiles" / "member-0.8.0.yaml")
    for profile, bar in ((load_profile("default-static"), 0.95), (before, None)):
        params = encode_strategy(profile)[1]
        for round_ in (1, 2, 3):
            rules = profile.rounds[round_]
            state = checked_to(round_, 1).apply(Action("r", 300)).apply(Action("r", 900)) \
                .apply(Action("r", 2100))
            legal = state.legal_actions()
            for v in (rules.thresholds[2], 0.94, 0.95, 0.99):
                action = mode_action(plan_for_state(rules, v, state, 0.0), state)
                code, _ = automaton_action(params, round_, v, state.spent[state.current_player],
                                           state.max_spent, sum(state.spent),
                                           max(state.round_start), sum(state.round_start),
                                           legal.min_raise_to, legal.max_raise_to, False)
                raises = bar is None or v >= bar
                assert action.kind == ("r" if raises else "c"), (profile.name, round_, v)
                assert (code == RAISE_CODE) == raises, (profile.name, round_, v)
