"""`end_reraise` (version 5): "bet to the end", raised back after its own bet or raise this
round, re-raises only from v = w and calls below it; the TCP automaton and the engine's agree
on hand-worked states, and the key's errors name the field. (The TCP bot against LBR's model of
it and against the engine hand for hand: tests/test_range_defence.py, `END_PROFILE`.)"""

from pathlib import Path

import pytest

from acpc_support import NOLIMIT
from gambler.bot.automaton import (BET_TO_END, choose_action, decision_fields, mode_action,
                                   plan_for_state)
from gambler.bot.params import ProfileError, load_profile, parse_profile
from gambler.protocol import BettingState, load_game
from gambler.protocol.betting import Action
from gambler.training.engine import (CALL_CODE, END_RERAISE_AT, RAISE_CODE, automaton_action,
                                     encode_strategy)

NL = load_game(NOLIMIT)
DATA = Path(__file__).resolve().parent / "data" / "profiles"
END_PROFILE = DATA / "v5-end-reraise.yaml"   # flop w = 0.95, turn 0.9, river 1
KEEP_PROFILE = DATA / "v5-range-keep.yaml"   # the same without end_reraise


def flop_after(*actions: str) -> BettingState:
    """The flop after a limped preflop (the small blind calls, the big blind checks), then
    `actions` ("c", or "rN" to raise to N): the big blind, position 0, acts first."""
    state = BettingState.start(NL)
    for text in ("c", "c", *actions):
        state = state.apply(Action("c") if text == "c" else Action("r", int(text[1:])))
    assert state.round == 1
    return state


def engine_action(profile, v: float, state: BettingState) -> tuple[int, int]:
    """`training.engine.automaton_action` for the player to act in `state`, no mixed play."""
    params = encode_strategy(profile)[1]
    player = state.current_player
    legal = state.legal_actions()
    low, high = (legal.min_raise_to, legal.max_raise_to) if legal.can_raise else (-1, -1)
    return automaton_action(params, state.round, v, state.spent[player], state.max_spent,
                            sum(state.spent), max(state.round_start), sum(state.round_start),
                            low, high, False)


@pytest.mark.parametrize("v, calls", [(0.9, True), (0.94, True), (0.95, False), (0.99, False)])
def test_bet_to_the_end_raised_back_reraises_only_from_w(v, calls):
    """The big blind bet 300 on the flop and was raised to 900: in "bet to the end" (flop z =
    0.856) it calls below w = 0.95 and from w raises as the profile without the key does (to
    T, or 2 x 900 once T is passed); the engine agrees chip for chip."""
    profile, without = load_profile(END_PROFILE), load_profile(KEEP_PROFILE)
    state = flop_after("r300", "r900")
    plan = plan_for_state(profile.rounds[1], v, state, 1.0)
    assert plan.mode == BET_TO_END
    plain = mode_action(plan_for_state(without.rounds[1], v, state, 1.0), state)
    assert plain.kind == "r" and plain.raise_to >= 1500  # a legal re-raise
    action = mode_action(plan, state)
    assert str(action) == ("c" if calls else str(plain))
    assert engine_action(profile, v, state) == ((CALL_CODE, 0) if calls
                                                else (RAISE_CODE, plain.raise_to))


def test_a_bet_faced_before_the_bot_raised_this_round_is_raised_as_before():
    """"Raised back" means the bot's total is above the round's starting one: a first bet faced
    after a check is raised whatever w; before the flop (a w of 0.95 given to the first round,
    z 0.211 there) the small blind that limped and faces the big blind's raise has put in no
    more than the round began with (the big blind's 100) and raises, while the one that opened
    to 300 and was raised to 900 calls at v = 0.5."""
    profile = load_profile(END_PROFILE)
    first_bet = flop_after("c", "r300")  # checked to, then bet into: not raised back
    plan = plan_for_state(profile.rounds[1], 0.9, first_bet, 1.0)
    assert plan.mode == BET_TO_END and mode_action(plan, first_bet).kind == "r"
    assert engine_action(profile, 0.9, first_bet)[0] == RAISE_CODE
    text = END_PROFILE.read_text().replace("  range_defence_cap: 0.7\n",
                                           "  range_defence_cap: 0.7\n  end_reraise: 0.95\n", 1)
    preflop = parse_profile(text)
    assert preflop.rounds[0].end_reraise == 0.95
    for actions, kind in ((("c", "r300"), RAISE_CODE), (("r300", "r900"), CALL_CODE)):
        state = BettingState.start(NL)
        for text in actions:
            state = state.apply(Action("c") if text == "c" else Action("r", int(text[1:])))
        assert state.round == 0 and state.current_player == 1  # the small blind to act
        plan = plan_for_state(preflop.rounds[0], 0.5, state, 1.0)
        assert plan.mode == BET_TO_END
        assert mode_action(plan, state).kind == "fcr"[kind]
        assert engine_action(preflop, 0.5, state)[0] == kind


def test_a_call_below_w_meets_range_defence_as_any_call():
    """Below w the raised-back hand's call goes to range defence (raised from 300 to 1,000:
    700 to call into 1,300, a = 1 folds the bottom 54% of the range): at the bottom of its own
    range it calls only because its v reaches the keep (flop keep 0); with a keep of 0.99 it
    folds, and from w its re-raise stands whatever the percentile."""
    profile = load_profile(END_PROFILE)
    state = flop_after("r300", "r1000")
    plan = plan_for_state(profile.rounds[1], 0.9, state, 1.0)
    assert str(choose_action(plan, state, 0.01)) == "c"  # v 0.9 >= keep 0
    text = END_PROFILE.read_text().replace("range_defence_keep: 0.0", "range_defence_keep: 0.99")
    high_keep = parse_profile(text).rounds[1]
    assert str(choose_action(plan_for_state(high_keep, 0.9, state, 1.0), state, 0.01)) == "f"
    assert str(choose_action(plan_for_state(high_keep, 0.9, state, 1.0), state, 0.6)) == "c"
    assert choose_action(plan_for_state(high_keep, 0.96, state, 1.0), state, 0.01).kind == "r"


def test_the_key_is_a_win_rate_of_version_5_packed_and_tunable():
    profile = load_profile(END_PROFILE)
    assert [r.end_reraise for r in profile.rounds] == [None, 0.95, 0.9, 1.0]
    assert parse_profile(profile.to_yaml()) == profile
    assert ("turn.end_reraise", 0.9, "threshold") in profile.tunable()
    moved = profile.with_tunable([0.8 if label == "river.end_reraise" else value
                                  for label, value, _ in profile.tunable()])
    assert [r.end_reraise for r in moved.rounds] == [None, 0.95, 0.9, 0.8]
    assert list(encode_strategy(moved)[1][END_RERAISE_AT:END_RERAISE_AT + 8]) \
        == [0.0, 1.0, 1.0, 1.0, 0.0, 0.95, 0.9, 0.8]
    text = END_PROFILE.read_text()
    with pytest.raises(ProfileError, match=r"x.yaml: flop.end_reraise: 1.5 must be a number "
                                           r"in \[-1, 1\]"):
        parse_profile(text.replace("end_reraise: 0.95", "end_reraise: 1.5"), "x.yaml")
    with pytest.raises(ProfileError, match=r"x.yaml: flop.end_reraise: 'high' must be a number"):
        parse_profile(text.replace("end_reraise: 0.95", "end_reraise: high"), "x.yaml")
    older = text.replace("version: 5", "version: 4")
    for key in ("range_defence", "range_defence_cap", "range_defence_keep"):
        older = "\n".join(line for line in older.splitlines() if not line.startswith(f"  {key}:"))
    with pytest.raises(ProfileError, match=r"x.yaml: flop: unknown key 'end_reraise' .*"
                                           r"\(end_reraise needs version: 5\)"):
        parse_profile(older, "x.yaml")


def test_a_decision_line_names_w_only_where_it_decides():
    """`reraises_from_v` is shown for "bet to the end" raised back, not for a first bet faced,
    a hand in another mode or a profile without the key."""
    profile = load_profile(END_PROFILE)
    raised_back, first_bet = flop_after("r300", "r900"), flop_after("c", "r300")
    plan = plan_for_state(profile.rounds[1], 0.9, raised_back, 1.0)
    fields = decision_fields(plan, raised_back, mode_action(plan, raised_back), 0.5)
    assert fields["reraises_from_v"] == 0.95 and fields["action"] == "c"
    plan = plan_for_state(profile.rounds[1], 0.9, first_bet, 1.0)
    assert "reraises_from_v" not in decision_fields(plan, first_bet,
                                                    mode_action(plan, first_bet), 0.5)
    plan = plan_for_state(profile.rounds[1], 0.5, raised_back, 1.0)  # wait and see
    assert "reraises_from_v" not in decision_fields(plan, raised_back,
                                                    mode_action(plan, raised_back), 0.5)
    without = load_profile(KEEP_PROFILE)
    plan = plan_for_state(without.rounds[1], 0.9, raised_back, 1.0)
    assert plan.mode == BET_TO_END
    assert "reraises_from_v" not in decision_fields(plan, raised_back,
                                                    mode_action(plan, raised_back), 0.5)
