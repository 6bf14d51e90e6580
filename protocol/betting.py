"""The betting rules of the ACPC server (`game.c`), as a pure, immutable state machine.

A `BettingState` is everything the betting has determined; `apply` returns a new state and never
changes the old one. Every amount is a hand total (blinds and earlier rounds included) and is
named `*_to`: `r300` means "raise so that my total in this hand is 300 chips".

The rules, as the server applies them:

1. The hand starts with each position's blind in `spent`. No-limit: the minimum raise-to is twice
   the largest blind (or 1 chip without blinds).
2. The player to act is the first position after the previous actor (in round r's first action:
   from `first_player[r]`) that has neither folded nor gone all-in.
3. Fold is legal only when the player owes chips and is not all-in: folding when checking is free
   is not. Check/call is always legal; a call that the stack cannot cover puts the player all-in.
4. A raise is legal while the round has had fewer than `max_raises[r]` raises and at least two
   players can still act (nobody raises against an all-in opponent heads-up). No-limit sizes run
   from the minimum raise-to to the stack; when the minimum exceeds the stack, the only size is
   all-in (if that still raises). After a raise from M to N the minimum becomes
   max(old minimum, N + (N - M)). Limit raises add `raise_sizes[r]` (capped at the stack).
5. A round closes when every player who can act has called the last raise (or checked) since it:
   preflop the big blind keeps its option after a limp. Then the next round starts with minimum
   raise-to = largest bet + big blind; after the last round, or when fewer than two players can
   still act, the hand is over (an all-in call deals the remaining board and goes to showdown,
   which the betting string shows as empty rounds: `r20000c///`).
6. Payoffs: a folder loses what it spent; the last player in wins everyone's; at showdown each
   side pot, smallest first, goes to the best hand among the players who paid into it, ties split.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from gambler.protocol.errors import IllegalActionError, ProtocolError
from gambler.protocol.gamedef import Game

FOLD = "f"
CALL = "c"
RAISE = "r"
MAX_ACTIONS_PER_ROUND = 64  # the server's MAX_NUM_ACTIONS


@dataclass(frozen=True, slots=True)
class Action:
    """One betting action. `raise_to` is the raiser's total after a raise, else 0."""

    kind: str
    raise_to: int = 0

    def encode(self, no_limit: bool = True) -> str:
        """The wire form: `f`, `c`, `r` (limit) or `r<raise_to>` (no-limit)."""
        if self.kind == RAISE and no_limit:
            return f"r{self.raise_to}"
        return self.kind

    def __str__(self) -> str:
        return self.encode(self.raise_to > 0)


FOLD_ACTION = Action(FOLD)
CALL_ACTION = Action(CALL)


def raise_to(total: int) -> Action:
    """A raise to `total` chips in the hand (for limit games, the total is implied: use 0)."""
    return Action(RAISE, total)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do."""

    can_fold: bool              # something is owed, so folding is allowed
    call_to: int                # the player's total after checking or calling
    min_raise_to: int | None    # smallest legal raise-to, None when no raise is legal
    max_raise_to: int | None    # largest legal raise-to (the stack in no-limit)

    @property
    def can_raise(self) -> bool:
        return self.min_raise_to is not None

    def clamp(self, target: int) -> int:
        """`target` moved into the legal raise range (a raise must be legal)."""
        if self.min_raise_to is None:
            raise IllegalActionError("no raise is legal here")
        return min(max(target, self.min_raise_to), self.max_raise_to)


@dataclass(frozen=True, slots=True)
class BettingState:
    """The betting of one hand so far; `BettingState.start(game)` is the state after the blinds."""

    game: Game
    spent: tuple[int, ...]                   # per position: chips put in this hand, blinds too
    max_spent: int                           # the largest entry of `spent`: the bet to call
    min_raise_to: int                        # no-limit: smallest raise-to before stack limits
    round: int                               # betting round, 0 = preflop
    actions: tuple[tuple[Action, ...], ...]  # per round so far (round + 1 entries)
    actors: tuple[tuple[int, ...], ...]      # the position behind each action
    folded: tuple[bool, ...]                 # per position
    finished: bool                           # the hand is over
    round_start: tuple[int, ...] = ()        # `spent` when this round began (the blinds preflop)
    to_act: int = field(init=False, compare=False)  # position to act (-1 once finished)
    _text: str | None = field(init=False, compare=False, repr=False)  # betting_string() cache

    def __post_init__(self):
        # Derived fields of a frozen object, set once at its birth.
        object.__setattr__(self, "to_act", self._next_to_act())
        object.__setattr__(self, "_text", None)

    @classmethod
    def start(cls, game: Game) -> BettingState:
        max_spent = max(game.blinds)
        if game.no_limit:
            min_raise_to = 2 * max_spent if max_spent > 0 else 1
        else:
            min_raise_to = 0
        return cls(game=game, spent=tuple(game.blinds), max_spent=max_spent,
                   min_raise_to=min_raise_to, round=0, actions=((),), actors=((),),
                   folded=(False,) * game.num_players, finished=False,
                   round_start=tuple(game.blinds))

    # --- who is where ---------------------------------------------------------------------------

    def is_all_in(self, position: int) -> bool:
        return self.spent[position] >= self.game.stacks[position]

    def can_act(self, position: int) -> bool:
        """Neither folded nor all-in."""
        return not self.folded[position] and not self.is_all_in(position)

    @property
    def acting_players(self) -> int:
        return sum(self.can_act(position) for position in range(self.game.num_players))

    @property
    def current_player(self) -> int | None:
        """The position to act, or None once the hand is over."""
        return None if self.to_act < 0 else self.to_act

    def _next_to_act(self) -> int:
        """The server's `currentPlayer`: the next position after the last actor (or before the
        round's first player) that can still act; -1 once the hand is over."""
        if self.finished:
            return -1
        players = self.game.num_players
        if self.actors[self.round]:
            position = self.actors[self.round][-1]
        else:
            position = self.game.first_player[self.round] + players - 1
        for _ in range(players):
            position = (position + 1) % players
            if self.can_act(position):
                return position
        return -1  # only inside `apply`, before the round is closed


    @property
    def raises_this_round(self) -> int:
        return sum(action.kind == RAISE for action in self.actions[self.round])

    @property
    def board_cards_visible(self) -> int:
        """Board cards dealt so far (all of them once an all-in call ends the betting)."""
        return self.game.board_cards_through(self.round)

    def pot(self) -> int:
        return sum(self.spent)

    # --- what may happen next -----------------------------------------------------------------

    def legal_actions(self) -> LegalActions:
        """The legal actions of the player to act (raises `IllegalActionError` when finished)."""
        player = self.current_player
        if player is None:
            raise IllegalActionError("the hand is over: nobody acts")
        stack = self.game.stacks[player]
        can_fold = self.spent[player] < self.max_spent and not self.is_all_in(player)
        call_to = min(self.max_spent, stack)
        low, high = self._raise_range(player)
        return LegalActions(can_fold=can_fold, call_to=call_to, min_raise_to=low, max_raise_to=high)

    def _raise_range(self, player: int) -> tuple[int | None, int | None]:
        game = self.game
        if self.raises_this_round >= game.max_raises[self.round]:
            return None, None
        if len(self.actions[self.round]) + game.num_players > MAX_ACTIONS_PER_ROUND:
            return None, None
        if self.acting_players <= 1:
            return None, None
        stack = game.stacks[player]
        if not game.no_limit:
            total = min(self.max_spent + game.raise_sizes[self.round], stack)
            if total <= self.max_spent:
                return None, None  # the stack cannot raise at all
            return total, total
        if self.min_raise_to > stack:
            if self.max_spent >= stack:
                return None, None
            return stack, stack
        return self.min_raise_to, stack

    def check_legal(self, action: Action) -> Action:
        """The action with a limit raise's total filled in; `IllegalActionError` if not legal."""
        legal = self.legal_actions()
        if action.kind == FOLD:
            if not legal.can_fold:
                raise IllegalActionError("fold is not legal when checking is free")
            return FOLD_ACTION
        if action.kind == CALL:
            return CALL_ACTION
        if action.kind != RAISE:
            raise IllegalActionError(f"unknown action kind {action.kind!r}")
        if not legal.can_raise:
            raise IllegalActionError("no raise is legal here")
        if not self.game.no_limit:
            if action.raise_to not in (0, legal.min_raise_to):
                raise IllegalActionError(f"a limit raise goes to {legal.min_raise_to}, "
                                         f"not {action.raise_to}")
            return Action(RAISE, legal.min_raise_to)
        if not legal.min_raise_to <= action.raise_to <= legal.max_raise_to:
            raise IllegalActionError(f"raise to {action.raise_to} is outside the legal range "
                                     f"{legal.min_raise_to}..{legal.max_raise_to}")
        return action

    def repair(self, action: Action) -> tuple[Action, str | None]:
        """The dealer's repair of a requested action: (the action taken, a warning or None).

        As the ACPC dealer does: a fold when checking is free, or a raise when none is legal,
        becomes a call; a no-limit raise below the minimum or above the stack is moved to it.
        """
        legal = self.legal_actions()
        if action.kind == RAISE:
            if not legal.can_raise:
                return CALL_ACTION, "invalid action, changed to call"
            if not self.game.no_limit:
                return Action(RAISE, legal.min_raise_to), None
            if action.raise_to < legal.min_raise_to:
                return (Action(RAISE, legal.min_raise_to),
                        f"raise of {action.raise_to} increased to {legal.min_raise_to}")
            if action.raise_to > legal.max_raise_to:
                return (Action(RAISE, legal.max_raise_to),
                        f"raise of {action.raise_to} decreased to {legal.max_raise_to}")
            return action, None
        if action.kind == FOLD and not legal.can_fold:
            return CALL_ACTION, "invalid action, changed to call"
        return (FOLD_ACTION if action.kind == FOLD else CALL_ACTION), None

    def apply(self, action: Action) -> BettingState:
        """The state after `action` by the player to act (`IllegalActionError` if not legal)."""
        action = self.check_legal(action)
        game = self.game
        player = self.current_player
        spent = list(self.spent)
        folded = self.folded
        max_spent = self.max_spent
        min_raise_to = self.min_raise_to
        if action.kind == FOLD:
            folded = folded[:player] + (True,) + folded[player + 1:]
        elif action.kind == CALL:
            spent[player] = min(max_spent, game.stacks[player])
        else:
            if game.no_limit:
                min_raise_to = max(min_raise_to, 2 * action.raise_to - max_spent)
            max_spent = action.raise_to
            spent[player] = max_spent
        round_ = self.round
        actions = self.actions[:round_] + (self.actions[round_] + (action,),)
        actors = self.actors[:round_] + (self.actors[round_] + (player,),)
        return BettingState(game, tuple(spent), max_spent, min_raise_to, round_, actions, actors,
                            folded, False, self.round_start)._close_round_if_done()

    def _close_round_if_done(self) -> BettingState:
        game = self.game
        if sum(self.folded) + 1 >= game.num_players:
            return replace(self, finished=True)
        acting = self.acting_players
        if self._players_called() < acting:
            return self
        if acting > 1 and self.round + 1 < game.num_rounds:
            return replace(self, round=self.round + 1, actions=self.actions + ((),),
                           actors=self.actors + ((),),
                           min_raise_to=self.max_spent + max(max(game.blinds), 1),
                           round_start=self.spent)
        # Fewer than two players can bet (or the last round closed): deal out, show down.
        last = game.num_rounds - 1
        missing = last - self.round
        return replace(self, finished=True, round=last,
                       actions=self.actions + ((),) * missing,
                       actors=self.actors + ((),) * missing)

    def _players_called(self) -> int:
        """Players, not all-in, who have called (or made) the round's last bet: `numCalled`."""
        called = 0
        for action, player in zip(reversed(self.actions[self.round]),
                                  reversed(self.actors[self.round])):
            if action.kind == FOLD:
                continue
            if not self.is_all_in(player):
                called += 1
            if action.kind == RAISE:
                break
        return called

    # --- encoding -------------------------------------------------------------------------------

    def betting_string(self) -> str:
        """The betting in the MATCHSTATE form: rounds separated by `/`, e.g. `cc/r250c/`."""
        if self._text is None:
            no_limit = self.game.no_limit
            text = "/".join("".join(action.encode(no_limit) for action in round_actions)
                            for round_actions in self.actions)
            object.__setattr__(self, "_text", text)
        return self._text

    # --- the end of the hand --------------------------------------------------------------------

    def payoffs(self, hole_cards: Sequence[Sequence[int]] = (),
                board: Sequence[int] = ()) -> tuple[float, ...]:
        """Chips won (+) or lost (-) by each position; they sum to zero.

        A showdown needs the hole cards of every player still in and the visible board.
        """
        if not self.finished:
            raise ProtocolError("payoffs of an unfinished hand")
        players = self.game.num_players
        if sum(self.folded) + 1 >= players:
            total = self.pot()
            return tuple(float(total - self.spent[p]) if not self.folded[p]
                         else float(-self.spent[p]) for p in range(players))
        from gambler.protocol.showdown import hand_strength  # evaluator import only when needed

        visible = tuple(board[:self.board_cards_visible])
        strengths = {}
        for position in range(players):
            if not self.folded[position]:
                cards = tuple(hole_cards[position]) if position < len(hole_cards) else ()
                if len(cards) != self.game.num_hole_cards:
                    raise ProtocolError(f"showdown needs the hole cards of position {position}")
                strengths[position] = hand_strength(cards + visible)
        return _split_pots(self.spent, strengths)



def allin_round(betting: BettingState) -> int | None:
    """The round in which the betting of a finished hand ended with board cards still to come
    (an all-in and its call before the last round), or None (a fold, or a showdown after the
    last round's betting): the hands the all-in adjustment scores by equity."""
    if not betting.finished or any(betting.folded):
        return None
    last_bet = max((round_ for round_, actions in enumerate(betting.actions) if actions),
                   default=0)
    return last_bet if last_bet < betting.game.num_rounds - 1 else None

def _split_pots(spent: Sequence[int], strengths: dict[int, object]) -> tuple[float, ...]:
    """Side pots from the smallest stake up, each to the best hand among those who paid in."""
    values = [Fraction(0)] * len(spent)
    paid_level = 0
    for level in sorted(set(amount for amount in spent if amount > 0)):
        layer = level - paid_level
        contributors = [p for p, amount in enumerate(spent) if amount >= level]
        eligible = [p for p in contributors if p in strengths]
        if not eligible:  # cannot happen under the rules; refund rather than lose chips
            paid_level = level
            continue
        best = max(strengths[p] for p in eligible)
        winners = [p for p in eligible if strengths[p] == best]
        share = Fraction(layer * len(contributors), len(winners))
        for p in contributors:
            values[p] -= layer
        for p in winners:
            values[p] += share
        paid_level = level
    return tuple(float(value) for value in values)


_ACTION_TOKEN = re.compile(r"([fc])|r([0-9]*)|(/)|(.)", re.DOTALL)


def parse_betting(game: Game, text: str) -> BettingState:
    """The state reached by a betting string (`cr300c/cc/`), checked action by action.

    The string must be exactly the canonical one the server prints for that state; anything else
    (an illegal action, a misplaced `/`, a stray character) raises `ProtocolError` naming it.
    Parsing is a pure function of (game, text), so results are memoised: within a hand each new
    line costs only its last action, its prefix having been parsed already.
    """
    return _parse_betting(game, text)


@functools.lru_cache(maxsize=4096)
def _parse_betting(game: Game, text: str) -> BettingState:
    matches = list(_ACTION_TOKEN.finditer(text))
    last = len(matches) - 1
    while last >= 0 and matches[last].group(3):  # trailing '/'s belong to the last action
        last -= 1
    if last < 0:
        state = BettingState.start(game)
        if text and any(match.group(4) is not None for match in matches):
            bad = next(match for match in matches if match.group(4) is not None)
            raise ProtocolError(f"betting {text!r}: unexpected {bad.group(4)!r} at {bad.start()}")
    else:
        match = matches[last]
        state = _parse_betting(game, text[:match.start()]) if match.start() else \
            BettingState.start(game)
        state = _apply_token(game, state, text, match)
    if state.betting_string() != text:
        raise ProtocolError(f"betting {text!r} is not in the dealer's form "
                            f"{state.betting_string()!r}")
    return state


def _apply_token(game: Game, state: BettingState, text: str, match: re.Match) -> BettingState:
    simple, size, _, other = match.groups()
    if other is not None:
        raise ProtocolError(f"betting {text!r}: unexpected {other!r} at {match.start()}")
    if state.finished:
        raise ProtocolError(f"betting {text!r}: action {match.group(0)!r} after the hand ended")
    if simple:
        action = Action(simple)
    elif game.no_limit:
        if not size or len(size) > 10:
            raise ProtocolError(f"betting {text!r}: raise {match.group(0)!r} needs a size")
        action = Action(RAISE, int(size))
    elif size:
        raise ProtocolError(f"betting {text!r}: limit raise {match.group(0)!r} has a size")
    else:
        action = Action(RAISE)
    try:
        return state.apply(action)
    except IllegalActionError as error:
        raise ProtocolError(f"betting {text!r}: {match.group(0)!r} at {match.start()} "
                            f"is illegal: {error}") from None
