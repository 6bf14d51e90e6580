"""How much each estimator's noise hides the difference between two members: `default` and
`price-aware` drawn uniformly (exploration 1, no learning) against each opponent on the same
hands, each member's estimate per hand under `estimator: agreement` and `estimator: folds`, and
the spread of the estimated difference (price-aware - default) about the true one (each member
playing every hand itself). Prints one line per opponent and estimator.

Usage: python experiments/adaptive/estimator_noise.py [--deals 6000] [--seed 31] OPPONENT...
"""

import argparse

from gambler.bot.portfolio import parse_portfolio
from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.deals import compute_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import play_portfolio

MEMBERS = ("default-v2", "price-aware")


def uniform(members, estimator):
    return parse_portfolio(f"kind: portfolio\nmembers: [{', '.join(members)}]\nexploration: 1\n"
                           f"learning_rate: 1.0e-9\nestimator: {estimator}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponents", nargs="+")
    parser.add_argument("--deals", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=31)
    options = parser.parse_args()
    game = load_game()
    rules, stack = encode_rules(game), min(game.stacks)
    deals = compute_deal_set(seed=options.seed, first_deal=0, count=options.deals)
    for name in options.opponents:
        opponent = resolve_strategy(name)
        truth = [play_portfolio(rules, uniform((member, member), "agreement"), opponent, deals,
                                5, game.big_blind, stack).adjusted / game.big_blind
                 for member in MEMBERS]
        true_difference = truth[1] - truth[0]
        for estimator in ("agreement", "folds"):
            match = play_portfolio(rules, uniform(MEMBERS, estimator), opponent, deals, 5,
                                   game.big_blind, stack)
            error = match.estimates[:, 1] - match.estimates[:, 0] - true_difference
            revealed = ((match.estimates != 0) & ~match.agreed).any(axis=1).mean()
            print(f"{name:12s} {estimator:9s}  difference's spread about the truth "
                  f"{error.std():6.2f} bb/hand, its mean {error.mean():+.3f}; members differ on "
                  f"{(~match.agreed).any(axis=1).mean():.1%} of hands, a fold revealed on "
                  f"{revealed:.1%}")


if __name__ == "__main__":
    main()
