"""Does the counter's predicted edge over its start tell when the counter really pays?

    python experiments/adaptive/counter_edge.py [PORTFOLIO] [--opponents handmade,sizer,...]
        [--matches 2] [--seed 100] [--held-out 5000] [--json OUT]

For each opponent and each of `--matches` matches (3,000 hands of deal seed S, the portfolio in
the fast engine as `sweep.py` plays it), every counter the model member installs: what the search
said it wins against the fitted model, what each start won against the model, and then what
the counter and each start really win against the opponent on `--held-out` duplicate deals of
seed 602 (mbb/hand all-in adjusted, 95% CI). A rule that keeps the start unless the predicted
edge is large is worth trying only if the predicted edge separates the counters that beat the
start against the real opponent from those that do not.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from model_counter import score  # noqa: E402

from gambler.bot.strategies import resolve_strategy  # noqa: E402
from gambler.protocol.gamedef import load_game  # noqa: E402
from gambler.training.counter import refresh_counter  # noqa: E402
from gambler.training.deals import cached_deal_set  # noqa: E402
from gambler.training.engine import encode_rules  # noqa: E402
from gambler.training.portfolio import play_portfolio  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("portfolio", nargs="?", default="adaptive")
    parser.add_argument("--opponents", default="handmade,default-v2,price-aware,seed,sizer,prober")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--held-out", type=int, default=5000)
    parser.add_argument("--json", default=None)
    options = parser.parse_args()
    game = load_game()
    rules = encode_rules(game)
    portfolio = resolve_strategy(options.portfolio)
    starts = dict(zip(portfolio.model.starts, portfolio.model.start_profiles))
    held_out, _ = cached_deal_set(602, 0, options.held_out)
    rows = []
    for opponent_name in options.opponents.split(","):
        opponent = resolve_strategy(opponent_name)
        real_starts = {name: score(rules, game, profile, opponent, held_out)
                       for name, profile in starts.items()}
        print(f"{opponent_name}: starts really win "
              + ", ".join(f"{name} {mean:+,.0f} ± {half:,.0f}"
                          for name, (mean, half) in real_starts.items()), flush=True)
        for match in range(options.matches):
            seed = options.seed + match
            found = []

            def recording(game_, portfolio_, stats, index):
                counter = refresh_counter(game_, portfolio_, stats, index)
                found.append(counter)
                return counter

            deals, _ = cached_deal_set(seed, 0, options.hands // 2)
            play_portfolio(rules, portfolio, opponent, deals, seed, game.big_blind,
                           min(game.stacks), refresh=recording)
            for index, counter in enumerate(found, start=1):
                real = score(rules, game, counter.profile, opponent, held_out)
                row = {"opponent": opponent_name, "seed": seed, "refresh": index,
                       "predicted": counter.mbb_per_hand, "predicted_starts": counter.starts,
                       "real": real, "real_starts": real_starts}
                rows.append(row)
                edge = counter.mbb_per_hand - max(counter.starts.values())
                print(f"  seed {seed} refresh {index}: predicted {counter.mbb_per_hand:+8,.0f} "
                      f"(starts " + ", ".join(f"{n} {v:+,.0f}" for n, v in
                                              counter.starts.items())
                      + f"; edge over the best start {edge:+,.0f}), real {real[0]:+8,.0f} ± "
                      f"{real[1]:,.0f}", flush=True)
            if options.json:
                with open(options.json, "w") as out:
                    json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
