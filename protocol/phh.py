"""Poker Hand Histories (PHH; Kim 2024, "Poker Hand History File Format Specification"): the
hands of a match log written as PHH, and PHH read back as hands.

A PHH hand is TOML. For heads-up no-limit hold'em (variant `NT`) gambler writes

    variant = 'NT'
    ante_trimming_status = false
    antes = [0, 0]
    blinds_or_straddles = [50, 100]
    min_bet = 100
    starting_stacks = [20000, 20000]
    actions = ['d dh p1 9s8h', 'd dh p2 KdQs', 'p2 cbr 300', 'p1 cc', 'd db 8c4c2d', ...]
    hand = 0
    players = ['gambler', 'opponent']
    finishing_stacks = [19700, 20300]

and a `.phhs` file holds many, each a TOML table named by its ordinal (`[1]`, `[2]`, ...).
The conventions are pokerkit's, the format's reference implementation:

* Heads-up, `blinds_or_straddles` lists the small blind, then the big blind, and the players
  post them reversed: p1 posts the big blind and p2, the button, the small blind. So p1 is the
  ACPC reverse-blinds game's position 0 and p2 its position 1 (the first to act preflop).
* `pN cbr X` is a bet or raise to X chips on the street (the chips of earlier streets not
  counted; preflop the blinds are the street's): the ACPC raise `r<total in the hand>` less what
  each player had in when the street began. `pN cc` checks or calls; `pN f` folds.
* `d dh pN CARDS` deals hole cards, `????` when they are unknown (the other seat's, in a bot's
  own log, when there was no showdown); `d db CARDS` deals board cards.
* At a showdown each player shows (`pN sm CARDS`) once the betting is over, before the cards of
  streets that an all-in left unplayed: first the last street's last bettor or raiser, or its
  first to act if nobody bet, then the other.

Reading takes any PHH hand of heads-up no-limit hold'em with no antes (the ACPC games gambler
plays): the stacks and blinds give the ACPC game (`game_of`), the actions are replayed through
the betting rules (`protocol.betting`), and the finishing stacks, when given, must be the
rules' payoffs. Anything else is a `PhhError` naming the file, the hand and the field or action.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path

from gambler.evaluator.cards import card_code, card_text
from gambler.protocol.betting import (CALL_ACTION, FOLD, FOLD_ACTION, RAISE, BettingState,
                                      raise_to)
from gambler.protocol.errors import ProtocolError
from gambler.protocol.gamedef import Game, load_game, parse_game
from gambler.protocol.logs import NO_LIMIT_GAME, LoggedHand, read_log_lines

UNKNOWN_CARD = "??"


class PhhError(ProtocolError):
    """A hand that cannot be written as PHH, or PHH text that is not a hand gambler can read."""


# --- writing --------------------------------------------------------------------------------

def check_writable(game: Game, where: str = "") -> None:
    """`PhhError` unless hands of `game` can be written: heads-up no-limit hold'em, reverse
    blinds (position 0 the big blind; position 1 first preflop, position 0 after)."""
    small, big = sorted(game.blinds)
    if not (game.no_limit and game.is_heads_up_holdem and game.blinds == (big, small)
            and game.first_player == (1, 0, 0, 0)):
        raise PhhError(f"{where or game.source}: PHH is written for heads-up no-limit hold'em "
                       "with reverse blinds (the ACPC holdem.nolimit.2p.reverse_blinds game)")


def _cards(codes: Sequence[int], count: int) -> str:
    return "".join(card_text(code) for code in codes) if codes else UNKNOWN_CARD * count


def _shows_first(betting: BettingState, last_round: int) -> int:
    """Who shows first at a showdown after round `last_round`'s betting: its last bettor or
    raiser, else its first to act."""
    for action, actor in zip(reversed(betting.actions[last_round]),
                             reversed(betting.actors[last_round])):
        if action.kind == RAISE:
            return actor
    return betting.game.first_player[last_round]


def phh_actions(hand: LoggedHand) -> list[str]:
    """The PHH `actions` of a finished hand (module docstring)."""
    betting = hand.betting
    game = betting.game
    actions = [f"d dh p{position + 1} {_cards(cards, game.num_hole_cards)}"
               for position, cards in enumerate(hand.hole_cards)]
    played = [r for r, round_actions in enumerate(betting.actions) if round_actions]
    last_played = played[-1] if played else 0

    def deal_board(round_: int) -> None:
        start = game.board_cards_through(round_ - 1)
        actions.append("d db " + "".join(card_text(card) for card in
                                         hand.board[start:game.board_cards_through(round_)]))

    state = BettingState.start(game)
    for round_ in range(last_played + 1):
        if round_:
            deal_board(round_)
        street_base = 0 if round_ == 0 else state.max_spent
        for action, actor in zip(betting.actions[round_], betting.actors[round_]):
            if action.kind == RAISE:
                actions.append(f"p{actor + 1} cbr {action.raise_to - street_base}")
            else:
                actions.append(f"p{actor + 1} {'f' if action.kind == FOLD else 'cc'}")
            state = state.apply(action)
    if not any(betting.folded):
        first = _shows_first(betting, last_played)
        for position in (first, 1 - first):
            actions.append(f"p{position + 1} sm "
                           f"{_cards(hand.hole_cards[position], game.num_hole_cards)}")
        for round_ in range(last_played + 1, game.num_rounds):
            deal_board(round_)
    return actions


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "'" + value + "'" if "'" not in value else '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, float):
        return repr(int(value)) if value == int(value) else repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return repr(value)


def hand_to_phh(hand: LoggedHand) -> str:
    """One finished hand as PHH text (TOML, one field a line)."""
    game = hand.betting.game
    check_writable(game, hand.where)
    small, big = sorted(game.blinds)
    stacks = [game.stacks[0], game.stacks[1]]
    fields = {
        "variant": "NT",
        "ante_trimming_status": False,
        "antes": [0, 0],
        "blinds_or_straddles": [small, big],
        "min_bet": big,
        "starting_stacks": stacks,
        "actions": phh_actions(hand),
        "hand": hand.hand,
        "players": list(hand.names),
        "finishing_stacks": [stack + value for stack, value in zip(stacks, hand.values)],
    }
    return "\n".join(f"{key} = {_toml_value(value)}" for key, value in fields.items()) + "\n"


def hands_to_phhs(hands: Iterable[LoggedHand]) -> str:
    """Hands as one `.phhs` text: each a table named by its ordinal from 1."""
    return "\n".join(f"[{number}]\n{hand_to_phh(hand)}"
                     for number, hand in enumerate(hands, start=1))


# --- reading --------------------------------------------------------------------------------

def game_of(small: int, big: int, stacks: Sequence[int]) -> Game:
    """The ACPC reverse-blinds heads-up no-limit hold'em game with these blinds and stacks: the
    shipped one when they are its own."""
    shipped = load_game(NO_LIMIT_GAME)
    if shipped.blinds == (big, small) and shipped.stacks == tuple(stacks):
        return shipped
    return parse_game(
        "GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 4\n"
        f"stack = {stacks[0]} {stacks[1]}\nblind = {big} {small}\nfirstPlayer = 2 1 1 1\n"
        "numSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\n"
        "END GAMEDEF\n", f"PHH blinds {small}/{big}, stacks {stacks[0]}/{stacks[1]}")


def _integers(fields: dict, key: str, count: int, where: str) -> list[int]:
    value = fields.get(key)
    if (not isinstance(value, list) or len(value) != count
            or not all(isinstance(item, int) and not isinstance(item, bool) for item in value)):
        raise PhhError(f"{where}: {key} must be a list of {count} whole numbers, not {value!r}")
    return value


def _parse_cards(text: str, count: int, where: str) -> tuple[int, ...] | None:
    """Card codes of `text` (`count` of them), or None when they are all `??`."""
    if text == UNKNOWN_CARD * count:
        return None
    if len(text) != 2 * count:
        raise PhhError(f"{where}: {text!r} is not {count} cards")
    try:
        return tuple(card_code(text[i:i + 2]) for i in range(0, len(text), 2))
    except ValueError as error:  # the evaluator's CardError
        raise PhhError(f"{where}: {error}") from None


def phh_hand(fields: dict, where: str, number: int = 0) -> LoggedHand:
    """A `LoggedHand` from one PHH hand's fields (parsed TOML); `number` is its hand number when
    it has no `hand` field."""
    if fields.get("variant") != "NT":
        raise PhhError(f"{where}: variant {fields.get('variant')!r}: gambler reads no-limit "
                       "Texas hold'em ('NT')")
    stacks = _integers(fields, "starting_stacks", 2, where)
    if any(_integers(fields, "antes", 2, where)):
        raise PhhError(f"{where}: antes {fields['antes']!r}: ACPC games have no antes")
    small, big = _integers(fields, "blinds_or_straddles", 2, where)
    if not 0 < small <= big:
        raise PhhError(f"{where}: blinds_or_straddles {[small, big]!r}: expected the small "
                       "blind, then the big blind")
    if fields.get("min_bet", big) != big:
        raise PhhError(f"{where}: min_bet {fields['min_bet']!r}: ACPC games' minimum bet is the "
                       f"big blind, {big}")
    try:
        game = game_of(small, big, stacks)
    except ProtocolError as error:
        raise PhhError(f"{where}: {error}") from None
    actions = fields.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PhhError(f"{where}: actions must be a list of strings")
    holes: list[tuple[int, ...] | None] = [None, None]
    dealt = [False, False]
    board: list[int] = []
    state = BettingState.start(game)
    street_base = 0
    for index, text in enumerate(actions):
        at = f"{where}: actions[{index}] {text!r}"
        tokens = text.split("#", 1)[0].split()
        if tokens[:2] == ["d", "dh"] and len(tokens) == 4 and tokens[2] in ("p1", "p2"):
            position = int(tokens[2][1]) - 1
            if dealt[position]:
                raise PhhError(f"{at}: {tokens[2]} was dealt already")
            dealt[position] = True
            holes[position] = _parse_cards(tokens[3], game.num_hole_cards, at)
        elif tokens[:2] == ["d", "db"] and len(tokens) == 3:
            street = _complete_streets(game, len(board)) + 1
            if street >= game.num_rounds:
                raise PhhError(f"{at}: the board has all its cards already")
            if not state.finished and street > state.round:
                raise PhhError(f"{at}: board cards before the street's betting is over")
            cards = _parse_cards(tokens[2], game.num_board_cards[street], at)
            if cards is None:
                raise PhhError(f"{at}: board cards must be known")
            board.extend(cards)
            street_base = state.max_spent
        elif len(tokens) >= 2 and tokens[0] in ("p1", "p2") and tokens[1] in ("f", "cc", "cbr",
                                                                                "sm"):
            position = int(tokens[0][1]) - 1
            if tokens[1] == "sm":
                _show(tokens, position, holes, game, at)
                continue
            if state.finished or state.current_player != position:
                who = "nobody" if state.finished else f"p{state.current_player + 1}"
                raise PhhError(f"{at}: {who} is to act")
            if len(board) != game.board_cards_through(state.round):
                raise PhhError(f"{at}: the street's board cards were not dealt")
            if tokens[1] == "cbr":
                if len(tokens) != 3 or not tokens[2].isdigit():
                    raise PhhError(f"{at}: cbr needs an amount in chips")
                action = raise_to(street_base + int(tokens[2]))
            else:
                if len(tokens) != 2:
                    raise PhhError(f"{at}: unexpected {' '.join(tokens[2:])!r}")
                action = FOLD_ACTION if tokens[1] == "f" else CALL_ACTION
            try:
                state = state.apply(action)
            except ProtocolError as error:
                raise PhhError(f"{at}: {error}") from None
        else:
            raise PhhError(f"{at}: not an action gambler reads (d dh, d db, f, cc, cbr, sm)")
    if not state.finished:
        raise PhhError(f"{where}: the hand is not over after its actions")
    if not all(dealt):
        raise PhhError(f"{where}: hole cards were not dealt to every player")
    showdown = not any(state.folded)
    if len(board) != game.board_cards_through(state.round if not showdown
                                              else game.num_rounds - 1):
        raise PhhError(f"{where}: {len(board)} board cards, not what the hand dealt")
    hole_cards = tuple(cards or () for cards in holes)
    every_card = [card for cards in hole_cards for card in cards] + board
    if len(set(every_card)) != len(every_card):
        raise PhhError(f"{where}: a card is dealt twice")
    try:
        values = state.payoffs(hole_cards, board)
    except ProtocolError as error:
        raise PhhError(f"{where}: {error}") from None
    finishing = fields.get("finishing_stacks")
    if finishing is not None:
        finishing = _integers(fields, "finishing_stacks", 2, where)
        expected = [stack + value for stack, value in zip(stacks, values)]
        if any(abs(got - want) > 1e-9 for got, want in zip(finishing, expected)):
            raise PhhError(f"{where}: finishing_stacks {finishing!r} are not the hand's: "
                           f"{[int(v) if v == int(v) else v for v in expected]!r}")
    names = fields.get("players", ["p1", "p2"])
    if (not isinstance(names, list) or len(names) != 2
            or not all(isinstance(name, str) and name for name in names)):
        raise PhhError(f"{where}: players must be two names")
    hand_number = fields.get("hand", number)
    if not isinstance(hand_number, int) or hand_number < 0:
        raise PhhError(f"{where}: hand {hand_number!r} is not a hand number")
    return LoggedHand(hand_number, state, hole_cards, tuple(board), tuple(values), tuple(names),
                      where)


def _complete_streets(game: Game, dealt: int) -> int:
    """The last round whose board cards are among the first `dealt`."""
    for round_ in range(game.num_rounds):
        if game.board_cards_through(round_) > dealt:
            return round_ - 1
    return game.num_rounds - 1


def _show(tokens, position, holes, game, at) -> None:
    if len(tokens) == 2:  # a muck
        return
    cards = _parse_cards(tokens[2], game.num_hole_cards, at)
    if cards is None:
        return
    if holes[position] is not None and holes[position] != cards:
        raise PhhError(f"{at}: p{position + 1} shows other cards than were dealt")
    holes[position] = cards


def read_phh_text(text: str, source: str = "<phh>") -> list[LoggedHand]:
    """The hands of a `.phh` (one hand) or `.phhs` (tables of hands) text."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"{source}: not TOML: {error}") from None
    if "actions" in document or "variant" in document:
        return [phh_hand(document, source)]
    hands = []
    for number, (key, fields) in enumerate(document.items()):
        if not isinstance(fields, dict):
            raise PhhError(f"{source}: {key!r} is neither a hand's field nor a table of one")
        hands.append(phh_hand(fields, f"{source}: hand [{key}]", number))
    return hands


def read_phh(path: str | Path) -> list[LoggedHand]:
    """The hands of the `.phh` or `.phhs` file at `path` (`LogError` if it cannot be read)."""
    return read_phh_text("\n".join(read_log_lines(path)), str(path))


def is_phh_path(path: str | Path) -> bool:
    return Path(path).suffix in (".phh", ".phhs")
