"""A two-member portfolio with a model member, with other first weights: its members' (a head
start for price-aware) and the model's when it first plays (`lead`, which a file can set too
since session 17, `model: lead`; these members' weights it cannot).

    python experiments/adaptive/start_weights.py --ratio R [--lead L] --opponents a,b,...
        --json OUT [--seed 100] [--matches 20] [--portfolio FILE]

FILE (default `experiments/adaptive/adaptive-own600.yaml`, the `adaptive` these weights were
measured on in session 15: members default and price-aware, then the model). Each match is the
file's (`gambler-match FILE OPPONENT --hands 3000 --seed S`, S = seed .. seed + matches - 1)
except that Exp3 starts with weights (1, R) / (1 + R) x 2/3 for
(default, price-aware) and 1/3 for the model's slot (R = 1: the file's own start), and the model's
first weight is L times the best member's. Prints mbb/hand (all-in adjusted) with the 95% CI over
the matches; the JSON keeps every match.
"""

import argparse
import json
import time
from dataclasses import replace
from types import SimpleNamespace

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import play_portfolio
from sweep import mean_ci  # experiments/adaptive/sweep.py, next to this script


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ratio", type=float, required=True)
    parser.add_argument("--lead", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--opponents", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--portfolio", default="experiments/adaptive/adaptive-own600.yaml")
    options = parser.parse_args()
    game = load_game()
    rules = encode_rules(game)
    portfolio = resolve_strategy(options.portfolio)
    if len(portfolio.slots) != 3 or portfolio.model is None:
        raise SystemExit(f"start_weights.py: {options.portfolio} is not two members and a model")
    portfolio = replace(portfolio, model=replace(portfolio.model, lead=options.lead))
    members = np.array([1.0, options.ratio])
    members = members / members.sum() * (2.0 / 3.0)
    start = SimpleNamespace(gains=np.zeros(3), weights=np.array([*members, 1.0 / 3.0]))
    rows = {}
    for name in options.opponents.split(","):
        opponent = resolve_strategy(name)
        values = []
        started = time.time()
        for seed in range(options.seed, options.seed + options.matches):
            deals, _ = cached_deal_set(seed, 0, 1500)
            match = play_portfolio(rules, portfolio, opponent, deals, seed, game.big_blind,
                                   min(game.stacks),
                                   start=None if options.ratio == 1 else start)
            values.append(1000 * match.adjusted.mean() / game.big_blind)
        rows[name] = values
        mean, half = mean_ci(values)
        print(f"{name[-40:]:>40} {mean:+8.0f} ± {half:5.0f}  "
              f"({time.time() - started:.0f} s)", flush=True)
        with open(options.json, "w") as out:
            json.dump({"ratio": options.ratio, "lead": options.lead, "seed": options.seed,
                       "rows": rows}, out)


if __name__ == "__main__":
    main()
