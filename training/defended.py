"""The fast engine's hands when a profile defends by its own range (version 5, `bot.params`).

Range defence answers a bet by the holding's percentile in the bot's own range, so such a player
keeps that range through the hand as the TCP bot does (`bot.own_range`), in the rows of
`training.range_rows`: every holding starts at weight 1, the board's cards rule holdings out, and
each of its actions is replayed with every holding (its chart's class shares, or its rules and
mixed plans, a decision by range defence with each holding's own percentile). That needs v of
every holding on the deal's board, `training.deals.cached_holding_rates` (about 32 KB a deal,
computed once per deal and cached on disk); a hand costs a few microseconds per action for each
such player, against a fraction of a microsecond for `engine._play`, so this loop is its own
(`engine.play_deals` and `engine.play_population` hand over to it when a strategy has range
defence; the results are laid out as theirs).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from gambler.bot.chart import CLASS_COUNT
from gambler.bot.own_range import rank_holdings
from gambler.evaluator.holdings import HOLDINGS, _index_of
from gambler.evaluator.rng import stream_seed
from gambler.jit import helper, njit
from gambler.training.engine import (ENDED, HAND_STATE_SIZE, RANDOM,
                                     adjusted_payoff_of, chart_action, fixed_action,
                                     has_chart, is_mixed, uses_own_range, payoff_of,
                                     percentile_decides, player_to_act, random_action,
                                     record_and_apply, start_hand, ROUND)
from gambler.training.range_rows import (WEIGHT, bot_action, chart_node, chart_shares,
                                         close_round, narrow_by_chart, narrow_ranked,
                                         own_percentiles, remove_cards, start_round)


@helper
def _play_defended(rules, kinds, params, v, rng_state, mix_seed, hand_number, trace, hand,
                   defended, holes, board, holding_v, preflop_v, holding_cards, holding_class,
                   own, percentiles, shares, keys, order):
    """`engine._play` when a position plays a profile with range defence (`defended[p]`): that
    position's own range in `own[p]` (float64[4, 1326]), narrowed by each of its actions and
    read for its percentile when a bet is owed in a round with range defence. `holes`
    (uint8[2, 2]), `board` (uint8[5]) and `holding_v` (float64[3, 1326]) are the deal's;
    `preflop_v`, `holding_cards` and `holding_class` the holdings' tables (`lbr.lbr_tables`);
    `percentiles` (float64[1326]) and `shares` (float64[169]) are work space; `keys` and
    `order` (float64[2, 1326], int64[2, 1326]) the holdings ranked by v (`bot.own_range.
    rank_holdings`): row 0 by `preflop_v`, as the caller gives it, row 1 by the round's v, set
    here as each round starts."""
    start_hand(rules, hand)
    indices = np.empty(2, dtype=np.int64)
    for position in range(2):
        indices[position] = _index_of(min(holes[position, 0], holes[position, 1]),
                                      max(holes[position, 0], holes[position, 1]))
        if defended[position]:
            own[position, :, :] = 0.0
            own[position, WEIGHT, :] = 1.0
            start_round(own[position], kinds[position], params[position], preflop_v, 0)
    dealt = 0
    traced = 0
    while hand[ENDED] == 0:
        player = player_to_act(rules, hand)
        round_ = hand[ROUND]
        if round_ != dealt:  # the new board cards leave each defended player's holdings
            for position in range(2):
                if defended[position]:
                    close_round(own[position])
                    remove_cards(own[position], holding_cards, board, 2 + round_)
                    start_round(own[position], kinds[position], params[position],
                                holding_v[round_ - 1], round_)
            if defended[0] or defended[1]:
                rank_holdings(holding_v[round_ - 1], keys[1], order[1])
            dealt = round_
        kind = kinds[player]
        if kind == RANDOM:
            code, amount, rng_state = random_action(rules, hand, player, rng_state)
        else:
            value = v[player, round_]
            code, amount = -1, 0
            if has_chart(kind, params[player], round_):
                node = chart_node(kind, params[player], hand)
                code, amount = chart_action(params[player], value, rules, hand, player, mix_seed,
                                            hand_number)
                if code >= 0 and defended[player]:
                    chart_shares(params[player], node, rules, hand, player, code, amount, shares)
                    narrow_by_chart(own[player], holding_class, shares)
            if code < 0:
                mixed = is_mixed(kind, params[player], round_, value, mix_seed, hand_number,
                                 player)
                if defended[player]:
                    values = preflop_v if round_ == 0 else holding_v[round_ - 1]
                    decides = percentile_decides(kind, params[player], hand, player)
                    ranked = 0 if round_ == 0 else 1
                    if decides:
                        own_percentiles(own[player], keys[ranked], order[ranked], percentiles)
                    code, amount = bot_action(kind, params[player], value, rules, hand, player,
                                              mixed, decides, percentiles[indices[player]])
                    narrow_ranked(own[player], kind, params[player], values, keys[ranked],
                                  order[ranked], rules, hand, player, code, amount, decides,
                                  percentiles)
                else:
                    code, amount = fixed_action(kind, params[player], value, rules, hand,
                                                player, mixed)
        traced = record_and_apply(rules, hand, player, code, amount, trace, traced)
    return rng_state


@helper
def ranked_preflop(preflop_v):
    """(keys, order) for `_play_defended`: float64[2, 1326] and int64[2, 1326], row 0 the
    holdings ranked by their preflop v (the same in every hand: ranked once per block)."""
    keys = np.zeros((2, HOLDINGS), dtype=np.float64)
    order = np.zeros((2, HOLDINGS), dtype=np.int64)
    rank_holdings(preflop_v, keys[0], order[0])
    return keys, order


@helper
def _defended_pairs(rules, kinds, params, numbers, deals, holding_v, seed, first_deal, results,
                    adjusted, start, stop, preflop_v, holding_cards, holding_class):
    """`engine._play_pairs` with `_play_defended`: deals start .. stop - 1, each played twice
    (A at position 0, then at 1), `holding_v[i]` the holdings' v on deal i's board."""
    seats = np.empty((2, 2), dtype=np.int64)
    seats[0, 0], seats[0, 1], seats[1, 0], seats[1, 1] = kinds[0], kinds[1], kinds[1], kinds[0]
    defended = np.zeros((2, 2), dtype=np.bool_)
    defended[0, 0] = defended[1, 1] = uses_own_range(kinds[0], params[0])
    defended[0, 1] = defended[1, 0] = uses_own_range(kinds[1], params[1])
    own = np.zeros((2, 4, HOLDINGS), dtype=np.float64)
    percentiles = np.zeros(HOLDINGS, dtype=np.float64)
    shares = np.zeros(CLASS_COUNT, dtype=np.float64)
    ranked_keys, ranked_order = ranked_preflop(preflop_v)
    no_trace = np.empty((0, 3), dtype=np.int64)
    hand = np.empty(HAND_STATE_SIZE, dtype=np.int64)
    for i in range(start, stop):
        deal = first_deal + i
        for order in range(2):
            _play_defended(rules, seats[order], numbers[order], deals.v[i],
                           stream_seed(seed, 2 * deal + order), seed, 2 * deal + order, no_trace,
                           hand, defended[order], deals.holes[i], deals.boards[i], holding_v[i],
                           preflop_v, holding_cards, holding_class, own, percentiles, shares,
                           ranked_keys, ranked_order)
            sign = 1 - 2 * order
            results[i, order] = sign * payoff_of(hand, deals.outcomes[i])
            adjusted[i, order] = sign * adjusted_payoff_of(hand, deals.outcomes[i],
                                                           deals.allin_equity[i])


_BLOCK = 64  # deals per task: a defended hand is slow enough that small blocks balance better


@njit(parallel=True)
def defended_deals_kernel(rules, kinds, params, numbers, deals, holding_v, seed, first_deal,
                          results, adjusted, preflop_v, holding_cards, holding_class):
    """`_defended_pairs` over every deal, blocks of `_BLOCK` deals on all cores."""
    count = deals.v.shape[0]
    for block in prange((count + _BLOCK - 1) // _BLOCK):
        _defended_pairs(rules, kinds, params, numbers, deals, holding_v, seed, first_deal,
                        results, adjusted, _BLOCK * block, min(count, _BLOCK * (block + 1)),
                        preflop_v, holding_cards, holding_class)


@njit(parallel=True)
def defended_population_kernel(rules, kinds, population, opponent, deals, holding_v, seed,
                               first_deal, results, adjusted, preflop_v, holding_cards,
                               holding_class):
    """`_defended_pairs` for each member of `population` against `opponent`, one member per
    thread at a time (`engine.play_population`)."""
    for member in prange(population.shape[0]):
        params = np.empty((2, population.shape[1]), dtype=np.float64)
        params[0] = population[member]
        params[1] = opponent
        numbers = np.empty((2, 2, params.shape[1]), dtype=np.float64)
        numbers[0, 0], numbers[0, 1], numbers[1, 0], numbers[1, 1] = (params[0], params[1],
                                                                      params[1], params[0])
        _defended_pairs(rules, kinds, params, numbers, deals, holding_v, seed, first_deal,
                        results[member], adjusted[member], 0, deals.v.shape[0], preflop_v,
                        holding_cards, holding_class)


@njit
def defended_hand_kernel(rules, kinds, params, v, outcome, rng_state, trace, mix_seed,
                         hand_number, holes, board, holding_v, preflop_v, holding_cards,
                         holding_class):
    """One hand (`engine.play_hand`): (payoff to position 0, rng state)."""
    defended = np.zeros(2, dtype=np.bool_)
    for position in range(2):
        defended[position] = uses_own_range(kinds[position], params[position])
    hand = np.empty(HAND_STATE_SIZE, dtype=np.int64)
    own = np.zeros((2, 4, HOLDINGS), dtype=np.float64)
    keys, order = ranked_preflop(preflop_v)
    rng_state = _play_defended(rules, kinds, params, v, rng_state, mix_seed, hand_number, trace,
                               hand, defended, holes, board, holding_v, preflop_v, holding_cards,
                               holding_class, own, np.zeros(HOLDINGS), np.zeros(CLASS_COUNT),
                               keys, order)
    return payoff_of(hand, outcome), rng_state


def holdings_tables():
    """(preflop_v, holding_cards, holding_class) as the kernels take them (`lbr.lbr_tables`)."""
    from gambler.training.lbr import lbr_tables

    tables = lbr_tables()
    return tables.preflop_v, tables.holding_cards, tables.holding_class


def deal_set_holding_rates(seed: int, first_deal: int, count: int) -> np.ndarray:
    """v of every holding on each board of deals first_deal .. first_deal + count - 1 of `seed`:
    float64[count, 3, 1326], read chunk by chunk from `training.deals.cached_holding_rates`
    (computed and cached on first use)."""
    from gambler.training.deals import HOLDINGS_CHUNK, cached_holding_rates

    parts = []
    deal = first_deal
    stop = first_deal + count
    while deal < stop:
        end = min(stop, (deal // HOLDINGS_CHUNK + 1) * HOLDINGS_CHUNK)
        parts.append(cached_holding_rates(seed, deal, end - deal))
        deal = end
    if not parts:
        return np.zeros((0, 3, HOLDINGS), dtype=np.float64)
    return np.concatenate(parts)
