"""The self-play engine: hands per second, against the same hands played by the Python rules.

    python benchmarks/bench_training.py [--deals 20000] [--reuse-deals]

Profile against profile on one deal set whose win rates already exist, as in training, for six
pairs: version 1 (seed vs handmade), plain version 2 (the version 2 default, `default-v2`, with
its mixed play switched off, vs seed: pot levels), the version 2 default as it is (mixed play:
one seeded draw per player and round), plain version 3 (plain version 2 with a defence line
v >= 0 + 1 x price in every round: facing a bet, the line is read where the mode would fold),
version 4 (the version 2 default with the shipped preflop chart, `chart: preflop`: the round
followed down the chart's tree at every preflop decision) and version 5 (the version 2 default
with range defence a = 1 and range bets [0.3, 0.75] from the flop on: each of its actions
replays its own range over every holding; on the first 2,000 deals, whose holdings' v it reads
from the holdings cache, computed the first time). Rows per pair: the numba engine on one core,
on all cores (numba threads, identical results), and the peer measured in the same run: the
protocol's `BettingState` with the bot's automaton in Python, hand by hand (the TCP bot's code
path, mixed draws included; for the chart and range pairs the TCP bot's strategy objects
themselves, which play the chart and keep the own range). Also the one-off cost of a deal set's
exact win rates, unless `--reuse-deals` reads the deal set from the deal cache (`GAMBLER_DEALS`;
computed and stored the first time), for repeated runs: A/B of an engine change, whose figures
to compare are the ratios to the peer.
"""

from __future__ import annotations

import argparse
import statistics
import time

from dataclasses import replace

import numba
import numpy as np

from gambler.bot.automaton import choose_action, plan_for_state
from gambler.bot.chart import find_chart_file
from gambler.bot.params import load_profile
from gambler.evaluator.rng import mixing_uniform
from gambler.protocol import BettingState, load_game
from gambler.training.deals import cached_deal_set, compute_deal_set
from machine import machine_line
from gambler.training.engine import encode_rules, encode_strategy, play_deals, play_deals_parallel


MIX_SEED = 1


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
                    params = order[position].rounds[state.round]
                    draw = (mixing_uniform(MIX_SEED, i, state.round, position) if params.mixing
                            else 1.0)
                    plans[key] = plan_for_state(params, deals.v[i, position, state.round], state,
                                                draw)
                state = state.apply(choose_action(plans[key], state))
    return 2 * count / (time.perf_counter() - started)


def strategy_hands(game, deals, first, second, count: int) -> float:
    """Hands per second of the TCP bot's strategies (`ProfileStrategy`, v looked up in the deal
    set): the peer for a chart profile, which `python_hands` does not play."""
    from gambler.bot.strategies import ProfileStrategy
    from gambler.protocol.matchstate import MatchState

    started = time.perf_counter()
    for i in range(count):
        holes = [tuple(int(card) for card in deals.holes[i, p]) for p in range(2)]
        board = tuple(int(card) for card in deals.boards[i])
        for order in ((first, second), (second, first)):
            bots = [ProfileStrategy(order[p], seed=MIX_SEED,
                                    win_rate=lambda hole, board_, hand, round_, p=p:
                                    deals.v[i, p, round_]) for p in range(2)]
            state = BettingState.start(game)
            while not state.finished:
                p = state.current_player
                view = MatchState(p, i, state, tuple(holes[q] if q == p else () for q in range(2)),
                                  board[:state.board_cards_visible])
                state = state.apply(bots[p].act(view))
    return 2 * count / (time.perf_counter() - started)


def without_mixing(profile):
    """The profile with slow play and bluffs switched off (probabilities 0)."""
    rounds = tuple(replace(r, slow_play=0.0, bluff=0.0, mixing=False) for r in profile.rounds)
    return replace(profile, name=f"{profile.name} (no mixing)", rounds=rounds)


def with_defence(profile):
    """`profile` as version 3 with the defence line [0, 1] in every round."""
    rounds = tuple(replace(r, defend=(0.0, 1.0)) for r in profile.rounds)
    return replace(profile, name=f"{profile.name} (defence line)", rounds=rounds, version=3)


def with_range(profile):
    """`profile` as version 5 with range defence 1 and range bets [0.3, 0.75] after the flop."""
    rounds = tuple(r if index == 0 else replace(r, range_defence=1.0, range_bet=(0.3, 0.75))
                   for index, r in enumerate(profile.rounds))
    return replace(profile, name=f"{profile.name} (range)", rounds=rounds, version=5)


def engine_rates(rules, deals, first, second) -> list[tuple[str, float]]:
    """Median hands per second of the engine, one core then all numba threads."""
    a, b = encode_strategy(first), encode_strategy(second)
    results = np.zeros((len(deals), 2), dtype=np.int64)
    adjusted = np.zeros((len(deals), 2))
    extra = {}
    if first.uses_own_range:
        from gambler.training.defended import deal_set_holding_rates
        extra = {"holes": deals.holes, "boards": deals.boards,
                 "holding_v": deal_set_holding_rates(deals.seed, deals.first_deal, len(deals))}
    arguments = (rules, *a, *b, deals.v, deals.outcomes, deals.allin_equity, MIX_SEED, 0,
                 results, adjusted)
    play_deals(*arguments, **extra)
    play_deals_parallel(*arguments, **extra)
    rows = []
    for label, kernel, threads in (("numba engine, one core", play_deals, 1),
                                   (f"numba engine, {numba.config.NUMBA_NUM_THREADS} threads",
                                    play_deals_parallel, numba.config.NUMBA_NUM_THREADS)):
        numba.set_num_threads(threads)
        times = []
        for _ in range(7):
            clock = time.perf_counter()
            kernel(*arguments, **extra)
            times.append(time.perf_counter() - clock)
        rows.append((label, 2 * len(deals) / statistics.median(times)))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--reuse-deals", action="store_true",
                        help="read the deal set from the deal cache (GAMBLER_DEALS)")
    options = parser.parse_args()
    game = load_game()
    started = time.perf_counter()
    if options.reuse_deals:
        deals, _ = cached_deal_set(77, 0, options.deals)
    else:
        deals = compute_deal_set(seed=77, first_deal=0, count=options.deals)
    win_rate_seconds = time.perf_counter() - started
    rules = encode_rules(game)
    default = load_profile("default-v2")
    pairs = (("version 1: seed vs handmade", load_profile("seed"), load_profile("handmade")),
             ("plain version 2: default-v2 without mixing vs seed", without_mixing(default),
              load_profile("seed")),
             ("mixed version 2: default-v2 vs seed", default, load_profile("seed")),
             ("plain version 3: the same with a defence line vs seed",
              with_defence(without_mixing(default)), load_profile("seed")),
             ("version 4: default-v2 with the preflop chart vs seed",
              replace(default, version=4, chart="preflop",
                      chart_path=str(find_chart_file("preflop").resolve())),
              load_profile("seed")),
             ("version 5: default-v2 with range defence and range bets vs seed",
              with_range(default), load_profile("seed")))
    print(f"{machine_line()}, numba {numba.__version__}; {len(deals):,} duplicate deals "
          f"({2 * len(deals):,} hands), medians")
    print()
    print("| pair | engine | hands/s | ratio to the Python rules |")
    print("|---|---|---|---|")
    for title, first, second in pairs:
        played = deals.slice(0, min(2000, len(deals))) if first.uses_own_range else deals
        rows = engine_rates(rules, played, first, second)
        tcp = first.chart or first.uses_own_range
        peer = strategy_hands if tcp else python_hands
        count = 30 if first.uses_own_range else 300
        reference = statistics.median(peer(game, deals, first, second, count) for _ in range(3))
        for label, rate in rows:
            print(f"| {title} | {label} | {rate:,.0f} | {rate / reference:,.0f}x |")
        peer_label = "the TCP bot's strategies" if tcp else "automaton"
        print(f"| {title} | Python `BettingState` + {peer_label} (peer) | {reference:,.0f} | 1x |")
    if options.reuse_deals:
        return
    print()
    print(f"Exact win rates for the deal set (once, cached on disk afterwards): "
          f"{win_rate_seconds:.1f} s, {1000 * win_rate_seconds / len(deals):.2f} ms per deal "
          f"(both positions, four streets, all cores).")


if __name__ == "__main__":
    main()
