"""A counter-strategy: the profile that wins most against an opponent model, found on the engine.

`best_response(model, starts, deal_set, rules, seed)` plays each start profile against the model
(an exploiter, `bot.opponent.fit_exploiter`'s, or any single strategy) on the deals, each twice
with the seats swapped, all-in adjusted, and keeps the best; then climbs: each step proposes
`population` candidates, each the current profile with one of its tunable numbers moved
(`training.anneal.propose` at the default training proposal's scales), plays them all on the
same deals (`engine.play_population`: one thread per candidate) and keeps the best candidate if
it wins more than the current profile. It is a best response within the automaton's parameters
to the model only, on these deals: the portfolio that plays it decides, from what it wins, how
much to trust it. Deterministic for a seed.

`refresh_counter(game, portfolio, stats, refresh)` is a portfolio's model member
(`bot.portfolio`, "The model member"): the opponent's counts fitted (`bot.opponent.
fit_exploiter`), then `best_response` from the portfolio's profiles on the model's `deals` deals
of seed `seed`, searched with seed `seed + refresh`. The TCP bot and the fast engine call it
with the same counts, so they install the same counter at the same hand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import numpy as np

from gambler.training.anneal import propose
from gambler.training.config import default_proposal
from gambler.training.engine import (PROFILE, encode_strategy, play_deals, play_population,
                                     profile_vector)


class Counter(NamedTuple):
    """The profile found, what it wins against the model on the deals (mbb/hand, all-in
    adjusted), and what each start won."""

    profile: object
    mbb_per_hand: float
    starts: dict[str, float]
    steps: int


def _mbb(adjusted: np.ndarray, big_blind: int) -> float:
    return float(1000.0 * adjusted.mean() / big_blind)


def best_response(model, starts: dict, deal_set, rules, seed: int, big_blind: int,
                  steps: int = 10, population: int = 16) -> Counter:
    """`starts`: {name: `Profile`}; the model: anything `encode_strategy` takes."""
    kind_b, params_b = encode_strategy(model)
    count = deal_set.v.shape[0]
    scores = {}
    for name, profile in starts.items():
        results = np.zeros((count, 2), dtype=np.int64)
        adjusted = np.zeros((count, 2))
        play_deals(rules, PROFILE, profile_vector(profile), kind_b, params_b, deal_set.v,
                   deal_set.outcomes, deal_set.allin_equity, seed, deal_set.first_deal, results,
                   adjusted, deal_set.holes, deal_set.boards)
        scores[name] = _mbb(adjusted, big_blind)
    best_name = max(scores, key=scores.get)
    best, best_score = starts[best_name], scores[best_name]
    scales = default_proposal()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        entries = best.tunable()
        labels = [label for label, _, _ in entries]
        vector = np.array([value for _, value, _ in entries])
        candidates = []
        for _ in range(population):
            position = int(rng.integers(len(entries)))
            candidates.append(best.with_tunable(
                propose(vector, position, scales[entries[position][2]], rng, labels)))
        vectors = np.stack([profile_vector(candidate) for candidate in candidates])
        results = np.zeros((population, count, 2), dtype=np.int64)
        adjusted = np.zeros((population, count, 2))
        play_population(rules, PROFILE, vectors, kind_b, params_b, deal_set.v,
                        deal_set.outcomes, deal_set.allin_equity, seed, deal_set.first_deal,
                        results, adjusted, deal_set.holes, deal_set.boards)
        found = [_mbb(adjusted[k], big_blind) for k in range(population)]
        top = int(np.argmax(found))
        if found[top] > best_score:
            best, best_score = candidates[top], found[top]
    return Counter(best, best_score, scores, steps)


def refresh_counter(game, portfolio, stats, refresh: int) -> Counter:
    """Counter `refresh` of `portfolio`'s model member against the opponent of `stats` (module
    docstring); its profile is named `model-REFRESH`."""
    from gambler.bot.opponent import fit_exploiter
    from gambler.bot.params import Profile
    from gambler.training.deals import cached_deal_set
    from gambler.training.engine import encode_rules

    model = portfolio.model
    deal_set, _ = cached_deal_set(model.seed, 0, model.deals)
    starts = {name: strategy for name, strategy in zip(portfolio.members, portfolio.strategies)
              if isinstance(strategy, Profile)}
    found = best_response(fit_exploiter(stats, name=f"model-{refresh}"), starts, deal_set,
                          encode_rules(game), model.seed + refresh, game.big_blind, model.steps,
                          model.population)
    return found._replace(profile=replace(found.profile, name=f"model-{refresh}"))
