"""Turn and river subgames over exact hands (`solver.subgame`), checked against the games lab.

The same subgame, with small ranges, is also built as an extensive-form game of the lab
(`games.tree`: a chance node over every pair of disjoint holdings the ranges deal, with
probability r0(h) r1(h') / the joint mass, then the public tree with an information set per
player, own holding and public node; showdowns by `protocol.showdown.hand_strength`). There:

* the subgame solver's average strategy has the exploitability the lab's exact best response
  computes, to 1e-9 (two independent best responses), and the same value;
* it falls as iterations grow, to below 0.5% of the pot at 2,000 iterations;
* its value is the lab's CFR+ equilibrium value, within both exploitabilities.
On full ranges (every holding) the exploitability falls the same way (the figure in the test).
A turn subgame is checked the same way, the lab dealing the river as a chance node over the 44
cards each pair of holdings leaves.
"""

from __future__ import annotations

import numpy as np
import pytest

from gambler.evaluator.cards import as_cards
from gambler.evaluator.holdings import HOLDING_CARDS
from gambler.games.cfr import exploitability, game_value, solve
from gambler.games.tree import TreeBuilder
from gambler.protocol.showdown import hand_strength
from gambler.solver.errors import SolverError
from gambler.solver.subgame import CHANCE_NODE, DECISION_NODE, TERMINAL_FOLD, Subgame

BOARD = as_cards("AsKd7h4c2s")


def _small_ranges(seed: int, size: int = 5, board=BOARD):
    """Two ranges of `size` holdings that share some (card removal must rule a holding out
    against itself) and some cards."""
    rng = np.random.default_rng(seed)
    ranges = np.zeros((2, 1326))
    board = set(board.tolist())
    allowed = [h for h, (a, b) in enumerate(HOLDING_CARDS) if a not in board and b not in board
               and min(a, b) < 12]  # low cards: many holdings share one
    pool = rng.choice(allowed, size=size + 2, replace=False)
    for player, chosen in enumerate((pool[:size], pool[2:])):
        ranges[player, chosen] = rng.random(size) + 0.2
    return ranges


def _lab_game(subgame: Subgame):
    """(the lab's tree, a function mapping the subgame's policy to the lab's policy array)."""
    tree = subgame.tree
    ranges = subgame.ranges
    own_board = tuple(int(c) for c in subgame.board)
    deals = [(h0, h1, ranges[0, h0] * ranges[1, h1])
             for h0 in np.flatnonzero(ranges[0]) for h1 in np.flatnonzero(ranges[1])
             if not set(HOLDING_CARDS[h0]) & set(HOLDING_CARDS[h1])]
    mass = sum(weight for _, _, weight in deals)
    builder = TreeBuilder()
    root = builder.chance(-1, 0, 1.0)
    keys = {}

    def grow(parent, edge, prob, node, h0, h1, depth):
        kind = tree.kind[node]
        spent = tree.spent[node]
        if kind == TERMINAL_FOLD:
            loser = tree.player[node]
            builder.terminal(parent, edge, prob, -spent[0] if loser == 0 else spent[1])
            return
        if kind == CHANCE_NODE:  # every card neither holds, alike
            chance = builder.chance(parent, edge, prob)
            held = set(HOLDING_CARDS[h0]) | set(HOLDING_CARDS[h1])
            first = tree.child_start[node]
            dealt = [int(child) for child in tree.children[first:first + tree.child_count[node]]
                     if tree.river_cards[tree.board_of[child] - 1] not in held]
            for card_edge, child in enumerate(dealt):
                grow(chance, card_edge, 1.0 / len(dealt), child, h0, h1, depth)
            return
        if kind != DECISION_NODE:
            board = own_board + ((int(tree.river_cards[tree.board_of[node] - 1]),)
                                 if tree.board_of[node] else ())
            ours = hand_strength(tuple(int(c) for c in HOLDING_CARDS[h0]) + board)
            theirs = hand_strength(tuple(int(c) for c in HOLDING_CARDS[h1]) + board)
            stake = min(spent)
            builder.terminal(parent, edge, prob,
                             stake if ours > theirs else -stake if ours < theirs else 0.0)
            return
        player = int(tree.player[node])
        own = h0 if player == 0 else h1
        count = int(tree.child_count[node])
        key = f"{player}:{own}:{node}"
        keys[key] = (node, own)
        index = builder.decision(parent, edge, prob, player, key,
                                 tuple(str(a) for a in range(count)), depth[player])
        for a in range(count):
            child = int(tree.children[tree.child_start[node] + a])
            deeper = list(depth)
            deeper[player] += 1
            grow(index, a, 1.0, child, h0, h1, deeper)

    for edge, (h0, h1, weight) in enumerate(deals):
        grow(root, edge, weight / mass, 0, h0, h1, [0, 0])
    lab = builder.build()

    def to_lab(policy):
        lab_policy = np.zeros((lab.infosets, lab.max_actions))
        for info, name in enumerate(lab.infoset_names):
            node, own = keys[name]
            count = lab.infoset_actions[info]
            lab_policy[info, :count] = policy[node, own, :count]
        return lab_policy
    return lab, to_lab


def _curve_checked_by_the_lab(subgame: Subgame, lab, to_lab, checkpoints) -> list[float]:
    """The exploitability of the average strategy at each total of iterations, each checked
    to be the lab's exact best response's, and the value the lab's, to 1e-9."""
    curve = []
    for iterations in checkpoints:
        subgame.solve(iterations - subgame.iterations)
        policy = subgame.average_policy()
        mine = subgame.exploitability(policy)
        assert mine == pytest.approx(exploitability(lab, to_lab(policy)), rel=1e-9, abs=1e-9)
        assert subgame.value(policy) == pytest.approx(game_value(lab, to_lab(policy)),
                                                      rel=1e-9, abs=1e-9)
        curve.append(mine)
    return curve


@pytest.mark.parametrize("seed", [1, 2])
def test_the_solvers_exploitability_is_the_labs_exact_best_responses(seed):
    subgame = Subgame(BOARD, _small_ranges(seed), spent=600, stack=4000, fractions=(0.5, 1.0),
                      max_raises=2)
    lab, to_lab = _lab_game(subgame)
    curve = _curve_checked_by_the_lab(subgame, lab, to_lab, (20, 200, 2000))
    pot = 2 * 600
    assert curve[0] > curve[1] > curve[2] and curve[2] < 0.005 * pot
    equilibrium = solve(lab, "cfr+", iterations=2000)
    assert subgame.value() == pytest.approx(equilibrium.game_value,
                                            abs=curve[2] + equilibrium.exploitability + 1e-9)


def test_the_betting_seen_is_in_the_tree_as_itself():
    """Nested solving: an off-tree bet (0.73 pot) and a raise past the cap are children of
    their own, `follow` finds where they lead, and the tree is still the lab's game."""
    from gambler.solver.subgame import CALL, RAISE, follow, subgame_tree

    bet = 600 + round(0.73 * 1200)
    path = [(CALL, 0), (RAISE, bet), (RAISE, 3100)]
    plain = subgame_tree(600, 4000, 0, fractions=(1.0,), max_raises=1)
    nested = subgame_tree(600, 4000, 0, fractions=(1.0,), max_raises=1, path=path)
    assert bet not in plain.action_to and bet in nested.action_to
    node = follow(nested, path)
    assert nested.action_to[node] == 3100 and list(nested.spent[node]) == [3100, bet]
    assert nested.kind[node] == DECISION_NODE and nested.player[node] == 1
    # past the cap only the path's raise is added: the answers to it are fold and call
    assert nested.child_count[node] == 2
    with pytest.raises(SolverError, match="cannot be taken"):
        subgame_tree(600, 4000, 0, fractions=(1.0,), max_raises=1, path=[(RAISE, 500)])
    with pytest.raises(SolverError, match="no action"):
        follow(plain, path)
    subgame = Subgame(BOARD, _small_ranges(4), spent=600, stack=4000, fractions=(1.0,),
                      max_raises=1, path=path)
    curve = _curve_checked_by_the_lab(subgame, *_lab_game(subgame), (20, 400))
    assert curve[1] < curve[0] and curve[1] < 0.005 * 2 * 600


TURN = as_cards("AsKd7h4c")


def test_turn_subgames_deal_the_river_as_the_labs_chance_node():
    """Every river card either holding leaves, each alike: the value and the exploitability of
    the solver's strategy are the lab's (whose chance node deals the 44 cards per pair of
    holdings), and exploitability falls as the iterations grow."""
    subgame = Subgame(TURN, _small_ranges(3, size=4, board=TURN), spent=600, stack=2400,
                      fractions=(1.0,), max_raises=1)
    assert subgame.cards[-1] == 1 / 44
    curve = _curve_checked_by_the_lab(subgame, *_lab_game(subgame), (10, 30, 90))
    # measured: 133.7, 25.6 and 4.5 chips a hand, in a pot of 1,200
    assert curve[0] > curve[1] > curve[2] and curve[2] < 0.005 * 2 * 600


def test_full_ranges_converge():
    subgame = Subgame(BOARD, np.ones((2, 1326)), spent=1000)
    figures = []
    for iterations in (10, 100, 1000):
        subgame.solve(iterations - subgame.iterations)
        figures.append(subgame.exploitability())
    # measured: 329.8, 29.9 and 1.2 chips a hand, in a pot of 2,000
    assert figures[0] > 10 * figures[1] > 10 * figures[2] * 2 and figures[2] < 0.002 * 2000


def test_bad_subgames_are_refused():
    with pytest.raises(SolverError, match=r"four \(the turn\) or five \(the river\) distinct"):
        Subgame(BOARD[:3], np.ones((2, 1326)), spent=100)
    with pytest.raises(SolverError, match="distinct board cards"):
        Subgame([0, 0, 5, 9], np.ones((2, 1326)), spent=100)
    with pytest.raises(SolverError, match="0 < spent <= stack"):
        Subgame(BOARD, np.ones((2, 1326)), spent=30000)
