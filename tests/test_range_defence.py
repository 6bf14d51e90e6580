"""Range defence (version 5, `bot.own_range`): the percentile rule on hand-worked ranges, the TCP
bot against LBR's model of it decision for decision and against the fast engine's loop
(`training.defended`) hand for hand, and the profile key's errors."""

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from acpc_support import NOLIMIT
from gambler.bot.automaton import choose_action, mode_action, needs_percentile, plan_for_state
from gambler.bot.own_range import OwnRange, range_percentiles
from gambler.bot.params import (ProfileError, load_profile, parse_profile, range_defence_answers,
                                range_defence_share)
from gambler.bot.strategies import ProfileStrategy, resolve_strategy
from gambler.evaluator.holdings import HOLDINGS, holding_index
from gambler.evaluator.tables import load_tables
from gambler.protocol import BettingState, load_game
from gambler.protocol.betting import Action
from gambler.protocol.matchstate import MatchState
from gambler.training.deals import cached_deal_set, cached_holding_rates
from gambler.training.defended import deal_set_holding_rates
from gambler.training.engine import (CALL_CODE, EXPLOITER, FOLD_CODE, PROFILE, RAISE_CODE,
                                     EngineError, range_bet_of, range_defence_cap_of,
                                     range_defence_keep_of, range_defence_of, range_raise_of, encode_rules, encode_strategy, play_deals,
                                     play_hand, play_population, stack_vectors)
from gambler.training.lbr import deal_arrays, lbr_hand, lbr_tables, parse_action_sets
from gambler.evaluator.rng import stream_seed
from test_engine import python_hand, table_strategy

NL = load_game(NOLIMIT)
DATA = Path(__file__).resolve().parent / "data" / "profiles"
RANGE_PROFILE = str(DATA / "v5-range.yaml")
CHART_RANGE_PROFILE = str(DATA / "v5-chart-range.yaml")
RAISE_PROFILE = str(DATA / "v5-range-raise.yaml")
KEEP_PROFILE = str(DATA / "v5-range-keep.yaml")
END_PROFILE = str(DATA / "v5-end-reraise.yaml")
POSITION_PROFILE = str(DATA / "v5-range-bet-position.yaml")
CODE_KIND = {FOLD_CODE: "f", CALL_CODE: "c", RAISE_CODE: "r"}


@pytest.fixture(autouse=True)
def private_deal_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("GAMBLER_DEALS", str(tmp_path_factory.getbasetemp() / "deals"))


def test_percentiles_count_the_mass_below_and_half_of_the_ties():
    """Five holdings in range, masses 1, 2, 1, 3, 1 (total 8) at v -0.5, 0.1, 0.1, 0.4, 0.9:
    the first has nothing below (0 + 1/2) / 8; the tied pair shares (1 + 3/2) / 8; then
    (4 + 3/2) / 8 and (7 + 1/2) / 8. A holding that meets the board (NaN v, no mass) and the
    holdings ruled out (no mass) change nothing."""
    masses = np.zeros(HOLDINGS)
    values = np.full(HOLDINGS, -0.9)
    for index, mass, v in ((10, 1.0, -0.5), (20, 2.0, 0.1), (30, 1.0, 0.1), (40, 3.0, 0.4),
                           (50, 1.0, 0.9)):
        masses[index], values[index] = mass, v
    values[60] = np.nan
    out = np.full(HOLDINGS, -1.0)
    range_percentiles(masses, values, out)
    assert [out[index] for index in (10, 20, 30, 40, 50)] == [0.5 / 8, 2.5 / 8, 2.5 / 8,
                                                                5.5 / 8, 7.5 / 8]
    assert out[0] == 0.0 and out[60] == 1.0  # ranked below everything / after everything


def test_the_share_that_folds_is_the_bet_over_the_pot_after_it():
    """a to_call / pot, pot being both totals with the bet in: a bet of 100 into 200 (pot 300,
    to_call 100) folds a third at a = 1; a bet of 50 into 150 folds a quarter; never more than
    all of it."""
    assert range_defence_share(1.0, 100, 300) == 100 / 300
    assert range_defence_share(1.0, 50, 200) == 0.25
    assert range_defence_share(2.0, 300, 400) == 1.0
    assert range_defence_share(None, 100, 300) is None


def test_the_cap_bounds_the_share_folded_to_any_bet():
    """With a cap c the share is min(c, a to_call / pot): a shove of 19,900 more into 20,100
    folds 0.99 of the range at a = 1, 0.9 with a cap of 0.9; a bet below the cap keeps its
    share (100 into 300: a third); a cap of 0 folds nothing."""
    assert range_defence_share(1.0, 19_900, 20_100) == 19_900 / 20_100
    assert range_defence_share(1.0, 19_900, 20_100, 0.9) == 0.9
    assert range_defence_share(1.0, 100, 300, 0.9) == 100 / 300
    assert range_defence_share(1.0, 100, 300, 0.0) == 0.0


def test_range_defence_answers_bets_from_its_least_size():
    """`range_defence_from` r: a bet answers when to_call >= r (pot - to_call). A bet of 200 into
    200 (pot 400 with both totals, 200 owed) is one pot: answered from r = 1, not from 1.01;
    half a pot (100 into 200: pot 300, 100 owed) is not answered from r = 0.75 but is from
    0.5; without r every bet is."""
    assert range_defence_answers(1.0, 200, 400) and not range_defence_answers(1.01, 200, 400)
    assert not range_defence_answers(0.75, 100, 300) and range_defence_answers(0.5, 100, 300)
    assert range_defence_answers(None, 1, 10_000)


def lbr_hands(spec, actions: str, deals: int, seed: int = 9):
    """LBR's hands against `spec` on the first `deals` deals of `seed`, both seats: (deal,
    LBR's position, the actions as (round, code, raise-to), both holes, the board)."""
    deal_set, _ = cached_deal_set(seed, 0, deals)
    holding_v = cached_holding_rates(seed, 0, deals)
    kind, params = encode_strategy(spec)
    rules, tables, lookups, arrays = encode_rules(NL), load_tables(), lbr_tables(), \
        deal_arrays(deal_set)
    sets = parse_action_sets(actions)
    for i in range(deals):
        holes = tuple(tuple(int(card) for card in deal_set.holes[i, p]) for p in range(2))
        board = tuple(int(card) for card in deal_set.boards[i])
        for lbr in range(2):
            trace = np.full((64, 3), -1, dtype=np.int64)
            lbr_hand(rules, lbr, kind, params, arrays, holding_v, i, 0, seed, tables, lookups,
                     sets, trace, np.empty((0, 3), dtype=np.int64), np.empty(4, dtype=np.int64))
            rows = [tuple(int(x) for x in row) for row in trace if row[0] >= 0]
            yield i, lbr, rows, holes, board


def _replay(trace_rows, holes, board, bot, hand_number):
    """(MatchState before each of the bot's actions, the action) along an LBR hand's trace."""
    state = BettingState.start(NL)
    for round_, code, amount in trace_rows:
        action = Action(CODE_KIND[code], amount if code == RAISE_CODE else 0)
        if state.current_player == bot:
            shown = [(), ()]
            shown[bot] = holes[bot]
            yield MatchState(bot, hand_number, state, tuple(shown),
                             board[:state.board_cards_visible]), action
        state = state.apply(action)


@pytest.mark.parametrize("profile, actions, deals", [
    (RANGE_PROFILE, "FCPA,FCPA,FCPA,FCPA", 24),
    (RANGE_PROFILE, "C,FCMQHTPODXA,FCHA,FCDX", 12),
    (CHART_RANGE_PROFILE, "FCPA,FCHPA,FCPA,FCPA", 24),
    (RAISE_PROFILE, "FCHPA,FCPA,FCPA,FCPA", 24),
    (KEEP_PROFILE, "FCPA,FCPA,FCODXA,FCPA", 24),
    (END_PROFILE, "C,FCMQHTPODXA,FCMQHTPODXA,FCMQHTPODXA", 100),
    (POSITION_PROFILE, "FCP,C,FCHP,FCMQT", 40),
])
def test_the_tcp_bot_plays_what_lbr_models(profile, actions, deals):
    """Every action the bot took in LBR's hands (numba: its own range kept as rows beside LBR's
    view of it) is the TCP bot's action in that state (Python: `OwnRange` replaying the hand),
    mixed play and chart draws from the same seeded streams. The rule bites: some of those
    decisions went against what the four modes alone would have done, and range bets were made
    by the profile that has them."""
    spec = load_profile(profile)
    decided = overruled = bets = capped = below_from = raises = kept = called_back = 0
    positions = set()  # (round, position) of the range bets' decisions
    for i, lbr, rows, holes, board in lbr_hands(spec, actions, deals):
        strategy = ProfileStrategy(spec, seed=9)
        for state, taken in _replay(rows, holes, board, 1 - lbr, 2 * i + lbr):
            action, fields = strategy.act_and_explain(state)
            assert action == taken, (i, lbr, state.betting)
            if "v" in fields:  # not a chart's decision
                round_plan = plan_for_state(spec.rounds[state.betting.round], fields["v"],
                                            state.betting, 1.0)
                called_back += action.kind == "c" and round_plan.end_reraise is not None \
                    and mode_action(replace(round_plan, end_reraise=None),
                                    state.betting).kind == "r"
            bets += "bets_from" in fields and action.kind == "r"
            if "bets_from" in fields:  # range bets decide only where they are kept
                kept_for = spec.rounds[state.betting.round].range_bet_position
                assert kept_for in (None, state.betting.current_player)
                positions.add((state.betting.round, state.betting.current_player))
            raises += "raises_from" in fields and action.kind == "r" \
                and mode_action(plan_for_state(spec.rounds[state.betting.round], fields["v"],
                                               state.betting, 1.0), state.betting).kind != "r"
            if "folds_below" in fields:  # a call the cap made: above the cap, below a to_call / pot
                round_params = spec.rounds[state.betting.round]
                uncapped = range_defence_share(round_params.range_defence, fields["to_call"],
                                               fields["pot"])
                capped += action.kind == "c" and \
                    fields["folds_below"] <= fields["percentile"] < uncapped
                kept += action.kind == "c" and fields["percentile"] < fields["folds_below"]
            if "percentile" in fields and "folds_below" not in fields and "bets_from" not in fields:
                below_from += 1  # a bet too small for range defence: the modes answered it
            if "percentile" in fields:
                decided += 1
                plan = plan_for_state(spec.rounds[state.betting.round],
                                      fields.get("v", 0.0), state.betting, 1.0)
                overruled += mode_action(plan, state.betting) != action
    assert decided > deals // 2
    assert overruled > 0
    assert (bets > 0) == (spec.rounds[1].range_bet is not None)  # range bets, where it has them
    if any(round_params.range_bet_position is not None for round_params in spec.rounds):
        assert {(1, 1), (2, 0), (3, 1)} <= positions  # each kept position's range bets seen
    assert (raises > 0) == (spec.rounds[1].range_raise is not None)  # and range raises
    has_cap = any(round_params.range_defence_cap is not None for round_params in spec.rounds)
    assert (capped > 0) == (has_cap and "A" in actions)  # the cap called some all-ins
    has_from = any(round_params.range_defence_from is not None for round_params in spec.rounds)
    assert (below_from > 0) == has_from
    has_keep = any(round_params.range_defence_keep is not None for round_params in spec.rounds)
    assert (kept > 0) == has_keep  # calls below the fold line: the keep's strong holdings
    has_end = any(round_params.end_reraise is not None for round_params in spec.rounds)
    assert (called_back > 0) == has_end  # bet to the end, raised back, called below its w


def test_range_raises_take_the_top_and_the_best_folds_of_the_first_bet():
    """range_raise [0.2, 1] at a = 1, facing a pot bet on the flop (to 300 into 200: both
    totals 400, 200 owed, so half the range folds): raise to 300 + (400 + 200) = 900 from the
    0.8 percentile up and with the 0.2 x 1 / 2 = 0.1 just below the fold line (0.4 to 0.5),
    call from 0.5 to 0.8, fold below 0.4. Facing a raise (the round's third) no range raise: a
    raise to 3,000 over 900 folds 2,100 / 3,900 of the range and calls the rest; nor where no
    raise is legal (a shove: the value calls, the bluffs fold with the rest below 0.99)."""
    text = Path(RANGE_PROFILE).read_text().replace(
        "  range_defence_cap: 0.6\n", "  range_raise: [0.2, 1.0]\n", 1)
    params = parse_profile(text, "x.yaml").rounds[1]
    state = BettingState.start(NL)
    for action in (Action("c"), Action("c"), Action("r", 300)):
        state = state.apply(action)
    plan = plan_for_state(params, -0.9, state, 1.0)  # give up: the modes would fold
    expected = {0.0: "f", 0.39: "f", 0.4: "r900", 0.49: "r900", 0.5: "c", 0.79: "c", 0.8: "r900",
                1.0: "r900"}
    assert {p: str(choose_action(plan, state, p)) for p in expected} == expected
    reraised = state.apply(Action("r", 900)).apply(Action("r", 3000))
    plan = plan_for_state(params, -0.9, reraised, 1.0)
    assert [str(choose_action(plan, reraised, p)) for p in (0.45, 0.55, 0.9)] == ["f", "c", "c"]
    shove = state.apply(Action("r", 20_000))
    plan = plan_for_state(params, -0.9, shove, 1.0)
    assert [str(choose_action(plan, shove, p)) for p in (0.01, 0.95, 0.995)] == ["f", "f", "c"]
    with pytest.raises(ProfileError, match="x.yaml: flop.range_raise needs flop.range_defence"):
        parse_profile(text.replace("  range_defence: 1.0\n", "", 1), "x.yaml")
    with pytest.raises(ProfileError,
                       match=r"x.yaml: flop.range_raise\[1\]: 11.0 must be a number in \[0, 10\]"):
        parse_profile(text.replace("range_raise: [0.2, 1.0]", "range_raise: [0.2, 11]"), "x.yaml")


def test_range_bets_decide_only_in_the_position_they_are_kept_for():
    """`range_bet_position` (the test profile: 1 on the flop and the river, 0 on the turn):
    with nothing owed on the flop the big blind (position 0, first to act) plays its modes
    whatever its percentile, and the small blind, checked to, bets the top 0.3 of its range and
    its bottom 0.3 x 0.75 / 1.75 to 100 + 0.75 x 200 = 250; on the turn the other way round.
    The key is 0 or 1, beside range_bet, packed as 1 + the position per round."""
    from gambler.training.engine import RANGE_BET_POSITION_AT, profile_vector

    profile = load_profile(POSITION_PROFILE)
    flop = BettingState.start(NL).apply(Action("c")).apply(Action("c"))
    assert flop.round == 1 and flop.current_player == 0 and flop.spent == (100, 100)
    percentiles = (0.0, 0.1, 0.2, 0.5, 0.69, 0.7, 0.99)
    for v in (-0.9, 0.5, 0.95):  # give up, wait and see, bet to the end
        plan = plan_for_state(profile.rounds[1], v, flop, 1.0)
        assert not needs_percentile(plan, flop)
        assert {str(choose_action(plan, flop, p)) for p in percentiles} \
            == {str(mode_action(plan, flop))}
    checked = flop.apply(Action("c"))
    plan = plan_for_state(profile.rounds[1], -0.9, checked, 1.0)
    assert needs_percentile(plan, checked)
    assert [str(choose_action(plan, checked, p)) for p in percentiles] \
        == ["r250", "r250", "c", "c", "c", "r250", "r250"]
    turn = checked.apply(Action("c"))
    assert turn.round == 2 and turn.current_player == 0
    plan = plan_for_state(profile.rounds[2], -0.9, turn, 1.0)
    assert [str(choose_action(plan, turn, p)) for p in (0.05, 0.5, 0.9)] == ["r250", "c", "r250"]
    plan = plan_for_state(profile.rounds[2], 0.95, turn.apply(Action("c")), 1.0)
    assert not needs_percentile(plan, turn.apply(Action("c")))
    vector = profile_vector(profile)
    assert list(vector[RANGE_BET_POSITION_AT:RANGE_BET_POSITION_AT + 4]) == [0.0, 2.0, 1.0, 2.0]
    text = Path(POSITION_PROFILE).read_text()
    with pytest.raises(ProfileError, match=r"x.yaml: flop.range_bet_position: expected 0 \(the "
                                           r"big blind\) or 1 \(the small blind\), got 2"):
        parse_profile(text.replace("range_bet_position: 1", "range_bet_position: 2", 1), "x.yaml")
    with pytest.raises(ProfileError, match="x.yaml: flop.range_bet_position needs flop.range_bet"):
        parse_profile(text.replace("  range_bet: [0.3, 0.75]\n", "", 1), "x.yaml")


def test_the_keep_calls_every_holding_from_its_v_whatever_the_percentile():
    """range_defence_keep k = 0 on the flop, facing a shove of 19,700 more into 20,300 after
    the bot bet 300 (folds 19,700 / 20,300 of the range at a = 1 with a cap of 0.6: the cap
    binds): a holding at the 0.1 percentile folds with v = -0.01 and calls with v = 0 and
    above, as the 0.7 percentile calls at any v. Without a keep v changes nothing; a raise
    the modes make stands. The key: a win rate in [-1, 1], beside range defence, tunable as a
    threshold, packed as written per round (beside a flag)."""
    profile = load_profile(KEEP_PROFILE)
    params = profile.rounds[1]
    state = BettingState.start(NL)
    for action in (Action("c"), Action("c"), Action("r", 300), Action("r", 20_000)):
        state = state.apply(action)
    assert state.round == 1 and state.spent == (300, 20_000)  # the bot bet 300, was shoved on
    actions = {v: str(choose_action(plan_for_state(params, v, state, 1.0), state, 0.1))
               for v in (-0.5, -0.01, 0.0, 0.95)}
    assert actions == {-0.5: "f", -0.01: "f", 0.0: "c", 0.95: "c"}
    assert str(choose_action(plan_for_state(params, -0.5, state, 1.0), state, 0.7)) == "c"
    plain = load_profile(RANGE_PROFILE).rounds[1]
    assert str(choose_action(plan_for_state(plain, 0.95, state, 1.0), state, 0.1)) == "f"
    text = Path(KEEP_PROFILE).read_text()
    assert parse_profile(profile.to_yaml()) == profile
    assert ("flop.range_defence_keep", 0.0, "threshold") in profile.tunable()
    moved = profile.with_tunable([-0.25 if label == "turn.range_defence_keep" else value
                                  for label, value, _ in profile.tunable()])
    assert [r.range_defence_keep for r in moved.rounds] == [None, 0.0, -0.25, 0.2]
    vector = encode_strategy(moved)[1]
    assert [range_defence_keep_of(vector, r) for r in range(4)] == [np.inf, 0.0, -0.25, 0.2]
    with pytest.raises(ProfileError, match=r"x.yaml: flop.range_defence_keep: 1.5 must be a "
                                           r"number in \[-1, 1\]"):
        parse_profile(text.replace("range_defence_keep: 0.0", "range_defence_keep: 1.5"),
                      "x.yaml")
    alone = text.replace("  range_defence: 1.0\n  range_defence_cap: 0.6\n", "", 1)
    with pytest.raises(ProfileError, match="x.yaml: flop.range_defence_keep needs "
                                           "flop.range_defence"):
        parse_profile(alone, "x.yaml")


def test_the_own_range_folds_its_share_to_a_bet():
    """Facing a bet of 200 into 400 at a = 1 the bot folds at most a third of its own range's
    mass (plus at most the one tied group at the line), and more than nothing. (That the range
    holds the bot's cards is checked along LBR's hands, `test_lbr`.)"""
    spec = load_profile(RANGE_PROFILE)
    own = OwnRange(spec)
    board = (8, 21, 33, 44, 50)
    state = BettingState.start(NL)
    for action in (Action("c"), Action("c"), Action("c"), Action("r", 400)):
        state = state.apply(action)
    player = state.current_player
    match = MatchState(player, 3, state, tuple((0, 5) if p == player else () for p in range(2)),
                       board[:state.board_cards_visible])
    percentile = own.percentile(match)
    masses = own.masses()
    share = range_defence_share(1.0, 200, 600)
    folded = masses[own.percentiles < share].sum()
    assert masses.sum() > 0 and 0.0 <= percentile <= 1.0
    assert 0 < folded <= share * masses.sum() + masses.max()


def test_the_key_needs_version_5_a_number_and_no_narrow():
    text = Path(RANGE_PROFILE).read_text()
    assert parse_profile(text).rounds[1].range_defence == 1.0
    assert parse_profile(parse_profile(text).to_yaml()) == parse_profile(text)
    with pytest.raises(ProfileError, match="range_defence needs version: 5"):
        parse_profile(text.replace("version: 5", "version: 4"), "x.yaml")
    with pytest.raises(ProfileError, match=r"x.yaml: flop.range_defence: -1 must be a number"):
        parse_profile(text.replace("range_defence: 1.0", "range_defence: -1", 1), "x.yaml")
    narrowed = text.replace("  range_defence: 1.0\n", "  range_defence: 1.0\n  narrow: 0.5\n", 1)
    with pytest.raises(ProfileError, match="cannot be combined with flop.narrow"):
        parse_profile(narrowed, "x.yaml")


def test_the_cap_is_a_fraction_beside_range_defence_and_tunable():
    text = Path(RANGE_PROFILE).read_text()
    profile = parse_profile(text)
    assert [r.range_defence_cap for r in profile.rounds] == [0.7, 0.6, None, 0.8]
    assert parse_profile(profile.to_yaml()) == profile
    with pytest.raises(ProfileError, match=r"x.yaml: flop.range_defence_cap: 1.5 must be a "
                                           r"number in \[0, 1\]"):
        parse_profile(text.replace("range_defence_cap: 0.6", "range_defence_cap: 1.5"), "x.yaml")
    alone = text.replace("  range_defence: 1.0\n  range_defence_cap: 0.6\n",
                         "  range_defence_cap: 0.6\n")
    with pytest.raises(ProfileError, match="x.yaml: flop.range_defence_cap needs "
                                           "flop.range_defence"):
        parse_profile(alone, "x.yaml")
    with pytest.raises(ProfileError, match="range_defence needs version: 5"):
        parse_profile(text.replace("version: 5", "version: 4"), "x.yaml")
    labels = [label for label, _, _ in profile.tunable()]
    assert "flop.range_defence_cap" in labels and "turn.range_defence_cap" not in labels
    chart = load_profile(CHART_RANGE_PROFILE)
    assert [r.range_defence_from for r in chart.rounds] == [None, 0.75, 1.5, None]
    assert parse_profile(chart.to_yaml(DATA), folder=DATA) == chart
    assert ("turn.range_defence_from", 1.5, "size") in chart.tunable()
    with pytest.raises(ProfileError, match=r"x.yaml: flop.range_defence_from: -0.5 must be a "
                                           r"number in \[0, 10\]"):
        parse_profile(text.replace("range_defence_cap: 0.6", "range_defence_from: -0.5"),
                      "x.yaml")
    moved = profile.with_tunable([0.5 if label == "flop.range_defence_cap" else value
                                  for label, value, _ in profile.tunable()])
    assert moved.rounds[1].range_defence_cap == 0.5 and moved.rounds[0].range_defence_cap == 0.7


def test_the_profile_packs_a_and_its_cap_per_round_as_written_beside_flags():
    params = encode_strategy(load_profile(RANGE_PROFILE))[1]
    assert list(params[81:85]) == [0.8, 1.0, 1.0, 1.0] and list(params[125:129]) == [1.0] * 4
    assert list(params[93:97]) == [0.7, 0.6, 0.0, 0.8]
    assert list(params[133:137]) == [1.0, 1.0, 0.0, 1.0]  # no cap on the turn
    v2 = encode_strategy(load_profile("default-v2"))[1]
    assert not v2[81:101].any() and not v2[125:145].any()
    chart = encode_strategy(load_profile(CHART_RANGE_PROFILE))[1]
    assert chart[97] == 0.0 and chart[98] == 0.75 and chart[99] == 1.5 and chart[100] == 0.0


def test_the_engine_reads_every_range_number_as_written():
    """The engine compares each range number exactly as the TCP bot does: numbers that an offset
    would move by an ulp (2.85 - 2 > 0.85, 1.3 - 1 > 0.3) come back bit for bit, and a round
    without one reads as none."""
    from dataclasses import replace

    profile = load_profile(KEEP_PROFILE)
    turn = replace(profile.rounds[2], range_defence=0.3, range_defence_cap=0.85,
                   range_defence_keep=0.85, range_bet=(0.15, 0.7), range_raise=(0.1, 1.3))
    river = replace(profile.rounds[3], range_defence=None, range_defence_cap=None,
                    range_defence_keep=None, range_bet=None, range_raise=None)
    vector = encode_strategy(replace(profile, rounds=(*profile.rounds[:2], turn, river)))[1]
    assert (1.0 + 0.3) - 1.0 != 0.3 and (2.0 + 0.85) - 2.0 != 0.85  # what an offset would do
    assert range_defence_of(PROFILE, vector, 2) == 0.3
    assert range_defence_cap_of(vector, 2) == 0.85
    assert range_defence_keep_of(vector, 2) == 0.85
    assert range_bet_of(PROFILE, vector, 2) == (0.15, 0.7)
    assert range_raise_of(PROFILE, vector, 2) == (0.1, 1.3)
    assert (range_defence_of(PROFILE, vector, 3), range_defence_cap_of(vector, 3),
            range_defence_keep_of(vector, 3), range_bet_of(PROFILE, vector, 3),
            range_raise_of(PROFILE, vector, 3)) == (-1.0, 1.0, np.inf, (-1.0, 0.0), (-1.0, 0.0))


@pytest.fixture(scope="module")
def held_deals(tmp_path_factory):
    """The deals, cached in pytest's folder; the environment is restored after the module (a
    leaked GAMBLER_DEALS would point later tests' caches here: `test_caches`)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GAMBLER_DEALS", str(tmp_path_factory.getbasetemp() / "deals"))
        deal_set, _ = cached_deal_set(13, 0, 60)
        yield deal_set, deal_set_holding_rates(13, 0, 60)


@pytest.mark.parametrize("pair", [(RANGE_PROFILE, "default-v2"), ("prober", RANGE_PROFILE),
                                  (RANGE_PROFILE, CHART_RANGE_PROFILE), ("raise", RANGE_PROFILE),
                                  (CHART_RANGE_PROFILE, "shover"), ("sizer", CHART_RANGE_PROFILE),
                                  (RAISE_PROFILE, "prober"), (RANGE_PROFILE, RAISE_PROFILE),
                                  ("shover", KEEP_PROFILE), (KEEP_PROFILE, "sizer"),
                                  ("raise", END_PROFILE), (END_PROFILE, "sizer"),
                                  (POSITION_PROFILE, "prober"), ("sizer", POSITION_PROFILE)])
def test_engine_hands_equal_tcp_hands_with_range_defence(held_deals, pair):
    """The engine's loop for range defence (`training.defended`: the own range in rows)
    against the TCP bot (`bot.own_range`), action for action and chip for chip."""
    deals, holding_v = held_deals
    rules = encode_rules(NL)
    encoded = [encode_strategy(resolve_strategy(name)) for name in pair]
    kinds = np.array([kind for kind, _ in encoded])
    params = stack_vectors([vector for _, vector in encoded])
    decided = 0
    for i in range(len(deals)):
        deal = deals.slice(i, i + 1)
        v_of_hole = {tuple(int(c) for c in deal.holes[0, p]): deal.v[0, p] for p in range(2)}
        strategies = [table_strategy(name, v_of_hole) for name in pair]
        state, payoffs = python_hand(NL, strategies, None, SimpleNamespace(
            holes=deal.holes[0], boards=deal.boards[0]), i)
        trace = np.full((64, 3), -1, dtype=np.int64)
        ours, _ = play_hand(rules, kinds, params, deal.v[0], deal.outcomes[0],
                            np.uint64(stream_seed(0, i)), trace, 0, i, holes=deal.holes[0],
                            board=deal.boards[0], holding_v=holding_v[i])
        replay = BettingState.start(NL)
        for _, code, amount in (row for row in trace if row[0] >= 0):
            replay = replay.apply(Action("fcr"[code], int(amount) if code == 2 else 0))
        assert replay.betting_string() == state.betting_string(), i
        assert ours == payoffs[0], i
        decided += sum(strategy._own_range is not None for strategy in strategies
                       if isinstance(strategy, ProfileStrategy))
    assert decided >= 5  # hands in which range defence decided something


def test_whole_deal_sets_play_as_hand_by_hand_and_population_as_pairs(held_deals):
    """`play_deals` (all cores, blocks of deals) gives each hand's `play_hand` chips, and
    `play_population` each member's `play_deals`; without the holdings' v: a clear error."""
    deals, holding_v = held_deals
    rules = encode_rules(NL)
    kind_a, params_a = encode_strategy(load_profile(RANGE_PROFILE))
    for spec in ("prober", CHART_RANGE_PROFILE):
        kind_b, params_b = encode_strategy(resolve_strategy(spec))
        results = np.zeros((len(deals), 2), dtype=np.int64)
        adjusted = np.zeros((len(deals), 2))
        play_deals(rules, kind_a, params_a, kind_b, params_b, deals.v, deals.outcomes,
                   deals.allin_equity, 5, 0, results, adjusted, deals.holes, deals.boards,
                   holding_v=holding_v)
        params = stack_vectors([params_a, params_b])
        for i in range(len(deals)):
            for order in range(2):
                kinds = np.array([kind_a, kind_b])[[order, 1 - order]]
                chips, _ = play_hand(rules, kinds, params[[order, 1 - order]], deals.v[i],
                                     deals.outcomes[i], np.uint64(stream_seed(5, 2 * i + order)),
                                     np.empty((0, 3), dtype=np.int64), 5, 2 * i + order,
                                     holes=deals.holes[i], board=deals.boards[i],
                                     holding_v=holding_v[i])
                assert results[i, order] == (chips if order == 0 else -chips)
    population = np.stack([encode_strategy("prober")[1], encode_strategy("sizer")[1]])
    raw = np.zeros((2, len(deals), 2), dtype=np.int64)
    play_population(rules, EXPLOITER, population, kind_a, params_a, deals.v, deals.outcomes,
                    deals.allin_equity, 5, 0, raw, np.zeros((2, len(deals), 2)), deals.holes,
                    deals.boards, holding_v=holding_v)
    for member, name in enumerate(("prober", "sizer")):
        single = np.zeros((len(deals), 2), dtype=np.int64)
        play_deals(rules, EXPLOITER, population[member], kind_a, params_a, deals.v,
                   deals.outcomes, deals.allin_equity, 5, 0, single, np.zeros((len(deals), 2)),
                   deals.holes, deals.boards, holding_v=holding_v)
        assert (raw[member] == single).all(), name
    with pytest.raises(EngineError, match="needs the deals' cards and every holding's v"):
        play_deals(rules, kind_a, params_a, kind_b, params_b, deals.v, deals.outcomes,
                   deals.allin_equity, 5, 0, results, adjusted, deals.holes, deals.boards)


def test_a_range_no_holding_explains_leaves_the_modes_action():
    """A raise to 250 is none of the chart's sizes as the small blind opens (200, 300, ...), so
    no holding explains it and the own range has no mass: no percentile (NaN), and the four
    modes' action stands (the bot's real actions always come from some holding: its own)."""
    spec = load_profile(CHART_RANGE_PROFILE)
    state = BettingState.start(NL)
    for action in (Action("r", 250), Action("c"), Action("r", 400)):
        state = state.apply(action)
    match = MatchState(1, 12, state, ((), (0, 20)), (41, 22, 2))  # 2c 7c on Qd 7h 2h: two pair
    assert np.isnan(OwnRange(spec).percentile(match))
    action, fields = ProfileStrategy(spec).act_and_explain(match)
    plan = plan_for_state(spec.rounds[1], fields["v"], state, 1.0)
    assert np.isnan(fields["percentile"]) and action == mode_action(plan, state)
    assert action.kind == "c"  # the modes call: a NaN compared with the line would fold


@pytest.mark.parametrize("profile, actions, deals", [
    (RANGE_PROFILE, "FCHPA,FCPA,FCPA,FCPA", 10), (CHART_RANGE_PROFILE, "FCPA,FCMQHA,FCPA,FCA", 10),
    (RAISE_PROFILE, "FCHPA,FCPA,FCPA,FCPA", 10), (POSITION_PROFILE, "FCPA,C,FCHPA,FCMQT", 10),
])
def test_the_own_range_is_the_reference_range_holding_by_holding(profile, actions, deals):
    """At each of the bot's decisions in LBR's hands, `OwnRange`'s mass of every holding equals
    the plain-Python reference's (`lbr_reference.Range` over every holding, replayed with the
    reference's own percentiles), to the last bit: the chart's weights, both plans of mixed
    play, the board's removals and range defence's own decisions all count."""
    from lbr_reference import Range, ReferenceBot, defends_by_range, own_percentiles
    import itertools

    spec = load_profile(profile)
    holding_v = cached_holding_rates(9, 0, deals)
    preflop_v = lbr_tables().preflop_v
    every = list(itertools.combinations(range(52), 2))
    compared = mixed_apart = 0
    for i, lbr, rows, holes, board in lbr_hands(spec, actions, deals):
        bot = 1 - lbr
        reference_bot = ReferenceBot(spec, preflop_v, holding_v[i], board)
        reference = Range(reference_bot, every)
        reference.start_round(0, ())
        own = OwnRange(spec)
        state = BettingState.start(NL)
        dealt = 0
        for round_, code, amount in rows:
            if state.round != dealt:
                reference.close_round()
                reference.start_round(state.round, board[:state.board_cards_visible])
                dealt = state.round
            action = Action(CODE_KIND[code], amount if code == RAISE_CODE else 0)
            if state.current_player == bot:
                shown = tuple(holes[p] if p == bot else () for p in range(2))
                own.percentile(MatchState(bot, 2 * i + lbr, state, shown,
                                          board[:state.board_cards_visible]))
                masses = own.masses()
                expected = np.zeros(HOLDINGS)
                for holding in reference.entries:
                    expected[holding_index(*holding)] = reference.mass(holding)
                assert (masses == expected).all(), (i, lbr, state.betting_string())
                compared += 1
                mixed_apart += int((own.rows[2] != own.rows[3]).any())
                percentiles = own_percentiles(reference, state.round) \
                    if defends_by_range(reference_bot, state) else None
                reference.narrow(state, action, percentiles)
            state = state.apply(action)
    assert compared > deals and mixed_apart > 0
