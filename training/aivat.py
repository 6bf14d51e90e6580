"""AIVAT (Burch, Schmid, Moravcik, Morrill & Bowling 2018): an unbiased, low-variance estimate of
one hand's value for a player whose strategy is known, against an opponent whose is not.

The chips a hand wins carry the luck of the cards and of the known player's own randomness. AIVAT
removes the part a value function can predict, and stays unbiased whatever that function is:

    AIVAT = base + sum over events of (before - after)

over the known player's possible private hands x (its *range*: every hand it could hold given
what the opponent holds, y), each weighted by w(x), the probability of the events so far with x:

* a chance event with outcome c*: before = sum_x w(x) sum_c P(c | x) u(x, s c) / sum_x w(x); then
  w(x) *= P(c* | x) (zero where c* collides with x: card removal), and after =
  sum_x w(x) u(x, s c*) / sum_x w(x);
* a decision of the known player, action a*: before = sum_x w(x) sum_a sigma(x, s)(a) u(x, s a) /
  sum_x w(x); then w(x) *= sigma(x, s)(a*), and after the same with a*;
* the opponent's action: no term (its probability is the same for every x, and cancels);
* at the end, base = sum_x w(x) payoff(x, z) / sum_x w(x) ("imaginary observations": the hand
  as it would have paid with every hand the known player could have held, in proportion to how
  likely each was to play it as it went).

Each (before - after) has expectation zero given the history, since w is the known player's exact
posterior over x given everything the opponent's strategy could depend on; the base term's
expectation is the hand's value. So the estimate is unbiased for any value function u fixed in
advance, and the better u predicts the hand, the lower its variance. The conditions: sigma is the
strategy the known player played, for every x; the chance probabilities are exact (card removal
included); y is known (a dealer's log has every hole card).

This module is the estimator over a game the caller describes (`AivatGame`); it knows nothing of
poker's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from gambler.errors import GamblerError

CHANCE, KNOWN, OTHER = "chance", "known", "other"


class AivatError(GamblerError):
    """A hand the known strategy could not have played (its range is empty after an action)."""


@dataclass(frozen=True)
class AivatGame:
    """What the estimator needs of a game, seen from the known player.

    hands: the known player's possible private hands.
    prior(x, y): the probability of x given the opponent's y (0 where they collide).
    outcomes(x, y, state): a chance event's (outcome, probability) pairs given x and y.
    strategy(x, state): the known player's (action, probability) pairs at a decision.
    value(x, y, state): the value function u, for the known player, in chips.
    payoff(x, y, state): the known player's chips at a finished hand.
    step(state, event): the state after an action or a chance outcome.
    """

    hands: Sequence[Hashable]
    prior: Callable[[Any, Any], float]
    outcomes: Callable[[Any, Any, Any], Sequence[tuple[Any, float]]]
    strategy: Callable[[Any, Any], Sequence[tuple[Any, float]]]
    value: Callable[[Any, Any, Any], float]
    payoff: Callable[[Any, Any, Any], float]
    step: Callable[[Any, Any], Any]


@dataclass(frozen=True)
class AivatEstimate:
    chips: float      # what the hand paid the known player
    base: float       # the imaginary-observation term
    chance: float     # the chance events' corrections, summed
    actions: float    # the known player's decisions' corrections, summed

    @property
    def value(self) -> float:
        return self.base + self.chance + self.actions


def _mean(weights: dict, term: Callable[[Any], float]) -> float:
    total = sum(weights.values())
    return sum(weight * term(x) for x, weight in weights.items() if weight) / total


def aivat(game: AivatGame, x_played, y, start, events: Sequence[tuple[str, Any]]) -> AivatEstimate:
    """The estimate of one hand: `x_played` the known player's hand, `y` the opponent's, `start`
    the state after the private deal, `events` the hand's (kind, action or outcome) in order,
    kind CHANCE, KNOWN or OTHER."""
    weights = {x: game.prior(x, y) for x in game.hands}
    weights = {x: weight for x, weight in weights.items() if weight > 0}
    state = start
    corrections = {CHANCE: 0.0, KNOWN: 0.0}
    for kind, event in events:
        if kind == OTHER:
            state = game.step(state, event)
            continue
        if kind == CHANCE:
            choices = {x: game.outcomes(x, y, state) for x in weights}
        elif kind == KNOWN:
            choices = {x: game.strategy(x, state) for x in weights}
        else:
            raise AivatError(f"event kind {kind!r}: expected {CHANCE}, {KNOWN} or {OTHER}")
        following = {}

        def after_choice(choice):
            if choice not in following:
                following[choice] = game.step(state, choice)
            return following[choice]

        before = _mean(weights, lambda x: sum(p * game.value(x, y, after_choice(c))
                                              for c, p in choices[x] if p))
        weights = {x: weight * dict(choices[x]).get(event, 0.0)
                   for x, weight in weights.items()}
        weights = {x: weight for x, weight in weights.items() if weight > 0}
        if x_played not in weights:
            raise AivatError(f"{kind} event {event!r} has probability 0 for the hand played: "
                             "the strategy given is not the one that played")
        state = after_choice(event)
        after = _mean(weights, lambda x: game.value(x, y, state))
        corrections[kind] += before - after
    base = _mean(weights, lambda x: game.payoff(x, y, state))
    return AivatEstimate(game.payoff(x_played, y, state), base, corrections[CHANCE],
                         corrections[KNOWN])
