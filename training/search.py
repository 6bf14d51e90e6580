"""A random search for a version 2 starting profile: what annealing refines.

Annealing moves one number at a time by small steps; from a poor start (the seed profile put in
version 2 form) it spent 600 steps climbing out of a deep hole. A coarse random search over a
small family finds a far better start in minutes:

* per round, thresholds x <= y <= z (z sometimes 1.01: no "bet to the end"), a price margin m
  in [-0.1, 0.3], and a bet size q(v) = f + g v pots (f from a few usual sizes, g mostly 0, so
  that sizes do not tell the hand); pot levels and price-aware calls everywhere, no mixed play
  yet (its numbers are in the file, at 0, for annealing to move);
* each candidate plays 10,000 duplicate deals of deal seed 1 against the seed, hand-made and
  v1 default profiles, the four exploiters and the four baselines (all-in adjusted), and LBR
  plays 4,000 hands of LBR seed 3000 against it;
* candidates are ranked by their worst result against those opponents, less 0.3 x LBR's
  winnings above 1,500 mbb/hand.

    python -m gambler.training.search --candidates 1200 --seed 2 --out search.jsonl
    python -m gambler.training.search --best search.jsonl --write start.yaml

Every candidate is a line of JSON (its numbers, its scores, LBR); `--best` writes the top one as
a profile. Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

OPPONENTS = ("seed", "handmade", "default-v1", "catcher", "shover", "prober", "sizer", "call",
             "raise", "allin", "random")
ROUND_NAMES = ("preflop", "flop", "turn", "river")


def candidate(rng: np.random.Generator) -> list[float]:
    """Six numbers a round: x, y, z, margin, f, g."""
    numbers = []
    for _ in range(4):
        x = rng.uniform(-0.6, 0.4)
        y = rng.uniform(x, 0.9)
        z = rng.uniform(y, 1.0)
        if rng.random() < 0.3:
            z = 1.01 if rng.random() < 0.5 else z
        margin = rng.uniform(-0.1, 0.3)
        size = rng.choice([0.33, 0.5, 0.75, 1.0, 1.5, 2.5])
        slope = rng.choice([0.0, 0.0, rng.uniform(-1, 2)])
        numbers += [x, y, min(z, 1.01), margin, float(size), float(slope)]
    return numbers


def profile_of(numbers, name: str = "search", description: str = ""):
    from gambler.bot.params import Profile, RoundParams

    rounds = []
    for round_ in range(4):
        x, y, z, margin, size, slope = numbers[6 * round_:6 * round_ + 6]
        rounds.append(RoundParams((x, y, z), (0.0, 0.0, 0.0, 0.0), (size, slope, 0.0, 0.0),
                                  "pot", margin, mixing=True))
    return Profile(tuple(rounds), name=name, description=description, version=2)


def rank(row: dict) -> float:
    return min(row["scores"].values()) - 0.3 * max(0.0, row["lbr"] - 1500.0)


def search(candidates: int, seed: int, out) -> None:
    from gambler.bot.strategies import resolve_strategy
    from gambler.protocol import load_game
    from gambler.training.deals import cached_deal_set
    from gambler.training.engine import encode_rules, encode_strategy, play_deals
    from gambler.training.lbr import LbrDeals, run_lbr

    game = load_game()
    rules = encode_rules(game)
    deals, _ = cached_deal_set(1, 0, 10000)
    opponents = {name: encode_strategy(resolve_strategy(name)) for name in OPPONENTS}
    lbr_deals = LbrDeals(3000, 4000, keep=True)
    rng = np.random.default_rng(seed)
    for _ in range(candidates):
        numbers = candidate(rng)
        profile = profile_of(numbers)
        encoded = encode_strategy(profile)
        scores = {}
        for name, opponent in opponents.items():
            chips = np.zeros((len(deals), 2), dtype=np.int64)
            adjusted = np.zeros((len(deals), 2))
            play_deals(rules, *encoded, *opponent, deals.v, deals.outcomes, deals.allin_equity,
                       1, 0, chips, adjusted)
            scores[name] = float(adjusted.sum(axis=1).mean() / 2 * 1000 / game.big_blind)
        lbr = run_lbr(profile, game, deals=lbr_deals).chips.sum(axis=1).mean() / 2 \
            * 1000 / game.big_blind
        out.write(json.dumps({"numbers": numbers, "scores": scores, "lbr": float(lbr)}) + "\n")
        out.flush()


def seed_argument(text: str) -> int:
    """argparse's type for a seed: `gambler.cli.SEED`'s range and wording, as every command's."""
    import click

    from gambler.cli import SEED

    try:
        return SEED.convert(text, None, None)
    except click.BadParameter as error:
        raise argparse.ArgumentTypeError(error.message) from None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=1200)
    parser.add_argument("--seed", type=seed_argument, default=2)
    parser.add_argument("--out", default="search.jsonl")
    parser.add_argument("--best", default=None, metavar="JSONL",
                        help="Write the best candidate of this file as a profile (--write).")
    parser.add_argument("--write", default="start.yaml")
    options = parser.parse_args(argv)
    if options.best:
        from gambler.bot.params import save_profile

        rows = [json.loads(line) for line in open(options.best) if line.strip()]
        best = max(rows, key=rank)
        save_profile(profile_of(best["numbers"], "search-best",
                                f"The best of {len(rows)} random candidates (training.search): "
                                f"worst result {min(best['scores'].values()):+.0f} mbb/hand, "
                                f"LBR {best['lbr']:+.0f}."), options.write)
        return 0
    with open(options.out, "a") as out:
        search(options.candidates, options.seed, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
