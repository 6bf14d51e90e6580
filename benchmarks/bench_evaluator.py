"""Evaluator speed: hand values, exact and Monte Carlo win rates, start-up, against eval7 and treys.

    python -m pip install -e ".[bench]"      # eval7 and treys, for this script only
    python benchmarks/bench_evaluator.py [--quick] [--runs N] [--only rank]

Prints one table (markdown) with the machine, each figure as a median over repetitions, and the
ratio against a peer measured in the same run. Everything runs on one thread (the batch API's
parallel kernel is not used here) unless a row says otherwise. With `--runs N` the whole
measurement runs N times, each in a fresh process, and a last table gives every figure's range
over the runs and in how many of them it met the evaluator's target (this machine's speed
drifts between runs, so one run says little about a target). `--only rank` measures the 7-card
evaluation rows alone (the kernel, `rank_hands` with its checks, eval7 and treys): a run of
about 15 seconds instead of minutes.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

numba.set_num_threads(1)

from gambler.evaluator import parse_cards, warm_up, win_rate  # noqa: E402
from gambler.evaluator.hand_rank import rank_hands, rank_hands_unchecked  # noqa: E402
from gambler.evaluator.showdown import (EXACT_KERNELS, sampled_counts,  # noqa: E402
                                sampled_preflop_counts)
from gambler.evaluator.rng import stream_seed  # noqa: E402
from gambler.evaluator.tables import load_tables  # noqa: E402
from machine import machine_line, median_seconds  # noqa: E402

# Packages numba imports when they are installed, none of which gambler depends on.
NUMBA_OPTIONAL_IMPORTS = ("scipy", "cffi", "colorama")

#: The evaluator's speed targets: (start of a figure's name, the bound's direction, bound in the
#: figure's own unit, the bound as printed). Start-up figures are read as a plain install.
TARGETS = (
    ("7-card evaluations/s, kernel", ">=", 250.0, "≥ 250 M/s"),
    ("exact win rate, river (kernel)", "<=", 10.0, "≤ 10 us"),
    ("exact win rate, turn (kernel)", "<=", 200.0, "≤ 0.2 ms"),
    ("exact win rate, flop (kernel)", "<=", 4000.0, "≤ 4 ms"),
    ("Monte Carlo 10,000 samples, preflop (kernel)", "<=", 0.3, "≤ 0.3 ms"),
    ("Monte Carlo 10,000 samples, flop (kernel)", "<=", 0.15, "≤ 0.15 ms"),
    ("fresh process to ready, warm cache, as a plain install", "<=", 0.6, "≤ 0.6 s"),
    ("fresh process to ready, empty cache", "<=", 5.0, "≤ 5 s"),
)

FULL_RANGE = ("22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,"
              "A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o")


def interleaved_rates(work: dict[str, tuple[int, object]], rounds: int) -> dict[str, float]:
    """Items per second of each `(count, function)` in `work`: the median over `rounds` rounds,
    each of which times every function once, in turn, right after an untimed call of it (so each
    is timed with its own tables in the caches, not those of the function before it)."""
    times: dict[str, list[float]] = {name: [] for name in work}
    for _ in range(rounds):
        for name, (_, function) in work.items():
            function()
            started = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - started)
    return {name: count / statistics.median(times[name]) for name, (count, _) in work.items()}


def random_hands(count: int, size: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.uint8)


def spots(street_size: int, count: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    deals = random_hands(count, 2 + street_size, seed)
    return [(deal[:2].copy(), deal[2:].copy()) for deal in deals]


def leading_number(text: str) -> float:
    """The number a table cell starts with: `"1,772.2 us"` -> 1772.2."""
    match = re.match(r"[\d,]+(\.\d+)?", text.strip())
    if match is None:
        raise ValueError(f"no number in {text!r}")
    return float(match.group(0).replace(",", ""))


def table_rows(output: str) -> list[list[str]]:
    """The body rows of the markdown table in one run's output, as lists of cells."""
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in output.splitlines() if line.startswith("| ")]
    return rows[1:]  # the header row is not a figure


def summarise_runs(outputs: list[str]) -> None:
    """Print each figure's range over the runs, its peer's, and how often it met its target."""
    runs = [dict((row[0], row) for row in table_rows(output)) for output in outputs]
    print(f"| figure | {len(runs)} runs (min - max) | peer (min - max) | ratio (min - max) "
          "| target | met in |")
    print("|---|---|---|---|---|---|")
    for figure, first in runs[0].items():
        cells = [run[figure] for run in runs if figure in run]
        values = [leading_number(cell[1]) for cell in cells]
        unit = first[1].split()[-1]
        peers = [cell[2] for cell in cells if cell[2]]
        peer_range = ""
        if peers:
            peer_name = peers[0].rsplit(" ", 2)[0]
            peer_values = [leading_number(peer.rsplit(" ", 2)[1]) for peer in peers]
            peer_range = (f"{peer_name} {min(peer_values):,g} - {max(peer_values):,g} "
                          f"{peers[0].split()[-1]}")
        ratios = [leading_number(cell[3]) for cell in cells if cell[3]]
        ratio_range = f"{min(ratios):,g}x - {max(ratios):,g}x" if ratios else ""
        target, met = "", ""
        for prefix, direction, bound, text in TARGETS:
            if figure.startswith(prefix):
                hits = sum(value >= bound if direction == ">=" else value <= bound
                           for value in values)
                target, met = text, f"{hits} of {len(values)}"
                break
        print(f"| {figure} | {min(values):,g} - {max(values):,g} {unit} | {peer_range} | "
              f"{ratio_range} | {target} | {met} |")


def repeated_runs(count: int, quick: bool, only: str | None = None) -> None:
    """Run the benchmark `count` times in fresh processes, then summarise the runs."""
    outputs = []
    for run in range(count):
        command = [sys.executable, os.path.abspath(__file__)] + (["--quick"] if quick else [])
        command += ["--only", only] if only else []
        output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        print(f"Run {run + 1} of {count}:\n\n{output}", flush=True)
        outputs.append(output)
    summarise_runs(outputs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--runs", type=int, default=1, metavar="N",
                        help="repeat everything N times in fresh processes, then summarise")
    parser.add_argument("--only", choices=["rank"], default=None,
                        help="only the 7-card evaluation rows (rank: kernel, rank_hands, peers)")
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    if options.runs > 1:
        repeated_runs(options.runs, options.quick, options.only)
        return
    repeats = 5 if options.quick else 15
    rows: list[tuple[str, str, str, str]] = []  # (figure, gambler, peer, ratio)

    import eval7
    from treys import Card, Evaluator

    tables = load_tables()
    warm_up()

    # --- 7-card evaluation throughput -----------------------------------------------------------
    hands = random_hands(100_000, 7)
    names = ["23456789TJQKA"[c // 4] + "cdhs"[c % 4] for c in range(52)]
    eval7_hands = [[eval7.Card(names[c]) for c in hand] for hand in hands[:20_000].tolist()]
    evaluate7 = eval7.evaluate
    treys_hands = [[Card.new(names[c]) for c in hand] for hand in hands[:5_000].tolist()]
    treys_eval = Evaluator().evaluate
    # Interleaved, one timing of each per round, so that a change of machine speed during the
    # run (the machine may be shared) hits gambler and its peers alike.
    rates = interleaved_rates({
        "kernel": (len(hands), lambda: rank_hands_unchecked(hands, tables)),
        "api": (len(hands), lambda: rank_hands(hands)),
        "eval7": (len(eval7_hands), lambda: [evaluate7(hand) for hand in eval7_hands]),
        "treys": (len(treys_hands),
                  lambda: [treys_eval(hand[:2], hand[2:]) for hand in treys_hands]),
    }, repeats)
    ours_raw, ours_api, eval7_rate, treys_rate = (
        rates[name] for name in ("kernel", "api", "eval7", "treys"))
    rows.append(("7-card evaluations/s, kernel (100k random hands)", f"{ours_raw / 1e6:.0f} M",
                 f"eval7 {eval7_rate / 1e6:.2f} M", f"{ours_raw / eval7_rate:,.0f}x"))
    rows.append(("7-card evaluations/s, `rank_hands` with input checks", f"{ours_api / 1e6:.0f} M",
                 f"eval7 {eval7_rate / 1e6:.2f} M", f"{ours_api / eval7_rate:,.0f}x"))
    rows.append(("7-card evaluations/s, `rank_hands` against treys", f"{ours_api / 1e6:.0f} M",
                 f"treys {treys_rate / 1e6:.3f} M", f"{ours_api / treys_rate:,.0f}x"))
    if options.only == "rank":
        print_table(rows, repeats, "")
        return

    # --- exact win rates --------------------------------------------------------------------------
    full_range = eval7.HandRange(FULL_RANGE)
    for street, size, count in (("river", 5, 40), ("turn", 4, 20), ("flop", 3, 8)):
        cases = spots(size, count, seed=size)
        exact = EXACT_KERNELS[size]
        kernel = statistics.median(
            median_seconds(lambda h=h, b=b: exact(tables, h, b), max(3, repeats // 3))
            for h, b in cases)
        texts = [("".join(names[c] for c in hole), "".join(names[c] for c in board))
                 for hole, board in cases]
        api = statistics.median(
            median_seconds(lambda h=h, b=b: win_rate(h, b), max(3, repeats // 3)) for h, b in texts)
        if street == "river":  # eval7's exact agrees with treys on the river only (README)
            peer_cases = [([eval7.Card(h[i:i + 2]) for i in (0, 2)],
                           [eval7.Card(b[i:i + 2]) for i in range(0, len(b), 2)])
                          for h, b in texts]
            peer = statistics.median(median_seconds(
                lambda h=h, b=b: eval7.py_hand_vs_range_exact(h, full_range, b), 3)
                for h, b in peer_cases)
            peer_text, ratio = f"eval7 {peer * 1e6:.0f} us", f"{peer / api:.0f}x"
        else:
            peer_text, ratio = "", ""
        rows.append((f"exact win rate, {street} (kernel)",
                     f"{kernel * 1e6:,.1f} us", "", ""))
        rows.append((f"exact win rate, {street} (`win_rate`, from card strings)",
                     f"{api * 1e6:,.1f} us", peer_text, ratio))

    # --- Monte Carlo ------------------------------------------------------------------------------
    for street, board_text in (("preflop", ""), ("flop", "Qh7c2d")):
        hole, board = parse_cards("AsKc"), parse_cards(board_text)
        state = np.uint64(stream_seed(1, 0))
        if len(board):
            def sample():
                sampled_counts(tables, hole, board, 10_000, state)
        else:
            def sample():
                sampled_preflop_counts(tables, hole, 10_000, state)
        kernel = median_seconds(sample, repeats * 2)
        peer_hand = [eval7.Card("As"), eval7.Card("Kc")]
        peer_board = [eval7.Card(board_text[i:i + 2]) for i in range(0, len(board_text), 2)]
        peer = median_seconds(lambda: eval7.py_hand_vs_range_monte_carlo(
            peer_hand, full_range, peer_board, 10_000), repeats)
        rows.append((f"Monte Carlo 10,000 samples, {street} (kernel)", f"{kernel * 1e3:.3f} ms",
                     f"eval7 {peer * 1e3:.3f} ms", f"{peer / kernel:.1f}x"))

    # --- start-up ---------------------------------------------------------------------------------
    # gambler: import the evaluator and load the exact kernels. Peer: the least a numba program
    # can do, import numba and load one trivial cached function. numba imports some packages
    # when they are installed: SciPy at the first kernel load (to probe for BLAS), cffi (and
    # through it pycparser) at the same moment, colorama with its error messages. gambler depends
    # on none of them, so both are also measured with them hidden, as after `pip install gambler`
    # into a fresh environment.
    optional = [name for name in NUMBA_OPTIONAL_IMPORTS if importlib.util.find_spec(name)]
    hide_optional = "".join(f"sys.modules[{name!r}] = None; " for name in optional)
    hide_optional = "import sys; " + hide_optional if optional else ""
    probe = ("import time; t = time.perf_counter(); import evaluator; evaluator.warm_up(); "
             "import resource; print(time.perf_counter() - t, "
             "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)")
    floor = ("import time; t = time.perf_counter(); import trivial; trivial.add_one(1); "
             "import resource; print(time.perf_counter() - t, "
             "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)")

    # Children may write bytecode caches (`.pyc`), as a normal installation does: a sandbox that
    # sets PYTHONDONTWRITEBYTECODE would otherwise recompile gambler's sources in every process.
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def child(code: str, env=None) -> list[float]:
        """[seconds from spawning a process until it says it is ready, what it printed...]."""
        env = base_env if env is None else env
        started = time.perf_counter()
        with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env=env) as process:
            line = process.stdout.readline()
            ready = time.perf_counter() - started
            process.communicate()
        if process.returncode:
            raise RuntimeError(f"start-up probe failed: {code}")
        return [ready] + [float(x) for x in line.split()]

    def bot_child(prefix: str) -> float:
        """Seconds from spawning `gambler 127.0.0.1 PORT` until its VERSION line arrives (the
        bot loads its profile and kernels before it answers, as in a match)."""
        with socket.socket() as server:
            server.bind(("127.0.0.1", 0))
            server.listen(1)
            port = server.getsockname()[1]
            code = prefix + f"from bot.cli import main; main(['127.0.0.1', '{port}'])"
            started = time.perf_counter()
            with subprocess.Popen([sys.executable, "-c", code], env=base_env,
                                  stderr=subprocess.DEVNULL) as process:
                connection, _ = server.accept()
                with connection, connection.makefile() as lines:
                    line = lines.readline()
                ready = time.perf_counter() - started
                process.wait()  # the bot exits when the connection closes
        if not line.startswith("VERSION:"):
            raise RuntimeError(f"the bot sent {line!r} instead of its VERSION line")
        return ready

    runs = repeats // 2 + 2
    if optional:
        plain_label = f", as a plain install ({', '.join(optional)} hidden)"
        variants = [("", ""), (hide_optional, plain_label)]
    else:  # nothing to hide: this process is a plain install
        plain_label = ", as a plain install"
        variants = [("", plain_label)]
    child(probe)  # make sure the cache is warm
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "trivial.py"), "w") as file:
            file.write("import numba\n@numba.njit(cache=True)\ndef add_one(x):\n    return x + 1\n")
        floor_env = {**base_env, "PYTHONPATH": folder, "NUMBA_CACHE_DIR": folder}
        child(floor, floor_env)
        interpreter_runs = []
        for prefix, label in variants:
            warm, floor_runs, bot_runs = [], [], []
            bot_child(prefix)
            for _ in range(runs):  # interleaved, so a change of machine speed hits all alike
                warm.append(child(prefix + probe))
                floor_runs.append(child(prefix + floor, floor_env))
                bot_runs.append(bot_child(prefix))
                interpreter_runs.append(child("print(0, flush=True)")[0])
            warm_total = statistics.median(run[0] for run in warm)
            floor_total = statistics.median(run[0] for run in floor_runs)
            bot_total = statistics.median(bot_runs)
            # Memory: kept from the last variant, the plain install when there is one.
            rss_mb = statistics.median(run[2] for run in warm) / 1024
            floor_rss_mb = statistics.median(run[2] for run in floor_runs) / 1024
            rows.append((f"fresh process to ready, warm cache{label}: "
                         "`import evaluator; warm_up()`",
                         f"{warm_total:.2f} s", f"numba + 1 cached function {floor_total:.2f} s",
                         f"{warm_total / floor_total:.2f}x"))
            rows.append((f"`gambler HOST PORT` to its VERSION line, warm cache{label}",
                         f"{bot_total:.2f} s", f"numba + 1 cached function {floor_total:.2f} s",
                         f"{bot_total / floor_total:.2f}x"))
    rows.append(("Python alone: fresh interpreter to its first line (site, .pth files)",
                 f"{statistics.median(interpreter_runs):.3f} s", "", ""))
    cold_times = []
    for _ in range(1 if options.quick else 3):
        with tempfile.TemporaryDirectory() as cache:
            cold_times.append(child(hide_optional + probe,
                                    env={**base_env, "NUMBA_CACHE_DIR": cache})[0])
    rows.append((f"fresh process to ready, empty cache{plain_label}: compile the exact kernels",
                 f"{statistics.median(cold_times):.1f} s", "", ""))
    rows.append((f"resident memory after warm-up (max RSS){plain_label}", f"{rss_mb:.0f} MB",
                 f"numba + 1 cached function {floor_rss_mb:.0f} MB",
                 f"{rss_mb / floor_rss_mb:.2f}x"))

    optional_note = (f"installed and imported by numba if present: {', '.join(optional)}"
                     if optional else f"none of {', '.join(NUMBA_OPTIONAL_IMPORTS)} installed")
    print_table(rows, repeats, f", {optional_note}")


def print_table(rows: list[tuple[str, str, str, str]], repeats: int, note: str) -> None:
    """The machine line, then the figures as one markdown table."""
    print(f"{machine_line()}, numba {numba.__version__}{note}; "
          f"medians of {repeats} runs, one thread")
    print()
    print("| figure | gambler | peer (same run) | ratio |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
