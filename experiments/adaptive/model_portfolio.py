"""Would a model member help the portfolio? The fast engine plays `adaptive` for the first
`--watch` hands of each match; then the opponent's counts over those hands (from the portfolio's
seat, `training.portfolio.hand_states`) are fitted (`bot.opponent.fit_exploiter`), the counter to
the model is searched (`training.counter.best_response`, from the two members, 4,000 deals of
seed 601), and the rest of the match is played by the portfolio with the counter as a third
member (the two members keep their weights times 2/3, the counter starts at 1/3). Compared with
`adaptive` alone on the same hands.

    python experiments/adaptive/model_portfolio.py [--matches 10] [--seed 200] [--watch 1000]
        [--opponents seed,call,...]
"""

from __future__ import annotations

import argparse
from dataclasses import replace

import numpy as np

from gambler.bot.opponent import OpponentStats, fit_exploiter
from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.counter import best_response
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import PortfolioMatch, hand_states, play_portfolio
from sweep import mean_ci  # experiments/adaptive/sweep.py, next to this script

OPPONENTS = ("seed,handmade,call,catcher,shover,prober,sizer,"
             "experiments/exploit/default-seed11.yaml,experiments/exploit/price-aware-seed78.yaml")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--seed", type=int, default=200)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--watch", type=int, default=1000)
    parser.add_argument("--opponents", default=OPPONENTS)
    options = parser.parse_args()
    game = load_game()
    rules = encode_rules(game)
    stack = min(game.stacks)
    adaptive = resolve_strategy("adaptive")
    search, _ = cached_deal_set(601, 0, 4000)
    starts = {name: resolve_strategy(name) for name in adaptive.members}
    print(f"{'opponent':>28}  {'adaptive':>14}  {'with the model':>14}  "
          f"(the model member's share of the hands after {options.watch:,})")
    for name in options.opponents.split(","):
        opponent = resolve_strategy(name)
        plain, modelled, shares = [], [], []
        for match in range(options.matches):
            seed = options.seed + match
            deals, _ = cached_deal_set(seed, 0, options.hands // 2)
            whole = play_portfolio(rules, adaptive, opponent, deals, seed, game.big_blind, stack)
            first = play_portfolio(rules, adaptive, opponent, deals.slice(0, options.watch // 2),
                                   seed, game.big_blind, stack, traces=True)
            stats = OpponentStats()
            for state in hand_states(first, deals, game):
                stats.observe(state)
            counter = best_response(fit_exploiter(stats), starts, search, rules, seed,
                                    game.big_blind)
            three = replace(adaptive, members=(*adaptive.members, "model"),
                            strategies=(*adaptive.strategies, counter.profile))
            start = PortfolioMatch(*first[:5], np.append(first.gains, 0.0),
                                   np.append(first.weights * 2 / 3, 1 / 3), first.traces)
            rest = play_portfolio(rules, three, opponent,
                                  deals.slice(options.watch // 2, options.hands // 2), seed,
                                  game.big_blind, stack, first_hand=options.watch, start=start)
            scale = 1000 / game.big_blind
            plain.append(whole.adjusted.mean() * scale)
            modelled.append(np.concatenate([first.adjusted, rest.adjusted]).mean() * scale)
            shares.append((rest.chosen == 2).mean())
        (a, ea), (b, eb) = mean_ci(plain), mean_ci(modelled)
        label = name.rsplit("/", 1)[-1]
        print(f"{label:>28}  {a:+8,.0f} ± {ea:4,.0f}  {b:+8,.0f} ± {eb:4,.0f}  "
              f"({np.mean(shares):.0%})", flush=True)


if __name__ == "__main__":
    main()
