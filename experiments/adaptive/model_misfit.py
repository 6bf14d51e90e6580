"""Where does the fitted model mislead the counter? Three offline probes on the fast engine, each
against opponents given by name or file (deals and watch as in `model_counter.py`: the `default`
watches 1,500 hands of deal seed 600, the counter is searched 60 steps of 16 on 4,000 deals of
seed 601 from `default` and `price-aware`, and scored against the real opponent on 20,000
duplicate deals of seed 602, mbb/hand all-in adjusted with its 95% interval). Each line prints
what the counter wins against the model it was searched on and, after the arrow, against the
real opponent.

    python experiments/adaptive/model_misfit.py hybrid OPPONENT
        the model with the rounds in S replaced by the opponent's own (an exploiter file), for
        S = none, preflop, flop, turn and river, flop to river, all: which round's misfit costs
    python experiments/adaptive/model_misfit.py self-prior OPPONENT,...
        the fitted model as shipped next to one whose unseen situations take the `default`'s own
        shares (counted over 20,000 hands of `default` against itself) instead of the sound
        defence of `bot.opponent.PRIOR_ANSWERS`
    python experiments/adaptive/model_misfit.py rounds OPPONENT,... [--least M]
        the counter searched only in the rounds where the opponent was seen deciding at least M
        times (default 100); the other rounds keep the start profile's numbers

Results: experiments/adaptive/results/misfit/.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from model_counter import score, watch  # noqa: E402

import gambler.training.counter as counter_module  # noqa: E402
from gambler.bot.opponent import (MODEL_RULES, PRIOR, ROUNDS, ModelShares,  # noqa: E402
                                  bluff_parts, fit_exploiter, observed_shares)
from gambler.bot.strategies import resolve_strategy  # noqa: E402
from gambler.protocol.gamedef import load_game  # noqa: E402
from gambler.training.deals import cached_deal_set  # noqa: E402
from gambler.training.engine import encode_rules  # noqa: E402

ROUND_NAMES = ("preflop", "flop", "turn", "river")
STEPS, POPULATION = 60, 16


def shares_toward(stats, base: ModelShares, weight: float = PRIOR) -> ModelShares:
    """The counted shares smoothed toward `base` (per position, round and rule) instead of the
    sound-defence prior."""
    bet = np.zeros((2, ROUNDS))
    fold = np.zeros((2, ROUNDS, len(MODEL_RULES)))
    raise_ = np.zeros_like(fold)
    for position in range(2):
        for round_, counts in enumerate(stats.positions[position].rounds):
            bet[position, round_] = ((counts.bets + weight * base.bet[position, round_])
                                     / (counts.opens + weight))
            for rule, (buckets, _) in enumerate(MODEL_RULES):
                seen = [sum(counts.facing[b][k] for b in buckets) for k in range(3)]
                total = sum(seen) + weight
                fold[position, round_, rule] = (seen[0] + weight * base.fold[position, round_,
                                                                             rule]) / total
                raise_[position, round_, rule] = (seen[2] + weight * base.raise_[position, round_,
                                                                                rule]) / total
    return bluff_parts(stats, ModelShares(bet, fold, raise_, np.zeros_like(bet),
                                          np.zeros_like(raise_)))


def decisions(stats, round_: int) -> int:
    """The opponent's decisions counted in `round_`, both positions."""
    return sum(position.rounds[round_].opens + sum(map(sum, position.rounds[round_].facing))
               for position in stats.positions)


class Restricted:
    """A profile whose `tunable()` lists only the numbers of the `allowed` rounds."""

    def __init__(self, profile, allowed):
        self.profile, self.allowed = profile, allowed

    def tunable(self):
        return [entry for entry in self.profile.tunable()
                if entry[0].split(".")[0] in self.allowed]

    def with_tunable(self, vector):
        values = dict(zip([label for label, _, _ in self.tunable()], vector))
        merged = np.array([values.get(label, value) for label, value, _ in self.profile.tunable()])
        return Restricted(self.profile.with_tunable(merged), self.allowed)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("hybrid", "self-prior", "rounds"))
    parser.add_argument("opponents")
    parser.add_argument("--least", type=int, default=100)
    options = parser.parse_args()
    game = load_game()
    rules = encode_rules(game)
    search, _ = cached_deal_set(601, 0, 4000)
    held_out, _ = cached_deal_set(602, 0, 20000)
    starts = {name: resolve_strategy(name) for name in ("default", "price-aware")}

    def searched(model, start=starts):
        found = counter_module.best_response(model, start, search, rules, 1, game.big_blind,
                                             STEPS, POPULATION)
        profile = found.profile.profile if isinstance(found.profile, Restricted) else found.profile
        mbb, ci = score(rules, game, profile, opponent, held_out)
        return f"{found.mbb_per_hand:+7,.0f} -> {mbb:+7,.0f} ± {ci:4,.0f}"

    base = None
    if options.mode == "self-prior":
        base = observed_shares(watch(game, rules, resolve_strategy("default"), 20000))
    if options.mode == "rounds":
        vector_of = counter_module.profile_vector
        counter_module.profile_vector = lambda profile: vector_of(
            profile.profile if isinstance(profile, Restricted) else profile)
    for name in options.opponents.split(","):
        opponent = resolve_strategy(name)
        stats = watch(game, rules, opponent, 1500)
        fitted = fit_exploiter(stats)
        label = name.rsplit("/", 1)[-1]
        if options.mode == "hybrid":
            for rounds in ((), (0,), (1,), (2, 3), (1, 2, 3), (0, 1, 2, 3)):
                model = replace(fitted, blocks=tuple(
                    tuple(opponent.blocks[p][r] if r in rounds else fitted.blocks[p][r]
                          for r in range(ROUNDS)) for p in range(2)))
                names = ", ".join(ROUND_NAMES[r] for r in rounds) or "none"
                print(f"{label}: the opponent's own rounds: {names:<28} {searched(model)}",
                      flush=True)
        elif options.mode == "self-prior":
            print(f"{label:>28}  sound prior: {searched(fitted)}   self-play prior: "
                  f"{searched(fit_exploiter(stats, shares=shares_toward(stats, base)))}",
                  flush=True)
        else:
            counts = [decisions(stats, r) for r in range(ROUNDS)]
            allowed = {ROUND_NAMES[r] for r in range(ROUNDS) if counts[r] >= options.least}
            start = {key: Restricted(profile, allowed) for key, profile in starts.items()}
            rounds = ", ".join(r for r in ROUND_NAMES if r in allowed)
            print(f"{label:>28}  decisions {counts}  searched: {rounds:<28} "
                  f"{searched(fitted, start)}", flush=True)


if __name__ == "__main__":
    main()
