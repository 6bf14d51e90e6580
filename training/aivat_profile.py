"""AIVAT for an automaton profile's hands: `training.aivat_holdem`'s estimator (its value
function, chance and decision terms) with the known player's range kept as `training.lbr` keeps
the bot's (`training.range_rows`).

The known player's private state is its holding x and, in each round, which of its two plans it
drew (the plain one or the mixed one: slow play or bluff, with its known chance for x's v); a
preflop chart's draw weighs x by its class's share of the action. So W(x) = WEIGHT ((1 - CHANCE)
PLAIN + CHANCE MIXED), and at a decision the mass of x that takes the real action a is W(x) with
the plan rows kept only where x's plan takes a (or, from the chart, times the class's share of
a). A range-aware profile's v against the opponent's range narrowed by its raises, and range
defence's percentiles in the bot's own range, are replayed as LBR replays them. The portfolio's
members are not scored: its member and the model's counters change during a match.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from gambler.bot.chart import packed_action_count, packed_real_action
from gambler.evaluator.holdings import HOLDINGS
from gambler.jit import helper, njit
from gambler.training.aivat_holdem import (BAD_TRACE, MAX_REAL_ACTIONS, OFF_STRATEGY, OK,
                                              OVERFLOW, TERM_CHANCE, TERM_DECISION, UNFINISHED,
                                              _after_value, _check_down_mean, _record,
                                              _street_equities)
from gambler.training.engine import (CHART_AT, ENDED, FOLDED, MAX_SPENT, PLAN_ROUND, RAISE_CODE,
                                     RAISED, ROUND, SPENT, apply_action, is_range_aware,
                                     percentile_decides, player_to_act, raise_range, start_hand,
                                     uses_own_range)
from gambler.training.lbr import _lbr_view, _new_work, _own_percentiles, _round_values
from gambler.training.range_rows import (CHANCE, MIXED, PLAIN, WEIGHT, bot_action, chart_node,
                                         chart_shares, close_round, holding_mass, narrow,
                                         narrow_by_chart, remove_cards, start_round)


@helper
def _view_masses(range_, out):
    """out[0, h]: holding h's mass in the rows `range_` (the branch layout of `_check_down_mean`
    and `_street_equities`, one branch)."""
    for h in range(range_.shape[1]):
        out[0, h] = holding_mass(range_, h)


@helper
def _add_real(real_code, real_amount, reals, code, amount):
    """(the new count, the index of (code, amount)) in the list of distinct real actions; an
    index of -1 when the list is full."""
    for r in range(reals):
        if real_code[r] == code and real_amount[r] == amount:
            return reals, r
    if reals == real_code.shape[0]:
        return reals, -1
    real_code[reals] = code
    real_amount[reals] = amount
    return reals + 1, reals


@helper
def _profile_aivat(rules, known, kind, params, tables, lbr_tables, holding_v, known_hole,
                   other_hole, board, trace, actions, preflop_equity, terms, final_range, out):
    """One hand: `aivat_holdem._blueprint_aivat` for the profile (kind, params), with
    `holding_v` (float64[3, 1326]) every holding's v on the hand's board (a board completed
    past the hand's end is never read there)."""
    other = 1 - known
    holding_cards, preflop_v, holding_class = lbr_tables.holding_cards, lbr_tables.preflop_v, \
        lbr_tables.holding_class
    work = _new_work()
    hand, range_, own, cache_v, cache_key = work.hand, work.range_, work.own, work.cache_v, \
        work.cache_key
    scratch_rows = np.zeros((4, HOLDINGS), dtype=np.float64)
    view = np.zeros((4, HOLDINGS), dtype=np.float64)
    masses = np.zeros((MAX_REAL_ACTIONS, HOLDINGS), dtype=np.float64)
    real_code = np.empty(MAX_REAL_ACTIONS, dtype=np.int64)
    real_amount = np.empty(MAX_REAL_ACTIONS, dtype=np.int64)
    weights = np.zeros((1, HOLDINGS), dtype=np.float64)
    equity = preflop_equity.copy()
    sums = np.zeros(2, dtype=np.float64)
    start_hand(rules, hand)
    work.ranked[0] = -1
    cache_key[0] = -1
    cache_key[1] = -1
    cache_key[2] = 0
    ranged = is_range_aware(kind, params)
    defended = uses_own_range(kind, params)
    x = -1
    if known_hole[0] >= 0:
        low, high = min(known_hole[0], known_hole[1]), max(known_hole[0], known_hole[1])
        x = high * (high - 1) // 2 + low
    tracked = own if defended else range_
    tracked[:, :] = 0.0
    tracked[WEIGHT, :] = 1.0
    if not defended:
        remove_cards(range_, holding_cards, other_hole, 2)
    values = preflop_v
    start_round(tracked, kind, params, values, 0)
    if defended:
        _lbr_view(range_, own, holding_cards, other_hole)
    dealt_round = 0
    row = 0
    for index in range(actions):
        player, code, amount = trace[index, 0], trace[index, 1], trace[index, 2]
        if hand[ENDED] != 0 or player != player_to_act(rules, hand):
            return BAD_TRACE
        round_ = hand[ROUND]
        if player == known:
            if ranged and hand[PLAN_ROUND + known] != round_:
                hand[PLAN_ROUND + known] = round_  # its plan: v against the opponent's range
                planned = _round_values(kind, params, round_, hand[RAISED + other], preflop_v,
                                        holding_v, board, tables, cache_v, cache_key)
                if planned is not values:
                    values = planned
                    start_round(range_, kind, params, values, round_)
            node = chart_node(kind, params, hand)
            reals = 0
            seen = -1
            if node >= 0:  # the chart's actions, each holding weighed by its class's share
                base = np.int64(params[CHART_AT])
                low_raise, high_raise = raise_range(rules, hand, known)
                bet = hand[MAX_SPENT]
                pot = hand[SPENT] + hand[SPENT + 1]
                for k in range(packed_action_count(params, base, node)):
                    their_code, their_amount = packed_real_action(
                        params, base, node, k, bet, pot, bet - hand[SPENT + known], low_raise,
                        high_raise)
                    reals, found = _add_real(real_code, real_amount, reals, their_code,
                                             their_amount)
                    if found < 0:
                        return OVERFLOW
                for r in range(reals):
                    chart_shares(params, node, rules, hand, known, real_code[r], real_amount[r],
                                 work.shares)
                    for h in range(HOLDINGS):
                        masses[r, h] = holding_mass(range_, h) * work.shares[holding_class[h]]
                for r in range(reals):
                    if real_code[r] == code and (code != RAISE_CODE or real_amount[r] == amount):
                        seen = r
                if seen < 0 or (x >= 0 and masses[seen, x] <= 0.0):
                    return OFF_STRATEGY
                before = 0.0
                total = 0.0
                after = 0.0
                kept = 0.0
                for h in range(HOLDINGS):
                    for r in range(reals):
                        mass = masses[r, h]
                        if mass > 0.0:
                            value = _after_value(rules, hand, known, real_code[r],
                                                 real_amount[r], equity[h])
                            before += mass * value
                            total += mass
                            if r == seen:
                                after += mass * value
                                kept += mass
            else:
                # each holding's two plans take one action each: the term from them directly
                decides = percentile_decides(kind, params, hand, known)
                if decides:
                    _own_percentiles(work, values, round_)
                before = 0.0
                total = 0.0
                after = 0.0
                kept = 0.0
                for h in range(HOLDINGS):
                    if tracked[WEIGHT, h] <= 0.0 or range_[WEIGHT, h] <= 0.0:
                        continue
                    chance = range_[CHANCE, h]
                    for variant, plan_row in ((0, PLAIN), (1, MIXED)):
                        share = (1.0 - chance) if variant == 0 else chance
                        mass = range_[WEIGHT, h] * share * range_[plan_row, h]
                        if mass <= 0.0:
                            continue
                        their_code, their_amount = bot_action(
                            kind, params, values[h], rules, hand, known, variant == 1, decides,
                            work.percentiles[h])
                        value = _after_value(rules, hand, known, their_code, their_amount,
                                             equity[h])
                        before += mass * value
                        total += mass
                        if their_code == code and (code != RAISE_CODE or their_amount == amount):
                            after += mass * value
                            kept += mass
                            if h == x:
                                seen = 1
                if kept <= 0.0 or (x >= 0 and seen < 0):
                    return OFF_STRATEGY
            before /= total
            after /= kept
            sums[1] += before - after
            row = _record(terms, row, TERM_DECISION, before, after, total, kept)
            if node >= 0:
                chart_shares(params, node, rules, hand, known, code, amount, work.shares)
                narrow_by_chart(tracked, holding_class, work.shares)
            else:
                decides = percentile_decides(kind, params, hand, known)
                narrow(tracked, kind, params, values, rules, hand, known, code, amount, decides,
                       work.percentiles)
            if defended:
                _lbr_view(range_, own, holding_cards, other_hole)
        apply_action(rules, hand, player, code, amount)
        if hand[FOLDED] >= 0:
            continue
        while dealt_round < hand[ROUND]:  # the board cards: one chance term each
            next_round = dealt_round + 1
            stake = min(hand[SPENT], hand[SPENT + 1])
            _view_masses(range_, weights)
            before, mass_before = _check_down_mean(weights, 1, equity, stake)
            close_round(tracked)
            remove_cards(tracked, holding_cards, board, 2 + next_round)
            values = holding_v[next_round - 1]
            start_round(tracked, kind, params, values, next_round)
            if defended:
                _lbr_view(range_, own, holding_cards, other_hole)
            _view_masses(range_, weights)
            _street_equities(tables, holding_cards, other_hole, board, 2 + next_round, weights,
                             1, equity)
            after, mass_after = _check_down_mean(weights, 1, equity, stake)
            if mass_after <= 0.0:
                return OFF_STRATEGY
            before /= mass_before
            after /= mass_after
            sums[0] += before - after
            row = _record(terms, row, TERM_CHANCE, before, after, mass_before, mass_after)
            dealt_round = next_round
    _view_masses(range_, weights)
    if final_range.shape[0]:
        final_range[:] = weights[0]
    if hand[ENDED] == 0:
        return UNFINISHED
    base = 0.0
    total = 0.0
    chips = 0.0
    for h in range(HOLDINGS):
        mass = weights[0, h]
        if mass <= 0.0 and h != x:
            continue
        if hand[FOLDED] == known:
            value = -float(hand[SPENT + known])
        elif hand[FOLDED] == other:
            value = float(hand[SPENT + other])
        else:
            value = (2.0 * equity[h] - 1.0) * min(hand[SPENT], hand[SPENT + 1])
        base += mass * value
        total += mass
        if h == x:
            chips = value
    out[0] = chips
    out[1] = base / total
    out[2] = sums[0]
    out[3] = sums[1]
    return OK


@njit(parallel=True)
def profile_aivat_hands(rules, known, kind, params, tables, lbr_tables, holding_v, holes, boards,
                        traces, actions, preflop_equity, out, status):
    """`_profile_aivat` for every hand, on all cores (the arrays of
    `aivat_holdem.blueprint_aivat_hands`, and holding_v float64[n, 3, 1326])."""
    no_terms = np.empty((0, 5), dtype=np.float64)
    no_range = np.empty(0, dtype=np.float64)
    for i in prange(holes.shape[0]):
        status[i] = _profile_aivat(rules, known[i], kind, params, tables, lbr_tables,
                                   holding_v[i], holes[i, known[i]], holes[i, 1 - known[i]],
                                   boards[i], traces[i], actions[i], preflop_equity[i],
                                   no_terms, no_range, out[i])


@njit
def profile_aivat_hand(rules, known, kind, params, tables, lbr_tables, holding_v, known_hole,
                       other_hole, board, trace, actions, preflop_equity, terms, final_range):
    """One hand with its corrections in `terms` and W at its end in `final_range`, for the
    tests: (status, [chips, base, chance, decisions], the rows of `terms` used)."""
    out = np.zeros(4, dtype=np.float64)
    status = _profile_aivat(rules, known, kind, params, tables, lbr_tables, holding_v,
                            known_hole, other_hole, board, trace, actions, preflop_equity, terms,
                            final_range, out)
    rows = 0
    for r in range(terms.shape[0]):
        if terms[r, 3] > 0.0:
            rows = r + 1
    return status, out, rows
