"""Is an opponent model worth playing? Offline, on the fast engine: watch an opponent for a few
hands, fit the model (`bot.opponent.fit_exploiter`), search the counter-profile against the model
(`training.counter.best_response`), and play that counter against the real opponent on deals
nothing above used, next to the portfolio's members alone.

    python experiments/adaptive/model_counter.py [--watch 1500] [--opponents a,b,...]
        [--steps 10] [--population 16] [--oracle | --calibrate N]

Per opponent: the `default` plays `--watch` hands against it (deal seed 600), the counts are
taken from `default`'s seat; the search starts from `default` and `price-aware` on 4,000 deals
of seed 601 (10 steps of 16 candidates); the result is 20,000 duplicate deals of seed 602,
mbb/hand all-in adjusted with its 95% interval. `--oracle` searches against the opponent itself
instead of the model fitted to it: the best a counter search of that budget can do, which
separates what the fit loses from what the search and the automaton cannot reach.
`--calibrate N` fits the model with N iterations of `training.counter.calibrated_model`
(played against `default` on 2,000 deals of seed 603).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from gambler.bot.opponent import OpponentStats, fit_exploiter
from gambler.bot.portfolio import Portfolio
from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.counter import best_response, calibrated_model
from gambler.training.deals import cached_deal_set
from gambler.training.engine import (PROFILE, encode_rules, encode_strategy, play_deals,
                                     profile_vector)
from gambler.training.portfolio import hand_states, play_portfolio

OPPONENTS = ("seed,handmade,default-v1,call,catcher,shover,prober,sizer,"
             "experiments/default-v3/pass4-found/found-01.yaml,"
             "experiments/default-v3/pass2-found/found-00.yaml")


def watch(game, rules, opponent, hands: int) -> OpponentStats:
    """The opponent's counts over `hands` hands against `default` (a portfolio of `default`
    twice, so the engine keeps the hands; hand h plays deal h // 2 from position h % 2)."""
    deals, _ = cached_deal_set(600, 0, (hands + 1) // 2)
    default = resolve_strategy("default-v2")
    alone = Portfolio(("default-v2", "default-v2"), (default, default))
    match = play_portfolio(rules, alone, opponent, deals, 0, game.big_blind, min(game.stacks),
                           traces=True)
    stats = OpponentStats()
    for state in hand_states(match, deals, game)[:hands]:
        stats.observe(state)
    return stats


def score(rules, game, profile, opponent, deals):
    results = np.zeros((len(deals), 2), dtype=np.int64)
    adjusted = np.zeros((len(deals), 2))
    play_deals(rules, PROFILE, profile_vector(profile), *encode_strategy(opponent), deals.v,
               deals.outcomes, deals.allin_equity, 1, deals.first_deal, results, adjusted,
               deals.holes, deals.boards)
    pairs = adjusted.sum(axis=1)
    scale = 1000 / 2 / game.big_blind
    return pairs.mean() * scale, 1.96 * pairs.std(ddof=1) / math.sqrt(len(pairs)) * scale


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--watch", type=int, default=1500)
    parser.add_argument("--opponents", default=OPPONENTS)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--oracle", action="store_true",
                        help="search against the opponent itself, not the fitted model")
    parser.add_argument("--calibrate", type=int, default=0, metavar="N",
                        help="calibrate the fitted model with N iterations")
    options = parser.parse_args()
    game = load_game()
    rules = encode_rules(game)
    search, _ = cached_deal_set(601, 0, 4000)
    held_out, _ = cached_deal_set(602, 0, 20000)
    calibration, _ = cached_deal_set(603, 0, 2000)
    starts = {name: resolve_strategy(name) for name in ("default-v2", "price-aware")}
    print(f"{'opponent':>24}  {'default':>16}  {'price-aware':>16}  {'counter':>16}  "
          + ("(counter searched against the opponent itself, " if options.oracle
           else f"(counter found from {options.watch:,} hands, "
           + (f"calibrated {options.calibrate} times, " if options.calibrate else ""))
          + f"{options.steps} steps of {options.population})")
    for name in options.opponents.split(","):
        opponent = resolve_strategy(name)
        if options.oracle:
            model = opponent
        else:
            stats = watch(game, rules, opponent, options.watch)
            model = (calibrated_model(stats, starts["default-v2"], calibration, rules, game,
                                      options.calibrate)
                     if options.calibrate else fit_exploiter(stats))
        counter = best_response(model, starts, search, rules, 1, game.big_blind,
                                options.steps, options.population)
        cells = [score(rules, game, profile, opponent, held_out)
                 for profile in (*starts.values(), counter.profile)]
        label = name.rsplit("/", 2)[-2] + "/" + name.rsplit("/", 1)[-1] if "/" in name else name
        print(f"{label:>24}  " + "  ".join(f"{m:+8,.0f} ± {e:5,.0f}" for m, e in cells),
              flush=True)


if __name__ == "__main__":
    main()
