"""The self-play engine: hands per second, against the same hands played by the Python rules.

    python benchmarks/bench_training.py [--deals 20000]

Profile against profile (seed vs handmade) on one deal set whose win rates already exist, as in
training. Rows: the numba engine on one core, on all cores (numba threads, identical results),
and the peer measured in the same run: the protocol's `BettingState` with the bot's automaton in
Python, hand by hand. Also the one-off cost of a deal set's exact win rates.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba
import numpy as np

from bot.automaton import choose_action, plan_for_state
from bot.params import load_profile
from protocol import BettingState, load_game
from training.deals import compute_deal_set
from machine import machine_line
from training.engine import encode_rules, encode_strategy, play_deals, play_deals_parallel


def python_hands(game, deals, first, second, count: int) -> float:
    """Hands per second for the pure-Python reference (both seat orders of `count` deals)."""
    started = time.perf_counter()
    for i in range(count):
        for order in ((first, second), (second, first)):
            state = BettingState.start(game)
            plans = {}
            while not state.finished:
                position = state.current_player
                key = (position, state.round)
                if key not in plans:
                    plans[key] = plan_for_state(order[position].rounds[state.round],
                                                deals.v[i, position, state.round], state)
                state = state.apply(choose_action(plans[key], state))
    return 2 * count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    options = parser.parse_args()
    game = load_game()
    started = time.perf_counter()
    deals = compute_deal_set(seed=77, first_deal=0, count=options.deals)
    win_rate_seconds = time.perf_counter() - started
    first, second = load_profile("seed"), load_profile("handmade")
    rules = encode_rules(game)
    a, b = encode_strategy(first), encode_strategy(second)
    results = np.zeros((len(deals), 2), dtype=np.int64)
    adjusted = np.zeros((len(deals), 2))
    arguments = (rules, *a, *b, deals.v, deals.outcomes, deals.allin_equity, 1, 0, results,
                 adjusted)
    play_deals(*arguments)
    play_deals_parallel(*arguments)
    rows = []
    for label, kernel, threads in (("numba engine, one core", play_deals, 1),
                                   (f"numba engine, {numba.config.NUMBA_NUM_THREADS} threads",
                                    play_deals_parallel, numba.config.NUMBA_NUM_THREADS)):
        numba.set_num_threads(threads)
        times = []
        for _ in range(7):
            clock = time.perf_counter()
            kernel(*arguments)
            times.append(time.perf_counter() - clock)
        rows.append((label, 2 * len(deals) / statistics.median(times)))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    reference = statistics.median(python_hands(game, deals, first, second, 300)
                                  for _ in range(3))
    print(f"{machine_line()}, numba {numba.__version__}; seed vs handmade, "
          f"{len(deals):,} duplicate deals ({2 * len(deals):,} hands), medians")
    print()
    print("| engine | hands/s | ratio to the Python rules |")
    print("|---|---|---|")
    for label, rate in rows:
        print(f"| {label} | {rate:,.0f} | {rate / reference:,.0f}x |")
    print(f"| Python `BettingState` + automaton (peer) | {reference:,.0f} | 1x |")
    print()
    print(f"Exact win rates for the deal set (once, cached on disk afterwards): "
          f"{win_rate_seconds:.1f} s, {1000 * win_rate_seconds / len(deals):.2f} ms per deal "
          f"(both positions, four streets, all cores).")


if __name__ == "__main__":
    main()
