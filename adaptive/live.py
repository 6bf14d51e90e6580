"""Counter refreshes for a portfolio's model member, off the decision path.

A refresher is called as `refresher(portfolio, stats, refresh)` by `bot.portfolio.
PortfolioStrategy` when the hands counter `refresh` is fitted on are all in, and returns a
future; the strategy calls its `result()` at hand `refresh x every`, waiting there if needed
(up to `bot.portfolio.REFRESH_WAIT_SECONDS`), so the counter takes effect at the same hand
however long it took (a seeded match replays exactly, and equals the fast engine's, which calls
`training.counter.refresh_counter` in line).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
import threading
import time

#: The longest `ProcessRefresher.close` waits for each step of winding the pool down (the worker's
#: exit after it is terminated, then killed; the pool's manager thread).
CLOSE_WAIT_SECONDS = 5.0


class InlineRefresher:
    """Computes each counter when asked, in the caller (tests, scripts): a future already done."""

    def __init__(self, game):
        self.game = game

    def __call__(self, portfolio, stats, refresh: int) -> concurrent.futures.Future:
        from gambler.training.counter import refresh_counter

        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_result(refresh_counter(self.game, portfolio, stats, refresh))
        return future


def _worker_start(parent: int | None = None) -> None:
    """In the worker: lowest priority but one, so that the player's decisions come first on a
    busy machine, Ctrl-C left to the player (which shuts the worker down), and a watch on the
    player: a worker whose player is gone (killed, crashed) exits within a second instead of
    finishing a search nobody will read."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(10)
    except OSError:
        pass
    if parent is not None:
        threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True).start()


def _exit_when_orphaned(parent: int, every: float = 0.5) -> None:
    """Exit the process once its parent is no longer `parent` (it died: the worker was
    re-parented)."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


def _warm_up(game, portfolio) -> None:
    """Load what every refresh needs before the first one is due: the kernels (a search of one
    step of two candidates), the search's deals and the random holdings' v the model's
    thresholds come from."""
    from dataclasses import replace

    from gambler.bot.opponent import OpponentStats, random_v
    from gambler.training.counter import refresh_counter

    for round_ in range(4):
        random_v(round_)
    small = replace(portfolio, model=replace(portfolio.model, steps=1, population=2))
    refresh_counter(game, small, OpponentStats(), 0)


class ProcessRefresher:
    """Computes the counters in one worker process (started at once, `spawn`ed so that no
    thread or numba state is forked), which warms up while the first hands are played."""

    def __init__(self, game, portfolio):
        self.game = game
        self.pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_start, initargs=(os.getpid(),))
        self.warming = self.pool.submit(_warm_up, game, portfolio)

    def __call__(self, portfolio, stats, refresh: int) -> concurrent.futures.Future:
        from gambler.training.counter import refresh_counter

        return self.pool.submit(refresh_counter, self.game, portfolio, stats, refresh)

    def close(self) -> None:
        """Stop the worker at once, and return only once the pool is wound down.

        A search under way (the warm-up, a counter nobody will read now) is abandoned, not waited
        for: shutting the pool down cancels only the work not yet started, and the interpreter
        joins a running worker at exit, which kept `gambler` from exiting (on a refused
        connection, for minutes) until the warm-up was done. So the worker is terminated (killed
        if it has not exited within `CLOSE_WAIT_SECONDS`) and joined; then the pool's manager
        thread, which winds the pool down once it sees the worker gone (its queues, its wakeup
        pipe), is joined too (up to `CLOSE_WAIT_SECONDS`). Returning before it had finished let
        the interpreter's exit race it: up to Python 3.12, `concurrent.futures`' exit hook
        writes to that pipe without the lock its closing takes, and a close between its check
        and its write printed "Exception ignored in: <module 'threading'>" after the player's
        last line. (The pool's processes and thread: no public way to reach them before Python
        3.14's `terminate_workers`.)"""
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        manager = getattr(self.pool, "_executor_manager_thread", None)
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(CLOSE_WAIT_SECONDS)
            if process.is_alive():
                process.kill()
                process.join(CLOSE_WAIT_SECONDS)
        if manager is not None:
            manager.join(CLOSE_WAIT_SECONDS)


def refresher_for(game, portfolio):
    """What `gambler` plugs into a portfolio with a model member."""
    return ProcessRefresher(game, portfolio)
