"""AIVAT on heads-up no-limit hold'em: `training.aivat`'s estimator for a player whose strategy
gambler knows, from the hands of an ACPC log (`score_hands`). This module holds the value
function, the terms and the kernel for a `bot.blueprint.Blueprint`; `training.aivat_profile` the
kernel for automaton profiles, exploiters and baselines, with the same terms.

For a blueprint, the known player's private state is its holding x and the abstract node its own translation
draws took it to (`training.lbr_blueprint`'s *branches*); the opponent's cards y are known (the
dealer's log shows every hole card). The weights w(x, branch) start uniform over the 1,225
holdings that y allows; each of the known player's actions multiplies them by the probability
that x, in that branch's node, takes the real action seen (the children that become it, as
`real_action` makes them); each opponent action moves the branches by the translation's split
(no correction: the known player's own draws are independent of everything else); each board
card rules out the holdings it meets. W(x) = sum over branches of w(x, branch).

The value function, for the known player with matched stake m = min(spent) and equity e(x) =
x's exact share of the pot against y over every completion of the board (`evaluator.matchups`:
the shipped table before the flop, enumeration after):

    u(x, s) = (2 e(x) - 1) m    while the hand goes on (what a check-down would pay),
    u(x, s) = the chips         at its end (a fold; a showdown is the same formula on the river).

The corrections (`training.aivat`'s rules), each with expectation zero given what the opponent
has seen:

* a board card (flop, turn, river, also those an all-in leaves to come): before =
  sum_x W(x) (2 e_prev(x) - 1) m / sum_x W(x), exact because e_prev(x) is the mean of e(x) over
  the cards that may come; then W drops the holdings the cards meet, and after = the same sum
  with the new equities;
* a decision of the known player with real action a*: before = sum_x sum_a M_a(x) u(x, s a) /
  sum_x W(x), with M_a(x) the mass of x that takes a (sum_a M_a = W); after = sum_x M_a*(x)
  u(x, s a*) / sum_x M_a*(x), and W becomes M_a*;
* at the end, base = sum_x W(x) chips(x) / sum_x W(x).

The estimate is base + the corrections: unbiased for the known player's chips whatever u is, and
close to them when u predicts them (`tests/test_aivat_holdem.py` checks that every correction
averages to zero over the actions and cards that could have come, and that the masses are the
Python bot's own probabilities).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import prange

from gambler.errors import GamblerError
from gambler.evaluator.holdings import HOLDINGS
from gambler.evaluator.matchups import matchup_counts
from gambler.jit import helper, njit
from gambler.solver.betting import DECISION
from gambler.training.engine import (CALL_CODE, ENDED, FOLD_CODE, FOLDED, HAND_STATE_SIZE,
                                     MAX_SPENT, RAISE_CODE, ROUND, SPENT, apply_action,
                                     player_to_act, start_hand)
from gambler.solver.cards import round_buckets
from gambler.solver.mccfr import strategy_at
from gambler.training.lbr_blueprint import MAX_BRANCHES, _translate_branches, real_action

#: Distinct real actions one decision may have across the branches (children clamp together).
MAX_REAL_ACTIONS = 32
#: Rows of a hand's term log: the board cards (at most 3 events) and the decisions.
TERM_CHANCE, TERM_DECISION = 0, 1
#: Status of one hand.
OK, OFF_STRATEGY, OVERFLOW, BAD_TRACE, UNFINISHED = 0, 1, 2, 3, 4


class AivatLogError(GamblerError, ValueError):
    """A log AIVAT cannot score: a hand the blueprint could not have played, a game it does not
    play, a player not in the log."""


@helper
def _street_equities(tables, holding_cards, other, board, visible, weights, count, equity):
    """equity[h]: holding h's exact equity against `other` on board[:visible] (3, 4 or 5 cards),
    for the holdings some branch still weighs (the others are left as they are)."""
    hole = np.empty(2, dtype=np.int64)
    shown = board[:visible]
    for h in range(holding_cards.shape[0]):
        live = False
        for k in range(count):
            if weights[k, h] > 0.0:
                live = True
                break
        if not live:
            continue
        hole[0] = holding_cards[h, 0]
        hole[1] = holding_cards[h, 1]
        wins, ties, losses = matchup_counts(tables, hole, other, shown)
        equity[h] = (wins + 0.5 * ties) / (wins + ties + losses)


@helper
def _mass(weights, count, h):
    total = 0.0
    for k in range(count):
        total += weights[k, h]
    return total


@helper
def _check_down_mean(weights, count, equity, stake):
    """(sum_x W(x) (2 e(x) - 1) stake, sum_x W(x))."""
    value = 0.0
    total = 0.0
    for h in range(weights.shape[1]):
        mass = _mass(weights, count, h)
        if mass > 0.0:
            value += mass * (2.0 * equity[h] - 1.0) * stake
            total += mass
    return value, total


@helper
def _record(terms, row, kind, before, after, mass_before, mass_after):
    if row < terms.shape[0]:
        terms[row, 0] = kind
        terms[row, 1] = before
        terms[row, 2] = after
        terms[row, 3] = mass_before
        terms[row, 4] = mass_after
    return row + 1


@helper
def _deal_rounds(rules, hand, known, tree_cards, holding_cards, tables, other, board, weights,
                 count, buckets, equity, scratch, dealt_round, terms, row, sums):
    """The board cards of every round past `dealt_round` up to the hand's round: one chance
    correction each (added to sums[0]); the new row count, or -1 if the known hand left W."""
    while dealt_round < hand[ROUND]:
        round_ = dealt_round + 1
        stake = min(hand[SPENT], hand[SPENT + 1])
        before, mass_before = _check_down_mean(weights, count, equity, stake)
        round_buckets(round_, board, holding_cards, tree_cards, buckets, scratch)
        for h in range(holding_cards.shape[0]):
            if buckets[h] < 0:
                for k in range(count):
                    weights[k, h] = 0.0
        _street_equities(tables, holding_cards, other, board, 2 + round_, weights, count,
                         equity)
        after, mass_after = _check_down_mean(weights, count, equity, stake)
        if mass_after <= 0.0:
            return -1
        before /= mass_before
        after /= mass_after
        sums[0] += before - after
        row = _record(terms, row, TERM_CHANCE, before, after, mass_before, mass_after)
        dealt_round = round_
    return row


@helper
def _after_value(rules, hand, known, code, amount, equity_h):
    """u(x, s a) for the known player's action (code, raise-to) at the hand's state."""
    other = 1 - known
    if code == FOLD_CODE:
        return -float(hand[SPENT + known])
    if code == CALL_CODE:
        spent = min(hand[MAX_SPENT], rules[3 + known])
    else:
        spent = amount
    return (2.0 * equity_h - 1.0) * min(spent, hand[SPENT + other])


@helper
def _blueprint_aivat(rules, known, tree, offsets, policy, tree_cards, holding_cards, tables,
                     known_hole, other_hole, board, trace, actions, preflop_equity, terms,
                     final_range, out):
    """One hand (module docstring): out = [chips, base, chance, decisions]; the status.
    `trace[:actions]` holds (player, code, raise-to) per action in order (a hand not yet
    finished is scored up to there: UNFINISHED; a `known_hole` of -1s scores the range alone,
    whatever the known player held); `terms` (float64[k, 5], may be empty) receives
    (kind, before, after, mass before, mass after) per correction, `final_range` (float64[1326]
    or empty) W at the end."""
    hand = np.empty(HAND_STATE_SIZE, dtype=np.int64)
    nodes = np.empty(MAX_BRANCHES, dtype=np.int64)
    weights = np.zeros((MAX_BRANCHES, HOLDINGS), dtype=np.float64)
    new_nodes = np.empty(MAX_BRANCHES, dtype=np.int64)
    new_weights = np.zeros((MAX_BRANCHES, HOLDINGS), dtype=np.float64)
    buckets = np.empty(HOLDINGS, dtype=np.int64)
    equity = preflop_equity.copy()
    max_children = tree[4].max()
    probabilities = np.empty(max_children, dtype=np.float64)
    real_code = np.empty(MAX_REAL_ACTIONS, dtype=np.int64)
    real_amount = np.empty(MAX_REAL_ACTIONS, dtype=np.int64)
    masses = np.zeros((MAX_REAL_ACTIONS, HOLDINGS), dtype=np.float64)
    child_real = np.empty((MAX_BRANCHES, max_children), dtype=np.int64)
    pair_child = np.empty(2, dtype=np.int64)
    pair_p = np.empty(2, dtype=np.float64)
    scratch = np.empty(5, dtype=np.int64)
    sums = np.zeros(2, dtype=np.float64)  # chance, decisions
    no_limit = rules[0] == 1
    start_hand(rules, hand)
    x = -1
    low, high = min(known_hole[0], known_hole[1]), max(known_hole[0], known_hole[1])
    for h in range(holding_cards.shape[0]):
        a, b = holding_cards[h, 0], holding_cards[h, 1]
        if a == low and b == high:
            x = h
        clash = a == other_hole[0] or a == other_hole[1] or b == other_hole[0] or \
            b == other_hole[1]
        weights[0, h] = 0.0 if clash else 1.0
    nodes[0] = 0
    count = 1
    round_buckets(0, board, holding_cards, tree_cards, buckets, scratch)
    dealt_round = 0
    row = 0
    for index in range(actions):
        player, code, amount = trace[index, 0], trace[index, 1], trace[index, 2]
        if hand[ENDED] != 0 or player != player_to_act(rules, hand):
            return BAD_TRACE
        if player == known:
            # every real action some (holding, branch) may take here, and its mass
            reals = 0
            for k in range(count):
                node = nodes[k]
                if node < 0 or tree[0][node] != DECISION:
                    child_real[k, 0] = -1
                    continue
                for c in range(tree[4][node]):
                    child_code, child_amount = real_action(tree, node, tree[5][tree[3][node] + c],
                                                           rules, hand, known)
                    found = -1
                    for r in range(reals):
                        if real_code[r] == child_code and real_amount[r] == child_amount:
                            found = r
                    if found < 0:
                        if reals == MAX_REAL_ACTIONS:
                            return OVERFLOW
                        found = reals
                        real_code[reals] = child_code
                        real_amount[reals] = child_amount
                        masses[reals, :] = 0.0
                        reals += 1
                    child_real[k, c] = found
            calls = -1  # off-tree branches check or call
            for k in range(count):
                if nodes[k] < 0 or tree[0][nodes[k]] != DECISION:
                    for r in range(reals):
                        if real_code[r] == CALL_CODE:
                            calls = r
                    if calls < 0:
                        if reals == MAX_REAL_ACTIONS:
                            return OVERFLOW
                        calls = reals
                        real_code[reals] = CALL_CODE
                        real_amount[reals] = 0
                        masses[reals, :] = 0.0
                        reals += 1
            for k in range(count):
                node = nodes[k]
                off_tree = node < 0 or tree[0][node] != DECISION
                n = 0 if off_tree else tree[4][node]
                for h in range(holding_cards.shape[0]):
                    mass = weights[k, h]
                    if mass <= 0.0:
                        continue
                    if off_tree:
                        masses[calls, h] += mass
                        continue
                    strategy_at(offsets, policy, node, n, buckets[h], probabilities)
                    for c in range(n):
                        masses[child_real[k, c], h] += mass * probabilities[c]
            seen = -1
            for r in range(reals):
                if real_code[r] == code and (code != RAISE_CODE or real_amount[r] == amount):
                    seen = r
            if seen < 0 or (x >= 0 and masses[seen, x] <= 0.0):
                return OFF_STRATEGY
            before = 0.0
            total = 0.0
            after = 0.0
            kept = 0.0
            for h in range(holding_cards.shape[0]):
                for r in range(reals):
                    mass = masses[r, h]
                    if mass > 0.0:
                        value = _after_value(rules, hand, known, real_code[r], real_amount[r],
                                             equity[h])
                        before += mass * value
                        total += mass
                        if r == seen:
                            after += mass * value
                            kept += mass
            before /= total
            after /= kept
            sums[1] += before - after
            row = _record(terms, row, TERM_DECISION, before, after, total, kept)
            # the weights become the mass of the action seen, branch by branch
            for k in range(count):
                node = nodes[k]
                if node < 0 or tree[0][node] != DECISION:
                    if code != CALL_CODE:
                        weights[k, :] = 0.0
                    continue
                n = tree[4][node]
                for h in range(holding_cards.shape[0]):
                    if weights[k, h] > 0.0:
                        strategy_at(offsets, policy, node, n, buckets[h], probabilities)
                        chance = 0.0
                        for c in range(n):
                            if child_real[k, c] == seen:
                                chance += probabilities[c]
                        weights[k, h] *= chance
        real_bet = hand[MAX_SPENT]
        stack = rules[3 + player]
        count = _translate_branches(tree, nodes, weights, count, new_nodes, new_weights, player,
                                    hand[ROUND], code, amount, real_bet, stack, no_limit,
                                    pair_child, pair_p)
        if count < 0:
            return OVERFLOW
        nodes[:count] = new_nodes[:count]
        weights[:count] = new_weights[:count]
        apply_action(rules, hand, player, code, amount)
        if hand[FOLDED] < 0:
            row = _deal_rounds(rules, hand, known, tree_cards, holding_cards, tables, other_hole,
                               board, weights, count, buckets, equity, scratch, dealt_round,
                               terms, row, sums)
            if row < 0:
                return OFF_STRATEGY
            dealt_round = hand[ROUND]
    if final_range.shape[0]:
        for h in range(holding_cards.shape[0]):
            final_range[h] = _mass(weights, count, h)
    if hand[ENDED] == 0:
        return UNFINISHED
    # the end: the chips of every holding the known player could hold
    base = 0.0
    total = 0.0
    chips = 0.0
    for h in range(holding_cards.shape[0]):
        mass = _mass(weights, count, h)
        if mass <= 0.0 and h != x:
            continue
        if hand[FOLDED] == known:
            value = -float(hand[SPENT + known])
        elif hand[FOLDED] == 1 - known:
            value = float(hand[SPENT + 1 - known])
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
def blueprint_aivat_hands(rules, known, tree, offsets, policy, tree_cards, holding_cards, tables,
                          holes, boards, traces, actions, preflop_equity, out, status):
    """`_blueprint_aivat` for every hand, on all cores: holes int64[n, 2, 2] by position, boards
    int64[n, 5], traces int64[n, k, 3], actions int64[n], known int64[n] (its position),
    preflop_equity float64[n, 1326]; out float64[n, 4], status int64[n]."""
    no_terms = np.empty((0, 5), dtype=np.float64)
    no_range = np.empty(0, dtype=np.float64)
    for i in prange(holes.shape[0]):
        status[i] = _blueprint_aivat(rules, known[i], tree, offsets, policy, tree_cards,
                                     holding_cards, tables, holes[i, known[i]],
                                     holes[i, 1 - known[i]], boards[i], traces[i], actions[i],
                                     preflop_equity[i], no_terms, no_range, out[i])


@njit
def blueprint_aivat_hand(rules, known, tree, offsets, policy, tree_cards, holding_cards, tables,
                         known_hole, other_hole, board, trace, actions, preflop_equity, terms,
                         final_range):
    """One hand with its corrections in `terms` and W at its end in `final_range`, for the
    tests: (status, [chips, base, chance, decisions], the rows of `terms` used)."""
    out = np.zeros(4, dtype=np.float64)
    status = _blueprint_aivat(rules, known, tree, offsets, policy, tree_cards, holding_cards,
                              tables, known_hole, other_hole, board, trace, actions,
                              preflop_equity, terms, final_range, out)
    rows = 0
    for r in range(terms.shape[0]):
        if terms[r, 3] > 0.0:
            rows = r + 1
    return status, out, rows


@dataclass(frozen=True)
class AivatScores:
    """Per hand of a log, for the known player: its chips and AIVAT's estimate of them."""

    name: str               # the known player, as the log names it
    chips: np.ndarray       # float64[n]: the chips it won
    estimates: np.ndarray   # float64[n]: base + chance + decision corrections
    chance: np.ndarray      # float64[n]: the board cards' corrections
    decisions: np.ndarray   # float64[n]: its own decisions' corrections


def _trace_of(hand) -> np.ndarray:
    """int64[k, 3]: (player, engine code, raise-to) of each action of a logged hand."""
    from gambler.protocol.betting import CALL, FOLD

    rows = []
    for round_actions, actors in zip(hand.betting.actions, hand.betting.actors):
        for action, actor in zip(round_actions, actors):
            code = FOLD_CODE if action.kind == FOLD else CALL_CODE if action.kind == CALL \
                else RAISE_CODE
            rows.append((actor, code, action.raise_to if code == RAISE_CODE else 0))
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def preflop_equities(other_hole) -> np.ndarray:
    """float64[1326]: each holding's exact equity before the flop against `other_hole` (0 for
    the holdings that meet it), from the shipped matchup table."""
    from gambler.evaluator.holdings import HOLDING_CARDS
    from gambler.evaluator.matchups import PREFLOP_BOARDS, preflop_counts

    cards = HOLDING_CARDS.astype(np.uint8)
    other = np.asarray(other_hole, dtype=np.uint8)
    clash = np.isin(cards, other).any(axis=1)
    holes_b = np.broadcast_to(other, cards.shape).copy()
    holes_a = cards.copy()
    holes_a[clash] = cards[~clash][0]  # any disjoint holding: its row is zeroed below
    counts = preflop_counts(holes_a, holes_b)
    equity = (counts[:, 0] + 0.5 * counts[:, 1]) / PREFLOP_BOARDS
    equity[clash] = 0.0
    return equity


def check_scorable(strategy) -> None:
    """`AivatLogError` for a strategy AIVAT cannot score: a portfolio or a switch (its strategy
    changes during a match), the random baseline (raise sizes from a continuum), a range-aware
    profile (not checked yet against the bot), a strategy the engine does not play."""
    from gambler.bot.blueprint import Blueprint
    from gambler.training.engine import RANDOM, EngineError, encode_strategy, is_range_aware

    from gambler.bot.resolve import Resolve

    if isinstance(strategy, Blueprint):
        return
    if isinstance(strategy, Resolve):
        raise AivatLogError("AIVAT does not score a re-solving bot (kind: resolve) yet: its "
                            "river strategy comes from a solve per decision")
    try:
        kind, params = encode_strategy(strategy)
    except EngineError:
        raise AivatLogError("AIVAT scores a fixed strategy (a blueprint, a profile, an "
                            "exploiter, a baseline); a portfolio or a switch changes its own "
                            "during a match") from None
    if kind == RANDOM:
        raise AivatLogError("AIVAT does not score the random baseline (its raise sizes are "
                            "drawn from a continuum)")
    if is_range_aware(kind, np.asarray(params, dtype=np.float64)):
        raise AivatLogError("AIVAT does not score range-aware profiles (narrow < 1) yet")


def _completed(board, holes) -> list[int]:
    """The board with the cards a hand that ended early did not show filled in by the lowest
    cards nobody holds (the kernels never read them)."""
    used = set(board) | set(holes[0]) | set(holes[1])
    return [*board, *[card for card in range(52) if card not in used]][:5]


def score_hands(strategy, hands, name: str, chunk: int = 256) -> AivatScores:
    """AIVAT for player `name` of `hands` (finished `LoggedHand`s with both hole cards), who
    played `strategy`: a `bot.blueprint.Blueprint`, or a profile, exploiter or baseline of the
    engine's kinds but `random` (`training.aivat_profile`); `AivatLogError` for a hand it cannot
    score, named by its place, or a strategy it cannot."""
    from gambler.bot.blueprint import Blueprint
    from gambler.evaluator.tables import load_tables
    from gambler.training.engine import encode_rules
    from gambler.training.lbr import lbr_tables

    if not hands:
        raise AivatLogError("AIVAT needs at least one hand")
    game = hands[0].betting.game
    if not (game.no_limit and game.num_players == 2 and game.num_rounds == 4):
        raise AivatLogError(f"{hands[0].where}: AIVAT scores heads-up no-limit hold'em logs")
    check_scorable(strategy)
    rules = encode_rules(game)
    tables = load_tables()
    lookups = lbr_tables()
    if isinstance(strategy, Blueprint):
        kernel, source = _blueprint_kernel(strategy, game, rules, tables, lookups)
    else:
        kernel, source = _profile_kernel(strategy, rules, tables, lookups)
    count = len(hands)
    out = np.zeros((count, 4), dtype=np.float64)
    for start in range(0, count, chunk):
        part = hands[start:start + chunk]
        size = len(part)
        known = np.empty(size, dtype=np.int64)
        holes = np.empty((size, 2, 2), dtype=np.int64)
        boards = np.full((size, 5), -1, dtype=np.int64)
        traces_list = [_trace_of(hand) for hand in part]
        longest = max(trace.shape[0] for trace in traces_list)
        traces = np.zeros((size, longest, 3), dtype=np.int64)
        actions = np.empty(size, dtype=np.int64)
        preflop = np.empty((size, HOLDINGS), dtype=np.float64)
        for i, hand in enumerate(part):
            where = hand.where or f"hand {hand.hand}"
            if name not in hand.names:
                raise AivatLogError(f"{where}: no player {name!r} (players: "
                                    f"{', '.join(hand.names)})")
            known[i] = hand.names.index(name)
            if any(len(cards_) != 2 for cards_ in hand.hole_cards):
                raise AivatLogError(f"{where}: a hole card is missing; AIVAT needs both hands "
                                    "(the dealer's log shows them)")
            holes[i] = hand.hole_cards
            boards[i] = _completed(hand.board, hand.hole_cards)
            traces[i, :traces_list[i].shape[0]] = traces_list[i]
            actions[i] = traces_list[i].shape[0]
            preflop[i] = preflop_equities(hand.hole_cards[1 - known[i]])
        status = np.zeros(size, dtype=np.int64)
        kernel(known, holes, boards, traces, actions, preflop, out[start:start + size], status)
        for i in np.flatnonzero(status):
            hand = part[i]
            where = hand.where or f"hand {hand.hand}"
            reason = {OFF_STRATEGY: f"{name} took an action {source} never takes with its "
                                    "cards: the log is not this strategy's",
                      OVERFLOW: "more translation branches or distinct actions than the kernel "
                                "holds (a bug: report it)",
                      BAD_TRACE: "the actions do not follow the game's turn order",
                      UNFINISHED: "the hand is not finished"}
            raise AivatLogError(f"{where}: {reason[int(status[i])]}")
        for i, hand in enumerate(part):
            logged = hand.values[known[i]]
            if abs(out[start + i, 0] - logged) > 1e-9:
                where = hand.where or f"hand {hand.hand}"
                raise AivatLogError(f"{where}: {name} won {logged:g} by the log, "
                                    f"{out[start + i, 0]:g} by the cards")
    estimates = out[:, 1] + out[:, 2] + out[:, 3]
    return AivatScores(name, out[:, 0].copy(), estimates, out[:, 2].copy(), out[:, 3].copy())


def _blueprint_kernel(blueprint, game, rules, tables, lookups):
    from gambler.training.lbr_blueprint import BlueprintLbrError, blueprint_arrays

    if blueprint.game.tree.game.stacks != game.stacks or \
            blueprint.game.tree.game.blinds != game.blinds:
        raise AivatLogError(f"{blueprint.source}: solved for other stacks or blinds than the log")
    try:
        tree, offsets, policy, cards = blueprint_arrays(blueprint)
    except BlueprintLbrError as error:
        raise AivatLogError(str(error)) from None

    def kernel(known, holes, boards, traces, actions, preflop, out, status):
        blueprint_aivat_hands(rules, known, tree, offsets, policy, cards, lookups.holding_cards,
                              tables, holes, boards, traces, actions, preflop, out, status)
    return kernel, blueprint.source


def _profile_kernel(strategy, rules, tables, lookups):
    from gambler.evaluator.holdings import every_holding_rates
    from gambler.training.aivat_profile import profile_aivat_hands
    from gambler.training.engine import encode_strategy

    kind, params = encode_strategy(strategy)
    params = np.asarray(params, dtype=np.float64)

    def kernel(known, holes, boards, traces, actions, preflop, out, status):
        holding_v = np.zeros((boards.shape[0], 3, HOLDINGS), dtype=np.float64)
        every_holding_rates(tables, boards.astype(np.uint8), holding_v)
        profile_aivat_hands(rules, known, kind, params, tables, lookups, holding_v, holes,
                            boards, traces, actions, preflop, out, status)
    return kernel, getattr(strategy, "name", None) or "the profile"
