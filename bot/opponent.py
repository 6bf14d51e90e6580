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
* **shown decisions**: in those hands, each of its decisions with the cards it held: (round,
  the size bucket of the bet it faced or -1 with nothing owed, fold / call / raise as 0 / 1 / 2,
  its cards, the board), so that the fit can see *which* hands bet and raise (`decision_v` gives
  the v of its cards on that round's board, computed once and kept).

Everything is a count or a list of numbers, `as_dict()` gives them for JSON.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from gambler.protocol.betting import BettingState
from gambler.protocol.matchstate import MatchState

#: Upper bounds (pots) of the facing-size buckets; the last bucket is everything above 5 pots.
SIZE_BUCKETS = (0.5, 1.0, 2.0, 5.0, float("inf"))
ROUNDS = 4
ANSWERS = ("fold", "call", "raise")  # answer codes 0, 1, 2 (the engine's action codes)
BOARD_CARDS = (0, 3, 4, 5)


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
    # (round, bucket or -1, answer code, hole, board) of each decision in a shown hand
    shown: list[tuple[int, int, int, tuple, tuple]] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"hands": self.hands, "entered": self.entered,
                "rounds": [stats.as_dict() for stats in self.rounds],
                "showdowns": {str(line): values for line, values in
                              sorted(self.showdowns.items())},
                "shown_decisions": len(self.shown)}


class OpponentStats:
    """The opponent's counts by its position (module docstring). `win_rate(hole, board)` gives
    the v of shown cards (default: the exact `evaluator.win_rate`)."""

    def __init__(self, win_rate=None):
        self.positions = [PositionStats(), PositionStats()]
        self._win_rate = win_rate
        self._decision_v: dict[tuple, float] = {}

    def observe(self, state: MatchState) -> None:
        """Count a finished hand (the final state, from our seat `state.position`)."""
        opponent = 1 - state.position
        stats = self.positions[opponent]
        stats.hands += 1
        betting = BettingState.start(state.game)
        entered = False
        last_raise_round = -1
        decisions = []
        for round_, (actions, actors) in enumerate(zip(state.betting.actions,
                                                       state.betting.actors)):
            for action, actor in zip(actions, actors):
                if actor == opponent:
                    to_call = betting.max_spent - betting.spent[actor]
                    pot = sum(betting.spent)
                    counts = stats.rounds[round_]
                    code = "fcr".index(action.kind)
                    if to_call == 0:
                        decisions.append((round_, -1, code))
                        counts.opens += 1
                        if action.kind == "r":
                            counts.bets += 1
                            counts.bet_sizes.append((action.raise_to - betting.max_spent) / pot)
                    else:
                        bucket = size_bucket(to_call / (pot - to_call))
                        decisions.append((round_, bucket, code))
                        counts.facing[bucket][code] += 1
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
            hole, board = tuple(holes[opponent]), tuple(state.board)
            stats.showdowns.setdefault(last_raise_round, []).append(self.shown_v(hole, board))
            stats.shown.extend((round_, bucket, code, hole, board)
                               for round_, bucket, code in decisions)

    def decision_v(self, hole: tuple, board: tuple, round_: int) -> float:
        """The v of `hole` on the first cards of `board` that `round_` shows (kept once found)."""
        key = (hole, board[:BOARD_CARDS[round_]])
        if key not in self._decision_v:
            self._decision_v[key] = self.shown_v(*key)
        return self._decision_v[key]

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
#: The facing rule that answers each size bucket.
RULE_OF_BUCKET = tuple(next(rule for rule, (buckets, _) in enumerate(MODEL_RULES)
                            if bucket in buckets) for bucket in range(len(SIZE_BUCKETS)))
#: What the model assumes before it has seen anything, as pseudo-counts of weight `PRIOR`: bet
#: a third of the times checked to; facing a bet of r pots, defend as a player that bluffs
#: cannot beat: continue (call or raise) with 1 / (1 + r) of its hands, the minimum defence that
#: makes a bluff of r pots break even, and fold the rest; a tenth of what continues raises. r is
#: each `MODEL_RULES` range's typical size (0.75, 2.5 and 8 pots). A counter that wins against
#: the model where the opponent was never seen is then a counter that wins against a sound
#: defence there, not against a guess.
PRIOR = 4
PRIOR_BET = 1 / 3
TYPICAL_SIZES = (0.75, 2.5, 8.0)
PRIOR_ANSWERS = tuple((size / (1 + size), 0.9 / (1 + size), 0.1 / (1 + size))
                      for size in TYPICAL_SIZES)
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


def _smoothed(counts, prior, weight: float = PRIOR) -> list[float]:
    """(count + weight p) / (n + weight) for each count and prior share p."""
    total = sum(counts) + weight
    return [(count + weight * p) / total for count, p in zip(counts, prior)]


class ModelShares(NamedTuple):
    """What the fitted model does, per position and round (`[position][round]`): `bet` is its
    share of the times checked to that it bets, and per `MODEL_RULES` size range `fold` and
    `raise_` its shares of the bets faced (`[position][round][rule]`); `bet_bluff` and
    `raise_bluff` are the parts of those bets and raises made with its weakest hands (0: all
    with its strongest). The thresholds sit where these shares of random holdings stand
    (`fit_exploiter`)."""

    bet: np.ndarray          # float64[2, 4]
    fold: np.ndarray         # float64[2, 4, len(MODEL_RULES)]
    raise_: np.ndarray       # float64[2, 4, len(MODEL_RULES)]
    bet_bluff: np.ndarray    # float64[2, 4]
    raise_bluff: np.ndarray  # float64[2, 4, len(MODEL_RULES)]

    def copy(self) -> "ModelShares":
        return ModelShares(*(array.copy() for array in self))


#: The bluff parts tried (`bluff_parts`), and the fewest shown decisions that choose one.
BLUFF_PARTS = tuple(np.linspace(0.0, 1.0, 11))
MIN_SHOWN = 8


def observed_shares(stats: OpponentStats, prior: float = PRIOR) -> ModelShares:
    """The counted shares, each smoothed toward `PRIOR_BET` / `PRIOR_ANSWERS` with `prior`
    pseudo-counts (default `PRIOR`), so that an unseen situation gets the prior and a rare one
    little weight; the bluff parts from the shown decisions (`bluff_parts`)."""
    bet = np.zeros((2, ROUNDS))
    fold = np.zeros((2, ROUNDS, len(MODEL_RULES)))
    raise_ = np.zeros((2, ROUNDS, len(MODEL_RULES)))
    for position in range(2):
        for round_, counts in enumerate(stats.positions[position].rounds):
            bet[position, round_] = _smoothed((counts.bets, counts.opens - counts.bets),
                                              (PRIOR_BET, 1 - PRIOR_BET), prior)[0]
            for rule, (buckets, _) in enumerate(MODEL_RULES):
                seen = [sum(counts.facing[b][k] for b in buckets) for k in range(3)]
                shares = _smoothed(seen, PRIOR_ANSWERS[rule], prior)
                fold[position, round_, rule], raise_[position, round_, rule] = shares[0], shares[2]
    shares = ModelShares(bet, fold, raise_, np.zeros_like(bet), np.zeros_like(raise_))
    return bluff_parts(stats, shares)


def _thresholds(round_: int, bet: float, bluff: float) -> tuple[float, float]:
    """(from, below): aggressive with v >= from (the strong part of `bet`) or v < below (the
    weak part, `bluff` of it), at random holdings' quantiles; below is -NEVER for no bluff."""
    from gambler.bot.exploiters import NEVER

    weak = bet * bluff
    strong = bet - weak
    return (v_at(round_, 1.0 - strong) if strong > 0 else NEVER,
            v_at(round_, weak) if weak > 0 else -NEVER)


def bluff_parts(stats: OpponentStats, shares: ModelShares) -> ModelShares:
    """`shares` with `bet_bluff` and `raise_bluff` chosen from the shown decisions.

    Shown hands are the ones that reached a showdown, not a fair sample of a situation, so they
    choose only the shape (which hands bet or raise: the strong, the weak, or both) and the
    counts of every hand keep choosing how many. In each position, round and situation with at
    least `MIN_SHOWN` shown decisions, ranked by v: for each part p in `BLUFF_PARTS`, a model
    that makes the shown share a of aggressive moves (bets, or raises facing a bet) with the
    weakest p a of the shown hands and the strongest (1 - p) a (facing a bet, folding the
    weakest of the rest at the shown fold share) agrees with some of the decisions; the part of
    most agreement is chosen, the smallest among equals (a value bettor is the default)."""
    chosen = shares.copy()
    by_situation: dict[tuple, list[tuple[float, int]]] = {}
    for position in range(2):
        for round_, bucket, code, hole, board in stats.positions[position].shown:
            rule = -1 if bucket < 0 else RULE_OF_BUCKET[bucket]
            by_situation.setdefault((position, round_, rule), []).append(
                (stats.decision_v(hole, board, round_), code))
    for (position, round_, rule), decisions in by_situation.items():
        if len(decisions) < MIN_SHOWN:
            continue
        codes = np.array([code for _, code in sorted(decisions)])  # weakest first
        agreement = [int(np.sum(_ranked_answers(codes, part) == codes)) for part in BLUFF_PARTS]
        part = BLUFF_PARTS[int(np.argmax(agreement))]
        if rule < 0:
            chosen.bet_bluff[position, round_] = part
        else:
            chosen.raise_bluff[position, round_, rule] = part
    return chosen


def _ranked_answers(codes: np.ndarray, part: float) -> np.ndarray:
    """The answers (0 fold, 1 call or check, 2 bet or raise) that a model with bluff part `part`
    gives to hands ranked weakest first, at the shares of `codes` (`bluff_parts`)."""
    count = codes.shape[0]
    aggressive = int(np.sum(codes == 2))
    weak = int(round(part * aggressive))
    folds = int(np.sum(codes == 0))
    answers = np.ones(count, dtype=np.int64)
    answers[weak:weak + folds] = 0
    answers[:weak] = 2
    answers[count - (aggressive - weak):] = 2
    return answers


def fit_exploiter(stats: OpponentStats, name: str = "model", shares: ModelShares | None = None,
                  prior: float = PRIOR):
    """The member of the exploiter family that plays as the counts say (`bot.exploiters`): per
    position and round, it bets when checked to with the strongest hands and, for `bet_bluff`
    of its bets, the weakest, at the median size seen; facing a bet in each of `MODEL_RULES`'
    size ranges it raises (strongest, and weakest for `raise_bluff` of its raises) at the median
    raise size, folds the weakest of the rest and calls between. Each threshold is the v of
    random holdings at the quantile its share leaves (`v_at`): by default the counted shares
    (`observed_shares`, smoothed with `prior` pseudo-counts), a model that ignores how the
    earlier rounds narrowed the range;
    `training.counter.calibrated_model` moves the shares until the model, played, makes the
    shares counted."""
    from gambler.bot.exploiters import Exploiter, ExploiterBlock, FacingRule

    if shares is None:
        shares = observed_shares(stats, prior)
    blocks = []
    for position in range(2):
        row = []
        for round_, counts in enumerate(stats.positions[position].rounds):
            rules = []
            for rule, (_, up_to) in enumerate(MODEL_RULES):
                raise_ = shares.raise_[position, round_, rule]
                bluff = shares.raise_bluff[position, round_, rule]
                raise_from, raise_below = _thresholds(round_, raise_, bluff)
                rules.append(FacingRule(
                    up_to=up_to,
                    call_from=v_at(round_, raise_ * bluff + shares.fold[position, round_, rule]),
                    raise_from=raise_from, raise_below=raise_below,
                    size=float(np.median(counts.raise_sizes)) if counts.raise_sizes
                    else DEFAULT_RAISE_SIZE))
            bet_from, bluff_below = _thresholds(round_, shares.bet[position, round_],
                                                shares.bet_bluff[position, round_])
            size = (float(np.median(counts.bet_sizes)) if counts.bet_sizes
                    else DEFAULT_BET_SIZE)
            row.append(ExploiterBlock(facing=tuple(rules), bet_from=bet_from, bet_size=size,
                                      bluff_below=bluff_below, bluff_size=size))
        blocks.append(tuple(row))
    return Exploiter(tuple(blocks), name=name,
                     description="fitted to an opponent's counts (bot.opponent.fit_exploiter)")
