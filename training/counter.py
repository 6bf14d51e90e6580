"""A counter-strategy: the profile that wins most against an opponent model, found on the engine.

`best_response(model, starts, deal_set, rules, seed)` plays each start profile against the model
(an exploiter, `bot.opponent.fit_exploiter`'s, or any single strategy) on the deals, each twice
with the seats swapped, all-in adjusted, and keeps the best; then climbs: each step proposes
`population` candidates, each the current profile with one of its tunable numbers moved
(`training.anneal.propose` at the default training proposal's scales), plays them all on the
same deals (`engine.play_population`: one thread per candidate) and keeps the best candidate if
it wins more than the current profile. It is a best response within the automaton's parameters
to the model only, on these deals: the portfolio that plays it decides, from what it wins, how
much to trust it. With guards (sound strategies) and a weight w it is scored by (1 - w) x its
winnings against the model + w x their mean against the guards (`guarded_score`): a counter
that keeps the model's leaks only where sound play does not punish it (`bot.portfolio`,
"Guards"). Deterministic for a seed.

`refresh_counter(game, portfolio, stats, refresh)` is a portfolio's model member
(`bot.portfolio`, "The model member"): the opponent's counts fitted (`bot.opponent.
fit_exploiter`, smoothed with the model's `prior`; calibrated `calibrate` times by
`calibrated_model` against the first start on the same deals), then `best_response`
from the model's `starts` (default: the portfolio's profiles) on the model's `deals` deals of
seed `seed`, searched with seed `seed + refresh`, leaving the first start only for one that wins
`margin` mbb/hand more against the model, scored with the model's `guards` and `guard_weight`
if it has them. The TCP bot and the fast engine call it with the same
counts, so they install the same counter at the same hand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import numpy as np

from gambler.bot.opponent import PRIOR
from gambler.jit import njit
from gambler.training.anneal import propose
from gambler.training.config import default_proposal
from gambler.training.engine import (CALL_CODE, PROFILE, RAISE_CODE, encode_strategy,
                                     play_deals, play_population, profile_vector)


class Counter(NamedTuple):
    """The profile found, what it wins against the model on the deals (mbb/hand, all-in
    adjusted), what each start won against it, and with guards the score the search kept it by
    (`guarded_score`; None without)."""

    profile: object
    mbb_per_hand: float
    starts: dict[str, float]
    steps: int
    guarded: float | None = None  # with guards: the score it was chosen by (`guarded_score`)


def _mbb(adjusted: np.ndarray, big_blind: int) -> float:
    return float(1000.0 * adjusted.mean() / big_blind)


def best_response(model, starts: dict, deal_set, rules, seed: int, big_blind: int,
                  steps: int = 10, population: int = 16, margin: float = 0.0, guards=(),
                  guard_weight: float = 0.0) -> Counter:
    """`starts`: {name: `Profile`}; the model: anything `encode_strategy` takes. The climb
    begins at the first start unless another wins more than `margin` mbb/hand beyond it against
    the model (then at the best of them): the first start is the one to leave only for a clear
    difference, since the model's ranking of two sound profiles can be wrong by more than the
    difference it sees (`chosen_start`).

    With `guards` (strategies `encode_strategy` takes) and `guard_weight` w > 0, every profile
    (starts and candidates) is scored by (1 - w) x its winnings against the model + w x their
    mean against the guards, each on the same deals (`guarded_score`), and the climb keeps the
    best by that score; the `Counter`'s `mbb_per_hand` is still what the counter wins against
    the model, its `guarded` the score it was chosen by."""
    count = deal_set.v.shape[0]
    guarded = bool(guards) and guard_weight > 0.0
    opponents = [encode_strategy(model)] + (
        [encode_strategy(guard) for guard in guards] if guarded else [])

    def against(candidates, kind_b, params_b):
        vectors = np.stack([profile_vector(candidate) for candidate in candidates])
        results = np.zeros((len(candidates), count, 2), dtype=np.int64)
        adjusted = np.zeros((len(candidates), count, 2))
        play_population(rules, PROFILE, vectors, kind_b, params_b, deal_set.v,
                        deal_set.outcomes, deal_set.allin_equity, seed, deal_set.first_deal,
                        results, adjusted, deal_set.holes, deal_set.boards)
        return [_mbb(adjusted[k], big_blind) for k in range(len(candidates))]

    def guard_means(candidates):
        rows = [against(candidates, kind_b, params_b) for kind_b, params_b in opponents[1:]]
        return [sum(column) / len(rows) for column in zip(*rows)]

    kind_b, params_b = opponents[0]
    scores = {}
    for name, profile in starts.items():
        results = np.zeros((count, 2), dtype=np.int64)
        adjusted = np.zeros((count, 2))
        play_deals(rules, PROFILE, profile_vector(profile), kind_b, params_b, deal_set.v,
                   deal_set.outcomes, deal_set.allin_equity, seed, deal_set.first_deal, results,
                   adjusted, deal_set.holes, deal_set.boards)
        scores[name] = _mbb(adjusted, big_blind)
    if guarded:
        names = list(starts)
        start_guards = dict(zip(names, guard_means([starts[name] for name in names])))
        chosen = {name: guarded_score(scores[name], start_guards[name], guard_weight)
                  for name in names}
    else:
        chosen = scores
    best_name = chosen_start(chosen, margin)

    def score(candidates):
        found = against(candidates, kind_b, params_b)
        if not guarded:
            return found
        return [guarded_score(model_score, guard_score, guard_weight)
                for model_score, guard_score in zip(found, guard_means(candidates))]

    best, best_score = climb(starts[best_name], chosen[best_name], score, seed, steps,
                             population)
    if not guarded:
        return Counter(best, best_score, scores, steps)
    return Counter(best, against([best], kind_b, params_b)[0], scores, steps, best_score)


def guarded_score(against_model: float, against_guards: float, weight: float) -> float:
    """The score a guarded counter search keeps the best of: (1 - w) x the winnings against the
    model + w x the mean winnings against the guards (mbb/hand each).

    >>> guarded_score(8000.0, -600.0, 0.5)
    3700.0
    >>> guarded_score(8000.0, -600.0, 0.0)
    8000.0
    """
    return (1.0 - weight) * against_model + weight * against_guards


def chosen_start(scores: dict, margin: float = 0.0) -> str:
    """The start the climb begins at: the first of `scores` ({name: mbb/hand against the
    model}, in the order given) unless the best of the others wins more than `margin` beyond it.

    >>> chosen_start({"price-aware": 900.0, "default": 1100.0}, margin=250)
    'price-aware'
    >>> chosen_start({"price-aware": 900.0, "default": 1200.0}, margin=250)
    'default'
    >>> chosen_start({"price-aware": 900.0, "default": 1100.0})
    'default'
    """
    first = next(iter(scores))
    best = max(scores, key=scores.get)
    return best if scores[best] > scores[first] + margin else first


def climb(best, best_score: float, score, seed: int, steps: int, population: int):
    """`best_response`'s climb from `best` (which scores `best_score`): each step proposes
    `population` candidates, each `best` with one tunable number moved (`training.anneal.
    propose` at the default training proposal's scales, drawn from a generator of `seed`), and
    keeps the top one by `score(candidates)` (a number per candidate) if it beats `best_score`.
    Returns (best, best_score)."""
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
        found = score(candidates)
        top = int(np.argmax(found))
        if found[top] > best_score:
            best, best_score = candidates[top], found[top]
    return best, best_score


@njit
def _count_answers(traces, opponent_positions, blinds, first_player, size_bounds, rule_of_bucket,
                   opens, bets, facing):
    """Count, from the engine's traces (hand h: rows of (round, code, raise-to), -1 after the
    last), what `bot.opponent.OpponentStats` counts for the fitted model's shares: per position
    and round of the opponent (`opponent_positions[h]`) the times checked to (`opens`) and bet
    (`bets`), and its fold / call / raise facing a bet (`facing[position, round, rule, answer]`,
    the bet's size r = to_call / (pot - to_call) bucketed by `size_bounds`, the buckets grouped
    into the model's rules by `rule_of_bucket`). Heads-up, the players alternate within a round
    from the round's first player; each starts with its blind."""
    for h in range(traces.shape[0]):
        who = opponent_positions[h]
        spent0 = blinds[0]
        spent1 = blinds[1]
        current_round = -1
        acted = 0
        for row in range(traces.shape[1]):
            round_ = traces[h, row, 0]
            if round_ < 0:
                break
            if round_ != current_round:
                current_round = round_
                acted = 0
            actor = (first_player[round_] + acted) % 2
            acted += 1
            code = traces[h, row, 1]
            highest = max(spent0, spent1)
            if actor == who:
                to_call = highest - (spent0 if actor == 0 else spent1)
                if to_call == 0:
                    opens[who, round_] += 1
                    bets[who, round_] += code == RAISE_CODE
                else:
                    size = to_call / (spent0 + spent1 - to_call)
                    bucket = 0
                    while bucket < size_bounds.shape[0] - 1 and size > size_bounds[bucket]:
                        bucket += 1
                    facing[who, round_, rule_of_bucket[bucket], code] += 1
            if code == CALL_CODE or code == RAISE_CODE:
                new_spent = highest if code == CALL_CODE else traces[h, row, 2]
                if actor == 0:
                    spent0 = new_spent
                else:
                    spent1 = new_spent


def played_shares(rules, model, against, deal_set, game):
    """The shares (`bot.opponent.ModelShares`, unsmoothed) that `model` makes when it plays
    `against` (a profile) on `deal_set`, both seats of each deal, and the counts behind each
    share (the times checked to; the bets faced per rule)."""
    from gambler.bot.opponent import MODEL_RULES, ROUNDS, RULE_OF_BUCKET, SIZE_BUCKETS, ModelShares
    from gambler.bot.portfolio import Portfolio
    from gambler.training.portfolio import play_portfolio

    alone = Portfolio((against.name, against.name), (against, against))
    match = play_portfolio(rules, alone, model, deal_set, 0, game.big_blind, min(game.stacks),
                           traces=True, game=game)
    hands = match.traces.shape[0]
    opponent_positions = 1 - np.arange(hands, dtype=np.int64) % 2  # the portfolio's: h % 2
    opens = np.zeros((2, ROUNDS), dtype=np.int64)
    bets = np.zeros((2, ROUNDS), dtype=np.int64)
    facing = np.zeros((2, ROUNDS, len(MODEL_RULES), 3), dtype=np.int64)
    _count_answers(match.traces, opponent_positions, np.array(game.blinds, dtype=np.int64),
                   np.array(game.first_player, dtype=np.int64),
                   np.array(SIZE_BUCKETS, dtype=np.float64),
                   np.array(RULE_OF_BUCKET, dtype=np.int64), opens, bets, facing)
    faced = facing.sum(axis=3)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = ModelShares(bets / opens, facing[..., 0] / faced, facing[..., 2] / faced,
                             np.zeros((2, ROUNDS)), np.zeros((2, ROUNDS, len(MODEL_RULES))))
    return shares, opens, faced


#: A share played fewer times than this in the calibration's match keeps its threshold.
CALIBRATION_MIN_COUNT = 20


def calibrated_model(stats, against, deal_set, rules, game, iterations: int,
                     name: str = "model", prior: float = PRIOR):
    """`bot.opponent.fit_exploiter`, its shares moved until the model, played against
    `against` on `deal_set`, makes the shares counted (`observed_shares`).

    The plain fit puts each threshold at the quantile of random holdings that the counted share
    leaves; but the hands that reach a turn bet are not random holdings (the earlier rounds
    narrowed them), so the model bets, folds and raises at other rates than the opponent did.
    Each iteration plays the model (`played_shares`) and moves each share the model is built
    from by the error, share <- share - (played - counted), clipped to [0, 1] (the bluff parts
    stay); a share played fewer than `CALIBRATION_MIN_COUNT` times stays. A share played is
    monotone in the share the model is built from, so the error shrinks while the situations
    the model reaches stay alike. With 0 iterations: the plain fit. `prior`: the smoothing's
    pseudo-counts (`observed_shares`)."""
    from gambler.bot.opponent import fit_exploiter, observed_shares

    counted = observed_shares(stats, prior)
    shares = counted.copy()
    for _ in range(iterations):
        model = fit_exploiter(stats, name, shares)
        played, opens, faced = played_shares(rules, model, against, deal_set, game)
        enough = opens >= CALIBRATION_MIN_COUNT
        shares.bet[enough] -= played.bet[enough] - counted.bet[enough]
        enough = faced >= CALIBRATION_MIN_COUNT
        shares.fold[enough] -= played.fold[enough] - counted.fold[enough]
        shares.raise_[enough] -= played.raise_[enough] - counted.raise_[enough]
        for array in shares[:3]:
            np.clip(array, 0.0, 1.0, out=array)
    return fit_exploiter(stats, name, shares)


def refresh_counter(game, portfolio, stats, refresh: int) -> Counter:
    """Counter `refresh` of `portfolio`'s model member against the opponent of `stats` (module
    docstring); its profile is named `model-REFRESH`."""
    from gambler.bot.params import Profile
    from gambler.training.deals import cached_deal_set
    from gambler.training.engine import encode_rules

    model = portfolio.model
    deal_set, _ = cached_deal_set(model.seed, 0, model.deals)
    rules = encode_rules(game)
    if model.starts:
        starts = dict(zip(model.starts, model.start_profiles))
    else:
        starts = {name: strategy for name, strategy in zip(portfolio.members,
                                                           portfolio.strategies)
                  if isinstance(strategy, Profile)}
    name = f"model-{refresh}"
    fitted = calibrated_model(stats, next(iter(starts.values())), deal_set, rules, game,
                              model.calibrate, name, model.prior)
    found = best_response(fitted, starts, deal_set, rules, model.seed + refresh, game.big_blind,
                          model.steps, model.population, model.margin,
                          model.guard_strategies, model.guard_weight)
    return found._replace(profile=replace(found.profile, name=name))
