"""A portfolio's match in the fast engine: what learning, and the model member, cost.

    python benchmarks/bench_portfolio.py [--opponent call] [--repeats 5] [--seed 200]

One 3,000-hand duplicate match (1,500 deals of `--seed`) against `--opponent`, timed `--repeats`
times each (the median), in one process after a warm-up:

* the floor, measured in the same run: the `default` profile alone over the same deals
  (`engine.play_deals`, one thread), what any 3,000 hands of the automaton cost;
* the portfolio without its model (`experiments/adaptive/adaptive-plain.yaml`: Exp3 over two
  members, each hand replayed with the member not drawn);
* `adaptive` (the same with its model member: five counters searched in line, at hands 500 to
  2,500, and the opponent's counts read back from the engine's traces);
* one counter search alone (`training.counter.refresh_counter` on 2,000 deals), which the TCP
  bot runs in its worker process.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from machine import machine_line, median_seconds

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="call")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=200)
    options = parser.parse_args()

    import numba

    from gambler.bot.opponent import OpponentStats
    from gambler.bot.strategies import resolve_strategy
    from gambler.protocol.gamedef import load_game
    from gambler.training.counter import refresh_counter
    from gambler.training.deals import cached_deal_set
    from gambler.training.engine import PROFILE, encode_rules, encode_strategy, play_deals
    from gambler.training.portfolio import hand_states, play_portfolio

    game = load_game()
    rules = encode_rules(game)
    stack = min(game.stacks)
    deals, _ = cached_deal_set(options.seed, 0, 1500)
    opponent = resolve_strategy(options.opponent)
    plain = resolve_strategy(str(ROOT / "experiments" / "adaptive" / "adaptive-plain.yaml"))
    adaptive = resolve_strategy("adaptive")
    default = resolve_strategy("default-v2")
    kind_b, params_b = encode_strategy(opponent)

    def floor():
        results = np.zeros((len(deals), 2), dtype=np.int64)
        adjusted = np.zeros((len(deals), 2))
        play_deals(rules, PROFILE, encode_strategy(default)[1], kind_b, params_b, deals.v,
                   deals.outcomes, deals.allin_equity, options.seed, deals.first_deal, results,
                   adjusted, deals.holes, deals.boards)

    def match(portfolio):
        return lambda: play_portfolio(rules, portfolio, opponent, deals, options.seed,
                                      game.big_blind, stack, game=game)

    seen = play_portfolio(rules, plain, opponent, deals.slice(0, 200), options.seed,
                          game.big_blind, stack, traces=True)
    stats = OpponentStats()
    for state in hand_states(seen, deals, game):
        stats.observe(state)

    numba.set_num_threads(1)  # the floor on one thread, as a portfolio's match runs
    rows = [("default alone, 3,000 hands (floor, peer)", median_seconds(floor, options.repeats))]
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    rows.append(("adaptive-plain: Exp3, 2 members", median_seconds(match(plain),
                                                                    options.repeats)))
    rows.append(("adaptive: Exp3 + the model member", median_seconds(match(adaptive),
                                                                      options.repeats)))
    model = adaptive.model
    rows.append((f"one counter search ({model.deals:,} deals, {model.steps} x {model.population})",
                 median_seconds(lambda: refresh_counter(game, adaptive, stats, 1),
                                options.repeats)))

    print(machine_line() + f"; numba {numba.__version__}, {numba.config.NUMBA_NUM_THREADS} "
          "threads")
    print(f"One 3,000-hand duplicate match against {options.opponent} (deal seed "
          f"{options.seed}), median of {options.repeats}:")
    print()
    print("| what | seconds | ratio to the floor |")
    print("|---|---|---|")
    base = rows[0][1]
    for label, seconds in rows:
        print(f"| {label} | {seconds:.4f} | {seconds / base:,.1f}x |")


if __name__ == "__main__":
    main()
