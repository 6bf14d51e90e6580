"""Match logs read back into hands: the ACPC dealer's `STATE:` lines, and the bot's own log.

Two formats, told apart line by line:

* The dealer's match log (the ACPC server's and `gambler-dealer`'s):

      # name/game/hands/seed <match> <game file> <hands> <seed>
      STATE:<hand>:<betting>:<hole cards | ...>/<board>:<value | ...>:<name | ...>

  everything in position order (in a heads-up reverse-blinds game position 0 is the big blind,
  and seats swap every hand unless the dealer ran with `-f`). Other comment lines (`#`) and the
  final `SCORE:` line are skipped.
* The log `gambler --log FILE` writes (`bot.player`), one line per hand from the bot's seat,
  after that hand's decision lines (`decision <hand> <position> <round> name=value ...`, skipped
  here, as a portfolio's `adapt <hand> ...` lines are):

      <hand> <position> <cards as the bot saw them> <betting> <the bot's chips, signed>

  The bot is named `gambler` and its opponent `opponent` (heads-up only: the opponent's chips
  are the bot's negated); the opponent's hole cards are known only after a showdown.

Each hand is checked as the dealer would have played it: the betting must be legal and complete,
the cards those of the game, and the values the payoffs the rules give; anything else is a
`LogError` naming the file and line.

Which game a log was played in (`log_game`): the one its header names, else what its betting
shows (raises with sizes, `r300`, are no-limit; bare `r` are limit: the shipped heads-up game of
that kind), else a `LogError` that asks for `--game`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gambler.protocol.betting import BettingState, parse_betting
from gambler.protocol.errors import ProtocolError
from gambler.protocol.gamedef import SHIPPED_GAMES, Game, load_game
from gambler.protocol.matchstate import format_cards_field, parse_cards_field

BOT_NAMES = ("gambler", "opponent")  # the players of a bot log: the bot, the other seat
LIMIT_GAME = "holdem.limit.2p.reverse_blinds.game"      # a log with bare raises (`r`)
NO_LIMIT_GAME = "holdem.nolimit.2p.reverse_blinds.game"  # a log with sized raises (`r300`)
_HEADER = "# name/game/hands/seed "
_SIZED_RAISE = re.compile(r"r\d")
_BARE_RAISE = re.compile(r"r(?!\d)")


class LogError(ProtocolError):
    """A match log that cannot be read: a file, a line, or a game it does not tell."""


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
    """One `STATE:` line; `LogError` naming `where` if it is not a finished, legal hand."""
    fields = line.rstrip("\r\n").split(":")
    if len(fields) != 6 or fields[0] != "STATE":
        raise LogError(f"{where}: not STATE:<hand>:<betting>:<cards>:<values>:<names>")
    _, hand_text, betting_text, cards_text, values_text, names_text = fields
    if not hand_text.isdigit():
        raise LogError(f"{where}: bad hand number {hand_text!r}")
    try:
        betting = parse_betting(game, betting_text)
        if not betting.finished:
            raise LogError(f"betting {betting_text!r} is not a finished hand")
        holes, board = parse_cards_field(game, betting.round, cards_text, line)
    except ProtocolError as error:
        raise LogError(f"{where}: {error}") from None
    players = game.num_players
    names = tuple(names_text.split("|"))
    value_texts = values_text.split("|")
    if len(names) != players or len(value_texts) != players:
        raise LogError(f"{where}: expected {players} values and {players} names")
    try:
        values = tuple(float(text) for text in value_texts)
    except ValueError:
        raise LogError(f"{where}: bad values {values_text!r}") from None
    try:
        rules = betting.payoffs(holes, board)
    except ProtocolError as error:
        raise LogError(f"{where}: {error}") from None
    if any(abs(logged - computed) > 1e-6 for logged, computed in zip(values, rules)):
        raise LogError(f"{where}: values {values_text!r} are not the hand's payoffs "
                       f"{'|'.join(f'{value:g}' for value in rules)}")
    return LoggedHand(int(hand_text), betting, holes, board, values, names, where)


def format_state_line(hand: LoggedHand) -> str:
    """The dealer's log line of a hand (`parse_state_line`'s inverse), cards unknown left out."""
    from gambler.protocol.dealer import format_value

    betting = hand.betting
    cards = format_cards_field(betting.game, betting.round, hand.hole_cards, hand.board)
    return (f"STATE:{hand.hand}:{betting.betting_string()}:{cards}:"
            f"{'|'.join(map(format_value, hand.values))}:{'|'.join(hand.names)}")


def parse_bot_hand_line(game: Game, line: str, where: str = "<log>") -> LoggedHand:
    """One hand line of a bot log (`hand position cards betting result`); `LogError` naming
    `where` if it is not a finished, legal hand whose result is the bot's payoff."""
    fields = line.split()
    if len(fields) != 5:
        raise LogError(f"{where}: not <hand> <position> <cards> <betting> <result>")
    hand_text, position_text, cards_text, betting_text, result_text = fields
    if game.num_players != 2:
        raise LogError(f"{where}: a bot log is read for heads-up games only")
    if not hand_text.isdigit():
        raise LogError(f"{where}: bad hand number {hand_text!r}")
    if position_text not in ("0", "1"):
        raise LogError(f"{where}: bad position {position_text!r}")
    position = int(position_text)
    try:
        result = float(result_text)
    except ValueError:
        raise LogError(f"{where}: bad result {result_text!r}") from None
    try:
        betting = parse_betting(game, betting_text)
        if not betting.finished:
            raise LogError(f"betting {betting_text!r} is not a finished hand")
        holes, board = parse_cards_field(game, betting.round, cards_text, line.strip())
        if not holes[position]:
            raise LogError(f"cards {cards_text!r}: no hole cards for the bot's position "
                           f"{position}")
        values = betting.payoffs(holes, board)
    except ProtocolError as error:
        raise LogError(f"{where}: {error}") from None
    if abs(values[position] - result) > 1e-6:
        raise LogError(f"{where}: result {result_text!r} is not the hand's payoff "
                       f"{values[position]:+g} for position {position}")
    names = BOT_NAMES if position == 0 else BOT_NAMES[::-1]
    return LoggedHand(int(hand_text), betting, holes, board, values, names, where)


def _is_bot_hand_line(line: str) -> bool:
    fields = line.split(maxsplit=2)
    return len(fields) == 3 and fields[0].isdigit() and fields[1].isdigit()


def parse_log(game: Game, lines: Iterable[str], source: str = "<log>") -> list[LoggedHand]:
    """Every hand of a log's lines (either format, not both), in order."""
    hands = []
    kinds = set()
    for number, line in enumerate(lines, start=1):
        where = f"{source}:{number}"
        if line.startswith("STATE:"):
            kinds.add("a dealer's STATE line")
            hands.append(parse_state_line(game, line, where))
        elif line.startswith(("decision ", "adapt ")):
            kinds.add("a bot's decision line")
        elif _is_bot_hand_line(line):
            kinds.add("a bot's hand line")
            hands.append(parse_bot_hand_line(game, line, where))
        elif line.strip() and not line.startswith(("#", "SCORE:")):
            raise LogError(f"{where}: not a log line: {line.strip()[:60]!r}")
        else:
            continue
        if "a dealer's STATE line" in kinds and len(kinds) > 1:
            raise LogError(f"{where}: a log holds either the dealer's STATE lines or the bot's "
                           "hand and decision lines, not both")
    return hands


def read_log_lines(path: str | Path) -> list[str]:
    """The lines of the log file at `path`; `LogError` if it cannot be read."""
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise LogError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") \
            from None
    return text.splitlines()


def _header_game(lines: Sequence[str], folder: Path) -> tuple[Game, str] | None:
    """The game the log's `# name/game/hands/seed` header names, and how it was found: the path
    as written, beside the log, or a shipped game of that file name; None without a header."""
    for line in lines:
        if line.startswith(_HEADER):
            fields = line[len(_HEADER):].split()
            if len(fields) < 2:
                return None
            named = Path(fields[1])
            for candidate in (named, folder / named, SHIPPED_GAMES / named.name):
                if candidate.is_file():
                    return load_game(candidate), f"the game its header names, {named}"
            raise LogError(f"its header names the game {str(named)!r}, which is not there (nor "
                           f"beside the log nor shipped): pass --game FILE")
        if not line.startswith("#") and line.strip():
            return None
    return None


def _betting_texts(lines: Iterable[str]) -> Iterable[str]:
    for line in lines:
        if line.startswith("STATE:"):
            fields = line.split(":")
            if len(fields) > 2:
                yield fields[2]
        elif _is_bot_hand_line(line):
            fields = line.split()
            if len(fields) > 3:
                yield fields[3]


def log_game(lines: Sequence[str], source: str | Path = "<log>") -> tuple[Game, str]:
    """The game a log was played in, and how that was found (for messages): the game its header
    names; else the shipped heads-up no-limit game if its raises carry sizes (`r300`), the limit
    one if they do not (`r`); else a `LogError` asking for `--game`."""
    try:
        found = _header_game(lines, Path(source).parent)
    except LogError as error:
        raise LogError(f"{source}: {error}") from None
    if found is not None:
        return found
    sized = bare = False
    for betting in _betting_texts(lines):
        sized = sized or bool(_SIZED_RAISE.search(betting))
        bare = bare or bool(_BARE_RAISE.search(betting))
    if sized and not bare:
        return load_game(NO_LIMIT_GAME), f"{NO_LIMIT_GAME}, as its raises carry sizes"
    if bare and not sized:
        return load_game(LIMIT_GAME), f"{LIMIT_GAME}, as its raises carry no sizes"
    why = "raises with and without sizes" if sized else "no raise"
    raise LogError(f"{source}: cannot tell the game: no header names one and the betting shows "
                   f"{why}; pass --game FILE")


def read_log(game: Game | None, path: str | Path) -> list[LoggedHand]:
    """Every hand of the log file at `path` (either format), in `game`, or with `game=None` in
    the game the log shows (`log_game`)."""
    return log_hands(game, read_log_lines(path), path)


def log_hands(game: Game | None, lines: Sequence[str], path: str | Path) -> list[LoggedHand]:
    """`read_log` of lines already read from the file at `path` (for callers that also read
    other lines of it, as `gambler-report` reads a portfolio's `adapt` lines)."""
    if game is not None:
        return parse_log(game, lines, str(path))
    if not any(line.startswith("STATE:") or _is_bot_hand_line(line) for line in lines):
        return parse_log(load_game(NO_LIMIT_GAME), lines, str(path))  # no hands: any game will do
    game, how = log_game(lines, path)
    try:
        return parse_log(game, lines, str(path))
    except LogError as error:
        raise LogError(f"{error} (read as {how}; pass --game FILE if it was another)") from None
