"""The bot's range as rows of weights: what LBR models of the bot, and what a profile with range
defence (version 5) keeps of itself in the fast engine (`training.defended`).

A range is float64[4, 1326] by holding index (`evaluator.holdings`). WEIGHT: the probability
mass a holding carries from earlier rounds (0 once ruled out); CHANCE: the probability that this
round's plan for it is the mixed variant (slow play or bluff; 0 for strategies without mixed
play); PLAIN, MIXED: 1 while this round's actions so far are what that variant would have done,
else 0. A holding's mass now is WEIGHT ((1 - CHANCE) PLAIN + CHANCE MIXED) (`holding_mass`).

Each of the bot's actions narrows the rows (`narrow`: every holding replayed through the bot's
rules; `narrow_by_chart`: a preflop chart's decision weighs each holding by its class's share of
the action); each new round settles them (`close_round`), rules out the holdings that meet the
new cards (`remove_cards`) and sets each holding's chance of the mixed plan (`start_round`). With
range defence the bot answers a bet by its holding's percentile in its own range
(`own_percentiles`, `bot_action`). `bot.own_range` is the TCP bot's Python counterpart; the
tests check that both decide alike.
"""

from __future__ import annotations

import numpy as np

from gambler.bot.chart import (CLASS_COUNT, packed_action_count, packed_follow,
                               packed_real_action, packed_share)
from gambler.bot.own_range import ranked_percentiles
from gambler.jit import helper
from gambler.training.engine import (ACTIONS, AMOUNTS, CHART_AT, KINDS, MAX_SPENT, RAISE_CODE,
                                     ROUND, SPENT, fixed_action, has_chart, mixing_probability,
                                     PROFILE, raise_range, range_decision)

# The rows (module docstring).
WEIGHT, CHANCE, PLAIN, MIXED = 0, 1, 2, 3


@helper
def holding_mass(range_, index):
    """A holding's probability mass now (unnormalised)."""
    chance = range_[CHANCE, index]
    return range_[WEIGHT, index] * ((1.0 - chance) * range_[PLAIN, index]
                                    + chance * range_[MIXED, index])


@helper
def start_round(range_, kind, params, values, round_):
    """A new round (or a range-aware bot's plan, before its first action of the round): each
    holding's chance of the mixed plan for its v in `values`, both variants still possible."""
    for index in range(range_.shape[1]):
        if range_[WEIGHT, index] > 0.0:
            chance = 0.0
            if kind == PROFILE:
                chance = mixing_probability(params, round_, values[index])
            range_[CHANCE, index] = chance
            range_[PLAIN, index] = 1.0
            range_[MIXED, index] = 1.0 if chance > 0.0 else 0.0


@helper
def close_round(range_):
    """The round's actions settle each holding's weight."""
    for index in range(range_.shape[1]):
        if range_[WEIGHT, index] > 0.0:
            range_[WEIGHT, index] = holding_mass(range_, index)


@helper
def remove_cards(range_, holding_cards, cards, count):
    """Card removal: rule out every holding that holds one of `cards[:count]`."""
    mask = np.int64(0)
    for k in range(count):
        mask |= np.int64(1) << cards[k]
    for index in range(range_.shape[1]):
        if (mask >> holding_cards[index, 0]) & 1 or (mask >> holding_cards[index, 1]) & 1:
            range_[WEIGHT, index] = 0.0


@helper
def bot_action(kind, params, value, rules, hand, bot, mixed, decides, percentile):
    """(code, raise-to) of the bot with v `value` in `hand`: its rules (`fixed_action`), then,
    where its percentile in its own range `decides` (`engine.percentile_decides`), range defence
    or range bets at `percentile` (`engine.range_decision`)."""
    code, amount = fixed_action(kind, params, value, rules, hand, bot, mixed)
    if decides:
        raise_low, raise_high = raise_range(rules, hand, bot)
        return range_decision(kind, params, hand, bot, code, amount, value, percentile,
                              raise_low, raise_high)
    return code, amount


@helper
def own_percentiles(own, keys, order, percentiles):
    """percentiles[h]: holding h's percentile in the bot's own range `own`, the holdings ranked
    by the round's v (`keys`, `order`: `bot.own_range.rank_holdings`; `range_percentiles`)."""
    masses = np.empty(own.shape[1], dtype=np.float64)
    for index in range(own.shape[1]):
        masses[index] = holding_mass(own, index)
    ranked_percentiles(masses, keys, order, percentiles)


@helper
def narrow(range_, kind, params, values, rules, hand, bot, code, amount, decides, percentiles):
    """Keep, for each holding and plan variant, whether the bot would have taken (code, amount)
    here (`values`: each holding's v for the round's plan; where its percentile `decides`, each
    holding's `percentiles` in the bot's own range)."""
    for index in range(range_.shape[1]):
        if range_[WEIGHT, index] > 0.0:
            value = values[index]
            for row, mixed in ((PLAIN, False), (MIXED, True)):
                if range_[row, index] > 0.0:
                    their_code, their_amount = bot_action(kind, params, value, rules, hand,
                                                           bot, mixed, decides,
                                                           percentiles[index])
                    if their_code != code or (code == RAISE_CODE and their_amount != amount):
                        range_[row, index] = 0.0


@helper
def narrow_ranked(range_, kind, params, values, keys, order, rules, hand, bot, code, amount,
                  decides, percentiles):
    """`narrow`, the holdings visited in v order (`keys`, `order`: `bot.own_range.
    rank_holdings` of `values`): the bot's action depends on a holding only through its v and
    its percentile, both the same along a run of equal v, so each run is replayed once per plan
    variant (169 runs before the flop, where every holding of a class has the class's v)."""
    last_key = np.nan
    known = np.zeros(2, dtype=np.bool_)  # whether the run's action is known, per variant ...
    keeps = np.zeros(2, dtype=np.bool_)  # ... and whether it is (code, amount)
    for position in range(order.shape[0]):
        index = order[position]
        if range_[WEIGHT, index] <= 0.0:
            continue
        if keys[index] != last_key:
            last_key = keys[index]
            known[:] = False
        for variant in range(2):
            row = PLAIN if variant == 0 else MIXED
            if range_[row, index] > 0.0:
                if not known[variant]:
                    their_code, their_amount = bot_action(kind, params, values[index], rules,
                                                           hand, bot, variant == 1, decides,
                                                           percentiles[index])
                    keeps[variant] = their_code == code and (code != RAISE_CODE
                                                             or their_amount == amount)
                    known[variant] = True
                if not keeps[variant]:
                    range_[row, index] = 0.0


@helper
def chart_node(kind, params, hand):
    """The node of a profile's preflop chart that the hand's round has reached, or -1: no chart,
    not the first round, or the round left the chart's tree (the automaton plays)."""
    if not has_chart(kind, params, hand[ROUND]):
        return -1
    count = hand[ACTIONS]
    return packed_follow(params, np.int64(params[CHART_AT]), hand[KINDS:KINDS + count],
                         hand[AMOUNTS:AMOUNTS + count], count)


@helper
def chart_shares(params, node, rules, hand, bot, code, amount, shares):
    """shares[c]: the probability that a holding of class c takes the real action (code,
    amount) at the chart's `node` (the sum over the chart actions that become it in the real
    state: a fold with nothing owed is a check, sizes moved onto the same legal raise-to)."""
    base = np.int64(params[CHART_AT])
    raise_low, raise_high = raise_range(rules, hand, bot)
    bet = hand[MAX_SPENT]
    pot = hand[SPENT] + hand[SPENT + 1]
    shares[:] = 0.0
    for k in range(packed_action_count(params, base, node)):
        their_code, their_amount = packed_real_action(params, base, node, k, bet, pot,
                                                      bet - hand[SPENT + bot], raise_low,
                                                      raise_high)
        if their_code == code and (code != RAISE_CODE or their_amount == amount):
            for class_ in range(CLASS_COUNT):
                shares[class_] += packed_share(params, base, node, k, class_)


@helper
def narrow_by_chart(range_, holding_class, shares):
    """A chart decision: each holding's weight times its class's probability of the action seen
    (`_chart_shares`). The plan rows stay as they are: the chart's draw is its own."""
    for index in range(range_.shape[1]):
        if range_[WEIGHT, index] > 0.0:
            range_[WEIGHT, index] *= shares[holding_class[index]]
