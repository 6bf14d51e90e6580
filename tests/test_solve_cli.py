"""`gambler-solve` end to end: a run killed with SIGKILL and resumed ends where an uninterrupted
run does, byte for byte; bad configs are one line naming the file and the key."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

LEDUC = """\
game: leduc.limit.2p.game
cards: lossless
solver: {weighting: linear, batch: 500, chunks: 2}
iterations: 400000
checkpoint_minutes: 0
"""


def solve(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gambler.solver.cli", *args],
                          capture_output=True, text=True, timeout=300, **kwargs)


def test_a_killed_run_resumes_to_the_uninterrupted_strategy(tmp_path):
    config = tmp_path / "leduc.yaml"
    config.write_text(LEDUC)
    straight = solve(str(config), "--run-dir", str(tmp_path / "straight"), "--seed", "4",
                     "--json")
    assert straight.returncode == 0, straight.stderr
    report = json.loads(straight.stdout)
    assert report["iterations"] == 400_000 and report["exploitability"] < 0.1

    killed = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, "-m", "gambler.solver.cli", str(config),
                                "--run-dir", str(killed), "--seed", "4"],
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 200
        log = killed / "log.jsonl"
        # wait until a few checkpoints are down, then kill it without warning
        while not (log.exists() and len(log.read_text().splitlines()) >= 5):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert not (killed / "strategy.npy").exists()  # it did not get to the end
    resumed = solve("--resume", str(killed), "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["iterations"] == 400_000
    assert np.array_equal(np.load(killed / "strategy.npy"),
                          np.load(tmp_path / "straight" / "strategy.npy"))
    batches = [json.loads(line)["batches"] for line in
               (killed / "log.jsonl").read_text().splitlines()]
    assert batches == sorted(set(batches)) and batches[-1] == 800


@pytest.mark.parametrize("text, message", [
    ("game: leduc.limit.2p.game\nsolver: {batches: 3}\n", "solver: unknown key 'batches'"),
    ("game: leduc.limit.2p.game\nsolver: {weighting: cubic}\n",
     "solver: weighting 'cubic': expected one of none, linear, dcfr"),
    ("game: leduc.limit.2p.game\niterations: -5\n",
     "iterations: expected a whole number >= 1, got -5"),
    ("game: leduc.limit.2p.game\ncards: {flop: 10}\n",
     "cards: buckets are for heads-up hold'em; use `cards: lossless` for a small game"),
    ("game: holdem.nolimit.2p.reverse_blinds.game\nbetting: {fractions: {flop: [half]}}\n",
     "betting.fractions.flop: expected a list of positive numbers, got ['half']"),
    ("cards: lossless\n", "game: missing (a .game file or a shipped game name)"),
])
def test_a_bad_config_is_one_line_naming_the_file_and_the_key(tmp_path, text, message):
    config = tmp_path / "bad.yaml"
    config.write_text(text)
    result = solve(str(config), "--run-dir", str(tmp_path / "run"))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [f"gambler-solve: error: {config}: {message}"]
    assert not (tmp_path / "run").exists()


def test_resume_takes_nothing_but_the_folder(tmp_path):
    result = solve("leduc", "--resume", str(tmp_path))
    assert result.returncode == 2
    assert "--resume continues a run with its own config, seed and target: drop CONFIG" in \
        result.stderr
    result = solve("--resume", str(tmp_path))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"gambler-solve: error: {tmp_path}: no checkpoint.npz (not a gambler-solve run folder)"]


def test_a_finished_run_installs_as_a_profile_name(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMBLER_DATA", str(tmp_path / "data"))  # the children inherit it
    from gambler.bot.blueprint import Blueprint
    from gambler.bot.params import ProfileError
    from gambler.bot.strategies import resolve_strategy
    from gambler.caches import blueprints_dir

    config = tmp_path / "leduc.yaml"
    config.write_text(LEDUC.replace("400000", "20000"))
    with pytest.raises(ProfileError, match="no profile file 'leduc-small'.*installed blueprints: "
                                           "none"):
        resolve_strategy("leduc-small")
    with pytest.raises(ProfileError, match=r"'leduc' is a blueprint built on this machine, not "
                                           r"shipped: build it once with `gambler-solve leduc "
                                           r"--install leduc`"):
        resolve_strategy("leduc")
    bad = solve(str(config), "--run-dir", str(tmp_path / "run"), "--install", ".hidden")
    assert bad.returncode == 1 and not (tmp_path / "run").exists()  # refused before solving
    assert bad.stderr.splitlines() == ["gambler-solve: error: --install '.hidden': a blueprint's "
                                       "name is letters, digits, '-', '_' and '.', not starting "
                                       "with '.'"]
    done = solve(str(config), "--run-dir", str(tmp_path / "run"), "--json")
    assert done.returncode == 0, done.stderr
    installed = solve("--resume", str(tmp_path / "run"), "--install", "leduc-small", "--json")
    assert installed.returncode == 0, installed.stderr
    assert json.loads(installed.stdout)["blueprint"] == str(blueprints_dir() / "leduc-small" /
                                                            "blueprint.yaml")
    blueprint = resolve_strategy("leduc-small")
    assert isinstance(blueprint, Blueprint)
    assert np.array_equal(blueprint.policy, np.load(tmp_path / "run" / "strategy.npy"))
    # the run folder can go: the installed copy stands alone
    for file in (tmp_path / "run").iterdir():
        file.unlink()
    assert np.array_equal(resolve_strategy("leduc-small").policy, blueprint.policy)
