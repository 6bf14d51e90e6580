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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "budget"))

from counters import play_match  # noqa: E402  (experiments/range-defence/budget/counters.py)

from gambler.bot.portfolio import load_portfolio  # noqa: E402
from gambler.protocol.gamedef import load_game  # noqa: E402
from gambler.training.counter import refresh_counter  # noqa: E402
from gambler.training.engine import encode_rules  # noqa: E402
from gambler.training.lbr import run_lbr  # noqa: E402

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
    for k in range(matches):
        found.clear()
        play_match(portfolio, opponent, game, rules, seed, k, matches, refresh)
        for index, counter in found[:2]:
            print(f"{opponent} match {k} counter {index}: predicted {counter.mbb_per_hand:+8,.0f}; "
                  f"LBR {lbr_of(counter.profile)}", flush=True)


if __name__ == "__main__":
    main()
