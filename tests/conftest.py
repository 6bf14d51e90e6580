"""Shared fixtures: the treys oracle and card helpers."""

import numpy as np
import pytest
from treys import Card, Evaluator

from gambler.evaluator.cards import card_text


@pytest.fixture(scope="session")
def treys_cards() -> np.ndarray:
    """treys' integer for each of our card codes 0..51."""
    return np.array([Card.new(card_text(code)) for code in range(52)], dtype=np.int64)


@pytest.fixture(scope="session")
def treys_evaluator() -> Evaluator:
    return Evaluator()


def random_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """`count` random sets of `size` distinct cards, uint8[count, size]."""
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.uint8)


def interruptible() -> dict:
    """`subprocess.Popen` arguments for a child that a test stops with SIGINT: the child starts
    with SIGINT's default action, so Python turns it into KeyboardInterrupt even when the test
    run itself ignores SIGINT (a shell starts background jobs that way)."""
    import signal

    return {"preexec_fn": lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)}
