"""One-card poker: the seed notebook's genetic algorithm, an exact solution, and measurements.

The game: both players ante; A draws a card and bets an amount from a discrete set; B draws a
card (independently: all n x n pairs are equally likely), sees A's bet, and calls or folds. A
fold gives A the antes (A wins `ante`); a call shows down for ante + bet each, the higher card
taking it and equal cards splitting.

Strategies are arrays: A's behaviour strategy x[i, b] = P(bet b | card i) and B's y[j, b] =
P(call | card j, bet b). A's expected gain is

    u(x, y) = 1/n^2 sum_{i, j, b} x[i, b] (y[j, b] (ante + bet_b) sign(i - j) + (1 - y[j, b]) ante)

* Exact solution: CFR+ on the game tree (`games.cfr`), accurate to about 1e-8 here; the default
  game (cards 1..10, bets 0..20 step 2, ante 5) has value 0.6499404762 for A, the small one
  (cards 1..4, bets 0..10 step 2, ante 2) 3/16.
* Exact best responses in closed form: A picks per card the bet with the best expected gain
  against y; B calls per (card, bet) iff calling beats folding against x. Exploitability of a pair
  is NashConv / 2 = (BR_A(y) - BR_B(x)) / 2.
* The GA, as in the notebook: populations of pure strategies (A: a bet per card; B: call or fold
  per card and bet, "cleaned" to always call with the top card or a zero bet); every A against
  every B evaluated exactly, over all card pairs, in one array operation; fitness = mean gain;
  the fittest `parents` fraction breed children element by element, each element from a parent
  drawn with probability proportional to exp(fitness); then mutation (A: a new random bet with
  probability `mutation`; B: a random call/fold with probability 2 `mutation`, half of which
  change nothing).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from gambler.games.errors import GameError
from gambler.games.lp import LinearProgramError, maximise
from gambler.games.tree import GameTree, TreeBuilder


@dataclass(frozen=True)
class OneCardGame:
    cards: int = 10                 # card values 1..cards
    bets: tuple[int, ...] = tuple(range(0, 21, 2))
    ante: int = 5

    def __post_init__(self):
        if isinstance(self.cards, bool) or not isinstance(self.cards, numbers.Integral) \
                or self.cards < 2:
            raise GameError(f"cards {self.cards!r}: need a whole number, at least 2")
        if not self.bets:
            raise GameError("bets: need at least one bet size")
        for bet in self.bets:
            if isinstance(bet, bool) or not isinstance(bet, numbers.Real) or not bet >= 0:
                raise GameError(f"bet {bet!r}: bets are amounts of 0 or more")
        if len(set(self.bets)) != len(self.bets):
            raise GameError(f"bets {list(self.bets)}: each size once")
        if isinstance(self.ante, bool) or not isinstance(self.ante, numbers.Real) \
                or not self.ante > 0:
            raise GameError(f"ante {self.ante!r}: need an amount above 0")

    @property
    def sign(self) -> np.ndarray:
        """sign[i, j] = +1 if A's card i beats B's card j, -1 if it loses, 0 if equal."""
        values = np.arange(self.cards)
        return np.sign(values[:, None] - values[None, :])

    def gain(self, x: np.ndarray, y: np.ndarray) -> float:
        """A's expected gain with behaviour strategies x[i, b] and y[j, b]."""
        stake = self.ante + np.array(self.bets, dtype=np.float64)
        call = np.einsum("ib,jb,ij,b->", x, y, self.sign, stake)
        fold = np.einsum("ib,jb->", x, 1 - y) * self.ante
        return float((call + fold) / self.cards ** 2)

    def best_response_a(self, y: np.ndarray) -> tuple[float, np.ndarray]:
        """(A's best-response value against y, its bet index per card)."""
        stake = self.ante + np.array(self.bets, dtype=np.float64)
        # value[i, b] = mean over j of y (stake sign) + (1 - y) ante
        value = (np.einsum("jb,ij,b->ib", y, self.sign, stake)
                 + (1 - y).sum(axis=0)[None, :] * self.ante) / self.cards
        choice = value.argmax(axis=1)
        return float(value.max(axis=1).mean()), choice

    def best_response_b(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        """(A's gain when B best-responds to x, B's call decision per card and bet)."""
        stake = self.ante + np.array(self.bets, dtype=np.float64)
        call = np.einsum("ib,ij,b->jb", x, self.sign, stake) / self.cards
        fold = x.sum(axis=0)[None, :] * self.ante / self.cards * np.ones((self.cards, 1))
        decision = call <= fold  # B minimises A's gain; on a tie it calls
        return float(np.minimum(call, fold).sum() / self.cards), decision

    def exploitability(self, x: np.ndarray, y: np.ndarray) -> float:
        return (self.best_response_a(y)[0] - self.best_response_b(x)[0]) / 2

    def tree(self) -> GameTree:
        """The game tree: chance deals (i, j), A bets, B calls or folds."""
        builder = TreeBuilder()
        root = builder.chance(-1, 0, 1.0)
        count = self.cards ** 2
        names = tuple(str(bet) for bet in self.bets)
        for i in range(self.cards):
            for j in range(self.cards):
                deal = builder.chance(root, i * self.cards + j, 1 / count)
                bet_node = builder.decision(deal, 0, 1.0, 0, f"A{i + 1}", names, 0)
                for b, bet in enumerate(self.bets):
                    answer = builder.decision(bet_node, b, 1.0, 1, f"B{j + 1}:{bet}",
                                              ("fold", "call"), 0)
                    builder.terminal(answer, 0, 1.0, self.ante)
                    builder.terminal(answer, 1, 1.0, (self.ante + bet) * np.sign(i - j))
        return builder.build()


@dataclass
class Solution:
    value: float
    x: np.ndarray
    y: np.ndarray
    exploitability: float


def solve_exactly(game: OneCardGame) -> Solution:
    """The equilibrium by linear programming over behaviour strategies (`games.lp`).

    A's program: maximise sum_{j,b} t[j, b] with t[j, b] at most A's gain from (card j, bet b)
    whether B calls or folds, sum_b x[i, b] = 1 (B's best response folded into the min). B's:
    minimise sum_i u[i] with u[i] at least the gain of every bet with card i, 0 <= y <= 1. Both
    optima are the game's value; the pair is an equilibrium (exploitability ~ 1e-15).
    """
    n, m = game.cards, len(game.bets)
    bets = np.array(game.bets, dtype=np.float64)
    sign = game.sign
    big = float(game.ante + bets.max()) + 1.0   # shifts the free t and u to be >= 0
    # --- A: variables x[i, b] (n m), t'[j, b] (n m) ---
    cells = n * m
    rows, rhs = [], []
    for j in range(n):
        for b in range(m):
            call = np.zeros(2 * cells)
            fold = np.zeros(2 * cells)
            for i in range(n):
                call[i * m + b] = -(game.ante + bets[b]) * sign[i, j] / n ** 2
                fold[i * m + b] = -game.ante / n ** 2
            call[cells + j * m + b] = fold[cells + j * m + b] = 1.0
            rows += [call, fold]
            rhs += [big, big]
    equal = np.zeros((n, 2 * cells))
    for i in range(n):
        equal[i, i * m:(i + 1) * m] = 1.0
    objective = np.concatenate([np.zeros(cells), np.ones(cells)])
    value_a, solution = maximise(objective, np.array(rows), np.array(rhs), equal, np.ones(n))
    value_a -= big * cells
    x = solution[:cells].reshape(n, m)
    # --- B: variables y[j, b] (n m), u'[i] (n); maximise -sum u' ---
    rows, rhs = [], []
    for i in range(n):
        for b in range(m):
            row = np.zeros(cells + n)
            for j in range(n):
                row[j * m + b] = ((game.ante + bets[b]) * sign[i, j] - game.ante) / n ** 2
            row[cells + i] = -1.0
            rows.append(row)
            rhs.append(-big - game.ante / n)  # gain of (i, b) <= u[i] = u'[i] - big
    for cell in range(cells):
        row = np.zeros(cells + n)
        row[cell] = 1.0
        rows.append(row)
        rhs.append(1.0)
    objective = np.concatenate([np.zeros(cells), -np.ones(n)])
    negated, solution = maximise(objective, np.array(rows), np.array(rhs))
    y = solution[:cells].reshape(n, m)
    value_b = -negated - big * n
    if abs(value_a - value_b) > 1e-9:
        raise LinearProgramError(f"the two programs disagree: {value_a} and {value_b}")
    return Solution(value_a, x, y, game.exploitability(x, y))


def equilibrium_bluff(game: OneCardGame, solution: Solution) -> float:
    """The probability that A's equilibrium strategy bets something with the lowest card: 1
    when a zero bet is not among the choices."""
    if 0 not in game.bets:
        return 1.0
    return float(1 - solution.x[0, game.bets.index(0)])


# --- the genetic algorithm ----------------------------------------------------------------------

def clean(population_b: np.ndarray, game: OneCardGame) -> np.ndarray:
    """Always call with the top card or against a zero bet (risk-free calls)."""
    population_b[:, -1, :] = True
    zero_bets = [b for b, bet in enumerate(game.bets) if bet == 0]
    population_b[:, :, zero_bets] = True
    return population_b


def payoff_matrix(game: OneCardGame, population_a: np.ndarray,
                  population_b: np.ndarray) -> np.ndarray:
    """gain[a, s]: A strategy a against B strategy s, exact over all card pairs, no loops.

    population_a: int[P, n] bet indices; population_b: bool[Q, n, m] calls.
    """
    n = game.cards
    bets = np.array(game.bets, dtype=np.float64)
    # calls[a, s, i, j] = does B strategy s with card j call A strategy a's bet with card i?
    strategy_b = np.arange(population_b.shape[0])[None, :, None, None]
    card_b = np.arange(n)[None, None, None, :]
    calls = population_b[strategy_b, card_b, population_a[:, None, :, None]]
    stake = (game.ante + bets[population_a])[:, None, :, None]         # a, 1, i, 1
    showdown = stake * game.sign[None, None, :, :]
    gains = np.where(calls, showdown, float(game.ante))
    return gains.mean(axis=(2, 3))


@dataclass
class GenerationRecord:
    generation: int
    best_fitness_a: float
    exploitability_best: float       # of the fittest A and B strategies as a pair
    exploitability_mixture: float    # of the populations as mixed strategies
    bluff_rate: float                # share of A strategies betting > 0 with the lowest card
    mean_bets: list[float]           # A's average bet per card
    call_rates: list[float]          # B's average call rate per card (over bets)


@dataclass
class GAResult:
    game: OneCardGame
    best_a: np.ndarray               # bet index per card
    best_b: np.ndarray               # bool[n, m]
    history: list[GenerationRecord] = field(default_factory=list)
    revisits: int = 0                # generations whose best A strategy reappeared after a gap

    def fittest_pair(self) -> tuple[np.ndarray, np.ndarray]:
        """The last generation's fittest A and B as behaviour strategies (x[i, b], y[j, b])."""
        x = np.eye(len(self.game.bets))[self.best_a]
        return x, self.best_b.astype(np.float64)


def run_ga(game: OneCardGame, population: int = 200, generations: int = 10,
           parents: float = 2 / 3, mutation: float = 0.05, seed: int = 0,
           progress=None) -> GAResult:
    """The notebook's GA for `generations` generations (records generation 0 too)."""
    if population < 1 or generations < 0:
        raise GameError(f"population {population} and generations {generations}: need at least "
                        "1 strategy and 0 or more generations")
    if not 0 < parents <= 1 or not 0 <= mutation <= 0.5:
        raise GameError(f"parents {parents} and mutation {mutation}: need 0 < parents <= 1 and "
                        "0 <= mutation <= 0.5")
    rng = np.random.default_rng(seed)
    n, m = game.cards, len(game.bets)
    pop_a = rng.integers(0, m, size=(population, n))
    pop_b = clean(rng.random((population, n, m)) < 0.5, game)
    history = []
    seen: dict[bytes, int] = {}
    revisits = 0
    for generation in range(generations + 1):
        gains = payoff_matrix(game, pop_a, pop_b)
        fitness_a = gains.mean(axis=1)
        fitness_b = -gains.mean(axis=0)
        best_a, best_b = int(fitness_a.argmax()), int(fitness_b.argmax())
        x_best = np.eye(m)[pop_a[best_a]]
        y_best = pop_b[best_b].astype(np.float64)
        x_mix = np.eye(m)[pop_a].mean(axis=0)
        y_mix = pop_b.mean(axis=0)
        key = pop_a[best_a].tobytes()
        if key in seen and seen[key] < generation - 1:
            revisits += 1
        seen[key] = generation
        record = GenerationRecord(
            generation, float(fitness_a[best_a]), game.exploitability(x_best, y_best),
            game.exploitability(x_mix, y_mix), float((pop_a[:, 0] > 0).mean()
                                                     if game.bets[0] == 0 else 1.0),
            [float(v) for v in np.array(game.bets)[pop_a].mean(axis=0)],
            [float(v) for v in pop_b.mean(axis=(0, 2))])
        history.append(record)
        if progress is not None:
            progress(record)
        if generation == generations:
            break
        pop_a = _breed(pop_a, fitness_a, parents, rng, lambda shape: rng.integers(0, m, shape),
                       mutation)
        pop_b = clean(_breed(pop_b, fitness_b, parents, rng,
                             lambda shape: rng.random(shape) < 0.5, 2 * mutation), game)
    return GAResult(game, pop_a[best_a], pop_b[best_b], history, revisits)


def _breed(population: np.ndarray, fitness: np.ndarray, parents: float,
           rng: np.random.Generator, random_genes, mutation: float) -> np.ndarray:
    """Fittest fraction as parents; each gene of each child from a parent drawn with
    probability proportional to exp(fitness); then mutation."""
    size = population.shape[0]
    count = max(1, int(size * parents))
    order = np.argsort(-fitness, kind="stable")[:count]
    weights = np.exp(fitness[order] - fitness[order].max())
    weights /= weights.sum()
    genes = population.shape[1:]
    origin = rng.choice(count, size=(size, *genes), p=weights)
    children = _gather(population[order], origin)
    mutate = rng.random(children.shape) < mutation
    children[mutate] = random_genes(children.shape)[mutate]
    return children


def _gather(chosen: np.ndarray, origin: np.ndarray) -> np.ndarray:
    """children[c, g...] = chosen[origin[c, g...], g...]."""
    index = np.indices(origin.shape)[1:]
    return chosen[(origin, *index)]


def strategy_tables(game: OneCardGame, x: np.ndarray, y: np.ndarray) -> tuple[dict, dict]:
    """JSON-ready: A's bet probabilities and B's call probabilities per card, over the bets."""
    a = {str(i + 1): [round(float(p), 6) for p in x[i]] for i in range(game.cards)}
    b = {str(j + 1): [round(float(p), 6) for p in y[j]] for j in range(game.cards)}
    return a, b
