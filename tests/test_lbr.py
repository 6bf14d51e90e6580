"""Local best response: known values, a plain-Python oracle hand by hand, and the command."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from acpc_support import NOLIMIT
from gambler.bot.params import Profile, load_profile
from gambler.bot.strategies import resolve_strategy
from gambler.evaluator.holdings import HOLDING_CARDS
from gambler.evaluator.matchups import matchup
from gambler.evaluator.tables import load_tables
from lbr_reference import ReferenceBot, raise_target, reference_lbr_hand
from gambler.protocol import load_game
from gambler.protocol.betting import CALL_ACTION, BettingState, raise_to
from gambler.training.deals import cached_deal_set, cached_holding_rates
from gambler.training.engine import CALL_CODE, FOLD_CODE, RAISE_CODE, encode_rules, encode_strategy
from gambler.training.lbr import (ACTION_LETTERS, RAISE_SIZES, ActionSetError, deal_arrays,
                                  format_action_sets, lbr_hand, lbr_tables, parse_action_sets,
                                  raise_size_target, run_lbr)

GAME = load_game(NOLIMIT)
# The default with `chart: preflop` (version 4).
CHART_PROFILE = str(Path(__file__).resolve().parent / "data" / "profiles" / "v4-chart.yaml")
RANGE_PROFILE = str(Path(__file__).resolve().parent / "data" / "profiles" / "v5-range.yaml")
CHART_RANGE_PROFILE = str(Path(__file__).resolve().parent / "data" / "profiles"
                          / "v5-chart-range.yaml")
CODE_KIND = {FOLD_CODE: "f", CALL_CODE: "c", RAISE_CODE: "r"}


@pytest.fixture(autouse=True)
def private_deal_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("GAMBLER_DEALS", str(tmp_path_factory.getbasetemp() / "deals"))


def give_up_profile() -> Profile:
    vector = np.array(load_profile("seed").as_vector())
    for round_ in range(4):
        vector[11 * round_:11 * round_ + 3] = 2.0  # v < x always: fold to a bet, else check
    return Profile.from_vector(vector)


def test_lbr_wins_exactly_750_against_a_profile_that_always_gives_up():
    """In the big blind LBR wins the small blind's 50 (it folds preflop); in the small blind it
    limps, both check to the turn, and LBR's bet takes the big blind's 100: 75 chips a hand."""
    result = run_lbr(give_up_profile(), GAME, 600, seed=3)
    assert result.score.mbb_per_hand == 750.0 and result.score.ci95_mbb == 0.0
    assert (result.chips[:, 0] == 50).all() and (result.chips[:, 1] == 100).all()
    assert result.adjusted_score.mbb_per_hand == 750.0


def test_lbr_against_calling_station_hand_by_hand():
    """Against `call` (never folds) a raise is worth wp (pot + b) - (1 - wp) b, which beats a
    check exactly when wp > 1/2, and grows with b: LBR moves all in on the turn with more than
    half the equity against a random hand, else checks, and does the same on the river; the
    chips follow from the cards (LBR in the small blind limps, the station checks behind)."""
    deals, _ = cached_deal_set(5, 0, 120)
    result = run_lbr("call", GAME, 240, seed=5)
    for i in range(len(deals)):
        for lbr in range(2):
            hole, other = deals.holes[i, lbr], deals.holes[i, 1 - lbr]
            board = deals.boards[i]
            turn = np.mean([matchup(hole, h, board[:4]).equity for h in _others(hole, board[:4])])
            river = np.mean([matchup(hole, h, board).equity for h in _others(hole, board)])
            stake = 20000 if turn > 0.5 or river > 0.5 else 100
            mine = matchup(hole, other, board)
            expected = stake * (1 if mine.win else -1 if mine.loss else 0)
            assert result.chips[i, lbr] == expected, (i, lbr)


def _others(hole, board):
    taken = set(hole.tolist()) | set(board.tolist())
    return [h for h in map(tuple, HOLDING_CARDS.tolist()) if not taken & set(h)]


@pytest.mark.parametrize("strategy, actions, deals", [
    ("seed", "C,C,FCPA,FCPA", 40), ("default-v2", "C,C,FCPA,FCPA", 40),
    ("handmade", "C,FCHPA,FCHPA,FCHPA", 15), ("seed", "FCPA,C,FCHPA,FCA", 15),
    ("allin", "FCPA,C,FCPA,FCPA", 25), ("raise", "FCP,FCP,FCPA,FCPA", 20),
    ("shover", "C,C,FCPA,FCPA", 30), ("prober", "C,FCHPA,FCPA,FCPA", 15),
    ("tests/data/profiles/v2-test.yaml", "C,C,FCPA,FCPA", 24),
    ("tests/data/profiles/v2-mixed.yaml", "C,C,FCPA,FCPA", 24),
    ("tests/data/profiles/v2-mixed.yaml", "C,FCHPA,FCPA,FCPA", 15),
    ("tests/data/profiles/v2-narrow.yaml", "C,C,FCPA,FCPA", 20),
    ("tests/data/profiles/v2-narrow.yaml", "FCPA,FCHPA,FCPA,FCPA", 8),
    # Every size: preflop raises (minimum and small), every size on the flop, overbets after;
    # and against mixed, range-aware play, each new size in some round, preflop included.
    ("seed", "FCMQT,FCMQHTPODXA,FCQO,FCDXA", 8),
    ("tests/data/profiles/v2-narrow.yaml", "FCMO,FCQT,FCHD,FCXA", 8),
    ("tests/data/profiles/v3-defend.yaml", "FCMQ,FCMQHPA,FCQHDX,FCMPXA", 12),
    # A preflop chart (version 4): the chart's draws weigh the range by class while the round
    # stays in its tree, its answer to LBR's preflop raises folds by class, the automaton after.
    (CHART_PROFILE, "FCPA,FCPA,FCPA,FCPA", 20), (CHART_PROFILE, "FCMA,C,C,C", 20),
    (CHART_PROFILE, "FCMQHTPODXA,C,FCPA,C", 16),
    # Range defence (version 5): the bot answers bets by its holding's percentile in its own
    # range, which both keep beside LBR's view of it; in every round, and behind a chart.
    (RANGE_PROFILE, "FCPA,FCPA,FCPA,FCPA", 14), (RANGE_PROFILE, "C,FCMQHTPODXA,FCHA,FCDX", 8),
    (CHART_RANGE_PROFILE, "FCPA,FCPA,FCPA,FCPA", 16), (CHART_RANGE_PROFILE, "C,FCQHPA,C,FCXA", 10),
    # ... and range raises: the first bet of a round raised by the range's top and best folds.
    (str(Path(__file__).resolve().parent / "data" / "profiles" / "v5-range-raise.yaml"),
     "FCHPA,FCPA,FCPA,FCPA", 10),
    # ... and range bets kept for one position: the other position's modes decide.
    (str(Path(__file__).resolve().parent / "data" / "profiles" / "v5-range-bet-position.yaml"),
     "FCPA,C,FCHPA,FCMQT", 10),
])
def test_fast_lbr_agrees_with_the_plain_python_reference(strategy, actions, deals):
    """Action for action and chip for chip, and the bot's range at each of LBR's decisions (its
    size and the sum of its holdings' indices): the reference rebuilds it by replaying
    `bot.automaton` with each holding at every bot action, and checks it holds the bot's cards."""
    seed = 9
    deal_set, _ = cached_deal_set(seed, 0, deals)
    holding_v = cached_holding_rates(seed, 0, deals)
    spec = resolve_strategy(strategy)
    kind, params = encode_strategy(spec)
    rules, tables, lookups, arrays = encode_rules(GAME), load_tables(), lbr_tables(), \
        deal_arrays(deal_set)
    preflop_v = lookups.preflop_v
    sets = parse_action_sets(actions)
    decisions = narrowed = range_aware_plans = weighed = 0
    for i in range(deals):
        bot = ReferenceBot(spec, preflop_v, holding_v[i],
                           tuple(int(card) for card in deal_set.boards[i]))
        for lbr in range(2):
            bot_hole = tuple(int(card) for card in deal_set.holes[i, 1 - lbr])
            for round_ in range(4):  # the tables' v is the deal set's v, bit for bit
                assert bot.v(sorted(bot_hole), round_) == deal_set.v[i, 1 - lbr, round_]
            trace = np.full((64, 3), -1, dtype=np.int64)
            ranges = np.full((64, 3), -1, dtype=np.int64)
            # deal i of the set (which starts at deal 0): hand 2 i + lbr of the seed
            payoff, _, _ = lbr_hand(rules, lbr, kind, params, arrays, holding_v, i, 0, seed,
                                    tables, lookups, sets, trace, ranges, np.empty(4, np.int64))
            fast = [(int(r), CODE_KIND[int(code)], int(amount)) for r, code, amount in trace
                    if r >= 0]
            actions_ref, chips, sizes = reference_lbr_hand(GAME, lbr, bot, deal_set.holes[i],
                                                           deal_set.boards[i], actions.split(","),
                                                           seed, 2 * i + lbr)
            assert fast == actions_ref, (i, lbr)
            assert (payoff if lbr == 0 else -payoff) == chips, (i, lbr)
            assert [tuple(row) for row in ranges[:len(sizes)].tolist()] == sizes, (i, lbr)
            decisions += len(sizes)
            narrowed += sum(size < 1000 for size, _, _ in sizes)
            weighed += sum(weight != 10**6 * size for size, _, weight in sizes)
        range_aware_plans += len(bot._ranged)
    assert decisions > deals // 2  # LBR had real choices to make
    if isinstance(spec, Profile):
        assert narrowed > decisions // 4  # and the bot's actions had narrowed its range
        # A range-aware bot planned with v against LBR's narrowed range (holdings x situations).
        assert (range_aware_plans > 1000) == spec.range_aware
        if spec.preflop_chart is not None:  # the chart's shares weighed holdings below 1
            assert weighed > decisions // 4


def test_breakdown_accounts_for_every_hand_and_chip():
    """Against the profile that gives up: in the big blind LBR never bets (it wins the small
    blind preflop); in the small blind it bets the turn and the bot folds, every time."""
    result = run_lbr(give_up_profile(), GAME, 400, seed=3)
    rows = {row["line"]: row for row in result.breakdown()}
    assert set(rows) == {"LBR never bets or raises", "turn: LBR bets (not all in), the bot folds"}
    assert rows["LBR never bets or raises"]["hands"] == 0.5
    assert rows["LBR never bets or raises"]["mbb_per_hand"] == 500.0
    assert rows["turn: LBR bets (not all in), the bot folds"]["mbb_per_hand"] == 1000.0
    assert sum(row["share"] for row in rows.values()) == pytest.approx(1.0)
    seed = run_lbr(load_profile("seed"), GAME, 1000, seed=3).breakdown()
    assert sum(row["hands"] for row in seed) == pytest.approx(1.0)
    assert sum(row["share"] for row in seed) == pytest.approx(1.0)
    assert len(seed) > 6


def test_action_sets_are_checked():
    assert parse_action_sets("C,C,FCPA,FCPA").tolist() == [2, 2, 27, 27]  # the bits of old
    assert parse_action_sets("C,FCHPA,C,C").tolist() == [2, 31, 2, 2]
    assert parse_action_sets("CM,CQ,CT,CO").tolist() == [34, 66, 130, 258]
    assert parse_action_sets("CD,CX,FCMQHTPODXA,C").tolist() == [514, 1026, 2047, 2]
    for bad, message in (("C,C,FCPA", "expected 4 comma-separated sets"),
                         ("C,C,FPA,FCPA", "needs C"), ("C,C,FCCA,FCPA", "'C' twice"),
                         ("C,C,FCPZ,FCPA", "unknown action 'Z'"), ("C,C,FCXX,FCPA", "'X' twice")):
        with pytest.raises(ActionSetError, match=message):
            parse_action_sets(bad)
    with pytest.raises(ActionSetError) as error:
        parse_action_sets("C,B,C,C")
    assert str(error.value).endswith("(letters: F fold, C check/call, M minimum raise, Q quarter "
                                     "pot, H half pot, T three-quarter pot, P pot, O 1.5 pots, "
                                     "D 2 pots, X 3 pots, A all in)")


# Two spots worked by hand (stacks 20,000, blinds 50/100; ACPC totals: chips in this hand).
# Preflop, the small blind raised to 300: the big blind (100 in) faces bet 300, pot 400, to_call
# 200, so a share s of the pot raises to 300 + s 600; legal raise-to 500 (300 + the raise of
# 200) to 20,000. The quarter pot (450) is below the minimum and becomes it.
FACING_A_RAISE = {"M": 500, "Q": 500, "H": 600, "T": 750, "P": 900, "O": 1200, "D": 1500,
                  "X": 2100, "A": 20000}
# The flop after 6,000 each: bet 6,000, pot 12,000, nothing to call: 6,000 + s 12,000; legal
# 6,100 (a big blind more) to 20,000. From 1.5 pots up the targets pass the stack: all in.
CHECKED_TO = {"M": 6100, "Q": 9000, "H": 12000, "T": 15000, "P": 18000, "O": 20000, "D": 20000,
              "X": 20000, "A": 20000}


def test_each_raise_size_targets_its_share_of_the_pot_in_the_legal_range():
    letter_of = {bit: letter for letter, bit in ACTION_LETTERS.items()}
    assert "".join(letter_of[bit] for bit, _, _ in RAISE_SIZES) == "MQHTPODXA"  # by size
    assert "".join(ACTION_LETTERS) == "FCMQHTPODXA"  # the order format_action_sets writes
    for (bet, pot, to_call, low, high), expected in (((300, 400, 200, 500, 20000), FACING_A_RAISE),
                                                     ((6000, 12000, 0, 6100, 20000), CHECKED_TO)):
        fast = {letter_of[bit]: raise_size_target(bit, numerator, denominator, bet, pot,
                                                  to_call, low, high)
                for bit, numerator, denominator in RAISE_SIZES}
        assert fast == expected
    # The reference LBR's own arithmetic (Fractions on a BettingState) on the same spots.
    facing = BettingState.start(GAME).apply(raise_to(300))
    flop = facing.apply(raise_to(6000)).apply(CALL_ACTION)
    assert (facing.current_player, flop.round, flop.spent) == (0, 1, (6000, 6000))
    for state, expected in ((facing, FACING_A_RAISE), (flop, CHECKED_TO)):
        assert {letter: raise_target(letter, state) for letter in expected} == expected


def lbr_cli(*args):
    return subprocess.run([sys.executable, "-m", "gambler.training.lbr_cli", *args],
                          capture_output=True, text=True, env=os.environ.copy(), timeout=600)


def test_lbr_command_json_and_errors(tmp_path):
    path = tmp_path / "giveup.yaml"
    path.write_text(give_up_profile().to_yaml())
    result = lbr_cli(str(path), "--hands", "300", "--seed", "3", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {"profile", "actions", "hands", "mbb_per_hand", "ci95_mbb", "seconds"} <= set(report)
    assert (report["hands"], report["mbb_per_hand"], report["actions"]) == (
        300, 750.0, "C,C,FCPA,FCPA")
    assert [seat["mbb_per_hand"] for seat in report["by_position"]] == [500.0, 1000.0]
    bad = lbr_cli("seed", "--actions", "C,C,FPA,FCPA")
    assert bad.returncode == 1 and bad.stderr.startswith("gambler-lbr: error: action sets")
    assert len(bad.stderr.strip().splitlines()) == 1


def test_action_sets_read_either_case_and_parsed_sets_pass_through():
    bits = parse_action_sets("c,Fchpa,c,cA")
    assert bits.tolist() == parse_action_sets("C,FCHPA,C,AC").tolist() == [2, 31, 2, 18]
    assert format_action_sets(bits) == "C,FCHPA,C,CA"  # upper case, letters in FCHPA order
    assert parse_action_sets(bits) is bits  # parsed once, handed on without a second parse
    for bad in (bits[:3], np.array([2, 2, 27, 1]), np.array([2, 2, 27, 2048]),
                bits.astype(np.float64)):
        with pytest.raises(ActionSetError, match="not 4 parsed sets"):
            parse_action_sets(bad)
    with pytest.raises(ActionSetError, match="unknown action 'Z'"):
        parse_action_sets("c,c,fcpz,fcpa")
    sizes = parse_action_sets("axdopthqmcf,Cm,xC,c")
    assert format_action_sets(sizes) == "FCMQHTPODXA,CM,CX,C"  # F, C, then the raises by size
    assert parse_action_sets(format_action_sets(sizes)).tolist() == sizes.tolist()


def test_lbr_help_names_every_baseline_exploiter_and_shipped_profile():
    from gambler.bot.exploiters import exploiter_names_text
    from gambler.bot.params import shipped_profile_names
    from gambler.bot.strategies import BASELINES

    for module in ("gambler.training.lbr_cli", "gambler.training.match_cli"):
        result = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        text = " ".join(result.stdout.split())  # click wraps the lines
        assert "{strategies}" not in text
        assert f"an exploiter ({exploiter_names_text()})" in text
        assert f"a baseline ({', '.join(BASELINES)})" in text
        assert f"a shipped profile ({', '.join(shipped_profile_names())})" in text


def test_lbr_command_rounds_odd_hands_echoes_upper_case_and_counts_breakdown_rows(tmp_path):
    path = tmp_path / "giveup.yaml"
    path.write_text(give_up_profile().to_yaml())
    result = lbr_cli(str(path), "--hands", "3", "--seed", "3", "--actions", "c,c,fcpa,fcpa",
                     "--breakdown")
    assert result.returncode == 0, result.stderr
    # The same note, word for word, as gambler-match's (and, on a machine slow enough to take a
    # minute over compiling, one progress line, `LBR: 100% (2 of 2), 1 min 5 s`).
    notes = [line for line in result.stderr.splitlines() if not line.startswith("LBR: 100% (")]
    assert notes == ["gambler-lbr: note: --hands 3 rounded up to 4 (whole duplicate deals: each "
                     "deal is played twice, the seats swapped)"]
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"LBR vs {path}: +750.0 mbb/hand ± 0.0 (95% CI) over 4 hands "
                               "(2 duplicate deals, seed 3), actions C,C,FCPA,FCPA, ")
    assert lines[1] == ("  all-in adjusted: +750.0 ± 0.0; LBR in position 0 (big blind): "
                        "+500.0 ± 0.0, in position 1: +1,000.0 ± 0.0")
    assert lines[3].split() == ["hands", "share", "LBR", "mbb/hand", "of", "its", "winnings",
                                "LBR's", "first", "bet", "or", "raise"]
    # 2 of the 4 hands each: LBR bets the turn in the small blind (the bot folds: +100 chips),
    # and never bets in the big blind (the bot folds preflop: +50).
    assert [line.split()[:4] for line in lines[4:]] == [["2", "50.0%", "+1,000", "66.7%"],
                                                       ["2", "50.0%", "+500", "33.3%"]]
    as_json = lbr_cli(str(path), "--hands", "3", "--seed", "3", "--actions", "c,c,fcpa,fcpa",
                      "--breakdown", "--json")
    report = json.loads(as_json.stdout)
    assert (report["hands"], report["actions"]) == (4, "C,C,FCPA,FCPA")
    assert sorted(row["hand_count"] for row in report["breakdown"]) == [2, 2]


def test_lbr_command_parses_its_action_sets_once(monkeypatch):
    from click.testing import CliRunner

    import gambler.training.lbr as lbr
    from gambler.training.lbr_cli import command

    texts = []
    parse = lbr.parse_action_sets

    def counting(sets, rounds=4):
        if isinstance(sets, str):
            texts.append(sets)
        return parse(sets, rounds)

    monkeypatch.setattr(lbr, "parse_action_sets", counting)
    result = CliRunner().invoke(command, ["call", "--hands", "2", "--actions", "c,c,fcpa,fcpa",
                                          "--json"])
    assert result.exit_code == 0, result.output
    assert texts == ["c,c,fcpa,fcpa"]
    assert json.loads(result.output)["actions"] == "C,C,FCPA,FCPA"


@pytest.mark.parametrize("module", ["gambler.training.lbr_cli", "gambler.training.match_cli"])
def test_seeds_have_one_range_and_wording(module):
    args = ["seed"] if module.endswith("lbr_cli") else ["seed", "call"]
    result = subprocess.run([sys.executable, "-m", module, *args, "--seed", "4294967296"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "'4294967296' is not a seed: seeds are whole numbers from 0 to 4,294,967,295" \
        in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# --- the standard suite (`gambler-lbr --suite`, `run_lbr_suite`) ----------------------------------

def _invoke_lbr(*args):
    from click.testing import CliRunner

    from gambler.training.lbr_cli import command

    result = CliRunner().invoke(command, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_suite_rows_are_the_single_runs_on_deals_loaded_once_and_worst_is_their_max(monkeypatch):
    import gambler.training.lbr as lbr
    from gambler.training.lbr import STANDARD_SUITE

    loads = []

    class CountedDeals(lbr.LbrDeals):
        def __init__(self, *args, **kwargs):
            loads.append(args)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(lbr, "LbrDeals", CountedDeals)
    report = json.loads(_invoke_lbr("seed", "--suite", "--hands", "100", "--seed", "5", "--json"))
    assert loads == [(5, 100)]  # one load of the deals for every setting
    assert (report["profile"], report["hands"], report["seed"]) == ("seed", 100, 5)
    rows = report["rows"]
    assert [row["actions"] for row in rows] == [
        format_action_sets(parse_action_sets(setting.actions)) for setting in STANDARD_SUITE]
    for row in rows:
        single = json.loads(_invoke_lbr("seed", "--actions", row["actions"], "--hands", "100",
                                        "--seed", "5", "--json"))
        assert set(single) == set(row)
        assert {**row, "seconds": 0} == {**single, "seconds": 0}, row["actions"]
    assert len({row["mbb_per_hand"] for row in rows}) > len(rows) // 2  # the settings matter
    most = max(row["mbb_per_hand"] for row in rows)
    assert report["worst"] == next(row for row in rows if row["mbb_per_hand"] == most)
    assert report["seconds"] >= sum(row["seconds"] for row in rows)


def test_suite_text_marks_the_worst_row_and_names_it_last():
    lines = _invoke_lbr("call", "--suite", "--hands", "20", "--seed", "5").splitlines()
    assert lines[0].startswith("LBR suite vs call: 20 hands (10 duplicate deals, seed 5) at each "
                               "of 9 settings")
    rows = lines[2:-1]
    winnings = [float(row.split()[1].replace(",", "")) for row in rows]
    marked = [index for index, row in enumerate(rows) if row.endswith("<- worst")]
    assert marked == [winnings.index(max(winnings))]
    assert lines[-1].startswith(f"worst case: {rows[marked[0]].split()[0]}, LBR wins ")


def test_run_lbr_suite_equals_run_lbr_per_setting_and_counts_progress_over_all():
    from gambler.training.lbr import run_lbr_suite, worst_setting

    told = []
    results = run_lbr_suite("call", GAME, 20, 5, suite=("c,c,fcpa,fcpa", "FCMA,C,C,CX"),
                            progress=told.append)
    assert [actions for actions, _ in results] == ["C,C,FCPA,FCPA", "FCMA,C,C,CX"]
    assert sum(told) == 2 * 10
    for actions, result in results:
        alone = run_lbr("call", GAME, 20, 5, actions)
        assert (result.chips == alone.chips).all() and (result.adjusted == alone.adjusted).all()
    scores = [result.score.mbb_per_hand for _, result in results]
    assert worst_setting(results) == scores.index(max(scores))


@pytest.mark.parametrize("args, message", [
    (["--suite", "--actions", "C,C,FCPA,FCPA"], "--suite plays its own action sets: drop "
                                                "--actions"),
    (["--suite", "--breakdown"], "--breakdown is for one setting: run it with --actions, not "
                                 "with --suite"),
])
def test_suite_with_actions_or_breakdown_is_a_one_line_usage_error(args, message, capsys):
    from gambler.training.lbr_cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["seed", *args])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err == f"gambler-lbr: error: {message} (see --help)\n"
