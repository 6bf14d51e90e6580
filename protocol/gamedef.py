"""ACPC game definitions: the `.game` format, parsed into a frozen `Game`.

The format (from the ACPC server's `game.c`): a block between `GAMEDEF` and `END GAMEDEF`
(case-insensitive); lines starting with `#` and blank lines are skipped; each other line is a key
and its values, with an optional `=`:

    nolimit                       (or `limit`, the default)
    numPlayers = 2
    numRounds = 4
    stack = 20000 20000           per player, reset every hand; default 2**31 - 1 (no limit)
    blind = 100 50                per position: chips put in before the cards are dealt
    raiseSize = 10 10 20 20       per round, limit games only: the fixed raise
    firstPlayer = 2 1 1 1         per round, 1-based position that acts first; default 1
    maxRaises = 3 4 4 4           per round; default 255
    numSuits = 4                  the deck holds the top numRanks ranks of the last numSuits suits
    numRanks = 13
    numHoleCards = 2
    numBoardCards = 0 3 1 1       per round

Keys match case-insensitively. The checks are the server's (2..10 players, 1..4 rounds, blinds
within stacks, enough cards in the deck, ...) plus one it lacks: an unknown key or a wrong number
of values is an error rather than silently ignored. Every error names the file, line and key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from gambler.errors import read_text
from gambler.protocol.errors import GameDefinitionError

MAX_PLAYERS = 10
MAX_ROUNDS = 4
MAX_SUITS = 4
MAX_RANKS = 13
MAX_HOLE_CARDS = 3
MAX_BOARD_CARDS = 7
UNLIMITED_STACK = 2**31 - 1  # the server's INT32_MAX: a stack that never runs out
UNLIMITED_RAISES = 255       # the server's UINT8_MAX

SHIPPED_GAMES = Path(__file__).resolve().parent.parent / "configs" / "games"
DEFAULT_GAME = "holdem.nolimit.2p.reverse_blinds.game"

_PER_PLAYER = ("stack", "blind")
_PER_ROUND = ("raisesize", "firstplayer", "maxraises", "numboardcards")
_SCALAR = ("numplayers", "numrounds", "numsuits", "numranks", "numholecards")
_FLAGS = ("limit", "nolimit")
_KEY_NAMES = {key.lower(): key for key in (
    "stack", "blind", "raiseSize", "firstPlayer", "maxRaises", "numBoardCards", "numPlayers",
    "numRounds", "numSuits", "numRanks", "numHoleCards", "limit", "nolimit")}
_LINE = re.compile(r"^\s*([A-Za-z]+)\s*(.*?)\s*$")


@dataclass(frozen=True)
class Game:
    """One game definition. Positions and rounds count from 0; amounts are chips."""

    no_limit: bool                      # True: raises name a size (`r<N>`); False: fixed raises
    num_players: int
    num_rounds: int
    stacks: tuple[int, ...]             # per position: chips available each hand
    blinds: tuple[int, ...]             # per position: chips in before any action
    raise_sizes: tuple[int, ...]        # per round, limit only: the fixed raise-by
    first_player: tuple[int, ...]       # per round: position that acts first (0-based)
    max_raises: tuple[int, ...]         # per round: raises allowed
    num_suits: int
    num_ranks: int
    num_hole_cards: int
    num_board_cards: tuple[int, ...]    # per round: board cards dealt at its start
    source: str = "<game>"              # where the definition came from, for messages

    @property
    def big_blind(self) -> int:
        """The largest blind: the minimum raise-by in no-limit."""
        return max(self.blinds)

    def board_cards_through(self, round_: int) -> int:
        """Board cards visible once round `round_` is dealt."""
        return sum(self.num_board_cards[:round_ + 1])

    @cached_property
    def deck(self) -> tuple[int, ...]:
        """The card codes in play: the top `num_ranks` ranks of the last `num_suits` suits."""
        return tuple(rank * 4 + suit for suit in range(MAX_SUITS - self.num_suits, MAX_SUITS)
                     for rank in range(MAX_RANKS - self.num_ranks, MAX_RANKS))

    @cached_property
    def deck_set(self) -> frozenset[int]:
        return frozenset(self.deck)

    @property
    def is_heads_up_holdem(self) -> bool:
        """Two players, a full deck, two hole cards and a 3-1-1 board over four rounds."""
        return (self.num_players == 2 and self.num_rounds == 4 and self.num_suits == 4
                and self.num_ranks == 13 and self.num_hole_cards == 2
                and self.num_board_cards == (0, 3, 1, 1))

    def describe(self) -> str:
        """The definition in the `.game` format (the server's `printGame`)."""
        lines = ["GAMEDEF", "nolimit" if self.no_limit else "limit",
                 f"numPlayers = {self.num_players}", f"numRounds = {self.num_rounds}"]
        if any(stack < UNLIMITED_STACK for stack in self.stacks):
            lines.append("stack = " + " ".join(map(str, self.stacks)))
        lines.append("blind = " + " ".join(map(str, self.blinds)))
        if not self.no_limit:
            lines.append("raiseSize = " + " ".join(map(str, self.raise_sizes)))
        if any(self.first_player):
            lines.append("firstPlayer = " + " ".join(str(p + 1) for p in self.first_player))
        if any(raises != UNLIMITED_RAISES for raises in self.max_raises):
            lines.append("maxRaises = " + " ".join(map(str, self.max_raises)))
        lines += [f"numSuits = {self.num_suits}", f"numRanks = {self.num_ranks}",
                  f"numHoleCards = {self.num_hole_cards}",
                  "numBoardCards = " + " ".join(map(str, self.num_board_cards)), "END GAMEDEF"]
        return "\n".join(lines) + "\n"


def parse_game(text: str, source: str = "<game>") -> Game:
    """Parse the text of a `.game` file; `source` names it in error messages."""
    entries: dict[str, tuple[list[int], int]] = {}
    no_limit = False
    inside = ended = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        lowered = " ".join(line.lower().split())
        if lowered == "end gamedef":
            if not inside:
                raise GameDefinitionError(f"{source}:{number}: END GAMEDEF before GAMEDEF")
            ended = True
            break
        if lowered == "gamedef":
            inside = True
            continue
        if not inside:
            raise GameDefinitionError(f"{source}:{number}: expected GAMEDEF, found {line!r}")
        match = _LINE.match(line)
        key = match.group(1).lower() if match else ""
        if key not in _KEY_NAMES:
            shown = match.group(1) if match else line
            raise GameDefinitionError(f"{source}:{number}: unknown key {shown!r}")
        rest = match.group(2)
        if key in _FLAGS:
            if rest:
                raise GameDefinitionError(f"{source}:{number}: {_KEY_NAMES[key]} takes no value")
            no_limit = key == "nolimit"
            continue
        if rest.startswith("="):
            rest = rest[1:]
        values = []
        for token in rest.split():
            try:
                value = int(token)
            except ValueError:
                raise GameDefinitionError(f"{source}:{number}: {_KEY_NAMES[key]}: {token!r} "
                                          "is not an integer") from None
            if value < 0:
                raise GameDefinitionError(f"{source}:{number}: {_KEY_NAMES[key]}: {value} "
                                          "is negative")
            values.append(value)
        if not values:
            raise GameDefinitionError(f"{source}:{number}: {_KEY_NAMES[key]} has no value")
        if key in entries:
            raise GameDefinitionError(f"{source}:{number}: {_KEY_NAMES[key]} given twice "
                                      f"(first on line {entries[key][1]})")
        entries[key] = (values, number)
    if not inside:
        raise GameDefinitionError(f"{source}: no GAMEDEF block")
    if not ended:
        raise GameDefinitionError(f"{source}: GAMEDEF is not closed by END GAMEDEF")
    return _build(entries, no_limit, source)


def _build(entries: dict[str, tuple[list[int], int]], no_limit: bool, source: str) -> Game:
    def where(key: str) -> str:
        return f"{source}:{entries[key][1]}" if key in entries else source

    def scalar(key: str, low: int, high: int) -> int:
        if key not in entries:
            raise GameDefinitionError(f"{source}: {_KEY_NAMES[key]} is missing")
        values, _ = entries[key]
        if len(values) != 1:
            raise GameDefinitionError(f"{where(key)}: {_KEY_NAMES[key]} takes one value, "
                                      f"not {len(values)}")
        if not low <= values[0] <= high:
            raise GameDefinitionError(f"{where(key)}: {_KEY_NAMES[key]} = {values[0]} is "
                                      f"outside {low}..{high}")
        return values[0]

    def vector(key: str, count: int, what: str, default: int | None) -> tuple[int, ...]:
        if key not in entries:
            if default is None:
                raise GameDefinitionError(f"{source}: {_KEY_NAMES[key]} is missing")
            return (default,) * count
        values, _ = entries[key]
        if len(values) != count:
            raise GameDefinitionError(f"{where(key)}: {_KEY_NAMES[key]} needs {count} values "
                                      f"(one per {what}), found {len(values)}")
        return tuple(values)

    num_players = scalar("numplayers", 2, MAX_PLAYERS)
    num_rounds = scalar("numrounds", 1, MAX_ROUNDS)
    stacks = vector("stack", num_players, "player", UNLIMITED_STACK)
    blinds = vector("blind", num_players, "player", None)
    for position, (blind, stack) in enumerate(zip(blinds, stacks)):
        if stack == 0:
            raise GameDefinitionError(f"{where('stack')}: stack of player {position + 1} is 0")
        if blind > stack:
            raise GameDefinitionError(f"{where('blind')}: blind of player {position + 1} "
                                      f"({blind}) is larger than its stack ({stack})")
    if no_limit:  # allowed, and unused: no-limit raises name their size
        raise_sizes = vector("raisesize", num_rounds, "round", 0)
    else:
        raise_sizes = vector("raisesize", num_rounds, "round", None)
        if 0 in raise_sizes:
            raise GameDefinitionError(f"{where('raisesize')}: raiseSize must be positive")
    first_player = vector("firstplayer", num_rounds, "round", 1)
    for round_, first in enumerate(first_player):
        if not 1 <= first <= num_players:
            raise GameDefinitionError(f"{where('firstplayer')}: firstPlayer {first} on round "
                                      f"{round_ + 1} is not a player 1..{num_players}")
    max_raises = vector("maxraises", num_rounds, "round", UNLIMITED_RAISES)
    num_suits = scalar("numsuits", 1, MAX_SUITS)
    num_ranks = scalar("numranks", 1, MAX_RANKS)
    num_hole_cards = scalar("numholecards", 1, MAX_HOLE_CARDS)
    num_board_cards = vector("numboardcards", num_rounds, "round", None)
    if sum(num_board_cards) > MAX_BOARD_CARDS:
        raise GameDefinitionError(f"{where('numboardcards')}: {sum(num_board_cards)} board "
                                  f"cards, at most {MAX_BOARD_CARDS}")
    if num_hole_cards * num_players + sum(num_board_cards) > num_suits * num_ranks:
        raise GameDefinitionError(f"{source}: too many hole and board cards for a deck of "
                                  f"{num_suits * num_ranks}")
    return Game(no_limit=no_limit, num_players=num_players, num_rounds=num_rounds,
                stacks=stacks, blinds=blinds, raise_sizes=raise_sizes,
                first_player=tuple(first - 1 for first in first_player), max_raises=max_raises,
                num_suits=num_suits, num_ranks=num_ranks, num_hole_cards=num_hole_cards,
                num_board_cards=num_board_cards, source=source)


def find_game_file(name: str | Path) -> Path:
    """A `.game` file by path, or by the name of a shipped one (`configs/games/`)."""
    path = Path(name)
    if path.is_file():
        return path
    shipped = SHIPPED_GAMES / path.name
    if path.parent == Path(".") and shipped.is_file():
        return shipped
    available = ", ".join(sorted(p.name for p in SHIPPED_GAMES.glob("*.game")))
    raise GameDefinitionError(f"no game file {str(name)!r} (shipped games: {available})")


def load_game(name: str | Path = DEFAULT_GAME) -> Game:
    """Read a game definition from a path or a shipped name."""
    path = find_game_file(name)
    text = read_text(path, GameDefinitionError)
    return parse_game(text, source=str(name))
