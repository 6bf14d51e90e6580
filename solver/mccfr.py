"""External-sampling Monte Carlo CFR with discounting, and exact best responses, in numba.

The abstract game is a betting tree (`solver.betting`) and a chance model that gives each deal
as the two positions' bucket per round and the showdown's result (`solver.deals`). An information
set is (decision node n, the acting position's bucket b in n's round); its actions are n's
children. Tables are flat: the entry of action a at (n, b) is

    offset[n] + b * child_count[n] + a,

with offset[n] laid out by `table_offsets` (decision nodes in index order, each taking
buckets[round] * child_count entries). Two tables: cumulative regrets R and the strategy sum S.

One iteration (Lanctot et al. 2009, external sampling) samples one deal and traverses the tree
once for each position i (the traverser): at i's nodes every action is explored and
R(I, a) += v(I, a) - v(I), where v is the sampled counterfactual value (chance and the opponent
sampled, so no reach weights appear); at the opponent's nodes one action is sampled from its
current strategy sigma (regret matching: positive regrets normalised, uniform if none), and
S(I, .) += sigma(I, .) ("stochastically weighted averaging": the opponent's sampled visits carry
its reach). Terminal values are chips for the traverser.

Batches and determinism. Iterations run in batches; a batch is split into `chunks` streams that
run in parallel. Each stream reads the tables as they were at the batch's start plus its own
changes so far (dR_c, dS_c), so with one chunk a batch is plain sequential MCCFR, and with any
number of cores the result depends only on the seed, the batch size and the chunk count: after
the batch, R += sum_c dR_c and S += sum_c dS_c in chunk order. Each stream's random numbers come
from SplitMix64 seeded by (seed, batch, chunk). A stream needs nothing but the tables at the
batch's start, so the chunks of a batch can run on other machines too (`solver.cluster`), to the
same result.

Discounting (Brown and Sandholm 2019) after batch t = 1, 2, ...: positive regrets are multiplied
by t^alpha / (t^alpha + 1), negative ones by t^beta / (t^beta + 1), the strategy sum by
(t / (t + 1))^gamma. Linear CFR is alpha = beta = gamma = 1 (every batch weighs in proportion to
its number); DCFR's recommended alpha = 1.5, beta = 0, gamma = 2; none leaves the sums plain.

Best response (`best_response_value`) on a finite, equally likely deal list: the responder's
information sets are decided from the leaves up, each taking the action of highest
counterfactual value sum_d [bucket_i(d) = b] * pi_opp(d, n) * v(d, n a), with v computed
under the decisions below (and the opponent's average strategy). With perfect recall (the
lossless buckets of `deals.lossless_deals`, or buckets that encode the whole bucket sequence)
this is the exact best response; with imperfect recall it is the value of one particular
response, a lower bound.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange, uint64

from gambler.evaluator.hand_rank import hand_value
from gambler.evaluator.rng import GOLDEN_GAMMA, mix64, stream_seed
from gambler.evaluator.tables import SUIT_COUNTERS_START
from gambler.jit import helper, njit
from gambler.solver.betting import DECISION, FOLD_END
from gambler.solver.cards import _lookup_row, pair_index

NO_DISCOUNT, LINEAR, DISCOUNTED = 0, 1, 2
WEIGHTINGS = {"none": NO_DISCOUNT, "linear": LINEAR, "dcfr": DISCOUNTED}
MAX_DEPTH = 256


def table_offsets(kind: np.ndarray, round_: np.ndarray, child_count: np.ndarray,
                  bucket_counts: np.ndarray) -> tuple[np.ndarray, int]:
    """offset[n] for each decision node (-1 elsewhere) and the table's total size."""
    offsets = np.full(kind.shape[0], -1, dtype=np.int64)
    total = 0
    for node in range(kind.shape[0]):
        if kind[node] == DECISION:
            offsets[node] = total
            total += int(bucket_counts[round_[node]]) * int(child_count[node])
    return offsets, total


@helper
def _next(state):
    """One SplitMix64 step on state[0]; a uniform float in [0, 1)."""
    state[0] += GOLDEN_GAMMA
    return (mix64(state[0]) >> uint64(11)) * (1.0 / 9007199254740992.0)


@helper
def sampled_action(probabilities, count, u):
    """The action a uniform draw `u` picks from `probabilities[:count]`: the first whose
    cumulative probability exceeds u (the last if rounding leaves u above them all)."""
    cumulative = 0.0
    for a in range(count):
        cumulative += probabilities[a]
        if u < cumulative:
            return a
    return count - 1


@helper
def _below(state, n):
    """A uniform integer in 0..n-1."""
    return min(int(_next(state) * n), n - 1)


@helper
def _matched(regrets, deltas, base, count, out):
    """Regret matching at one information set into out[:count] (R + dR, positive part)."""
    total = 0.0
    for a in range(count):
        value = regrets[base + a] + deltas[base + a]
        out[a] = value if value > 0.0 else 0.0
        total += out[a]
    if total > 0.0:
        for a in range(count):
            out[a] /= total
    else:
        for a in range(count):
            out[a] = 1.0 / count


@helper
def _terminal_value(kind, payoff0, node, result, traverser):
    value = payoff0[node] if kind[node] == FOLD_END else payoff0[node] * result
    return value if traverser == 0 else -value


@helper
def _explored(regrets, d_regrets, base, sigma, a, prune_below):
    """Whether the traverser explores action a: always, unless pruning (prune_below > -inf)
    and the action is both out of the current strategy and deep in negative regret."""
    return sigma[a] > 0.0 or regrets[base + a] + d_regrets[base + a] >= prune_below


@helper
def _next_explored(regrets, d_regrets, base, sigma, start, count, prune_below):
    a = start
    while a < count and not _explored(regrets, d_regrets, base, sigma, a, prune_below):
        a += 1
    return a


@helper
def _traverse(traverser, kind, player, round_, child_start, child_count, children, payoff0,
              offsets, regrets, d_regrets, d_strategy, deal_buckets, result, sigmas, values,
              frame_node, frame_next, state, prune_below):
    """The sampled counterfactual value of the root for `traverser` (external sampling), its
    regret and strategy updates made into d_regrets and d_strategy.

    Depth first with an explicit stack (numba cannot load a cached recursive function): a frame
    per traverser node on the path holds its strategy (sigmas), its children's values so far
    (values) and the next child to explore; the opponent's nodes need none, one child is drawn
    and the walk goes on.

    Regret-based pruning (as in Pluribus, Brown and Sandholm 2019): with `prune_below` above
    -inf, a traverser action that the current strategy does not play and whose regret is below
    `prune_below` is not explored, and its regret not updated, this iteration. Its value does
    not enter the node's (its probability is zero), so the other updates are unchanged."""
    depth = 0
    node = 0
    while True:
        # Down from `node` to a terminal, opening a frame at each traverser node.
        while kind[node] == DECISION:
            acting = player[node]
            count = child_count[node]
            base = offsets[node] + deal_buckets[acting, round_[node]] * count
            sigma = sigmas[depth]
            _matched(regrets, d_regrets, base, count, sigma)
            if acting == traverser:
                first = _next_explored(regrets, d_regrets, base, sigma, 0, count, prune_below)
                frame_node[depth] = node
                frame_next[depth] = first
                depth += 1
                node = children[child_start[node] + first]
                continue
            for a in range(count):
                d_strategy[base + a] += sigma[a]
            node = children[child_start[node] + sampled_action(sigma, count, _next(state))]
        value = _terminal_value(kind, payoff0, node, result, traverser)
        # Up: hand the value to the innermost frame; close frames whose children are all done.
        while depth > 0:
            frame = depth - 1
            parent = frame_node[frame]
            count = child_count[parent]
            base = offsets[parent] + deal_buckets[traverser, round_[parent]] * count
            sigma = sigmas[frame]
            values[frame, frame_next[frame]] = value
            following = _next_explored(regrets, d_regrets, base, sigma, frame_next[frame] + 1,
                                       count, prune_below)
            if following < count:
                frame_next[frame] = following
                node = children[child_start[parent] + following]
                break
            expected = 0.0
            for a in range(count):
                if sigma[a] > 0.0:
                    expected += sigma[a] * values[frame, a]
            for a in range(count):
                if _explored(regrets, d_regrets, base, sigma, a, prune_below):
                    d_regrets[base + a] += values[frame, a] - expected
            value = expected
            depth -= 1
        else:
            return value


@helper
def _chunk_start(d_regrets, d_strategy, seed, batch, chunks, chunk, max_actions):
    """A chunk's start in a batch: its deltas zeroed, its random state (seeded by seed, batch
    and chunk) and its traversal's scratch arrays."""
    d_regrets[:] = 0.0
    d_strategy[:] = 0.0
    state = np.empty(1, dtype=np.uint64)
    state[0] = stream_seed(seed, uint64(batch) * uint64(chunks) + uint64(chunk))
    return (state, np.empty((MAX_DEPTH, max_actions)), np.empty((MAX_DEPTH, max_actions)),
            np.empty(MAX_DEPTH, dtype=np.int64), np.empty(MAX_DEPTH, dtype=np.int64))


@njit(parallel=True)
def finite_batch(kind, player, round_, child_start, child_count, children, payoff0, offsets,
                 regrets, d_regrets, d_strategy, seed, batch, iterations, first_chunk,
                 chunks, deal_buckets, deal_result, max_actions, prune_below, prune_share):
    """Chunks first_chunk, first_chunk + 1, ... (d_regrets.shape[0] of them) of a batch of
    `iterations` split over `chunks`, on a finite deal list: each iteration draws a deal
    uniformly and traverses for position 0, then 1. Fills the chunks' deltas (zeroed here);
    `merge_batch` applies them. A whole batch is first_chunk 0 and every chunk's rows; a
    cluster (`solver.cluster`) gives each machine some of the rows."""
    deals = deal_result.shape[0]
    for row in prange(d_regrets.shape[0]):
        c = first_chunk + row
        state, sigmas, values, frame_node, frame_next = _chunk_start(
            d_regrets[row], d_strategy[row], seed, batch, chunks, c, max_actions)
        share = iterations // chunks + (1 if c < iterations % chunks else 0)
        for _ in range(share):
            deal = _below(state, deals)
            threshold = prune_below if _next(state) < prune_share else -np.inf
            for traverser in range(2):
                _traverse(traverser, kind, player, round_, child_start, child_count, children,
                          payoff0, offsets, regrets, d_regrets[row], d_strategy[row],
                          deal_buckets[deal], deal_result[deal], sigmas, values, frame_node,
                          frame_next, state, threshold)


@njit(parallel=True)
def merge_batch(regrets, strategy_sum, d_regrets, d_strategy, weighting, batch, alpha, beta,
                gamma):
    """R += sum_c dR_c, S += sum_c dS_c (chunk order), then discount after batch `batch`."""
    size = regrets.shape[0]
    chunks = d_regrets.shape[0]
    positive = negative = keep = 1.0
    t = float(batch)
    if weighting == LINEAR:
        positive = negative = keep = t / (t + 1.0)
    elif weighting == DISCOUNTED:
        positive = t ** alpha / (t ** alpha + 1.0)
        negative = t ** beta / (t ** beta + 1.0)
        keep = (t / (t + 1.0)) ** gamma
    for i in prange(size):
        r = regrets[i]
        s = strategy_sum[i]
        for c in range(chunks):
            r += d_regrets[c, i]
            s += d_strategy[c, i]
        regrets[i] = r * (positive if r > 0.0 else negative)
        strategy_sum[i] = s * keep


@njit
def average_policy(kind, round_, child_count, offsets, bucket_counts, strategy_sum):
    """The average strategy: S normalised per information set (uniform where S is all zero)."""
    policy = np.empty_like(strategy_sum)
    for node in range(kind.shape[0]):
        if kind[node] != DECISION:
            continue
        count = child_count[node]
        for bucket in range(bucket_counts[round_[node]]):
            base = offsets[node] + bucket * count
            total = 0.0
            for a in range(count):
                total += strategy_sum[base + a]
            for a in range(count):
                policy[base + a] = strategy_sum[base + a] / total if total > 0 else 1.0 / count
    return policy


@numba.njit(nogil=True)  # not cached: numba cannot load a cached recursive function
def _br_values(node, responder, kind, player, round_, child_start, child_count, children,
               payoff0, offsets, policy, deal_buckets, deal_result, reach, bucket_counts,
               choices):
    """Per deal: the responder's value below `node` when it best-responds to `policy` (the other
    position's strategy) and `reach[d]` is the other position's reach of `node` in deal d. With
    responder = -1 both positions follow `policy` and the value is position 0's. The response
    taken at (n, b) is written to choices[offsets[n] + b * child_count[n]]."""
    deals = deal_result.shape[0]
    out = np.empty(deals)
    if kind[node] != DECISION:
        for d in range(deals):
            value = payoff0[node] if kind[node] == FOLD_END else payoff0[node] * deal_result[d]
            out[d] = -value if responder == 1 else value
        return out
    acting = player[node]
    count = child_count[node]
    first = child_start[node]
    r = round_[node]
    if acting != responder:
        out[:] = 0.0
        child_reach = np.empty(deals)
        for a in range(count):
            for d in range(deals):
                child_reach[d] = reach[d] * policy[offsets[node] + deal_buckets[d, acting, r]
                                                   * count + a]
            below = _br_values(children[first + a], responder, kind, player, round_,
                               child_start, child_count, children, payoff0, offsets, policy,
                               deal_buckets, deal_result, child_reach, bucket_counts, choices)
            for d in range(deals):
                out[d] += policy[offsets[node] + deal_buckets[d, acting, r] * count + a] * below[d]
        return out
    buckets = bucket_counts[r]
    below = np.empty((count, deals))
    for a in range(count):
        below[a] = _br_values(children[first + a], responder, kind, player, round_, child_start,
                              child_count, children, payoff0, offsets, policy, deal_buckets,
                              deal_result, reach, bucket_counts, choices)
    totals = np.zeros((buckets, count))
    for d in range(deals):
        b = deal_buckets[d, acting, r]
        for a in range(count):
            totals[b, a] += reach[d] * below[a, d]
    best = np.zeros(buckets, dtype=np.int64)
    for b in range(buckets):
        for a in range(1, count):
            if totals[b, a] > totals[b, best[b]]:
                best[b] = a
        choices[offsets[node] + b * count] = best[b]
    for d in range(deals):
        out[d] = below[best[deal_buckets[d, acting, r]], d]
    return out


@numba.njit(nogil=True)  # not cached: it calls the recursive _br_values
def best_response_value(responder, kind, player, round_, child_start, child_count, children,
                        payoff0, offsets, policy, deal_buckets, deal_result, bucket_counts):
    """The responder's expected chips per hand against `policy` (see the module docstring);
    responder -1: position 0's expected chips when both follow `policy`."""
    reach = np.ones(deal_result.shape[0])
    values = _br_values(0, responder, kind, player, round_, child_start, child_count, children,
                        payoff0, offsets, policy, deal_buckets, deal_result, reach, bucket_counts,
                        np.zeros(1 if responder < 0 else policy.shape[0], dtype=np.int64))
    return values.mean()


@numba.njit(nogil=True)  # not cached: it calls the recursive _br_values
def best_response_policy(responder, kind, player, round_, child_start, child_count, children,
                         payoff0, offsets, policy, deal_buckets, deal_result, bucket_counts):
    """`policy` with the responder's information sets replaced by the (pure) response
    `best_response_value` finds on these deals, and that response's value on them."""
    reach = np.ones(deal_result.shape[0])
    choices = np.zeros(policy.shape[0], dtype=np.int64)
    values = _br_values(0, responder, kind, player, round_, child_start, child_count, children,
                        payoff0, offsets, policy, deal_buckets, deal_result, reach, bucket_counts,
                        choices)
    combined = policy.copy()
    for node in range(kind.shape[0]):
        if kind[node] != DECISION or player[node] != responder:
            continue
        count = child_count[node]
        for b in range(bucket_counts[round_[node]]):
            base = offsets[node] + b * count
            for a in range(count):
                combined[base + a] = 1.0 if a == choices[base] else 0.0
    return combined, values.mean()


@njit
def sample_holdem_deals(seed, count, tables, binomial, preflop, raw3, perm3, raw4, perm4, raw5,
                        perm5, permutations, flop, turn, river):
    """`count` random hold'em deals through a card abstraction, as `FiniteDeals` arrays:
    (buckets int32[count, 2, 4], result int8[count]); the same seed gives the same deals."""
    buckets = np.empty((count, 2, 4), dtype=np.int32)
    result = np.empty(count, dtype=np.int8)
    state = np.empty(1, dtype=np.uint64)
    state[0] = stream_seed(seed, uint64(0x6465616C))  # "deal"
    cards = np.arange(52)
    deal_buckets = np.empty((2, 4), dtype=np.int64)
    scratch = np.empty(5, dtype=np.int64)
    for d in range(count):
        result[d] = _holdem_deal(state, cards, tables, binomial, preflop, raw3, perm3, raw4,
                                 perm4, raw5, perm5, permutations, flop, turn, river,
                                 deal_buckets, scratch)
        for position in range(2):
            for r in range(4):
                buckets[d, position, r] = deal_buckets[position, r]
    return buckets, result


@helper
def _holdem_deal(state, cards, tables, binomial, preflop, raw3, perm3, raw4, perm4, raw5, perm5,
                 permutations, flop, turn, river, buckets, scratch):
    """Draw 9 distinct cards (each position's two, then the board's five) into `cards`, fill
    `buckets[position, round]` from the card abstraction's tables, and return the showdown's
    result for position 0 (+1, 0, -1)."""
    for i in range(9):  # a partial Fisher-Yates shuffle of the deck kept in `cards[9:]`
        j = i + _below(state, 52 - i)
        card = cards[j]
        cards[j] = cards[i]
        cards[i] = card
    board = cards[4:9]
    board_key = SUIT_COUNTERS_START
    board_bits = 0
    for i in range(5):
        board_key += tables.card_keys[board[i]]
        board_bits |= tables.card_bits[board[i]]
    value0 = value1 = 0
    for position in range(2):
        first = cards[2 * position]
        second = cards[2 * position + 1]
        buckets[position, 0] = preflop[pair_index(first, second)]
        row, pair = _lookup_row(board, 3, binomial, raw3, perm3, permutations, first, second,
                                scratch)
        buckets[position, 1] = flop[row, pair]
        row, pair = _lookup_row(board, 4, binomial, raw4, perm4, permutations, first, second,
                                scratch)
        buckets[position, 2] = turn[row, pair]
        row, pair = _lookup_row(board, 5, binomial, raw5, perm5, permutations, first, second,
                                scratch)
        buckets[position, 3] = river[row, pair]
        key = board_key + tables.card_keys[first] + tables.card_keys[second]
        bits = board_bits | tables.card_bits[first] | tables.card_bits[second]
        if position == 0:
            value0 = hand_value(tables, key, bits)
        else:
            value1 = hand_value(tables, key, bits)
    if value0 > value1:
        return 1
    if value0 < value1:
        return -1
    return 0


@njit(parallel=True)
def holdem_batch(kind, player, round_, child_start, child_count, children, payoff0, offsets,
                 regrets, d_regrets, d_strategy, seed, batch, iterations, first_chunk, chunks,
                 max_actions, tables, binomial, preflop, raw3, perm3, raw4, perm4, raw5, perm5,
                 permutations, flop, turn, river, prune_below, prune_share):
    """`finite_batch`'s chunks on heads-up hold'em through a card abstraction
    (`solver.cards`): each iteration deals nine cards and traverses for position 0, then 1."""
    for row in prange(d_regrets.shape[0]):
        c = first_chunk + row
        state, sigmas, values, frame_node, frame_next = _chunk_start(
            d_regrets[row], d_strategy[row], seed, batch, chunks, c, max_actions)
        cards = np.arange(52)
        buckets = np.empty((2, 4), dtype=np.int64)
        scratch = np.empty(5, dtype=np.int64)
        share = iterations // chunks + (1 if c < iterations % chunks else 0)
        for _ in range(share):
            result = _holdem_deal(state, cards, tables, binomial, preflop, raw3, perm3, raw4,
                                  perm4, raw5, perm5, permutations, flop, turn, river, buckets,
                                  scratch)
            threshold = prune_below if _next(state) < prune_share else -np.inf
            for traverser in range(2):
                _traverse(traverser, kind, player, round_, child_start, child_count, children,
                          payoff0, offsets, regrets, d_regrets[row], d_strategy[row], buckets,
                          result, sigmas, values, frame_node, frame_next, state, threshold)



@helper
def strategy_at(offsets, policy, node, count, bucket, out):
    """The strategy's probabilities over `node`'s `count` children for `bucket` (uniform where
    the table holds nothing), normalised as `BlueprintStrategy.distribution` does."""
    start = offsets[node] + bucket * count
    total = 0.0
    for k in range(count):
        out[k] = policy[start + k]
        total += out[k]
    for k in range(count):
        out[k] = out[k] / total if total > 0.0 else 1.0 / count
