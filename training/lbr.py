"""Local best response (LBR): a lower bound on how much an opponent who knows a strategy can win.

Lisý & Bowling, "Equilibrium approximation quality of current no-limit poker bots" (2017,
arXiv 1612.07547). LBR plays against a fixed strategy whose range it can compute. At each of its
decisions it looks one step ahead, assuming both players check the hand down after it:

1. The bot's *range*: the holdings it can have given the cards LBR sees (its own two and the
   board: card removal) and the bot's actions so far. gambler's automaton and the fixed baselines
   decide from v (the win rate of their cards on the board) and the betting alone, so a holding
   is in the range iff, holding it, the bot would have taken exactly the actions it took (same
   kinds, same amounts): the range is exact, every holding in it equally likely. A profile with
   mixed play has two plans a round for each holding (the mixed one with its known probability:
   LBR knows the strategy, not the dice), so each holding carries a weight: the probability that
   its plans produced the actions seen. The `random` baseline's actions do not depend on its
   cards: its range is every holding (card removal only). A profile with a preflop chart
   (`bot.chart`) plays the first round from it while the round stays in the chart's tree: each
   holding's weight is multiplied by its class's probability of the action seen (the chart
   actions that become it in the real state), and its answer to a raise folds each holding with
   its class's fold probability.
2. wp: LBR's equity (wins + ties / 2) against the range if nobody bets again: exact, over every
   holding in the range and every completion of the board.
3. The value of each action in its set for the round, measured against folding now (pot = both
   totals so far, to_call = what LBR owes):
       fold            0
       check/call      wp pot - (1 - wp) to_call
       raise to R      fp pot + (1 - fp) (wp' (pot + b) - (1 - wp') (to_call + b)),   b = R - bet
   where fp is the share of the range that folds to the raise (each holding's response computed
   by the bot's own rules) and wp' LBR's equity against the rest. (The paper uses wp for both;
   against a deterministic bot the calling range is known exactly, so wp' is the better
   estimate.) The winnings are exact given the assumption: winning takes what the opponent put
   in, and with ties counting half the formula is exact in expectation.
4. LBR takes the best action (ties: call, then fold, then the smaller raise); in a round whose
   set is `C` only, it checks or calls.

Action sets per round, preflop first (`C,C,FCPA,FCPA` is the paper's common setting), letters
in either case: F fold, C check/call, and the raise sizes, smallest first:

    M  minimum raise      the lowest legal raise-to
    Q  quarter pot        bet + (1 (pot + to_call)) // 4
    H  half pot           bet + (1 (pot + to_call)) // 2
    T  three-quarter pot  bet + (3 (pot + to_call)) // 4
    P  pot                bet + (1 (pot + to_call)) // 1
    O  1.5 pots           bet + (3 (pot + to_call)) // 2
    D  2 pots             bet + (2 (pot + to_call)) // 1
    X  3 pots             bet + (3 (pot + to_call)) // 1
    A  all in             the highest legal raise-to (the stack)

(bet: the largest total in so far, pot: both totals, to_call: what LBR owes, in chips. A raise
of num/den pot calls, then raises by num/den of the pot after the call.) Each target is moved
into the legal range [lowest, highest], and a size whose target equals the smaller size's before
it is dropped, so ties go to the smaller raise (step 4). `STANDARD_SUITE` is a set of settings
to run together (`run_lbr_suite`, `gambler-lbr --suite`); its worst case is the measure to
quote. LBR plays both seats of every duplicate deal, so the
measure is its mean over hands, with a 95% interval over deals.

The per-deal work that does not depend on anyone's play (v of every holding on every street,
`evaluator.holdings`) comes from `training.deals.cached_holding_rates`; preflop equities against
each holding from the shipped matchup table (`evaluator.matchups`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import prange

from gambler.evaluator.hand_rank import hand_value
from gambler.evaluator.holdings import HOLDINGS
from gambler.evaluator.matchups import oriented_key
from gambler.evaluator.rng import stream_seed
from gambler.errors import GamblerError
from gambler.jit import helper, njit
from gambler.training.evaluate import Score, score_pairs
from gambler.evaluator.holdings import _index_of
from gambler.evaluator.narrowing import (every_holding_range_v, holding_preflop_v,
                                         narrowed_range, narrowing_rounds)
from gambler.bot.chart import CLASS_COUNT, raise_target
from gambler.bot.own_range import rank_holdings
from gambler.training.engine import (CALL_CODE, ENDED, FOLD_CODE, FOLDED, HAND_STATE_SIZE,
                                     MAX_SPENT, PLAN_ROUND, RAISE_CODE, RAISED, RANDOM, ROUND, SPENT,
                                     DealArrays, adjusted_payoff_of, apply_action, chart_action,
                                     is_mixed, is_range_aware, uses_own_range,
                                     mixing_probability, narrow_fractions, payoff_of,
                                     player_to_act, raise_range, random_action,
                                     random_fold_probability, percentile_decides,
                                     range_defence_of, record_and_apply, start_hand)
from gambler.training.range_rows import (CHANCE, MIXED, PLAIN, WEIGHT, bot_action, chart_node,
                                         chart_shares, close_round, holding_mass, narrow,
                                         narrow_by_chart, own_percentiles, remove_cards,
                                         start_round)

# An action set is an int64 of these bits. The first five keep the values they had before the
# other sizes came, so sets parsed then (and stored in training runs) mean the same now.
FOLD_BIT, CALL_BIT, HALF_POT_BIT, POT_BIT, ALL_IN_BIT = 1, 2, 4, 8, 16
MIN_RAISE_BIT, QUARTER_POT_BIT, THREE_QUARTER_POT_BIT = 32, 64, 128
POT_AND_HALF_BIT, TWO_POTS_BIT, THREE_POTS_BIT = 256, 512, 1024
# Letter -> bit, in the order `format_action_sets` writes them: F, C, then the raises by size.
ACTION_LETTERS = {"F": FOLD_BIT, "C": CALL_BIT, "M": MIN_RAISE_BIT, "Q": QUARTER_POT_BIT,
                  "H": HALF_POT_BIT, "T": THREE_QUARTER_POT_BIT, "P": POT_BIT,
                  "O": POT_AND_HALF_BIT, "D": TWO_POTS_BIT, "X": THREE_POTS_BIT, "A": ALL_IN_BIT}
_LETTER_NAMES = ("F fold, C check/call, M minimum raise, Q quarter pot, H half pot, "
                 "T three-quarter pot, P pot, O 1.5 pots, D 2 pots, X 3 pots, A all in")
# The raise sizes, smallest first: the order `_lbr_decision` weighs them in, so that a tie goes
# to the smaller raise. (bit, num, den): raise to bet + (num (pot + to_call)) // den; M and A
# have no fraction (0, 0): the lowest and the highest legal raise-to (`raise_size_target`).
RAISE_SIZES = ((MIN_RAISE_BIT, 0, 0), (QUARTER_POT_BIT, 1, 4), (HALF_POT_BIT, 1, 2),
               (THREE_QUARTER_POT_BIT, 3, 4), (POT_BIT, 1, 1), (POT_AND_HALF_BIT, 3, 2),
               (TWO_POTS_BIT, 2, 1), (THREE_POTS_BIT, 3, 1), (ALL_IN_BIT, 0, 0))
DEFAULT_ACTIONS = "C,C,FCPA,FCPA"


class ActionSetError(GamblerError, ValueError):
    """An LBR action-set string that cannot be used."""


def parse_action_sets(text: str | np.ndarray, rounds: int = 4) -> np.ndarray:
    """`"C,C,FCPA,FCPA"` -> int64[rounds] of action bits, checked: one set per round, letters
    from FCMQHTPODXA in either case (`ACTION_LETTERS`), each set with C (LBR must be able to
    check). Sets already parsed (the array this returns) pass through unchanged, so a caller
    parses once and hands the result on (`run_lbr(..., actions=bits)`)."""
    if isinstance(text, np.ndarray):
        every_bit = sum(ACTION_LETTERS.values())
        if (text.shape != (rounds,) or text.dtype != np.int64
                or any(value & ~every_bit or not value & CALL_BIT for value in text.tolist())):
            raise ActionSetError(f"action sets {text.tolist()}: not {rounds} parsed sets "
                                 "(parse_action_sets' int64 bits, each with C)")
        return text
    sets = text.upper().split(",")
    if len(sets) != rounds:
        raise ActionSetError(f"action sets {text!r}: expected {rounds} comma-separated sets, "
                             f"one per round, found {len(sets)}")
    bits = np.zeros(rounds, dtype=np.int64)
    for round_, letters in enumerate(sets):
        for letter in letters:
            if letter not in ACTION_LETTERS:
                raise ActionSetError(f"action sets {text!r}: unknown action {letter!r} in set "
                                     f"{round_ + 1} (letters: {_LETTER_NAMES})")
            if bits[round_] & ACTION_LETTERS[letter]:
                raise ActionSetError(f"action sets {text!r}: {letter!r} twice in set "
                                     f"{round_ + 1}")
            bits[round_] |= ACTION_LETTERS[letter]
        if not bits[round_] & CALL_BIT:
            raise ActionSetError(f"action sets {text!r}: set {round_ + 1} ({letters or 'empty'}) "
                                 "needs C: LBR must be able to check or call")
    return bits


def format_action_sets(bits: np.ndarray) -> str:
    """The sets as `--actions` writes them, upper case, letters in FCMQHTPODXA order (F, C,
    then the raises by size): [2, 2, 27, 27] -> "C,C,FCPA,FCPA"."""
    return ",".join("".join(letter for letter, bit in ACTION_LETTERS.items() if value & bit)
                    for value in np.asarray(bits).tolist())


# --- the kernels' bundles -----------------------------------------------------------------------
# (The hand tables, `evaluator.tables.HandTables`, are a bundle of their own and stay a separate
# argument: numba's parallel loop refuses a tuple that holds a tuple of arrays.)

class LbrTables(NamedTuple):
    """The lookup tables LBR reads besides the hand tables (`lbr_tables` loads them)."""

    preflop_v: np.ndarray      # float64[1326]: each holding's v before the flop, by holding index
    holding_cards: np.ndarray  # int64[1326, 2]: each holding's two cards, lower first
    match_keys: np.ndarray     # int64[m]: the preflop matchup table's keys (`evaluator.matchups`)
    match_counts: np.ndarray   # int64[m, 2]: the key's wins and ties, of 1,712,304 boards
    permutations: np.ndarray   # int64[24, 4]: the suit permutations that orient a key
    holding_class: np.ndarray  # int64[1326]: each holding's class of starting hands (a chart's)


def lbr_tables() -> LbrTables:
    """The tables of `LbrTables`, loaded (each is read once a process)."""
    from gambler.evaluator.holdings import HOLDING_CARDS
    from gambler.evaluator.matchups import SUIT_PERMUTATIONS, load_table as load_matchups

    from gambler.evaluator.preflop import class_indices

    match_keys, match_counts = load_matchups()
    return LbrTables(holding_preflop_v(), HOLDING_CARDS.astype(np.int64), match_keys,
                     match_counts, SUIT_PERMUTATIONS, class_indices(HOLDING_CARDS))


def deal_arrays(deals) -> DealArrays:
    """A `training.deals.DealSet`'s arrays as the kernels read them."""
    return DealArrays(deals.v, deals.outcomes, deals.allin_equity, deals.holes, deals.boards)


class LbrWork(NamedTuple):
    """One thread's work arrays for `_lbr_play`, reused hand after hand (`_new_work`)."""

    hand: np.ndarray       # int64[HAND_STATE_SIZE]: the hand in play; its final state after it
    scratch: np.ndarray    # int64[HAND_STATE_SIZE]: the hand after a raise LBR weighs
    range_: np.ndarray     # float64[4, 1326]: the bot's range (rows WEIGHT, CHANCE, PLAIN, MIXED)
    equity: np.ndarray     # float64[1326]: LBR's equity against each holding this round
    cache_v: np.ndarray    # float64[2, 1326]: range-aware v of two plans (`_round_values`)
    cache_key: np.ndarray  # int64[3]: their keys (-1: empty) and the slot to fill next
    shares: np.ndarray     # float64[169]: a preflop chart's probability of an action, by class
    own: np.ndarray        # float64[4, 1326]: with range defence, the bot's own range (rows as
    #                        range_, without LBR's cards: `bot.own_range`)
    percentiles: np.ndarray  # float64[1326]: each holding's percentile in `own` (its masses
    #                          first: `_own_percentiles`)
    keys: np.ndarray       # float64[1326], int64[1326]: the holdings ranked by the round's v
    order: np.ndarray      # (`bot.own_range.rank_holdings`), for round ranked[0] of this hand
    ranked: np.ndarray     # int64[1]: that round (-1: none yet)


@helper
def _new_work():
    """An `LbrWork` (the range zeroed: `_mass` reads every row of a holding it rules out)."""
    return LbrWork(np.empty(HAND_STATE_SIZE, dtype=np.int64),
                   np.empty(HAND_STATE_SIZE, dtype=np.int64),
                   np.zeros((4, HOLDINGS), dtype=np.float64), np.zeros(HOLDINGS, dtype=np.float64),
                   np.empty((2, HOLDINGS), dtype=np.float64), np.empty(3, dtype=np.int64),
                   np.empty(CLASS_COUNT, dtype=np.float64),
                   np.zeros((4, HOLDINGS), dtype=np.float64), np.empty(HOLDINGS, dtype=np.float64),
                   np.empty(HOLDINGS, dtype=np.float64), np.empty(HOLDINGS, dtype=np.int64),
                   np.full(1, -1, dtype=np.int64))


@helper
def _own_percentiles(work, values, round_):
    """work.percentiles: each holding's percentile in the bot's own range `work.own`, ranked by
    `values` (the round's plain v), the ranking kept for the rest of the round."""
    if work.ranked[0] != round_:
        rank_holdings(values, work.keys, work.order)
        work.ranked[0] = round_
    own_percentiles(work.own, work.keys, work.order, work.percentiles)


# --- the range --------------------------------------------------------------------------------

@helper
def _plain_values(preflop_v, holding_v, round_):
    """The bot's v of every holding in `round_` against a random hand."""
    if round_ == 0:
        return preflop_v
    return holding_v[round_ - 1]


@helper
def _round_values(kind, params, round_, raised, preflop_v, holding_v, board, tables, cache_v,
                  cache_key):
    """The bot's v of every holding for its plan in `round_` when LBR raised in the rounds of
    the bitmask `raised`: a range-aware profile's v against LBR's range narrowed by the rounds
    that narrow (`evaluator.narrowing.narrowing_rounds`; NaN entries, whose range is empty, fall
    back to the plain v, as the bot does), or the plain v. Computed at most once per (round,
    narrowing) in a hand: `cache_v` float64[2, 1326], `cache_key` int64[3] (two keys, -1 when
    empty, and the slot to fill next)."""
    plain = _plain_values(preflop_v, holding_v, round_)
    if not is_range_aware(kind, params):
        return plain
    keep = narrow_fractions(params)
    mask = narrowing_rounds(raised, keep, round_)
    if mask == 0:
        return plain
    key = 16 * round_ + mask
    for slot in range(2):
        if cache_key[slot] == key:
            return cache_v[slot]
    slot = cache_key[2]
    cache_key[2] = 1 - slot
    weights = np.empty(HOLDINGS, dtype=np.float64)
    narrowed_range(tables, board[:2 + round_], preflop_v, mask, keep, weights)
    every_holding_range_v(tables, board[:2 + round_], weights, cache_v[slot])
    for index in range(HOLDINGS):
        if np.isnan(cache_v[slot, index]):
            cache_v[slot, index] = plain[index]
    cache_key[slot] = key
    return cache_v[slot]


@helper
def _lbr_view(range_, own, holding_cards, hole):
    """LBR's view of a bot's range from the bot's own: the same rows, less the holdings that
    hold one of LBR's cards."""
    range_[:, :] = own
    remove_cards(range_, holding_cards, hole, 2)


# --- LBR's equity against each holding ----------------------------------------------------------

@helper
def _equities(tables, lbr_tables, hole, board, visible, range_, equity):
    """equity[h] = LBR's exact equity (wins + ties / 2) against holding h for every holding
    still in the range, with `visible` board cards and every completion of the rest."""
    holding_cards = lbr_tables.holding_cards
    alive = np.empty(range_.shape[1], dtype=np.bool_)
    for index in range(alive.shape[0]):
        alive[index] = holding_mass(range_, index) > 0.0
    if visible == 0:
        for index in range(alive.shape[0]):
            if alive[index]:
                a0, a1 = np.int64(hole[0]), np.int64(hole[1])
                b0 = np.int64(holding_cards[index, 0])
                b1 = np.int64(holding_cards[index, 1])
                forward = oriented_key(lbr_tables.permutations, a0, a1, b0, b1)
                backward = oriented_key(lbr_tables.permutations, b0, b1, a0, a1)
                row = np.searchsorted(lbr_tables.match_keys, min(forward, backward))
                wins = lbr_tables.match_counts[row, 0]
                ties = lbr_tables.match_counts[row, 1]
                if backward < forward:
                    wins = 1_712_304 - wins - ties
                equity[index] = (wins + 0.5 * ties) / 1_712_304
        return
    base_key = np.int64(0x3333) << 32
    base_bits = np.int64(0)
    taken = (np.int64(1) << hole[0]) | (np.int64(1) << hole[1])
    for k in range(visible):
        base_key += tables.card_keys[board[k]]
        base_bits |= tables.card_bits[board[k]]
        taken |= np.int64(1) << board[k]
    hole_key = tables.card_keys[hole[0]] + tables.card_keys[hole[1]]
    hole_bits = tables.card_bits[hole[0]] | tables.card_bits[hole[1]]
    score = np.zeros(alive.shape[0], dtype=np.float64)
    seen = np.zeros(alive.shape[0], dtype=np.int64)
    missing = 5 - visible
    first_limit = 52 if missing >= 1 else 1
    for first in range(first_limit):
        if missing >= 1 and (taken >> first) & 1:
            continue
        second_start = first + 1 if missing == 2 else 0
        second_limit = 52 if missing == 2 else 1
        for second in range(second_start, second_limit):
            if missing == 2 and (taken >> second) & 1:
                continue
            key = base_key
            bits = base_bits
            completion = np.int64(0)
            if missing >= 1:
                key += tables.card_keys[first]
                bits |= tables.card_bits[first]
                completion |= np.int64(1) << first
            if missing == 2:
                key += tables.card_keys[second]
                bits |= tables.card_bits[second]
                completion |= np.int64(1) << second
            ours = hand_value(tables, key + hole_key, bits | hole_bits)
            for index in range(alive.shape[0]):
                if not alive[index]:
                    continue
                low = holding_cards[index, 0]
                high = holding_cards[index, 1]
                if (completion >> low) & 1 or (completion >> high) & 1:
                    continue
                theirs = hand_value(tables, key + tables.card_keys[low] + tables.card_keys[high],
                                    bits | tables.card_bits[low] | tables.card_bits[high])
                score[index] += 1.0 if ours > theirs else (0.5 if ours == theirs else 0.0)
                seen[index] += 1
    for index in range(alive.shape[0]):
        if alive[index]:
            equity[index] = score[index] / seen[index]


# --- LBR's decision -----------------------------------------------------------------------------

@helper
def _raise_value(kind, params, values, fresh_plan, rules, lbr, target, work, pot, to_call, wp,
                 holding_class, decides):
    """The one-step value of LBR raising to `target` from `work.hand` (item 3 of the module
    docstring; `work.scratch` receives the hand after the raise). `values`: each holding's v for
    the bot's answer; `fresh_plan`: the answer is a range-aware bot's first decision of the round,
    whose plan (and mixing chance) follows from `values`. A bot answering from its preflop
    chart folds each holding with its class's fold share (`holding_class`); one with range
    range defence in this round (`decides`) answers by each holding's `work.percentiles`."""
    hand, scratch, range_, equity = work.hand, work.scratch, work.range_, work.equity
    bot = 1 - lbr
    scratch[:] = hand
    apply_action(rules, scratch, lbr, RAISE_CODE, target)
    bet = hand[MAX_SPENT]
    extra = target - bet
    node = chart_node(kind, params, scratch)
    if kind == RANDOM:
        fold_share = random_fold_probability(rules, scratch, bot)
        continuing_equity = wp
    else:
        if node >= 0:  # the bot answers from its preflop chart: each class folds with its share
            chart_shares(params, node, rules, scratch, bot, FOLD_CODE, 0, work.shares)
        round_ = scratch[ROUND]
        total = 0.0
        folds = 0.0
        continuing = 0.0
        for index in range(range_.shape[1]):
            mass = holding_mass(range_, index)
            if mass > 0.0:
                folded = 0.0
                if node >= 0:
                    folded = mass * work.shares[holding_class[index]]
                else:
                    value = values[index]
                    chance = range_[CHANCE, index]
                    if fresh_plan:
                        chance = mixing_probability(params, round_, value)
                    for row, mixed, share in ((PLAIN, False, 1.0 - chance),
                                              (MIXED, True, chance)):
                        # (a fresh plan: no action of the round yet, so both are possible)
                        if (fresh_plan or range_[row, index] > 0.0) and share > 0.0:
                            code, _ = bot_action(kind, params, value, rules, scratch, bot,
                                                  mixed, decides, work.percentiles[index])
                            if code == FOLD_CODE:
                                folded += range_[WEIGHT, index] * share
                total += mass
                folds += folded
                continuing += (mass - folded) * equity[index]
        fold_share = folds / total
        continuing_equity = continuing / (total - folds) if total > folds else 0.0
    return raise_payoff(fold_share, continuing_equity, pot, to_call, extra)


@helper
def raise_payoff(fold_share, continuing_equity, pot, to_call, extra):
    """Item 3's value of a raise of `extra` over the bet: the pot when the range folds, else the
    check-down against the calling range at equity `continuing_equity`."""
    return fold_share * pot + (1.0 - fold_share) * (
        continuing_equity * (pot + extra) - (1.0 - continuing_equity) * (to_call + extra))


@helper
def call_or_fold(range_, equity, pot, to_call, actions):
    """(wp, code, value): LBR's equity against the range if nobody bets again, and the better of
    calling and (when `actions` has F and something is owed) folding, with its value; wp < 0
    when the range is empty."""
    total = 0.0
    won = 0.0
    for index in range(range_.shape[1]):
        mass = holding_mass(range_, index)
        if mass > 0.0:
            total += mass
            won += mass * equity[index]
    if total == 0.0:
        return -1.0, CALL_CODE, 0.0
    wp = won / total
    value = wp * pot - (1.0 - wp) * to_call
    if actions & FOLD_BIT and to_call > 0 and value < 0.0:
        return wp, FOLD_CODE, 0.0
    return wp, CALL_CODE, value


@helper
def raise_size_target(size_bit, numerator, denominator, bet, pot, to_call, low, high):
    """The raise-to of one of LBR's sizes (a `RAISE_SIZES` entry), in the legal range [low,
    high] (`raise_range`): M low, A high, else bet + (numerator (pot + to_call)) // denominator
    moved into the range. `bet`: the largest total in; `pot`: both totals; `to_call`: what LBR
    owes (all in chips). Integer arithmetic, so H and P are bet + (pot + to_call) // 2 and
    bet + pot + to_call exactly.

    Facing a raise to 300 in the big blind (bet 300, pot 400, to_call 200; legal 500 to 20,000):
    Q 450 -> 500 (the minimum, as M), H 600, T 750, P 900, O 1,200, D 1,500, X 2,100, A 20,000.
    """
    if size_bit == MIN_RAISE_BIT:
        return low
    if size_bit == ALL_IN_BIT:
        return high
    return min(max(raise_target(bet, pot, to_call, numerator, denominator), low), high)


@helper
def _lbr_decision(kind, params, values, fresh_plan, rules, lbr, actions, work, holding_class,
                  preflop_v, holding_v):
    """LBR's (code, raise-to) in `work.hand`: the action of best one-step value (module
    docstring), against the range `work.range_` with LBR's equities `work.equity`."""
    hand, range_, equity = work.hand, work.range_, work.equity
    bet = hand[MAX_SPENT]
    to_call = bet - hand[SPENT + lbr]
    pot = hand[SPENT] + hand[SPENT + 1]
    wp, best_code, best_value = call_or_fold(range_, equity, pot, to_call, actions)
    if wp < 0.0:  # cannot happen with an exact range model (the tests check); stay legal
        return CALL_CODE, 0
    best_amount = 0
    low, high = raise_range(rules, hand, lbr)
    if low < 0:
        return best_code, best_amount
    decides = range_defence_of(kind, params, hand[ROUND]) >= 0.0
    if decides:  # the bot's answer to any raise: by its percentile in its own range
        _own_percentiles(work, _plain_values(preflop_v, holding_v, hand[ROUND]), hand[ROUND])
    previous = -1
    for size_bit, numerator, denominator in RAISE_SIZES:  # smallest first: ties keep the smaller
        if not actions & size_bit:
            continue
        target = raise_size_target(size_bit, numerator, denominator, bet, pot, to_call, low, high)
        if target == previous:  # moved into the legal range onto the size before it
            continue
        previous = target
        value = _raise_value(kind, params, values, fresh_plan, rules, lbr, target, work, pot,
                             to_call, wp, holding_class, decides)
        if value > best_value:
            best_code = RAISE_CODE
            best_amount = target
            best_value = value
    return best_code, best_amount


# --- whole hands --------------------------------------------------------------------------------

@helper
def _lbr_play(rules, lbr, kind, params, deals, deals_holding_v, i, first_deal, seed, tables,
              lbr_tables, action_sets, trace, ranges, line, work):
    """One hand of LBR at position `lbr` against the strategy (`kind`, `params`) on deal i of
    `deals` (`DealArrays`; `deals_holding_v[i]`: its holdings' v, `evaluator.holdings`), deal
    number `first_deal + i` of `seed`; the final state is left in `work.hand` (`LbrWork`). The
    hand's number, 2 x deal + lbr, and `seed` seed the random baseline's stream and the bot's
    mixed play. `ranges` (int64[k, 3], may be empty) receives, at each of LBR's decisions, the
    bot's range as (holdings, sum of their indices, total weight x 10^6), for the tests. `line`
    (int64[4]) receives LBR's first bet or raise: its round (-1 if none), 1 if it raised a bet
    (0: a bet), 1 if all in, and the bot's answer (an action code, -1 if none). A range-aware
    profile (`evaluator.narrowing`) plans with v against LBR's range narrowed by LBR's raises;
    LBR models that exactly (`_round_values`), for which it needs the bot's cards (to look its
    own v up; LBR's decisions never read them)."""
    bot = 1 - lbr
    bot_v, bot_hole, hole, board = deals.v[i, bot], deals.holes[i, bot], deals.holes[i, lbr], \
        deals.boards[i]
    holding_v = deals_holding_v[i]
    preflop_v, holding_cards = lbr_tables.preflop_v, lbr_tables.holding_cards
    hand, range_, equity, cache_v, cache_key = work.hand, work.range_, work.equity, \
        work.cache_v, work.cache_key
    hand_number = 2 * (first_deal + i) + lbr
    rng_state = stream_seed(seed, hand_number)
    start_hand(rules, hand)
    work.ranked[0] = -1  # another deal: its rounds' v are ranked afresh
    line[:] = -1
    awaiting_answer = False
    cache_key[0] = -1
    cache_key[1] = -1
    cache_key[2] = 0
    ranged = is_range_aware(kind, params)
    bot_index = _index_of(min(bot_hole[0], bot_hole[1]), max(bot_hole[0], bot_hole[1]))
    # The rows the bot's actions narrow: LBR's view of its range, or, for a bot that decides by
    # its own range (range defence, range bets), that range (no LBR cards removed), from which
    # LBR's view is then derived (`_lbr_view`) after each change.
    own = work.own
    defended = uses_own_range(kind, params)
    tracked = own if defended else range_
    tracked[WEIGHT, :] = 1.0
    if not defended:
        remove_cards(range_, holding_cards, hole, 2)
    values = preflop_v
    start_round(tracked, kind, params, values, 0)
    if defended:
        _lbr_view(range_, own, holding_cards, hole)
    dealt_round = 0
    equity_round = -1
    traced = 0
    decisions = 0
    while hand[ENDED] == 0:
        round_ = hand[ROUND]
        if round_ != dealt_round:  # the new board cards leave the bot's possible holdings
            close_round(tracked)
            remove_cards(tracked, holding_cards, board, 2 + round_)
            values = holding_v[round_ - 1]
            start_round(tracked, kind, params, values, round_)
            if defended:
                _lbr_view(range_, own, holding_cards, hole)
            dealt_round = round_
        player = player_to_act(rules, hand)
        if player == bot:
            if kind == RANDOM:
                code, amount, rng_state = random_action(rules, hand, bot, rng_state)
            else:
                value = bot_v[round_]
                if ranged and hand[PLAN_ROUND + bot] != round_:
                    hand[PLAN_ROUND + bot] = round_  # its plan: v against LBR's range
                    planned = _round_values(kind, params, round_, hand[RAISED + lbr], preflop_v,
                                            holding_v, board, tables, cache_v, cache_key)
                    if planned is not values:
                        values = planned
                        start_round(range_, kind, params, values, round_)
                if ranged and round_ > 0:
                    value = values[bot_index]
                node = chart_node(kind, params, hand)
                if node >= 0:  # its preflop chart: each holding weighed by its class's share
                    code, amount = chart_action(params, value, rules, hand, bot, seed,
                                                hand_number)
                    chart_shares(params, node, rules, hand, bot, code, amount, work.shares)
                    narrow_by_chart(tracked, lbr_tables.holding_class, work.shares)
                else:
                    decides = percentile_decides(kind, params, hand, bot)
                    if decides:
                        _own_percentiles(work, values, round_)
                    mixed = is_mixed(kind, params, round_, value, seed, hand_number, bot)
                    code, amount = bot_action(kind, params, value, rules, hand, bot, mixed,
                                              decides, work.percentiles[bot_index])
                    narrow(tracked, kind, params, values, rules, hand, bot, code, amount,
                           decides, work.percentiles)
                if defended:
                    _lbr_view(range_, own, holding_cards, hole)
            if awaiting_answer:
                line[3] = code
                awaiting_answer = False
        elif action_sets[round_] == CALL_BIT:
            code, amount = CALL_CODE, 0
        else:
            if decisions < ranges.shape[0]:
                ranges[decisions, :] = 0
                total = 0.0
                for index in range(range_.shape[1]):
                    mass = holding_mass(range_, index)
                    if mass > 0.0:
                        ranges[decisions, 0] += 1
                        ranges[decisions, 1] += index
                        total += mass
                ranges[decisions, 2] = np.int64(round(total * 1e6))
            decisions += 1
            if equity_round != round_:
                visible = 0 if round_ == 0 else 2 + round_
                _equities(tables, lbr_tables, hole, board, visible, range_, equity)
                equity_round = round_
            answer = values
            fresh_plan = False
            if ranged and hand[PLAN_ROUND + bot] != round_:
                # The bot answers a raise with its first decision of the round: narrowed by it.
                answer = _round_values(kind, params, round_,
                                       hand[RAISED + lbr] | (np.int64(1) << round_), preflop_v,
                                       holding_v, board, tables, cache_v, cache_key)
                fresh_plan = True
            code, amount = _lbr_decision(kind, params, answer, fresh_plan, rules, lbr,
                                         action_sets[round_], work, lbr_tables.holding_class,
                                         preflop_v, holding_v)
            if code == RAISE_CODE and line[0] < 0:
                line[0] = round_
                line[1] = 1 if hand[SPENT + lbr] < hand[MAX_SPENT] else 0
                line[2] = 1 if amount == rules[3 + lbr] else 0
                awaiting_answer = True
        traced = record_and_apply(rules, hand, player, code, amount, trace, traced)


@njit
def lbr_hand(rules, lbr, kind, params, deals, holding_v, i, first_deal, seed, tables, lbr_tables,
             action_sets, trace, ranges, line):
    """One LBR hand (`_lbr_play`: LBR at position `lbr` on deal i of `deals`): (position 0's
    chips, the same all-in adjusted, the position that folded or -1), with (round, code,
    raise-to) per action in `trace` (rows after the last untouched), the bot's range at each of
    LBR's decisions in `ranges` and LBR's first bet or raise in `line` (int64[4])."""
    work = _new_work()
    _lbr_play(rules, lbr, kind, params, deals, holding_v, i, first_deal, seed, tables, lbr_tables,
              action_sets, trace, ranges, line, work)
    return (payoff_of(work.hand, deals.outcomes[i]),
            adjusted_payoff_of(work.hand, deals.outcomes[i], deals.allin_equity[i]),
            work.hand[FOLDED])


@njit(parallel=True)
def lbr_deals(rules, kind, params, deals, holding_v, seed, first_deal, tables, lbr_tables,
              action_sets, results, adjusted, lines):
    """LBR against the strategy on every deal of `deals` (`DealArrays`), in both seats:
    `results[i] = (LBR's chips at position 0, at position 1)` for deal `first_deal + i`, all-in
    adjusted in `adjusted`, and LBR's first bet or raise in each hand in `lines[i, seat]`
    (`_lbr_play`). holding_v[i] is float64[3, 1326] (`evaluator.holdings`)."""
    for i in prange(deals.v.shape[0]):
        work = _new_work()
        no_trace = np.empty((0, 3), dtype=np.int64)
        for lbr in range(2):
            _lbr_play(rules, lbr, kind, params, deals, holding_v, i, first_deal, seed, tables,
                      lbr_tables, action_sets, no_trace, no_trace, lines[i, lbr], work)
            sign = 1 if lbr == 0 else -1
            results[i, lbr] = sign * payoff_of(work.hand, deals.outcomes[i])
            adjusted[i, lbr] = sign * adjusted_payoff_of(work.hand, deals.outcomes[i],
                                                         deals.allin_equity[i])


# --- the runner ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class LbrResult:
    """LBR's winnings against a strategy over duplicate deals (both seats of each)."""

    chips: np.ndarray      # int64[n, 2]: LBR's chips at position 0 and at position 1, per deal
    adjusted: np.ndarray   # float64[n, 2]: the same, all-in adjusted
    big_blind: int
    lines: np.ndarray      # int64[n, 2, 4]: LBR's first bet or raise per hand (`_lbr_play`)

    @property
    def score(self) -> Score:
        return score_pairs(self.chips.sum(axis=1), self.big_blind)

    @property
    def adjusted_score(self) -> Score:
        return score_pairs(self.adjusted.sum(axis=1), self.big_blind)

    def position_score(self, position: int) -> Score:
        """LBR's result in one seat only (position 0: the big blind in reverse-blinds games)."""
        return score_pairs(2 * self.chips[:, position], self.big_blind)

    def breakdown(self) -> list[dict]:
        """Where LBR's winnings come from: hands grouped by LBR's first bet or raise (its round,
        bet or raise, all in or not) and the bot's answer, most winnings first. Each row: the
        `line` in words, its share of the hands, LBR's mbb/hand within them and its share of
        LBR's total winnings."""
        lines = self.lines.reshape(-1, 4)
        chips = self.chips.reshape(-1)
        total = chips.sum()
        groups: dict[tuple, list[int]] = {}
        for index, key in enumerate(map(tuple, lines.tolist())):
            groups.setdefault(key, []).append(index)
        rows = []
        for (round_, raised, all_in, answer), members in groups.items():
            won = chips[members].sum()
            rows.append({"line": _describe_line(round_, raised, all_in, answer),
                         "hands": len(members) / chips.shape[0],
                         "mbb_per_hand": 1000.0 * won / len(members) / self.big_blind,
                         "share": float(won / total) if total else 0.0})
        rows.sort(key=lambda row: -row["share"])
        return rows


class LbrDeals:
    """The duplicate deals LBR plays (`hands` rounded up to whole deals of `seed`) with the win
    rates of every holding on them, read chunk by chunk from the caches of `training.deals`.
    `keep=True` holds the holdings in memory (about 32 KB a deal) for repeated use, as
    training does; otherwise each chunk is read when played and dropped."""

    def __init__(self, seed: int, hands: int, keep: bool = False):
        from gambler.training.deals import cached_deal_set

        self.seed = seed
        self.count = (hands + 1) // 2
        self.deals, _ = cached_deal_set(seed, 0, self.count)
        self.keep = keep
        self._holdings: dict[int, np.ndarray] = {}

    def chunks(self):
        """(first deal, the deals, their holdings' v) per cached chunk."""
        from gambler.training.deals import HOLDINGS_CHUNK, cached_holding_rates

        for start in range(0, self.count, HOLDINGS_CHUNK):
            stop = min(self.count, start + HOLDINGS_CHUNK)
            holding_v = self._holdings.get(start)
            if holding_v is None:
                holding_v = cached_holding_rates(self.seed, start, stop - start)
                if self.keep:
                    self._holdings[start] = holding_v
            yield start, self.deals.slice(start, stop), holding_v


def run_lbr(strategy, game, hands: int = 20000, seed: int = 1,
            actions: str | np.ndarray = DEFAULT_ACTIONS, threads: int | None = None, progress=None,
            deals: LbrDeals | None = None) -> LbrResult:
    """LBR against `strategy` (a `Profile`, `ExploiterRules`, a baseline name or a blueprint:
    `training.lbr_blueprint`) on the duplicate
    deals of `seed` (`hands` rounded up to whole deals), or on `deals` if given. `actions`: the
    action sets as text (`"C,C,FCPA,FCPA"`) or already parsed (`parse_action_sets`' array, used
    as is). `progress(deals)` is told as chunks finish."""
    import numba

    from gambler.evaluator.tables import load_tables
    from gambler.training.engine import check_chart, encode_rules, encode_strategy

    action_sets = parse_action_sets(actions, game.num_rounds)
    from gambler.bot.blueprint import Blueprint

    if isinstance(strategy, Blueprint):  # its range comes from its table: training.lbr_blueprint
        from gambler.training.lbr_blueprint import run_blueprint_lbr

        return run_blueprint_lbr(strategy, game, 2 * deals.count if deals else hands,
                                 deals.seed if deals else seed, action_sets, threads, progress)
    deals = deals if deals is not None else LbrDeals(seed, hands)
    kind, params = encode_strategy(strategy)
    rules = encode_rules(game)
    check_chart(kind, params, rules)
    tables = load_tables()
    lookups = lbr_tables()
    chips = np.zeros((deals.count, 2), dtype=np.int64)
    adjusted = np.zeros((deals.count, 2), dtype=np.float64)
    lines = np.zeros((deals.count, 2, 4), dtype=np.int64)
    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    try:
        for start, part, holding_v in deals.chunks():
            stop = start + len(part)
            lbr_deals(rules, kind, params, deal_arrays(part), holding_v, deals.seed, start, tables,
                      lookups, action_sets, chips[start:stop], adjusted[start:stop],
                      lines[start:stop])
            if progress is not None:
                progress(stop - start)
    finally:
        numba.set_num_threads(previous_threads)
    return LbrResult(chips, adjusted, game.big_blind, lines)


class LbrSetting(NamedTuple):
    """One setting of an LBR suite."""

    actions: str  # LBR's action sets, preflop first (`parse_action_sets`)
    reason: str   # why the suite measures it, in one line


# The standard suite (`run_lbr_suite`, `gambler-lbr PROFILE --suite`). The first four are in the
# style of the published table (Lisý & Bowling 2017, arXiv 1612.07547: LBR against the ACPC bots
# at a few action sets per round, from checking and calling preflop to fold/call/pot/all-in in
# every round). The table itself could not be read here (the stored copies of the paper that
# could be searched show its opening only), so these four are the settings as usually cited, not
# checked against it; the rest add what the table lacks: preflop raises at more sizes, minimum
# raises and overbets on every street. LBR is greedy (one step ahead), so more sizes need not
# win more: a suite's worst case, its largest winnings, is the number to quote.
STANDARD_SUITE = (
    LbrSetting("C,C,FC,FC", "no raises at all: calls down or folds the turn and river, so it "
               "prices the bot's own bets and bluffs alone"),
    LbrSetting("C,C,FCPA,FCPA", "the paper's common setting (pot and all in on the turn and "
               "river): the number published tables quote"),
    LbrSetting("C,FCPA,FCPA,FCPA", "the same from the flop: punishes flop play, three streets "
               "of pot bets"),
    LbrSetting("FCPA,FCPA,FCPA,FCPA", "pot and all in from preflop: punishes a bot that folds "
               "or calls too much before the flop"),
    LbrSetting("FCHPA,FCHPA,FCHPA,FCHPA", "half pot added on every street, preflop raises "
               "included: the sizes between a probe and a pot"),
    LbrSetting("FCMA,FCMA,FCMA,FCMA", "minimum raises and all in only: min-raise probes that "
               "catch a bot folding to any bet"),
    LbrSetting("FCMQT,FCMQT,FCMQT,FCMQT", "small sizes only (minimum, quarter, three-quarter "
               "pot): cheap bets a bot may fold too often to"),
    LbrSetting("FCODXA,FCODXA,FCODXA,FCODXA", "overbets on every street (1.5, 2, 3 pots, all "
               "in): punishes calling or folding thresholds blind to the price"),
    LbrSetting("FCMQHTPODXA,FCMQHTPODXA,FCMQHTPODXA,FCMQHTPODXA", "every size on every "
               "street: the widest one-step search"),
)


def iter_lbr_suite(strategy, game, hands: int = 20000, seed: int = 1, suite=STANDARD_SUITE,
                   threads: int | None = None, progress=None):
    """`run_lbr_suite`, one setting at a time: yields (the actions as `format_action_sets`
    writes them, its `LbrResult`) as each finishes, so a caller can time them. Every setting's
    sets are parsed before any hand is played."""
    action_sets = [parse_action_sets(setting.actions if isinstance(setting, LbrSetting)
                                     else setting, game.num_rounds) for setting in suite]
    deals = LbrDeals(seed, hands, keep=True)  # one load (and one holdings pass) for every setting
    for sets in action_sets:
        yield format_action_sets(sets), run_lbr(strategy, game, hands, seed, sets, threads,
                                                progress, deals)


def run_lbr_suite(strategy, game, hands: int = 20000, seed: int = 1, suite=STANDARD_SUITE,
                  threads: int | None = None, progress=None) -> list[tuple[str, LbrResult]]:
    """LBR at every setting of `suite` (`LbrSetting`s or action-set texts; `STANDARD_SUITE` by
    default) on the same duplicate deals of `seed`, loaded once: [(actions, `LbrResult`)] in
    the suite's order, each result equal to `run_lbr` at that setting alone. `progress(deals)`
    is told as chunks finish, settings one after another (len(suite) x deals in all)."""
    return list(iter_lbr_suite(strategy, game, hands, seed, suite, threads, progress))


def worst_setting(results: list[tuple[str, LbrResult]]) -> int:
    """The index of the setting where LBR wins most (mbb/hand; the first of equals)."""
    winnings = [result.score.mbb_per_hand for _, result in results]
    return winnings.index(max(winnings))


_ROUND_NAMES = ("preflop", "flop", "turn", "river")
_ANSWERS = {FOLD_CODE: "folds", CALL_CODE: "calls", RAISE_CODE: "raises"}


def _describe_line(round_: int, raised: int, all_in: int, answer: int) -> str:
    if round_ < 0:
        return "LBR never bets or raises"
    size = "all in" if all_in else "not all in"
    what = "raises" if raised else "bets"
    reply = _ANSWERS.get(answer, "has no answer")
    return f"{_ROUND_NAMES[round_]}: LBR {what} ({size}), the bot {reply}"


