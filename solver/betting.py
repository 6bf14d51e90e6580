"""The betting abstraction: which bets the solver considers, and the tree of flat arrays they make.

A `BettingAbstraction` names, for each betting round, the bet sizes the abstract game allows as
fractions of the pot, whether all-in is always one of them, and how many raises a round may hold.
`build_tree` walks the game's own rules (`protocol.betting.BettingState`, the ACPC server's rules)
from the blinds, offering at each decision:

* fold, when something is owed (folding when a check is free is never offered: it is dominated);
* check or call;
* for each fraction f, a raise to  max_spent + f * (2 * max_spent)  chips, the pot after calling
  times f on top of the call (f = 1 is a pot-sized raise), rounded to a chip and clamped to the
  legal range [minimum raise-to, stack]; sizes that land on the same total count once;
* all-in, if `all_in` and raising is legal.

In a limit game the one legal raise size is offered and the fractions are ignored. Raises stop at
`max_raises` per round (or the game's own cap, whichever is lower). Every action in the tree is
therefore legal in the real game: `BettingState.apply` checked it when the tree was built.

The tree is flat for the numba kernels (parents before children, the children of a node
numbered together, in action order):

    kind[n]           DECISION, FOLD (a terminal: somebody folded) or SHOWDOWN (a terminal)
    player[n]         the position to act at a decision, -1 at a terminal
    round[n]          the betting round of a decision; at a terminal, the round the hand ended in
    child_start[n], child_count[n]: children[child_start:+child_count] in action order
    action_kind[n]    the action on the edge into n ('f', 'c', 'r' as FOLD, CALL, RAISE codes)
    action_to[n]      its raise-to total in chips (0 unless a raise)
    spent0[n], spent1[n]: the chips each position has put in at n (blinds included)
    payoff0[n]        at a FOLD terminal, position 0's winnings in chips; at a SHOWDOWN, the stake
                      (each position's equal total): position 0 wins payoff0 * (+1, 0 or -1)

Positions are the ACPC seats of the game: in the shipped heads-up no-limit game position 0 posts
the big blind and acts first after the flop, position 1 posts the small blind and acts first
preflop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from gambler.protocol.betting import CALL, FOLD, RAISE, Action, BettingState
from gambler.protocol.gamedef import Game
from gambler.solver.errors import SolverError

DECISION, FOLD_END, SHOWDOWN = 0, 1, 2
ACTION_CODES = {FOLD: 0, CALL: 1, RAISE: 2}
ROUND_NAMES = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True)
class BettingAbstraction:
    """Bet sizes per round (pot fractions), all-in, and raise caps per round."""

    fractions: tuple[tuple[float, ...], ...]   # per round
    all_in: bool = True
    max_raises: tuple[int, ...] = ()           # per round; () means the game's own caps

    def describe(self, game: Game) -> str:
        """`preflop: 0.5, 1 pot, all-in, at most 3 raises; flop: ...` (limit games: the
        raise size)."""
        caps = self.max_raises or game.max_raises
        parts = []
        for round_, sizes in enumerate(self.fractions):
            name = ROUND_NAMES[round_] if round_ < len(ROUND_NAMES) else f"round {round_}"
            if game.no_limit:
                offered = [f"{', '.join(f'{size:g}' for size in sizes)} pot"] if sizes else []
                offered += ["all-in"] if self.all_in else []
                shown = ", ".join(offered) or "no raises"
            else:
                shown = f"raises of {game.raise_sizes[round_]}"
            parts.append(f"{name}: {shown}, at most {caps[round_]} raises")
        return "; ".join(parts)


def abstraction_from_mapping(data: dict, game: Game, source: str) -> BettingAbstraction:
    """A `BettingAbstraction` from a YAML mapping `{fractions: {preflop: [...], ...},
    all_in: bool, max_raises: {preflop: N, ...}}`; `source` names the file in errors."""
    rounds = game.num_rounds
    names = ROUND_NAMES[:rounds] if rounds <= 4 else tuple(f"round{r}" for r in range(rounds))
    if not isinstance(data, dict):
        raise SolverError(f"{source}: betting: expected a mapping")
    unknown = set(data) - {"fractions", "all_in", "max_raises"}
    if unknown:
        raise SolverError(f"{source}: betting: unknown key {sorted(unknown)[0]!r} (fractions, "
                          "all_in, max_raises)")
    fractions_data = data.get("fractions", {})
    caps_data = data.get("max_raises", {})
    fractions, caps = [], []
    for name in names:
        sizes = fractions_data.get(name, [])
        if not isinstance(sizes, list) or not all(
                isinstance(size, (int, float)) and not isinstance(size, bool) and size > 0
                for size in sizes):
            raise SolverError(f"{source}: betting.fractions.{name}: expected a list of positive "
                              f"numbers, got {sizes!r}")
        fractions.append(tuple(float(size) for size in sizes))
        cap = caps_data.get(name, game.max_raises[names.index(name)])
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 0:
            raise SolverError(f"{source}: betting.max_raises.{name}: expected a whole number "
                              f">= 0, got {cap!r}")
        caps.append(cap)
    for key, given in (("fractions", fractions_data), ("max_raises", caps_data)):
        extra = set(given) - set(names)
        if extra:
            raise SolverError(f"{source}: betting.{key}: unknown round {sorted(extra)[0]!r} "
                              f"({', '.join(names)})")
    all_in = data.get("all_in", True)
    if not isinstance(all_in, bool):
        raise SolverError(f"{source}: betting.all_in: expected true or false, got {all_in!r}")
    return BettingAbstraction(tuple(fractions), all_in, tuple(caps))


@dataclass(frozen=True)
class BettingTree:
    """The abstract game's betting tree as flat arrays (see the module docstring)."""

    game: Game
    abstraction: BettingAbstraction
    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    child_start: np.ndarray
    child_count: np.ndarray
    children: np.ndarray
    action_kind: np.ndarray
    action_to: np.ndarray
    spent0: np.ndarray
    spent1: np.ndarray
    payoff0: np.ndarray
    betting: tuple[str, ...] = field(repr=False)  # the ACPC betting string at each node

    @property
    def nodes(self) -> int:
        return int(self.kind.shape[0])

    def decisions_per_round(self) -> list[int]:
        decisions = self.kind == DECISION
        return [int(np.count_nonzero(decisions & (self.round == r)))
                for r in range(self.game.num_rounds)]

    def actions_per_round(self) -> list[int]:
        """Decision-action pairs per round (a round's table holds this many entries a bucket)."""
        decisions = self.kind == DECISION
        return [int(self.child_count[decisions & (self.round == r)].sum())
                for r in range(self.game.num_rounds)]

    def node_of(self, betting: str) -> int:
        """The node reached by an ACPC betting string (`SolverError` if it is off the tree)."""
        try:
            return self.betting.index(betting)
        except ValueError:
            raise SolverError(f"betting {betting!r} is not in the abstract tree") from None

    def action_label(self, node: int) -> str:
        """The ACPC form of the action on the edge into `node`."""
        code = int(self.action_kind[node])
        if code == ACTION_CODES[RAISE]:
            return f"r{int(self.action_to[node])}" if self.game.no_limit else "r"
        return FOLD if code == ACTION_CODES[FOLD] else CALL


def raise_targets(state: BettingState, fractions, all_in: bool, cap: int) -> list[int]:
    """The abstract raise-to totals at `state`, ascending, each legal (see the module docstring)."""
    legal = state.legal_actions()
    if legal.min_raise_to is None or state.raises_this_round >= cap:
        return []
    low, high = legal.min_raise_to, legal.max_raise_to
    if not state.game.no_limit:
        return [low]
    targets = set()
    pot_after_call = 2 * state.max_spent
    for fraction in fractions:
        wanted = state.max_spent + Fraction(fraction).limit_denominator(1000) * pot_after_call
        targets.add(min(max(int(round(wanted)), low), high))
    if all_in:
        targets.add(high)
    return sorted(targets)


def build_tree(game: Game, abstraction: BettingAbstraction, max_nodes: int = 20_000_000
               ) -> BettingTree:
    """The betting tree of `abstraction` on `game` (heads-up only), walked from the blinds."""
    if game.num_players != 2:
        raise SolverError(f"the solver plays heads-up games; this game has {game.num_players} "
                          "players")
    if len(abstraction.fractions) != game.num_rounds:
        raise SolverError(f"the betting abstraction names {len(abstraction.fractions)} rounds; "
                          f"the game has {game.num_rounds}")
    caps = abstraction.max_raises or game.max_raises
    columns = {name: [] for name in ("kind", "player", "round", "action_kind", "action_to",
                                     "spent0", "spent1", "payoff0")}
    children: list[list[int]] = []
    betting: list[str] = []

    def add(state: BettingState, action: Action | None) -> int:
        index = len(betting)
        if index >= max_nodes:
            raise SolverError(f"the betting tree has more than {max_nodes:,} nodes: use fewer "
                              "bet sizes or lower raise caps")
        if state.finished:
            if state.folded[0] or state.folded[1]:
                kind, payoff = FOLD_END, (state.spent[1] if state.folded[1] else -state.spent[0])
            else:
                if state.spent[0] != state.spent[1]:
                    raise SolverError(f"showdown with unequal stakes at {state.betting_string()!r}"
                                      " (unequal stacks are not supported)")
                kind, payoff = SHOWDOWN, state.spent[0]
            player = -1
        else:
            kind, payoff, player = DECISION, 0, state.current_player
        columns["kind"].append(kind)
        columns["player"].append(player)
        columns["round"].append(state.round)
        columns["action_kind"].append(ACTION_CODES[action.kind] if action else -1)
        columns["action_to"].append(action.raise_to if action and action.kind == RAISE else 0)
        columns["spent0"].append(state.spent[0])
        columns["spent1"].append(state.spent[1])
        columns["payoff0"].append(payoff)
        children.append([])
        betting.append(state.betting_string())
        return index

    def actions_at(state: BettingState) -> list[Action]:
        legal = state.legal_actions()
        actions = [Action(FOLD)] if legal.can_fold else []
        actions.append(Action(CALL))
        round_ = state.round
        for target in raise_targets(state, abstraction.fractions[round_], abstraction.all_in,
                                    caps[round_]):
            actions.append(Action(RAISE, target if game.no_limit else 0))
        return actions

    # Depth first with an explicit stack, children in action order (pre-order indices).
    root = add(BettingState.start(game), None)
    stack = [(root, BettingState.start(game))]
    while stack:
        node, state = stack.pop()
        if state.finished:
            continue
        made = []
        for action in actions_at(state):
            after = state.apply(action)
            made.append((after, action))
        # Pre-order: give indices in order as each child is expanded; children are expanded
        # depth first, so push them reversed after indexing them lazily.
        pending = []
        for after, action in made:
            child = add(after, action)
            children[node].append(child)
            pending.append((child, after))
        stack.extend(reversed(pending))
    starts, counts, flat = [], [], []
    for kids in children:
        starts.append(len(flat))
        counts.append(len(kids))
        flat.extend(kids)
    as_array = {name: np.array(values, dtype=np.int64 if name.startswith(("spent", "payoff",
                                                                          "action_to"))
                               else np.int8) for name, values in columns.items()}
    return BettingTree(game=game, abstraction=abstraction, kind=as_array["kind"],
                       player=as_array["player"], round=as_array["round"],
                       child_start=np.array(starts, dtype=np.int64),
                       child_count=np.array(counts, dtype=np.int64),
                       children=np.array(flat, dtype=np.int64),
                       action_kind=as_array["action_kind"], action_to=as_array["action_to"],
                       spent0=as_array["spent0"], spent1=as_array["spent1"],
                       payoff0=as_array["payoff0"], betting=tuple(betting))
