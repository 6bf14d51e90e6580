"""The adaptive portfolio against fixed opponents: many seeded duplicate matches in the fast
engine, each member alone on the same deals, and the portfolio; mbb/hand (all-in adjusted) with
the 95% CI over the matches.

    python experiments/adaptive/sweep.py PORTFOLIO [--hands 3000] [--matches 20] [--seed 100]
        [--opponents seed,handmade,...] [--json OUT]

Each match is `gambler-match PORTFOLIO OPPONENT --hands H --seed S` for S = seed .. seed +
matches - 1 (the deal sets of those seeds); a member alone is the portfolio [member, member].
The gap is the portfolio's result less the best member's (best by its mean), match by match,
with the 95% CI of those differences; `--json` keeps every match's figure (rewritten after
each row, so a run stopped early keeps the rows it finished).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import replace

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import play_portfolio

OPPONENTS = ("seed", "handmade", "default-v1", "default-v2", "price-aware", "call", "raise",
             "allin", "random", "catcher", "shover", "prober", "sizer")


def mean_ci(values):
    """The mean and its 95% half-width (0 from one value): over matches, each one number."""
    values = np.asarray(values, dtype=float)
    half = 1.959964 * values.std(ddof=1) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return float(values.mean()), float(half)


def cell(values) -> str:
    """`mean_ci` as a table cell: "+1,234 ± 56"."""
    mean, half = mean_ci(values)
    return f"{mean:+,.0f} ± {half:,.0f}"


def member_alone(portfolio, name, strategy):
    """A portfolio of one member twice (and no model member): that member playing every hand
    of the same matches."""
    return replace(portfolio, members=(name, name), strategies=(strategy, strategy), model=None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("portfolio")
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    parser.add_argument("--json", default=None)
    options = parser.parse_args()
    game = load_game()
    rules = encode_rules(game)
    portfolio = resolve_strategy(options.portfolio)
    alone = {name: member_alone(portfolio, name, strategy)
             for name, strategy in zip(portfolio.members, portfolio.strategies)}
    rows = []
    for opponent_name in options.opponents.split(","):
        opponent = resolve_strategy(opponent_name)
        results = {"portfolio": [], **{name: [] for name in alone}}
        started = time.perf_counter()
        for match in range(options.matches):
            seed = options.seed + match
            deals, _ = cached_deal_set(seed, 0, options.hands // 2)
            for name, chosen in (("portfolio", portfolio), *alone.items()):
                played = play_portfolio(rules, chosen, opponent, deals, seed, game.big_blind,
                                        min(game.stacks))
                results[name].append(1000 * played.adjusted.mean() / game.big_blind)
        row = {"opponent": opponent_name, "seconds": time.perf_counter() - started}
        for name, values in results.items():
            row[name] = mean_ci(values)
        best = max(alone, key=lambda name: row[name][0])
        row["best_member"] = best
        # the gap to the best member, match by match (the same deals and seeds): its interval
        row["gap"] = mean_ci(np.subtract(results["portfolio"], results[best]))
        row["matches"] = {name: list(values) for name, values in results.items()}
        rows.append(row)
        cells = "  ".join(f"{name} {row[name][0]:+8,.0f} ± {row[name][1]:5,.0f}"
                          for name in results)
        print(f"{opponent_name:>12}: {cells}  (best: {best}; gap "
              f"{row['gap'][0]:+,.0f} ± {row['gap'][1]:,.0f})", flush=True)
        if options.json:  # after every row, so a stopped run keeps the rows it finished
            with open(options.json, "w") as out:
                json.dump({"portfolio": options.portfolio, "hands": options.hands,
                           "matches": options.matches, "seed": options.seed, "rows": rows},
                          out, indent=1)


if __name__ == "__main__":
    main()
