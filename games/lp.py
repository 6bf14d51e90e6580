"""A small dense two-phase simplex method, for the exact solutions of the toy games.

maximise c x subject to A_ub x <= b_ub, A_eq x = b_eq, x >= 0.

Phase 1 minimises the sum of artificial variables (one per equality row and per inequality row
with a negative right-hand side, after the row is negated) to find a feasible basis; phase 2
optimises c from it. Bland's rule (smallest index enters, smallest basic index leaves among ties)
rules out cycling. Dense tableaux in float64 suit the few hundred variables these games need.
"""

from __future__ import annotations

import numpy as np

from gambler.games.errors import SolverError


class LinearProgramError(SolverError):
    """Infeasible or unbounded (a `GamblerError` and an `ArithmeticError`)."""


def _pivot(tableau: np.ndarray, row: int, column: int) -> None:
    tableau[row] /= tableau[row, column]
    column_values = tableau[:, column].copy()
    column_values[row] = 0.0
    tableau -= np.outer(column_values, tableau[row])


def _simplex(tableau: np.ndarray, basis: list[int], allowed: int, tolerance: float) -> None:
    """Maximise the objective in the last row (stored as -c) over the first `allowed` columns."""
    rows = tableau.shape[0] - 1
    while True:
        objective = tableau[-1, :allowed]
        entering = next((j for j in range(allowed) if objective[j] < -tolerance), None)
        if entering is None:
            return
        column = tableau[:rows, entering]
        candidates = [(tableau[r, -1] / column[r], basis[r], r) for r in range(rows)
                      if column[r] > tolerance]
        if not candidates:
            raise LinearProgramError("the linear program is unbounded")
        best = min(ratio for ratio, _, _ in candidates)
        _, _, row = min(c for c in candidates if c[0] <= best + tolerance)
        _pivot(tableau, row, entering)
        basis[row] = entering


def maximise(c, A_ub=None, b_ub=None, A_eq=None, b_eq=None,
             tolerance: float = 1e-11) -> tuple[float, np.ndarray]:
    """(optimal value, optimal x)."""
    c = np.asarray(c, dtype=np.float64)
    n = c.shape[0]
    blocks, rhs, slack_rows = [], [], []
    if A_ub is not None:
        blocks.append(np.asarray(A_ub, dtype=np.float64))
        rhs.append(np.asarray(b_ub, dtype=np.float64))
        slack_rows = list(range(blocks[0].shape[0]))
    if A_eq is not None:
        blocks.append(np.asarray(A_eq, dtype=np.float64))
        rhs.append(np.asarray(b_eq, dtype=np.float64))
    A = np.vstack(blocks)
    b = np.concatenate(rhs)
    m = A.shape[0]
    slacks = len(slack_rows)
    # Columns: x (n) | slacks | artificials (m) | rhs
    tableau = np.zeros((m + 1, n + slacks + m + 1))
    tableau[:m, :n] = A
    for k, row in enumerate(slack_rows):
        tableau[row, n + k] = 1.0
    tableau[:m, -1] = b
    negative = b < 0
    tableau[:m][negative] *= -1
    artificial_start = n + slacks
    for row in range(m):
        tableau[row, artificial_start + row] = 1.0
    basis = [artificial_start + row for row in range(m)]
    # Phase 1: maximise -(sum of artificials); reduced costs from the basis.
    tableau[-1, artificial_start:artificial_start + m] = 1.0
    tableau[-1] -= tableau[:m].sum(axis=0)
    _simplex(tableau, basis, artificial_start + m, tolerance)
    if -tableau[-1, -1] > 1e-8:
        raise LinearProgramError("the linear program is infeasible")
    # Drive artificials out of the basis where possible.
    for row, variable in enumerate(basis):
        if variable >= artificial_start:
            for column in range(artificial_start):
                if abs(tableau[row, column]) > tolerance:
                    _pivot(tableau, row, column)
                    basis[row] = column
                    break
    # Phase 2: the real objective, artificial columns barred.
    tableau[-1] = 0.0
    tableau[-1, :n] = -c
    for row, variable in enumerate(basis):
        if tableau[-1, variable] != 0:
            tableau[-1] -= tableau[-1, variable] * tableau[row]
    _simplex(tableau, basis, artificial_start, tolerance)
    x = np.zeros(n + slacks + m)
    for row, variable in enumerate(basis):
        x[variable] = tableau[row, -1]
    return float(tableau[-1, -1]), x[:n]
