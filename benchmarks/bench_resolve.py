"""A re-solving bot's decision time per street, and what its solves reach (installed blueprint).

    python benchmarks/bench_resolve.py [--profile resolve] [--hands 200] [--seed 1]

The bot (`--profile`, a `kind: resolve` profile; the shipped one re-solves the river over the
installed blueprint `blueprint`) plays `--hands` hands in seats that alternate against its own
blueprint, in process, on random deals. Every decision of the bot is timed. Rows per street:
decisions, median and p99 milliseconds, beside the peer measured in the same run: the blueprint
alone deciding the same states. Then the time per hand (the bot's decisions over all hands,
including those that end before the river), and, for the river solves, the median
exploitability of the solve's average strategy inside the subgame (chips a hand, and as a
share of the pot at the river's start), which says whether the iterations are enough.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import machine_line  # noqa: E402

STREETS = ("preflop", "flop", "turn", "river")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="resolve")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()

    import numpy as np

    from gambler.bot.blueprint import BlueprintStrategy
    from gambler.bot.resolve import RIVER, ResolveStrategy, load_resolve, river_path
    from gambler.protocol.betting import CALL_ACTION, BettingState
    from gambler.protocol.gamedef import load_game
    from gambler.protocol.matchstate import MatchState

    game = load_game()
    resolve = load_resolve(options.profile)
    bot = ResolveStrategy(resolve, seed=options.seed)
    alone = BlueprintStrategy(resolve.loaded_blueprint(), seed=options.seed)
    other = BlueprintStrategy(resolve.loaded_blueprint(), seed=options.seed + 1)
    rng = np.random.default_rng(options.seed)
    times = {street: [] for street in range(4)}
    peer = {street: [] for street in range(4)}
    gaps, shares = [], []
    warm = BettingState.start(game)
    while warm.round < RIVER:
        warm = warm.apply(CALL_ACTION)
    bot.act(MatchState(0, -1, warm, ((0, 1), ()), (2, 3, 4, 5, 6)))  # kernels loaded
    for hand in range(options.hands):
        cards = [int(c) for c in rng.permutation(52)[:9]]
        holes, board = ((cards[0], cards[1]), (cards[2], cards[3])), cards[4:9]
        seat = hand % 2
        betting = BettingState.start(game)
        while not betting.finished:
            player = betting.current_player
            shown = game.board_cards_through(betting.round)
            state = MatchState(player, hand, betting, tuple(
                holes[p] if p == player else () for p in range(2)), tuple(board[:shown]))
            if player != seat:
                betting = betting.apply(other.act(state))
                continue
            started = time.perf_counter()
            action = bot.act(state)
            times[betting.round].append(time.perf_counter() - started)
            started = time.perf_counter()
            alone.act(state)
            peer[betting.round].append(time.perf_counter() - started)
            if betting.round == RIVER:
                subgame, _ = bot.solve(tuple(board), bot.river_ranges(state), betting,
                                       river_path(betting))
                gap = subgame.exploitability()
                gaps.append(gap)
                shares.append(gap / (2 * betting.round_start[0]))
            betting = betting.apply(action)
    print(machine_line() + f"; {resolve.source}: {resolve.iterations} iterations a river "
          f"decision; {options.hands} hands, seed {options.seed}")
    print()
    print("| street | decisions | median ms | p99 ms | blueprint alone, median ms | "
          "median / peer |")
    print("|---|---|---|---|---|---|")
    for street in range(4):
        if not times[street]:
            continue
        mine = statistics.median(times[street]) * 1000
        theirs = statistics.median(peer[street]) * 1000
        print(f"| {STREETS[street]} | {len(times[street])} | {mine:.2f} | "
              f"{percentile(times[street], 0.99) * 1000:.2f} | {theirs:.3f} | "
              f"{mine / theirs:.0f}x |")
    total = sum(sum(values) for values in times.values())
    print()
    print(f"time per hand (the bot's decisions): {total / options.hands * 1000:.0f} ms; "
          f"every decision p99: {percentile(sum(times.values(), []), 0.99) * 1000:.0f} ms")
    if gaps:
        print(f"river solves: exploitability inside the subgame, median "
              f"{statistics.median(gaps):.1f} chips a hand "
              f"({100 * statistics.median(shares):.2f}% of the pot), p90 "
              f"{100 * percentile(shares, 0.9):.2f}% of the pot, over {len(gaps)} solves")


if __name__ == "__main__":
    main()
