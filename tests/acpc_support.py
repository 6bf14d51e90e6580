"""Helpers for the protocol tests: the real dealer's data in tests/data/acpc, and local matches."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from pathlib import Path

from gambler.protocol import Action, load_game, parse_betting
from gambler.protocol.client import DealerConnection, play_match
from gambler.protocol.dealer import Dealer, DealerOptions

# Recorded from the ACPC server's own dealer (tests/data/acpc) and the standard game files.
ACPC = Path(__file__).resolve().parent / "data" / "acpc"
ACPC_GAMES = ACPC / "games"

NOLIMIT = "holdem.nolimit.2p.reverse_blinds.game"
LIMIT = "holdem.limit.2p.reverse_blinds.game"


def transcript(kind: str) -> list[tuple[str, int, str]]:
    """(direction, seat 1-based, line) for every line of transcript-<kind>.txt."""
    rows = []
    for raw in (ACPC / f"transcript-{kind}.txt").read_text().splitlines():
        direction, seat, line = raw.split(" ", 2)
        rows.append((direction, int(seat), line))
    return rows


def log_lines(kind: str) -> list[str]:
    return (ACPC / f"example-{kind}.log").read_text().splitlines()


def scripted_actions(game, state_lines: list[str]) -> list[list[Action]]:
    """For each logged hand, its actions in order."""
    hands = []
    for line in state_lines:
        state = parse_betting(game, line.split(":")[2])
        hands.append([action for round_actions in state.actions for action in round_actions])
    return hands


def replay_decider(actions: list[list[Action]]) -> Callable:
    def decide(state):
        done = sum(len(round_actions) for round_actions in state.betting.actions)
        return actions[state.hand][done]
    return decide


class LocalMatch:
    """A `Dealer` in a thread of this process, with players in threads too."""

    def __init__(self, options: DealerOptions):
        self.stdout, self.stderr = io.StringIO(), io.StringIO()
        self.dealer = Dealer(options, stdout=self.stdout, stderr=self.stderr)
        self.ports = self.dealer.open_ports()
        self.status: int | None = None
        self.seconds = 0.0  # the dealer's own run time
        self.threads: list[threading.Thread] = []

    def add_player(self, seat: int, target: Callable[[int], None]) -> None:
        thread = threading.Thread(target=target, args=(self.ports[seat],), daemon=True)
        self.threads.append(thread)

    def run(self, timeout: float = 120) -> int:
        for thread in self.threads:
            thread.start()
        started = time.monotonic()
        self.status = self.dealer.run()
        self.seconds = time.monotonic() - started
        for thread in self.threads:
            thread.join(timeout)
        return self.status


def replay_player(game, decide) -> Callable[[int], None]:
    def run(port: int) -> None:
        with DealerConnection("127.0.0.1", port) as connection:
            connection.send_version()
            play_match(connection, game, decide)
    return run


def nolimit_game():
    return load_game(NOLIMIT)
