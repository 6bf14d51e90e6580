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
  raise, with its raises' sizes in the exploiter's terms (raise to bet + s (pot + to_call)).
* **entered** (per position): hands in which it put chips in voluntarily before the flop (a call
  of something owed or a raise: VPIP, the big blind's free check does not count), out of hands.
* **showdowns**: at each showdown where its cards are shown, the win rate v of its cards against
  a random hand on the final board (`evaluator.win_rate`), by its line: the last round in which
  it bet or raised (-1: never).

Everything is a count or a list of numbers, `as_dict()` gives them for JSON.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

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
    raise_sizes: list[float] = field(default_factory=list)  # its raises facing a bet, in pots

    def as_dict(self) -> dict:
        return {"opens": self.opens, "bets": self.bets, "bet_sizes": list(self.bet_sizes),
                "facing": [dict(zip(ANSWERS, row)) for row in self.facing],
                "raise_sizes": list(self.raise_sizes)}


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
                        if action.kind == "r":  # s pots: raise to bet + s (pot + to_call)
                            counts.raise_sizes.append(
                                (action.raise_to - betting.max_spent) / (pot + to_call))
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


# --- the model: an exploiter fitted to the counts ---------------------------------------------

#: Facing rules of the fitted model: the buckets each answers, and the largest size it answers.
MODEL_RULES = (((0, 1), 1.0), ((2, 3), 5.0), ((4,), math.inf))
#: What the model assumes before it has seen anything, as pseudo-counts of weight `PRIOR`:
#: bet a third of the times checked to; fold 40%, call 45%, raise 15% of the bets faced.
PRIOR = 2.0
PRIOR_BET = 1 / 3
PRIOR_ANSWERS = (0.40, 0.45, 0.15)
DEFAULT_BET_SIZE = 0.75
DEFAULT_RAISE_SIZE = 1.0


@functools.lru_cache(maxsize=4)
def random_v(round_: int, deals: int = 2000, seed: int = 7) -> np.ndarray:
    """The sorted v of `deals` random holdings on random boards of `round_` (preflop: every one
    of the 1,326 holdings, exact), from `evaluator.win_rates` (exact; the flop by Monte Carlo
    with 2,000 run-outs a row): the distribution a frequency becomes a threshold on."""
    from gambler.evaluator import win_rates

    generator = np.random.default_rng(seed)
    if round_ == 0:
        holes = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.uint8)
        return np.sort(win_rates(holes).v)
    cards = np.array([generator.permutation(52)[:7] for _ in range(deals)], dtype=np.uint8)
    board = cards[:, 2:2 + 2 + round_]
    samples = 2000 if round_ == 1 else None
    return np.sort(win_rates(cards[:, :2], board, samples=samples).v)


def v_at(round_: int, share: float) -> float:
    """The v below which `share` of random holdings fall in `round_` (a threshold that `share`
    of hands do not reach: 1 - share of them do)."""
    values = random_v(round_)
    return float(np.quantile(values, min(max(share, 0.0), 1.0)))


def _smoothed(counts, prior) -> list[float]:
    total = sum(counts) + PRIOR
    return [(count + PRIOR * p) / total for count, p in zip(counts, prior)]


def fit_exploiter(stats: OpponentStats, name: str = "model"):
    """The member of the exploiter family that plays as the counts say (`bot.exploiters`): per
    position and round, it bets when checked to with the hands above the v that the observed
    share of bets leaves (by `v_at`: random holdings' v, a model that ignores how the earlier
    rounds narrowed the range), at the median size seen; facing a bet in each of
    `MODEL_RULES`' size ranges, it folds the observed share of its hands (the weakest), raises
    the observed share (the strongest) at the median raise size, and calls the rest. Every share
    is smoothed toward `PRIOR_BET` / `PRIOR_ANSWERS` with `PRIOR` pseudo-counts, so an unseen
    situation gets the prior and a rare one little weight."""
    from gambler.bot.exploiters import Exploiter, ExploiterBlock, FacingRule

    blocks = []
    for position in range(2):
        row = []
        for round_, counts in enumerate(stats.positions[position].rounds):
            bet_share = _smoothed((counts.bets, counts.opens - counts.bets),
                                  (PRIOR_BET, 1 - PRIOR_BET))[0]
            rules = []
            for buckets, up_to in MODEL_RULES:
                seen = [sum(counts.facing[b][k] for b in buckets) for k in range(3)]
                fold, _, raise_ = _smoothed(seen, PRIOR_ANSWERS)
                raises = raise_ > 0
                rules.append(FacingRule(
                    up_to=up_to, call_from=v_at(round_, fold),
                    raise_from=v_at(round_, 1 - raise_) if raises else 2.0,
                    size=float(np.median(counts.raise_sizes)) if counts.raise_sizes
                    else DEFAULT_RAISE_SIZE))
            row.append(ExploiterBlock(
                facing=tuple(rules), bet_from=v_at(round_, 1 - bet_share),
                bet_size=float(np.median(counts.bet_sizes)) if counts.bet_sizes
                else DEFAULT_BET_SIZE))
        blocks.append(tuple(row))
    return Exploiter(tuple(blocks), name=name,
                     description="fitted to an opponent's counts (bot.opponent.fit_exploiter)")
