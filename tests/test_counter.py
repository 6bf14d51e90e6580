"""The counter-strategy search (`training.counter`): a profile that beats the model, on deals it
never saw too."""

import numpy as np
import pytest

from acpc_support import NOLIMIT
from gambler.bot.strategies import resolve_strategy
from gambler.protocol import load_game
from gambler.training.counter import best_response
from gambler.training.deals import compute_deal_set
from gambler.training.engine import PROFILE, encode_rules, encode_strategy, play_deals, \
    profile_vector

GAME = load_game(NOLIMIT)


def adjusted_mbb(profile, opponent, deals):
    results = np.zeros((len(deals), 2), dtype=np.int64)
    adjusted = np.zeros((len(deals), 2))
    play_deals(encode_rules(GAME), PROFILE, profile_vector(profile), *encode_strategy(opponent),
               deals.v, deals.outcomes, deals.allin_equity, 5, deals.first_deal, results,
               adjusted)
    return 1000 * adjusted.mean() / GAME.big_blind


@pytest.mark.parametrize("opponent", ["call", "prober"])
def test_the_counter_beats_the_better_start_on_deals_it_never_saw(opponent):
    """Against `call` (which price-aware's value bets beat by ten times what the default wins)
    and `prober`: the search keeps the better start, climbs on 2,000 deals, and what it found
    still wins more than that start on 4,000 other deals; the same seed finds the same profile."""
    rules = encode_rules(GAME)
    training = compute_deal_set(seed=41, first_deal=0, count=2000)
    held_out = compute_deal_set(seed=42, first_deal=0, count=4000)
    starts = {name: resolve_strategy(name) for name in ("default-v2", "price-aware")}
    model = resolve_strategy(opponent)
    found = best_response(model, starts, training, rules, 5, GAME.big_blind, steps=8,
                          population=16)
    assert found.starts == pytest.approx({name: adjusted_mbb(profile, model, training)
                                          for name, profile in starts.items()}, rel=1e-12)
    better = max(found.starts, key=found.starts.get)
    if opponent == "call":
        assert better == "price-aware"
    assert found.mbb_per_hand > found.starts[better]
    assert found.mbb_per_hand == pytest.approx(adjusted_mbb(found.profile, model, training))
    assert adjusted_mbb(found.profile, model, held_out) > \
        adjusted_mbb(starts[better], model, held_out)
    again = best_response(model, starts, training, rules, 5, GAME.big_blind, steps=8,
                          population=16)
    assert again.profile == found.profile


def test_played_shares_count_what_opponent_stats_count():
    """`played_shares` counts the model's opens, bets and answers in numba from the engine's
    traces; `bot.opponent.OpponentStats` counts them by replaying each hand through
    `BettingState`: the two agree count for count (situations grouped into the model's rules)."""
    from gambler.bot.opponent import MODEL_RULES, OpponentStats
    from gambler.bot.portfolio import Portfolio
    from gambler.training.counter import played_shares
    from gambler.training.portfolio import hand_states, play_portfolio

    rules = encode_rules(GAME)
    deals = compute_deal_set(seed=43, first_deal=0, count=300)
    default = resolve_strategy("default-v2")
    for name in ("prober", "shover", "price-aware"):
        opponent = resolve_strategy(name)
        played, opens, faced = played_shares(rules, opponent, default, deals, GAME)
        match = play_portfolio(rules, Portfolio(("a", "b"), (default, default)), opponent, deals,
                               0, GAME.big_blind, min(GAME.stacks), traces=True, game=GAME)
        stats = OpponentStats(win_rate=lambda hole, board: 0.0)
        for state in hand_states(match, deals, GAME):
            stats.observe(state)
        for position in range(2):
            for round_, counts in enumerate(stats.positions[position].rounds):
                assert opens[position, round_] == counts.opens
                if counts.opens:
                    assert played.bet[position, round_] == counts.bets / counts.opens
                for rule, (buckets, _) in enumerate(MODEL_RULES):
                    answers = [sum(counts.facing[bucket][k] for bucket in buckets)
                               for k in range(3)]
                    assert faced[position, round_, rule] == sum(answers), (name, position, round_)
                    if sum(answers):
                        assert played.fold[position, round_, rule] == answers[0] / sum(answers)
                        assert played.raise_[position, round_, rule] == answers[2] / sum(answers)
        assert opens.sum() > 300 and faced.sum() > 300


def test_calibration_brings_the_models_shares_to_the_counted_ones():
    """The plain fit puts thresholds at random holdings' quantiles, so on the turn, whose hands
    the earlier rounds narrowed, the model bets at other rates than the opponent; three
    calibration rounds bring the bet shares played against `default` nearer those counted
    (the largest error 0.091 -> 0.037)."""
    from gambler.bot.opponent import OpponentStats, fit_exploiter, observed_shares
    from gambler.bot.portfolio import Portfolio
    from gambler.training.counter import CALIBRATION_MIN_COUNT, calibrated_model, played_shares
    from gambler.training.portfolio import hand_states, play_portfolio

    rules = encode_rules(GAME)
    watched = compute_deal_set(seed=44, first_deal=0, count=750)
    simulated = compute_deal_set(seed=45, first_deal=0, count=1000)
    default = resolve_strategy("default-v2")
    match = play_portfolio(rules, Portfolio(("a", "b"), (default, default)),
                           resolve_strategy("prober"), watched, 0, GAME.big_blind,
                           min(GAME.stacks), traces=True, game=GAME)
    stats = OpponentStats()
    for state in hand_states(match, watched, GAME):
        stats.observe(state)
    counted = observed_shares(stats)

    def bet_error(model):
        played, opens, _ = played_shares(rules, model, default, simulated, GAME)
        enough = opens >= CALIBRATION_MIN_COUNT
        return float(np.abs(played.bet - counted.bet)[enough].max())

    plain = bet_error(fit_exploiter(stats))
    calibrated = bet_error(calibrated_model(stats, default, simulated, rules, GAME, 3))
    assert plain > 0.04 and calibrated < plain / 2


def test_a_guarded_climb_keeps_the_best_mixture_of_the_model_and_the_guards():
    """With guards and a weight w every candidate is scored by (1 - w) x what it wins against
    the model + w x its mean against the guards: the counter found is reported with both, each
    equal to its own play on the search's deals; the climb moved off the start, and what it
    found scores better by the mixture than the counter the model alone finds, which wins more
    against the model."""
    rules = encode_rules(GAME)
    training = compute_deal_set(seed=41, first_deal=0, count=1000)
    starts = {name: resolve_strategy(name) for name in ("default-v2", "price-aware")}
    model, guards = resolve_strategy("call"), (resolve_strategy("seed"), "raise")

    def mixture(profile):
        return 0.25 * adjusted_mbb(profile, model, training) + 0.75 * (
            adjusted_mbb(profile, guards[0], training) + adjusted_mbb(profile, guards[1],
                                                                      training)) / 2

    plain = best_response(model, starts, training, rules, 5, GAME.big_blind, steps=6,
                          population=8)
    guarded = best_response(model, starts, training, rules, 5, GAME.big_blind, steps=6,
                            population=8, guards=guards, guard_weight=0.75)
    assert plain.guarded is None
    assert guarded.mbb_per_hand == pytest.approx(adjusted_mbb(guarded.profile, model, training))
    assert guarded.guarded == pytest.approx(mixture(guarded.profile))
    assert guarded.guarded > max(mixture(profile) for profile in starts.values())
    assert guarded.guarded > mixture(plain.profile)
    assert plain.mbb_per_hand > guarded.mbb_per_hand
