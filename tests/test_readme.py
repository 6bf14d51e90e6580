"""The README's Python examples run as pasted, and say what they print where they say it."""

import re
from pathlib import Path

import pytest

README = (Path(__file__).parent.parent / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_the_readme_has_its_python_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_python_example_runs_as_pasted(index):
    code = BLOCKS[index].replace("hands=20000", "hands=200")  # LBR: the same call, smaller
    namespace: dict = {}
    exec(compile(code, f"README python block {index + 1}", "exec"), namespace)


def test_the_values_the_examples_quote():
    from gambler.evaluator import matchup, parse_cards, rank_hands
    from gambler.evaluator.ranges import range_win_rate
    from gambler.protocol import load_game, parse_matchstate, raise_to
    import numpy as np

    assert parse_cards("AsKc").tolist() == [51, 44]
    values = rank_hands(np.stack([parse_cards("AsKcQh7c2d9s3h"), parse_cards("2c2hQh7c2d9s3h")]))
    assert values[1] > values[0]  # trips beat ace high
    assert round(matchup("AcAd", "KhKs").equity, 4) == 0.8126
    assert round(range_win_rate("AsKc", "Qh7c2d", "QQ+,AKs,AQo").v, 4) == -0.7251
    state = parse_matchstate(load_game(), "MATCHSTATE:0:0:r300:7s5s|")
    assert state.betting.apply(raise_to(900)).betting_string() == "r300r900"


def test_the_explain_example_and_its_decision_line_are_what_the_bot_prints(capsys):
    """The README's `gambler --explain` block is the command's output for the shipped default,
    and its `--log` decision line example carries the same decision, field for field."""
    from gambler.bot.cli import main

    block = re.search(r"```\n\$ gambler --explain \"(.*?)\"\n(.*?)```", README, flags=re.S)
    state, shown = block.group(1), block.group(2).splitlines()
    with pytest.raises(SystemExit) as exit_:
        main(["--explain", state])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.splitlines() == shown
    line = re.search(r"```\n(decision \d+ \d .*)\n```", README).group(1).split()
    hand, position, round_ = line[1:4]
    assert shown[0].startswith(f"default, hand {hand}, position {position}, {round_}:")
    assert dict(field.split("=") for field in line[4:]) == dict(row.split() for row in shown[1:])
