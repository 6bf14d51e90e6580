"""Edges every command shares: one range and one wording for a bad seed, and `python -m gambler`."""

import subprocess
import sys

import pytest

WORDING = "is not a seed: seeds are whole numbers from 0 to 4,294,967,295"

#: Every command with a seed, and the arguments that put a seed where it goes.
SEEDED = [
    ["gambler", "127.0.0.1", "1", "--seed"],
    ["gambler-match", "seed", "handmade", "--seed"],
    ["gambler-lbr", "seed", "--seed"],
    ["gambler-train", "--seed"],
    ["gambler-equity", "AsKc", "--seed"],
    ["gambler-games", "kuhn", "--seed"],
    ["gambler-dealer", "m", "holdem.nolimit.2p.reverse_blinds.game", "10"],  # SEED is positional
]


@pytest.mark.parametrize("command", SEEDED, ids=lambda command: " ".join(command[:2]))
@pytest.mark.parametrize("seed", ["-1", "4294967296", "x", "1.5"])
def test_a_bad_seed_is_one_line_with_one_wording_in_every_command(command, seed):
    args = command + [seed] + (["a", "b"] if command[0] == "gambler-dealer" else [])
    result = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{command[0]}: error: ")
    assert f"'{seed}' {WORDING}" in lines[0]
    assert result.stdout == ""


def test_progress_off_a_terminal_is_a_line_a_minute_with_the_share_done_and_the_time_left():
    """A run under nohup logs how far it is: nothing within the first minute, then at most one
    line a minute, each with the share done, the time so far and the time left at that pace."""
    import io

    from gambler.cli import ProgressLines

    now = [100.0]
    log = io.StringIO()
    progress = ProgressLines("LBR suite", 40_000, log, every=60.0, clock=lambda: now[0])
    for seconds, done in [(30, 5_000), (59, 5_000), (61, 0), (90, 10_000), (125, 10_000),
                          (500, 8_000), (520, 1_000)]:
        now[0] = 100.0 + seconds
        progress.update(done)
    assert log.getvalue().splitlines() == [
        "LBR suite: 25% (10,000 of 40,000), 1 min 1 s, about 3 min 3 s left",
        "LBR suite: 75% (30,000 of 40,000), 2 min 5 s, about 42 s left",
        "LBR suite: 95% (38,000 of 40,000), 8 min 20 s, about 26 s left",
    ]


def test_progress_off_a_terminal_names_hours_and_stays_quiet_for_a_short_run():
    import io

    from gambler.cli import ProgressLines

    now = [0.0]
    log = io.StringIO()
    progress = ProgressLines("searching", 100, log, every=60.0, clock=lambda: now[0])
    progress.update(99)  # a run that ends within the minute prints nothing
    assert log.getvalue() == ""
    now[0] = 2 * 3600 + 5 * 60
    progress.update(1)
    assert log.getvalue() == "searching: 100% (100 of 100), 2 h 5 min\n"
