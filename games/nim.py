"""Misère Nim: an optimal player, the seed notebook's players, and its evolution strategy.

Rows of objects (default 1 3 5 7 9); a move takes 1 or more objects (at most `limit`, if set)
from one row; whoever takes the last object loses.

* `optimal_move` is truly optimal. Without a limit it is Bouton's rule with the misère twist:
  move to nim-sum 0, except when the move would leave no row of two or more objects; then leave
  an odd number of rows of one. With a limit (a subtraction game, where that rule does not hold)
  and as the reference everywhere, `winning(position)` solves positions exactly by memoised
  search; the tests check the rule against it on every position up to a size.
* `seed_optimal_move` is the notebook's "optimal" player: it picks at random among the moves that
  leave a *non-zero* nim-sum, the opposite of the rule (it loses to the optimal player from every
  position the optimal player can win, and wins against it only when that one cannot).
* The notebook's two-gene player: gene 1 is the probability of choosing among the moves with the
  lowest resulting nim-sum, gene 2 whether to skip moves that leave nim-sum 0 (when others
  exist); with a single row left it takes all but one object.
* The evolution strategy: (mu + lambda) or (mu, lambda); offspring by crossover of two
  tournament winners (gene 1 from either parent or their mean, gene 2 from either) or, with
  probability `mutation`, by mutating one (gene 1 moved by up to 0.2, or gene 2 flipped); fitness
  = win rate over `matches` games, half as first player, against a fixed opponent or, when
  competitive, against random members of the population.
"""

from __future__ import annotations

import functools
import math
import numbers
import random
from collections.abc import Callable
from dataclasses import dataclass

from gambler.games.errors import GameError

Position = tuple[int, ...]
Move = tuple[int, int]  # (row, objects taken)
DEFAULT_ROWS = (1, 3, 5, 7, 9)
SELECTIONS = ("plus", "comma")   # (mu + lambda): parents compete with children; (mu, lambda): not


def check_rows(rows, limit: int | None = None) -> Position:
    """`rows` as a position a game can start from (whole numbers of objects, none negative, at
    least one object in all) and `limit`, if set, at least 1; otherwise `GameError`."""
    position = []
    for count in rows:
        if isinstance(count, bool) or not isinstance(count, numbers.Integral) or count < 0:
            raise GameError(f"{count!r} is not a row size (a whole number of objects, 0 or more)")
        position.append(int(count))
    if sum(position) == 0:
        raise GameError("rows need at least one object")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, numbers.Integral)
                              or limit < 1):
        raise GameError(f"{limit!r} is not a limit (a move takes at least 1 object)")
    return tuple(position)


def moves(position: Position, limit: int | None = None) -> list[Move]:
    return [(row, take) for row, count in enumerate(position)
            for take in range(1, (count if limit is None else min(count, limit)) + 1)]


def play(position: Position, move: Move) -> Position:
    row, take = move
    return position[:row] + (position[row] - take,) + position[row + 1:]


def nim_sum(position: Position) -> int:
    total = 0
    for count in position:
        total ^= count
    return total


@functools.lru_cache(maxsize=None)
def winning(position: Position, limit: int | None = None) -> bool:
    """Does the player to move win with perfect play? (No objects left: the opponent took the
    last one and lost, so yes.)"""
    if sum(position) == 0:
        return True
    return any(not winning(play(position, move), limit) for move in moves(position, limit))


def _rule_move(position: Position) -> Move:
    """The closed-form optimal move without a limit."""
    big = [row for row, count in enumerate(position) if count >= 2]
    if not big:  # only rows of one: any move takes one object
        return next((row, 1) for row, count in enumerate(position) if count)
    if len(big) == 1:
        row = big[0]
        ones = sum(1 for count in position if count == 1)
        # Leave an odd number of rows of one: keep one object here if the others are even.
        return (row, position[row] - 1) if ones % 2 == 0 else (row, position[row])
    target = nim_sum(position)
    for row, count in enumerate(position):
        if count ^ target < count:
            return row, count - (count ^ target)
    return next((row, 1) for row, count in enumerate(position) if count)  # lost anyway


def optimal_move(position: Position, limit: int | None = None,
                 rng: random.Random | None = None) -> Move:
    """A winning move when there is one (else the smallest possible move)."""
    if limit is None:
        return _rule_move(position)
    options = moves(position, limit)
    for move in options:
        if not winning(play(position, move), limit):
            return move
    return options[0]


def seed_optimal_move(position: Position, limit: int | None = None,
                      rng: random.Random | None = None) -> Move:
    """The seed notebook's "optimal": random among moves leaving a non-zero nim-sum."""
    rng = rng or random
    options = moves(position, limit)
    spicy = [move for move in options if nim_sum(play(position, move)) != 0]
    return rng.choice(spicy or options)


def random_move(position: Position, limit: int | None = None,
                rng: random.Random | None = None) -> Move:
    rng = rng or random
    row = rng.choice([row for row, count in enumerate(position) if count])
    most = position[row] if limit is None else min(position[row], limit)
    return row, rng.randint(1, most)


@dataclass(frozen=True)
class Genome:
    lowest: float       # probability of choosing among the lowest-nim-sum moves
    skip_zero: bool     # skip moves that leave nim-sum 0 when others exist

    def move(self, position: Position, limit: int | None = None,
             rng: random.Random | None = None) -> Move:
        rng = rng or random
        rows = [row for row, count in enumerate(position) if count]
        if len(rows) == 1:
            row = rows[0]
            take = max(1, position[row] - 1)
            return row, take if limit is None else min(take, limit)
        options = {move: nim_sum(play(position, move)) for move in moves(position, limit)}
        chosen = options
        if self.skip_zero:
            chosen = {move: value for move, value in options.items() if value != 0} or options
        if rng.random() <= self.lowest:
            lowest = min(chosen.values())
            return rng.choice([move for move, value in chosen.items() if value == lowest])
        return rng.choice(list(chosen))


Player = Callable[..., Move]
BASELINES: dict[str, Player] = {"optimal": optimal_move, "seed": seed_optimal_move,
                                "random": random_move}


def duel(first: Player, second: Player, rows: Position = DEFAULT_ROWS,
         limit: int | None = None, rng: random.Random | None = None) -> int:
    """0 if the first mover wins, 1 if the second does."""
    position = tuple(rows)
    players = (first, second)
    mover = 0
    while sum(position):
        position = play(position, players[mover](position, limit, rng))
        mover = 1 - mover
    return mover  # whoever is to move after the last object was taken has won


def win_rate(player: Player, opponent: Player, first: bool, games: int, rows: Position,
             limit: int | None, rng: random.Random) -> tuple[float, float, float]:
    """(win rate, low, high): `player`'s share of wins moving first (or second), with its 95%
    Wilson score interval."""
    wins = 0
    for _ in range(games):
        if first:
            wins += duel(player, opponent, rows, limit, rng) == 0
        else:
            wins += duel(opponent, player, rows, limit, rng) == 1
    low, high = wilson(wins, games)
    return wins / games, low, high


def wilson(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (low, high) of a proportion: sound at 0% and 100% too."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Measurement:
    """A player measured against every baseline, with Wilson 95% intervals."""
    win_rate: dict[str, dict]          # baseline -> {"first", "first_ci95", "second", ...}
    seed_player_vs_optimal: dict       # the seed's player against the optimal one: first, second


def measure(player: Player, rows: Position = DEFAULT_ROWS, limit: int | None = None,
            games: int = 400, seed: int = 0) -> Measurement:
    """`player`'s win rates over `games` games moving first and second against each baseline,
    and, as the reference, the seed's player's against the optimal one.

    The games draw from `random.Random(seed + 1)`: a stream apart from the one `evolve(...,
    seed)` uses, so that a run's measurement does not replay its evolution's games.
    """
    rows = check_rows(rows, limit)
    if games < 1:
        raise GameError(f"games {games}: need at least 1")
    rng = random.Random(seed + 1)
    rates = {}
    for name, rival in BASELINES.items():
        first = win_rate(player, rival, True, games, rows, limit, rng)
        second = win_rate(player, rival, False, games, rows, limit, rng)
        rates[name] = {"first": first[0], "first_ci95": [first[1], first[2]],
                       "second": second[0], "second_ci95": [second[1], second[2]]}
    seed_vs_optimal = {
        "first": win_rate(BASELINES["seed"], optimal_move, True, games, rows, limit, rng)[0],
        "second": win_rate(BASELINES["seed"], optimal_move, False, games, rows, limit, rng)[0]}
    return Measurement(rates, seed_vs_optimal)


@dataclass
class ESResult:
    best: Genome
    fitness: float
    history: list[tuple[int, float, Genome]]   # generation, best fitness, best genome


def evolve(rows: Position = DEFAULT_ROWS, limit: int | None = None, selection: str = "plus",
           population: int = 15, offspring: int = 10, generations: int = 50,
           mutation: float = 0.15, matches: int = 8, opponent: str = "optimal",
           seed: int = 0, progress=None) -> ESResult:
    """The notebook's evolution strategy (`selection` "plus" or "comma")."""
    rows = check_rows(rows, limit)
    if selection not in SELECTIONS:
        raise GameError(f"unknown selection {selection!r} (one of {', '.join(SELECTIONS)})")
    if opponent not in (*BASELINES, "population"):
        raise GameError(f"unknown opponent {opponent!r} (one of {', '.join(BASELINES)}, "
                        "population)")
    if population < 1 or offspring < 1:
        raise GameError(f"population {population} and offspring {offspring}: need at least 1 "
                        "of each")
    if selection == "comma" and offspring < population:
        raise GameError(f"(mu, lambda) selection needs at least as many offspring as parents: "
                        f"{offspring:,} offspring for {population:,} parents")
    rng = random.Random(seed)

    def gene() -> float:
        value = rng.gauss(0.5, 0.2)
        while not 0 <= value <= 1:
            value = rng.gauss(0.5, 0.2)
        return value

    members = [Genome(gene(), rng.random() < 0.5) for _ in range(population)]

    def fitness(genome: Genome, pool: list[Genome]) -> float:
        wins = 0
        for game in range(matches):
            if opponent == "population":
                rival = rng.choice(pool).move
            else:
                rival = BASELINES[opponent]
            if game % 2 == 0:
                wins += duel(genome.move, rival, rows, limit, rng) == 0
            else:
                wins += duel(rival, genome.move, rows, limit, rng) == 1
        return wins / matches

    def tournament(scored: list[Genome]) -> Genome:
        first, second = rng.choice(scored), rng.choice(scored)
        return (first, second)[duel(first.move, second.move, rows, limit, rng)]

    history = []
    for generation in range(1, generations + 1):
        children = []
        for _ in range(offspring):
            if rng.random() < mutation:
                parent = tournament(members)
                if rng.random() < 0.5:
                    child = Genome(min(1.0, max(0.0, parent.lowest + rng.uniform(-0.2, 0.2))),
                                   parent.skip_zero)
                else:
                    child = Genome(parent.lowest, not parent.skip_zero)
            else:
                a, b = tournament(members), tournament(members)
                how = rng.choice(("a", "b", "mean", "mean"))
                lowest = a.lowest if how == "a" else b.lowest if how == "b" \
                    else (a.lowest + b.lowest) / 2
                child = Genome(lowest, rng.choice((a.skip_zero, b.skip_zero)))
            children.append(child)
        pool = members + children if selection == "plus" else children
        scored = [(fitness(genome, pool), index, genome) for index, genome in enumerate(pool)]
        scored.sort(key=lambda item: (-item[0], item[1]))
        members = [genome for _, _, genome in scored[:population]]
        history.append((generation, scored[0][0], scored[0][2]))
        if progress is not None:
            progress(generation, scored[0][0], scored[0][2])
    return ESResult(members[0], history[-1][1] if history else 0.0, history)
