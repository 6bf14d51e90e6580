"""Two-player zero-sum extensive-form games as flat arrays, for the CFR family in numba.

A game is built by walking it once in Python (`TreeBuilder`), depth first: each node gets an
index in pre-order (parents before children), and the arrays below describe it. Information
sets get indices too, with their player, their number of actions and their *depth* (how many
actions their player has taken before reaching them, which orders the best-response passes).

    kind[n]          0 terminal, 1 chance, 2 decision
    player[n]        the deciding player (0 or 1), -1 otherwise
    infoset[n]       the decision node's information set, -1 otherwise
    parent[n]        -1 for the root
    edge[n]          which child of its parent the node is (the action, or the chance outcome)
    edge_prob[n]     the chance probability of the edge into the node (1 under a decision)
    child_start[n], child_count[n]: the node's children are children[child_start:+child_count]
    utility[n]       player 0's payoff at a terminal (player 1's is its negative)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gambler.games.errors import GameError


@dataclass(frozen=True)
class GameTree:
    kind: np.ndarray
    player: np.ndarray
    infoset: np.ndarray
    parent: np.ndarray
    edge: np.ndarray
    edge_prob: np.ndarray
    child_start: np.ndarray
    child_count: np.ndarray
    children: np.ndarray
    utility: np.ndarray
    infoset_player: np.ndarray
    infoset_actions: np.ndarray
    infoset_depth: np.ndarray
    infoset_names: tuple[str, ...]        # e.g. Kuhn's "1pb"
    action_names: tuple[tuple[str, ...], ...]  # per information set

    @property
    def nodes(self) -> int:
        return self.kind.shape[0]

    @property
    def infosets(self) -> int:
        return self.infoset_player.shape[0]

    @property
    def max_actions(self) -> int:
        return int(self.infoset_actions.max())

    def arrays(self) -> tuple:
        """The arrays the kernels take, in their order."""
        return (self.kind, self.player, self.infoset, self.parent, self.edge, self.edge_prob,
                self.child_start, self.child_count, self.children, self.utility,
                self.infoset_player, self.infoset_actions, self.infoset_depth)


class TreeBuilder:
    """Collects nodes in pre-order; `add_*` return the new node's index."""

    def __init__(self):
        self._kind, self._player, self._infoset, self._parent = [], [], [], []
        self._edge, self._edge_prob, self._utility = [], [], []
        self._children: list[list[int]] = []
        self._infosets: dict[str, int] = {}
        self._infoset_player: list[int] = []
        self._infoset_actions: list[tuple[str, ...]] = []
        self._infoset_depth: list[int] = []

    def _add(self, kind, player, infoset, parent, edge, edge_prob, utility) -> int:
        index = len(self._kind)
        self._kind.append(kind)
        self._player.append(player)
        self._infoset.append(infoset)
        self._parent.append(parent)
        self._edge.append(edge)
        self._edge_prob.append(edge_prob)
        self._utility.append(utility)
        self._children.append([])
        if parent >= 0:
            self._children[parent].append(index)
        return index

    def terminal(self, parent: int, edge: int, edge_prob: float, utility: float) -> int:
        return self._add(0, -1, -1, parent, edge, edge_prob, float(utility))

    def chance(self, parent: int, edge: int, edge_prob: float) -> int:
        return self._add(1, -1, -1, parent, edge, edge_prob, 0.0)

    def decision(self, parent: int, edge: int, edge_prob: float, player: int, key: str,
                 actions: tuple[str, ...], depth: int) -> int:
        """A decision node of `player` in the information set named `key`."""
        if key not in self._infosets:
            self._infosets[key] = len(self._infoset_player)
            self._infoset_player.append(player)
            self._infoset_actions.append(tuple(actions))
            self._infoset_depth.append(depth)
        infoset = self._infosets[key]
        if self._infoset_actions[infoset] != tuple(actions) or \
                self._infoset_player[infoset] != player:
            raise GameError(f"information set {key!r} is not consistent: it was met with another "
                            "player or other actions")
        return self._add(2, player, infoset, parent, edge, edge_prob, 0.0)

    def build(self) -> GameTree:
        starts, counts, flat = [], [], []
        for children in self._children:
            starts.append(len(flat))
            counts.append(len(children))
            flat.extend(children)
        return GameTree(
            kind=np.array(self._kind, dtype=np.int8),
            player=np.array(self._player, dtype=np.int8),
            infoset=np.array(self._infoset, dtype=np.int32),
            parent=np.array(self._parent, dtype=np.int32),
            edge=np.array(self._edge, dtype=np.int32),
            edge_prob=np.array(self._edge_prob, dtype=np.float64),
            child_start=np.array(starts, dtype=np.int32),
            child_count=np.array(counts, dtype=np.int32),
            children=np.array(flat, dtype=np.int32),
            utility=np.array(self._utility, dtype=np.float64),
            infoset_player=np.array(self._infoset_player, dtype=np.int8),
            infoset_actions=np.array([len(a) for a in self._infoset_actions], dtype=np.int32),
            infoset_depth=np.array(self._infoset_depth, dtype=np.int32),
            infoset_names=tuple(self._infosets),
            action_names=tuple(self._infoset_actions))
