"""The TCP bot's counter worker (`gambler.adaptive.live`): it does not outlive its player."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

PLAYER = textwrap.dedent("""
    import concurrent.futures, multiprocessing, os, time
    from gambler.adaptive.live import _worker_start

    if __name__ == "__main__":
        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_start, initargs=(os.getpid(),))
        print(pool.submit(os.getpid).result(), flush=True)
        pool.submit(time.sleep, 120)  # a search that would outlast the player
        time.sleep(120)
""")


def gone(pid: int) -> bool:
    """Exited: no such process, or a zombie waiting to be reaped."""
    status = Path(f"/proc/{pid}/status")
    try:
        return "\nState:\tZ" in status.read_text()
    except FileNotFoundError:
        return True


def test_a_worker_whose_player_is_killed_exits(tmp_path):
    script = tmp_path / "player.py"
    script.write_text(PLAYER)
    player = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(player.stdout.readline())
        time.sleep(1.0)
        assert not gone(worker)  # alive while its player is
        player.send_signal(signal.SIGKILL)
        player.wait()
        deadline = time.monotonic() + 10
        while not gone(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert gone(worker)
    finally:
        player.kill()
        if not gone(worker):
            os.kill(worker, signal.SIGKILL)


CLOSING = textwrap.dedent("""
    import time
    from gambler.adaptive.live import ProcessRefresher
    from gambler.bot.strategies import resolve_strategy
    from gambler.protocol.gamedef import load_game

    if __name__ == "__main__":
        refresher = ProcessRefresher(load_game(), resolve_strategy("adaptive"))
        refresher.warming.result()
        search = refresher.pool.submit(time.sleep, 120)  # under way when the match ends
        while not search.running():
            time.sleep(0.05)
        refresher.close()
        print("closed", flush=True)
""")


def test_a_player_that_closes_its_refresher_exits_without_waiting_for_the_search(tmp_path):
    """`close` ends the worker, so the player's interpreter does not join a search nobody will
    read at exit (a refused connection kept `gambler` waiting for the warm-up): here a search of
    two minutes under way, and the player gone within seconds of closing."""
    script = tmp_path / "closing.py"
    script.write_text(CLOSING)
    player = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert player.stdout.readline().strip() == "closed"
        assert player.wait(timeout=60) == 0  # not the 120 s of the search
    finally:
        player.kill()


EXITING = textwrap.dedent("""
    import threading, time
    from concurrent.futures import process
    from gambler.adaptive.live import ProcessRefresher
    from gambler.bot.strategies import resolve_strategy
    from gambler.protocol.gamedef import load_game

    def slow_wakeup(self):
        # Python 3.11's `_ThreadWakeup.wakeup`, with the window a preemption opens between its
        # check that the pipe is open and its write widened at exit, so that a manager thread
        # still winding the pool down closes the pipe inside it.
        if not self._closed:
            if exiting:
                time.sleep(0.5)
            self._writer.send_bytes(b"")

    if __name__ == "__main__":
        exiting = False
        process._ThreadWakeup.wakeup = slow_wakeup
        refresher = ProcessRefresher(load_game(), resolve_strategy("adaptive"))
        while not refresher.warming.running():
            time.sleep(0.01)
        refresher.close()  # the warm-up under way
        print(*sorted(thread.name for thread in threading.enumerate()), flush=True)
        exiting = True
""")


def test_a_closed_refresher_leaves_nothing_for_the_interpreters_exit_to_race(tmp_path):
    """`close` returns once the pool's manager thread has wound the pool down (its pipe closed),
    so the exit hook of `concurrent.futures` finds nothing to wake: the player's stderr ends with
    its own last line, never "Exception ignored in: <module 'threading'>" (`gambler` against a
    server that sends no state printed that now and then)."""
    script = tmp_path / "exiting.py"
    script.write_text(EXITING)
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["MainThread"]  # no manager thread, no queue feeder left
    assert result.stderr == ""
