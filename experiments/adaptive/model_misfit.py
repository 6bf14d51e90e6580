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
    python experiments/adaptive/model_misfit.py minmax OPPONENT,...
        the counter searched for the most it wins against the worse of two completions of the
        counts: the fitted model (unseen spots: the sound prior) and an aggressive one (unseen
        spots: `AGGRESSIVE`, bets and raises polarised where no showdown says otherwise); a
        robust counter moves only where both agree it pays
    python experiments/adaptive/model_misfit.py station OPPONENT,...
        the counter against a calling-station completion (`STATION`), and against the worst of
        three completions: the fitted model, the station and `default`'s own shares
    python experiments/adaptive/model_misfit.py iterate OPPONENT,... [--rounds 4]
        the counter teaching the next fit: `default` plays 1,500 hands (deal seed 610), then each
        counter found plays the next 1,500 (seeds 611, ...), the counts accumulating, the model
        refitted and the counter searched again after each

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

from gambler.bot.opponent import OpponentStats  # noqa: E402
from gambler.bot.portfolio import Portfolio  # noqa: E402
from gambler.training.portfolio import hand_states, play_portfolio  # noqa: E402

from gambler.training.counter import Counter, best_response, climb  # noqa: E402
from gambler.training.engine import (PROFILE, encode_strategy, play_population,  # noqa: E402
                                     profile_vector)
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


#: The aggressive completion: bets 90% of the times checked to, folds 5% and raises 35% of the
#: bets it faces, half of its bets and raises with its weakest hands.
AGGRESSIVE = ModelShares(np.full((2, ROUNDS), 0.9), np.full((2, ROUNDS, len(MODEL_RULES)), 0.05),
                         np.full((2, ROUNDS, len(MODEL_RULES)), 0.35), np.full((2, ROUNDS), 0.5),
                         np.full((2, ROUNDS, len(MODEL_RULES)), 0.5))


#: The calling-station completion: bets a fifth of the times checked to, folds 5% and raises 5%
#: of the bets it faces, all with its strongest hands.
STATION = ModelShares(np.full((2, ROUNDS), 0.2), np.full((2, ROUNDS, len(MODEL_RULES)), 0.05),
                      np.full((2, ROUNDS, len(MODEL_RULES)), 0.05), np.zeros((2, ROUNDS)),
                      np.zeros((2, ROUNDS, len(MODEL_RULES))))


def aggressive_shares(stats, weight: float = PRIOR,
                      base: ModelShares = AGGRESSIVE) -> ModelShares:
    """The counts smoothed toward `base` (`AGGRESSIVE`); the bluff parts are `base`'s except where
    at least `bot.opponent.MIN_SHOWN` shown decisions choose them."""
    counted = shares_toward(stats, base, weight)
    shown = bluff_parts(stats, counted._replace(bet_bluff=np.full((2, ROUNDS), -1.0),
                                                raise_bluff=np.full_like(counted.raise_bluff,
                                                                         -1.0)))
    return counted._replace(
        bet_bluff=np.where(shown.bet_bluff < 0, base.bet_bluff, shown.bet_bluff),
        raise_bluff=np.where(shown.raise_bluff < 0, base.raise_bluff, shown.raise_bluff))


def least_response(models, starts, deal_set, rules, seed, big_blind, steps, population):
    """`training.counter.best_response` scoring each profile by the least it wins against
    `models` (a list; one model: the same search); a profile may be `Restricted`."""
    encoded = [encode_strategy(model) for model in models]
    count = deal_set.v.shape[0]

    def least(profiles):
        vectors = np.stack([profile_vector(profile.profile if isinstance(profile, Restricted)
                                           else profile) for profile in profiles])
        worst = np.full(len(profiles), np.inf)
        for kind_b, params_b in encoded:
            results = np.zeros((len(profiles), count, 2), dtype=np.int64)
            adjusted = np.zeros((len(profiles), count, 2))
            play_population(rules, PROFILE, vectors, kind_b, params_b, deal_set.v,
                            deal_set.outcomes, deal_set.allin_equity, seed,
                            deal_set.first_deal, results, adjusted, deal_set.holes,
                            deal_set.boards)
            worst = np.minimum(worst, 1000.0 * adjusted.mean(axis=(1, 2)) / big_blind)
        return worst

    names = list(starts)
    scores = least([starts[name] for name in names])
    top = int(np.argmax(scores))
    best, best_score = climb(starts[names[top]], float(scores[top]), least, seed, steps,
                             population)
    return Counter(best, best_score, dict(zip(names, scores)), steps)


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


def iterate(game, rules, opponent, label: str, rounds: int, searched_by) -> None:
    """The `iterate` probe (module docstring): each round's counter plays the next 1,500 hands
    (as a portfolio of itself twice, so the engine keeps the hands for the counts)."""
    stats = OpponentStats()
    player = resolve_strategy("default-v2")
    for step in range(rounds):
        deals, _ = cached_deal_set(610 + step, 0, 750)
        match = play_portfolio(rules, Portfolio(("p", "p"), (player, player)), opponent, deals, 0,
                               game.big_blind, min(game.stacks), traces=True)
        for state in hand_states(match, deals, game)[:1500]:
            stats.observe(state)
        flop = decisions(stats, 1)
        line, player = searched_by(fit_exploiter(stats), keep=True)
        print(f"{label}: after {1500 * (step + 1):,} hands ({flop} flop decisions seen): {line}",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("hybrid", "self-prior", "rounds", "minmax", "station",
                                         "iterate"))
    parser.add_argument("opponents")
    parser.add_argument("--least", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=4)
    options = parser.parse_args()
    game = load_game()
    rules = encode_rules(game)
    search, _ = cached_deal_set(601, 0, 4000)
    held_out, _ = cached_deal_set(602, 0, 20000)
    starts = {name: resolve_strategy(name) for name in ("default-v2", "price-aware")}

    def searched(model, start=starts, keep=False):
        if isinstance(model, list) or start is not starts:
            found = least_response(model if isinstance(model, list) else [model], start, search,
                                   rules, 1, game.big_blind, STEPS, POPULATION)
        else:
            found = best_response(model, start, search, rules, 1, game.big_blind, STEPS,
                                  POPULATION)
        profile = found.profile.profile if isinstance(found.profile, Restricted) else found.profile
        mbb, ci = score(rules, game, profile, opponent, held_out)
        line = f"{found.mbb_per_hand:+7,.0f} -> {mbb:+7,.0f} ± {ci:4,.0f}"
        return (line, profile) if keep else line

    base = None
    if options.mode in ("self-prior", "station"):
        base = observed_shares(watch(game, rules, resolve_strategy("default-v2"), 20000))
    for name in options.opponents.split(","):
        opponent = resolve_strategy(name)
        label = name.rsplit("/", 1)[-1]
        if options.mode == "iterate":
            iterate(game, rules, opponent, label, options.rounds, searched_by=searched)
            continue
        stats = watch(game, rules, opponent, 1500)
        fitted = fit_exploiter(stats)
        if options.mode == "hybrid":
            for rounds in ((), (0,), (1,), (2, 3), (1, 2, 3), (0, 1, 2, 3)):
                model = replace(fitted, blocks=tuple(
                    tuple(opponent.blocks[p][r] if r in rounds else fitted.blocks[p][r]
                          for r in range(ROUNDS)) for p in range(2)))
                names = ", ".join(ROUND_NAMES[r] for r in rounds) or "none"
                print(f"{label}: the opponent's own rounds: {names:<28} {searched(model)}",
                      flush=True)
        elif options.mode == "minmax":
            aggressive = fit_exploiter(stats, shares=aggressive_shares(stats))
            print(f"{label:>28}  fitted: {searched(fitted)}   aggressive: {searched(aggressive)}"
                  f"   the worse of the two: {searched([fitted, aggressive])}", flush=True)
        elif options.mode == "station":
            station = fit_exploiter(stats, shares=aggressive_shares(stats, base=STATION))
            shaped = fit_exploiter(stats, shares=shares_toward(stats, base))
            print(f"{label:>28}  station: {searched(station)}   the worst of fitted, station and"
                  f" default's shares: {searched([fitted, station, shaped])}", flush=True)
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
