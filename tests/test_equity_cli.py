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
