"""Nash equilibria of bimatrix games by Lemke-Howson, and Kuhn poker with loss-averse players.

Lemke-Howson (1964), in the tableau form of von Stengel (Algorithmic Game Theory, ch. 3):
payoffs are shifted to be positive; the row player's tableau has one row per column strategy and
the column player's one per row strategy; starting from the artificial equilibrium (0, 0), the
label `k` is dropped and labels are pivoted in, alternately in the two tableaux, until the
missing label returns. Ratio tests are lexicographic, which keeps degenerate games (Kuhn's
normal form has many ties) from cycling. Any starting label gives an equilibrium; the normalised
result is checked to have no profitable pure deviation.

Loss aversion (the seed's gtree study): a player values a gain x as x and a loss as lambda x, so
Kuhn poker stops being zero-sum and is solved here over its reduced normal form: player 0 picks,
for each card, bet / check-fold / check-call (27 plans), player 1, for each card, its answer to a
bet and to a check (64 plans).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from gambler.games.errors import GameError, SolverError


def _lex_min_ratio(tableau: np.ndarray, column: int, rows: list[int], basis_width: int) -> int:
    """Leaving row: minimum ratio rhs / entry, ties broken lexicographically on the rows of the
    identity block (columns 1..basis_width), as in the lexicographic simplex method."""
    candidates = [r for r in rows if tableau[r, column] > 1e-12]
    if not candidates:
        raise SolverError("unbounded ray: the game data is not valid for Lemke-Howson")
    for key in range(basis_width + 1):
        ratios = [tableau[r, key] / tableau[r, column] for r in candidates]
        best = min(ratios)
        candidates = [r for r, ratio in zip(candidates, ratios) if ratio <= best + 1e-12]
        if len(candidates) == 1:
            return candidates[0]
    return candidates[0]


def lemke_howson(row_payoffs: np.ndarray, column_payoffs: np.ndarray,
                 dropped_label: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A Nash equilibrium (x, y) of the bimatrix game (A, B): A for the row player."""
    A = np.asarray(row_payoffs, dtype=np.float64)
    B = np.asarray(column_payoffs, dtype=np.float64)
    m, n = A.shape
    shift = 1.0 - min(A.min(), B.min())
    A = A + shift
    B = B + shift
    # Labels: 0..m-1 row strategies, m..m+n-1 column strategies.
    # Tableau for x (rows indexed by column strategies): s_j + (B^T x)_j = 1.
    # Tableau for y (rows indexed by row strategies):    r_i + (A y)_i = 1.
    # Columns of each tableau: [rhs | slack identity | variables].
    tableau_x = np.hstack([np.ones((n, 1)), np.eye(n), B.T])   # variables x_0..x_{m-1}
    tableau_y = np.hstack([np.ones((m, 1)), np.eye(m), A])     # variables y_0..y_{n-1}
    # Basic variable of each row, as a label: slack s_j has label m + j, slack r_i label i.
    basis_x = [m + j for j in range(n)]
    basis_y = [i for i in range(m)]

    def column_of(label, in_x):
        if in_x:  # tableau_x holds slacks s (labels m..m+n-1) and x (labels 0..m-1)
            return 1 + (label - m) if label >= m else 1 + n + label
        return 1 + label if label < m else 1 + m + (label - m)

    entering = dropped_label
    in_x = dropped_label < m  # x_k enters the x tableau; y_k the y tableau
    for _ in range(10_000):
        tableau, basis = (tableau_x, basis_x) if in_x else (tableau_y, basis_y)
        column = column_of(entering, in_x)
        width = n if in_x else m
        row = _lex_min_ratio(tableau, column, list(range(tableau.shape[0])), width)
        tableau[row] /= tableau[row, column]
        for other in range(tableau.shape[0]):
            if other != row and tableau[other, column] != 0:
                tableau[other] -= tableau[other, column] * tableau[row]
        leaving = basis[row]
        basis[row] = entering
        if leaving == dropped_label:
            break
        entering = leaving
        in_x = not in_x
    else:
        raise SolverError("Lemke-Howson did not terminate")
    x = np.zeros(m)
    y = np.zeros(n)
    for row, label in enumerate(basis_x):
        if label < m:
            x[label] = tableau_x[row, 0]
    for row, label in enumerate(basis_y):
        if label >= m:
            y[label - m] = tableau_y[row, 0]
    return x / x.sum(), y / y.sum()


def is_equilibrium(A: np.ndarray, B: np.ndarray, x: np.ndarray, y: np.ndarray,
                   tolerance: float = 1e-9) -> bool:
    """x and y are mixed strategies (non-negative, summing to 1 within `tolerance`) and no pure
    strategy gains more than `tolerance` for either player against them."""
    for strategy in (x, y):
        if strategy.min() < -tolerance or abs(strategy.sum() - 1.0) > tolerance:
            return False
    return bool((A @ y).max() <= x @ A @ y + tolerance and (x @ B).max() <= x @ B @ y + tolerance)


# --- Kuhn poker in reduced normal form ----------------------------------------------------------

# Player 0, per card: bet; check then fold; check then call.
FIRST_PLANS = ("b", "pf", "pc")
# Player 1, per card: its answer to a bet (fold or call), then its action after a check.
SECOND_PLANS = ("fp", "fb", "cp", "cb")


def _kuhn_payoff(card0: int, card1: int, plan0: str, plan1: str) -> int:
    """Player 0's chips in one deal."""
    higher = 1 if card0 > card1 else -1
    if plan0 == "b":
        return higher * 2 if plan1[0] == "c" else 1
    if plan1[1] == "p":
        return higher
    return higher * 2 if plan0 == "pc" else -1


@dataclass(frozen=True)
class KuhnNormalForm:
    first: list[tuple[str, str, str]]    # player 0's plans: one of FIRST_PLANS per card J Q K
    second: list[tuple[str, str, str]]   # player 1's plans: one of SECOND_PLANS per card
    deals: np.ndarray                    # chips[p0 plan, p1 plan, deal] for the 6 deals

    def payoffs(self, loss_aversion: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """Expected utilities (A for player 0, B for player 1) with gains x -> x, losses ->
        loss_aversion * x for both players."""
        def felt(chips):
            return np.where(chips >= 0, chips, loss_aversion * chips)
        return felt(self.deals).mean(axis=2), felt(-self.deals).mean(axis=2)


def kuhn_normal_form() -> KuhnNormalForm:
    first = list(itertools.product(FIRST_PLANS, repeat=3))
    second = list(itertools.product(SECOND_PLANS, repeat=3))
    deals = [(a, b) for a in range(3) for b in range(3) if a != b]
    chips = np.array([[[_kuhn_payoff(a, b, plan0[a], plan1[b]) for a, b in deals]
                       for plan1 in second] for plan0 in first], dtype=np.float64)
    return KuhnNormalForm(first, second, chips)


def behaviour(form: KuhnNormalForm, x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Probabilities of the key actions, per information set (Kuhn naming: 0 = J, 1 = Q, 2 = K).

    For player 0: `"<card>": P(bet)` and `"<card>pb": P(call | check, bet)`; for player 1:
    `"<card>b": P(call)` and `"<card>p": P(bet after a check)`.
    """
    result = {}

    def clean(value: float) -> float:
        return round(float(value), 9) + 0.0  # no -0.0 from rounding noise

    for card in range(3):
        bet = sum(p for p, plan in zip(x, form.first) if plan[card] == "b")
        call = sum(p for p, plan in zip(x, form.first) if plan[card] == "pc")
        result[f"{card}"] = clean(bet)
        result[f"{card}pb"] = clean(call / (1 - bet)) if bet < 1 - 1e-12 else None
        result[f"{card}b"] = clean(sum(p for p, plan in zip(y, form.second)
                                       if plan[card][0] == "c"))
        result[f"{card}p"] = clean(sum(p for p, plan in zip(y, form.second)
                                       if plan[card][1] == "b"))
    return result


@dataclass(frozen=True)
class LossAverseKuhn:
    """One equilibrium of Kuhn poker with loss-averse players, beside a risk-neutral one."""
    loss_aversion: float                   # a loss of x chips feels like loss_aversion * x
    x: np.ndarray                          # player 0's mixed strategy over its 27 plans
    y: np.ndarray                          # player 1's over its 64 plans
    expected_chips: float                  # player 0's expected chips (not its felt utility)
    utilities: tuple[float, float]         # each player's felt (loss-weighted) utility
    risk_neutral: dict[str, float | None]  # `behaviour` of the risk-neutral equilibrium
    loss_averse: dict[str, float | None]   # `behaviour` of the loss-averse one


def loss_averse_kuhn(loss_aversion: float) -> LossAverseKuhn:
    """Lemke-Howson (dropped label 0) on Kuhn's reduced normal form, with losses weighing
    `loss_aversion` and, for comparison, with gains and losses weighing the same; both profiles
    are checked to be equilibria (`SolverError` if not)."""
    if isinstance(loss_aversion, bool) or not isinstance(loss_aversion, (int, float)) \
            or not math.isfinite(loss_aversion) or loss_aversion <= 0:
        raise GameError(f"loss aversion {loss_aversion!r}: need a finite number above 0")
    form = kuhn_normal_form()
    neutral_a, neutral_b = form.payoffs(1.0)
    averse_a, averse_b = form.payoffs(loss_aversion)
    x0, y0 = lemke_howson(neutral_a, neutral_b)
    x, y = lemke_howson(averse_a, averse_b)
    if not (is_equilibrium(averse_a, averse_b, x, y)
            and is_equilibrium(neutral_a, neutral_b, x0, y0)):
        raise SolverError("Lemke-Howson returned a profile that is not an equilibrium")
    return LossAverseKuhn(
        loss_aversion, x, y, float(x @ form.deals.mean(axis=2) @ y),
        (float(x @ averse_a @ y), float(x @ averse_b @ y)),
        behaviour(form, x0, y0), behaviour(form, x, y))
