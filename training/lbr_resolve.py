"""Local best response on the river against a re-solving bot (`bot.resolve`).

LBR's rules are `training.lbr`'s (its docstring: one step of look-ahead, check-down equities,
the values of fold, call and each raise, the tie order: call, then fold, then the smaller
raise), in the settings that act on the river only: LBR checks or calls on the first three
streets (`C,C,C,<set>`), so before the river the bot's blueprint meets only calls and checks.
Those map to themselves on the abstract tree, so LBR's belief about the bot is exact there: the
bot's range at the river's start is `bot.resolve.blueprint_ranges` for its seat, with LBR's own
cards removed.

On the river the bot's strategy for its whole range comes from its solves:

* at each of the bot's river decisions, its solve (`ResolveStrategy.river_policy`) gives every
  holding's probabilities; the bot's range is multiplied by the probability of the action it
  took (summed over the children that give that real action);
* to value a raise, LBR asks the bot's solve at the state after the raise (the raise enters the
  subgame's tree as itself): the fold share is the range's mass times each holding's fold
  probability, and the continuing range is the rest.

This plays the Python bot itself, one solve per question, so it costs about a second a river
decision of LBR's at 200 iterations: thousands of hands, not LBR's usual tens of thousands. The
same code with the blueprint answering on the river (`BlueprintRiver`) is LBR against the
blueprint, chip for chip the kernel's of `training.lbr_blueprint` (a test).
"""

from __future__ import annotations

import numpy as np

from gambler.evaluator.holdings import HOLDING_CARDS, HOLDINGS, holding_index
from gambler.protocol.betting import CALL_ACTION, FOLD, FOLD_ACTION, BettingState, raise_to
from gambler.protocol.matchstate import MatchState
from gambler.training.lbr import (CALL_BIT, FOLD_BIT, RAISE_SIZES, parse_action_sets,
                                  raise_payoff, raise_size_target)

RIVER = 3


def river_equities(lbr_hole, board) -> np.ndarray:
    """float64[1326]: LBR's showdown share (1 win, 1/2 tie, 0 loss) against each holding on the
    five-card `board` (0 for the holdings that meet LBR's cards or the board)."""
    from gambler.evaluator.tables import load_tables
    from gambler.solver.subgame import river_strengths

    strength = np.empty(HOLDINGS, dtype=np.int64)
    river_strengths(load_tables(), HOLDING_CARDS.astype(np.int64),
                    np.asarray(board, dtype=np.int64), strength)
    own = strength[holding_index(*lbr_hole)]
    equity = np.where(strength < own, 1.0, np.where(strength == own, 0.5, 0.0))
    equity[strength < 0] = 0.0
    return equity


def _removed(lbr_hole) -> np.ndarray:
    return ~np.isin(HOLDING_CARDS, np.asarray(lbr_hole)).any(axis=1)


def _taken(actions, probabilities, action) -> np.ndarray:
    """Each holding's chance of the real `action` (summed over the children that give it)."""
    share = np.zeros(probabilities.shape[0])
    for k, candidate in enumerate(actions):
        if candidate == action:
            share += probabilities[:, k]
    return share


def lbr_river_decision(bot, betting: BettingState, state_for_bot, lbr: int, action_set: int,
                       range_, equity):
    """LBR's action on the river (`training.lbr`'s step 3 and 4) against `range_`."""
    bet = betting.max_spent
    to_call = bet - betting.spent[lbr]
    pot = sum(betting.spent)
    total = range_.sum()
    if total <= 0.0:
        return CALL_ACTION
    wp = float((range_ * equity).sum() / total)
    best_value = wp * pot - (1.0 - wp) * to_call
    best = CALL_ACTION
    if action_set & FOLD_BIT and to_call > 0 and best_value < 0.0:
        best, best_value = FOLD_ACTION, 0.0
    legal = betting.legal_actions()
    if not legal.can_raise:
        return best
    previous = -1
    for size_bit, numerator, denominator in RAISE_SIZES:
        if not action_set & size_bit:
            continue
        target = raise_size_target(size_bit, numerator, denominator, bet, pot, to_call,
                                   legal.min_raise_to, legal.max_raise_to)
        if target == previous:
            continue
        previous = target
        after = betting.apply(raise_to(int(target)))
        actions, probabilities = bot.river_policy(state_for_bot(after))
        folds = np.zeros(HOLDINGS)
        for k, candidate in enumerate(actions):
            if candidate.kind == FOLD:
                folds += probabilities[:, k]
        folded = float((range_ * folds).sum())
        continuing = range_ * (1.0 - folds)
        mass = float(continuing.sum())
        fold_share = folded / total
        continuing_equity = float((continuing * equity).sum() / mass) if mass > 0.0 else 0.0
        value = raise_payoff(fold_share, continuing_equity, pot, to_call, target - bet)
        if value > best_value:
            best, best_value = raise_to(int(target)), value
    return best


def lbr_hand(bot, game, lbr: int, holes, board, hand_number: int, river_set: int):
    """One hand of LBR (seat `lbr`) against `bot` (a `ResolveStrategy`, or anything with its
    `act`, `river_ranges` and `river_policy`): LBR's chips and the hand's betting."""
    bot_seat = 1 - lbr
    betting = BettingState.start(game)

    def state_of(player, betting_now):
        shown = game.board_cards_through(betting_now.round)
        return MatchState(player, hand_number, betting_now,
                          tuple(tuple(holes[p]) if p == player else () for p in range(2)),
                          tuple(board[:shown]))

    range_ = None
    equity = None
    while not betting.finished:
        player = betting.current_player
        river = betting.round == RIVER
        if river and range_ is None:
            range_ = bot.river_ranges(state_of(bot_seat, betting))[bot_seat] * _removed(
                holes[lbr])
            equity = river_equities(holes[lbr], board)
        if player == bot_seat:
            state = state_of(bot_seat, betting)
            action = bot.act(state)
            if river:
                actions, probabilities = bot.river_policy(state)
                range_ = range_ * _taken(actions, probabilities, action)
        elif not river or not river_set & ~CALL_BIT:
            action = CALL_ACTION
        else:
            action = lbr_river_decision(bot, betting, lambda b: state_of(bot_seat, b), lbr,
                                        river_set, range_, equity)
        betting = betting.apply(action)
    chips = betting.payoffs(holes, board)[lbr]
    return int(chips), betting


def run_river_lbr(bot_for_seed, game, deals, seed: int, river: str = "FCPA", progress=None,
                  first: int = 0):
    """LBR's chips per deal, int64[n, 2] (LBR at position 0, at position 1), on the deals
    `first`.. of `deals` (a `DealArrays` of `training.deals.cached_deal_set(seed, ...)`): hand
    number 2 deal + seat, the bot's draws seeded by `seed`, as `training.lbr_blueprint` plays
    them. `bot_for_seed(seed)` makes the bot."""
    river_set = int(parse_action_sets(f"C,C,C,{river}")[RIVER])
    bot = bot_for_seed(seed)
    count = deals.holes.shape[0] - first
    chips = np.zeros((count, 2), dtype=np.int64)
    for i in range(count):
        deal = first + i
        holes = [tuple(int(c) for c in deals.holes[deal, p]) for p in range(2)]
        board = [int(c) for c in deals.boards[deal]]
        for lbr in range(2):
            chips[i, lbr], _ = lbr_hand(bot, game, lbr, holes, board, 2 * deal + lbr, river_set)
        if progress is not None:
            progress(i)
    return chips


class BlueprintRiver:
    """The blueprint of a `ResolveStrategy` on every street, the river too, with the same
    `act`, `river_ranges` and `river_policy` as the re-solving bot: LBR against the blueprint
    by the same code (the river policy from each holding's bucket, the node the bot's own walk
    reaches)."""

    def __init__(self, resolving):
        self.base = resolving.base
        self.river_ranges = resolving.river_ranges
        self.name = self.base.name

    def act(self, state: MatchState):
        return self.base.act(state)

    def river_policy(self, state: MatchState) -> tuple[list, np.ndarray]:
        base = self.base
        tree = base.tree
        node = base.abstract_node(state.betting, state.hand)
        if node is None or tree.kind[node] != 0 or tree.player[node] != state.position:
            return [CALL_ACTION], np.ones((HOLDINGS, 1))  # off the tree: it checks or calls
        first, count = int(tree.child_start[node]), int(tree.child_count[node])
        children = [int(c) for c in tree.children[first:first + count]]
        actions = [base._real_action(state.betting, node, c) for c in children]
        policy = base.blueprint.policy
        start = int(base.blueprint.game.offsets[node])
        buckets = _river_buckets(base, state)
        probabilities = np.zeros((HOLDINGS, count))
        live = buckets >= 0
        rows = start + buckets[live, None] * count + np.arange(count)[None, :]
        table = np.asarray(policy, dtype=np.float64)[rows]
        totals = table.sum(axis=1, keepdims=True)
        probabilities[live] = np.where(totals > 0, table / np.where(totals > 0, totals, 1),
                                       1.0 / count)
        return actions, probabilities


def _river_buckets(base, state) -> np.ndarray:
    """Each holding's river bucket on the state's board (-1 where it meets the board)."""
    from gambler.bot.resolve import river_buckets

    return river_buckets(base, state.board[:5])
