"""The MATCHSTATE codec: one dealer line <-> a `MatchState`.

    MATCHSTATE:<position>:<hand>:<betting>:<cards>

* position: the receiver's position in this hand (heads-up reverse blinds: 0 = big blind);
* hand: the hand number, from 0;
* betting: the actions so far, rounds separated by `/`, `r<N>` a raise *to* N chips in the
  hand (limit games: bare `r`); a trailing `/` means a new round was dealt and nobody has acted
  (`cc/`), and after an all-in call the remaining rounds are empty (`r20000c///`);
* cards: each position's hole cards separated by `|` (empty when the receiver may not see them),
  then the board, one `/`-prefixed group per round after the first: `7s5s|/AhKh6c/4d`.

`parse_matchstate` accepts exactly what the ACPC dealer prints and rebuilds the whole hand from
the line (the state of every earlier action included), so `encode()` gives the line back byte for
byte. Anything else raises `ProtocolError` naming the part that is wrong.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from gambler.evaluator.cards import RANKS, SUITS, card_text
from gambler.protocol.betting import CALL, FOLD, RAISE, Action, BettingState, parse_betting
from gambler.protocol.errors import ProtocolError
from gambler.protocol.gamedef import Game

PREFIX = "MATCHSTATE"
_CARD = {rank + suit: index * 4 + suit_index for index, rank in enumerate(RANKS)
         for suit_index, suit in enumerate(SUITS)}
_NUMBER = re.compile(r"0|[1-9][0-9]{0,9}")


@dataclass(frozen=True, slots=True)
class MatchState:
    """One dealer message, as the receiving position sees it."""

    position: int                              # the receiver's position this hand
    hand: int                                  # hand number, from 0
    betting: BettingState                      # the whole hand's betting so far
    hole_cards: tuple[tuple[int, ...], ...]    # per position; () where not shown
    board: tuple[int, ...]                     # board cards dealt so far, in order

    @property
    def game(self) -> Game:
        return self.betting.game

    @property
    def is_our_turn(self) -> bool:
        return self.betting.current_player == self.position

    @property
    def our_hole(self) -> tuple[int, ...]:
        return self.hole_cards[self.position]

    @property
    def finished(self) -> bool:
        return self.betting.finished

    def encode(self) -> str:
        """The line the dealer sends for this state (without `\\r\\n`)."""
        return (f"{PREFIX}:{self.position}:{self.hand}:{self.betting.betting_string()}:"
                f"{format_cards_field(self.game, self.betting.round, self.hole_cards, self.board)}")

    def payoffs(self) -> tuple[float, ...]:
        """Each position's result, once the hand is over and every needed card is shown."""
        return self.betting.payoffs(self.hole_cards, self.board)


def format_cards_field(game: Game, round_: int, hole_cards, board) -> str:
    holes = "|".join("".join(card_text(card) for card in cards) for cards in hole_cards)
    groups, start = [], 0
    for count in game.num_board_cards[:round_ + 1]:
        groups.append("".join(card_text(card) for card in board[start:start + count]))
        start += count
    return holes + groups[0] + "".join("/" + group for group in groups[1:])


def _number(text: str, line: str, field: str, limit: int) -> int:
    if not _NUMBER.fullmatch(text) or int(text) >= limit:
        raise ProtocolError(f"{line!r}: bad {field} {text!r}")
    return int(text)


def _read_cards(text: str, start: int, most: int) -> tuple[list[int], int]:
    """Up to `most` cards from `text[start:]`: (codes, position after them)."""
    cards = []
    while len(cards) < most and start + 2 <= len(text) and text[start:start + 2] in _CARD:
        cards.append(_CARD[text[start:start + 2]])
        start += 2
    return cards, start


def parse_cards_field(game: Game, round_: int, text: str, line: str):
    """(hole cards per position, board) from the cards field of a line in round `round_`.

    Memoised (a pure function): the field repeats on every line of a betting round.
    """
    try:
        return _parse_cards_field(game, round_, text)
    except ProtocolError as error:
        raise ProtocolError(f"{line!r}: {error}") from None


@functools.lru_cache(maxsize=1024)
def _parse_cards_field(game: Game, round_: int, text: str):
    holes: list[tuple[int, ...]] = []
    cursor = 0
    for position in range(game.num_players):
        if position:
            if text[cursor:cursor + 1] != "|":
                raise ProtocolError(f"cards {text!r}: expected '|' before the hole "
                                    f"cards of position {position}")
            cursor += 1
        cards, cursor = _read_cards(text, cursor, game.num_hole_cards)
        if cards and len(cards) != game.num_hole_cards:
            raise ProtocolError(f"cards {text!r}: position {position} has "
                                f"{len(cards)} hole cards, expected {game.num_hole_cards}")
        holes.append(tuple(cards))
    board: list[int] = []
    for r in range(round_ + 1):
        if r:
            if text[cursor:cursor + 1] != "/":
                raise ProtocolError(f"cards {text!r}: expected '/' before the "
                                    f"board cards of round {r}")
            cursor += 1
        cards, cursor = _read_cards(text, cursor, game.num_board_cards[r])
        if len(cards) != game.num_board_cards[r]:
            raise ProtocolError(f"cards {text!r}: round {r} needs "
                                f"{game.num_board_cards[r]} board cards, found {len(cards)}")
        board.extend(cards)
    if cursor != len(text):
        raise ProtocolError(f"cards {text!r}: unexpected {text[cursor:]!r}")
    every_card = [card for cards in holes for card in cards] + board
    if len(set(every_card)) != len(every_card):
        raise ProtocolError(f"cards {text!r}: a card appears twice")
    deck = game.deck_set
    for card in every_card:
        if card not in deck:
            raise ProtocolError(f"cards {text!r}: {card_text(card)} is not in "
                                "this game's deck")
    return tuple(holes), tuple(board)


def parse_matchstate(game: Game, line: str) -> MatchState:
    """Parse one dealer line (without the line ending); `ProtocolError` if it is malformed."""
    if not isinstance(line, str):
        raise ProtocolError(f"a MATCHSTATE line must be text, not {type(line).__name__}")
    fields = line.split(":")
    if len(fields) != 5 or fields[0] != PREFIX:
        raise ProtocolError(f"{line!r} is not MATCHSTATE:<position>:<hand>:<betting>:<cards>")
    _, position_text, hand_text, betting_text, cards_text = fields
    position = _number(position_text, line, "position", game.num_players)
    hand = _number(hand_text, line, "hand number", 2**32)
    try:
        betting = parse_betting(game, betting_text)
    except ProtocolError as error:
        raise ProtocolError(f"{line!r}: {error}") from None
    holes, board = parse_cards_field(game, betting.round, cards_text, line)
    if not holes[position]:
        raise ProtocolError(f"{line!r}: the receiver's own hole cards are missing")
    return MatchState(position, hand, betting, holes, board)


def parse_reply_action(game: Game, text: str) -> Action | None:
    """The action in a client's reply as the ACPC dealer reads it, or None if unreadable.

    One character `f`, `c`/`k` (call), `r`/`b` (raise), either case; a no-limit raise needs a
    size (`r300`); anything after the action is ignored.
    """
    if not text:
        return None
    kind = {"f": FOLD, "c": CALL, "k": CALL, "r": RAISE, "b": RAISE}.get(text[0].lower())
    if kind is None:
        return None
    if kind != RAISE or not game.no_limit:
        return Action(kind)
    size = re.match(r"\s*([+-]?[0-9]{1,10})", text[1:])
    if size is None:
        return None
    return Action(RAISE, int(size.group(1)))
