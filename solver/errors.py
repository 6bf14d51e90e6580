"""The solver's exception: `SolverError`, under `gambler.errors.GamblerError`.

Raised for input the solver cannot use (a betting abstraction that names a round the game does
not have, a tree too large, a strategy file that does not match its abstraction, a checkpoint of
another run); the message names the file, field or value.
"""

from __future__ import annotations

from gambler.errors import GamblerError


class SolverError(GamblerError, ValueError):
    """Solver input that cannot be used as given; the message names it."""
