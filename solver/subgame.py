"""Turn and river subgames solved over exact hands: the first pieces of real-time re-solving.

A subgame is a public state (four or five board cards, both players' chips in, equal, and the
stacks) with a range for each player (a weight per holding, `evaluator.holdings` order, 0 for
the holdings the board meets) and a betting abstraction for the rest of the hand: on each
street, bets and raises to `bet + f * pot` for each pot fraction f (the pot after calling),
all-in, at most `max_raises` of them. Nothing is bucketed: every holding is its own hand.

A turn subgame enumerates the river: where the turn's betting closes (the second check, or a
call), a chance node deals each of the 48 - 4 = 44 cards left once both holdings are known,
each with probability 1/44, and the river's betting (or, after an all-in, the showdown) follows
on the five-card board. Below the card c, the holdings that hold c are dead: their reach is
zeroed on the way down and their values are left out on the way up, so a pair of holdings
sees exactly the 44 cards neither holds, as the deal does.

The solver is CFR+ (Tammelin 2014) on vectors: each public node holds, for the player to act, a
regret per (holding, action); an iteration walks the public tree once per player, the
opponent's reach pushed down as a vector over its holdings and the traverser's counterfactual
values brought up as a vector over its own. At a terminal, with opponent reach r:

    fold by p:     cfv(h) = +-spent_p * sum of r(h') over the h' that share no card with h
    showdown:      cfv(h) = stake * (sum of r(h') weaker than h - sum of r(h') stronger), h' disjoint
    chance:        cfv(h) = (1/44) * sum of cfv_c(h) over the cards c not in h

each terminal in O(n) by one sweep of the holdings sorted by strength, card removal by per-card
sums (the sum over h' disjoint from {a, b} is the total, less the h' holding a, less those
holding b, plus h itself, which holds both). The average strategy weighs iteration t by t
(linear averaging, as CFR+ does), and `exploitability` is half the sum of the two best
responses' gains against it, per unit of joint range mass (the chips a best responder wins a
hand, on average over the seats), computed over the same tree with each holding's best action.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gambler.evaluator.hand_rank import hand_value
from gambler.evaluator.holdings import HOLDINGS
from gambler.evaluator.showdown import _cards_key_bits
from gambler.jit import helper, njit
from gambler.solver.errors import SolverError

FOLD, CALL, RAISE = 0, 1, 2
TERMINAL_FOLD, TERMINAL_SHOWDOWN, DECISION_NODE, CHANCE_NODE = 0, 1, 2, 3


@dataclass(frozen=True)
class SubgameTree:
    """The public tree of a subgame, nodes in pre-order (parents first)."""

    kind: np.ndarray         # int64[n]: DECISION_NODE, CHANCE_NODE, TERMINAL_FOLD, _SHOWDOWN
    player: np.ndarray       # int64[n]: who acts (decision), who folded (fold), -1
    spent: np.ndarray        # int64[n, 2]: both players' chips in at the node
    child_start: np.ndarray  # int64[n]
    child_count: np.ndarray  # int64[n]
    children: np.ndarray     # int64[m]
    action: np.ndarray       # int64[n]: FOLD, CALL or RAISE into the node (-1 at the root and
    #                          below a chance node)
    action_to: np.ndarray    # int64[n]: a raise's total (0 otherwise)
    board_of: np.ndarray     # int64[n]: the node's board: 0 the subgame's own, 1 + i after
    #                          the chance node's i-th card
    river_cards: np.ndarray  # int64[k]: the cards a chance node deals, in child order

    @property
    def nodes(self) -> int:
        return self.kind.shape[0]


def subgame_tree(spent: int, stack: int, first: int, fractions=(0.5, 1.0), max_raises: int = 2,
                 big_blind: int = 100, river_cards=(), path=()) -> SubgameTree:
    """The tree from both players' `spent` chips (equal), `first` to act on each street, bets
    of each pot fraction and all-in, at most `max_raises` bets and raises a street (the stack:
    `stack` each). A size below the no-limit minimum (a bet of the big blind, a raise by the
    last raise's size) is left out, unless it is the all-in. With `river_cards` the tree starts
    on the turn, and a chance node deals each of them where the turn's betting closes.

    `path` is the betting already seen from the root (nested subgame solving): a sequence of
    (CALL, 0) and (RAISE, total) pairs. Each raise on it is a child of the node it was made at,
    whether or not it is one of the abstract sizes and whatever the raise cap, so an off-tree
    bet is solved as itself rather than rounded; `follow(tree, path)` finds the node it
    reaches."""
    if spent <= 0 or spent > stack:
        raise SolverError(f"a subgame needs 0 < spent <= stack, not {spent} and {stack}")
    path = [(int(kind), int(total)) for kind, total in path]
    rows: list[list] = []  # kind, player, spent0, spent1, action, action_to, board, children

    def add(kind, player, spent0, spent1, action, action_to, board, parent):
        rows.append([kind, player, spent0, spent1, action, action_to, board, []])
        index = len(rows) - 1
        if parent >= 0:
            rows[parent][7].append(index)
        return index

    def close(node, spent_, board, action):
        """The street's betting is over at `spent_` (equal): the showdown, or the river."""
        if board > 0 or not len(river_cards):
            add(TERMINAL_SHOWDOWN, -1, *spent_, action, 0, board, node)
            return
        chance = add(CHANCE_NODE, -1, *spent_, action, 0, board, node)
        for i in range(len(river_cards)):
            if spent_[0] >= stack:  # all-in: the rest of the board is shown down
                add(TERMINAL_SHOWDOWN, -1, *spent_, -1, 0, 1 + i, chance)
            else:
                child = add(DECISION_NODE, first, *spent_, -1, 0, 1 + i, chance)
                grow(child, first, list(spent_), 0, False, 1 + i)

    def grow(node, actor, spent_, raises, checked, board, seen=None):
        """The children of decision `node`; `seen` is what is left of `path` when the node is
        on it (None off it)."""
        bet = max(spent_)
        owed = spent_[actor] < bet
        other = 1 - actor
        step = seen[0] if seen else None
        rest = (lambda kind, total=0: seen[1:] if step == (kind, total) else None)  # noqa: E731
        if step is not None and (step[0] not in (CALL, RAISE) or step[0] == RAISE and not
                                 (bet < step[1] <= stack)):
            raise SolverError(f"the path's action {step} cannot be taken at {spent_}")
        if owed:
            add(TERMINAL_FOLD, actor, *spent_, FOLD, 0, board, node)
        after_call = list(spent_)
        after_call[actor] = bet
        if owed or checked:  # a call, or the second check: the street is over
            if step is not None and step[0] == CALL and len(seen) > 1:
                raise SolverError(f"the path goes on after the street's betting closed: {path}")
            close(node, after_call, board, CALL)
        else:  # the first check
            child = add(DECISION_NODE, other, *after_call, CALL, 0, board, node)
            grow(child, other, after_call, raises, True, board, rest(CALL))
        pot = 2 * bet
        targets = set()
        if raises < max_raises and bet < stack:
            targets = {min(stack, bet + int(round(f * pot))) for f in fractions} | {stack}
            minimum = bet + max(bet - min(spent_), big_blind)
            targets = {t for t in targets if t >= min(minimum, stack) or t == stack}
        if step is not None and step[0] == RAISE:
            targets.add(step[1])
        for target in sorted(targets):
            raised = list(spent_)
            raised[actor] = target
            child = add(DECISION_NODE, other, *raised, RAISE, target, board, node)
            grow(child, other, raised, raises + 1, False, board, rest(RAISE, target))

    root = add(DECISION_NODE, first, spent, spent, -1, 0, 0, -1)
    grow(root, first, [spent, spent], 0, False, 0, path or None)
    starts, counts, flat = [], [], []
    for row in rows:
        starts.append(len(flat))
        counts.append(len(row[7]))
        flat.extend(row[7])
    as_array = lambda values: np.array(values, dtype=np.int64)  # noqa: E731
    column = lambda k: as_array([r[k] for r in rows])  # noqa: E731
    return SubgameTree(column(0), column(1), as_array([[r[2], r[3]] for r in rows]),
                       as_array(starts), as_array(counts), as_array(flat), column(4), column(5),
                       column(6), as_array(list(river_cards)))


def follow(tree: SubgameTree, path) -> int:
    """The node that `path` ((CALL, 0) and (RAISE, total) pairs from the root) reaches."""
    node = 0
    for kind, total in path:
        first, count = tree.child_start[node], tree.child_count[node]
        for child in tree.children[first:first + count]:
            if tree.action[child] == kind and (kind != RAISE or tree.action_to[child] == total):
                node = int(child)
                break
        else:
            raise SolverError(f"the subgame's tree has no action {(kind, total)} at node {node}")
    return node


@helper
def _disjoint_sums(reach, holding_cards, active, out):
    """out[h] = the sum of reach over the holdings that share no card with h, for the h in
    `active` (the holdings outside it have no reach)."""
    per_card = np.zeros(52)
    total = 0.0
    for h in active:
        per_card[holding_cards[h, 0]] += reach[h]
        per_card[holding_cards[h, 1]] += reach[h]
        total += reach[h]
    for h in active:
        out[h] = total - per_card[holding_cards[h, 0]] - per_card[holding_cards[h, 1]] + reach[h]


@helper
def _showdown_sums(reach, holding_cards, order, strength, out):
    """out[h] = (sum of reach weaker than h) - (sum stronger), over the holdings disjoint from h;
    `order` sorts the holdings by `strength` (ascending; the board's own holdings excluded)."""
    below_card = np.zeros(52)
    below = 0.0
    n = order.shape[0]
    start = 0
    while start < n:  # weaker: swept upwards, a group of equal strength at a time
        stop = start
        while stop < n and strength[order[stop]] == strength[order[start]]:
            stop += 1
        for k in range(start, stop):
            h = order[k]
            out[h] = below - below_card[holding_cards[h, 0]] - below_card[holding_cards[h, 1]]
        for k in range(start, stop):
            h = order[k]
            below += reach[h]
            below_card[holding_cards[h, 0]] += reach[h]
            below_card[holding_cards[h, 1]] += reach[h]
        start = stop
    above_card = np.zeros(52)
    above = 0.0
    stop = n
    while stop > 0:  # stronger: swept downwards
        start = stop
        while start > 0 and strength[order[start - 1]] == strength[order[stop - 1]]:
            start -= 1
        for k in range(start, stop):
            h = order[k]
            out[h] -= above - above_card[holding_cards[h, 0]] - above_card[holding_cards[h, 1]]
        for k in range(start, stop):
            h = order[k]
            above += reach[h]
            above_card[holding_cards[h, 0]] += reach[h]
            above_card[holding_cards[h, 1]] += reach[h]
        stop = start



@helper
def _regret_matched(regrets, node, count, h, out):
    total = 0.0
    for a in range(count):
        out[a] = max(regrets[node, h, a], 0.0)
        total += out[a]
    for a in range(count):
        out[a] = out[a] / total if total > 0.0 else 1.0 / count


@helper
def _walk(tree, cards, traverser, ranges, regrets, strategy_sum, weight, mode, policy, reach,
          own, values, scratch, probabilities):
    """One pass for `traverser`: the opponent's reach down (`reach[n]`), the traverser's own
    (`own[n]`), its counterfactual values up (`values[n]`). `cards` holds the boards' arrays
    (`Subgame.cards`). mode 0: a CFR+ iteration (regrets and the average, weighted by `weight`,
    updated); 1: the values of `policy` (float64[n, 1326, k]) for both; 2: the traverser
    best-responds to `policy`."""
    kind, player, spent, child_start, child_count, children, board_of = tree
    holding_cards, order, order_count, strength, chance_weight = cards
    # order[b, :order_count[b]]: the holdings that matter on board b (in a range, not meeting
    # the board), by strength on the river. Every read and write at a node of board b is of
    # these, so the others keep the zero reach and the zero values they start with: below a
    # chance node's card c, the holdings that hold c neither reach nor count.
    nodes = kind.shape[0]
    opponent = 1 - traverser
    reach[0, :] = ranges[opponent]
    own[0, :] = ranges[traverser]
    for node in range(nodes):  # pre-order: parents first
        count = child_count[node]
        first = child_start[node]
        if kind[node] == CHANCE_NODE:
            for a in range(count):
                child = children[first + a]
                board = board_of[child]
                for h in order[board, :order_count[board]]:
                    reach[child, h] = reach[node, h]
                    own[child, h] = own[node, h]
            continue
        if kind[node] != DECISION_NODE:
            continue
        for a in range(count):
            child = children[first + a]
            reach[child, :] = reach[node]
            own[child, :] = own[node]
        acting = reach if player[node] == opponent else own
        for h in order[board_of[node], :order_count[board_of[node]]]:
            if mode == 0:
                _regret_matched(regrets, node, count, h, probabilities)
            else:
                for a in range(count):
                    probabilities[a] = policy[node, h, a]
            for a in range(count):
                acting[children[first + a], h] *= probabilities[a]
    for node in range(nodes - 1, -1, -1):  # children first
        board = board_of[node]
        active = order[board, :order_count[board]]
        count = child_count[node]
        first = child_start[node]
        if kind[node] == TERMINAL_FOLD:
            _disjoint_sums(reach[node], holding_cards, active, scratch)
            loser = player[node]
            chips = (-1.0 if loser == traverser else 1.0) * spent[node, loser]
            for h in active:
                values[node, h] = chips * scratch[h]
        elif kind[node] == TERMINAL_SHOWDOWN:
            _showdown_sums(reach[node], holding_cards, active, strength[board], scratch)
            stake = min(spent[node, 0], spent[node, 1])
            for h in active:
                values[node, h] = stake * scratch[h]
        elif kind[node] == CHANCE_NODE:
            for h in active:
                total = 0.0
                for a in range(count):
                    total += values[children[first + a], h]
                values[node, h] = chance_weight * total
        else:
            actor = player[node]
            for h in active:
                if actor == opponent or mode == 2:  # the sum over the opponent's actions
                    value = values[children[first], h]  # (its reach is in the values), or
                    for a in range(1, count):        # the best responder's best
                        child_value = values[children[first + a], h]
                        value = value + child_value if actor == opponent else max(value,
                                                                                  child_value)
                    values[node, h] = value
                    continue
                if mode == 0:
                    _regret_matched(regrets, node, count, h, probabilities)
                else:
                    for a in range(count):
                        probabilities[a] = policy[node, h, a]
                value = 0.0
                for a in range(count):
                    value += probabilities[a] * values[children[first + a], h]
                values[node, h] = value
                if mode == 0:
                    for a in range(count):
                        regret = regrets[node, h, a] + values[children[first + a], h] - value
                        regrets[node, h, a] = max(regret, 0.0)
                        strategy_sum[node, h, a] += weight * own[node, h] * probabilities[a]


@njit
def cfr_plus(tree, cards, ranges, regrets, strategy_sum, first, iterations):
    """Iterations first + 1 .. first + iterations of CFR+ (alternating: player 0, then 1)."""
    nodes = tree[0].shape[0]
    reach = np.zeros((nodes, HOLDINGS))
    own = np.zeros((nodes, HOLDINGS))
    values = np.zeros((nodes, HOLDINGS))
    scratch = np.zeros(HOLDINGS)
    probabilities = np.zeros(regrets.shape[2])
    no_policy = np.zeros((1, 1, 1))
    for t in range(first + 1, first + iterations + 1):
        for traverser in range(2):
            _walk(tree, cards, traverser, ranges, regrets, strategy_sum, float(t), 0, no_policy,
                  reach, own, values, scratch, probabilities)


@njit
def policy_values(tree, cards, ranges, policy, traverser, respond):
    """The traverser's value summed over its range (its range times its counterfactual values
    at the root): of `policy` for both (respond False), or of its best response to the other's
    part of `policy` (True)."""
    nodes = tree[0].shape[0]
    reach = np.zeros((nodes, HOLDINGS))
    own = np.zeros((nodes, HOLDINGS))
    values = np.zeros((nodes, HOLDINGS))
    scratch = np.zeros(HOLDINGS)
    probabilities = np.zeros(policy.shape[2])
    dummy = np.zeros((1, 1, 1))
    _walk(tree, cards, traverser, ranges, dummy, dummy, 0.0, 2 if respond else 1, policy,
          reach, own, values, scratch, probabilities)
    total = 0.0
    for h in range(HOLDINGS):
        total += ranges[traverser, h] * values[0, h]
    return total


@njit
def river_strengths(tables, holding_cards, board, strength):
    """strength[h]: holding h's seven-card value with `board` (higher is better; -1 where the
    holding meets the board)."""
    cards = np.empty(7, dtype=np.int64)
    taken = np.int64(0)
    for k in range(5):
        cards[k] = board[k]
        taken |= np.int64(1) << board[k]
    for h in range(holding_cards.shape[0]):
        a, b = holding_cards[h, 0], holding_cards[h, 1]
        if (taken >> a) & 1 or (taken >> b) & 1:
            strength[h] = -1
            continue
        cards[5] = a
        cards[6] = b
        key, bits = _cards_key_bits(tables, cards)
        strength[h] = hand_value(tables, key, bits)


class Subgame:
    """A turn or river subgame (module docstring), by the number of `board` cards: `solve(
    iterations)`, then `average_policy()`, `value()` and `exploitability()` of the average."""

    def __init__(self, board, ranges, spent: int, stack: int = 20000, first: int = 0,
                 fractions=(0.5, 1.0), max_raises: int = 2, path=()):
        from gambler.evaluator.holdings import HOLDING_CARDS
        from gambler.evaluator.tables import load_tables

        self.board = np.asarray(board, dtype=np.int64).reshape(-1)
        if self.board.shape[0] not in (4, 5) or len(set(self.board.tolist())) != \
                self.board.shape[0] or not ((self.board >= 0) & (self.board < 52)).all():
            raise SolverError("a subgame needs four (the turn) or five (the river) distinct "
                              f"board cards, not {list(board)}")
        river_cards = [c for c in range(52) if c not in set(self.board.tolist())] \
            if self.board.shape[0] == 4 else []
        self.tree = subgame_tree(spent, stack, first, fractions, max_raises,
                                 river_cards=river_cards, path=path)
        self.holding_cards = HOLDING_CARDS.astype(np.int64)
        ranges = np.array(ranges, dtype=np.float64).reshape(2, HOLDINGS)
        support = ranges.sum(axis=0) > 0
        boards = [self.board] + [np.append(self.board, card) for card in river_cards]
        strength = np.full((len(boards), HOLDINGS), -1, dtype=np.int64)
        order = np.zeros((len(boards), HOLDINGS), dtype=np.int64)
        order_count = np.zeros(len(boards), dtype=np.int64)
        tables = load_tables()
        for b, cards in enumerate(boards):
            live = ~np.isin(self.holding_cards, cards).any(axis=1)
            active = np.flatnonzero(live & support)
            if b == 0:
                self.ranges = ranges * live
            if cards.shape[0] == 5:
                river_strengths(tables, self.holding_cards, cards, strength[b])
                active = active[np.argsort(strength[b, active], kind="stable")]
            order_count[b] = active.shape[0]
            order[b, :active.shape[0]] = active
        self.cards = (self.holding_cards, order, order_count, strength,
                      1.0 / (48 - self.board.shape[0]))
        actions = int(self.tree.child_count[self.tree.kind == DECISION_NODE].max())
        self.regrets = np.zeros((self.tree.nodes, HOLDINGS, actions))
        self.strategy_sum = np.zeros_like(self.regrets)
        self.iterations = 0

    def arrays(self) -> tuple:
        tree = self.tree
        return (tree.kind, tree.player, tree.spent, tree.child_start, tree.child_count,
                tree.children, tree.board_of)

    def solve(self, iterations: int) -> None:
        """`iterations` more CFR+ iterations."""
        cfr_plus(self.arrays(), self.cards, self.ranges, self.regrets, self.strategy_sum,
                 self.iterations, iterations)
        self.iterations += iterations

    def average_policy(self) -> np.ndarray:
        """float64[nodes, 1326, actions]: each holding's average strategy (uniform where it
        never played the node; zero at chance nodes and terminals)."""
        counts = self.tree.child_count
        policy = self.strategy_sum.copy()
        for node in np.flatnonzero(self.tree.kind == DECISION_NODE):
            count = int(counts[node])
            rows = policy[node, :, :count]
            totals = rows.sum(axis=1, keepdims=True)
            policy[node, :, :count] = np.where(totals > 0, rows / np.where(totals > 0, totals, 1),
                                               1.0 / count)
        return policy

    def joint_mass(self) -> float:
        """The sum of r0(h) r1(h') over the disjoint pairs: the hands the ranges deal."""
        out = np.zeros(HOLDINGS)
        _disjoint_sums_kernel(self.ranges[1], self.holding_cards, np.arange(HOLDINGS), out)
        return float((self.ranges[0] * out).sum())

    def _values(self, policy, traverser: int, respond: bool) -> float:
        return policy_values(self.arrays(), self.cards, self.ranges, policy, traverser,
                             respond) / self.joint_mass()

    def value(self, policy: np.ndarray | None = None) -> float:
        """Player 0's chips a hand when both play `policy` (default: the average)."""
        return self._values(self.average_policy() if policy is None else policy, 0, False)

    def exploitability(self, policy: np.ndarray | None = None) -> float:
        """(best response of 0 + best response of 1) / 2, chips a hand."""
        policy = self.average_policy() if policy is None else policy
        return (self._values(policy, 0, True) + self._values(policy, 1, True)) / 2


@njit
def _disjoint_sums_kernel(reach, holding_cards, active, out):
    _disjoint_sums(reach, holding_cards, active, out)
