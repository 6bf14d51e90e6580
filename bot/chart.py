"""Preflop charts: the first round played from a table solved by counterfactual regret minimisation.

A chart is a strategy for the preflop betting of heads-up no-limit hold'em on an *abstract* game:
the real rules (blinds, stacks, minimum raises) with the raises limited to a few sizes, each a
number of pots as LBR counts them (`training.lbr`): raise to bet + size x (pot + to_call), moved
up to the minimum raise, and all in; after `cap` raises in the round only all in remains. Every
decision node of that tree holds, for each of the 169 classes of starting hands
(`evaluator.preflop`), the probability of each action. `training.preflop` builds the tree with
`build_tree` and solves it with CFR+ (showdown values when the betting closes: the pot split by
the two hands' exact preflop equity); the solver's average strategy, each class's probabilities
rounded, is the chart (played mixed: purified, it would be far more exploitable).

Playing it in the real game, where the opponent may raise to any amount:

* The round's actions so far are followed down the tree from the root (`follow`). A call or
  check takes the node's call; a raise takes the raise child nearest in size: the size in pots of
  the real raise, (amount - bet) / (pot + to_call) with the real bet, pot and what was owed, is
  compared in logarithm with each raise child's size at its node (all in's size is the stack's);
  a real all in takes the all in child. (This deterministic translation is exploitable by sizes
  half-way between two of the chart's; the chart's sizes are chosen to make the gaps small.)
* At its own decision the bot plays its class's action at the node: a fold (a check if nothing
  is owed), a call, or a raise of the action's size computed on the *real* bet and pot, moved into
  the legal range (all in: the largest legal raise-to; no legal raise: a call).
* If the actions leave the tree (a raise where the chart has no raise child), the chart has no
  answer and the profile's own preflop rules decide for the rest of the round.

Both the TCP bot (`bot.strategies.ProfileStrategy`, with the functions here) and the fast engine
(`training.engine`, with the numba helpers below on the vector of `encode_chart`) play a chart
with these rules, action for action; LBR (`training.lbr`) models it with the same helpers.

File format (`kind: chart`, found by name in `configs/charts/`):

    kind: chart
    name: preflop
    game: {stack: 20000, blinds: [100, 50]}   # position 0's blind first (the big blind)
    sizes: [0.5, 1, 2]                        # raise sizes in pots, besides all in
    cap: 4                                    # raises before only all in remains
    nodes:                                    # per decision node (by its path of action
      root: "ccrr..."                         #   labels, `root` for the first): one letter
      c: "..."                                #   per class, class index order: f fold,
      r1: "..."                               #   c call or check, a all in, 0-9 the k-th size
    mixed:                                    # the classes that mix, per node: each action's
      root: {"AKo": {c: 0.62, "1": 0.38}}     #   probability (they sum to 1)

At a mixed class the bot draws its action with `evaluator.rng.chart_uniform` (the seed, the hand,
the number of actions so far in the round and its position): the first action whose cumulative
probability exceeds the draw.

Every node of the tree must be present and every letter legal at its node; any error names the
file and the node.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from gambler.errors import GamblerError, find_file, read_text, shipped_names
from gambler.evaluator.preflop import class_name
from gambler.jit import helper

SHIPPED_CHARTS = Path(__file__).resolve().parent.parent / "configs" / "charts"
CLASS_COUNT = 169
FOLD, CALL, RAISE = 0, 1, 2  # action kinds, the engine's action codes
FOLD_END, SHOWDOWN = 1, 2    # what ends the hand's betting after an action (0: the tree goes on)
KIND_OF_LETTER = {"f": FOLD, "c": CALL, "r": RAISE}  # a protocol action's kind, as counted here
_METADATA = ("name", "description", "provenance", "solve")


class ChartError(GamblerError, ValueError):
    """A chart file that cannot be read, or a game it was not solved for."""


@dataclass(frozen=True)
class ChartAction:
    """One action at a node. `size`: a raise's size in pots at the node ((target - bet) /
    (pot + to_call); all in's too), compared with a real raise's when translating; `num`/`den`:
    a sized raise's fraction (0/0 for all in); `child`: the next decision node (-1: none);
    `end`: FOLD_END, SHOWDOWN (the betting closes; the cards decide) or 0."""

    label: str
    kind: int
    num: int
    den: int
    target: int
    size: float
    child: int
    end: int


@dataclass(frozen=True)
class ChartNode:
    """A decision node: who acts, both totals, what is owed, and the legal chart actions."""

    path: str
    actor: int
    totals: tuple[int, int]
    last_raise: int
    raises: int
    actions: tuple[ChartAction, ...]


@dataclass(frozen=True, eq=False)
class Chart:
    """A solved preflop chart: its tree and, per node, each class's action index."""

    stack: int
    blinds: tuple[int, int]
    sizes: tuple[Fraction, ...]
    cap: int
    nodes: tuple[ChartNode, ...]
    strategy: tuple   # strategy[node]: float64[actions, 169], each class's action probabilities
    name: str = ""
    description: str = ""
    provenance: str = ""
    solve: dict | None = None


def size_label(size: Fraction) -> str:
    """`r1`, `r0.5`, `r2`, `r1/3` for a raise size in pots."""
    if size.denominator == 1:
        return f"r{size.numerator}"
    decimal = float(size)
    if Fraction(str(decimal)) == size:
        return f"r{decimal:g}"
    return f"r{size.numerator}/{size.denominator}"


@helper
def raise_target(bet, pot, to_call, num, den):
    """bet + num (pot + to_call) // den: a raise of num/den pots after the call, in integer
    chips (one formula for the chart, the engine's chart play and LBR's sizes)."""
    return bet + (num * (pot + to_call)) // den


def build_tree(stack: int, blinds: tuple[int, int], sizes, cap: int) -> tuple[ChartNode, ...]:
    """The abstract preflop tree, decision nodes in breadth-first order (the root first).

    Position 0 posts blinds[0] (the big blind), position 1 blinds[1] and acts first; both have
    `stack` chips. At a node: fold if something is owed; call or check; for each size s (ascending)
    a raise to bet + s (pot + to_call), at least the minimum raise-to (bet + the last raise's
    increment, at least the big blind), if below the stack and not already a child; and all in if
    the actor can raise. After `cap` raises only all in is left. A call or check closes the round
    (a showdown) unless it is the round's first action (the small blind completing); a call of an
    all in closes it too."""
    sizes = tuple(sorted(Fraction(s) for s in sizes))
    big = blinds[0]
    # (path, actor, totals, last raise, raises, actions so far), each numbered when queued
    queue = [("root", 1, (blinds[0], blinds[1]), big, 0, 0)]
    nodes: list[ChartNode] = []
    for path, actor, totals, last_raise, raises, acted in queue:
        bet = max(totals)
        to_call = bet - totals[actor]
        pot = totals[0] + totals[1]
        other = 1 - actor
        prefix = "" if path == "root" else path + " "
        actions = []

        def add(label, kind, num, den, target, end, after=None, raise_size=0):
            child = -1
            if after is not None:
                child = len(queue)
                queue.append((prefix + label, other, after, raise_size or last_raise,
                              raises + (kind == RAISE), acted + 1))
            size = (target - bet) / (pot + to_call) if kind == RAISE else math.nan
            actions.append(ChartAction(label, kind, num, den, target, size, child, end))

        def raised_to(target):
            return (target, totals[1]) if actor == 0 else (totals[0], target)

        if to_call > 0:
            add("f", FOLD, 0, 0, 0, FOLD_END)
        if acted > 0 or totals[other] >= stack:  # a call or check closes the round
            add("c", CALL, 0, 0, 0, SHOWDOWN)
        else:  # the small blind completes: the big blind has its option
            add("c", CALL, 0, 0, 0, 0, raised_to(bet))
        if totals[other] < stack and bet < stack:  # the actor can raise
            low = bet + max(last_raise, big)
            seen = set()
            for size in sizes if raises < cap else ():
                target = max(raise_target(bet, pot, to_call, size.numerator, size.denominator),
                             low)
                if target < stack and target not in seen:
                    seen.add(target)
                    add(size_label(size), RAISE, size.numerator, size.denominator, target, 0,
                        raised_to(target), target - bet)
            add("a", RAISE, 0, 0, stack, 0, raised_to(stack), stack - bet)
        nodes.append(ChartNode(path, actor, totals, last_raise, raises, tuple(actions)))
    return tuple(nodes)


def translate_raise(node: ChartNode, bet: int, pot: int, to_call: int, amount: int,
                    stack: int) -> int:
    """Index of the raise action at `node` that a real raise to `amount` maps to (module
    docstring), or -1 when the node has no raise."""
    raises = [k for k, action in enumerate(node.actions) if action.kind == RAISE]
    if not raises:
        return -1
    if amount >= stack and node.actions[raises[-1]].num == 0:
        return raises[-1]
    size = (amount - bet) / (pot + to_call)
    best, distance = -1, math.inf
    for k in raises:
        gap = abs(math.log(max(size, 1e-9)) - math.log(node.actions[k].size))
        if gap < distance:
            best, distance = k, gap
    return best


def follow(chart: Chart, actions) -> int:
    """The node reached by this round's real `actions` ((kind, raise-to) pairs, FOLD/CALL/RAISE,
    in order, the small blind's first; `KIND_OF_LETTER` turns a protocol action's kind into
    one), or -1 if they left the tree."""
    totals = list(chart.blinds)
    node = 0
    actor = 1
    for kind, amount in actions:
        current = chart.nodes[node]
        bet = max(totals)
        to_call = bet - totals[actor]
        pot = totals[0] + totals[1]
        if kind == RAISE:
            k = translate_raise(current, bet, pot, to_call, amount, chart.stack)
            totals[actor] = amount
        else:
            k = next((k for k, a in enumerate(current.actions) if a.kind == CALL), -1)
            totals[actor] = bet
        if kind == FOLD or k < 0:
            return -1
        node = current.actions[k].child
        if node < 0:
            return -1
        actor = 1 - actor
    return node


def real_action(action: ChartAction, bet: int, pot: int, to_call: int, raise_low: int,
                raise_high: int) -> tuple[int, int]:
    """(kind, raise-to) of a chart action in the real state: a sized raise computed on the real
    bet and pot and moved into [raise_low, raise_high]; all in the highest; no legal raise
    (raise_low < 0): a call; a fold with nothing owed: a check."""
    if action.kind == FOLD:
        return (FOLD, 0) if to_call > 0 else (CALL, 0)
    if action.kind == CALL or raise_low < 0:
        return CALL, 0
    if action.num == 0:
        return RAISE, raise_high
    target = raise_target(bet, pot, to_call, action.num, action.den)
    return RAISE, min(max(target, raise_low), raise_high)


def action_letter(chart_sizes, action: ChartAction) -> str:
    """The file's letter for an action: f, c, a, or the index of its size in `chart_sizes`."""
    if action.kind == FOLD:
        return "f"
    if action.kind == CALL:
        return "c"
    if action.num == 0:
        return "a"
    return str(chart_sizes.index(Fraction(action.num, action.den)))


def chart_text(chart: Chart) -> str:
    """The chart as its YAML file."""
    import yaml

    document = {"kind": "chart"}
    for key in ("name", "description", "provenance"):
        if getattr(chart, key):
            document[key] = getattr(chart, key)
    document["game"] = {"stack": chart.stack, "blinds": list(chart.blinds)}
    document["sizes"] = [_size_number(s) for s in chart.sizes]
    document["cap"] = chart.cap
    if chart.solve:
        document["solve"] = chart.solve
    lines = [yaml.safe_dump(document, sort_keys=False, width=100).rstrip(), "nodes:"]
    mixed = []
    for node, table in zip(chart.nodes, chart.strategy):
        letters = [action_letter(chart.sizes, action) for action in node.actions]
        lines.append(f"  {node.path}: " + "".join(letters[k] for k in np.argmax(table, axis=0)))
        entries = []
        for class_ in range(CLASS_COUNT):
            if table[:, class_].max() < 1.0:
                shares = {letters[k]: round(float(table[k, class_]), 6)
                          for k in range(len(letters)) if table[k, class_] > 0.0}
                entries.append("    " + yaml.safe_dump({class_name(class_): shares}, width=200,
                                                       default_flow_style=None).strip())
        if entries:
            mixed += [f"  {node.path}:", *entries]
    if mixed:
        lines += ["mixed:", *mixed]
    return "\n".join(lines) + "\n"


def _size_number(size: Fraction):
    if size.denominator == 1:
        return size.numerator
    if Fraction(str(float(size))) == size:
        return float(size)
    return f"{size.numerator}/{size.denominator}"


def parse_chart(text: str, source: str = "<chart>") -> Chart:
    """A chart from its YAML text; `ChartError` naming `source` and the field on any fault."""
    from gambler.bot.params import strict_yaml

    document = strict_yaml(text, source, ChartError, fast=True)
    if not isinstance(document, dict) or document.get("kind") != "chart":
        raise ChartError(f"{source}: not a chart file (kind: chart)")
    known = {"kind", "game", "sizes", "cap", "nodes", "mixed", *_METADATA}
    unknown = sorted(set(document) - known)
    if unknown:
        raise ChartError(f"{source}: unknown key {unknown[0]!r}")
    game = document.get("game")
    if not isinstance(game, dict) or set(game) != {"stack", "blinds"}:
        raise ChartError(f"{source}: game: expected {{stack: N, blinds: [BIG, SMALL]}}")
    stack, blinds = game["stack"], game["blinds"]
    if not (isinstance(stack, int) and stack > 0 and isinstance(blinds, list)
            and len(blinds) == 2 and all(isinstance(b, int) and b > 0 for b in blinds)
            and blinds[0] > blinds[1] and blinds[0] < stack):
        raise ChartError(f"{source}: game: a positive stack and blinds [big, small] below it")
    try:
        sizes = tuple(Fraction(str(s)) for s in document.get("sizes", ()))
    except (ValueError, ZeroDivisionError) as error:
        raise ChartError(f"{source}: sizes: {error}") from None
    if not sizes or any(s <= 0 for s in sizes) or len(set(sizes)) != len(sizes) \
            or len(sizes) > 10:
        raise ChartError(f"{source}: sizes: 1 to 10 distinct positive sizes in pots")
    cap = document.get("cap")
    if not isinstance(cap, int) or cap < 1:
        raise ChartError(f"{source}: cap: a positive integer")
    sizes = tuple(sorted(sizes))
    nodes = build_tree(stack, (blinds[0], blinds[1]), sizes, cap)
    table = document.get("nodes")
    if not isinstance(table, dict):
        raise ChartError(f"{source}: nodes: a mapping from node paths to class letters")
    paths = {node.path for node in nodes}
    extra = sorted(set(table) - paths)
    if extra:
        raise ChartError(f"{source}: nodes: {extra[0]!r} is not a node of this tree")
    mixed = document.get("mixed", {})
    if not isinstance(mixed, dict):
        raise ChartError(f"{source}: mixed: a mapping from node paths to classes")
    extra = sorted(set(mixed) - paths)
    if extra:
        raise ChartError(f"{source}: mixed: {extra[0]!r} is not a node of this tree")
    names = {class_name(k): k for k in range(CLASS_COUNT)}
    strategy = []
    for node in nodes:
        letters = table.get(node.path)
        if not isinstance(letters, str) or len(letters) != CLASS_COUNT:
            raise ChartError(f"{source}: nodes: {node.path}: expected {CLASS_COUNT} letters")
        index = {action_letter(sizes, action): k for k, action in enumerate(node.actions)}
        probabilities = np.zeros((len(node.actions), CLASS_COUNT))
        for position, letter in enumerate(letters):
            if letter not in index:
                raise ChartError(f"{source}: nodes: {node.path}: letter {position + 1} "
                                 f"{letter!r} is not an action here ({''.join(index)})")
            probabilities[index[letter], position] = 1.0
        entries = mixed.get(node.path, {})
        if not isinstance(entries, dict):
            raise ChartError(f"{source}: mixed: {node.path}: a mapping from classes to actions")
        for name, shares in entries.items():
            where = f"{source}: mixed: {node.path}: {name}"
            if name not in names:
                raise ChartError(f"{where}: not a class of starting hands (AA, AKs, AKo...)")
            if not isinstance(shares, dict) or not shares:
                raise ChartError(f"{where}: a mapping from action letters to probabilities")
            column = np.zeros(len(node.actions))
            for letter, share in shares.items():
                letter = str(letter)
                if letter not in index:
                    raise ChartError(f"{where}: {letter!r} is not an action here "
                                     f"({''.join(index)})")
                if isinstance(share, bool) or not isinstance(share, (int, float)) \
                        or not 0.0 <= share <= 1.0:
                    raise ChartError(f"{where}: {letter}: a probability in [0, 1]")
                column[index[letter]] = float(share)
            if abs(column.sum() - 1.0) > 1e-3:
                raise ChartError(f"{where}: the probabilities sum to {column.sum():g}, not 1")
            probabilities[:, names[name]] = column / column.sum()
        strategy.append(probabilities)
    return Chart(stack, (blinds[0], blinds[1]), sizes, cap, nodes, tuple(strategy),
                 name=str(document.get("name", "")),
                 description=str(document.get("description", "")),
                 provenance=str(document.get("provenance", "")), solve=document.get("solve"))


def shipped_chart_names() -> list[str]:
    return shipped_names(SHIPPED_CHARTS)


def find_chart_file(name: str | Path) -> Path:
    """A chart by path, or by the name of a shipped one (`preflop`)."""
    return find_file(name, SHIPPED_CHARTS, ChartError, "chart")


_LOADED: dict[tuple[str, int, int], Chart] = {}


def load_chart(name: str | Path) -> Chart:
    """A chart by path or shipped name, parsed once a process (until its file changes)."""
    path = find_chart_file(name)
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _LOADED:
        _LOADED[key] = parse_chart(read_text(path, ChartError), str(path))
    return _LOADED[key]


def check_game(chart: Chart, stacks, blinds, first_player: int = 1) -> None:
    """`ChartError` unless the game is the chart's: both stacks, the blinds by position and the
    small blind (position 1) acting first before the flop."""
    _check_game(chart.stack, chart.blinds, chart.name, stacks, blinds, first_player)


def _check_game(stack: int, chart_blinds, name: str, stacks, blinds, first_player: int) -> None:
    if tuple(stacks) != (stack, stack) or tuple(blinds) != tuple(chart_blinds) \
            or first_player != 1:
        raise ChartError(f"{'chart ' + name if name else 'the chart'} was solved for stacks of "
                         f"{stack} and blinds {list(chart_blinds)} (big blind at position 0, "
                         f"acting second), not stacks {list(stacks)} and blinds {list(blinds)}"
                         + ("" if first_player == 1 else f", position {first_player} first"))


def draw_action(chart: Chart, node: int, class_: int, uniform: float) -> int:
    """The action index a class plays at a node: the first whose cumulative probability exceeds
    `uniform` (the last possible one if rounding leaves none), as the engine draws it."""
    return draw_from(chart.strategy[node][:, class_], uniform)


@helper
def draw_from(shares, uniform):
    """The index of the first action whose cumulative probability in `shares` exceeds `uniform`
    (the last possible one if rounding leaves none)."""
    total = 0.0
    last = 0
    for k in range(shares.shape[0]):
        share = shares[k]
        if share > 0.0:
            total += share
            last = k
            if uniform < total:
                return k
    return last


# --- the chart as the fast engine reads it -------------------------------------------------------
#
# `encode_chart` packs a chart into one float64 vector, which the engine appends to a profile's
# numbers (`training.engine.profile_vector`); the helpers below play it in numba with the rules
# above (the same operations as `translate_raise`, `follow`, `real_action` and `draw_action`, which
# the TCP bot uses; the tests replay the same rounds through both).
#
#   [0] node count   [1] stack   [2] blinds[0] (the big blind)   [3] blinds[1]
#   [4] numbers per node record   [5] where the node records start   [6] where the class table
#   starts: the 169 classes' preflop v in ascending order, then their class indices
#   node record n at [5] + n x [4]: actor, action count, where its probabilities start
#   (float64[actions, 169], row by row), then per action `_ACTION_FIELDS` numbers: kind, num,
#   den, size, child

MAX_CHART_ACTIONS = 13  # fold, call, ten sizes and all in
_HEADER = 8
_ACTION_FIELDS = 5
_RECORD = 3 + _ACTION_FIELDS * MAX_CHART_ACTIONS


def encode_chart(chart: Chart) -> np.ndarray:
    """The chart as one float64 vector (layout above)."""
    from gambler.evaluator.preflop import class_preflop_v

    preflop_v = class_preflop_v()
    order = np.argsort(preflop_v, kind="stable")
    if np.unique(preflop_v).size != CLASS_COUNT:
        raise ChartError("two classes share a preflop v: the engine could not tell them apart")
    records = _HEADER
    classes = records + _RECORD * len(chart.nodes)
    probabilities = classes + 2 * CLASS_COUNT
    size = probabilities + sum(table.size for table in chart.strategy)
    packed = np.zeros(size, dtype=np.float64)
    packed[:_HEADER] = (len(chart.nodes), chart.stack, chart.blinds[0], chart.blinds[1], _RECORD,
                        records, classes, 0)
    packed[classes:classes + CLASS_COUNT] = preflop_v[order]
    packed[classes + CLASS_COUNT:probabilities] = order
    at = probabilities
    for n, (node, table) in enumerate(zip(chart.nodes, chart.strategy)):
        record = records + _RECORD * n
        packed[record:record + 3] = node.actor, len(node.actions), at
        packed[at:at + table.size] = table.ravel()
        at += table.size
        for k, action in enumerate(node.actions):
            start = record + 3 + _ACTION_FIELDS * k
            packed[start:start + _ACTION_FIELDS] = (action.kind, action.num, action.den,
                                                    action.size if action.kind == RAISE else 0.0,
                                                    action.child)
    return packed


def check_game_numbers(packed: np.ndarray, stacks, blinds, first_player: int) -> None:
    """`check_game` on a packed chart (its header)."""
    _check_game(int(packed[1]), (int(packed[2]), int(packed[3])), "", stacks, blinds,
                first_player)


@helper
def packed_class(packed, base, value):
    """The class whose preflop v is `value` (the nearest one: the deal sets' exact v are the
    table's), by bisection in the chart's class table."""
    table = base + np.int64(packed[base + 6])
    low, high = 0, CLASS_COUNT - 1
    while low < high:
        middle = (low + high) // 2
        if packed[table + middle] < value:
            low = middle + 1
        else:
            high = middle
    if low > 0 and value - packed[table + low - 1] < packed[table + low] - value:
        low -= 1
    return np.int64(packed[table + CLASS_COUNT + low])


@helper
def _record(packed, base, node):
    return base + np.int64(packed[base + 5]) + np.int64(packed[base + 4]) * node


@helper
def packed_translate(packed, base, record, bet, pot, to_call, amount):
    """`translate_raise` on the packed node at `record`: the raise action a real raise to
    `amount` maps to, or -1."""
    count = np.int64(packed[record + 1])
    last = -1
    for k in range(count):
        if packed[record + 3 + _ACTION_FIELDS * k] == RAISE:
            last = k
    if last < 0:
        return -1
    if amount >= packed[base + 1] and packed[record + 3 + _ACTION_FIELDS * last + 1] == 0:
        return last
    size = (amount - bet) / (pot + to_call)
    best, distance = -1, np.inf
    for k in range(count):
        action = record + 3 + _ACTION_FIELDS * k
        if packed[action] == RAISE:
            gap = abs(np.log(max(size, 1e-9)) - np.log(packed[action + 3]))
            if gap < distance:
                best, distance = k, gap
    return best


@helper
def packed_follow(packed, base, kinds, amounts, count):
    """`follow` on the packed chart: the node reached by a round's first `count` actions (codes
    in `kinds`, raise-to in `amounts`), or -1."""
    total_0, total_1 = np.int64(packed[base + 2]), np.int64(packed[base + 3])
    node = 0
    actor = 1
    for index in range(count):
        record = _record(packed, base, node)
        bet = max(total_0, total_1)
        to_call = bet - (total_0 if actor == 0 else total_1)
        pot = total_0 + total_1
        kind = kinds[index]
        k = -1
        if kind == RAISE:
            k = packed_translate(packed, base, record, bet, pot, to_call, amounts[index])
            new_total = amounts[index]
        else:
            for j in range(np.int64(packed[record + 1])):
                if packed[record + 3 + _ACTION_FIELDS * j] == CALL:
                    k = j
                    break
            new_total = bet
        if actor == 0:
            total_0 = new_total
        else:
            total_1 = new_total
        if kind == FOLD or k < 0:
            return -1
        node = np.int64(packed[record + 3 + _ACTION_FIELDS * k + 4])
        if node < 0:
            return -1
        actor = 1 - actor
    return node


@helper
def packed_draw(packed, base, node, class_, uniform):
    """`draw_action` on the packed chart."""
    record = _record(packed, base, node)
    start = base + np.int64(packed[record + 2]) + class_
    stop = start + CLASS_COUNT * np.int64(packed[record + 1])
    return draw_from(packed[start:stop:CLASS_COUNT], uniform)


@helper
def packed_share(packed, base, node, action, class_):
    """The probability that `class_` plays action index `action` at `node`."""
    record = _record(packed, base, node)
    return packed[base + np.int64(packed[record + 2]) + CLASS_COUNT * action + class_]


@helper
def packed_real_action(packed, base, node, action, bet, pot, to_call, raise_low, raise_high):
    """`real_action` of action index `action` at `node`: (code, raise-to)."""
    at = _record(packed, base, node) + 3 + _ACTION_FIELDS * action
    kind = packed[at]
    if kind == FOLD:
        return (FOLD, 0) if to_call > 0 else (CALL, 0)
    if kind == CALL or raise_low < 0:
        return CALL, 0
    num, den = np.int64(packed[at + 1]), np.int64(packed[at + 2])
    if num == 0:
        return RAISE, raise_high
    target = raise_target(bet, pot, to_call, num, den)
    return RAISE, min(max(target, raise_low), raise_high)


@helper
def packed_action_count(packed, base, node):
    return np.int64(packed[_record(packed, base, node) + 1])
