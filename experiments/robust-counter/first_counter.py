"""The first counter of a portfolio's model, searched unguarded and guarded, and what LBR wins
against each alone.

    python experiments/robust-counter/first_counter.py PORTFOLIO OPPONENT SEED GUARD WEIGHT...

Plays match 0 of PORTFOLIO against OPPONENT (`lbr:SETS` for LBR told the member, as
`gambler-lbr PORTFOLIO --actions SETS,... --seed SEED`; else a profile or exploiter, as
`gambler-match PORTFOLIO OPPONENT --hands 3000 --seed SEED`) up to its first refresh, then
searches that refresh's counter (the same counts, model and deals as `refresh_counter`) with the
guard GUARD at each WEIGHT (0: the portfolio's own search). Per weight: what the counter wins
against the fitted model and against GUARD on the search's deals (mbb/hand, all-in adjusted),
and what LBR wins against it at FCMQT x4 on 20,000 hands of deal seed 21 (`gambler-lbr COUNTER
--actions FCMQT,FCMQT,FCMQT,FCMQT --hands 20000 --seed 21`). With OPPONENT a strategy, also what
the counter wins against it on 20,000 hands of match seed 14 (`gambler-match COUNTER OPPONENT
--hands 20000 --seed 14`, all-in adjusted).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from gambler.bot.params import save_profile
from gambler.bot.portfolio import load_portfolio
from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.counter import refresh_counter
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.lbr import LbrDeals, run_lbr
from gambler.training.portfolio import PORTFOLIO_MATCH_DEALS, play_portfolio


class _Refreshed(Exception):
    """Raised by the first refresh to stop the match there, carrying its counts."""


def first_counts(portfolio, opponent: str, game, seed: int):
    """The opponent counts the model's first refresh is fitted on, in match 0."""
    def refresh(game, portfolio, stats, index):
        raise _Refreshed(stats)

    try:
        if opponent.startswith("lbr:"):
            from gambler.training.lbr_portfolio import play_lbr_match

            play_lbr_match(portfolio, game, LbrDeals(seed, 2 * PORTFOLIO_MATCH_DEALS), 0,
                           PORTFOLIO_MATCH_DEALS, seed, ",".join([opponent[4:]] * 4),
                           refresh=refresh)
        else:
            deals, _ = cached_deal_set(seed, 0, PORTFOLIO_MATCH_DEALS)
            play_portfolio(encode_rules(game), portfolio, resolve_strategy(opponent), deals,
                           seed, game.big_blind, min(game.stacks), game=game, refresh=refresh)
    except _Refreshed as stop:
        return stop.args[0]
    raise SystemExit("the model never refreshed")


def main() -> None:
    name, opponent, seed, guard = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    weights = [float(weight) for weight in sys.argv[5:]]
    game = load_game()
    portfolio = load_portfolio(name)
    stats = first_counts(portfolio, opponent, game, seed)
    guard_strategy = resolve_strategy(guard)
    for weight in weights:
        model = replace(portfolio.model, guards=(guard,) if weight else (),
                        guard_strategies=(guard_strategy,) if weight else (),
                        guard_weight=weight)
        found = refresh_counter(game, replace(portfolio, model=model), stats, 1)
        against_guard = (found.guarded - (1 - weight) * found.mbb_per_hand) / weight \
            if weight else float("nan")
        lbr = run_lbr(found.profile, game, 20000, 21, "FCMQT,FCMQT,FCMQT,FCMQT").score
        words = (f"weight {weight:.2f}: against the model {found.mbb_per_hand:+,.0f}, against "
                 f"{guard} {against_guard:+,.0f}; LBR FCMQT x4 {lbr.mbb_per_hand:+,.0f} ± "
                 f"{lbr.ci95_mbb:,.0f}")
        if not opponent.startswith("lbr:"):
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "counter.yaml"
                save_profile(found.profile, path)
                match = json.loads(subprocess.run(
                    ["gambler-match", str(path), opponent, "--hands", "20000", "--seed", "14",
                     "--json"], check=True, capture_output=True, text=True).stdout)
            words += (f"; against {opponent} {match['mbb_per_hand_allin_adjusted']:+,.0f} ± "
                      f"{match['ci95_mbb_allin_adjusted']:,.0f}")
        print(words, flush=True)


if __name__ == "__main__":
    main()
