"""How deep the model's own account dips, counted in raw chips and all-in adjusted: whether a
budget counted all-in adjusted could be smaller without stopping the counters on bad luck.

    python experiments/range-defence/adjusted/dips.py PORTFOLIO OPPONENT,... SEED MATCHES

Match k of an opponent is `gambler-match PORTFOLIO OPPONENT --hands 3000 --seed SEED+k` (as
`budget/arms.py` plays it). Per match: the hands the model slot played, its net in big blinds
raw and all-in adjusted, and the lowest point of each running sum over its hands (the budget
counts the raw one: `bot.portfolio`, "The model's own account"). A budget of B big blinds
stops the model the first time the running sum falls to -B; the rows say how often each
account would have reached -100, -200 and -300.
"""

from __future__ import annotations

import sys

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import PORTFOLIO_MATCH_DEALS, play_portfolio


def main() -> None:
    portfolio_name, opponents = sys.argv[1], sys.argv[2].split(",")
    seed, matches = int(sys.argv[3]), int(sys.argv[4])
    game = load_game()
    rules, big_blind = encode_rules(game), game.big_blind
    portfolio = resolve_strategy(portfolio_name)
    slot = portfolio.model_slot
    print(f"{portfolio_name}: the model's own hands per match, seeds {seed}..{seed + matches - 1}")
    print("opponent | match | model hands | net raw BB | net adjusted BB | low raw | low adjusted")
    for name in opponents:
        opponent = resolve_strategy(name)
        lows = {"raw": [], "adjusted": []}
        for k in range(matches):
            deals = cached_deal_set(seed + k, 0, PORTFOLIO_MATCH_DEALS)[0]
            match = play_portfolio(rules, portfolio, opponent, deals, seed + k, big_blind,
                                   min(game.stacks), game=game)
            mine = match.chosen == slot
            raw = np.cumsum(match.chips[mine]) / big_blind
            adjusted = np.cumsum(match.adjusted[mine]) / big_blind
            low_raw = float(min(0.0, raw.min())) if raw.size else 0.0
            low_adjusted = float(min(0.0, adjusted.min())) if adjusted.size else 0.0
            lows["raw"].append(low_raw)
            lows["adjusted"].append(low_adjusted)
            print(f"{name} | {seed + k} | {int(mine.sum())} | "
                  f"{raw[-1] if raw.size else 0.0:+.1f} | "
                  f"{adjusted[-1] if adjusted.size else 0.0:+.1f} | {low_raw:+.1f} | "
                  f"{low_adjusted:+.1f}", flush=True)
        for account, values in lows.items():
            reached = [sum(low <= -b for low in values) for b in (100, 200, 300)]
            print(f"{name}: {account} account reached -100/-200/-300 in "
                  f"{reached[0]}/{reached[1]}/{reached[2]} of {matches} matches", flush=True)


if __name__ == "__main__":
    main()
