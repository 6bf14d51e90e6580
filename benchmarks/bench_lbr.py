"""Local best response: hands per second, and the one-off tables behind it.

    python benchmarks/bench_lbr.py [--hands 20000] [--runs 3] [--cache DIR]

Rows, against `default-v1` at C,C,FCPA,FCPA on deals no earlier run of this script used (a private
cache directory, so every figure is measured from cold; `--cache DIR` keeps the deal set and the
holdings tables in DIR instead, so a repeated run, comparing a change before and after, skips
computing them again: the hands/s row is the same, the last row is then no longer from cold):

* the holdings tables (v of every holding on the flop, turn and river of a deal: what LBR needs
  to know the bot's range), per deal, against the peer measured in the same run: the same numbers
  from `win_rate`, one holding at a time;
* LBR's hands per second once the tables exist (numba, every core), against the peer: the
  plain-Python reference LBR of the tests (`tests/lbr_reference.py`), on the same deals;
* the whole of `gambler-lbr default-v1 --hands N` from an empty cache (deal set, tables, play): the
  target is 20,000 hands in under 2 minutes on this machine's two cores.

Medians over `--runs` repetitions where a figure is cheap enough to repeat.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the reference LBR lives with the tests

from machine import machine_line  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep the deals and holdings tables here across runs (default: a "
                             "new private folder, every figure from cold)")
    options = parser.parse_args()
    if options.cache is None:
        cache = tempfile.mkdtemp(prefix="gambler-bench-lbr-")
    else:
        options.cache.mkdir(parents=True, exist_ok=True)
        cache = str(options.cache.resolve())
    os.environ["GAMBLER_DEALS"] = os.path.join(cache, "deals")

    import numba
    import numpy as np

    from gambler.bot.params import load_profile
    from gambler.evaluator import win_rate
    from gambler.evaluator.holdings import HOLDING_CARDS, HOLDINGS, every_holding_rates
    from gambler.evaluator.tables import load_tables
    from lbr_reference import ReferenceBot, reference_lbr_hand
    from gambler.protocol import load_game
    from gambler.training.deals import deal_cards
    from gambler.training.lbr import LbrDeals, holding_preflop_v, run_lbr

    game = load_game()
    profile = load_profile("default-v1")  # the figures in the README were measured with it
    tables = load_tables()
    warm_holes, warm_boards = deal_cards(99, 0, 4)
    every_holding_rates(tables, warm_boards, np.zeros((4, 3, HOLDINGS)))  # compile or load

    # 1. The tables, per deal: all cores in one pass, against win_rate one holding at a time.
    _, boards = deal_cards(77, 0, 200)
    times = []
    for _ in range(options.runs):
        started = time.perf_counter()
        every_holding_rates(tables, boards, np.zeros((200, 3, HOLDINGS)))
        times.append((time.perf_counter() - started) / 200)
    table_seconds = statistics.median(times)
    board = [int(card) for card in boards[0]]
    started = time.perf_counter()
    for index in range(HOLDINGS):
        hole = [int(card) for card in HOLDING_CARDS[index]]
        for size in (3, 4, 5):
            if not set(hole) & set(board[:size]):
                win_rate(hole, board[:size])
    peer_table_seconds = time.perf_counter() - started

    # 2. LBR's hands per second with the tables in memory, and the reference's.
    seed = 78
    hands = options.hands
    cold_started = time.perf_counter()
    deals = LbrDeals(seed, hands, keep=True)
    run_lbr(profile, game, deals=deals)  # computes and caches the tables
    cold_seconds = time.perf_counter() - cold_started
    times = []
    for _ in range(options.runs):
        started = time.perf_counter()
        run_lbr(profile, game, deals=deals)
        times.append(time.perf_counter() - started)
    lbr_rate = 2 * deals.count / statistics.median(times)
    reference_deals = 40
    preflop_v = holding_preflop_v()
    holding_v = next(deals.chunks())[2]
    started = time.perf_counter()
    for i in range(reference_deals):
        bot = ReferenceBot(profile, preflop_v, holding_v[i])
        for lbr in range(2):
            reference_lbr_hand(game, lbr, bot, deals.deals.holes[i], deals.deals.boards[i],
                               ["C", "C", "FCPA", "FCPA"])
    reference_rate = 2 * reference_deals / (time.perf_counter() - started)

    print(f"{machine_line()}, numba {numba.__version__} ({numba.get_num_threads()} threads); "
          f"LBR C,C,FCPA,FCPA against default; medians of {options.runs} runs")
    print()
    print("| figure | gambler | peer (same run) | ratio |")
    print("|---|---|---|---|")
    print(f"| holdings tables: v of every holding, flop + turn + river of one deal | "
          f"{1000 * table_seconds:.1f} ms | `win_rate` per holding {1000 * peer_table_seconds:,.0f}"
          f" ms | {peer_table_seconds / table_seconds:,.0f}x |")
    print(f"| LBR hands/s, tables in memory | {lbr_rate:,.0f} | plain-Python reference "
          f"{reference_rate:,.1f} | {lbr_rate / reference_rate:,.0f}x |")
    if options.cache is None:
        print(f"| LBR, {2 * deals.count:,} hands from an empty cache (deal set, tables, play) | "
              f"{cold_seconds:.1f} s | target 120 s | {cold_seconds / 120:.2f}x of the target |")
    else:  # not from cold: no comparison with the target
        print(f"| LBR, {2 * deals.count:,} hands, first run on the cache {options.cache} | "
              f"{cold_seconds:.1f} s | - | - |")


if __name__ == "__main__":
    main()
