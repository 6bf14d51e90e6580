"""`gambler-equity`: output, JSON, and one-line errors with non-zero exits."""

import json

import pytest

from gambler.evaluator.cli import main


def run(capsys, *argv):
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    captured = capsys.readouterr()
    return exit_.value.code, captured.out, captured.err


def test_exact_text_output(capsys):
    code, out, err = run(capsys, "AsKc", "--board", "Qh7c2d")
    assert code == 0 and err == ""
    assert out.splitlines()[0] == "AsKc on Qh7c2d (exact)"
    assert "v        +0.1129" in out and "equity   55.647%" in out


def test_json_output(capsys):
    code, out, _ = run(capsys, "AsKc", "--board", "Qh7c2d", "--json")
    result = json.loads(out)
    assert code == 0
    assert {"hole", "board", "win", "tie", "loss", "v", "equity", "exact", "samples"} <= set(result)
    assert result["win"] == 589791 / 1070190 and result["exact"] is True
    assert result["samples"] is None and result["v"] == result["win"] - result["loss"]


def test_monte_carlo_json_reports_seed_and_error(capsys):
    code, out, _ = run(capsys, "7h6h", "--samples", "20000", "--seed", "4", "--json")
    result = json.loads(out)
    assert (code, result["samples"], result["seed"], result["exact"]) == (0, 20000, 4, False)
    assert 0 < result["std_error"] < 0.01


@pytest.mark.parametrize("argv, message", [
    (["10hAs"], "bad card '10'"),
    (["AsKc", "--board", "AsQd7h"], "As is both in the hole and on the board"),
    (["AsKc", "--board", "Qd7h"], "expected 0 or 3 or 4 or 5"),
    (["AsKc", "--samples", "0"], "--samples"),
    ([], "Missing argument 'HOLE'"),
])
def test_bad_input_is_one_line_and_non_zero(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert err.startswith("gambler-equity: error: ")


def test_debug_shows_the_traceback(capsys):
    from gambler.evaluator.cards import CardError
    with pytest.raises(CardError):
        main(["10hAs", "--debug"])


def test_the_hole_in_two_words_and_a_board_with_spaces(capsys):
    expected = run(capsys, "AsKc", "--board", "Qh7c2d")
    assert run(capsys, "As", "Kc", "--board", "Qh7c2d") == expected
    assert run(capsys, "As", "Kc", "--board", "Qh 7c 2d") == expected
    assert run(capsys, "as", "kc", "--board", "Qh,7c,2d") == expected


def test_preflop_is_named_preflop(capsys):
    code, out, _ = run(capsys, "As", "Kc")
    assert code == 0 and out.splitlines()[0] == "AsKc preflop (exact)"
    code, out, _ = run(capsys, "AsKc", "--vs", "QQ+")  # QQ 6, KK 3 without the Kc, AA 3
    assert code == 0 and out.splitlines()[0] == "AsKc preflop against QQ+ (12 combos live) (exact)"


def test_large_counts_have_thousands_separators(capsys):
    code, out, _ = run(capsys, "AsKc", "--board", "Qh7c2d", "--vs", "22+,A2+,K2+,Q2+,J2+,T2+,"
                       "92+,82+,72+,62+,52+,42+,32")  # every holding: C(47, 2) = 1,081 live
    assert code == 0
    assert out.splitlines()[0] == ("AsKc on Qh7c2d against 22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,"
                                   "62+,52+,42+,32 (1,081 combos live) (exact)")
    assert "equity   55.647%" in out  # every weight 1 is the random hand
    code, out, _ = run(capsys, "7h6h", "--samples", "20000", "--seed", "4")
    assert code == 0 and out.splitlines()[0] == "7h6h preflop (Monte Carlo, 20,000 samples, seed 4)"


@pytest.mark.parametrize("seed, accepted", [("0", True), ("4294967295", True),
                                            ("4294967296", False), ("-1", False), ("x", False)])
def test_seed_takes_the_shared_range(capsys, seed, accepted):
    code, out, err = run(capsys, "AsKc", "--samples", "10", "--seed", seed, "--json")
    if accepted:
        assert code == 0 and json.loads(out)["seed"] == int(seed)
    else:
        assert code == 2 and out == ""
        assert err == (f"gambler-equity: error: Invalid value for '--seed': '{seed}' is not a "
                       "seed: seeds are whole numbers from 0 to 4,294,967,295 (see --help)\n")


@pytest.mark.parametrize("argv, message", [
    (["As", "Kc", "7c", "2d", "--board", "Qh"],
     "the hole 'As Kc 7c 2d' has 4 cards, expected 2 (a board written with spaces needs "
     "quotes: --board \"Qh 7c 2d\")"),
    (["AsKcQd"], "the hole 'AsKcQd' has 3 cards, expected 2"),
    (["As"], "the hole 'As' has 1 card, expected 2"),
    (["As", "As"], "card As appears twice in 'As As'"),
    (["As", "Kx"], "bad card 'Kx'"),
])
def test_bad_holes_are_named(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert (code, out) == (1, "") and len(err.splitlines()) == 1
    assert err.startswith(f"gambler-equity: error: {message}")
