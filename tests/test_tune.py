"""The training config's `tune` key: which tunable numbers a run moves.

A run told `tune: ["river.*", "*.defend*"]` must visit exactly those labels (river to preflop,
file order), schedule sweeps x their count x steps_per_parameter steps, and leave every other
number of the profile as it started, in the current profile and in every best it keeps."""
from __future__ import annotations

import json

import pytest
import yaml

from acpc_support import NOLIMIT
from gambler.bot.params import load_profile
from gambler.protocol import load_game
from gambler.training.anneal import Trainer, parameter_order, tuned_positions
from gambler.training.config import ConfigError, TrainConfig, parse_config
from gambler.training.evaluate import Backend

GAME = load_game(NOLIMIT)
V3 = "tests/data/profiles/v3-defend.yaml"

SMALL = f"""
start: {V3}
deals: 200
deal_seed: 1000
fresh_deals: 200
fresh_sets: 2
opponents: {{seed: 1.0, call: 1.0}}
held_out: {{}}
normalize: false
hall_of_fame: 0
restart_after: 0
sweeps: 1
steps_per_parameter: 2
temperature: {{start: 40.0, end: 1.0}}
proposal: {{threshold: 0.3, slope: 1.0, c0: 3000.0, c1: 6000.0, c2: 8000.0, c3: 8000.0}}
lbr: {{weight: 0, report_hands: 0}}
"""


def labels_of(path: str) -> list[str]:
    return [label for label, _, _ in load_profile(path).tunable()]


def test_patterns_keep_the_visiting_order_and_name_single_numbers_literally():
    labels = labels_of(V3)
    everything = tuned_positions(labels, ["*"])
    assert everything == parameter_order(labels)
    lines = [labels[index] for index in tuned_positions(labels, ["*.defend*"])]
    # v3-defend.yaml has lines on preflop, flop and river (turn: none), visited river first
    assert lines == ["river.defend[0]", "river.defend[1]", "flop.defend[0]", "flop.defend[1]",
                     "preflop.defend[0]", "preflop.defend[1]"]
    # brackets are literal: "flop.call[2]" is one number, not a character class
    assert [labels[i] for i in tuned_positions(labels, ["flop.call[2]"])] == ["flop.call[2]"]
    assert [labels[i] for i in tuned_positions(labels, ["turn.thresholds[?]"])] == [
        "turn.thresholds[0]", "turn.thresholds[1]", "turn.thresholds[2]"]
    # two patterns matching the same number visit it once
    assert len(tuned_positions(labels, ["river.*", "river.raise*"])) == \
        len(tuned_positions(labels, ["river.*"]))


def test_a_pattern_matching_nothing_is_an_error_naming_it():
    with pytest.raises(ConfigError, match=r"tune: pattern 'turn\.defend\*' matches none"):
        tuned_positions(labels_of(V3), ["river.*", "turn.defend*"])
    with pytest.raises(ConfigError, match=r"pattern 'flop\.call\[9\]' matches none"):
        tuned_positions(labels_of(V3), ["flop.call[9]"])


@pytest.mark.parametrize("value, expected", [("*.defend*", ["*.defend*"]),
                                             (["river.*", "flop.call[0]"],
                                              ["river.*", "flop.call[0]"])])
def test_the_config_reads_one_pattern_or_a_list(value, expected):
    assert parse_config({"tune": value}, "t.yaml").tune == expected
    assert TrainConfig().tune == ["*"] and parse_config({}, "t.yaml").tune == ["*"]


@pytest.mark.parametrize("value", [[], 3, [""], ["river.*", 2], {"river": 1}])
def test_a_bad_tune_value_names_the_key(value):
    with pytest.raises(ConfigError, match=r"^t\.yaml: tune: expected a pattern or a list"):
        parse_config({"tune": value}, "t.yaml")


def test_a_run_moves_only_the_tuned_numbers(tmp_path):
    document = yaml.safe_load(SMALL)
    document["tune"] = ["river.defend*", "flop.call[0]"]
    config = parse_config(document, "small.yaml")
    run = Trainer.start(tmp_path / "run", config, GAME, Backend(), seed=3, steps=None,
                        hours=None)
    assert run.schedule_steps == 1 * 3 * 2  # sweeps x tuned numbers x steps_per_parameter
    run.run()
    records = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text()
               .splitlines()]
    assert [record["parameter"] for record in records] == [
        "river.defend[0]", "river.defend[0]", "river.defend[1]", "river.defend[1]",
        "flop.call[0]", "flop.call[0]"]
    labels = run.labels
    start = [value for _, value, _ in load_profile(V3).tunable()]
    tuned = {"river.defend[0]", "river.defend[1]", "flop.call[0]"}
    for vector in (run.state.current, run.state.best):
        for label, before, after in zip(labels, start, vector):
            if label not in tuned:
                assert after == before, label
    # and the big proposal moves did move something that was tuned
    assert any(record["accepted"] for record in records)
    assert [label for label, before, after in zip(labels, start, run.state.current)
            if after != before]
