"""AIVAT's cost: milliseconds a hand to score a log's hands, beside the all-in adjustment's.

    python benchmarks/bench_aivat.py [--hands 400] [--runs 3]
    python benchmarks/bench_aivat.py --log match.log --name a --profile blueprint

Rows, each a median over `--runs` (after one untimed call, which compiles the kernels):

* `default-v2` (an automaton profile with mixed play) on HANDS hands the Python bot played
  against an opponent that folds, calls and raises at random (the tests' `_play`);
* with `--log`, player NAME of that log, who played PROFILE (a blueprint or any fixed profile);

each against the peer measured on the same hands in the same run: the all-in adjustment
(`training.luck.adjusted_values`), the other luck-removing score of a log.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the hand player of the tests

from machine import machine_line, median_seconds  # noqa: E402


def _row(label: str, strategy, hands, name: str, runs: int) -> str:
    from gambler.training.aivat_holdem import score_hands
    from gambler.training.luck import adjusted_values

    aivat = median_seconds(lambda: score_hands(strategy, hands, name), runs)
    adjusted = median_seconds(lambda: [adjusted_values(hand) for hand in hands], runs)
    count = len(hands)
    return (f"| {label} | {count:,} | {1000 * aivat / count:.2f} | "
            f"{1000 * adjusted / count:.3f} | {aivat / adjusted:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--log", default=None, help="an ACPC dealer's log to score too")
    parser.add_argument("--name", default="a", help="the log's player to score (default a)")
    parser.add_argument("--profile", default="blueprint", help="what that player played")
    options = parser.parse_args()

    import numba
    import numpy as np

    from gambler.bot.strategies import member_strategy, resolve_strategy
    from gambler.protocol.gamedef import load_game
    from gambler.protocol.logs import read_log
    from test_aivat_holdem import _play

    print(machine_line() + f", {numba.get_num_threads()} numba threads")
    print()
    print("| hands of | hands | AIVAT, ms a hand | all-in adjustment (peer), ms a hand | "
          "AIVAT / peer |")
    print("|---|---:|---:|---:|---:|")
    profile = resolve_strategy("default-v2")
    strategy = member_strategy(profile, seed=4)
    rng = np.random.default_rng(7)
    started = time.perf_counter()
    hands = [_play(strategy, number % 2, number, rng) for number in range(options.hands)]
    played = time.perf_counter() - started
    print(_row("`default-v2` against a random opponent", profile, hands, "bp", options.runs))
    if options.log:
        logged = read_log(load_game(), options.log)
        print(_row(f"`{options.profile}` in {Path(options.log).name}",
                   resolve_strategy(options.profile), logged, options.name, options.runs))
    print()
    print(f"(playing the {options.hands:,} hands of the first row took {played:.1f} s)")


if __name__ == "__main__":
    main()
