"""How much Exp3 can learn in a match: the noise of its estimates against each opponent.

    python experiments/adaptive/noise.py [PORTFOLIO] [--opponents a,b,...] [--seed 100]
        [--matches 6]

Plays PORTFOLIO (default `experiments/adaptive/adaptive-plain.yaml`: the shipped members without
the model) against each opponent in the fast engine (3,000-hand duplicate matches, deal seeds
seed .. seed + matches - 1) and prints, per opponent: the standard deviation of a hand's all-in
adjusted result (big blinds), the share of hands on which the members disagree (only those move
the difference of their estimates), the standard deviation on those hands, and what that makes
the noise of S_a - S_b, the difference of two members' estimated winnings after a 3,000-hand
match, with each drawn half the time: sd_disagree x sqrt(3000 x share / 0.5). Exp3's weights
are exp(eta S): with eta 0.005 a noise of 1,400 big blinds moves them by e^7 either way.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import play_portfolio


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("portfolio", nargs="?", default="experiments/adaptive/adaptive-plain.yaml")
    parser.add_argument("--opponents", default="handmade,seed,shover,default,price-aware,prober")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--matches", type=int, default=6)
    options = parser.parse_args()
    game = load_game()
    rules = encode_rules(game)
    portfolio = resolve_strategy(options.portfolio)
    print(f"{'opponent':>12}  {'sd/hand':>8}  {'disagree':>8}  {'sd there':>8}  "
          f"{'noise of S_a - S_b at 3,000 hands':>34}")
    for name in options.opponents.split(","):
        opponent = resolve_strategy(name)
        rewards, disagree = [], []
        for seed in range(options.seed, options.seed + options.matches):
            deals, _ = cached_deal_set(seed, 0, 1500)
            match = play_portfolio(rules, portfolio, opponent, deals, seed, game.big_blind,
                                   min(game.stacks))
            rewards.append(match.adjusted / game.big_blind)
            disagree.append(~match.agreed.all(axis=1))
        reward, differ = np.concatenate(rewards), np.concatenate(disagree)
        share, spread = differ.mean(), reward[differ].std()
        noise = spread * math.sqrt(3000 * share / 0.5)
        print(f"{name:>12}  {reward.std():8.1f}  {share:8.2f}  {spread:8.1f}  "
              f"{noise:30,.0f} bb", flush=True)


if __name__ == "__main__":
    main()
