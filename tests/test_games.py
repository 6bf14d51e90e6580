"""The games lab: every answer checked against an exact value or an independent computation."""

import itertools
import json
import random
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from gambler.games.bimatrix import behaviour, is_equilibrium, kuhn_normal_form, lemke_howson
from gambler.games.cfr import best_response, game_value, nash_conv, solve, uniform_policy
from gambler.games.nim import (DEFAULT_ROWS, evolve, optimal_move, play,
                       seed_optimal_move, random_move, duel, wilson, winning)
from gambler.games.onecard import OneCardGame, payoff_matrix, run_ga, solve_exactly
from gambler.games.poker_trees import kuhn_tree, leduc_tree
from gambler.games.regret import RPS, WEIGHTED_RPS, best_response as matrix_best_response, \
    load_matrix, MatrixGameError, run as regret_run


@pytest.fixture(scope="module")
def kuhn():
    return kuhn_tree()


@pytest.fixture(scope="module")
def leduc():
    return leduc_tree()


# --- Kuhn and Leduc -----------------------------------------------------------------------------

def test_kuhn_tree_and_the_uniform_policy(kuhn):
    assert (kuhn.nodes, kuhn.infosets) == (58, 12)
    assert nash_conv(kuhn, uniform_policy(kuhn)) == pytest.approx(11 / 12, abs=1e-12)
    assert game_value(kuhn, uniform_policy(kuhn)) == pytest.approx(1 / 8, abs=1e-12)


def _pure_policies(tree, player):
    infosets = [i for i in range(tree.infosets) if tree.infoset_player[i] == player]
    for choice in itertools.product(range(2), repeat=len(infosets)):
        policy = uniform_policy(tree)
        for info, action in zip(infosets, choice):
            policy[info] = 0.0
            policy[info, action] = 1.0
        yield infosets, policy


def test_best_response_equals_brute_force_over_pure_strategies(kuhn):
    """Against a random mixed policy, the best response value is the best of all 64 pure
    strategies, each evaluated by full expectation."""
    rng = np.random.default_rng(3)
    policy = rng.random((kuhn.infosets, 2))
    policy /= policy.sum(axis=1, keepdims=True)
    for responder in (0, 1):
        best = -np.inf
        for infosets, pure in _pure_policies(kuhn, responder):
            mixed = policy.copy()
            mixed[infosets] = pure[infosets]
            value = game_value(kuhn, mixed) * (1 if responder == 0 else -1)
            best = max(best, value)
        assert best_response(kuhn, policy, responder)[0] == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("algorithm, iterations, bound", [
    ("cfr+", 10_000, 1e-5),      # OpenSpiel's CFR+: 9.6e-6 after 10,000 iterations
    ("dcfr", 10_000, 5e-5),
    ("cfr", 10_000, 5e-4),
    ("mccfr", 200_000, 5e-3),
])
def test_kuhn_solvers_reach_the_equilibrium(kuhn, algorithm, iterations, bound):
    result = solve(kuhn, algorithm, iterations, seed=1, checkpoints=2)
    assert result.exploitability < bound
    assert result.curve[-1][1] <= result.curve[0][1] * 1.5
    assert result.game_value == pytest.approx(-1 / 18, abs=5 * bound + 1e-6)


def test_kuhn_equilibrium_family(kuhn):
    policy = solve(kuhn, "cfr+", 10_000).policy
    p = {name: policy[i] for i, name in enumerate(kuhn.infoset_names)}
    alpha = p["0"][1]
    assert -1e-3 <= alpha <= 1 / 3 + 1e-3
    assert p["2"][1] == pytest.approx(3 * alpha, abs=2e-3)       # the king bets 3 alpha
    assert p["1pb"][1] == pytest.approx(alpha + 1 / 3, abs=2e-3)  # the queen calls alpha + 1/3
    assert p["1b"][1] == pytest.approx(1 / 3, abs=2e-3)           # player 1 calls with the queen
    assert p["0p"][1] == pytest.approx(1 / 3, abs=2e-3)           # ... and bluffs the jack
    assert p["1"][1] < 1e-3 and p["2pb"][1] > 1 - 1e-3 and p["0pb"][1] < 1e-3


def test_leduc_cfr_plus_matches_the_anchor(leduc):
    assert (leduc.nodes, leduc.infosets) == (9487, 936)
    result = solve(leduc, "cfr+", 1000, checkpoints=1)
    assert result.exploitability < 2.6e-4  # OpenSpiel's CFR+: 2.6e-4 after 1,000 iterations
    assert result.game_value == pytest.approx(-0.0856, abs=1e-3)


def test_leduc_other_solvers_improve(leduc):
    for algorithm, iterations, bound in (("dcfr", 300, 2e-3), ("cfr", 300, 0.05),
                                         ("mccfr", 50_000, 0.25)):
        result = solve(leduc, algorithm, iterations, seed=2, checkpoints=2)
        assert result.exploitability < bound < nash_conv(leduc, uniform_policy(leduc)) / 2


# --- bimatrix games -----------------------------------------------------------------------------

def test_lemke_howson_finds_equilibria_of_random_games():
    rng = np.random.default_rng(5)
    for _ in range(20):
        m, n = rng.integers(2, 7, size=2)
        A, B = rng.integers(-5, 6, size=(m, n)), rng.integers(-5, 6, size=(m, n))
        for label in (0, m):
            x, y = lemke_howson(A, B, dropped_label=label)
            assert is_equilibrium(A, B, x, y, 1e-9)


def test_risk_neutral_kuhn_normal_form_has_the_known_value():
    form = kuhn_normal_form()
    A, B = form.payoffs(1.0)
    np.testing.assert_allclose(A, -B)  # zero-sum when gains and losses weigh the same
    x, y = lemke_howson(A, B)
    assert is_equilibrium(A, B, x, y) and Fraction(x @ A @ y).limit_denominator(100) == \
        Fraction(-1, 18)


def test_loss_averse_kuhn_equilibrium():
    form = kuhn_normal_form()
    A, B = form.payoffs(3.0)
    x, y = lemke_howson(A, B)
    assert is_equilibrium(A, B, x, y)
    play = behaviour(form, x, y)
    assert play["2b"] == 1  # player 1 always calls with the king
    chips = x @ form.deals.mean(axis=2) @ y
    assert chips < -1 / 18  # fearing losses costs player 0 chips against player 1


# --- one-card poker -----------------------------------------------------------------------------

def test_one_card_poker_exact_values():
    default = solve_exactly(OneCardGame())
    assert Fraction(default.value).limit_denominator(100_000) == Fraction(10919, 16800)
    assert default.exploitability < 1e-9
    assert default.x[0, 1:].sum() > 0.5  # the equilibrium bets (bluffs) with the lowest card
    small = solve_exactly(OneCardGame(4, tuple(range(0, 11, 2)), 2))
    assert Fraction(small.value).limit_denominator(1000) == Fraction(3, 16)


def test_cfr_on_the_one_card_tree_agrees_with_the_linear_program():
    game = OneCardGame(4, tuple(range(0, 11, 2)), 2)
    tree = game.tree()
    result = solve(tree, "cfr+", 3000, checkpoints=1)
    assert result.game_value == pytest.approx(3 / 16, abs=1e-3)


def test_payoff_matrix_equals_pairwise_evaluation():
    game = OneCardGame(5, (0, 3, 6), 2)
    rng = np.random.default_rng(1)
    pop_a = rng.integers(0, 3, size=(6, 5))
    pop_b = rng.random((7, 5, 3)) < 0.5
    matrix = payoff_matrix(game, pop_a, pop_b)
    for a in range(6):
        for s in range(7):
            x = np.eye(3)[pop_a[a]]
            assert matrix[a, s] == pytest.approx(game.gain(x, pop_b[s].astype(float)))


def test_closed_form_best_responses_equal_brute_force():
    game = OneCardGame(3, (0, 2, 4), 1)
    rng = np.random.default_rng(2)
    x = rng.random((3, 3))
    x /= x.sum(axis=1, keepdims=True)
    y = rng.random((3, 3))
    brute_a = max(game.gain(np.eye(3)[list(bets)], y)
                  for bets in itertools.product(range(3), repeat=3))
    brute_b = min(game.gain(x, np.array(calls, dtype=float).reshape(3, 3))
                  for calls in itertools.product((0, 1), repeat=9))
    assert game.best_response_a(y)[0] == pytest.approx(brute_a)
    assert game.best_response_b(x)[0] == pytest.approx(brute_b)


def test_ga_is_seeded_and_measured():
    game = OneCardGame()
    first = run_ga(game, population=40, generations=5, seed=3)
    again = run_ga(game, population=40, generations=5, seed=3)
    assert [r.exploitability_best for r in first.history] == \
        [r.exploitability_best for r in again.history]
    assert all(r.exploitability_best >= -1e-12 and r.exploitability_mixture >= -1e-12
               for r in first.history)
    assert len(first.history) == 6 and 0 <= first.history[-1].bluff_rate <= 1


# --- regret matching ----------------------------------------------------------------------------

def test_regret_matching_self_play_finds_the_weighted_equilibrium():
    result = regret_run(WEIGHTED_RPS, 40_000, seed=1)
    np.testing.assert_allclose(result.average, [0.25, 0.5, 0.25], atol=0.02)
    assert result.checkpoints[-1]["exploitability"] < 0.02


def test_last_regret_variant_misses_the_equilibrium():
    result = regret_run(WEIGHTED_RPS, 40_000, variant="last", seed=1)
    assert result.checkpoints[-1]["exploitability"] > 0.2
    assert abs(result.average[1] - 0.5) > 0.1


def test_regret_matching_against_a_fixed_opponent_finds_the_best_response():
    opponent = np.array([0.3, 0.3, 0.4])
    result = regret_run(RPS, 5000, opponent=opponent, seed=2)
    np.testing.assert_array_equal(result.current, matrix_best_response(RPS, opponent))


def test_matrix_files(tmp_path):
    good = tmp_path / "game.txt"
    good.write_text("# matching pennies\nactions: H T\n1, -1\n-1 1\n")
    matrix, names = load_matrix(good)
    assert names == ("H", "T") and matrix.tolist() == [[1, -1], [-1, 1]]
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2\n3 x\n")
    with pytest.raises(MatrixGameError, match=r"bad.txt:2: '3 x' is not a row of numbers"):
        load_matrix(bad)


# --- Nim ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [DEFAULT_ROWS, (4, 4, 4, 4), (2, 2, 2, 2, 2, 2), (9, 9, 1)])
def test_optimal_rule_agrees_with_exhaustive_search(shape):
    for position in itertools.product(*[range(count + 1) for count in shape]):
        if sum(position) and winning(position):
            assert not winning(play(position, optimal_move(position)))


def test_misere_endgames():
    assert not winning((1,)) and winning((2,)) and not winning((1, 1, 1)) and winning((1, 1))
    # One big row left: leave an odd number of rows of one.
    assert optimal_move((5, 1, 1)) == (0, 4)      # -> (1, 1, 1): three ones
    assert optimal_move((5, 1)) == (0, 5)         # -> (0, 1): one one


def test_limited_takes_are_solved_exactly():
    rng = random.Random(4)
    for position in itertools.product(range(4), range(5), range(6)):
        if sum(position) and winning(position, 3):
            assert duel(lambda p, l, r: optimal_move(p, l, r), random_move, position, 3,
                        rng) == 0


def test_the_seeds_player_is_not_optimal():
    rng = random.Random(5)
    # From the start the first player wins; the seed's player, moving first, still loses.
    assert winning(DEFAULT_ROWS)
    assert all(duel(seed_optimal_move, optimal_move, DEFAULT_ROWS, None, rng) == 1
               for _ in range(50))
    assert all(duel(optimal_move, seed_optimal_move, DEFAULT_ROWS, None, rng) == 0
               for _ in range(50))


def test_evolution_is_seeded_and_wilson_intervals_cover_the_extremes():
    first = evolve(generations=3, seed=9)
    assert first.best == evolve(generations=3, seed=9).best
    low, high = wilson(0, 100)
    assert low == 0 and 0.03 < high < 0.04
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)


# --- the command ----------------------------------------------------------------------------------

def games(*args):
    result = subprocess.run([sys.executable, "-m", "gambler.games.cli", *args], capture_output=True,
                            text=True, timeout=600)
    return result


@pytest.mark.parametrize("args, keys", [
    (["kuhn", "--iterations", "2000"], {"game_value", "exploitability", "iterations", "seconds",
                                        "policy"}),
    (["leduc", "--iterations", "50"], {"game_value", "exploitability", "iterations",
                                       "seconds"}),
    (["onecard", "--generations", "3", "--population", "20"],
     {"value", "a_strategy", "b_strategy", "exploitability", "bluff_rate"}),
    (["rps", "--iterations", "2000"], {"average_strategy", "current_strategy",
                                       "exploitability"}),
    (["nim", "--generations", "2", "--games", "20"], {"genome", "win_rate"}),
])
def test_every_subcommand_prints_one_json_object(args, keys):
    result = games(*args, "--seed", "1", "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert keys <= set(payload)
    again = json.loads(games(*args, "--seed", "1", "--json").stdout)
    payload.pop("seconds", None), again.pop("seconds", None)
    assert payload == again


def test_kuhn_json_policy_is_keyed_by_information_set():
    payload = json.loads(games("kuhn", "--iterations", "5000", "--json").stdout)
    assert set(payload["policy"]) == {"0", "1", "2", "0p", "1p", "2p", "0b", "1b", "2b", "0pb",
                                      "1pb", "2pb"}
    assert payload["policy"]["2b"] == pytest.approx([0, 1], abs=1e-3)  # call with the king


@pytest.mark.parametrize("args, message", [
    (["onecard", "--bets", "5:1:2"], "need 0 <= LO <= HI"),
    (["rps", "--opponent", "0.5,0.5"], "need 3 probabilities"),
    (["nim", "--rows", "x"], "is not a list of row sizes"),
    (["rps", "--matrix", "/nonexistent/game.txt"], "cannot read"),
])
def test_bad_input_is_one_line(args, message):
    result = games(*args)
    assert result.returncode != 0 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# --- the README's claims, pinned ----------------------------------------------------------------

def test_rps_weighted_and_matrix_exclude_each_other(tmp_path):
    matrix = tmp_path / "game.txt"
    matrix.write_text("0 1\n1 0\n")
    result = games("rps", "--weighted", "--matrix", str(matrix))
    assert result.returncode == 2 and "--weighted picks the weighted" in result.stderr


def test_is_equilibrium_rejects_what_is_not_a_pair_of_mixed_strategies():
    A = np.array([[1.0, -1.0], [-1.0, 1.0]])  # matching pennies: (1/2, 1/2) each
    half = np.array([0.5, 0.5])
    assert is_equilibrium(A, -A, half, half)
    zeros = np.zeros(2)  # every payoff 0: no pure strategy gains over it, yet not a strategy
    assert not is_equilibrium(A, -A, zeros, zeros)
    assert not is_equilibrium(A, -A, np.array([1.5, -0.5]), half)
    assert not is_equilibrium(A, -A, half, np.array([0.5, 0.6]))


def test_loss_averse_kuhn_as_the_readme_tells_it():
    payload = json.loads(games("kuhn", "--loss-aversion", "3", "--json").stdout)
    averse, neutral = payload["loss_averse"], payload["risk_neutral"]
    assert [averse[card] for card in "012"] == [0.0, 0.0, 0.0]  # player 0 never bets
    assert Fraction(averse["1pb"]).limit_denominator(100) == Fraction(1, 7)  # was 1/3
    assert Fraction(averse["0p"]).limit_denominator(100) == Fraction(3, 5)   # J bluff, was 1/3
    assert Fraction(averse["1b"]).limit_denominator(100) == Fraction(1, 7)   # Q calls, was 1/3
    assert neutral["1pb"] == neutral["0p"] == neutral["1b"] == pytest.approx(1 / 3, abs=1e-8)
    assert Fraction(payload["expected_chips"]).limit_denominator(1000) == Fraction(-17, 210)


def test_one_card_ga_default_run_as_the_readme_tells_it():
    payload = json.loads(games("onecard", "--json").stdout)  # 200 a side, 50 generations, seed 0
    first, last = payload["history"][0], payload["history"][-1]
    assert payload["exploitability"] == last["exploitability_best"]  # the fittest pair's
    assert payload["exploitability_of"].startswith("the fittest pair")
    assert payload["exploitability_population"] == last["exploitability_population"]
    assert (round(first["exploitability_population"], 2),
            round(last["exploitability_population"], 2)) == (2.79, 1.06)
    assert (round(first["exploitability_best"], 2), round(last["exploitability_best"], 2)) == \
        (3.73, 2.75)
    assert (first["bluff_rate"], last["bluff_rate"]) == (0.895, 0.85)
    assert payload["revisits"] == 0  # no cycling by that measure


def test_nim_evolution_default_run_as_the_readme_tells_it():
    payload = json.loads(games("nim", "--json").stdout)
    assert payload["genome"] == [1.0, True]  # always among the lowest non-zero nim-sum moves
    rates = payload["win_rate"]
    assert rates["seed"]["first"] == rates["seed"]["second"] == 1.0
    assert rates["optimal"]["first"] == rates["optimal"]["second"] == 0.0
    assert 0.92 <= rates["random"]["second"] <= rates["random"]["first"] <= 0.94
    assert payload["seed_player_vs_optimal"] == {"first": 0.0, "second": 0.0}
