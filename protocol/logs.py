"""ACPC match logs: the `STATE:` lines the dealer writes, read back into hands.

    STATE:<hand>:<betting>:<hole cards | ...>/<board>:<value | ...>:<name | ...>

Everything in position order (in a heads-up reverse-blinds game position 0 is the big blind, and
seats swap every hand unless the dealer ran with `-f`). Comment lines (`#`) and the final
`SCORE:` line are skipped. `read_log` checks each hand as the dealer would have played it: the
betting must be legal and complete, the cards those of the game, and the values the payoffs the
rules give; anything else is a `ProtocolError` naming the file and line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from gambler.protocol.betting import BettingState, parse_betting
from gambler.protocol.errors import ProtocolError
from gambler.protocol.gamedef import Game
from gambler.protocol.matchstate import parse_cards_field


@dataclass(frozen=True)
class LoggedHand:
    """One finished hand of a log."""

    hand: int                               # the hand number the dealer gave it
    betting: BettingState                   # the whole hand's betting (finished)
    hole_cards: tuple[tuple[int, ...], ...]  # per position
    board: tuple[int, ...]                  # the board cards dealt, in order
    values: tuple[float, ...]               # chips won per position, as logged
    names: tuple[str, ...]                  # player names per position
    where: str = ""                         # "file:line", for messages

    def value_of(self, name: str) -> float:
        return self.values[self.names.index(name)]


def parse_state_line(game: Game, line: str, where: str = "<log>") -> LoggedHand:
    """One `STATE:` line; `ProtocolError` naming `where` if it is not a finished, legal hand."""
    fields = line.rstrip("\r\n").split(":")
    if len(fields) != 6 or fields[0] != "STATE":
        raise ProtocolError(f"{where}: not STATE:<hand>:<betting>:<cards>:<values>:<names>")
    _, hand_text, betting_text, cards_text, values_text, names_text = fields
    if not hand_text.isdigit():
        raise ProtocolError(f"{where}: bad hand number {hand_text!r}")
    try:
        betting = parse_betting(game, betting_text)
        if not betting.finished:
            raise ProtocolError(f"betting {betting_text!r} is not a finished hand")
        holes, board = parse_cards_field(game, betting.round, cards_text, line)
    except ProtocolError as error:
        raise ProtocolError(f"{where}: {error}") from None
    players = game.num_players
    names = tuple(names_text.split("|"))
    value_texts = values_text.split("|")
    if len(names) != players or len(value_texts) != players:
        raise ProtocolError(f"{where}: expected {players} values and {players} names")
    try:
        values = tuple(float(text) for text in value_texts)
    except ValueError:
        raise ProtocolError(f"{where}: bad values {values_text!r}") from None
    try:
        rules = betting.payoffs(holes, board)
    except ProtocolError as error:
        raise ProtocolError(f"{where}: {error}") from None
    if any(abs(logged - computed) > 1e-6 for logged, computed in zip(values, rules)):
        raise ProtocolError(f"{where}: values {values_text!r} are not the hand's payoffs "
                            f"{'|'.join(f'{value:g}' for value in rules)}")
    return LoggedHand(int(hand_text), betting, holes, board, values, names, where)


def parse_log(game: Game, lines: Iterable[str], source: str = "<log>") -> list[LoggedHand]:
    """Every hand of a log's lines, in order."""
    hands = []
    for number, line in enumerate(lines, start=1):
        if line.startswith("STATE:"):
            hands.append(parse_state_line(game, line, f"{source}:{number}"))
        elif line.strip() and not line.startswith(("#", "SCORE:")):
            raise ProtocolError(f"{source}:{number}: not a log line: {line.strip()[:60]!r}")
    return hands


def read_log(game: Game, path: str | Path) -> list[LoggedHand]:
    """Every hand of the ACPC log file at `path`."""
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise ProtocolError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") \
            from None
    return parse_log(game, text.splitlines(), str(path))
