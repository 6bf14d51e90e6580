"""The games lab's exceptions, both under `gambler.errors.GamblerError`.

* `GameError` (also a `ValueError`): an argument a game or solver cannot use (an unknown
  algorithm, a mixed strategy that does not sum to 1, rows of Nim with no object, ...); the
  message names the offending value.
* `SolverError` (also an `ArithmeticError`): a solver that cannot answer for the data it was
  given (an infeasible or unbounded linear program, Lemke-Howson without an equilibrium).
"""

from __future__ import annotations

from gambler.errors import GamblerError


class GameError(GamblerError, ValueError):
    """A game or solver argument that cannot be used as given; the message names it."""


class SolverError(GamblerError, ArithmeticError):
    """A solver found no answer for the data it was given."""
