"""Regret matching (Hart and Mas-Colell 2000) on zero-sum matrix games.

Each iteration, every learning player

1. plays the regret-matching strategy: cumulative positive regrets, normalised (uniform when no
   regret is positive);
2. adds that strategy to its strategy sum;
3. samples an action for every player from their strategies (seeded);
4. adds, for every action a, u(a, opponent's action) - u(own action, opponent's action) to its
   cumulative regrets.

Against a fixed opponent the current strategy converges to a best response; in self-play the
*average* strategy converges to a Nash equilibrium (the current one keeps cycling).

The seed notebook built each strategy from the *last* iteration's regrets instead of the
cumulative ones (`variant="last"`): that strategy only reacts to the last sampled outcome, so in
self-play its average settles wherever the reactions balance, not at the equilibrium. The
weighted rock-paper-scissors game (rock beats scissors for 2) makes it visible: its equilibrium
is (1/4, 1/2, 1/4), and the last-regret average ends near (1/3, 1/3, 1/3), far from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gambler.games.errors import GameError

RPS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=np.float64)
WEIGHTED_RPS = np.array([[0, -1, 2], [1, 0, -1], [-2, 1, 0]], dtype=np.float64)
RPS_ACTIONS = ("R", "P", "S")
VARIANTS = ("cumulative", "last")   # strategies from cumulative regrets, or the last iteration's


class MatrixGameError(GameError):
    """A matrix game file that cannot be read."""


def load_matrix(path: str | Path) -> tuple[np.ndarray, tuple[str, ...]]:
    """A zero-sum game from a text file: one row per row action, its payoffs to the row player
    separated by spaces or commas; `#` starts a comment; an optional first line
    `actions: A B C` names the actions (rows and columns alike when square)."""
    names = None
    rows = []
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as error:
        raise MatrixGameError(f"cannot read {path}: {error.strerror}") from None
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower().startswith("actions:"):
            names = tuple(line.split(":", 1)[1].split())
            continue
        try:
            rows.append([float(token) for token in line.replace(",", " ").split()])
        except ValueError:
            raise MatrixGameError(f"{path}:{number}: {line!r} is not a row of numbers") from None
    if not rows:
        raise MatrixGameError(f"{path}: no payoff rows")
    if len({len(row) for row in rows}) != 1:
        raise MatrixGameError(f"{path}: rows have different lengths")
    matrix = np.array(rows)
    if not np.isfinite(matrix).all():
        raise MatrixGameError(f"{path}: payoffs must be finite")
    if names is None:
        names = tuple(f"a{i}" for i in range(matrix.shape[0]))
    elif len(names) != matrix.shape[0]:
        raise MatrixGameError(f"{path}: {len(names)} action names for {matrix.shape[0]} rows")
    return matrix, names


def exploitability(matrix: np.ndarray, row: np.ndarray, column: np.ndarray) -> float:
    """NashConv / 2 of the profile (row, column) in the zero-sum game `matrix`."""
    return float(((matrix @ column).max() - (row @ matrix).min()) / 2)


def check_strategy(strategy, actions: int, name: str | None = None) -> np.ndarray:
    """`strategy` as a float array, if it is a mixed strategy over `actions` actions (that many
    non-negative probabilities summing to 1 within 1e-9); otherwise `GameError`, naming the
    strategy as `name` (default: its values)."""
    try:
        values = np.asarray(strategy, dtype=np.float64)
    except (TypeError, ValueError):
        raise GameError(f"{name or repr(strategy)}: not a list of probabilities") from None
    if values.ndim != 1 or values.shape[0] != actions or not np.isfinite(values).all() \
            or (values < 0).any() or abs(values.sum() - 1) > 1e-9:
        shown = name if name is not None else repr(np.ravel(values).tolist())
        raise GameError(f"{shown}: need {actions} probabilities summing to 1")
    return values


def regret_matching(regrets: np.ndarray) -> np.ndarray:
    positive = np.maximum(regrets, 0.0)
    total = positive.sum()
    return positive / total if total > 0 else np.full(regrets.shape, 1 / regrets.shape[0])


@dataclass
class RegretRun:
    average: np.ndarray            # the row player's average strategy
    current: np.ndarray            # its last strategy
    column_average: np.ndarray     # the column player's (its fixed strategy if fixed)
    checkpoints: list[dict]        # iteration, average, current, exploitability


def run(matrix: np.ndarray, iterations: int, opponent: np.ndarray | None = None,
        variant: str = "cumulative", seed: int = 0, checkpoints: int = 10) -> RegretRun:
    """Regret matching for the row player, against `opponent` (fixed) or in self-play."""
    if variant not in VARIANTS:
        raise GameError(f"unknown variant {variant!r} (one of {', '.join(VARIANTS)})")
    if opponent is not None:
        opponent = check_strategy(opponent, matrix.shape[1])
    rng = np.random.default_rng(seed)
    payoff = (matrix, -matrix.T)  # each player's payoff by (own action, other action)
    regrets = [np.zeros(matrix.shape[0]), np.zeros(matrix.shape[1])]
    sums = [np.zeros(matrix.shape[0]), np.zeros(matrix.shape[1])]
    marks = {max(1, round(iterations * k / checkpoints)) for k in range(1, checkpoints + 1)}
    records = []
    rolls = rng.random((iterations, 2))
    for t in range(1, iterations + 1):
        strategies = [regret_matching(regrets[0]),
                      opponent if opponent is not None else regret_matching(regrets[1])]
        actions = [min(int(np.searchsorted(np.cumsum(s), roll, side="right")), len(s) - 1)
                   for s, roll in zip(strategies, rolls[t - 1])]
        for player in (0, 1) if opponent is None else (0,):
            sums[player] += strategies[player]
            other = actions[1 - player]
            gained = payoff[player][:, other] - payoff[player][actions[player], other]
            regrets[player] = regrets[player] + gained if variant == "cumulative" else gained
        if t in marks:
            average = sums[0] / t
            column = opponent if opponent is not None else sums[1] / t
            records.append({"iteration": t, "average": average.tolist(),
                            "current": strategies[0].tolist(),
                            "exploitability": exploitability(matrix, average, column)})
    column_average = opponent if opponent is not None else sums[1] / iterations
    return RegretRun(sums[0] / iterations, regret_matching(regrets[0]), column_average, records)


def best_response(matrix: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """The row player's pure best response to a column strategy, as a distribution."""
    response = np.zeros(matrix.shape[0])
    response[int(np.argmax(matrix @ opponent))] = 1.0
    return response
