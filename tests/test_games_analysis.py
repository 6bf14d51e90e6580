"""The games lab's library side of `gambler-games`: what the command prints is computed here, and
every bad argument is one `GamblerError` naming it."""

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from gambler.errors import GamblerError
from gambler.games.analysis import kuhn_family, policy_table
from gambler.games.bimatrix import loss_averse_kuhn
from gambler.games.cfr import solve, uniform_policy
from gambler.games.errors import GameError, SolverError
from gambler.games.lp import LinearProgramError, maximise
from gambler.games.nim import DEFAULT_ROWS, check_rows, evolve, measure, optimal_move
from gambler.games.onecard import OneCardGame, equilibrium_bluff, run_ga, solve_exactly
from gambler.games.poker_trees import kuhn_infoset_label, kuhn_tree, poker_tree
from gambler.games.regret import RPS, check_strategy, run as regret_run
from gambler.games.tree import TreeBuilder

KUHN_ORDER = ["0", "1", "2", "0b", "0p", "1b", "1p", "2b", "2p", "0pb", "1pb", "2pb"]


@pytest.fixture(scope="module")
def kuhn():
    return kuhn_tree()


# --- Kuhn: the policy by information set and the equilibrium family -----------------------------

def test_policy_table_orders_information_sets_by_depth_then_name(kuhn):
    table = policy_table(kuhn, uniform_policy(kuhn))
    assert list(table) == KUHN_ORDER
    assert all(values == [0.5, 0.5] for values in table.values())


def test_policy_table_rejects_a_policy_of_another_tree(kuhn):
    with pytest.raises(GameError, match="a policy of 3 rows for 12 information sets"):
        policy_table(kuhn, np.full((3, 2), 0.5))


def test_uniform_policy_is_far_from_the_family(kuhn):
    family = kuhn_family(policy_table(kuhn, uniform_policy(kuhn)))
    assert (family.alpha, family.king_bet, family.queen_call, family.second_queen_call,
            family.second_jack_bluff) == (0.5, 0.5, 0.5, 0.5, 0.5)
    assert family.distance == pytest.approx(1.0, abs=1e-15)  # the king bets 0.5, not 3 * 0.5


@pytest.mark.parametrize("alpha", [0.0, 0.1, 1 / 3])
def test_every_member_of_the_family_is_at_distance_zero(alpha):
    member = {"0": [1 - alpha, alpha], "2": [1 - 3 * alpha, 3 * alpha],
              "1pb": [2 / 3 - alpha, alpha + 1 / 3], "1b": [2 / 3, 1 / 3], "0p": [2 / 3, 1 / 3]}
    assert kuhn_family(member).distance == pytest.approx(0.0, abs=1e-15)
    member["0"] = [0.5, 0.5]  # alpha above 1/3 and no longer the one the king's bet fits
    assert kuhn_family(member).distance >= 0.5 - 1 / 3 - 1e-15


def test_cfr_plus_lands_in_the_family(kuhn):
    family = kuhn_family(policy_table(kuhn, solve(kuhn, "cfr+", 10_000).policy))
    assert family.distance < 2e-3 and 0 <= family.alpha <= 1 / 3


def test_kuhn_family_names_a_missing_information_set():
    with pytest.raises(GameError, match="no information set '2'"):
        kuhn_family({"0": [1.0, 0.0]})
    with pytest.raises(GameError, match="information set '0': 3 probabilities"):
        kuhn_family({key: [1.0, 0.0, 0.0] for key in KUHN_ORDER})


def test_kuhn_information_sets_read_with_card_letters():
    labels = [kuhn_infoset_label(key) for key in KUHN_ORDER]
    assert labels == ["J", "Q", "K", "Jb", "Jp", "Qb", "Qp", "Kb", "Kp", "Jpb", "Qpb", "Kpb"]
    for bad in ("3p", "1bb", "", "Qpb"):
        with pytest.raises(GameError, match=f"{bad!r} is not a Kuhn information set"):
            kuhn_infoset_label(bad)


# --- loss-averse Kuhn ---------------------------------------------------------------------------

def test_loss_averse_kuhn_study():
    study = loss_averse_kuhn(3.0)
    assert Fraction(study.expected_chips).limit_denominator(1000) == Fraction(-17, 210)
    assert [Fraction(u).limit_denominator(100) for u in study.utilities] == \
        [Fraction(-13, 10), Fraction(-41, 42)]
    assert [study.loss_averse[card] for card in "012"] == [0.0, 0.0, 0.0]  # never bets
    assert Fraction(study.loss_averse["0b"]).limit_denominator(100) == Fraction(16, 35)
    assert study.risk_neutral["1pb"] == pytest.approx(1 / 3, abs=1e-8)


def test_loss_aversion_one_is_the_risk_neutral_game():
    study = loss_averse_kuhn(1)
    assert study.loss_averse == study.risk_neutral
    assert Fraction(study.expected_chips).limit_denominator(100) == Fraction(-1, 18)
    assert study.utilities[0] == pytest.approx(-study.utilities[1], abs=1e-12)


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), "3"])
def test_loss_aversion_must_be_a_positive_number(bad):
    with pytest.raises(GameError, match=r"loss aversion .*: need a finite number above 0"):
        loss_averse_kuhn(bad)


# --- one-card poker -----------------------------------------------------------------------------

def test_equilibrium_bluff():
    game = OneCardGame()
    assert equilibrium_bluff(game, solve_exactly(game)) == pytest.approx(1.0, abs=1e-9)
    no_check = OneCardGame(4, (2, 4), 2)  # no zero bet: every hand bets something
    assert equilibrium_bluff(no_check, solve_exactly(no_check)) == 1.0


def test_fittest_pair_is_the_pair_the_last_record_measures():
    game = OneCardGame(5, (0, 3, 6), 2)
    result = run_ga(game, population=12, generations=4, seed=7)
    x, y = result.fittest_pair()
    assert x.shape == (5, 3) and (x.sum(axis=1) == 1).all() and set(np.unique(x)) <= {0.0, 1.0}
    assert [game.bets[b] for b in x.argmax(axis=1)] == [game.bets[b] for b in result.best_a]
    assert game.exploitability(x, y) == result.history[-1].exploitability_best


@pytest.mark.parametrize("arguments, message", [
    ((1,), "cards 1: need a whole number, at least 2"),
    ((4, ()), "bets: need at least one bet size"),
    ((4, (0, -2)), "bet -2: bets are amounts of 0 or more"),
    ((4, (0, 2, 2)), r"bets \[0, 2, 2\]: each size once"),
    ((4, (0, 2), 0), "ante 0: need an amount above 0"),
])
def test_one_card_games_are_checked_when_built(arguments, message):
    with pytest.raises(GameError, match=message):
        OneCardGame(*arguments)


def test_ga_arguments_are_checked():
    with pytest.raises(GameError, match="parents 0 and mutation 0.05"):
        run_ga(OneCardGame(3, (0, 2), 1), population=4, generations=1, parents=0)


# --- regret matching and Nim --------------------------------------------------------------------

def test_check_strategy_names_the_bad_strategy():
    np.testing.assert_array_equal(check_strategy([0.25, 0.75], 2), [0.25, 0.75])
    with pytest.raises(GameError, match=r"^\[0.5, 0.5\]: need 3 probabilities summing to 1$"):
        check_strategy([0.5, 0.5], 3)
    with pytest.raises(GameError, match=r"^'1,-1,1': need 3 probabilities summing to 1$"):
        check_strategy([1, -1, 1], 3, name="'1,-1,1'")
    with pytest.raises(GameError, match="need 3 probabilities"):
        regret_run(RPS, 10, opponent=np.array([0.2, 0.2, 0.2]))
    with pytest.raises(GameError, match="unknown variant 'middle' \\(one of cumulative, last\\)"):
        regret_run(RPS, 10, variant="middle")


def test_check_rows():
    assert check_rows([1, 3, np.int64(5)]) == (1, 3, 5)
    for rows, message in (((0, 0), "rows need at least one object"), ((), "rows need at least"),
                          ((3, -1), "-1 is not a row size"), ((2.5,), "2.5 is not a row size")):
        with pytest.raises(GameError, match=message):
            check_rows(rows)
    with pytest.raises(GameError, match="0 is not a limit"):
        check_rows((3,), 0)


def test_evolution_arguments_are_checked():
    with pytest.raises(GameError, match="10 offspring for 20 parents"):
        evolve(selection="comma", population=20, offspring=10)
    with pytest.raises(GameError, match="unknown selection 'best'"):
        evolve(selection="best")
    with pytest.raises(GameError, match="unknown opponent 'nobody'"):
        evolve(opponent="nobody")


def test_measuring_the_optimal_player():
    """From 1 3 5 7 9 the first player wins with perfect play: the optimal player wins every game
    it starts, loses every game the optimal player starts, and beats the seed's player both ways;
    the seed's player never beats the optimal one."""
    measured = measure(optimal_move, DEFAULT_ROWS, None, games=20, seed=4)
    rates = measured.win_rate
    assert list(rates) == ["optimal", "seed", "random"]
    assert (rates["optimal"]["first"], rates["optimal"]["second"]) == (1.0, 0.0)
    assert (rates["seed"]["first"], rates["seed"]["second"]) == (1.0, 1.0)
    assert rates["random"]["first"] == 1.0
    assert rates["optimal"]["first_ci95"][1] == 1.0 and rates["optimal"]["second_ci95"][0] == 0
    assert measured.seed_player_vs_optimal == {"first": 0.0, "second": 0.0}
    assert measure(optimal_move, DEFAULT_ROWS, None, games=20, seed=4) == measured


# --- one exception root -------------------------------------------------------------------------

def test_solver_failures_are_gambler_errors_and_arithmetic_errors():
    with pytest.raises(LinearProgramError, match="infeasible"):
        maximise([1.0], A_ub=[[1.0]], b_ub=[-1.0])           # x <= -1 with x >= 0
    with pytest.raises(LinearProgramError, match="unbounded"):
        maximise([1.0], A_ub=[[-1.0]], b_ub=[0.0])           # maximise x with only -x <= 0
    assert issubclass(LinearProgramError, SolverError)
    assert issubclass(SolverError, GamblerError) and issubclass(SolverError, ArithmeticError)
    assert issubclass(GameError, GamblerError) and issubclass(GameError, ValueError)


def test_bad_solver_arguments_are_game_errors(kuhn):
    with pytest.raises(GameError, match="unknown algorithm 'cfr\\+\\+'"):
        solve(kuhn, "cfr++", 10)
    with pytest.raises(GameError, match="unknown game 'holdem' \\(one of kuhn, leduc\\)"):
        poker_tree("holdem")
    builder = TreeBuilder()
    root = builder.chance(-1, 0, 1.0)
    builder.decision(root, 0, 0.5, 0, "A", ("p", "b"), 0)
    with pytest.raises(GameError, match="information set 'A' is not consistent"):
        builder.decision(root, 1, 0.5, 1, "A", ("p", "b"), 0)


# --- the command's text -------------------------------------------------------------------------

def games(*args):
    return subprocess.run([sys.executable, "-m", "gambler.games.cli", *args], capture_output=True,
                          text=True, timeout=600)


def test_kuhn_text_names_cards_by_letter_and_json_by_number():
    text = games("kuhn", "--iterations", "2000")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("Kuhn poker, cfr+, 2,000 iterations, ")
    table = lines[lines.index("  policy [pass, bet] by information set:") + 1:]
    assert [line.split()[0] for line in table] == \
        ["J", "Q", "K", "Jb", "Jp", "Qb", "Qp", "Kb", "Kp", "Jpb", "Qpb", "Kpb"]
    assert "kuhn cfr+: 2,000 iterations, exploitability" in text.stderr
    payload = json.loads(games("kuhn", "--iterations", "2000", "--json").stdout)
    assert list(payload["policy"]) == KUHN_ORDER
    # The text's rows are the JSON's values, row for row.
    assert [json.loads(line.split(maxsplit=1)[1]) for line in table] == \
        list(payload["policy"].values())


def test_counts_have_thousands_separators():
    lines = games("rps", "--iterations", "2000").stdout.splitlines()
    assert lines[0] == "Regret matching (cumulative regrets), 2,000 iterations, self-play"
    lines = games("nim", "--generations", "1", "--games", "1000").stdout.splitlines()
    assert lines[2] == "  win rates of the evolved player over 1,000 games (95% CI):"


@pytest.mark.parametrize("subcommand, seed", [
    *[(subcommand, "4294967296") for subcommand in ("kuhn", "leduc", "onecard", "rps", "nim")],
    ("kuhn", "-1"), ("nim", "x")])
def test_every_seed_takes_the_one_range(subcommand, seed):
    result = games(subcommand, "--seed", seed)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"gambler-games: error: Invalid value for '--seed': {seed!r} is not "
                             "a seed: seeds are whole numbers from 0 to 4,294,967,295 (see "
                             "--help)\n")


def test_the_largest_seed_runs():
    result = games("kuhn", "--algorithm", "mccfr", "--iterations", "100", "--seed",
                   "4294967295", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["iterations"] == 100


def test_a_bad_evolution_setting_is_one_line():
    result = games("nim", "--selection", "comma", "--population", "20", "--offspring", "10")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == ("gambler-games: error: (mu, lambda) selection needs at least as many "
                             "offspring as parents: 10 offspring for 20 parents\n")
