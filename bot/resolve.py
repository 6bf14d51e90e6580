"""Re-solving profiles (`kind: resolve`): a blueprint that solves the river it is on.

    kind: resolve
    description: the blueprint, re-solving every river decision over exact hands
    blueprint: blueprint      # the blueprint it starts from: an installed one's name, or a path
    streets: [river]          # the streets it re-solves (the river, in this version)
    iterations: 200           # CFR+ iterations a decision
    fractions: [0.5, 1.0]     # the subgame's bets and raises, as fractions of the pot (and
    max_raises: 2             #   all-in), at most this many a street besides the ones seen

Paths are relative to the profile's folder. Before the river the blueprint plays
(`bot.blueprint`). At each of its river decisions the bot solves the river from where its
betting began, by `solver.subgame.Subgame` (CFR+ over all 1,326 holdings, no card buckets):

1. **The ranges** at the start of the river: each player's weight for holding h is the product,
   over that player's actions so far, of the blueprint's probability that h (its bucket in that
   round) takes the action at the abstract node of the moment. The abstract node is the one the
   bot itself walks (`BlueprintStrategy.abstract_node`, its own translation draws). For the bot's
   own actions every abstract child whose real action is the one it made counts (a clamped pot
   raise and an all-in may coincide); for the opponent's, the child its action translated to.
   From where the hand leaves the abstract tree, the weights stay as they were.
2. **The tree**: the subgame's sizes plus the river's real betting so far (nested subgame
   solving, Brown & Sandholm 2017): an opponent's off-tree bet is a child of its own, solved as
   itself, not rounded to an abstract size.
3. **The action**: the bot's holding's average strategy at the node the real betting reached,
   drawn as the blueprint draws (seeded by the seed, the hand and the decision), made real as
   the subgame's chips, clamped to the legal range. A fold where nothing is owed is a check;
   never an illegal action.

This is unsafe re-solving (Ganzfried & Sandholm 2015): the river is solved anew from the
ranges, with no bound from the blueprint's values for the opponent. Each decision solves the
whole river again with the betting seen so far, so a later decision's solve may give the bot's
earlier river action another probability than the one it was drawn with.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gambler.bot.blueprint import _ACTION_STREAM, Blueprint, BlueprintStrategy, draw
from gambler.bot.params import ProfileError, find_profile_file, kind_document
from gambler.errors import read_text
from gambler.evaluator.holdings import HOLDING_CARDS, HOLDINGS, holding_index
from gambler.jit import njit
from gambler.protocol.betting import (CALL, CALL_ACTION, FOLD_ACTION, RAISE, Action,
                                      BettingState, raise_to)
from gambler.protocol.matchstate import MatchState
from gambler.solver.betting import DECISION
from gambler.solver.cards import round_buckets
from gambler.solver.mccfr import strategy_at

RESOLVE_KEYS = ("kind", "description", "provenance", "blueprint", "streets", "iterations",
                "fractions", "max_raises")
RIVER = 3


@dataclass(frozen=True)
class Resolve:
    """A loaded `kind: resolve` profile. `blueprint` is a `Blueprint`, or the text naming one
    (loaded by `loaded_blueprint`, when a bot is made: a profile can be read, listed and checked
    on a machine that has not built its blueprint yet)."""

    source: str
    description: str
    blueprint: object
    iterations: int = 200
    fractions: tuple[float, ...] = (0.5, 1.0)
    max_raises: int = 2

    @property
    def name(self) -> str:
        return Path(self.source).stem

    def loaded_blueprint(self) -> Blueprint:
        """The blueprint; `ProfileError` naming this file (and how to build the blueprint when
        it is a shipped config's, not installed) otherwise."""
        if isinstance(self.blueprint, Blueprint):
            return self.blueprint
        blueprint = _blueprint_of(self.blueprint, self.source, Path(self.source).parent)
        if blueprint.game.cards is None:
            raise ProfileError(f"{self.source}: blueprint: {blueprint.source} has no hold'em "
                               "card abstraction; re-solving plays heads-up no-limit hold'em")
        object.__setattr__(self, "blueprint", blueprint)  # loaded once
        return blueprint


def _blueprint_of(value, source: str, folder: Path) -> Blueprint:
    from gambler.bot.blueprint import installed_blueprint, load_blueprint, missing_blueprint_hint

    candidate = folder / value
    if candidate.is_file():
        return load_blueprint(candidate)
    installed = installed_blueprint(value)
    if installed is not None:
        return load_blueprint(installed)
    if Path(value).is_file():
        return load_blueprint(value)
    hint = missing_blueprint_hint(value)
    raise ProfileError(f"{source}: blueprint: " + (hint or f"no blueprint {value!r} (neither a "
                                                   "file nor an installed blueprint)"))


def load_resolve(name: str | Path) -> Resolve:
    """The resolve profile at `name` (a path or a shipped name); `ProfileError` naming the file
    and the field. The blueprint is found when a bot is made (`Resolve.loaded_blueprint`)."""
    path = find_profile_file(name)
    source = str(path)
    document = kind_document(read_text(path, ProfileError), source, "resolve", RESOLVE_KEYS)
    blueprint = document.get("blueprint")
    if not isinstance(blueprint, str) or not blueprint:
        raise ProfileError(f"{source}: blueprint: expected an installed blueprint's name or the "
                           "path of a blueprint profile")
    streets = document.get("streets", ["river"])
    if streets != ["river"]:
        raise ProfileError(f"{source}: streets: {streets!r}; this version re-solves the river "
                           "only: [river]")
    iterations = document.get("iterations", 200)
    if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1:
        raise ProfileError(f"{source}: iterations: expected a whole number >= 1, not "
                           f"{iterations!r}")
    fractions = document.get("fractions", [0.5, 1.0])
    if not isinstance(fractions, list) or not fractions or not all(
            isinstance(f, (int, float)) and not isinstance(f, bool) and f > 0 for f in fractions):
        raise ProfileError(f"{source}: fractions: expected a list of pot fractions > 0, not "
                           f"{fractions!r}")
    max_raises = document.get("max_raises", 2)
    if not isinstance(max_raises, int) or isinstance(max_raises, bool) or max_raises < 0:
        raise ProfileError(f"{source}: max_raises: expected a whole number >= 0, not "
                           f"{max_raises!r}")
    return Resolve(source, str(document.get("description", "")), blueprint, iterations,
                   tuple(float(f) for f in sorted(set(fractions))), max_raises)


@njit
def blueprint_reach(offsets, policy, cards, holding_cards, board, nodes, rounds, actors, counts,
                    taken, reach):
    """reach[p, h] times, for each step i by p = actors[i], the sum over the children k of
    abstract node nodes[i] with taken[i, k] of the blueprint's sigma[nodes[i], bucket of h in
    rounds[i], k] (steps in the order of the hand; `board` the five cards, of which each round
    sees its own). A holding the board of a step's round meets gets weight 0."""
    buckets = np.empty(holding_cards.shape[0], dtype=np.int64)
    scratch = np.empty(5, dtype=np.int64)
    probabilities = np.empty(taken.shape[1])
    current = -1
    for i in range(nodes.shape[0]):
        if rounds[i] != current:
            round_buckets(rounds[i], board, holding_cards, cards, buckets, scratch)
            current = rounds[i]
        p = actors[i]
        for h in range(holding_cards.shape[0]):
            if buckets[h] < 0:
                reach[p, h] = 0.0
            if reach[p, h] == 0.0:
                continue
            strategy_at(offsets, policy, nodes[i], counts[i], buckets[h], probabilities)
            share = 0.0
            for k in range(counts[i]):
                if taken[i, k]:
                    share += probabilities[k]
            reach[p, h] *= share


class ResolveStrategy:
    """Plays a `Resolve` profile (see the module docstring)."""

    def __init__(self, resolve: Resolve, seed: int = 0):
        self.resolve = resolve
        self.name = resolve.name
        self.seed = seed
        blueprint = resolve.loaded_blueprint()
        self.base = BlueprintStrategy(blueprint, seed)
        self._offsets, self._policy = blueprint.game.offsets, blueprint.policy
        self._cards = blueprint.game.card_arrays()[1:]  # without the hand tables
        self._holding_cards = HOLDING_CARDS.astype(np.int64)
        self._ranges_for: tuple | None = None  # (hand, board) the cached ranges are for
        self._ranges: np.ndarray | None = None
        self._solves: dict[tuple, tuple] = {}  # this hand's solves, by their betting
        self._solves_for: tuple | None = None

    def act(self, state: MatchState) -> Action:
        return self.act_and_explain(state)[0]

    def act_and_explain(self, state: MatchState) -> tuple[Action, dict[str, object]]:
        betting = state.betting
        if not self.resolves(state):
            return self.base.act_and_explain(state)
        subgame, node, policy = self._solved(state)
        tree = subgame.tree
        count = int(tree.child_count[node])
        probabilities = policy[holding_index(*state.our_hole)]
        decision = sum(len(actions) for actions in betting.actions)
        u = draw(self.seed, _ACTION_STREAM, state.hand, decision)
        choice = min(int(np.searchsorted(np.cumsum(probabilities), u, side="right")), count - 1)
        child = int(tree.children[tree.child_start[node] + choice])
        action = subgame_action(betting, int(tree.action[child]), int(tree.action_to[child]))
        return action, {"resolve": f"river subgame, {tree.nodes} nodes, "
                                   f"{subgame.iterations} iterations",
                        "probabilities": " ".join(
                            f"{_label(tree, int(c))}:{p:.3f}" for c, p in
                            zip(tree.children[tree.child_start[node]:
                                              tree.child_start[node] + count], probabilities)),
                        "action": str(action)}

    def resolves(self, state: MatchState) -> bool:
        """Whether this decision is re-solved (the river of heads-up no-limit hold'em, equal
        stacks); the blueprint plays the others."""
        game = state.game
        return state.betting.round == RIVER and game.no_limit and game.num_players == 2 and \
            game.num_rounds == 4 and game.stacks[0] == game.stacks[1]

    def river_policy(self, state: MatchState) -> tuple[list[Action], np.ndarray]:
        """At a river decision of the bot: the real action of each child of the node the betting
        reached, and every holding's probabilities over them (float64[1326, k]) in the solve
        the bot plays from (what LBR needs: `training.lbr_resolve`)."""
        subgame, node, policy = self._solved(state)
        tree = subgame.tree
        first, count = int(tree.child_start[node]), int(tree.child_count[node])
        actions = [subgame_action(state.betting, int(tree.action[c]), int(tree.action_to[c]))
                   for c in tree.children[first:first + count]]
        return actions, policy

    def _solved(self, state: MatchState):
        """(subgame, node, the average strategy at the node for every holding) for the river
        decision `state`, solved once per hand, board and betting."""
        path = river_path(state.betting)
        key = (state.hand, tuple(state.board[:5]), tuple(path))
        if self._solves_for != key[:2]:
            self._solves.clear()
            self._solves_for = key[:2]
        if key not in self._solves:
            subgame, node = self.solve(state.board[:5], self.river_ranges(state),
                                       state.betting, path)
            count = int(subgame.tree.child_count[node])
            self._solves[key] = (subgame, node, subgame.average_policy()[node, :, :count])
        return self._solves[key]

    def solve(self, board, ranges, betting: BettingState, path):
        """The river subgame from `betting`'s river start with `path` in its tree, solved; and
        the node `path` reaches."""
        from gambler.solver.subgame import Subgame, follow

        resolve = self.resolve
        game = betting.game
        subgame = Subgame(board, ranges, spent=int(betting.round_start[0]),
                          stack=int(game.stacks[0]), first=int(game.first_player[RIVER]),
                          fractions=resolve.fractions, max_raises=resolve.max_raises,
                          path=path)
        subgame.solve(resolve.iterations)
        return subgame, follow(subgame.tree, path)

    def river_ranges(self, state: MatchState) -> np.ndarray:
        """float64[2, 1326]: both players' ranges at the start of the river (by position)."""
        key = (state.hand, tuple(state.board[:5]))
        if self._ranges_for != key:
            self._ranges = blueprint_ranges(self.base, state.betting, state.position, state.hand,
                                            state.board[:5], self._offsets, self._policy,
                                            self._cards, self._holding_cards)
            self._ranges_for = key
        return self._ranges


def river_path(betting: BettingState) -> list[tuple[int, int]]:
    """The river's betting so far as the subgame's (CALL, 0) and (RAISE, total) pairs."""
    from gambler.solver.subgame import CALL as SUB_CALL, RAISE as SUB_RAISE

    return [(SUB_RAISE, action.raise_to) if action.kind == RAISE else (SUB_CALL, 0)
            for action in betting.actions[RIVER]]


def subgame_action(betting: BettingState, kind: int, total: int) -> Action:
    """A subgame action made real: a fold (a check when nothing is owed), a call, a raise to
    `total` clamped to the legal range (a call when no raise is legal)."""
    from gambler.solver.subgame import FOLD as SUB_FOLD, RAISE as SUB_RAISE

    legal = betting.legal_actions()
    if kind == SUB_FOLD:
        return FOLD_ACTION if legal.can_fold else CALL_ACTION
    if kind != SUB_RAISE or not legal.can_raise:
        return CALL_ACTION
    return raise_to(legal.clamp(total))


def _label(tree, child: int) -> str:
    from gambler.solver.subgame import FOLD as SUB_FOLD, RAISE as SUB_RAISE

    kind = tree.action[child]
    return "f" if kind == SUB_FOLD else f"r{tree.action_to[child]}" if kind == SUB_RAISE else "c"


def blueprint_ranges(base: BlueprintStrategy, betting: BettingState, position: int, hand: int,
                     board, offsets, policy, cards, holding_cards) -> np.ndarray:
    """Both players' ranges at the start of the river under the blueprint (module docstring,
    item 1): `betting` is the hand's betting, `position` the bot's seat."""
    tree = base.tree
    game = betting.game
    replay = BettingState.start(game)
    node: int | None = 0
    index = 0
    real_bet = max(game.blinds)
    width = int(tree.child_count.max())
    steps: list[tuple[int, int, int, int, list[bool]]] = []
    for round_ in range(min(betting.round, RIVER)):
        for action, actor in zip(betting.actions[round_], betting.actors[round_]):
            if node is not None and tree.kind[node] == DECISION and \
                    tree.round[node] == round_ and tree.player[node] == actor:
                child = base._child_for(node, action, hand, index, real_bet)
                if child is not None:
                    first, count = int(tree.child_start[node]), int(tree.child_count[node])
                    children = [int(c) for c in tree.children[first:first + count]]
                    taken = [c == child for c in children]
                    if actor == position:
                        same = [base._real_action(replay, node, c) == action for c in children]
                        taken = same if any(same) else taken
                    steps.append((node, round_, actor, count, taken + [False] * (width - count)))
                node = child
            else:
                node = None
            if action.kind == RAISE:
                real_bet = action.raise_to
            index += 1
            replay = replay.apply(action)
    width_rows = np.zeros((len(steps), width), dtype=np.bool_)
    for i, step in enumerate(steps):
        width_rows[i] = step[4]
    column = lambda k: np.array([s[k] for s in steps], dtype=np.int64)  # noqa: E731
    reach = np.ones((2, HOLDINGS))
    blueprint_reach(offsets, policy, cards, holding_cards, np.asarray(board, dtype=np.int64),
                    column(0), column(1), column(2), column(3), width_rows, reach)
    live = ~np.isin(holding_cards, np.asarray(board)).any(axis=1)
    reach *= live
    for p in range(2):  # a range the blueprint gives no mass (it cannot, save by rounding):
        if reach[p].sum() <= 0:  # every live holding alike
            reach[p] = live
    return reach


@njit
def _round_buckets_kernel(round_, board, holding_cards, cards, out):
    round_buckets(round_, board, holding_cards, cards, out, np.empty(5, dtype=np.int64))


def river_buckets(base: BlueprintStrategy, board) -> np.ndarray:
    """int64[1326]: each holding's river bucket in `base`'s card abstraction on the five-card
    `board` (-1 for the holdings the board meets)."""
    cards = base.blueprint.game.card_arrays()[1:]
    out = np.empty(HOLDINGS, dtype=np.int64)
    _round_buckets_kernel(RIVER, np.asarray(board, dtype=np.int64),
                          HOLDING_CARDS.astype(np.int64), cards, out)
    return out
