"""Blueprint profiles (`kind: blueprint`): playing a strategy that `gambler-solve` computed.

    kind: blueprint
    description: MCCFR blueprint of holdem.nolimit.2p.reverse_blinds.game, 200,000,000 iterations
    solve: config.yaml        # the solve config: the game, the card and betting abstractions
    strategy: strategy.npy    # the average strategy, in the solve's table layout

Paths are relative to the profile's folder (a run folder of `gambler-solve`). The strategy is
memory-mapped, so loading reads the betting tree and the card abstraction's tables (from the
cache, `gambler-cache`), not the strategy. A decision:

1. The hand's real betting is walked down the abstract tree. Fold and call are themselves. A
   raise is measured as a fraction of the pot, x = (raise-to - bet) / (2 * bet) (the pot after
   calling times x on top of the call, as the abstraction sizes its own), and translated to the
   abstract raises around it by the pseudo-harmonic mapping of Ganzfried and Sandholm (2013):
   between abstract fractions A < x < B it becomes A with probability
   f(x) = (B - x)(1 + A) / ((B - A)(1 + x)), else B; below the smallest or above the largest
   it becomes that one; an all-in becomes the abstract all-in. The draw is seeded by (seed,
   hand, action), so the same hand translates the same way every time. The bot's own raises are
   abstract sizes, so they come back to themselves.
2. The bot's bucket in the round (`solver.cards`, or the exact cards in a game whose deals can be
   listed) picks the information set; the action is drawn from the strategy there, seeded by
   (seed, hand, decision).
3. The abstract action becomes a real one: fold (a check when nothing is owed), call, or a raise
   of the same pot fraction in the real hand, clamped to the legal range (all-in stays all-in;
   a raise that is not legal becomes a call). Never an illegal action.

A blueprint installed by `gambler-solve CONFIG --install NAME` is found by its name alone
(`installed_blueprint`): `gambler HOST PORT -p blueprint` after
`gambler-solve blueprint --install blueprint`.

When the real betting leaves the tree (a raise where the abstraction's raise cap allows none),
the bot checks or calls for the rest of the hand; `act_and_explain` says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gambler.bot.params import ProfileError, find_profile_file, kind_document
from gambler.evaluator.rng import GOLDEN_GAMMA
from gambler.protocol.betting import (CALL, CALL_ACTION, FOLD, FOLD_ACTION, RAISE, Action,
                                      BettingState, raise_to)
from gambler.protocol.matchstate import MatchState
from gambler.solver.betting import ACTION_CODES, DECISION
from gambler.solver.cards import pair_index
from gambler.solver.errors import SolverError

BLUEPRINT_KEYS = ("kind", "description", "solve", "strategy")
_FOLD, _CALL, _RAISE = ACTION_CODES[FOLD], ACTION_CODES[CALL], ACTION_CODES[RAISE]
#: Salts of the blueprint's two streams of draws, apart from each other and from every other.
_ACTION_STREAM = 0x626C75657072696E   # "blueprin"
_TRANSLATE_STREAM = 0x7472616E736C6174  # "translat"


def pseudo_harmonic(smaller: float, larger: float, size: float) -> float:
    """The probability that a bet of pot fraction `size` maps to `smaller` rather than `larger`
    (smaller <= size <= larger): (B - x)(1 + A) / ((B - A)(1 + x)); 1 at A, 0 at B."""
    if larger <= smaller:
        return 1.0
    return ((larger - size) * (1 + smaller)) / ((larger - smaller) * (1 + size))


_MASK = 2**64 - 1


def _mix64(z: int) -> int:
    """SplitMix64's output function (`evaluator.rng.mix64`) on Python integers."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def draw(seed: int, salt: int, hand: int, index: int) -> float:
    """A uniform draw in [0, 1) for one (hand, index) of one stream (SplitMix64 of a state
    mixed from the seed, the salt, the hand and the index)."""
    gamma = int(GOLDEN_GAMMA)
    state = _mix64(((seed ^ salt) * gamma + _mix64((hand * 4096 + index + gamma) & _MASK))
                   & _MASK)
    return (_mix64((state + gamma) & _MASK) >> 11) * (1.0 / 9007199254740992.0)


@dataclass
class Blueprint:
    """A loaded blueprint: its abstract game (tree and chance model) and its strategy."""

    source: str
    description: str
    game: object          # solver.solve.AbstractGame
    policy: np.ndarray    # float32, memory-mapped
    labels: dict | None   # lossless games: per round, cards -> bucket

    @property
    def name(self) -> str:
        return Path(self.source).stem


def installed_blueprint(name: str) -> Path | None:
    """The profile of the blueprint installed as `name` (`caches.blueprints_dir()`), or None."""
    from gambler import caches

    if not name or "/" in name or name.startswith("."):
        return None
    path = caches.blueprints_dir() / name / "blueprint.yaml"
    return path if path.is_file() else None


def installed_blueprint_names() -> list[str]:
    from gambler import caches

    home = caches.blueprints_dir()
    if not home.is_dir():
        return []
    return sorted(path.parent.name for path in home.glob("*/blueprint.yaml")
                  if not path.parent.name.startswith("."))


def missing_blueprint_hint(name: str) -> str | None:
    """For the name of a shipped solve config that is not installed: how to build it."""
    from gambler.solver.config import shipped_config_names

    if name not in shipped_config_names():
        return None
    return (f"{name!r} is a blueprint built on this machine, not shipped: build it once with "
            f"`gambler-solve {name} --install {name}` (see docs/profiles.md#blueprints)")


def load_blueprint(name: str | Path) -> Blueprint:
    """The blueprint profile at `name` (a path); `ProfileError` naming the file otherwise."""
    path = find_profile_file(name)
    source = str(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise ProfileError(f"{source}: cannot read it ({error.strerror or error})") from None
    document = kind_document(text, source, "blueprint", BLUEPRINT_KEYS)
    for key in ("solve", "strategy"):
        if not isinstance(document.get(key), str):
            raise ProfileError(f"{source}: {key}: expected the path of the solve's "
                               f"{'config' if key == 'solve' else 'strategy file'}")
    from gambler.solver.config import load_config
    from gambler.solver.run import abstract_game

    folder = path.parent
    try:
        config = load_config(str(folder / document["solve"]))
        game = abstract_game(config)
    except SolverError as error:
        raise ProfileError(f"{source}: solve: {error}") from None
    strategy = folder / document["strategy"]
    try:
        policy = np.load(strategy, mmap_mode="r")
    except (OSError, ValueError) as error:
        raise ProfileError(f"{source}: strategy: cannot read {strategy} ({error})") from None
    if policy.shape != (game.size,):
        raise ProfileError(f"{source}: strategy: {strategy} has {policy.shape[0]:,} entries; "
                           f"the solve's tables have {game.size:,} (another abstraction?)")
    labels = None
    if game.deals is not None and game.deals.kind == "lossless":
        labels = {r: {cards: b for b, cards in enumerate(per_round)}
                  for r, per_round in enumerate(game.deals.labels)}
    return Blueprint(source, str(document.get("description", "")), game, policy, labels)


def _pot_fraction(spent_to: int, bet: int) -> float:
    return (spent_to - bet) / (2 * bet) if bet > 0 else float(spent_to)


class BlueprintStrategy:
    """Plays a `Blueprint` (see the module docstring)."""

    def __init__(self, blueprint: Blueprint, seed: int = 0):
        self.blueprint = blueprint
        self.name = blueprint.name
        self.seed = seed
        tree = blueprint.game.tree
        self.tree = tree
        self._stack = tree.game.stacks[0]

    # --- 1. the real betting on the abstract tree --------------------------------------------------

    def abstract_node(self, betting: BettingState, hand: int) -> int | None:
        """The abstract node the hand's betting translates to, or None once it left the tree."""
        tree = self.tree
        node = 0
        index = 0
        real_bet = max(betting.game.blinds)  # the largest total so far in the real hand
        for round_, (actions, actors) in enumerate(zip(betting.actions, betting.actors)):
            for action, actor in zip(actions, actors):
                if tree.kind[node] != DECISION or tree.round[node] != round_ or \
                        tree.player[node] != actor:
                    return None
                node = self._child_for(node, action, hand, index, real_bet)
                if node is None:
                    return None
                if action.kind == RAISE:
                    real_bet = action.raise_to
                index += 1
        return node

    def _child_for(self, node, action: Action, hand, index, real_bet):
        tree = self.tree
        first, count = tree.child_start[node], tree.child_count[node]
        children = tree.children[first:first + count]
        code = ACTION_CODES[action.kind]
        if code != _RAISE:
            for child in children:
                if tree.action_kind[child] == code:
                    return int(child)
            return None
        raises = [int(child) for child in children if tree.action_kind[child] == _RAISE]
        if not raises:
            return None
        if not tree.game.no_limit:
            return raises[0]
        abstract_bet = max(tree.spent0[node], tree.spent1[node])
        if action.raise_to >= self._stack:
            for child in raises:
                if tree.action_to[child] >= self._stack:
                    return child
        size = _pot_fraction(action.raise_to, real_bet)
        sizes = [_pot_fraction(int(tree.action_to[child]), abstract_bet) for child in raises]
        if size <= sizes[0]:
            return raises[0]
        if size >= sizes[-1]:
            return raises[-1]
        for k in range(len(sizes) - 1):
            if sizes[k] <= size <= sizes[k + 1]:
                keep_smaller = pseudo_harmonic(sizes[k], sizes[k + 1], size)
                u = draw(self.seed, _TRANSLATE_STREAM, hand, index)
                return raises[k] if u < keep_smaller else raises[k + 1]
        return raises[-1]

    # --- 2. the bucket and the strategy -----------------------------------------------------------

    def bucket(self, state: MatchState, round_: int) -> int:
        hole = tuple(state.our_hole)
        game = self.blueprint.game
        if game.deals is not None and game.deals.kind == "categories":
            from gambler.solver.deals import category_buckets

            shown = state.game.board_cards_through(round_)
            return int(category_buckets(np.array([hole]), np.array([state.board[:shown]]))
                       [0, round_])
        if self.blueprint.labels is not None:
            seen = tuple(sorted(hole))
            start = 0
            for r in range(round_ + 1):
                cut = state.game.board_cards_through(r)
                seen += tuple(sorted(state.board[start:cut]))
                start = cut
            return self.blueprint.labels[round_][seen]
        if round_ == 0:
            return int(game.cards.preflop[pair_index(*hole)])
        from gambler.solver.cards import BINOMIAL, PERMUTATIONS, _lookup_row

        count = 2 + round_  # board cards on the flop, turn, river
        cards = game.cards
        row, pair = _lookup_row(np.array(state.board[:count], dtype=np.int64), count, BINOMIAL,
                                cards.raw_to_row[count - 3], cards.raw_perm[count - 3],
                                PERMUTATIONS, hole[0], hole[1], np.empty(5, dtype=np.int64))
        return int(cards.tables[round_ - 1][row, pair])

    def distribution(self, state: MatchState) -> tuple[int | None, np.ndarray | None]:
        """(abstract node, the strategy's probabilities over its children) for our decision;
        (None, None) off the tree."""
        node = self.abstract_node(state.betting, state.hand)
        if node is None or self.tree.kind[node] != DECISION or \
                self.tree.player[node] != state.position:
            return None, None
        game = self.blueprint.game
        count = int(self.tree.child_count[node])
        start = int(game.offsets[node]) + self.bucket(state, int(self.tree.round[node])) * count
        probabilities = np.asarray(self.blueprint.policy[start:start + count], dtype=np.float64)
        total = probabilities.sum()
        return node, (probabilities / total if total > 0 else np.full(count, 1 / count))

    # --- 3. the real action ---------------------------------------------------------------------

    def act(self, state: MatchState) -> Action:
        return self.act_and_explain(state)[0]

    def act_and_explain(self, state: MatchState) -> tuple[Action, dict[str, object]]:
        node, probabilities = self.distribution(state)
        if node is None:
            return CALL_ACTION, {"blueprint": "off the abstract tree: check or call"}
        decision = sum(len(actions) for actions in state.betting.actions)
        u = draw(self.seed, _ACTION_STREAM, state.hand, decision)
        choice = int(np.searchsorted(np.cumsum(probabilities), u, side="right"))
        choice = min(choice, len(probabilities) - 1)
        tree = self.tree
        child = int(tree.children[tree.child_start[node] + choice])
        action = self._real_action(state.betting, node, child)
        return action, {"abstract_node": tree.betting[node],
                        "probabilities": " ".join(f"{tree.action_label(int(c))}:{p:.3f}" for c, p
                                                  in zip(tree.children[tree.child_start[node]:
                                                                       tree.child_start[node]
                                                                       + len(probabilities)],
                                                         probabilities)),
                        "abstract_action": tree.action_label(child)}

    def _real_action(self, betting: BettingState, node: int, child: int) -> Action:
        tree = self.tree
        legal = betting.legal_actions()
        code = tree.action_kind[child]
        if code == _FOLD:
            return FOLD_ACTION if legal.can_fold else CALL_ACTION
        if code == _CALL or not legal.can_raise:
            return CALL_ACTION
        if not betting.game.no_limit or tree.action_to[child] >= self._stack:
            return raise_to(legal.max_raise_to if betting.game.no_limit else legal.min_raise_to)
        abstract_bet = max(tree.spent0[node], tree.spent1[node])
        size = _pot_fraction(int(tree.action_to[child]), abstract_bet)
        wanted = betting.max_spent + size * 2 * betting.max_spent
        return raise_to(legal.clamp(int(round(wanted))))
