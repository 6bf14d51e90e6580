"""How exploitable each counter is: the counters a portfolio's model installs against an
opponent, each met by a quick LBR on deals of its own.

    python experiments/range-defence/adjusted/counter_lbr.py PORTFOLIO OPPONENT SEED MATCHES \
        [SETS ...]

OPPONENT as in `budget/counters.py` (a profile, or `lbr:SETS` for LBR told the member). For each
counter k of each match: what the counter search predicted it wins against the fitted model,
and what LBR wins against the counter alone at each SETS (default FCMQT and FCPA, on every
round), 2,000 hands of LBR deal seed 99 (`gambler-lbr COUNTER --actions ... --hands 2000
--seed 99`), next to the same for the counter's first start. A counter that LBR beats by
far more than its start is one an opponent that answers at once takes apart.
"""

from __future__ import annotations

import sys

from gambler.bot.portfolio import load_portfolio
from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.counter import refresh_counter
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.lbr import run_lbr
from gambler.training.portfolio import PORTFOLIO_MATCH_DEALS, play_portfolio

LBR_HANDS, LBR_SEED = 2000, 99


def main() -> None:
    name, opponent, seed, matches = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    settings = sys.argv[5:] or ["FCMQT", "FCPA"]
    game = load_game()
    rules = encode_rules(game)
    portfolio = load_portfolio(name)
    model = portfolio.model
    found = []

    def refresh(game, portfolio, stats, index):
        counter = refresh_counter(game, portfolio, stats, index)
        found.append((index, counter))
        return counter

    def lbr_of(profile) -> str:
        words = []
        for sets in settings:
            result = run_lbr(profile, game, LBR_HANDS, LBR_SEED, ",".join([sets] * 4))
            words.append(f"{sets} {result.score.mbb_per_hand:+8,.0f}")
        return " ".join(words)

    start = model.start_profiles[0]
    print(f"{name} against {opponent}; LBR against the first start: {lbr_of(start)}", flush=True)
    hands = 2 * PORTFOLIO_MATCH_DEALS
    if opponent.startswith("lbr:"):
        from gambler.training.lbr import LbrDeals
        from gambler.training.lbr_portfolio import play_lbr_match

        lbr_deals = LbrDeals(seed, hands * matches)
    for k in range(matches):
        found.clear()
        if opponent.startswith("lbr:"):
            play_lbr_match(portfolio, game, lbr_deals, k * PORTFOLIO_MATCH_DEALS,
                           PORTFOLIO_MATCH_DEALS, seed + k,
                           ",".join([opponent[4:]] * game.num_rounds), refresh=refresh)
        else:
            deals, _ = cached_deal_set(seed + k, 0, PORTFOLIO_MATCH_DEALS)
            play_portfolio(rules, portfolio, resolve_strategy(opponent), deals, seed + k,
                           game.big_blind, min(game.stacks), game=game, refresh=refresh)
        for index, counter in found[:2]:
            print(f"{opponent} match {k} counter {index}: predicted {counter.mbb_per_hand:+8,.0f}; "
                  f"LBR {lbr_of(counter.profile)}", flush=True)


if __name__ == "__main__":
    main()
