"""Portfolio arms against fixed opponents on the same seeded matches, with the paired gap to the
first arm: the budget arms of session 22 (docs/experiments.md, "The model's first counter").

    python experiments/range-defence/budget/arms.py ARM,ARM,... OPPONENT,... SEED MATCHES OUT.json

Match k of an opponent is `gambler-match ARM OPPONENT --hands 3000 --seed SEED+k` for every arm
(the same deals and draws), each arm a portfolio file or shipped name. Per row: the arm's mbb/hand
all-in adjusted with its 95% CI over the matches, its gap to the first arm (match by match, 95%
CI of the differences), and the model slot's hands and net big blinds per match. OUT keeps every
match's (mbb/hand, model hands, model net BB), rewritten after each row.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adaptive"))

from sweep import mean_ci  # noqa: E402  (experiments/adaptive/sweep.py)

from gambler.bot.strategies import resolve_strategy  # noqa: E402
from gambler.protocol.gamedef import load_game  # noqa: E402
from gambler.training.deals import cached_deal_set  # noqa: E402
from gambler.training.engine import encode_rules  # noqa: E402
from gambler.training.portfolio import PORTFOLIO_MATCH_DEALS, play_portfolio  # noqa: E402


def main() -> None:
    arms, opponents = sys.argv[1].split(","), sys.argv[2].split(",")
    seed, matches, out = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    game = load_game()
    rules = encode_rules(game)
    big_blind = game.big_blind
    portfolios = {arm: resolve_strategy(arm) for arm in arms}
    deal_sets = [cached_deal_set(seed + k, 0, PORTFOLIO_MATCH_DEALS)[0] for k in range(matches)]
    results: dict[str, list] = {}
    for opponent_name in opponents:
        opponent = resolve_strategy(opponent_name)
        for arm in arms:
            portfolio = portfolios[arm]
            rows = []
            started = time.perf_counter()
            for k, deals in enumerate(deal_sets):
                match = play_portfolio(rules, portfolio, opponent, deals, seed + k, big_blind,
                                       min(game.stacks))
                model = (match.chosen == portfolio.model_slot if portfolio.model is not None
                         else np.zeros(match.chosen.shape[0], dtype=bool))
                rows.append((1000.0 * match.adjusted.mean() / big_blind, int(model.sum()),
                             float(match.adjusted[model].sum() / big_blind)))
            results[f"{opponent_name}|{arm}"] = rows
            mean, half = mean_ci([row[0] for row in rows])
            first = results[f"{opponent_name}|{arms[0]}"]
            gap, gap_half = mean_ci([row[0] - base[0] for row, base in zip(rows, first)])
            print(f"{opponent_name:12s} {arm:52s} {mean:+8.1f} ± {half:6.1f}  gap {gap:+7.1f} ± "
                  f"{gap_half:5.1f}  model {np.mean([row[1] for row in rows]):5.0f} hands "
                  f"{np.mean([row[2] for row in rows]):+6.0f} BB a match "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
            with open(out, "w") as file:
                json.dump(results, file)


if __name__ == "__main__":
    main()
