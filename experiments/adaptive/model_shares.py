"""Does the fitted model play as the opponent it was fitted to? Offline, on the fast engine:
`default` watches 1,500 hands of the opponent (deal seed 600, as in `model_counter.py`), the
model is fitted to the counts (`bot.opponent.fit_exploiter`) and, with `--calibrate N`, also
calibrated N times against `default` (`training.counter.calibrated_model`, 2,000 deals of seed
603); then `default` watches 1,500 hands of each model on the same deals, and the counts are
printed side by side: per position (0 the big blind) and round, the share of the times checked
to that it bets, the 10th/50th/90th percentile of its bet sizes (pots), and, facing bets of
each size bucket that occurred, how many times, and the shares folded and raised. Last, what
`default` and `price-aware` win against the opponent and against each model (5,000 duplicate
deals of seed 602, mbb/hand all-in adjusted, 95% CI).

    python experiments/adaptive/model_shares.py [OPPONENT] [--calibrate N]

Results: experiments/adaptive/results/session17/.
"""

from __future__ import annotations

import argparse

import numpy as np

from gambler.bot.opponent import fit_exploiter
from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.counter import calibrated_model
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from model_counter import score, watch  # this folder is on the path when the script runs


def describe(stats, position: int, round_: int) -> str:
    counts = stats.positions[position].rounds[round_]
    sizes = ("/".join(f"{size:.2f}" for size in np.percentile(counts.bet_sizes, [10, 50, 90]))
             if counts.bet_sizes else "-")
    facing = " ".join(f"b{bucket}:{sum(row)} f{row[0] / sum(row):.2f} r{row[2] / sum(row):.2f}"
                      for bucket, row in enumerate(counts.facing) if sum(row))
    return (f"opens {counts.opens:4d} bets {counts.bets / max(1, counts.opens):.2f} "
            f"sizes {sizes:>17s}  facing {facing or '-'}")


def entered_share(stats, position: int) -> float:
    """The share of its hands in `position` in which it put chips in voluntarily preflop."""
    seat = stats.positions[position]
    return seat.entered / seat.hands


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("opponent", nargs="?", default="handmade")
    parser.add_argument("--calibrate", type=int, default=3)
    args = parser.parse_args()
    game = load_game("holdem.nolimit.2p.reverse_blinds.game")
    rules = encode_rules(game)
    opponent = resolve_strategy(args.opponent)
    real = watch(game, rules, opponent, 1500)
    models = {"fitted": fit_exploiter(real)}
    if args.calibrate:
        calibration, _ = cached_deal_set(603, 0, 2000)
        models[f"calibrated {args.calibrate}"] = calibrated_model(
            real, resolve_strategy("default-v2"), calibration, rules, game, args.calibrate)
    watched = {"opponent": real} | {label: watch(game, rules, model, 1500)
                                    for label, model in models.items()}
    for position in range(2):
        for round_ in range(4):
            for label, stats in watched.items():
                print(f"position {position} round {round_} {label:>13s}: "
                      f"{describe(stats, position, round_)}")
        entered = ", ".join(f"{label} {entered_share(stats, position):.2f}"
                            for label, stats in watched.items())
        print(f"position {position} entered the pot preflop: {entered}\n")
    deals, _ = cached_deal_set(602, 0, 5000)
    for start in ("default-v2", "price-aware"):
        profile = resolve_strategy(start)
        cells = [f"against the opponent {score(rules, game, profile, opponent, deals)[0]:+,.0f}"]
        cells += [f"against the {label} model {score(rules, game, profile, model, deals)[0]:+,.0f}"
                  for label, model in models.items()]
        print(f"{start}: " + ", ".join(cells))


if __name__ == "__main__":
    main()
