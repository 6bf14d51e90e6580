"""Counterfactual regret minimisation on flat game trees, in numba, and exact best responses.

Algorithms (all with alternating updates: each iteration updates player 0, then player 1):

* `cfr`   vanilla CFR (Zinkevich et al. 2007): regret matching on cumulative regrets, uniform
          averaging of the strategies.
* `cfr+`  CFR+ (Tammelin 2014): regret matching+ (cumulative regrets clipped at zero after every
          update) and linear averaging (iteration t weighs t).
* `dcfr`  discounted CFR (Brown and Sandholm 2019), alpha = 1.5, beta = 0, gamma = 2: after
          iteration t, positive cumulative regrets are multiplied by t^1.5 / (t^1.5 + 1), negative
          ones by 1/2, and the strategy sum by (t / (t + 1))^2.
* `mccfr` external-sampling Monte Carlo CFR (Lanctot et al. 2009): for the updated player, chance
          and the opponent are sampled once per node, every own action is explored; the opponent's
          sampled strategies feed the average.

One iteration of the full-tree algorithms is two passes over the nodes in pre-order: top-down for
reach probabilities, bottom-up for values, then regrets r(I, a) += sum over h in I of
(opponent and chance reach of h) * (v(h a) - v(h)), and the strategy sum accumulates the player's
own reach times its strategy.

Exact best response (`best_response_value`): against a fixed opponent strategy, the best
responder's information sets are decided deepest first (depth = its own earlier actions); each
gets the action maximising the sum over its histories of opponent-and-chance reach times the
value below, which only involves deeper, already decided, information sets. Exploitability is
NashConv / 2 = (best response value of player 0 + best response value of player 1) / 2.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import uint64

from gambler.evaluator.rng import GOLDEN_GAMMA, mix64, stream_seed
from gambler.games.errors import GameError
from gambler.games.tree import GameTree
from gambler.jit import helper, njit

ALGORITHMS = ("cfr", "cfr+", "dcfr", "mccfr")
_VANILLA, _PLUS, _DISCOUNTED = 0, 1, 2


@helper
def _matched(regrets, info, count, out):
    """Regret matching for one information set, into out[:count]: positive regrets normalised,
    uniform if none is positive."""
    total = 0.0
    for a in range(count):
        if regrets[info, a] > 0:
            total += regrets[info, a]
    for a in range(count):
        if total > 0:
            out[a] = regrets[info, a] / total if regrets[info, a] > 0 else 0.0
        else:
            out[a] = 1.0 / count


@njit
def current_strategy(regrets, actions, out):
    """Regret matching at every information set."""
    for infoset in range(regrets.shape[0]):
        _matched(regrets, infoset, actions[infoset], out[infoset])


@helper
def _reach(kind, player, infoset, parent, edge, edge_prob, strategy, who, own, others):
    """Top-down: `own` reach of player `who`, `others` reach of the opponent and chance."""
    own[0] = 1.0
    others[0] = 1.0
    for node in range(1, kind.shape[0]):
        up = parent[node]
        own[node] = own[up]
        others[node] = others[up]
        if kind[up] == 1:
            others[node] *= edge_prob[node]
        elif player[up] == who:
            own[node] *= strategy[infoset[up], edge[node]]
        else:
            others[node] *= strategy[infoset[up], edge[node]]


@helper
def _values(kind, player, infoset, edge_prob, child_start, child_count, children, utility,
            strategy, who, value):
    """Bottom-up: expected utility of player `who` below each node under `strategy`."""
    sign = 1.0 if who == 0 else -1.0
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] == 0:
            value[node] = sign * utility[node]
            continue
        total = 0.0
        for k in range(child_count[node]):
            child = children[child_start[node] + k]
            if kind[node] == 1:
                total += edge_prob[child] * value[child]
            else:
                total += strategy[infoset[node], k] * value[child]
        value[node] = total


@njit
def cfr_iterations(kind, player, infoset, parent, edge, edge_prob, child_start, child_count,
                   children, utility, infoset_player, infoset_actions, infoset_depth, regrets,
                   strategy_sum, first_iteration, iterations, variant):
    """Run `iterations` iterations (numbered from `first_iteration`, 1-based) in place."""
    nodes = kind.shape[0]
    strategy = np.zeros_like(regrets)
    own = np.empty(nodes)
    others = np.empty(nodes)
    value = np.empty(nodes)
    for t in range(first_iteration, first_iteration + iterations):
        for who in range(2):
            current_strategy(regrets, infoset_actions, strategy)
            _reach(kind, player, infoset, parent, edge, edge_prob, strategy, who, own, others)
            _values(kind, player, infoset, edge_prob, child_start, child_count, children,
                    utility, strategy, who, value)
            weight = float(t) if variant == _PLUS else 1.0
            for node in range(nodes):
                if kind[node] != 2 or player[node] != who:
                    continue
                info = infoset[node]
                for k in range(child_count[node]):
                    child = children[child_start[node] + k]
                    regrets[info, k] += others[node] * (value[child] - value[node])
                    strategy_sum[info, k] += weight * own[node] * strategy[info, k]
            if variant == _PLUS:
                for info in range(regrets.shape[0]):
                    if infoset_player[info] == who:
                        for k in range(infoset_actions[info]):
                            if regrets[info, k] < 0:
                                regrets[info, k] = 0.0
            elif variant == _DISCOUNTED:
                positive = t ** 1.5 / (t ** 1.5 + 1.0)
                discount = (t / (t + 1.0)) ** 2
                for info in range(regrets.shape[0]):
                    if infoset_player[info] == who:
                        for k in range(infoset_actions[info]):
                            regrets[info, k] *= positive if regrets[info, k] > 0 else 0.5
                            strategy_sum[info, k] *= discount


@helper
def _sample(state, weights, count):
    """(new state, an index drawn with probability weights[i] / sum)."""
    state = state + GOLDEN_GAMMA
    roll = (mix64(state) >> uint64(11)) * (1.0 / 9007199254740992.0)
    total = 0.0
    for i in range(count):
        total += weights[i]
    roll *= total
    running = 0.0
    for i in range(count):
        running += weights[i]
        if roll < running:
            return state, i
    return state, count - 1


@njit
def mccfr_iterations(kind, player, infoset, parent, edge, edge_prob, child_start, child_count,
                     children, utility, infoset_player, infoset_actions, infoset_depth, regrets,
                     strategy_sum, first_iteration, iterations, seed):
    """External-sampling MCCFR with an explicit stack (no recursion): one traversal per player
    per iteration; the random stream of iteration t is `stream_seed(seed, t)`."""
    nodes = kind.shape[0]
    max_actions = regrets.shape[1]
    strategy = np.zeros(max_actions)
    value = np.zeros(nodes)
    # Stack frames: node, phase (0 = enter, 1 = children done), sampled child (or -1 = all).
    stack_node = np.empty(nodes, dtype=np.int64)
    stack_phase = np.empty(nodes, dtype=np.int64)
    stack_pick = np.empty(nodes, dtype=np.int64)
    weights = np.empty(max(max_actions, 16))
    for t in range(first_iteration, first_iteration + iterations):
        state = stream_seed(seed, t)
        for who in range(2):
            sign = 1.0 if who == 0 else -1.0
            stack_node[0], stack_phase[0], stack_pick[0] = 0, 0, -1
            depth = 1
            while depth > 0:
                top = depth - 1
                node = stack_node[top]
                if kind[node] == 0:
                    value[node] = sign * utility[node]
                    depth -= 1
                    continue
                count = child_count[node]
                start = child_start[node]
                if stack_phase[top] == 0:
                    stack_phase[top] = 1
                    if kind[node] != 1 and player[node] == who:
                        stack_pick[top] = -1
                        for k in range(count):  # explore every own action
                            stack_node[depth], stack_phase[depth], stack_pick[depth] = \
                                children[start + k], 0, -1
                            depth += 1
                        continue
                    if kind[node] == 1:  # chance: sample by the edge probabilities
                        for k in range(count):
                            weights[k] = edge_prob[children[start + k]]
                    else:  # the opponent: sample its current strategy, add that to its average
                        info = infoset[node]
                        _matched(regrets, info, count, weights)
                        for k in range(count):
                            strategy_sum[info, k] += weights[k]
                    state, pick = _sample(state, weights, count)
                    stack_pick[top] = pick
                    stack_node[depth], stack_phase[depth], stack_pick[depth] = \
                        children[start + pick], 0, -1
                    depth += 1
                    continue
                # Children done: combine.
                if stack_pick[top] >= 0:
                    value[node] = value[children[start + stack_pick[top]]]
                else:
                    info = infoset[node]
                    _matched(regrets, info, count, strategy)
                    expected = 0.0
                    for k in range(count):
                        expected += strategy[k] * value[children[start + k]]
                    for k in range(count):
                        regrets[info, k] += value[children[start + k]] - expected
                    value[node] = expected
                depth -= 1


@helper
def _profile_values(kind, player, infoset, edge_prob, child_start, child_count, children,
                    utility, policy, value):
    _values(kind, player, infoset, edge_prob, child_start, child_count, children, utility,
            policy, 0, value)
    return value[0]


@njit
def best_response_value(kind, player, infoset, parent, edge, edge_prob, child_start, child_count,
                        children, utility, infoset_player, infoset_actions, infoset_depth,
                        policy, responder, choice):
    """The value to `responder` of its best response to `policy` (the other player's part is
    used); the chosen action per information set is written to `choice`."""
    nodes = kind.shape[0]
    own = np.empty(nodes)
    others = np.empty(nodes)
    value = np.empty(nodes)
    _reach(kind, player, infoset, parent, edge, edge_prob, policy, responder, own, others)
    plan = policy.copy()
    max_depth = 0
    for info in range(infoset_player.shape[0]):
        if infoset_player[info] == responder and infoset_depth[info] > max_depth:
            max_depth = infoset_depth[info]
    action_value = np.zeros(policy.shape)
    for level in range(max_depth, -1, -1):
        _values(kind, player, infoset, edge_prob, child_start, child_count, children, utility,
                plan, responder, value)
        action_value[:, :] = 0.0
        for node in range(nodes):
            if kind[node] == 2 and player[node] == responder:
                info = infoset[node]
                if infoset_depth[info] == level:
                    for k in range(child_count[node]):
                        action_value[info, k] += others[node] * value[children[child_start[node]
                                                                               + k]]
        for info in range(infoset_player.shape[0]):
            if infoset_player[info] == responder and infoset_depth[info] == level:
                best = 0
                for k in range(1, infoset_actions[info]):
                    if action_value[info, k] > action_value[info, best]:
                        best = k
                for k in range(infoset_actions[info]):
                    plan[info, k] = 1.0 if k == best else 0.0
                choice[info] = best
    _values(kind, player, infoset, edge_prob, child_start, child_count, children, utility, plan,
            responder, value)
    return value[0]


def average_policy(tree: GameTree, strategy_sum: np.ndarray) -> np.ndarray:
    """The normalised strategy sum (uniform where an information set was never reached)."""
    policy = np.zeros_like(strategy_sum)
    for info in range(tree.infosets):
        count = tree.infoset_actions[info]
        total = strategy_sum[info, :count].sum()
        policy[info, :count] = strategy_sum[info, :count] / total if total > 0 else 1 / count
    return policy


def uniform_policy(tree: GameTree) -> np.ndarray:
    policy = np.zeros((tree.infosets, tree.max_actions))
    for info in range(tree.infosets):
        policy[info, :tree.infoset_actions[info]] = 1 / tree.infoset_actions[info]
    return policy


def game_value(tree: GameTree, policy: np.ndarray) -> float:
    """Player 0's expected utility when both play `policy`."""
    return float(_profile_values(tree.kind, tree.player, tree.infoset, tree.edge_prob,
                                 tree.child_start, tree.child_count, tree.children, tree.utility,
                                 policy, np.empty(tree.nodes)))


def best_response(tree: GameTree, policy: np.ndarray, responder: int) -> tuple[float, np.ndarray]:
    """(value to `responder` of its best response to `policy`, its action per infoset)."""
    choice = np.full(tree.infosets, -1, dtype=np.int64)
    value = best_response_value(*tree.arrays(), policy, responder, choice)
    return float(value), choice


def nash_conv(tree: GameTree, policy: np.ndarray) -> float:
    return best_response(tree, policy, 0)[0] + best_response(tree, policy, 1)[0]


def exploitability(tree: GameTree, policy: np.ndarray) -> float:
    """NashConv / 2: how much a best responder wins on average over the two seats."""
    return nash_conv(tree, policy) / 2


@dataclass
class SolveResult:
    policy: np.ndarray
    game_value: float
    exploitability: float
    iterations: int
    seconds: float
    curve: list[tuple[int, float]]   # (iterations, exploitability) at each checkpoint


def solve(tree: GameTree, algorithm: str = "cfr+", iterations: int = 1000, seed: int = 0,
          checkpoints: int = 10, progress=None) -> SolveResult:
    """Run an algorithm for `iterations` and measure the average policy at `checkpoints`."""
    if algorithm not in ALGORITHMS:
        raise GameError(f"unknown algorithm {algorithm!r} (one of {', '.join(ALGORITHMS)})")
    regrets = np.zeros((tree.infosets, tree.max_actions))
    strategy_sum = np.zeros_like(regrets)
    marks = sorted({max(1, round(iterations * k / checkpoints)) for k in range(1, checkpoints + 1)})
    curve = []
    done = 0
    seconds = 0.0
    arrays = tree.arrays()

    def iterate(first: int, count: int) -> None:
        """Iterations first .. first + count - 1 of the chosen algorithm."""
        if algorithm == "mccfr":
            mccfr_iterations(*arrays, regrets, strategy_sum, first, count, seed)
        else:
            variant = {"cfr": _VANILLA, "cfr+": _PLUS, "dcfr": _DISCOUNTED}[algorithm]
            cfr_iterations(*arrays, regrets, strategy_sum, first, count, variant)

    iterate(1, 0)  # zero iterations: loads (or compiles) the kernel outside the timed region
    for mark in marks:
        started = time.perf_counter()
        iterate(done + 1, mark - done)
        seconds += time.perf_counter() - started
        done = mark
        curve.append((done, exploitability(tree, average_policy(tree, strategy_sum))))
        if progress is not None:
            progress(done, curve[-1][1])
    policy = average_policy(tree, strategy_sum)
    return SolveResult(policy, game_value(tree, policy), curve[-1][1], iterations, seconds, curve)
