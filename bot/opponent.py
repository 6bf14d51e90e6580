"""What an opponent does, counted over a match: the statistics an opponent model is fitted to.

`OpponentStats.observe(state)` takes each finished hand (the final state the dealer sends, seen
from our seat) and replays its betting from the blinds. For the opponent's position p (in the
reverse-blinds game 0 is the big blind, 1 the small blind) and each round r it counts, in the
terms of the exploiter family (`bot.exploiters`), so that a member can be fitted to them:

* **opens**: the times it acted with nothing owed (to_call = 0), and how often it bet or raised
  then, with each bet's size in pots: (raise-to - largest total) / pot before the bet.
* **facing**: the bets and raises it faced, by their size r = to_call / (pot - to_call) (the bet
  over the pot it was made into: 1 is a pot-sized bet; the big blind itself is a bet of 1/2 pot
  to the small blind preflop) in the buckets of `SIZE_BUCKETS`, and what it did: fold, call or
  raise.
* **entered** (per position): hands in which it put chips in voluntarily before the flop (a call
  of something owed or a raise: VPIP, the big blind's free check does not count), out of hands.
* **showdowns**: at each showdown where its cards are shown, the win rate v of its cards against
  a random hand on the final board (`evaluator.win_rate`), by its line: the last round in which
  it bet or raised (-1: never).

Everything is a count or a list of numbers, `as_dict()` gives them for JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gambler.protocol.betting import BettingState
from gambler.protocol.matchstate import MatchState

#: Upper bounds (pots) of the facing-size buckets; the last bucket is everything above 5 pots.
SIZE_BUCKETS = (0.5, 1.0, 2.0, 5.0, float("inf"))
ROUNDS = 4
ANSWERS = ("fold", "call", "raise")


def size_bucket(size: float) -> int:
    """The index of the first bucket whose bound is at least `size`."""
    for index, bound in enumerate(SIZE_BUCKETS):
        if size <= bound:
            return index
    return len(SIZE_BUCKETS) - 1


@dataclass
class RoundStats:
    """One position's counts in one round."""

    opens: int = 0                       # acted with nothing owed
    bets: int = 0                        # ... and bet or raised
    bet_sizes: list[float] = field(default_factory=list)  # those bets, in pots
    facing: list[list[int]] = field(
        default_factory=lambda: [[0, 0, 0] for _ in SIZE_BUCKETS])  # [bucket][fold, call, raise]

    def as_dict(self) -> dict:
        return {"opens": self.opens, "bets": self.bets, "bet_sizes": list(self.bet_sizes),
                "facing": [dict(zip(ANSWERS, row)) for row in self.facing]}


@dataclass
class PositionStats:
    hands: int = 0
    entered: int = 0
    rounds: list[RoundStats] = field(default_factory=lambda: [RoundStats()
                                                              for _ in range(ROUNDS)])
    showdowns: dict[int, list[float]] = field(default_factory=dict)  # line -> v shown

    def as_dict(self) -> dict:
        return {"hands": self.hands, "entered": self.entered,
                "rounds": [stats.as_dict() for stats in self.rounds],
                "showdowns": {str(line): values for line, values in
                              sorted(self.showdowns.items())}}


class OpponentStats:
    """The opponent's counts by its position (module docstring). `win_rate(hole, board)` gives
    the v of shown cards (default: the exact `evaluator.win_rate`)."""

    def __init__(self, win_rate=None):
        self.positions = [PositionStats(), PositionStats()]
        self._win_rate = win_rate

    def observe(self, state: MatchState) -> None:
        """Count a finished hand (the final state, from our seat `state.position`)."""
        opponent = 1 - state.position
        stats = self.positions[opponent]
        stats.hands += 1
        betting = BettingState.start(state.game)
        entered = False
        last_raise_round = -1
        for round_, (actions, actors) in enumerate(zip(state.betting.actions,
                                                       state.betting.actors)):
            for action, actor in zip(actions, actors):
                if actor == opponent:
                    to_call = betting.max_spent - betting.spent[actor]
                    pot = sum(betting.spent)
                    counts = stats.rounds[round_]
                    if to_call == 0:
                        counts.opens += 1
                        if action.kind == "r":
                            counts.bets += 1
                            counts.bet_sizes.append((action.raise_to - betting.max_spent) / pot)
                    else:
                        answer = ANSWERS.index({"f": "fold", "c": "call", "r": "raise"}[action.kind])
                        counts.facing[size_bucket(to_call / (pot - to_call))][answer] += 1
                    if action.kind == "r":
                        last_raise_round = round_
                    if round_ == 0 and (action.kind == "r" or (action.kind == "c" and to_call)):
                        entered = True
                betting = betting.apply(action)
        stats.entered += entered
        holes = state.hole_cards
        if (not any(state.betting.folded) and len(holes) > opponent and len(holes[opponent]) == 2
                and len(state.board) == 5):
            stats.showdowns.setdefault(last_raise_round, []).append(
                self.shown_v(holes[opponent], state.board))

    def shown_v(self, hole, board) -> float:
        if self._win_rate is not None:
            return self._win_rate(hole, board)
        from gambler.evaluator import win_rate
        return win_rate(hole, board).v

    def as_dict(self) -> dict:
        return {"size_buckets": [bound if bound != float("inf") else None
                                 for bound in SIZE_BUCKETS],
                "positions": [stats.as_dict() for stats in self.positions]}
