"""Range defence (version 5, `bot.own_range`): the percentile rule on hand-worked ranges, the TCP
bot against LBR's model of it decision for decision, the profile key's errors and the engine's
refusal."""

from pathlib import Path

import numpy as np
import pytest

from acpc_support import NOLIMIT
from gambler.bot.automaton import _mode_action, plan_for_state
from gambler.bot.own_range import OwnRange, range_percentiles
from gambler.bot.params import ProfileError, load_profile, parse_profile, range_defence_share
from gambler.bot.strategies import ProfileStrategy
from gambler.evaluator.holdings import HOLDINGS, holding_index
from gambler.evaluator.tables import load_tables
from gambler.protocol import BettingState, load_game
from gambler.protocol.betting import Action
from gambler.protocol.matchstate import MatchState
from gambler.training.deals import cached_deal_set, cached_holding_rates
from gambler.training.engine import (CALL_CODE, FOLD_CODE, RAISE_CODE, EngineError, encode_rules,
                                     encode_strategy)
from gambler.training.lbr import deal_arrays, lbr_hand, lbr_tables, parse_action_sets

NL = load_game(NOLIMIT)
DATA = Path(__file__).resolve().parent / "data" / "profiles"
RANGE_PROFILE = str(DATA / "v5-range.yaml")
CHART_RANGE_PROFILE = str(DATA / "v5-chart-range.yaml")
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


def _replay(trace_rows, holes, board, bot, hand_number):
    """(MatchState before each of the bot's actions, the action) along an LBR hand's trace."""
    state = BettingState.start(NL)
    for round_, code, amount in trace_rows:
        action = Action("r", int(amount)) if code == RAISE_CODE else \
            Action("f") if code == FOLD_CODE else Action("c")
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
])
def test_the_tcp_bot_plays_what_lbr_models(profile, actions, deals):
    """Every action the bot took in LBR's hands (numba: its own range kept as rows beside LBR's
    view of it) is the TCP bot's action in that state (Python: `OwnRange` replaying the hand),
    mixed play and chart draws from the same seeded streams. The rule bites: some of those
    decisions went against what the four modes alone would have done."""
    seed = 9
    deal_set, _ = cached_deal_set(seed, 0, deals)
    holding_v = cached_holding_rates(seed, 0, deals)
    spec = load_profile(profile)
    kind, params = encode_strategy(spec, for_lbr=True)
    rules, tables, lookups, arrays = encode_rules(NL), load_tables(), lbr_tables(), \
        deal_arrays(deal_set)
    sets = parse_action_sets(actions)
    decided = overruled = 0
    for i in range(deals):
        holes = tuple(tuple(int(card) for card in deal_set.holes[i, p]) for p in range(2))
        board = tuple(int(card) for card in deal_set.boards[i])
        for lbr in range(2):
            trace = np.full((64, 3), -1, dtype=np.int64)
            lbr_hand(rules, lbr, kind, params, arrays, holding_v, i, 0, seed, tables, lookups,
                     sets, trace, np.empty((0, 3), dtype=np.int64))
            rows = [tuple(int(x) for x in row) for row in trace if row[0] >= 0]
            strategy = ProfileStrategy(spec, seed=seed)
            for state, taken in _replay(rows, holes, board, 1 - lbr, 2 * i + lbr):
                action, fields = strategy.act_and_explain(state)
                assert action == taken, (i, lbr, state.betting)
                if "percentile" in fields:
                    decided += 1
                    plan = plan_for_state(spec.rounds[state.betting.round],
                                          fields.get("v", 0.0), state.betting, 1.0)
                    overruled += _mode_action(plan, state.betting) != action
    assert decided > deals // 2
    assert overruled > 0


def test_the_own_range_holds_the_bots_cards_and_folds_its_share():
    """After the bot's own actions its range still holds its cards (it took them with these),
    and facing a pot-sized bet at a = 1 it folds at most the bet's share of its range (1/3 of
    the mass, plus at most half of the one tied group at the line)."""
    spec = load_profile(RANGE_PROFILE)
    own = OwnRange(spec)
    holes = ((0, 5), (12, 40))   # 2c 3d against 5c Kc
    board = (8, 21, 33, 44, 50)
    state = BettingState.start(NL)
    for action in (Action("c"), Action("c"), Action("c"), Action("r", 400)):
        state = state.apply(action)
    match = MatchState(state.current_player, 3, state,
                       tuple(holes[p] if p == state.current_player else () for p in range(2)),
                       board[:state.board_cards_visible])
    percentile = own.percentile(match)
    masses = own.masses()
    assert masses[holding_index(*holes[state.current_player])] > 0
    share = range_defence_share(1.0, 200, 600)
    folded = masses[own.percentiles < share].sum()
    assert 0 < folded <= share * masses.sum() + 1e-9 + masses.max()
    assert 0.0 <= percentile <= 1.0


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


def test_the_fast_engine_refuses_it_and_lbr_takes_it():
    spec = load_profile(RANGE_PROFILE)
    with pytest.raises(EngineError, match="defends by its own range"):
        encode_strategy(spec)
    kind, params = encode_strategy(spec, for_lbr=True)
    assert params[81] == 1.8 and params[82] == 2.0  # 1 + a per round
    plain = encode_strategy(load_profile("default"))[1]
    assert not plain[81:85].any()
