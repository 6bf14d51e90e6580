"""How fast the adaptive portfolio follows an opponent that switches strategy halfway.

    python experiments/adaptive/switch.py [PORTFOLIO] [--matches 20] [--seed 300]
        [--pairs sizer:call,call:sizer,...] [--hands 3000]

For each pair A:B, `--matches` duplicate matches of `--hands` hands in the fast engine against
an opponent playing A until half the match and B after (`bot.switch`): the hands it takes after
the switch until the member that does best against B alone has probability above 0.5 (the median
and the worst match), the hands after the switch until it is winning again (the last hand at
which its all-in adjusted winnings since the switch, averaged over the matches, are at or below
zero, plus one: 0 when they never are), and the portfolio's mbb/hand (all-in adjusted) in the
second half next to that member's own over the same hands.
"""

from __future__ import annotations

import argparse

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.bot.switch import Switch
from gambler.protocol.gamedef import load_game
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import play_portfolio
from sweep import mean_ci, member_alone  # experiments/adaptive/sweep.py, next to this script

PAIRS = "sizer:call,call:sizer,raise:seed,seed:raise,shover:catcher,catcher:shover"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("portfolio", nargs="?", default="adaptive")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=300)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--pairs", default=PAIRS)
    options = parser.parse_args()
    game = load_game()
    rules = encode_rules(game)
    portfolio = resolve_strategy(options.portfolio)
    half = options.hands // 2 - (options.hands // 2) % 2
    print(f"{'A -> B':>20}  hands to follow (median, worst)  winning again after  second half: "
          "portfolio / best member alone (mbb/hand)")
    for pair in options.pairs.split(","):
        first, then = pair.split(":")
        switch = Switch(resolve_strategy(first), resolve_strategy(then), half, (first, then))
        follow, ours, theirs, since = [], [], [], []
        for match in range(options.matches):
            seed = options.seed + match
            deals, _ = cached_deal_set(seed, 0, options.hands // 2)
            played = play_portfolio(rules, portfolio, switch, deals, seed, game.big_blind,
                                    min(game.stacks))
            second = {}
            for index, (name, member) in enumerate(zip(portfolio.members,
                                                       portfolio.strategies)):
                result = play_portfolio(rules, member_alone(portfolio, name, member), switch,
                                        deals, seed, game.big_blind, min(game.stacks))
                second[index] = result.adjusted[half:].mean()
            best = max(second, key=second.get)
            above = np.nonzero(played.probabilities[half:, best] > 0.5)[0]
            follow.append(int(above[0]) if above.size else options.hands - half)
            ours.append(1000 * played.adjusted[half:].mean() / game.big_blind)
            since.append(np.cumsum(played.adjusted[half:]))
            theirs.append(1000 * second[best] / game.big_blind)
        mean, half_width = mean_ci(ours)
        behind = np.nonzero(np.mean(since, axis=0) <= 0)[0]
        again = int(behind[-1]) + 1 if behind.size else 0
        print(f"{first + ' -> ' + then:>20}  {int(np.median(follow)):>6,} {max(follow):>6,}"
              f"                  {again:>6,}            {mean:+9,.0f} ± {half_width:,.0f} / "
              f"{np.mean(theirs):+9,.0f}", flush=True)


if __name__ == "__main__":
    main()
