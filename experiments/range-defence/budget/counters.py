"""What each counter of a portfolio's model member was predicted to win, and what it won.

    python experiments/range-defence/budget/counters.py PORTFOLIO OPPONENT SEED MATCHES

OPPONENT is a profile or shipped name (a fast-engine match, `gambler-match PORTFOLIO OPPONENT
--hands 3000 --seed SEED+k`), or `lbr:SETS` for LBR told the member (`gambler-lbr PORTFOLIO
--actions SETS --seed SEED`, its match k). One line per counter k of each match: the member's
winnings against the fitted model (engine, the model's own deals), the member's observed
winnings on the hands the model was fitted on (all-in adjusted, mbb/hand), what the counter
search predicted the counter wins, and the hands the model slot then played until the next
counter and their net big blinds (docs/experiments.md, "The model's first counter").
"""

from __future__ import annotations

import functools
import sys

import numpy as np

from gambler.bot.portfolio import Portfolio, load_portfolio
from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.counter import calibrated_model, refresh_counter
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import PORTFOLIO_MATCH_DEALS, play_portfolio


def play_match(portfolio, opponent: str, game, rules, seed: int, k: int, matches: int,
               refresh) -> tuple[object, np.ndarray]:
    """Match k (of `matches`) of `portfolio` against OPPONENT as the module docstring says,
    its counters found by `refresh`: (the match, our all-in adjusted chips hand by hand)."""
    hands = 2 * PORTFOLIO_MATCH_DEALS
    if opponent.startswith("lbr:"):
        from gambler.training.lbr_portfolio import play_lbr_match

        match = play_lbr_match(portfolio, game, _lbr_deals(seed, hands * matches),
                               k * PORTFOLIO_MATCH_DEALS, PORTFOLIO_MATCH_DEALS, seed + k,
                               ",".join([opponent[4:]] * game.num_rounds), refresh=refresh)
        return match, np.array([-match.adjusted[h // 2, 1 - h % 2] for h in range(hands)])
    deals, _ = cached_deal_set(seed + k, 0, PORTFOLIO_MATCH_DEALS)
    match = play_portfolio(rules, portfolio, resolve_strategy(opponent), deals, seed + k,
                           game.big_blind, min(game.stacks), game=game, refresh=refresh)
    return match, match.adjusted


@functools.lru_cache(maxsize=1)
def _lbr_deals(seed: int, hands: int):
    """LBR's deals for every match of a run, read once."""
    from gambler.training.lbr import LbrDeals

    return LbrDeals(seed, hands)


def main() -> None:
    name, opponent, seed, matches = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    game = load_game()
    rules = encode_rules(game)
    portfolio = load_portfolio(name)
    model, big_blind, stack = portfolio.model, game.big_blind, min(game.stacks)
    member = Portfolio((portfolio.members[0],) * 2, (portfolio.strategies[0],) * 2)
    deal_set, _ = cached_deal_set(model.seed, 0, model.deals)
    first_start = model.start_profiles[0] if model.starts else portfolio.strategies[0]
    predicted: dict[int, tuple[float, float]] = {}

    def refresh(game, portfolio, stats, index):
        found = refresh_counter(game, portfolio, stats, index)
        fitted = calibrated_model(stats, first_start, deal_set, rules, game, model.calibrate,
                                  "fitted", model.prior)
        alone = play_portfolio(rules, member, fitted, deal_set, 0, big_blind, stack, game=game)
        predicted[index] = (1000.0 * alone.adjusted.mean() / big_blind, found.mbb_per_hand)
        return found

    hands = 2 * PORTFOLIO_MATCH_DEALS
    for k in range(matches):
        predicted.clear()
        match, ours = play_match(portfolio, opponent, game, rules, seed, k, matches, refresh)
        ours = ours / big_blind
        for index, (member_predicted, counter_predicted) in sorted(predicted.items()):
            window = np.arange(max(model.fitted_from(index), 0), model.fitted_before(index))
            by_member = window[match.chosen[window] != portfolio.model_slot]
            begin = model.refresh_at(index)
            after = np.arange(begin, min(begin + model.every, hands))
            by_model = after[match.chosen[after] == portfolio.model_slot]
            print(f"{opponent} match {k} counter {index}: member predicted "
                  f"{member_predicted:+7.0f}, observed {1000 * ours[by_member].mean():+7.0f} over "
                  f"{len(by_member)} hands; counter predicted {counter_predicted:+7.0f}; the model "
                  f"then played {len(by_model)} hands, {ours[by_model].sum():+5.0f} BB", flush=True)


if __name__ == "__main__":
    main()
