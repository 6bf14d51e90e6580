"""Local best response against a blueprint (`bot.blueprint`): `run_lbr` for `kind: blueprint`.

The LBR of `training.lbr` (its module docstring has the rules: one step of look-ahead, check-down
equities, the action sets and the tie order), with the bot's range computed from its strategy
table instead of its rules. A blueprint mixes: holding h in abstract node n with bucket b(h)
takes child c with probability sigma[n, b(h), c]. So the bot's range is a weight per holding,
the product over its actions so far of the probability that h, in the node of that moment, took
the real action seen (summed over the children that give that real action, as the bot's
`_real_action` makes them; a clamped pot raise and an all-in can coincide).

Real raises reach the abstract tree through the pseudo-harmonic translation, which draws between
two abstract sizes. The bot's draws are its own dice: LBR knows their probabilities, not their
outcomes. So LBR's belief is a mixture of *branches*, each an abstract node with a weight per
holding: a translation that may go two ways splits every branch into two, with the weights
times the two probabilities, and branches that reach the same node merge (the node is the
abstract history; the strategy from there on depends on nothing else). A branch that left the
tree (a raise past the abstraction's cap) is the node -1, where the bot checks or calls. The hand
itself is played as the bot plays it: one translation drawn, its action drawn from its own bucket
(the same draws as the TCP bot, `bot.blueprint.draw`, for hand number 2 x deal + LBR's seat).

LBR's value of a raise weighs every branch's answer: fold share = sum over branches and their
translations of the raise of p x w(h) x sigma[n', b(h), fold] / sum of w(h); its equity against
the rest as in `training.lbr`. The answer is the bot's first action after the raise: fold is the
only child that folds.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from gambler.evaluator.holdings import HOLDINGS
from gambler.errors import GamblerError
from gambler.evaluator.rng import GOLDEN_GAMMA, mix64, stream_seed
from gambler.jit import helper, njit
from gambler.solver.betting import ACTION_CODES, DECISION
from gambler.solver.cards import round_buckets
from gambler.solver.mccfr import sampled_action, strategy_at
from gambler.protocol.betting import CALL, FOLD, RAISE
from gambler.training.engine import (CALL_CODE, ENDED, FOLD_CODE, HAND_STATE_SIZE, MAX_SPENT,
                                     RAISE_CODE, ROUND, SPENT, adjusted_payoff_of, apply_action,
                                     payoff_of, player_to_act, raise_range, start_hand)
from gambler.training.lbr import (CALL_BIT, RAISE_SIZES, _equities, call_or_fold,
                                  raise_payoff, raise_size_target)
from gambler.training.range_rows import CHANCE, MIXED, PLAIN, WEIGHT

ABSTRACT_FOLD, ABSTRACT_CALL, ABSTRACT_RAISE = ACTION_CODES[FOLD], ACTION_CODES[CALL], \
    ACTION_CODES[RAISE]
#: Branches LBR's belief may hold at once; `run_lbr` refuses a result that needed more.
MAX_BRANCHES = 64
#: The blueprint's two streams (`bot.blueprint`), as unsigned words.
ACTION_STREAM = np.uint64(0x626C75657072696E)
TRANSLATE_STREAM = np.uint64(0x7472616E736C6174)


@helper
def blueprint_uniform(seed, salt, hand, index):
    """`bot.blueprint.draw`: a uniform draw in [0, 1) for (hand, index) of one stream."""
    state = stream_seed(np.uint64(seed) ^ salt, np.uint64(hand) * np.uint64(4096)
                        + np.uint64(index)) + GOLDEN_GAMMA
    return (mix64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@helper
def _pot_fraction(spent_to, bet):
    """`bot.blueprint._pot_fraction`: a raise to `spent_to` as a fraction of the pot after
    calling `bet`."""
    if bet > 0:
        return (spent_to - bet) / (2.0 * bet)
    return float(spent_to)


@helper
def translations(tree, node, actor, round_, code, amount, real_bet, stack, no_limit, out_child,
                 out_p):
    """Where a real action (engine code, raise-to `amount`; `real_bet` the largest total before
    it) by `actor` in `round_` takes the abstract node `node`, as `BlueprintStrategy.
    abstract_node` walks it: up to two (child, probability) pairs in `out_child`, `out_p`, their
    number returned. A child -1 means off the tree (from then on the bot checks or calls)."""
    kind, player, round_of, child_start, child_count, children, action_kind, action_to, \
        spent0, spent1 = tree
    out_p[0] = 1.0
    out_child[0] = -1
    if node < 0 or kind[node] != DECISION or round_of[node] != round_ or player[node] != actor:
        return 1
    first = child_start[node]
    count = child_count[node]
    if code != RAISE_CODE:
        wanted = ABSTRACT_FOLD if code == FOLD_CODE else ABSTRACT_CALL
        for k in range(count):
            if action_kind[children[first + k]] == wanted:
                out_child[0] = children[first + k]
        return 1
    raises = 0
    first_raise = -1
    for k in range(count):
        if action_kind[children[first + k]] == ABSTRACT_RAISE:
            raises += 1
            if first_raise < 0:
                first_raise = k
    if raises == 0:
        return 1
    if not no_limit:
        out_child[0] = children[first + first_raise]
        return 1
    abstract_bet = max(spent0[node], spent1[node])
    if amount >= stack:
        for k in range(first_raise, count):
            child = children[first + k]
            if action_to[child] >= stack:
                out_child[0] = child
                return 1
    size = _pot_fraction(amount, real_bet)
    last = children[first + count - 1]
    smallest = children[first + first_raise]
    if size <= _pot_fraction(action_to[smallest], abstract_bet):
        out_child[0] = smallest
        return 1
    if size >= _pot_fraction(action_to[last], abstract_bet):
        out_child[0] = last
        return 1
    for k in range(first_raise, count - 1):
        lower = children[first + k]
        upper = children[first + k + 1]
        a = _pot_fraction(action_to[lower], abstract_bet)
        b = _pot_fraction(action_to[upper], abstract_bet)
        if a <= size <= b:
            keep = 1.0 if b <= a else ((b - size) * (1 + a)) / ((b - a) * (1 + size))
            out_child[0] = lower
            if keep >= 1.0:
                return 1
            if keep <= 0.0:
                out_child[0] = upper
                return 1
            out_p[0] = keep
            out_child[1] = upper
            out_p[1] = 1.0 - keep
            return 2
    out_child[0] = last
    return 1


@helper
def real_action(tree, node, child, rules, hand, player):
    """`BlueprintStrategy._real_action`: the engine's (code, raise-to) for abstract `child` of
    `node` in the real hand: fold (a check when nothing is owed), call, or a raise of the same
    pot fraction of the real pot, clamped to the legal range (all-in stays all-in)."""
    action_kind, action_to, spent0, spent1 = tree[6], tree[7], tree[8], tree[9]
    code = action_kind[child]
    owed = hand[MAX_SPENT] > hand[SPENT + player]
    if code == ABSTRACT_FOLD:
        return (FOLD_CODE, 0) if owed else (CALL_CODE, 0)
    low, high = raise_range(rules, hand, player)
    if code == ABSTRACT_CALL or low < 0:
        return CALL_CODE, 0
    stack = rules[3 + player]
    if rules[0] != 1:
        return RAISE_CODE, low
    if action_to[child] >= stack:
        return RAISE_CODE, high
    size = _pot_fraction(action_to[child], max(spent0[node], spent1[node]))
    max_spent = hand[MAX_SPENT]
    wanted = np.int64(np.rint(max_spent + size * 2 * max_spent))
    return RAISE_CODE, min(max(wanted, low), high)


@helper
def _merge_into(nodes, weights, count, node, source, scale):
    """Add `scale` x `source` to the branch at `node` (a new one if none); the new count, or -1
    when the branches are full."""
    for k in range(count):
        if nodes[k] == node:
            for h in range(source.shape[0]):
                weights[k, h] += scale * source[h]
            return count
    if count == nodes.shape[0]:
        return -1
    nodes[count] = node
    for h in range(source.shape[0]):
        weights[count, h] = scale * source[h]
    return count + 1


@helper
def _translate_branches(tree, nodes, weights, count, new_nodes, new_weights, actor, round_, code,
                        amount, real_bet, stack, no_limit, pair_child, pair_p):
    """Every branch moved by one real action (split by the translation's draw, merged by node)
    into `new_nodes`/`new_weights`; the new count (-1: too many branches)."""
    made = 0
    for k in range(count):
        ways = translations(tree, nodes[k], actor, round_, code, amount, real_bet, stack,
                            no_limit, pair_child, pair_p)
        for w in range(ways):
            made = _merge_into(new_nodes, new_weights, made, pair_child[w], weights[k], pair_p[w])
            if made < 0:
                return -1
    return made


@helper
def _bot_answer_fold(tree, offsets, policy, child, buckets, weights, equity, probabilities,
                     scale, sums):
    """Add one translated branch's answer to a raise into sums = [total mass, folded mass,
    continuing mass x equity] (`scale`: the translation's probability)."""
    kind, player, round_of, child_start, child_count, children, action_kind = \
        tree[0], tree[1], tree[2], tree[3], tree[4], tree[5], tree[6]
    fold_at = -1
    count = 0
    if child >= 0 and kind[child] == DECISION:
        count = child_count[child]
        for k in range(count):
            if action_kind[children[child_start[child] + k]] == ABSTRACT_FOLD:
                fold_at = k
    for h in range(weights.shape[0]):
        mass = scale * weights[h]
        if mass <= 0.0:
            continue
        folded = 0.0
        if fold_at >= 0:
            strategy_at(offsets, policy, child, count, buckets[h], probabilities)
            folded = mass * probabilities[fold_at]
        sums[0] += mass
        sums[1] += folded
        sums[2] += (mass - folded) * equity[h]


@helper
def _blueprint_lbr_play(rules, lbr, tree, offsets, policy, cards, holding_cards, hole, bot_hole,
                        board, hand_number, seed, tables, lbr_tables, action_sets, line, work,
                        trace, ranges):
    """One hand of LBR at position `lbr` against the blueprint (module docstring); the final
    state is left in work[0]. `line` as in `training.lbr._lbr_play`; `trace` (int64[k, 4], may
    be empty) receives (round, player, code, raise-to) per action, `ranges` (float64[k, 1326],
    may be empty) the bot's range (unnormalised) at each of LBR's decisions, for the tests.
    Returns False if the branches overflowed (the result is then unusable)."""
    hand, nodes, weights, new_nodes, new_weights, buckets, equity, range_, probabilities, \
        pair_child, pair_p, sums, scratch = work
    bot = 1 - lbr
    no_limit = rules[0] == 1
    start_hand(rules, hand)
    line[:] = -1
    awaiting_answer = False
    # one branch at the root, every holding LBR's cards allow
    count = 1
    nodes[0] = 0
    for h in range(holding_cards.shape[0]):
        a = holding_cards[h, 0]
        b = holding_cards[h, 1]
        clash = a == hole[0] or a == hole[1] or b == hole[0] or b == hole[1]
        weights[0, h] = 0.0 if clash else 1.0
    actual = 0  # the bot's own abstract node, by its own draws
    bot_index = 0
    low_card = min(bot_hole[0], bot_hole[1])
    high_card = max(bot_hole[0], bot_hole[1])
    for h in range(holding_cards.shape[0]):
        if holding_cards[h, 0] == low_card and holding_cards[h, 1] == high_card:
            bot_index = h
    dealt_round = -1
    equity_round = -1
    index = 0  # actions so far in the hand
    decisions = 0
    while hand[ENDED] == 0:
        round_ = hand[ROUND]
        if round_ != dealt_round:
            round_buckets(round_, board, holding_cards, cards, buckets, scratch)
            for k in range(count):
                for h in range(holding_cards.shape[0]):
                    if buckets[h] < 0:
                        weights[k, h] = 0.0
            dealt_round = round_
        player = player_to_act(rules, hand)
        if player == bot:
            if actual < 0 or tree[0][actual] != DECISION:
                code, amount = CALL_CODE, 0
            else:
                n = tree[4][actual]
                strategy_at(offsets, policy, actual, n, buckets[bot_index], probabilities)
                u = blueprint_uniform(seed, ACTION_STREAM, hand_number, index)
                pick = sampled_action(probabilities, n, u)
                code, amount = real_action(tree, actual, tree[5][tree[3][actual] + pick], rules,
                                           hand, bot)
            # LBR's belief: each branch's holdings weighed by the chance of this real action
            for k in range(count):
                node = nodes[k]
                if node < 0 or tree[0][node] != DECISION:
                    if code != CALL_CODE:
                        for h in range(holding_cards.shape[0]):
                            weights[k, h] = 0.0
                    continue
                n = tree[4][node]
                matches = 0
                for c in range(n):
                    child_code, child_amount = real_action(tree, node, tree[5][tree[3][node] + c],
                                                           rules, hand, bot)
                    if child_code == code and child_amount == amount:
                        matches |= 1 << c
                for h in range(holding_cards.shape[0]):
                    if weights[k, h] > 0.0:
                        strategy_at(offsets, policy, node, n, buckets[h], probabilities)
                        chance = 0.0
                        for c in range(n):
                            if (matches >> c) & 1:
                                chance += probabilities[c]
                        weights[k, h] *= chance
            if awaiting_answer:
                line[3] = code
                awaiting_answer = False
        elif action_sets[round_] == CALL_BIT:
            code, amount = CALL_CODE, 0
        else:
            for h in range(holding_cards.shape[0]):
                total = 0.0
                for k in range(count):
                    total += weights[k, h]
                range_[WEIGHT, h] = total
                range_[CHANCE, h] = 0.0
                range_[PLAIN, h] = 1.0
                range_[MIXED, h] = 0.0
            if decisions < ranges.shape[0]:
                ranges[decisions, :] = range_[WEIGHT]
            decisions += 1
            if equity_round != round_:
                visible = 0 if round_ == 0 else 2 + round_
                _equities(tables, lbr_tables, hole, board, visible, range_, equity)
                equity_round = round_
            code, amount = _decision(rules, lbr, tree, offsets, policy, action_sets[round_], hand,
                                     nodes, weights, count, buckets, equity, range_,
                                     probabilities, pair_child, pair_p, sums)
            if code == RAISE_CODE and line[0] < 0:
                line[0] = round_
                line[1] = 1 if hand[SPENT + lbr] < hand[MAX_SPENT] else 0
                line[2] = 1 if amount == rules[3 + lbr] else 0
                awaiting_answer = True
        # both the belief and the bot's own node follow the real action
        real_bet = hand[MAX_SPENT]
        stack = rules[3 + player]
        count = _translate_branches(tree, nodes, weights, count, new_nodes, new_weights, player,
                                    round_, code, amount, real_bet, stack, no_limit, pair_child,
                                    pair_p)
        if count < 0:
            return False
        nodes[:count] = new_nodes[:count]
        weights[:count] = new_weights[:count]
        ways = translations(tree, actual, player, round_, code, amount, real_bet, stack, no_limit,
                            pair_child, pair_p)
        actual = pair_child[0]
        if ways == 2 and blueprint_uniform(seed, TRANSLATE_STREAM, hand_number,
                                           index) >= pair_p[0]:
            actual = pair_child[1]
        if index < trace.shape[0]:
            trace[index, 0] = round_
            trace[index, 1] = player
            trace[index, 2] = code
            trace[index, 3] = amount
        apply_action(rules, hand, player, code, amount)
        index += 1
    return True


@helper
def _decision(rules, lbr, tree, offsets, policy, actions, hand, nodes, weights, count, buckets,
              equity, range_, probabilities, pair_child, pair_p, sums):
    """LBR's (code, raise-to): `training.lbr._lbr_decision` with the branches' answers."""
    bet = hand[MAX_SPENT]
    to_call = bet - hand[SPENT + lbr]
    pot = hand[SPENT] + hand[SPENT + 1]
    wp, best_code, best_value = call_or_fold(range_, equity, pot, to_call, actions)
    if wp < 0.0:  # cannot happen: the bot's own holding keeps its weight; stay legal
        return CALL_CODE, 0
    best_amount = 0
    low, high = raise_range(rules, hand, lbr)
    if low < 0:
        return best_code, best_amount
    round_ = hand[ROUND]
    stack = rules[3 + lbr]
    previous = -1
    for size_bit, numerator, denominator in RAISE_SIZES:
        if not actions & size_bit:
            continue
        target = raise_size_target(size_bit, numerator, denominator, bet, pot, to_call, low, high)
        if target == previous:
            continue
        previous = target
        sums[:] = 0.0
        for k in range(count):
            ways = translations(tree, nodes[k], lbr, round_, RAISE_CODE, target, bet, stack,
                                rules[0] == 1, pair_child, pair_p)
            for w in range(ways):
                _bot_answer_fold(tree, offsets, policy, pair_child[w], buckets, weights[k],
                                 equity, probabilities, pair_p[w], sums)
        fold_share = sums[1] / sums[0] if sums[0] > 0.0 else 0.0
        continuing = sums[0] - sums[1]
        continuing_equity = sums[2] / continuing if continuing > 0.0 else 0.0
        value = raise_payoff(fold_share, continuing_equity, pot, to_call, target - bet)
        if value > best_value:
            best_code = RAISE_CODE
            best_amount = target
            best_value = value
    return best_code, best_amount


@helper
def _new_work(max_actions):
    return (np.empty(HAND_STATE_SIZE, dtype=np.int64),
            np.empty(MAX_BRANCHES, dtype=np.int64),
            np.zeros((MAX_BRANCHES, HOLDINGS), dtype=np.float64),
            np.empty(MAX_BRANCHES, dtype=np.int64),
            np.zeros((MAX_BRANCHES, HOLDINGS), dtype=np.float64),
            np.empty(HOLDINGS, dtype=np.int64), np.zeros(HOLDINGS, dtype=np.float64),
            np.zeros((4, HOLDINGS), dtype=np.float64), np.empty(max_actions, dtype=np.float64),
            np.empty(2, dtype=np.int64), np.empty(2, dtype=np.float64),
            np.zeros(3, dtype=np.float64), np.empty(5, dtype=np.int64))


@njit(parallel=True)
def blueprint_lbr_deals(rules, tree, offsets, policy, cards, holes, boards, outcomes,
                        allin_equity, seed, first_deal, tables, lbr_tables, action_sets, results,
                        adjusted, lines, overflow):
    """LBR against the blueprint on every deal, in both seats: `results[i] = (LBR's chips at
    position 0, at position 1)` for deal `first_deal + i`, all-in adjusted in `adjusted`, LBR's
    first bet or raise in `lines[i, seat]`; overflow[i] = 1 where the branches ran out."""
    max_actions = tree[4].max()
    for i in prange(holes.shape[0]):
        work = _new_work(max_actions)
        no_trace = np.empty((0, 4), dtype=np.int64)
        no_ranges = np.empty((0, HOLDINGS), dtype=np.float64)
        for lbr in range(2):
            hand_number = 2 * (first_deal + i) + lbr
            ok = _blueprint_lbr_play(rules, lbr, tree, offsets, policy, cards,
                                     lbr_tables.holding_cards, holes[i, lbr].astype(np.int64),
                                     holes[i, 1 - lbr].astype(np.int64),
                                     boards[i].astype(np.int64), hand_number, seed, tables,
                                     lbr_tables, action_sets, lines[i, lbr], work, no_trace,
                                     no_ranges)
            if not ok:
                overflow[i] = 1
            sign = 1 if lbr == 0 else -1
            results[i, lbr] = sign * payoff_of(work[0], outcomes[i])
            adjusted[i, lbr] = sign * adjusted_payoff_of(work[0], outcomes[i], allin_equity[i])


@njit
def blueprint_lbr_hand(rules, lbr, tree, offsets, policy, cards, hole, bot_hole, board,
                       hand_number, seed, tables, lbr_tables, action_sets, trace, ranges):
    """One LBR hand (`_blueprint_lbr_play`), for the tests: (whether the branches sufficed,
    position 0's chips were its hand the better at showdown), with the actions in `trace` and
    the bot's range at LBR's decisions in `ranges`."""
    work = _new_work(tree[4].max())
    line = np.empty(4, dtype=np.int64)
    ok = _blueprint_lbr_play(rules, lbr, tree, offsets, policy, cards, lbr_tables.holding_cards,
                             hole, bot_hole, board, hand_number, seed, tables, lbr_tables,
                             action_sets, line, work, trace, ranges)
    return ok, payoff_of(work[0], 1)


def blueprint_arrays(blueprint) -> tuple:
    """(tree, offsets, policy, cards): a hold'em blueprint's arrays as the kernels read them;
    `BlueprintLbrError` for a blueprint LBR cannot play (no hold'em card abstraction)."""
    game = blueprint.game
    if game.cards is None:
        raise BlueprintLbrError(f"{blueprint.source}: LBR plays blueprints of heads-up hold'em "
                                "with a card abstraction (`cards: {flop, turn, river}`); this one "
                                f"has {game.deals.kind} deals")
    tree = game.tree
    cards = game.card_arrays()[1:]  # without the hand tables
    return ((tree.kind, tree.player, tree.round, tree.child_start, tree.child_count,
             tree.children, tree.action_kind, tree.action_to, tree.spent0, tree.spent1),
            game.offsets, blueprint.policy, cards)


class BlueprintLbrError(GamblerError, ValueError):
    """A blueprint LBR cannot measure."""


def run_blueprint_lbr(blueprint, game, hands: int, seed: int, action_sets: np.ndarray,
                      threads: int | None = None, progress=None):
    """`training.lbr.run_lbr` for a `bot.blueprint.Blueprint` (its arguments; the deals are the
    same duplicate deals of `seed`)."""
    import numba

    from gambler.evaluator.tables import load_tables
    from gambler.training.deals import HOLDINGS_CHUNK, cached_deal_set
    from gambler.training.engine import encode_rules
    from gambler.training.lbr import LbrResult, lbr_tables

    if not game.is_heads_up_holdem:
        raise BlueprintLbrError("LBR against a blueprint plays heads-up hold'em")
    tree, offsets, policy, cards = blueprint_arrays(blueprint)
    if blueprint.game.tree.game.stacks != game.stacks or \
            blueprint.game.tree.game.blinds != game.blinds:
        raise BlueprintLbrError(f"{blueprint.source}: solved for other stacks or blinds than "
                                f"{game.source}")
    count = (hands + 1) // 2
    deals, _ = cached_deal_set(seed, 0, count)
    rules = encode_rules(game)
    tables = load_tables()
    lookups = lbr_tables()
    chips = np.zeros((count, 2), dtype=np.int64)
    adjusted = np.zeros((count, 2), dtype=np.float64)
    lines = np.zeros((count, 2, 4), dtype=np.int64)
    overflow = np.zeros(count, dtype=np.int64)
    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    try:
        for start in range(0, count, HOLDINGS_CHUNK):
            stop = min(count, start + HOLDINGS_CHUNK)
            blueprint_lbr_deals(rules, tree, offsets, policy, cards, deals.holes[start:stop],
                                deals.boards[start:stop], deals.outcomes[start:stop],
                                deals.allin_equity[start:stop], seed, start, tables, lookups,
                                action_sets, chips[start:stop], adjusted[start:stop],
                                lines[start:stop], overflow[start:stop])
            if progress is not None:
                progress(stop - start)
    finally:
        numba.set_num_threads(previous_threads)
    if overflow.any():
        raise BlueprintLbrError(f"LBR's belief needed more than {MAX_BRANCHES} branches on "
                                f"{int(overflow.sum())} deals (a bug: report it)")
    return LbrResult(chips, adjusted, game.big_blind, lines)
