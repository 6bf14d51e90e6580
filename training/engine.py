"""The fast self-play engine: heads-up hands under the protocol's rules, in numba, no sockets.

A hand here is exactly a hand of `protocol.betting` (the ACPC server's rules, heads-up): the same
blinds, legal actions, minimum raises, round closing and payoffs; the tests replay engine hands
through `BettingState` and through `gambler-dealer` with two `gambler` processes and compare them
action by action and chip by chip.

What makes it fast:

* The win rate v depends only on the cards, so a deal set carries v for each position and street
  (computed once, `training.deals`); the automaton only looks it up.
* The showdown winner depends only on the cards too: the deal set carries it.
* A strategy is a kind and 44 numbers (`encode_strategy`): the automaton with a profile, or a
  baseline (call, minimum raise, all in, the ACPC example player's random mix).

`play_deals` plays every deal twice with the seats swapped (duplicate): strategy A holds position
0's cards and seat in the first hand and position 1's in the second, so the luck of the cards
cancels within each pair. The random baseline draws from a SplitMix64 stream per (seed, deal,
hand), so results never depend on how deals are split among workers.
"""

from __future__ import annotations

import numpy as np
from numba import prange, uint64

from evaluator.rng import GOLDEN_GAMMA, mix64, stream_seed
from gambler.jit import helper, njit

# Strategy kinds.
PROFILE, CALL, MIN_RAISE, ALL_IN, RANDOM = range(5)
KIND_OF_BASELINE = {"call": CALL, "raise": MIN_RAISE, "allin": ALL_IN, "random": RANDOM}

# Action codes in traces.
FOLD_CODE, CALL_CODE, RAISE_CODE = 0, 1, 2

MAX_ACTIONS = 64  # per round, as the ACPC server (`MAX_NUM_ACTIONS`)
_RANDOM_MIX = (0.06, 0.47, 0.47)


@helper
def _cubic_chips(params, offset, v):
    """int(c0 + c1 v + c2 v^2 + c3 v^3), the same operations as `bot.params` (same rounding)."""
    value = params[offset] + params[offset + 1] * v + params[offset + 2] * v * v \
        + params[offset + 3] * v * v * v
    return np.int64(value)  # truncation toward zero, like int() and C's (int)


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


@njit
def play_hand(rules, kinds, params, v, outcome, rng_state, trace):
    """Play one hand; returns (payoff to position 0, rng state).

    rules: int64[19] from `encode_rules`; kinds[p], params[p] the strategy at position p;
    v[p, r] the win rate of position p's cards in round r; outcome: +1 if position 0 has the
    better hand at showdown, -1 if worse, 0 for a tie. `trace` (int64[n, 3] or empty) receives
    (round, action code, raise-to) per action.
    """
    no_limit = rules[0] == 1
    num_rounds = rules[1]
    big_blind = rules[2]
    stack0, stack1 = rules[3], rules[4]
    spent0, spent1 = rules[5], rules[6]
    max_spent = max(spent0, spent1)
    if no_limit:
        min_raise_to = 2 * max_spent if max_spent > 0 else 1
    else:
        min_raise_to = 0
    round_ = 0
    folded = -1
    round_kinds = np.empty(MAX_ACTIONS, dtype=np.int64)
    round_actors = np.empty(MAX_ACTIONS, dtype=np.int64)
    round_actions = 0
    round_raises = 0
    last_actor = -1
    plan_round = np.full(2, -1, dtype=np.int64)
    plan_mode = np.zeros(2, dtype=np.int64)
    plan_call = np.zeros(2, dtype=np.int64)
    plan_raise = np.zeros(2, dtype=np.int64)
    traced = 0
    while True:
        # --- the player to act (the server's currentPlayer) ---
        if round_actions > 0:
            start = last_actor
        else:
            start = rules[7 + round_] + 1  # first_player[round] + players - 1, mod 2
        player = -1
        for step in range(1, 3):
            position = (start + step) % 2
            spent_p = spent0 if position == 0 else spent1
            stack_p = stack0 if position == 0 else stack1
            if position != folded and spent_p < stack_p:
                player = position
                break
        spent_me = spent0 if player == 0 else spent1
        stack_me = stack0 if player == 0 else stack1
        acting = (spent0 < stack0) + (spent1 < stack1)  # nobody has folded yet here
        # --- legal actions ---
        can_fold = spent_me < max_spent
        raise_low = -1
        raise_high = -1
        if (round_raises < rules[15 + round_] and round_actions + 2 <= MAX_ACTIONS
                and acting > 1):
            if no_limit:
                if min_raise_to > stack_me:
                    if max_spent < stack_me:
                        raise_low = stack_me
                        raise_high = stack_me
                else:
                    raise_low = min_raise_to
                    raise_high = stack_me
            else:
                total = min(max_spent + rules[11 + round_], stack_me)
                if total > max_spent:
                    raise_low = total
                    raise_high = total
        can_raise = raise_low >= 0
        # --- the strategy's choice: code and raise-to ---
        kind = kinds[player]
        code = CALL_CODE
        amount = 0
        if kind == PROFILE:
            if plan_round[player] != round_:
                value = v[player, round_]
                base = 11 * round_
                if value < params[player, base]:
                    mode = 0
                elif value < params[player, base + 1]:
                    mode = 1
                elif value < params[player, base + 2]:
                    mode = 2
                else:
                    mode = 3
                plan_round[player] = round_
                plan_mode[player] = mode
                plan_call[player] = _cubic_chips(params[player], base + 3, value)
                plan_raise[player] = _cubic_chips(params[player], base + 7, value)
            mode = plan_mode[player]
            call_limit = plan_call[player]
            target = plan_raise[player]
            facing_bet = spent_me < max_spent
            if mode == 0:
                code = FOLD_CODE if facing_bet else CALL_CODE
            elif mode <= 2 and facing_bet and max_spent > call_limit:
                code = FOLD_CODE
            elif mode == 1:
                code = CALL_CODE
            elif mode == 2:
                if can_raise and raise_low <= target:
                    code = RAISE_CODE
                    amount = min(max(target, raise_low), raise_high)
            elif can_raise:
                wanted = target if max_spent < target else 2 * max_spent
                code = RAISE_CODE
                amount = min(max(wanted, raise_low), raise_high)
        elif kind == MIN_RAISE:
            if can_raise:
                code = RAISE_CODE
                amount = raise_low
        elif kind == ALL_IN:
            if can_raise:
                code = RAISE_CODE
                amount = raise_high
        elif kind == RANDOM:
            fold_weight = _RANDOM_MIX[0] if can_fold else 0.0
            raise_weight = _RANDOM_MIX[2] if can_raise else 0.0
            rng_state, roll = _uniform(rng_state)
            roll *= fold_weight + _RANDOM_MIX[1] + raise_weight
            if roll < fold_weight:
                code = FOLD_CODE
            elif roll < fold_weight + _RANDOM_MIX[1]:
                code = CALL_CODE
            else:
                code = RAISE_CODE
                rng_state, amount = _uniform_int(rng_state, raise_low, raise_high)
        if traced < trace.shape[0]:
            trace[traced, 0] = round_
            trace[traced, 1] = code
            trace[traced, 2] = amount
            traced += 1
        # --- apply it ---
        round_kinds[round_actions] = code
        round_actors[round_actions] = player
        round_actions += 1
        last_actor = player
        if code == FOLD_CODE:
            folded = player
            break
        if code == CALL_CODE:
            if player == 0:
                spent0 = min(max_spent, stack0)
            else:
                spent1 = min(max_spent, stack1)
        else:
            if no_limit:
                min_raise_to = max(min_raise_to, 2 * amount - max_spent)
            max_spent = amount
            if player == 0:
                spent0 = amount
            else:
                spent1 = amount
            round_raises += 1
        # --- does the round (or the hand) end? the server's numCalled >= numActing ---
        acting = (spent0 < stack0) + (spent1 < stack1)
        called = 0
        for index in range(round_actions - 1, -1, -1):
            actor = round_actors[index]
            not_all_in = (spent0 < stack0) if actor == 0 else (spent1 < stack1)
            called += not_all_in
            if round_kinds[index] == RAISE_CODE:
                break
        if called >= acting:
            if acting > 1 and round_ + 1 < num_rounds:
                round_ += 1
                round_actions = 0
                round_raises = 0
                min_raise_to = max_spent + max(big_blind, 1)
            else:
                round_ = num_rounds - 1
                break
    if folded == 0:
        return -spent0, rng_state
    if folded == 1:
        return spent1, rng_state
    return outcome * min(spent0, spent1), rng_state


@helper
def _duplicate_pair(rules, kind_a, params_a, kind_b, params_b, v_deal, outcome, seed, deal):
    """A's chips in the two hands of one deal: (A at position 0, A at position 1)."""
    kinds = np.empty(2, dtype=np.int64)
    params = np.empty((2, params_a.shape[0]), dtype=np.float64)
    no_trace = np.empty((0, 3), dtype=np.int64)
    kinds[0], kinds[1] = kind_a, kind_b
    params[0], params[1] = params_a, params_b
    first, _ = play_hand(rules, kinds, params, v_deal, outcome, stream_seed(seed, 2 * deal),
                         no_trace)
    kinds[0], kinds[1] = kind_b, kind_a
    params[0], params[1] = params_b, params_a
    second, _ = play_hand(rules, kinds, params, v_deal, outcome, stream_seed(seed, 2 * deal + 1),
                          no_trace)
    return first, -second


@njit
def play_deals(rules, kind_a, params_a, kind_b, params_b, v, outcomes, seed, first_deal, results):
    """`results[i] = (A's chips at position 0, at position 1)` for deal `first_deal + i`.

    v: float64[n, 2, 4]; outcomes: int8[n]. Deal numbers (not positions in the arrays) seed the
    random baseline, so any split of a deal set gives the same results.
    """
    for i in range(v.shape[0]):
        first, second = _duplicate_pair(rules, kind_a, params_a, kind_b, params_b, v[i],
                                        outcomes[i], seed, first_deal + i)
        results[i, 0] = first
        results[i, 1] = second


@njit(parallel=True)
def play_deals_parallel(rules, kind_a, params_a, kind_b, params_b, v, outcomes, seed,
                        first_deal, results):
    """`play_deals` over all cores (numba threads); identical results."""
    for i in prange(v.shape[0]):
        first, second = _duplicate_pair(rules, kind_a, params_a, kind_b, params_b, v[i],
                                        outcomes[i], seed, first_deal + i)
        results[i, 0] = first
        results[i, 1] = second


def encode_rules(game) -> np.ndarray:
    """The rules of a heads-up game as the engine reads them: int64[19] =
    no-limit flag, rounds, big blind, stacks[2], blinds[2], first player[4], raise sizes[4],
    maximum raises[4]."""
    if game.num_players != 2:
        raise ValueError("the engine plays heads-up games only")
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


def encode_strategy(spec) -> tuple[int, np.ndarray]:
    """(kind, 44 parameters) for a baseline name or a `bot.params.Profile`."""
    if isinstance(spec, str):
        if spec not in KIND_OF_BASELINE:
            raise ValueError(f"unknown baseline {spec!r}")
        return KIND_OF_BASELINE[spec], np.zeros(44, dtype=np.float64)
    return PROFILE, np.array(spec.as_vector(), dtype=np.float64)
