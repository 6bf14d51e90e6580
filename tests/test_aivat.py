"""AIVAT on Leduc hold'em, where every hand can be enumerated: over all deals and every way a
random known strategy and a random opponent can play them, the estimate's expectation equals the
chips' exactly, whatever the value function (unbiasedness), and with a good value function its
variance is a fraction of the chips'."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pytest

from gambler.training.aivat import CHANCE, KNOWN, OTHER, AivatError, AivatGame, aivat

DECK = range(6)  # J J Q Q K K: rank = card // 2
RAISE = (2, 4)   # per round; two raises a round at most; antes of 1


@dataclass(frozen=True)
class State:
    round: int = 0
    history: str = ""       # every action, rounds separated by '/'
    board: int | None = None
    spent: tuple = (1, 1)
    to_act: int = 0
    raises: int = 0
    acted: int = 0           # actions this round
    folder: int | None = None
    finished: bool = False

    @property
    def chance_next(self) -> bool:
        return not self.finished and self.round == 1 and self.board is None


def legal(state: State) -> list[str]:
    facing = state.spent[state.to_act] < max(state.spent)
    return (["f"] if facing else []) + ["c"] + (["r"] if state.raises < 2 else [])


def step(state: State, event) -> State:
    if isinstance(event, int):  # the board card
        return replace(state, board=event)
    player = state.to_act
    spent = list(state.spent)
    if event == "f":
        return replace(state, history=state.history + "f", folder=player, finished=True)
    if event == "r":
        spent[player] = max(spent) + RAISE[state.round]
        return replace(state, history=state.history + "r", spent=tuple(spent),
                       to_act=1 - player, raises=state.raises + 1, acted=state.acted + 1)
    spent[player] = max(spent)
    state = replace(state, history=state.history + "c", spent=tuple(spent), to_act=1 - player,
                    acted=state.acted + 1)
    if state.acted < 2:
        return state
    if state.round == 1:
        return replace(state, finished=True)
    return replace(state, round=1, history=state.history + "/", to_act=0, raises=0, acted=0)


def strength(card: int, board: int) -> int:
    return 10 + card // 2 if card // 2 == board // 2 else card // 2


def chips(state: State, cards: tuple) -> float:
    """Position 0's chips at a finished hand; cards = (position 0's, position 1's)."""
    if state.folder is not None:
        return -state.spent[0] if state.folder == 0 else state.spent[1]
    mine, theirs = (strength(card, state.board) for card in cards)
    return 0.0 if mine == theirs else (state.spent[1] if mine > theirs else -state.spent[0])


def random_strategy(seed: int):
    """A fixed random strategy of (own card, public history): probabilities over the legal
    actions, some of them zero."""
    def strategy(card, state):
        generator = random.Random(f"{seed}|{card}|{state.board}|{state.history}")
        actions = legal(state)
        weights = [generator.choice((0.0, 0.2, 1.0, 3.0)) for _ in actions]
        if not any(weights):
            weights[-1] = 1.0
        return [(a, w / sum(weights)) for a, w in zip(actions, weights)]
    return strategy


def leduc_game(known: int, sigma, tau, value) -> AivatGame:
    """The game from position `known`'s side: sigma its strategy, tau the opponent's."""
    def sign(v):
        return v if known == 0 else -v

    def cards(x, y):
        return (x, y) if known == 0 else (y, x)

    return AivatGame(
        hands=list(DECK),
        prior=lambda x, y: 0.0 if x == y else 1.0,
        outcomes=lambda x, y, state: [(c, 1 / 4) for c in DECK if c not in (x, y)],
        strategy=sigma,
        value=value,
        payoff=lambda x, y, state: sign(chips(state, cards(x, y))),
        step=step)


def trajectories(known, x, y, sigma, tau, state=State(), events=(), probability=1.0):
    """Every way a deal can play out: (probability, events, final state)."""
    if state.finished:
        yield probability, events, state
        return
    if state.chance_next:
        boards = [c for c in DECK if c not in (x, y)]
        for card in boards:
            yield from trajectories(known, x, y, sigma, tau, step(state, card),
                                    events + ((CHANCE, card),), probability / len(boards))
        return
    mover = sigma if state.to_act == known else tau
    kind = KNOWN if state.to_act == known else OTHER
    for action, p in mover(x if kind == KNOWN else y, state):
        if p:
            yield from trajectories(known, x, y, sigma, tau, step(state, action),
                                    events + ((kind, action),), probability * p)


def exact_value(known, sigma, tau):
    """u(x, y, state): the known player's expected chips from `state` under sigma and tau."""
    memo = {}

    def value(x, y, state):
        key = (x, y, state)
        if key not in memo:
            cards = (x, y) if known == 0 else (y, x)
            memo[key] = sum(p * (chips(end, cards) if known == 0 else -chips(end, cards))
                            for p, _, end in trajectories(known, x, y, sigma, tau, state))
        return memo[key]
    return value


def moments(known, sigma, tau, value):
    """(E chips, E AIVAT, Var chips, Var AIVAT) over every deal and play, exactly."""
    game = leduc_game(known, sigma, tau, value)
    rows = []
    deals = [(x, y) for x in DECK for y in DECK if x != y]
    for x, y in deals:
        for probability, events, _ in trajectories(known, x, y, sigma, tau):
            estimate = aivat(game, x, y, State(), events)
            rows.append((probability / len(deals), estimate.chips, estimate.value))
    mean_chips = sum(p * c for p, c, _ in rows)
    mean_aivat = sum(p * a for p, _, a in rows)
    return (mean_chips, mean_aivat, sum(p * (c - mean_chips) ** 2 for p, c, _ in rows),
            sum(p * (a - mean_aivat) ** 2 for p, _, a in rows))


@pytest.mark.parametrize("known", [0, 1])
def test_aivat_is_unbiased_whatever_the_value_function(known):
    sigma, tau = random_strategy(1), random_strategy(2)

    def arbitrary(x, y, state):
        return random.Random(f"{x}|{y}|{state}").uniform(-20, 20)

    mean_chips, mean_aivat, var_chips, var_aivat = moments(known, sigma, tau, arbitrary)
    assert abs(mean_chips) > 0.01  # the strategies are unequal: a value to estimate
    assert mean_aivat == pytest.approx(mean_chips, abs=1e-12)


@pytest.mark.parametrize("known", [0, 1])
def test_a_good_value_function_cuts_the_variance(known):
    # The exact expected value as u leaves about a sixth of the chips' variance; u = 0 (the
    # imaginary observations alone) leaves more than four fifths.
    sigma, tau = random_strategy(3), random_strategy(4)
    mean_chips, mean_aivat, var_chips, var_aivat = moments(known, sigma, tau,
                                                           exact_value(known, sigma, tau))
    assert mean_aivat == pytest.approx(mean_chips, abs=1e-12)
    assert var_aivat < 0.3 * var_chips
    *_, var_plain, var_zero = moments(known, sigma, tau, lambda x, y, state: 0.0)
    assert var_plain == var_chips and 0.5 * var_chips < var_zero < var_chips


def test_a_strategy_that_could_not_have_played_the_hand_is_refused():
    sigma, tau = random_strategy(5), random_strategy(6)
    game = leduc_game(0, lambda x, s: [("c", 1.0)], tau, lambda x, y, s: 0.0)
    with pytest.raises(AivatError, match="has probability 0 for the hand played"):
        aivat(game, 0, 1, State(), [(KNOWN, "r")])
