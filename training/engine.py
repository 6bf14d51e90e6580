"""The fast self-play engine: heads-up hands under the protocol's rules, in numba, no sockets.

A hand here is exactly a hand of `protocol.betting` (the ACPC server's rules, heads-up): the same
blinds, legal actions, minimum raises, round closing and payoffs; the tests replay engine hands
through `BettingState` and through `gambler-dealer` with two `gambler` processes and compare them
action by action and chip by chip.

What makes it fast:

* The win rate v depends only on the cards, so a deal set carries v for each position and street
  (computed once, `training.deals`); the automaton only looks it up.
* The showdown winner depends only on the cards too: the deal set carries it.
* A strategy is a kind and 160 numbers (`encode_strategy`): the automaton with a profile (80
  of them), an exploiter's rules (8 blocks of 20), or a baseline (call, minimum raise, all in,
  the ACPC example player's random mix). The numbers' layout is named in one place, beside `STRIDE` (`params[base + BLUFF]`), and
  `profile_vector` and `exploiter_vector` pack with the same names. A profile with a preflop
  chart (version 4) has the chart packed after its numbers (`CHART_AT`, `bot.chart.encode_chart`);
  vectors of different lengths meet padded with zeros (`stack_vectors`).
* A range-aware profile (`narrow` < 1 in some round) needs the cards: `play_deals` takes the
  deal set's holes and boards, and at a profile's first decision of each round, if some rounds
  narrow (`evaluator.narrowing.narrowing_rounds`, the rule the TCP bot and LBR use too: from the
  flop on, the opponent's raises in rounds whose `narrow` is below 1), computes v against the
  narrowed range with the TCP bot's kernel (`evaluator.narrowing.range_aware_v`) and keeps it
  for the round.
  Those exact range counts are most of such a hand's cost; a cache per deal set and `narrow`
  setting (`range_cache`, kept by `training.evaluate` across the steps of a run) turns the
  repeats into look-ups.

`play_deals` plays every deal twice with the seats swapped (duplicate): strategy A holds position
0's cards and seat in the first hand and position 1's in the second, so the luck of the cards
cancels within each pair. The random baseline draws from a SplitMix64 stream per (seed, deal,
hand), so results never depend on how deals are split among workers.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange, uint64

from gambler.bot.chart import (encode_chart, packed_class, packed_draw, packed_follow,
                               packed_real_action)
from gambler.bot.params import NO_DEFENCE
from gambler.errors import GamblerError
from gambler.evaluator.narrowing import narrowing_rounds, range_aware_v
from gambler.evaluator.rng import GOLDEN_GAMMA, chart_uniform, mix64, mixing_uniform, stream_seed
from gambler.jit import helper, njit


class EngineError(GamblerError, ValueError):
    """What the engine cannot play: a game that is not heads-up, an unknown baseline, a
    range-aware profile without the deals' cards."""


# Strategy kinds.
PROFILE, CALL, MIN_RAISE, ALL_IN, RANDOM, EXPLOITER = range(6)
KIND_OF_BASELINE = {"call": CALL, "raise": MIN_RAISE, "allin": ALL_IN, "random": RANDOM}

# Action codes in traces.
FOLD_CODE, CALL_CODE, RAISE_CODE = 0, 1, 2

MAX_ACTIONS = 64  # per round, as the ACPC server (`MAX_NUM_ACTIONS`)
_RANDOM_MIX = (0.06, 0.47, 0.47)


@helper
def _cubic(params, offset, v):
    """c0 + c1 v + c2 v^2 + c3 v^3, the same operations as `bot.params.cubic`."""
    return params[offset] + params[offset + 1] * v + params[offset + 2] * v * v \
        + params[offset + 3] * v * v * v


@helper
def _uniform(state):
    """(new state, a float in [0, 1)) from SplitMix64: 53 random bits."""
    state = state + GOLDEN_GAMMA
    return state, (mix64(state) >> uint64(11)) * (1.0 / 9007199254740992.0)


@helper
def _uniform_int(state, low, high):
    """(new state, an integer in low..high) from SplitMix64 (Lemire's multiply-shift)."""
    state = state + GOLDEN_GAMMA
    span = uint64(high - low + 1)
    return state, low + np.int64(((mix64(state) >> uint64(32)) * span) >> uint64(32))


# The state of a hand in progress: one int64 array, read and written by the helpers below.
ROUND, SPENT, MAX_SPENT, MIN_RAISE_TO, FOLDED, ACTIONS, RAISES, LAST_ACTOR, ENDED, ALLIN_ROUND, \
    START_LEVEL, START_POT, KINDS, ACTORS = (0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                             13 + MAX_ACTIONS)
RAISED, PLAN_ROUND, AMOUNTS = 13 + 2 * MAX_ACTIONS, 15 + 2 * MAX_ACTIONS, 17 + 2 * MAX_ACTIONS
HAND_STATE_SIZE = 17 + 3 * MAX_ACTIONS
# SPENT and SPENT + 1: each position's total in the hand; ACTIONS, RAISES: this round's counts;
# ENDED: 1 once the hand is over; ALLIN_ROUND: the round in which the betting ended with fewer
# than two players able to act and the board still to come (-1 otherwise); START_LEVEL and
# START_POT: the largest total and the pot when this round began; KINDS and ACTORS: this
# round's action codes and who made them (AMOUNTS: the raise-to of each, 0 for the others; a
# preflop chart follows the round with them); RAISED + p: the bitmask of rounds in which
# position p raised; PLAN_ROUND + p: the round of p's range-aware v (-1: none yet).

# A strategy's parameter vector: a profile's has `STRIDE` numbers per round, round r's at
# STRIDE * r + the offsets below (packed by `profile_vector`, zeros after the fourth round); an
# exploiter's has a block of STRIDE numbers per position and round (the offsets further down).
STRIDE = 20  # a profile's numbers per round (`bot.params.STRIDE`)
THRESHOLD_X = 0   # x, win rate: below it, mode 1 (give up: check, or fold to a bet)
THRESHOLD_Y = 1   # y, win rate: below it (from x), mode 2 (call up to U)
THRESHOLD_Z = 2   # z, win rate: below it (from y), mode 3 (raise to T); from it, mode 4 (bet on)
CALL_0, CALL_1, CALL_2, CALL_3 = 3, 4, 5, 6      # p(v)'s c0..c3: U in chips, or pots (LEVELS)
RAISE_0, RAISE_1, RAISE_2, RAISE_3 = 7, 8, 9, 10  # q(v)'s c0..c3: T in chips, or pots (LEVELS)
LEVELS = 11        # 0: U and T are hand totals in chips; 1: in pots from the round's start
PRICE = 12         # 1: facing a bet in modes 2 and 3, fold on price (PRICE_MARGIN); 0: above U
PRICE_MARGIN = 13  # equity margin over the price to_call / (pot + to_call), a fraction
SLOW_PLAY = 14     # probability that a mode 3 or 4 hand that could bet first checks instead
BLUFF = 15         # probability that a mode 1 hand that could bet first bets
BLUFF_SIZE = 16    # the bluff's size, in pots from the round's start
NARROW = 17        # fraction of the opponent's holdings kept when it raised this round (1: off)
DEFEND_0 = 18      # the defence line (version 3): a fold becomes a call when v >= d0 + d1 price;
DEFEND_1 = 19      # d0 = `bot.params.NO_DEFENCE` (2): none
CHART_AT = 4 * STRIDE  # after the four rounds: where the profile's packed preflop chart starts
#                        (`bot.chart.encode_chart`, appended by `profile_vector`); 0: none
RANGE_DEFENCE_AT = CHART_AT + 1  # + r: round r's range defence a (version 5)
RANGE_BET_AT = RANGE_DEFENCE_AT + 4  # + 2 r: round r's range bet share, + 2 r + 1: its size
RANGE_CAP_AT = RANGE_BET_AT + 8  # + r: round r's range defence cap (none: a cap of 1)
RANGE_FROM_AT = RANGE_CAP_AT + 4  # + r: the least bet, in pots, range defence answers (0: all)
RANGE_RAISE_AT = RANGE_FROM_AT + 4  # + 2 r: round r's range raise share, + 2 r + 1: its size
RANGE_KEEP_AT = RANGE_RAISE_AT + 8  # + r: round r's range defence keep k
END_RERAISE_AT = RANGE_KEEP_AT + 4  # + r: 1 if round r has end_reraise (0: none, always
#                                     re-raise); + 4 + r: its w (stored as is: v >= w exactly)
RANGE_BET_POSITION_AT = END_RERAISE_AT + 8  # + r: 1 + the position round r's range bets are
#                                             kept for (0: both)
# Whether round r has each of the five numbers above that may be absent: 1 at + r (0: none).
# The numbers themselves are stored as written, so the engine compares exactly what the TCP bot
# compares (an offset such as 2 + k, subtracted again, may move k by an ulp: 2.85 - 2 > 0.85).
HAS_RANGE_DEFENCE, HAS_RANGE_BET, HAS_RANGE_CAP, HAS_RANGE_RAISE, HAS_RANGE_KEEP = (
    RANGE_BET_POSITION_AT + 4 + 4 * k for k in range(5))

# An exploiter's vector (`exploiter_vector`; `bot.exploiters` has the rules): one block of STRIDE
# numbers per position and round, position p's round r at STRIDE * (4 p + r) + the offsets below.
BET_FROM_V = 0      # nobody has bet: bet from this v ...
BET_POTS = 1        # ... this many pots
BLUFF_BELOW_V = 2   # nobody has bet: bet below this v ...
BLUFF_POTS = 3      # ... this many pots
FACING_UP_TO = 4    # 4 and 5: the largest bet (in pots) that facing rules 0 and 1 answer (inf: all)
FACING_RULES = 6    # facing rule k's numbers at FACING_RULES + FACING_RULE_SIZE k + the offsets:
FACING_RULE_SIZE = 4
CALL_FROM_V = 0     # call from this v (fold below)
RAISE_FROM_V = 1    # raise from this v ...
RAISE_BELOW_V = 2   # ... or below this one (a bluff raise) ...
RAISE_POTS = 3      # ... this many pots
# Offsets 18 and 19 are spare (0).


@helper
def start_hand(rules, hand):
    """The state after the blinds (rules: `encode_rules`)."""
    hand[ROUND] = 0
    hand[SPENT] = rules[5]
    hand[SPENT + 1] = rules[6]
    max_spent = max(rules[5], rules[6])
    hand[MAX_SPENT] = max_spent
    if rules[0] == 1:
        hand[MIN_RAISE_TO] = 2 * max_spent if max_spent > 0 else 1
    else:
        hand[MIN_RAISE_TO] = 0
    hand[FOLDED] = -1
    hand[ACTIONS] = 0
    hand[RAISES] = 0
    hand[LAST_ACTOR] = -1
    hand[ENDED] = 0
    hand[ALLIN_ROUND] = -1
    hand[START_LEVEL] = max_spent
    hand[START_POT] = rules[5] + rules[6]
    hand[RAISED] = 0
    hand[RAISED + 1] = 0
    hand[PLAN_ROUND] = -1
    hand[PLAN_ROUND + 1] = -1


@helper
def player_to_act(rules, hand):
    """The server's currentPlayer: after the last actor (or before the round's first player),
    the first position that has neither folded nor gone all-in."""
    if hand[ACTIONS] > 0:
        start = hand[LAST_ACTOR]
    else:
        start = rules[7 + hand[ROUND]] + 1  # first_player[round] + players - 1, mod 2
    for step in range(1, 3):
        position = (start + step) % 2
        if position != hand[FOLDED] and hand[SPENT + position] < rules[3 + position]:
            return position
    return -1


@helper
def raise_range(rules, hand, player):
    """(lowest, highest) legal raise-to of `player`, or (-1, -1) when no raise is legal."""
    round_ = hand[ROUND]
    stack = rules[3 + player]
    acting = (hand[SPENT] < rules[3]) + (hand[SPENT + 1] < rules[4])
    if hand[RAISES] >= rules[15 + round_] or hand[ACTIONS] + 2 > MAX_ACTIONS or acting < 2:
        return -1, -1
    max_spent = hand[MAX_SPENT]
    if rules[0] == 1:
        if hand[MIN_RAISE_TO] > stack:
            if max_spent < stack:
                return stack, stack
            return -1, -1
        return hand[MIN_RAISE_TO], stack
    total = min(max_spent + rules[11 + round_], stack)
    if total > max_spent:
        return total, total
    return -1, -1


@helper
def apply_action(rules, hand, player, code, amount):
    """`player` folds, checks/calls, or raises to `amount`; closes the round (the server's
    numCalled >= numActing) and ends the hand when nothing is left to bet."""
    count = hand[ACTIONS]
    hand[KINDS + count] = code
    hand[ACTORS + count] = player
    hand[AMOUNTS + count] = amount if code == RAISE_CODE else 0
    hand[ACTIONS] = count + 1
    hand[LAST_ACTOR] = player
    if code == FOLD_CODE:
        hand[FOLDED] = player
        hand[ENDED] = 1
        return
    max_spent = hand[MAX_SPENT]
    if code == CALL_CODE:
        hand[SPENT + player] = min(max_spent, rules[3 + player])
    else:
        if rules[0] == 1:
            hand[MIN_RAISE_TO] = max(hand[MIN_RAISE_TO], 2 * amount - max_spent)
        hand[MAX_SPENT] = amount
        hand[SPENT + player] = amount
        hand[RAISES] += 1
        hand[RAISED + player] |= np.int64(1) << hand[ROUND]
    acting = (hand[SPENT] < rules[3]) + (hand[SPENT + 1] < rules[4])
    called = 0
    for index in range(count, -1, -1):
        actor = hand[ACTORS + index]
        called += hand[SPENT + actor] < rules[3 + actor]
        if hand[KINDS + index] == RAISE_CODE:
            break
    if called >= acting:
        round_ = hand[ROUND]
        if acting > 1 and round_ + 1 < rules[1]:
            hand[ROUND] = round_ + 1
            hand[ACTIONS] = 0
            hand[RAISES] = 0
            hand[MIN_RAISE_TO] = hand[MAX_SPENT] + max(rules[2], 1)
            hand[START_LEVEL] = hand[MAX_SPENT]
            hand[START_POT] = hand[SPENT] + hand[SPENT + 1]
        else:
            if round_ + 1 < rules[1]:
                hand[ALLIN_ROUND] = round_
            hand[ROUND] = rules[1] - 1
            hand[ENDED] = 1


@helper
def payoff_of(hand, outcome):
    """Chips won by position 0 (outcome: +1 if its hand is better at showdown, -1, 0)."""
    if hand[FOLDED] == 0:
        return -hand[SPENT]
    if hand[FOLDED] == 1:
        return hand[SPENT + 1]
    return outcome * min(hand[SPENT], hand[SPENT + 1])


@helper
def adjusted_payoff_of(hand, outcome, allin_equity):
    """`payoff_of`, except that a hand whose betting ended before the river with the board still
    to come is scored by position 0's exact equity at that moment: (2 equity - 1) x the stake.
    `allin_equity[r]` is position 0's equity with round r's board (r = 0, 1, 2)."""
    round_ = hand[ALLIN_ROUND]
    if hand[FOLDED] >= 0 or round_ < 0:
        return np.float64(payoff_of(hand, outcome))
    return (2.0 * allin_equity[round_] - 1.0) * min(hand[SPENT], hand[SPENT + 1])


@helper
def _level(params, offset, value, pot_levels, start, pot):
    """U or T: int(p(v)) in chips, or int(start + p(v) pot) with pot levels (`bot.params`)."""
    if pot_levels:
        return np.int64(start + _cubic(params, offset, value) * pot)
    return np.int64(_cubic(params, offset, value))  # truncation toward zero, like int()


@helper
def mixing_probability(params, round_, value):
    """The chance that a profile's plan for v this round is the mixed one (`bot.params`)."""
    base = STRIDE * round_
    if value < params[base + THRESHOLD_X]:
        return params[base + BLUFF]
    if value < params[base + THRESHOLD_Y]:
        return 0.0
    return params[base + SLOW_PLAY]  # modes 3 and 4


@helper
def _defends(params, base, value, to_call, pot):
    """Whether a bet the mode would fold is called on the defence line (`bot.params`)."""
    return value >= params[base + DEFEND_0] + params[base + DEFEND_1] * (to_call / (pot + to_call))


@helper
def automaton_action(params, round_, value, spent, max_spent, pot, start, start_pot, raise_low,
                     raise_high, mixed):
    """(code, raise-to) of the four-mode automaton with a profile's numbers (`STRIDE` a round)
    and win rate `value` (`bot.automaton`: the mode and the levels U, T follow from v and the
    round's start alone; `mixed` is the round's variant: slow play or bluff). spent: the
    player's total; pot: both totals; start, start_pot: the largest total and the pot when the
    round began (a player whose total is above `start` has bet or raised this round: raised
    back, "bet to the end" raises again only from the round's `end_reraise` w)."""
    base = STRIDE * round_
    facing_bet = spent < max_spent
    if value < params[base + THRESHOLD_X]:
        if facing_bet:
            if _defends(params, base, value, max_spent - spent, pot):
                return CALL_CODE, 0
            return FOLD_CODE, 0
        if mixed and raise_low >= 0:  # a bluff
            target = np.int64(start + params[base + BLUFF_SIZE] * start_pot)
            return RAISE_CODE, min(max(target, raise_low), raise_high)
        return CALL_CODE, 0
    if mixed and not facing_bet and value >= params[base + THRESHOLD_Y]:  # slow play: check
        return CALL_CODE, 0
    pot_levels = params[base + LEVELS] != 0.0
    if value < params[base + THRESHOLD_Z] and facing_bet:
        to_call = max_spent - spent
        if params[base + PRICE] != 0.0:  # on price: fold if the equity is below price + margin
            dear = (1.0 + value) / 2.0 < to_call / (pot + to_call) + params[base + PRICE_MARGIN]
        else:
            dear = max_spent > _level(params, base + CALL_0, value, pot_levels, start, start_pot)
        if dear:  # fold, or call on the defence line (never raise: as `bot.automaton`)
            if _defends(params, base, value, to_call, pot):
                return CALL_CODE, 0
            return FOLD_CODE, 0
    if value < params[base + THRESHOLD_Y]:
        return CALL_CODE, 0
    target = _level(params, base + RAISE_0, value, pot_levels, start, start_pot)
    can_raise = raise_low >= 0
    if value < params[base + THRESHOLD_Z]:
        if can_raise and raise_low <= target:
            return RAISE_CODE, min(max(target, raise_low), raise_high)
        return CALL_CODE, 0
    if not can_raise:
        return CALL_CODE, 0
    if facing_bet and spent > start and params[END_RERAISE_AT + round_] != 0.0 \
            and value < params[END_RERAISE_AT + 4 + round_]:
        return CALL_CODE, 0  # raised back: below w, bet to the end calls (`end_reraise`)
    wanted = target if max_spent < target else 2 * max_spent
    return RAISE_CODE, min(max(wanted, raise_low), raise_high)


@helper
def exploiter_action(params, base, value, spent, max_spent, pot, raise_low, raise_high):
    """(code, raise-to) of an exploiter (`bot.exploiters`, whose docstring has the rules) whose
    block for this position and round starts at `params[base]` (`exploiter_vector`)."""
    to_call = max_spent - spent
    can_raise = raise_low >= 0
    if to_call == 0:
        if can_raise and value >= params[base + BET_FROM_V]:
            target = max_spent + np.int64(params[base + BET_POTS] * pot)
            return RAISE_CODE, min(max(target, raise_low), raise_high)
        if can_raise and value < params[base + BLUFF_BELOW_V]:
            target = max_spent + np.int64(params[base + BLUFF_POTS] * pot)
            return RAISE_CODE, min(max(target, raise_low), raise_high)
        return CALL_CODE, 0
    before = pot - to_call
    size = to_call / before if before > 0 else np.inf
    rule = base + FACING_RULES + 2 * FACING_RULE_SIZE
    for k in range(2):
        if size <= params[base + FACING_UP_TO + k]:
            rule = base + FACING_RULES + k * FACING_RULE_SIZE
            break
    if can_raise and (value >= params[rule + RAISE_FROM_V] or value < params[rule + RAISE_BELOW_V]):
        target = max_spent + np.int64(params[rule + RAISE_POTS] * (pot + to_call))
        return RAISE_CODE, min(max(target, raise_low), raise_high)
    return (CALL_CODE if value >= params[rule + CALL_FROM_V] else FOLD_CODE), 0


@helper
def fixed_action(kind, params, value, rules, hand, player, mixed):
    """(code, raise-to) of a strategy that is a function of its cards' v, the betting and (for a
    profile with mixed play) the round's variant `mixed`: every kind but RANDOM. This is also
    what a range model asks of each holding (`training.lbr`)."""
    raise_low, raise_high = raise_range(rules, hand, player)
    max_spent = hand[MAX_SPENT]
    if kind == PROFILE:
        return automaton_action(params, hand[ROUND], value, hand[SPENT + player], max_spent,
                                hand[SPENT] + hand[SPENT + 1], hand[START_LEVEL],
                                hand[START_POT], raise_low, raise_high, mixed)
    if kind == EXPLOITER:
        return exploiter_action(params, STRIDE * (4 * player + hand[ROUND]), value,
                                hand[SPENT + player], max_spent, hand[SPENT] + hand[SPENT + 1],
                                raise_low, raise_high)
    if kind == MIN_RAISE and raise_low >= 0:
        return RAISE_CODE, raise_low
    if kind == ALL_IN and raise_low >= 0:
        return RAISE_CODE, raise_high
    return CALL_CODE, 0


@helper
def random_fold_probability(rules, hand, player):
    """The RANDOM baseline's chance of folding (0 when nothing is owed)."""
    if hand[SPENT + player] >= hand[MAX_SPENT]:
        return 0.0
    raise_low, _ = raise_range(rules, hand, player)
    raise_weight = _RANDOM_MIX[2] if raise_low >= 0 else 0.0
    return _RANDOM_MIX[0] / (_RANDOM_MIX[0] + _RANDOM_MIX[1] + raise_weight)


@helper
def random_action(rules, hand, player, rng_state):
    """(code, raise-to, rng state) of the RANDOM baseline (the ACPC example player's mix)."""
    raise_low, raise_high = raise_range(rules, hand, player)
    fold_weight = _RANDOM_MIX[0] if hand[SPENT + player] < hand[MAX_SPENT] else 0.0
    raise_weight = _RANDOM_MIX[2] if raise_low >= 0 else 0.0
    rng_state, roll = _uniform(rng_state)
    roll *= fold_weight + _RANDOM_MIX[1] + raise_weight
    if roll < fold_weight:
        return FOLD_CODE, 0, rng_state
    if roll < fold_weight + _RANDOM_MIX[1]:
        return CALL_CODE, 0, rng_state
    rng_state, amount = _uniform_int(rng_state, raise_low, raise_high)
    return RAISE_CODE, amount, rng_state


@helper
def is_mixed(kind, params, round_, value, mix_seed, hand_number, player):
    """Whether a profile's plan this round is the mixed variant: its seeded draw
    (`evaluator.rng.mixing_uniform`, as the TCP bot draws it) below the mixing probability."""
    if kind != PROFILE:
        return False
    chance = mixing_probability(params, round_, value)
    return chance > 0.0 and mixing_uniform(mix_seed, hand_number, round_, player) < chance


@helper
def chart_action(params, value, rules, hand, player, mix_seed, hand_number):
    """(code, raise-to) of a profile's preflop chart (`bot.chart`: the round so far followed down
    the chart's tree, the class of the preflop v `value`, a draw from `chart_uniform`), or
    (-1, 0) when the round has left the tree (the profile's preflop rules decide)."""
    base = np.int64(params[CHART_AT])
    count = hand[ACTIONS]
    node = packed_follow(params, base, hand[KINDS:KINDS + count], hand[AMOUNTS:AMOUNTS + count],
                         count)
    if node < 0:
        return -1, 0
    uniform = chart_uniform(mix_seed, hand_number, count, player)
    k = packed_draw(params, base, node, packed_class(params, base, value), uniform)
    raise_low, raise_high = raise_range(rules, hand, player)
    bet = hand[MAX_SPENT]
    return packed_real_action(params, base, node, k, bet, hand[SPENT] + hand[SPENT + 1],
                              bet - hand[SPENT + player], raise_low, raise_high)


@helper
def has_chart(kind, params, round_):
    """Whether a profile plays this round from a preflop chart (the first round only)."""
    return round_ == 0 and kind == PROFILE and params[CHART_AT] > 0.0


@helper
def range_defence_of(kind, params, round_):
    """A profile's range defence a in `round_` (`bot.params`), or -1.0: none (or no profile)."""
    if kind != PROFILE or params[HAS_RANGE_DEFENCE + round_] == 0.0:
        return -1.0
    return params[RANGE_DEFENCE_AT + round_]


@helper
def range_bet_of(kind, params, round_):
    """A profile's range bet (value, size) in `round_` (`bot.params`), or (-1.0, 0.0): none."""
    if kind != PROFILE or params[HAS_RANGE_BET + round_] == 0.0:
        return -1.0, 0.0
    return params[RANGE_BET_AT + 2 * round_], params[RANGE_BET_AT + 2 * round_ + 1]


@helper
def range_bluffs(value, size):
    """The share of the own range that bluffs beside the top `value` in a range bet or raise
    of `size` pots (`bot.params.range_bet_bluffs`): value size / (1 + size)."""
    return value * size / (1.0 + size)


@helper
def range_raise_of(kind, params, round_):
    """A profile's range raise (value, size) in `round_` (`bot.params`), or (-1.0, 0.0): none."""
    if kind != PROFILE or params[HAS_RANGE_RAISE + round_] == 0.0:
        return -1.0, 0.0
    return params[RANGE_RAISE_AT + 2 * round_], params[RANGE_RAISE_AT + 2 * round_ + 1]


@helper
def range_defence_keep_of(params, round_):
    """A profile's range defence keep k in `round_`: the least v that range defence never folds
    (inf when the profile gives none)."""
    if params[HAS_RANGE_KEEP + round_] == 0.0:
        return np.inf
    return params[RANGE_KEEP_AT + round_]


@helper
def range_defence_cap_of(params, round_):
    """A profile's range defence cap in `round_`: the largest share of its range it folds (1.0
    when the profile gives none)."""
    if params[HAS_RANGE_CAP + round_] == 0.0:
        return 1.0
    return params[RANGE_CAP_AT + round_]


@helper
def uses_own_range(kind, params):
    """Whether a strategy is a profile that decides by its own range in some round (range
    defence or range bets: `training.defended` plays it)."""
    for round_ in range(4):
        if range_defence_of(kind, params, round_) >= 0.0 \
                or range_bet_of(kind, params, round_)[0] >= 0.0:
            return True
    return False


@helper
def percentile_decides(kind, params, hand, player):
    """Whether the holding's percentile in the player's own range decides its action now: range
    defence with a bet owed, or a range bet with nothing owed."""
    if hand[SPENT + player] < hand[MAX_SPENT]:
        return range_defence_of(kind, params, hand[ROUND]) >= 0.0
    if range_bet_of(kind, params, hand[ROUND])[0] < 0.0:
        return False
    position = params[RANGE_BET_POSITION_AT + hand[ROUND]]
    return position == 0.0 or position - 1.0 == player


@helper
def range_decision(kind, params, hand, player, code, amount, win_rate, percentile, raise_low,
                   raise_high):
    """(code, raise-to) once the holding's `percentile` in the player's own range has its say on
    the automaton's (code, amount), where `percentile_decides` (`bot.automaton.choose_action`):
    facing a bet, a raise stands and anything else calls from min(c, a to_call / pot) up (c the
    cap, 1 without one), or when its v `win_rate` is at least the keep k, and folds below, for
    bets of at least `range_defence_from` pots (to_call >= r (pot - to_call); the modes answer
    smaller ones), except that with a range raise facing the round's first bet the top `value`
    of the range and its value size / (1 + size) just below the folding share raise to the
    largest total + size (pot + to_call), where a raise is legal (`bot.automaton.range_raises`);
    with nothing owed, the top `value` of the range and its bottom value size / (1 + size) bet to
    the largest total + size pot, the rest checks. A NaN percentile (a range of no mass) leaves
    the action as it was."""
    if np.isnan(percentile):
        return code, amount
    max_spent = hand[MAX_SPENT]
    pot = hand[SPENT] + hand[SPENT + 1]
    if hand[SPENT + player] < max_spent:
        if code == RAISE_CODE:
            return code, amount
        to_call = max_spent - hand[SPENT + player]
        if to_call < params[RANGE_FROM_AT + hand[ROUND]] * (pot - to_call):
            return code, amount  # a bet below range_defence_from: the modes answer it
        defence = range_defence_of(kind, params, hand[ROUND])
        share = min(range_defence_cap_of(params, hand[ROUND]),
                    defence * to_call / pot)
        value, size = range_raise_of(kind, params, hand[ROUND])
        if value >= 0.0 and hand[RAISES] == 1 and raise_low >= 0 \
                and (percentile >= 1.0 - value
                     or share - range_bluffs(value, size) <= percentile < share):
            target = max_spent + np.int64(size * (pot + to_call))
            return RAISE_CODE, min(max(target, raise_low), raise_high)
        if percentile >= share or win_rate >= range_defence_keep_of(params, hand[ROUND]):
            return CALL_CODE, 0
        return FOLD_CODE, 0
    value, size = range_bet_of(kind, params, hand[ROUND])
    if raise_low >= 0 and (percentile >= 1.0 - value
                           or percentile < range_bluffs(value, size)):
        target = max_spent + np.int64(size * pot)
        return RAISE_CODE, min(max(target, raise_low), raise_high)
    return CALL_CODE, 0


@helper
def narrow_fractions(params):
    """float64[4]: a profile's `narrow` per round (the `keep` of `evaluator.narrowing`)."""
    keep = np.empty(4, dtype=np.float64)
    for round_ in range(4):
        keep[round_] = params[STRIDE * round_ + NARROW]
    return keep


@helper
def is_range_aware(kind, params):
    """Whether a strategy is a profile that narrows the opponent's range in some round."""
    if kind != PROFILE:
        return False
    for round_ in range(4):
        if params[STRIDE * round_ + NARROW] < 1.0:
            return True
    return False


#: A range-aware profile's plans, cached per deal across calls: float64[deals, 2 (position),
#: 4 (round), 16 (the narrowing rounds' bitmask)], NaN where not computed yet. Valid for one
#: `narrow` setting (and deal set); `range_cache` makes one.
RANGE_CACHE_SHAPE = (2, 4, 16)


def range_cache(deals: int) -> np.ndarray:
    """An empty cache of range-aware v for `deals` deals (see `play_deals`)."""
    return np.full((deals, *RANGE_CACHE_SHAPE), np.nan)


@helper
def ranged_value(value, params, raised, hole, board, round_, tables, preflop_v, cache):
    """A range-aware profile's v for its plan this round: against the opponent's range narrowed
    by the rounds that narrow (`evaluator.narrowing.narrowing_rounds` of the opponent's raises
    `raised`), or the plain `value` if none or if that range is empty. `cache` (float64[4, 16],
    or empty) holds this deal and position's results by round and bitmask."""
    keep = narrow_fractions(params)
    mask = narrowing_rounds(raised, keep, round_)
    if mask == 0:
        return value
    if cache.shape[0] > 0 and not np.isnan(cache[round_, mask]):
        return cache[round_, mask]
    ranged = range_aware_v(tables, hole, board[:2 + round_], preflop_v, mask, keep)
    result = value if np.isnan(ranged) else ranged
    if cache.shape[0] > 0:
        cache[round_, mask] = result
    return result


@helper
def _play(rules, kinds, params, v, rng_state, mix_seed, hand_number, trace, hand):
    """Play one hand into `hand` (its final state); returns the rng state. `mix_seed` and
    `hand_number` seed the profiles' mixed play. No range-aware profile (`_play_ranged`).

    (The deterministic kinds are called without the generator: passing it through one helper
    for every kind made the whole loop 40% slower; the range-aware loop is a separate helper
    for the same reason.)"""
    start_hand(rules, hand)
    traced = 0
    while hand[ENDED] == 0:
        player = player_to_act(rules, hand)
        round_ = hand[ROUND]
        kind = kinds[player]
        if kind == RANDOM:
            code, amount, rng_state = random_action(rules, hand, player, rng_state)
        else:
            value = v[player, round_]
            code, amount = -1, 0
            if has_chart(kind, params[player], round_):
                code, amount = chart_action(params[player], value, rules, hand, player, mix_seed,
                                            hand_number)
            if code < 0:
                mixed = is_mixed(kind, params[player], round_, value, mix_seed, hand_number,
                                 player)
                code, amount = fixed_action(kind, params[player], value, rules, hand, player,
                                            mixed)
        if traced < trace.shape[0]:  # (not `record_and_apply`: that costs the loop 30%)
            trace[traced, 0] = round_
            trace[traced, 1] = code
            trace[traced, 2] = amount
            traced += 1
        apply_action(rules, hand, player, code, amount)
    return rng_state


@helper
def _play_ranged(rules, kinds, params, v, rng_state, mix_seed, hand_number, trace, hand, ranged,
                 holes, board, tables, preflop_v, plan_v, caches):
    """`_play` when a position plays a range-aware profile (`ranged[p]`), which needs the deal's
    `holes` (uint8[2, 2]) and `board`, the hand tables and `preflop_v` (`evaluator.narrowing`);
    `plan_v` (float64[2]) keeps each one's v for the round; `caches[p]` (float64[4, 16] or empty)
    caches position p's range-aware v for this deal (`ranged_value`)."""
    start_hand(rules, hand)
    traced = 0
    while hand[ENDED] == 0:
        player = player_to_act(rules, hand)
        round_ = hand[ROUND]
        kind = kinds[player]
        if kind == RANDOM:
            code, amount, rng_state = random_action(rules, hand, player, rng_state)
        else:
            value = v[player, round_]
            code, amount = -1, 0
            if has_chart(kind, params[player], round_):
                code, amount = chart_action(params[player], value, rules, hand, player, mix_seed,
                                            hand_number)
            if code < 0:
                if ranged[player]:
                    if hand[PLAN_ROUND + player] != round_:  # the round's first decision: plan
                        hand[PLAN_ROUND + player] = round_
                        plan_v[player] = ranged_value(value, params[player],
                                                      hand[RAISED + 1 - player], holes[player],
                                                      board, round_, tables, preflop_v,
                                                      caches[player])
                    value = plan_v[player]
                mixed = is_mixed(kind, params[player], round_, value, mix_seed, hand_number,
                                 player)
                code, amount = fixed_action(kind, params[player], value, rules, hand, player,
                                            mixed)
        if traced < trace.shape[0]:  # (not `record_and_apply`: that costs the loop 30%)
            trace[traced, 0] = round_
            trace[traced, 1] = code
            trace[traced, 2] = amount
            traced += 1
        apply_action(rules, hand, player, code, amount)
    return rng_state


@helper
def record_and_apply(rules, hand, player, code, amount, trace, traced):
    """`apply_action`, after writing (round, code, raise-to) to row `traced` of `trace` if it
    has room; returns the next row."""
    if traced < trace.shape[0]:
        trace[traced, 0] = hand[ROUND]
        trace[traced, 1] = code
        trace[traced, 2] = amount
    apply_action(rules, hand, player, code, amount)
    return traced + 1


class DealArrays(NamedTuple):
    """The arrays of a deal set (`training.deals.DealSet`) as the kernels read them, bundled."""

    v: np.ndarray             # float64[n, 2, 4]: the win rate of each position's cards by round
    outcomes: np.ndarray      # int8[n]: +1 if position 0 wins the showdown, -1 if it loses, 0 tie
    allin_equity: np.ndarray  # float64[n, 3]: position 0's exact equity with round r's board
    holes: np.ndarray         # uint8[n, 2, 2]: the hole cards (empty [0, 2, 2] unless ranged)
    boards: np.ndarray        # uint8[n, 5]: the boards (empty [0, 5] unless ranged)


def _range_context(kinds_and_params, holes, boards, preflop_v):
    """(holes, boards, tables, preflop_v) for the kernels: the deal set's cards when a strategy is
    a range-aware profile (which needs them, and the hand tables), empty arrays otherwise."""
    from gambler.evaluator.tables import load_tables

    needed = any(is_range_aware(kind, np.asarray(params)) for kind, params in kinds_and_params)
    if needed and (holes is None or boards is None):
        raise EngineError("a range-aware profile (narrow < 1) needs the deals' cards: pass "
                          "holes and boards")
    if holes is None or boards is None:
        holes = np.zeros((0, 2, 2), dtype=np.uint8)
        boards = np.zeros((0, 5), dtype=np.uint8)
    if preflop_v is None:
        if needed:
            from gambler.evaluator.narrowing import holding_preflop_v
            preflop_v = holding_preflop_v()
        else:
            preflop_v = np.zeros(0)
    return holes, boards, load_tables(), preflop_v


def play_hand(rules, kinds, params, v, outcome, rng_state, trace, mix_seed=0, hand_number=0,
              holes=None, board=None, preflop_v=None, holding_v=None):
    """Play one hand; returns (payoff to position 0, rng state).

    rules: int64[19] from `encode_rules`; kinds[p], params[p] the strategy at position p;
    v[p, r] the win rate of position p's cards in round r; outcome: +1 if position 0 has the
    better hand at showdown, -1 if worse, 0 for a tie. `trace` (int64[n, 3] or empty) receives
    (round, action code, raise-to) per action. Mixed play draws from (mix_seed, hand_number).
    A range-aware profile also needs the deal's cards: holes uint8[2, 2], board uint8[5]; a
    profile with range defence those and `holding_v` (float64[3, 1326], every holding's v on
    the board's flop, turn and river).
    """
    params = stack_vectors(params)
    for kind, numbers in zip(kinds, params):
        check_chart(kind, numbers, rules)
    if _any_defended(zip(kinds, params)):
        if holes is None or board is None or holding_v is None:
            raise EngineError("a profile with range defence needs the deal's cards and every "
                              "holding's v on its board: pass holes, board and holding_v")
        from gambler.training.defended import defended_hand_kernel, holdings_tables
        return defended_hand_kernel(rules, np.asarray(kinds, dtype=np.int64), params, v, outcome,
                                    rng_state, trace, mix_seed, hand_number,
                                    np.asarray(holes, dtype=np.uint8),
                                    np.asarray(board, dtype=np.uint8), holding_v,
                                    *holdings_tables())
    holes_, boards_, tables, preflop_v = _range_context(
        zip(kinds, params), None if holes is None else np.asarray(holes)[None],
        None if board is None else np.asarray(board)[None], preflop_v)
    if holes_.shape[0] == 0:
        holes_, boards_ = np.zeros((1, 2, 2), dtype=np.uint8), np.zeros((1, 5), dtype=np.uint8)
    return _hand_kernel(rules, kinds, params, v, outcome, rng_state, trace, mix_seed,
                        hand_number, holes_[0], boards_[0], tables, preflop_v)


@njit
def _hand_kernel(rules, kinds, params, v, outcome, rng_state, trace, mix_seed, hand_number,
                 holes, board, tables, preflop_v):
    ranged = np.zeros(2, dtype=np.bool_)
    for position in range(2):
        ranged[position] = is_range_aware(kinds[position], params[position])
    hand = np.empty(HAND_STATE_SIZE, dtype=np.int64)
    no_cache = np.empty((0, 16))
    rng_state = _play_ranged(rules, kinds, params, v, rng_state, mix_seed, hand_number, trace,
                             hand, ranged, holes, board, tables, preflop_v, np.zeros(2),
                             (no_cache, no_cache))
    return payoff_of(hand, outcome), rng_state


@helper
def _seated(params):
    """float64[2, 2, k]: the two strategies' numbers by position, A first (order 0), then B
    first (order 1). Made once per call of a kernel: a chart makes a vector long."""
    numbers = np.empty((2, 2, params.shape[1]), dtype=np.float64)
    numbers[0, 0], numbers[0, 1], numbers[1, 0], numbers[1, 1] = (params[0], params[1],
                                                                  params[1], params[0])
    return numbers


@helper
def _play_pairs(rules, kinds, params, numbers, deals, seed, first_deal, results, adjusted, start,
                stop, tables, preflop_v, caches):
    """Deals start .. stop - 1 of `deals` (`DealArrays`), each played twice: A's chips at
    position 0, then at position 1, raw in `results` and all-in adjusted in `adjusted`.
    kinds[s], params[s]: strategy s (A, then B), `numbers` as `_seated` gives them; `caches[s]`
    its cache of range-aware v (`range_cache`, or empty: none)."""
    kind_a, kind_b = kinds[0], kinds[1]
    seats = np.empty((2, 2), dtype=np.int64)       # kinds by position: A first, then B first
    seats[0, 0], seats[0, 1], seats[1, 0], seats[1, 1] = kind_a, kind_b, kind_b, kind_a
    ranged = np.zeros((2, 2), dtype=np.bool_)
    ranged[0, 0] = ranged[1, 1] = is_range_aware(kind_a, params[0])
    ranged[0, 1] = ranged[1, 0] = is_range_aware(kind_b, params[1])
    any_ranged = ranged[0, 0] or ranged[0, 1]
    no_cache = np.empty((0, 16))
    plan_v = np.zeros(2)
    no_trace = np.empty((0, 3), dtype=np.int64)
    hand = np.empty(HAND_STATE_SIZE, dtype=np.int64)
    v, outcomes, allin_equity = deals.v, deals.outcomes, deals.allin_equity
    for i in range(start, stop):
        deal = first_deal + i
        for order in range(2):
            if any_ranged:
                # order 0: A at position 0, B at 1; order 1: B at 0, A at 1
                first, second = caches[order], caches[1 - order]
                cache_0 = first[i, 0] if first.shape[0] > 0 else no_cache
                cache_1 = second[i, 1] if second.shape[0] > 0 else no_cache
                _play_ranged(rules, seats[order], numbers[order], v[i],
                             stream_seed(seed, 2 * deal + order), seed, 2 * deal + order,
                             no_trace, hand, ranged[order], deals.holes[i], deals.boards[i],
                             tables, preflop_v, plan_v, (cache_0, cache_1))
            else:
                _play(rules, seats[order], numbers[order], v[i],
                      stream_seed(seed, 2 * deal + order), seed, 2 * deal + order, no_trace,
                      hand)
            sign = 1 - 2 * order  # A's chips are position 0's in the first hand, 1's in the second
            results[i, order] = sign * payoff_of(hand, outcomes[i])
            adjusted[i, order] = sign * adjusted_payoff_of(hand, outcomes[i], allin_equity[i])


@njit
def _deals_kernel(rules, kinds, params, deals, seed, first_deal, results, adjusted, tables,
                  preflop_v, caches):
    _play_pairs(rules, kinds, params, _seated(params), deals, seed, first_deal, results, adjusted,
                0, deals.v.shape[0], tables, preflop_v, caches)


@njit(parallel=True)
def _deals_kernel_parallel(rules, kinds, params, deals, seed, first_deal, results, adjusted,
                           tables, preflop_v, caches):
    count = deals.v.shape[0]
    blocks = (count + 1023) // 1024
    numbers = _seated(params)
    for block in prange(blocks):
        _play_pairs(rules, kinds, params, numbers, deals, seed, first_deal, results, adjusted,
                    1024 * block, min(count, 1024 * (block + 1)), tables, preflop_v, caches)


@njit(parallel=True)
def _population_kernel(rules, kinds, population, opponent, deals, seed, first_deal, results,
                       adjusted, tables, preflop_v, caches):
    for member in prange(population.shape[0]):
        params = np.empty((2, population.shape[1]), dtype=np.float64)
        params[0] = population[member]
        params[1] = opponent
        _play_pairs(rules, kinds, params, _seated(params), deals, seed, first_deal,
                    results[member], adjusted[member], 0, deals.v.shape[0], tables, preflop_v,
                    caches)


def play_population(rules, kind, population, kind_b, params_b, v, outcomes, allin_equity, seed,
                    first_deal, results, adjusted, holes=None, boards=None, cache_b=None,
                    holding_v=None):
    """`play_deals` for many strategies A of one `kind` (`population[k]`: the k-th one's
    numbers) against one B, over all cores, one member per thread at a time:
    `results[k, i]` and `adjusted[k, i]` are member k's chips on deal `first_deal + i`, as
    `play_deals` gives them (identical results). `gambler-exploit` scores its candidates so."""
    population = np.ascontiguousarray(population, dtype=np.float64)
    if _any_defended(((kind, population[0]), (kind_b, params_b))):
        from gambler.training.defended import defended_population_kernel, holdings_tables
        rules, kinds, params, deals = _defended_arguments(
            rules, kind, population[0], kind_b, params_b, v, outcomes, allin_equity, holes,
            boards, holding_v)
        defended_population_kernel(rules, kinds, _padded(population, params.shape[1]),
                                   params[1], deals, holding_v, seed, first_deal, results,
                                   adjusted, *holdings_tables())
        return
    arguments = _kernel_arguments(rules, kind, population[0], kind_b, params_b, v, outcomes,
                                  allin_equity, seed, first_deal, results[0], adjusted[0], holes,
                                  boards, None, None, cache_b)
    rules, kinds, params, deals, seed, first_deal, _, _, tables, preflop_v, caches = arguments
    population = _padded(population, params.shape[1])
    _population_kernel(rules, kinds, population, params[1], deals, seed, first_deal, results,
                       adjusted, tables, preflop_v, caches)


def play_deals(rules, kind_a, params_a, kind_b, params_b, v, outcomes, allin_equity, seed,
               first_deal, results, adjusted, holes=None, boards=None, preflop_v=None,
               cache_a=None, cache_b=None, holding_v=None):
    """`results[i] = (A's chips at position 0, at position 1)` for deal `first_deal + i`, and
    the same all-in adjusted in `adjusted[i]` (float64).

    v: float64[n, 2, 4]; outcomes: int8[n]; allin_equity: float64[n, 3], position 0's exact
    equity with the board of rounds 0, 1, 2. Deal numbers (not positions in the arrays) seed the
    random baseline, so any split of a deal set gives the same results. A range-aware profile
    also needs the deals' cards (a deal set's `holes` uint8[n, 2, 2] and `boards` uint8[n, 5]);
    `cache_a`, `cache_b` (`range_cache(n)`, kept between calls on the same deals) save its
    range-aware v for the next call: valid for one `narrow` setting, the results are the same.
    A profile with range defence needs the cards too, and `holding_v` (float64[n, 3, 1326]:
    `training.defended.deal_set_holding_rates`): its hands are `training.defended`'s.
    """
    if _defended_deals(rules, kind_a, params_a, kind_b, params_b, v, outcomes, allin_equity,
                       seed, first_deal, results, adjusted, holes, boards, holding_v):
        return
    _deals_kernel(*_kernel_arguments(rules, kind_a, params_a, kind_b, params_b, v, outcomes,
                                     allin_equity, seed, first_deal, results, adjusted, holes,
                                     boards, preflop_v, cache_a, cache_b))


def play_deals_parallel(rules, kind_a, params_a, kind_b, params_b, v, outcomes, allin_equity,
                        seed, first_deal, results, adjusted, holes=None, boards=None,
                        preflop_v=None, cache_a=None, cache_b=None, holding_v=None):
    """`play_deals` over all cores (numba threads, blocks of 1,024 deals); identical results."""
    if _defended_deals(rules, kind_a, params_a, kind_b, params_b, v, outcomes, allin_equity,
                       seed, first_deal, results, adjusted, holes, boards, holding_v):
        return
    _deals_kernel_parallel(*_kernel_arguments(rules, kind_a, params_a, kind_b, params_b, v,
                                              outcomes, allin_equity, seed, first_deal, results,
                                              adjusted, holes, boards, preflop_v, cache_a,
                                              cache_b))


def _any_defended(kinds_and_params) -> bool:
    """Whether a strategy is a profile with range defence (`training.defended` plays it)."""
    return any(uses_own_range(kind, np.asarray(params)) for kind, params in kinds_and_params)


def _defended_arguments(rules, kind_a, params_a, kind_b, params_b, v, outcomes, allin_equity,
                        holes, boards, holding_v):
    """(rules, kinds, params, deals) for `training.defended`'s kernels, once the deals' cards
    and holdings' v are there (else an `EngineError` that says what to pass)."""
    if holes is None or boards is None or holding_v is None:
        raise EngineError("a profile with range defence needs the deals' cards and every "
                          "holding's v on their boards: pass holes, boards and holding_v "
                          "(training.defended.deal_set_holding_rates)")
    params_a, params_b = (np.asarray(params_a, dtype=np.float64),
                          np.asarray(params_b, dtype=np.float64))
    for kind, numbers in ((kind_a, params_a), (kind_b, params_b)):
        check_chart(kind, numbers, rules)
    return (rules, np.array((kind_a, kind_b), dtype=np.int64), stack_vectors((params_a, params_b)),
            DealArrays(v, outcomes, allin_equity, holes, boards))


def _defended_deals(rules, kind_a, params_a, kind_b, params_b, v, outcomes, allin_equity, seed,
                    first_deal, results, adjusted, holes, boards, holding_v) -> bool:
    """Play the deals with `training.defended` if a strategy has range defence (True), else
    leave them to the plain kernels (False)."""
    if not _any_defended(((kind_a, params_a), (kind_b, params_b))):
        return False
    from gambler.training.defended import defended_deals_kernel, holdings_tables
    rules, kinds, params, deals = _defended_arguments(rules, kind_a, params_a, kind_b, params_b,
                                                      v, outcomes, allin_equity, holes, boards,
                                                      holding_v)
    defended_deals_kernel(rules, kinds, params, _seated(params), deals, holding_v, seed,
                          first_deal, results, adjusted, *holdings_tables())
    return True


def _kernel_arguments(rules, kind_a, params_a, kind_b, params_b, v, outcomes, allin_equity, seed,
                      first_deal, results, adjusted, holes, boards, preflop_v, cache_a, cache_b):
    """`play_deals`'s arguments bundled as the deal kernels take them: the two strategies as
    (kinds int64[2], params float64[2, k]), the deals as `DealArrays` and the two caches as a
    pair (empty arrays for none). (Not the tables in a bundle too: numba's parallel loops refuse
    a tuple that holds a tuple of arrays.)"""
    holes, boards, tables, preflop_v = _range_context(
        ((kind_a, params_a), (kind_b, params_b)), holes, boards, preflop_v)
    empty = np.empty((0, *RANGE_CACHE_SHAPE))
    caches = (empty if cache_a is None else cache_a), (empty if cache_b is None else cache_b)
    kinds = np.array((kind_a, kind_b), dtype=np.int64)
    params_a, params_b = (np.asarray(params_a, dtype=np.float64),
                          np.asarray(params_b, dtype=np.float64))
    for kind, numbers in ((kind_a, params_a), (kind_b, params_b)):
        check_chart(kind, numbers, rules)
    params = stack_vectors((params_a, params_b))
    deals = DealArrays(v, outcomes, allin_equity, holes, boards)
    return (rules, kinds, params, deals, seed, first_deal, results, adjusted, tables, preflop_v,
            caches)


def _padded(numbers: np.ndarray, length: int) -> np.ndarray:
    """`numbers` (a vector, or rows of them) with zeros after, to `length` numbers a row (a chart
    makes a profile's vector longer than the others)."""
    extra = length - numbers.shape[-1]
    if extra <= 0:
        return numbers
    return np.concatenate((numbers, np.zeros((*numbers.shape[:-1], extra))), axis=-1)


def stack_vectors(vectors) -> np.ndarray:
    """float64[len(vectors), k]: strategies' vectors as rows, the shorter ones padded with zeros
    (a profile with a chart has a longer one)."""
    vectors = [np.asarray(vector, dtype=np.float64) for vector in vectors]
    length = max(vector.shape[-1] for vector in vectors)
    return np.stack([_padded(vector, length) for vector in vectors])


def check_chart(kind: int, numbers: np.ndarray, rules: np.ndarray) -> None:
    """`EngineError` if a profile's preflop chart is not for the game of `rules` (its stacks,
    blinds and first player preflop)."""
    if kind != PROFILE or numbers.shape[-1] <= CHART_AT or numbers[CHART_AT] == 0.0:
        return
    from gambler.bot.chart import ChartError, check_game_numbers

    base = int(numbers[CHART_AT])
    try:
        check_game_numbers(numbers[base:], (int(rules[3]), int(rules[4])),
                           (int(rules[5]), int(rules[6])), int(rules[7]))
    except ChartError as error:
        raise EngineError(str(error)) from None


def encode_rules(game) -> np.ndarray:
    """The rules of a heads-up game as the engine reads them: int64[19] =
    no-limit flag, rounds, big blind, stacks[2], blinds[2], first player[4], raise sizes[4],
    maximum raises[4]."""
    if game.num_players != 2:
        raise EngineError(f"the engine plays heads-up games only, not {game.num_players} players")
    rules = np.zeros(19, dtype=np.int64)
    rules[0] = 1 if game.no_limit else 0
    rules[1] = game.num_rounds
    rules[2] = game.big_blind
    rules[3:5] = game.stacks
    rules[5:7] = game.blinds
    rules[7:7 + game.num_rounds] = game.first_player
    rules[11:11 + game.num_rounds] = game.raise_sizes
    rules[15:15 + game.num_rounds] = game.max_raises
    return rules


STRATEGY_NUMBERS = 8 * STRIDE  # the length of every strategy's vector (an exploiter's 8 blocks)


def profile_vector(profile) -> np.ndarray:
    """A `bot.params.Profile` as the engine reads it: float64[STRATEGY_NUMBERS], round r's numbers
    at STRIDE * r + the offsets named beside `STRIDE`; a profile with a preflop chart has the
    chart packed after them (`bot.chart.encode_chart`, from `params[CHART_AT]`)."""
    vector = np.zeros(STRATEGY_NUMBERS, dtype=np.float64)
    for round_, numbers in enumerate(profile.rounds):
        base = STRIDE * round_
        margin = numbers.price_margin
        vector[base + THRESHOLD_X], vector[base + THRESHOLD_Y], vector[base + THRESHOLD_Z] = \
            numbers.thresholds
        vector[base + CALL_0:base + CALL_3 + 1] = numbers.call
        vector[base + RAISE_0:base + RAISE_3 + 1] = numbers.raise_
        vector[base + LEVELS] = float(numbers.levels == "pot")
        vector[base + PRICE] = float(margin is not None)
        vector[base + PRICE_MARGIN] = 0.0 if margin is None else margin
        vector[base + SLOW_PLAY] = numbers.slow_play
        vector[base + BLUFF] = numbers.bluff
        vector[base + BLUFF_SIZE] = numbers.bluff_size
        vector[base + NARROW] = numbers.narrow
        defend = numbers.defend if numbers.defend is not None else (NO_DEFENCE, 0.0)
        vector[base + DEFEND_0], vector[base + DEFEND_1] = defend
        if numbers.range_defence is not None:
            vector[HAS_RANGE_DEFENCE + round_] = 1.0
            vector[RANGE_DEFENCE_AT + round_] = numbers.range_defence
        if numbers.range_defence_cap is not None:
            vector[HAS_RANGE_CAP + round_] = 1.0
            vector[RANGE_CAP_AT + round_] = numbers.range_defence_cap
        if numbers.range_defence_from is not None:
            vector[RANGE_FROM_AT + round_] = numbers.range_defence_from
        if numbers.range_defence_keep is not None:
            vector[HAS_RANGE_KEEP + round_] = 1.0
            vector[RANGE_KEEP_AT + round_] = numbers.range_defence_keep
        if numbers.range_bet is not None:
            vector[HAS_RANGE_BET + round_] = 1.0
            vector[RANGE_BET_AT + 2 * round_] = numbers.range_bet[0]
            vector[RANGE_BET_AT + 2 * round_ + 1] = numbers.range_bet[1]
        if numbers.range_bet_position is not None:
            vector[RANGE_BET_POSITION_AT + round_] = 1.0 + numbers.range_bet_position
        if numbers.range_raise is not None:
            vector[HAS_RANGE_RAISE + round_] = 1.0
            vector[RANGE_RAISE_AT + 2 * round_] = numbers.range_raise[0]
            vector[RANGE_RAISE_AT + 2 * round_ + 1] = numbers.range_raise[1]
        if numbers.end_reraise is not None:
            vector[END_RERAISE_AT + round_] = 1.0
            vector[END_RERAISE_AT + 4 + round_] = numbers.end_reraise
    chart = profile.preflop_chart
    if chart is not None:
        vector[CHART_AT] = STRATEGY_NUMBERS
        vector = np.concatenate((vector, encode_chart(chart)))
    return vector


def exploiter_vector(exploiter) -> np.ndarray:
    """A `bot.exploiters.Exploiter` as the engine reads it: float64[STRATEGY_NUMBERS], position
    p's round r block at STRIDE * (4 p + r) + the offsets named beside `STRIDE` (BET_FROM_V ...).
    Fewer than three facing rules: the last one fills the rest, answering every larger bet."""
    vector = np.zeros(STRATEGY_NUMBERS, dtype=np.float64)
    for position, blocks in enumerate(exploiter.blocks):
        for round_, block in enumerate(blocks):
            base = STRIDE * (4 * position + round_)
            vector[base + BET_FROM_V] = block.bet_from
            vector[base + BET_POTS] = block.bet_size
            vector[base + BLUFF_BELOW_V] = block.bluff_below
            vector[base + BLUFF_POTS] = block.bluff_size
            rules = list(block.facing) + [block.facing[-1]] * (3 - len(block.facing))
            for k, rule in enumerate(rules):
                if k < 2:
                    vector[base + FACING_UP_TO + k] = rule.up_to if k < len(block.facing) - 1 \
                        else np.inf
                start = base + FACING_RULES + k * FACING_RULE_SIZE
                vector[start + CALL_FROM_V] = rule.call_from
                vector[start + RAISE_FROM_V] = rule.raise_from
                vector[start + RAISE_BELOW_V] = rule.raise_below
                vector[start + RAISE_POTS] = rule.size
    return vector


def encode_strategy(spec) -> tuple[int, np.ndarray]:
    """(kind, `STRATEGY_NUMBERS` parameters) for a baseline name, a shipped exploiter's name or
    an `Exploiter` (`exploiter_vector`), or a `bot.params.Profile` (`profile_vector`)."""
    from gambler.bot.exploiters import Exploiter, load_exploiter, shipped_exploiter_names

    if isinstance(spec, str):
        if spec in shipped_exploiter_names():
            spec = load_exploiter(spec)
        elif spec not in KIND_OF_BASELINE:
            raise EngineError(f"unknown baseline {spec!r}")
        else:
            return KIND_OF_BASELINE[spec], np.zeros(STRATEGY_NUMBERS, dtype=np.float64)
    if isinstance(spec, Exploiter):
        return EXPLOITER, exploiter_vector(spec)
    from gambler.bot.blueprint import Blueprint
    from gambler.bot.portfolio import Portfolio
    from gambler.bot.switch import Switch

    if isinstance(spec, Blueprint):
        raise EngineError(f"{spec.source} is a blueprint (kind: blueprint): the fast engine does "
                          "not play it yet; use gambler-match --engine dealer, or play it with "
                          "gambler HOST PORT")
    from gambler.bot.resolve import Resolve

    if isinstance(spec, Resolve):
        raise EngineError(f"{spec.source} re-solves subgames (kind: resolve): the fast engine "
                          "does not play it; use gambler-match --engine dealer, or play it with "
                          "gambler HOST PORT")
    if isinstance(spec, Switch):
        raise EngineError(f"{spec.name or 'a switch'} switches strategy at hand {spec.at:,}: "
                          "the fast engine plays it against a portfolio only (or use "
                          "--engine dealer)")
    if isinstance(spec, Portfolio):
        raise EngineError(f"{spec.name or 'a portfolio'} is a portfolio: gambler-match, "
                          "gambler-exploit, gambler-lbr, gambler-train's pools, gambler and "
                          "gambler-report take one; here a single strategy is needed (name one "
                          f"of its members: {', '.join(spec.members)})")
    return PROFILE, profile_vector(spec)
