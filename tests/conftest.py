"""Shared fixtures: the treys oracle and card helpers; and the tests' own cache folder.

The tests never write into the user's caches (`gambler.caches`). Before any test module is
imported, `pytest_configure` points `GAMBLER_CACHE` at pytest's own cache folder
(`.pytest_cache/d/gambler-cache` in the repository, git-ignored) and drops `GAMBLER_DEALS` and
`NUMBA_CACHE_DIR`, so compiled kernels, deal sets and holding tables all go there, in this process
and in every child a test starts (children inherit the environment). numba's folder is chosen
when `gambler.jit` is first imported, so nothing here imports gambler at module level, and
configuring refuses to go on if something already did.

Why a persistent folder rather than a fresh temporary one: a cold numba cache costs minutes of
compiling, so repeated local runs reuse the kernels (each source edit gets its own stamp folder,
as for users). Why pytest's: it is already ignored by git and marked as a cache for backup tools,
and `pytest --cache-clear` empties it along with pytest's other state, as one would expect. With
the cache plugin off (`-p no:cacheprovider`), a per-user folder in the system temp folder serves.
Tests that set `GAMBLER_DEALS` themselves (with monkeypatch) still win for deal sets.

The data folder (`GAMBLER_DATA`: installed blueprints) is a fresh temporary folder for each test
process, so no test sees what a user installed, nor leaves anything behind in their folder.
"""

import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from treys import Card, Evaluator


def tests_cache_root(config: pytest.Config) -> Path:
    """The folder the tests' caches live under (created)."""
    if getattr(config, "cache", None) is not None:
        return config.cache.mkdir("gambler-cache")
    folder = Path(tempfile.gettempdir()) / f"gambler-test-cache-{os.getuid()}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder



def pytest_configure(config: pytest.Config) -> None:
    if "gambler.jit" in sys.modules:
        raise pytest.UsageError("gambler.jit was imported before tests/conftest.py set the "
                                "tests' cache folder: numba would write into the user's cache")
    os.environ["GAMBLER_CACHE"] = str(tests_cache_root(config))
    os.environ.pop("GAMBLER_DEALS", None)
    os.environ.pop("NUMBA_CACHE_DIR", None)
    os.environ["GAMBLER_DATA"] = tempfile.mkdtemp(prefix="gambler-test-data-")


def pytest_unconfigure(config: pytest.Config) -> None:
    import shutil

    shutil.rmtree(os.environ.get("GAMBLER_DATA", ""), ignore_errors=True)


@pytest.fixture(scope="session")
def treys_cards() -> np.ndarray:
    """treys' integer for each of our card codes 0..51."""
    from gambler.evaluator.cards import card_text

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
