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
