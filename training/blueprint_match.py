"""The fast engine's hands against a blueprint: a strategy of the engine's kinds (an exploiter, a
profile without range play, a baseline but `random`) against a `bot.blueprint.Blueprint`, on a
deal set's duplicate deals, in numba. `gambler-exploit` searches against a blueprint with it.

The blueprint plays as the TCP bot does (`bot.blueprint`; the same kernels as
`training.lbr_blueprint`): the real betting walked down its tree with the pseudo-harmonic
translation, its bucket looked up in the card abstraction, its action drawn from the strategy,
the abstract action made real. Its draws are those of hand number 2 x deal + the order, seed
`seed`, as LBR's are. The other side plays as in `training.engine._play`: its v for the round
from the deal set, its chart, its mixed plan and its rules, with the same mixing seeds.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from gambler.errors import GamblerError
from gambler.jit import helper, njit
from gambler.solver.betting import DECISION
from gambler.solver.cards import _lookup_row
from gambler.solver.mccfr import sampled_action
from gambler.training.engine import (CALL_CODE, ENDED, HAND_STATE_SIZE, MAX_SPENT, RANDOM, ROUND,
                                     adjusted_payoff_of, apply_action, chart_action, fixed_action,
                                     has_chart, is_mixed, is_range_aware, payoff_of,
                                     player_to_act, start_hand, uses_own_range)
from gambler.solver.mccfr import strategy_at
from gambler.training.lbr_blueprint import (ACTION_STREAM, TRANSLATE_STREAM, blueprint_uniform,
                                            real_action, translations)


class BlueprintMatchError(GamblerError, ValueError):
    """A strategy the engine cannot play against a blueprint."""


@helper
def hole_bucket(round_, board, hole, cards, scratch):
    """The bucket of `hole` in `round_` on `board` (`solver.cards.round_buckets` for one
    holding)."""
    binomial, preflop, raw3, perm3, raw4, perm4, raw5, perm5, permutations, flop, turn, \
        river = cards
    a = min(hole[0], hole[1])
    b = max(hole[0], hole[1])
    if round_ == 0:
        return preflop[b * (b - 1) // 2 + a]
    if round_ == 1:
        row, pair = _lookup_row(board, 3, binomial, raw3, perm3, permutations, a, b, scratch)
        return flop[row, pair]
    if round_ == 2:
        row, pair = _lookup_row(board, 4, binomial, raw4, perm4, permutations, a, b, scratch)
        return turn[row, pair]
    row, pair = _lookup_row(board, 5, binomial, raw5, perm5, permutations, a, b, scratch)
    return river[row, pair]


@helper
def play_against_blueprint(rules, kind, params, tree, offsets, policy, cards, v, holes, board,
                           blueprint_seat, seed, hand_number, hand, trace, work):
    """One hand into `hand` (its final state): the engine's strategy (kind, params) at
    1 - `blueprint_seat`, the blueprint at `blueprint_seat`; `trace` (int64[k, 3], may be
    empty) receives (player, code, raise-to) per action."""
    probabilities, pair_child, pair_p, scratch, hole = work
    no_limit = rules[0] == 1
    start_hand(rules, hand)
    node = 0
    bucket_round = -1
    bucket = 0
    index = 0
    for k in range(2):
        hole[k] = holes[blueprint_seat, k]
    while hand[ENDED] == 0:
        player = player_to_act(rules, hand)
        round_ = hand[ROUND]
        if player == blueprint_seat:
            if node < 0 or tree[0][node] != DECISION:
                code, amount = CALL_CODE, 0
            else:
                if bucket_round != round_:
                    bucket = hole_bucket(round_, board, hole, cards, scratch)
                    bucket_round = round_
                n = tree[4][node]
                strategy_at(offsets, policy, node, n, bucket, probabilities)
                u = blueprint_uniform(seed, ACTION_STREAM, hand_number, index)
                pick = sampled_action(probabilities, n, u)
                code, amount = real_action(tree, node, tree[5][tree[3][node] + pick], rules,
                                           hand, player)
        else:
            value = v[player, round_]
            code, amount = -1, 0
            if has_chart(kind, params, round_):
                code, amount = chart_action(params, value, rules, hand, player, seed,
                                            hand_number)
            if code < 0:
                mixed = is_mixed(kind, params, round_, value, seed, hand_number, player)
                code, amount = fixed_action(kind, params, value, rules, hand, player, mixed)
        ways = translations(tree, node, player, round_, code, amount, hand[MAX_SPENT],
                            rules[3 + player], no_limit, pair_child, pair_p)
        next_node = pair_child[0]
        if ways == 2 and blueprint_uniform(seed, TRANSLATE_STREAM, hand_number,
                                           index) >= pair_p[0]:
            next_node = pair_child[1]
        node = next_node
        if index < trace.shape[0]:
            trace[index, 0] = player
            trace[index, 1] = code
            trace[index, 2] = amount
        apply_action(rules, hand, player, code, amount)
        index += 1


@helper
def _new_work(max_children):
    return (np.empty(max_children, dtype=np.float64), np.empty(2, dtype=np.int64),
            np.empty(2, dtype=np.float64), np.empty(5, dtype=np.int64),
            np.empty(2, dtype=np.int64))


@helper
def _pairs(rules, kind, params, tree, offsets, policy, cards, v, holes, boards, outcomes,
           allin_equity, seed, first_deal, results, adjusted, work, hand):
    """Every deal twice: the strategy's chips at position 0 (the blueprint at 1), then at 1."""
    no_trace = np.empty((0, 3), dtype=np.int64)
    for i in range(v.shape[0]):
        deal = first_deal + i
        for order in range(2):
            blueprint_seat = 1 - order
            play_against_blueprint(rules, kind, params, tree, offsets, policy, cards, v[i],
                                   holes[i].astype(np.int64), boards[i].astype(np.int64),
                                   blueprint_seat, seed, 2 * deal + order, hand, no_trace, work)
            sign = 1 - 2 * order
            results[i, order] = sign * payoff_of(hand, outcomes[i])
            adjusted[i, order] = sign * adjusted_payoff_of(hand, outcomes[i], allin_equity[i])


@njit(parallel=True)
def population_against_blueprint(rules, kind, population, tree, offsets, policy, cards, v,
                                 holes, boards, outcomes, allin_equity, seed, first_deal,
                                 results, adjusted):
    """results[k, i] = (member k's chips at position 0, at position 1) on deal first_deal + i
    against the blueprint (all-in adjusted in `adjusted`), one member per thread at a time."""
    max_children = tree[4].max()
    for member in prange(population.shape[0]):
        work = _new_work(max_children)
        hand = np.empty(HAND_STATE_SIZE, dtype=np.int64)
        _pairs(rules, kind, population[member], tree, offsets, policy, cards, v, holes, boards,
               outcomes, allin_equity, seed, first_deal, results[member], adjusted[member], work,
               hand)


@njit
def blueprint_hand_trace(rules, kind, params, tree, offsets, policy, cards, v, holes, board,
                         blueprint_seat, seed, hand_number, trace):
    """One hand with its actions in `trace`, for the tests: (the hand's final state)."""
    hand = np.empty(HAND_STATE_SIZE, dtype=np.int64)
    work = _new_work(tree[4].max())
    play_against_blueprint(rules, kind, params, tree, offsets, policy, cards, v, holes, board,
                           blueprint_seat, seed, hand_number, hand, trace, work)
    return hand


def engine_arrays(blueprint, game) -> tuple:
    """(tree, offsets, policy, cards) of a blueprint the engine plays in `game`;
    `BlueprintMatchError` for one it cannot (no hold'em card abstraction, other stacks or
    blinds)."""
    from gambler.training.lbr_blueprint import BlueprintLbrError, blueprint_arrays

    try:
        arrays = blueprint_arrays(blueprint)
    except BlueprintLbrError as error:
        raise BlueprintMatchError(str(error).replace("LBR plays", "the engine plays")) from None
    solved = blueprint.game.tree.game
    if solved.stacks != game.stacks or solved.blinds != game.blinds:
        raise BlueprintMatchError(f"{blueprint.source}: solved for other stacks or blinds than "
                                  f"{game.source}")
    return arrays


def check_playable(kind: int, params: np.ndarray) -> None:
    """`BlueprintMatchError` for a strategy this engine cannot play against a blueprint."""
    if kind == RANDOM:
        raise BlueprintMatchError("the random baseline does not play the blueprint engine")
    params = np.asarray(params, dtype=np.float64)
    if is_range_aware(kind, params) or uses_own_range(kind, params):
        raise BlueprintMatchError("a range-aware or range-defended profile does not play the "
                                  "blueprint engine")
