"""Solve a preflop chart (`bot.chart`) by CFR+ on the abstract preflop game.

The game: the chart's tree (`bot.chart.build_tree`: the real blinds, stacks and minimum raises,
raises limited to a few sizes in pots and all in), each player dealt one of the 1,326 holdings,
disjoint. When the betting closes with a call the hand is scored at the showdown by the two
holdings' exact preflop equity (`evaluator.matchups`): each player has put in T, the pot 2T is
split by equity, so the holder of equity e wins (2e - 1) T. A fold loses what the folder put in.
(No one bets after the flop in this game: the values are the equities of a check-down, the same
assumption LBR makes when it looks one step ahead.)

A postflop edge (`--postflop-edge E`): the player who will play the chart is not as good after
the flop as the check-down assumes (the automaton's postflop rules meet opponents that bet into
them), so a pot that reaches the flop with chips behind costs that player E times its stake,
paid to the other: (2e - 1) T - E T. Its strategy is solved twice, once in each seat (the other
player's is an equilibrium reply, not kept), and the chart takes each node from the solve in
which the node's actor is the taxed player. The two seats may pay different edges
(`--postflop-edge E_BB,E_SB`): the small blind acts last after the flop, the big blind first.
An edge may also depend on the taxed player's class (`--edge-slope S` or `S_BB,S_SB`): class c
pays E + S (e_c - 1/2), e_c its preflop equity against a random holding, so with S < 0 the
strong classes, which keep more of their equity after the flop, pay less than the weak ones
(measured against LBR: experiments/realisation/summary.py fits this line per seat).

A strategy gives each of the 169 classes (`evaluator.preflop`) one distribution per decision
node, all holdings of a class alike. With card removal the values are per class, summed over the
class's holdings and the opponent's compatible holdings:

    N[i, j] = number of disjoint (a, b) with a in class i, b in class j
    D[i, j] = sum over those pairs of (2 equity(a, b) - 1)

so at a showdown for T each, class i of the traverser gains T (D pi)[i], pi the opponent's reach
per holding of each class, and a fold by the opponent wins its total times (N pi)[i].

CFR+ (Tammelin 2014; Tammelin, Burch, Johanson and Bowling 2015): regret matching on regrets
floored at zero, alternating updates, the average strategy weighted linearly by iteration; the
traversal is vectorised over classes (Johanson et al. 2012, "Efficient Nash equilibrium
approximation through Monte Carlo counterfactual regret minimization", public-tree form). The
exploitability of the average strategy, (BR_0 + BR_1) / 2 with BR_p the best response's value in
position p, is exact in this game and falls toward 0 as it converges; `tests/test_preflop_chart.py`
checks the solver on Kuhn poker (value -1/18 for the first player) and on this game.

**A chart's price at given edges** (`--evaluate CHART --postflop-edge E_BB,E_SB`,
`chart_best_response`): what a best response in this game wins against a chart already written,
when the chart's player pays E_BB as the big blind and E_SB as the small blind: against its big
blind, the best response's value in position 1 of the game taxing position 0 at E_BB, and against
its small blind, in position 0 of the game taxing position 1 at E_SB (each reads only the chart's
nodes of the seat it plays against). With the edges a profile gives up after the flop against
LBR (`experiments/realisation/measure.py`), it is what LBR would win if it best-responded before
the flop in the chart's tree: a bound on the chart's side of the trade, computed in a second.
A chart that folds every hand (checking a limp) gives it 500 mbb/hand against its small blind
and, with no edge, 1,000 against its big blind: a bot that folds every hand loses 750.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import numpy as np

from gambler.bot.chart import FOLD_END, Chart, build_tree, chart_text


@dataclass(frozen=True)
class PreflopGame:
    """The tree and the class matrices (`N`, `D` in the module docstring) of an abstract game;
    `pairs`: the number of deals (ordered pairs of disjoint holdings), for per-hand values."""

    nodes: tuple
    counts: np.ndarray
    showdown: np.ndarray
    pairs: float
    stack: int = 0
    edge: float | np.ndarray = 0.0  # the postflop edge E against position `taxed` (module
    taxed: int = -1                 # docstring), one number or one per class of the taxed player


@lru_cache(maxsize=1)
def class_matrices() -> tuple[np.ndarray, np.ndarray]:
    """(N, D), float64[169, 169]: compatible pairs and summed 2 equity - 1 (module docstring),
    from the shipped exact preflop matchup table."""
    from gambler.evaluator.holdings import HOLDING_CARDS
    from gambler.evaluator.matchups import PREFLOP_BOARDS, preflop_counts
    from gambler.evaluator.preflop import class_indices

    holdings = np.asarray(HOLDING_CARDS, dtype=np.uint8)
    classes = class_indices(holdings)
    count = holdings.shape[0]
    first, second = np.meshgrid(np.arange(count), np.arange(count), indexing="ij")
    first, second = first.ravel(), second.ravel()
    a, b = holdings[first], holdings[second]
    disjoint = ((a[:, 0] != b[:, 0]) & (a[:, 0] != b[:, 1]) & (a[:, 1] != b[:, 0])
                & (a[:, 1] != b[:, 1]))
    first, second = first[disjoint], second[disjoint]
    counts = preflop_counts(holdings[first], holdings[second])
    value = (counts[:, 0] - counts[:, 2]) / PREFLOP_BOARDS  # (wins + ties/2) * 2 - 1 = w - l
    n = np.zeros((169, 169))
    d = np.zeros((169, 169))
    np.add.at(n, (classes[first], classes[second]), 1.0)
    np.add.at(d, (classes[first], classes[second]), value)
    return n, d


def class_equities() -> np.ndarray:
    """float64[169]: each class's preflop equity against a random holding (wins plus half the
    ties, over every disjoint holding and board), from the class matrices: (D 1 / N 1 + 1) / 2."""
    counts, showdown = class_matrices()
    return (showdown.sum(axis=1) / counts.sum(axis=1) + 1.0) / 2.0


def preflop_game(stack: int = 20000, blinds=(100, 50), sizes=(0.5, 1, 2), cap: int = 3,
                 edge: float = 0.0, taxed: int = -1, slope: float = 0.0) -> PreflopGame:
    """The abstract preflop game of a chart's tree with the hold'em class matrices; `edge` E
    against position `taxed` (module docstring; 0: the plain check-down game), and with a
    `slope` S the edge of class c is E + S (e_c - 1/2) (`class_equities`)."""
    counts, showdown = class_matrices()
    per_class = edge + slope * (class_equities() - 0.5) if slope else edge
    return PreflopGame(build_tree(stack, tuple(blinds), sizes, cap), counts, showdown,
                       float(counts.sum()), stack, per_class, taxed)


def _normalised(table: np.ndarray) -> np.ndarray:
    """Each class's column divided by its sum (uniform where the sum is 0)."""
    total = table.sum(axis=0)
    return np.where(total > 0.0, table / np.where(total > 0.0, total, 1.0), 1.0 / table.shape[0])


def _matching(regrets: np.ndarray) -> np.ndarray:
    """Regret matching: each class's positive regrets normalised (uniform if none)."""
    return _normalised(np.maximum(regrets, 0.0))


def _terminal(game: PreflopGame, node, action, player: int, reach: np.ndarray) -> np.ndarray:
    """The traverser's values per class after a closing action at `node` (opponent reach)."""
    totals = list(node.totals)
    if action.end == FOLD_END:
        folder = node.actor
        won = -totals[player] if folder == player else totals[1 - player]
        return won * (game.counts @ reach)
    totals[node.actor] = max(totals)  # the call
    stake = min(totals)
    value = stake * (game.showdown @ reach)
    if game.taxed >= 0 and stake < game.stack:  # to the flop with chips behind: the edge is paid
        if player == game.taxed:  # by each of the traverser's classes, at its own edge
            value = value - stake * game.edge * (game.counts @ reach)
        else:                     # to it, by each opposing class at that class's edge
            value = value + stake * (game.counts @ (game.edge * reach))
    return value


def _traverse(game, regrets, sums, weight, player, index, reach, mode):
    """Values per class for `player` at node `index`, the opponent's reach `reach` (per holding
    of each class). mode 0: CFR+ update (regrets of `player`, the opponent's average strategy
    sums weighted by `weight`); 1: best response of `player` to the average strategy in `sums`;
    2: the average strategy's own value."""
    node = game.nodes[index]
    actions = node.actions
    if mode == 1 and node.actor == player:
        strategy = None  # a best response reads no strategy of its own
    elif mode == 0:
        strategy = _matching(regrets[index])
    else:
        strategy = _normalised(sums[index])
    if node.actor == player:
        values = np.empty((len(actions), reach.shape[0]))
        for k, action in enumerate(actions):
            values[k] = (_terminal(game, node, action, player, reach) if action.child < 0 else
                         _traverse(game, regrets, sums, weight, player, action.child, reach,
                                   mode))
        if mode == 1:
            return values.max(axis=0)
        value = (strategy * values).sum(axis=0)
        if mode == 0:
            regrets[index] = np.maximum(regrets[index] + values - value, 0.0)
        return value
    value = np.zeros(reach.shape[0])
    if mode == 0:
        sums[index] += weight * strategy * reach
    for k, action in enumerate(actions):
        branch = reach * strategy[k]
        value += (_terminal(game, node, action, player, branch) if action.child < 0 else
                  _traverse(game, regrets, sums, weight, player, action.child, branch, mode))
    return value


@dataclass
class Solution:
    """A solver's state: regrets and average strategy sums per node (actions x classes)."""

    game: PreflopGame
    regrets: list
    sums: list
    iterations: int = 0

    def average(self) -> list[np.ndarray]:
        """The average strategy per node (actions x classes). A class that never reaches a node
        by its own earlier actions (reach below 1e-9 of the iterations' weight) never plays
        there: it gets the node's first action (a fold, or a check), to keep the chart small."""
        out = []
        weight = self.iterations * (self.iterations + 1) / 2.0
        for table in self.sums:
            total = table.sum(axis=0)
            reached = total > 1e-9 * weight
            average = np.zeros_like(table)
            average[:, reached] = table[:, reached] / total[reached]
            average[0, ~reached] = 1.0
            out.append(average)
        return out


def new_solution(game: PreflopGame) -> Solution:
    classes = game.counts.shape[0]
    shapes = [(len(node.actions), classes) for node in game.nodes]
    return Solution(game, [np.zeros(s) for s in shapes], [np.zeros(s) for s in shapes])


def cfr_plus(solution: Solution, iterations: int, progress=None) -> Solution:
    """Run CFR+ iterations (alternating: position 0 then 1 each iteration, the average weighted
    by the iteration number). `progress(iteration)` is called after each."""
    game = solution.game
    ones = np.ones(game.counts.shape[0])
    for _ in range(iterations):
        solution.iterations += 1
        for player in (0, 1):
            _traverse(game, solution.regrets, solution.sums, float(solution.iterations), player,
                      0, ones, 0)
        if progress is not None:
            progress(solution.iterations)
    return solution


def values_per_hand(game: PreflopGame, sums: list, mode: int) -> tuple[float, float]:
    """(position 0's, position 1's) value per hand in chips: against the average strategy in
    `sums`, by a best response (mode 1) or by the strategy itself (mode 2)."""
    ones = np.ones(game.counts.shape[0])
    out = []
    for player in (0, 1):
        values = _traverse(game, None, sums, 0.0, player, 0, ones, mode)
        out.append(float(values.sum()) / game.pairs)
    return out[0], out[1]


def exploitability(game: PreflopGame, sums: list) -> float:
    """(BR_0 + BR_1) / 2 in chips per hand: what a best response wins on average over the two
    seats against the average strategy (0 at an equilibrium)."""
    best_0, best_1 = values_per_hand(game, sums, 1)
    return (best_0 + best_1) / 2.0


def chart_best_response(chart: Chart, edges: tuple[float, float] = (0.0, 0.0),
                        slopes: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """(against its big blind, against its small blind): what a best response wins per hand, in
    chips, against `chart` in the abstract game when the chart's player pays `edges` (and
    `slopes`) after the flop as the big blind and as the small blind (module docstring, "A
    chart's price at given edges")."""
    against = []
    for seat, responder in ((0, 1), (1, 0)):
        game = preflop_game(chart.stack, chart.blinds, chart.sizes, chart.cap, edges[seat], seat,
                            slopes[seat])
        against.append(values_per_hand(game, list(chart.strategy), 1)[responder])
    return against[0], against[1]


def rounded(strategy: list[np.ndarray], least: float = 0.005) -> tuple[np.ndarray, ...]:
    """The strategy as a chart file holds it: probabilities below `least` dropped, the rest
    renormalised and rounded to 3 decimals (each class's largest absorbing the rounding)."""
    out = []
    for table in strategy:
        kept = np.where(table >= least, table, 0.0)
        kept = np.round(kept / kept.sum(axis=0), 3)
        top = np.argmax(kept, axis=0)
        columns = np.arange(kept.shape[1])
        kept[top, columns] += 1.0 - kept.sum(axis=0)
        out.append(np.round(kept, 3))
    return tuple(out)


def _seat_numbers(letter: str):
    """A parser of one number for both seats, or the big blind's and the small blind's (the
    option's `letter` names them in the error: E or E_BB,E_SB)."""
    def parse(text: str) -> tuple[float, float]:
        try:
            numbers = tuple(float(word) for word in text.split(","))
        except ValueError:
            numbers = ()
        if len(numbers) not in (1, 2) or not all(np.isfinite(number) for number in numbers):
            raise argparse.ArgumentTypeError(
                f"{text!r}: expected {letter} or {letter}_BB,{letter}_SB (numbers)")
        return (numbers[0], numbers[-1])
    return parse


def _seats_text(numbers: tuple[float, float]) -> str:
    """The option's value as written back: one number if both seats agree."""
    return f"{numbers[0]:g}" if numbers[0] == numbers[1] else f"{numbers[0]:g},{numbers[1]:g}"


def solve_chart(stack: int, blinds, sizes, cap: int, iterations: int,
                edges: tuple[float, float] = (0.0, 0.0), report=None,
                slopes: tuple[float, float] = (0.0, 0.0)) -> list:
    """The average strategy per node of the chart's tree after `iterations` of CFR+: one solve of
    the check-down game with no edge; else one solve per seat p, the seat paying `edges[p]`
    (0: the big blind, 1: the small blind; with `slopes[p]`, per class as `preflop_game`), each
    node taken from the solve whose taxed seat is its actor. `report(iteration, game,
    solution)` is told after each iteration."""
    solves = []
    taxing = any(edges) or any(slopes)
    for taxed in ((0, 1) if taxing else (-1,)):
        solved_game = preflop_game(stack, blinds, sizes, cap, edges[taxed] if taxed >= 0 else 0.0,
                                   taxed, slopes[taxed] if taxed >= 0 else 0.0)
        solution = new_solution(solved_game)
        cfr_plus(solution, iterations,
                 None if report is None else
                 lambda iteration, g=solved_game, s=solution: report(iteration, g, s))
        solves.append(solution.average())
    return [solves[node.actor if taxing else 0][n]
            for n, node in enumerate(solved_game.nodes)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m gambler.training.preflop",
        description="Solve a preflop chart by CFR+ and write it (configs/charts/), or price a "
                    "written one at given postflop edges (--evaluate).")
    solving = {"sizes": "0.5,1,2", "cap": 3, "iterations": 1000, "name": "preflop"}
    parser.add_argument("--sizes", help="raise sizes in pots (default 0.5,1,2)")
    parser.add_argument("--cap", type=int, help="raises before only all in (default 3)")
    parser.add_argument("--iterations", type=int, help="CFR+ iterations (default 1000)")
    parser.add_argument("--name", help="the chart's name (default preflop)")
    parser.add_argument("--postflop-edge", type=_seat_numbers("E"), default=(0.0, 0.0),
                        metavar="E or E_BB,E_SB",
                        help="E: a pot that reaches the flop with chips behind costs the chart's "
                             "player E times its stake (solved once per seat; default 0); two "
                             "numbers: the big blind's edge, then the small blind's")
    parser.add_argument("--edge-slope", type=_seat_numbers("S"), default=(0.0, 0.0),
                        metavar="S or S_BB,S_SB",
                        help="per class: class c pays E + S (e_c - 1/2), e_c its preflop equity "
                             "against a random holding (default 0: every class pays E; write "
                             "negative slopes as --edge-slope=-3,-5)")
    parser.add_argument("--out", type=Path, help="the chart file to write")
    parser.add_argument("--evaluate", metavar="CHART",
                        help="solve nothing: print what a best response in the abstract game wins "
                             "against CHART (a shipped chart's name or a file) when its player pays "
                             "--postflop-edge and --edge-slope")
    args = parser.parse_args(argv)
    if (args.out is None) == (args.evaluate is None):
        parser.error("give --out FILE (solve a chart) or --evaluate CHART (price one)")
    if args.evaluate is not None:
        given = [f"--{option}" for option in solving if getattr(args, option) is not None]
        if given:
            parser.error(f"{', '.join(given)} solve a chart; --evaluate prices CHART as written")
        return _evaluate(parser, args.evaluate, args.postflop_edge, args.edge_slope)
    for option, default in solving.items():
        if getattr(args, option) is None:
            setattr(args, option, default)
    sizes = tuple(Fraction(s) for s in args.sizes.split(","))
    stack, blinds = 20000, (100, 50)  # configs/games/holdem.nolimit.2p.reverse_blinds.game
    game = preflop_game(stack, blinds, sizes, args.cap)
    started = time.perf_counter()
    checkpoints = {args.iterations} | {2 ** k for k in range(4, 20) if 2 ** k < args.iterations}

    def report(iteration, solved_game, solution):
        if iteration in checkpoints:
            gap = exploitability(solved_game, solution.sums) / 100 * 1000
            print(f"{iteration:6d} iterations  {time.perf_counter() - started:7.1f} s  "
                  f"exploitability {gap:8.2f} mbb/hand", flush=True)

    average = solve_chart(stack, blinds, sizes, args.cap, args.iterations, args.postflop_edge,
                          report, args.edge_slope)
    strategy = rounded(average)
    average_gap = exploitability(game, average) / 100 * 1000
    chart_gap = exploitability(game, list(strategy)) / 100 * 1000
    value = values_per_hand(game, list(strategy), 2)
    print(f"the chart as written: exploitability {chart_gap:.2f} mbb/hand in the check-down game "
          f"(the average strategy's {average_gap:.2f})")
    edges, slopes = args.postflop_edge, args.edge_slope
    edge = ((f" --postflop-edge {_seats_text(edges)}" if any(edges) else "")
            + (f" --edge-slope={_seats_text(slopes)}" if any(slopes) else ""))
    paying = (f"{edges[0]:g} stakes" if edges[0] == edges[1]
              else f"{edges[0]:g} stakes as the big blind and {edges[1]:g} as the small blind")
    if any(slopes):
        paying += (f", plus {_seats_text(slopes)} times the class's preflop equity less 1/2"
                   + ("" if slopes[0] == slopes[1] else " (big blind, small blind)"))
    chart = Chart(stack, blinds, tuple(sorted(sizes)), args.cap, game.nodes, strategy,
                  name=args.name,
                  description="Preflop chart: CFR+ on the abstract preflop game (check-down "
                              "values at the flop"
                              + (f", the chart's player paying a postflop edge of {paying}"
                                 if edge else "") + ").",
                  provenance=f"python -m gambler.training.preflop --sizes {args.sizes} "
                             f"--cap {args.cap} --iterations {args.iterations}{edge} "
                             f"--out {args.out}",
                  solve={"iterations": args.iterations,
                         "exploitability_mbb": round(chart_gap, 3),
                         "value_big_blind_mbb": round(value[0] / 100 * 1000, 3)})
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(chart_text(chart))
    print(f"wrote {args.out} ({len(game.nodes)} nodes)")
    return 0


def _evaluate(parser, name: str, edges: tuple[float, float], slopes: tuple[float, float]) -> int:
    """`--evaluate`: the chart's best-response values at the edges, one line (mbb/hand)."""
    from gambler.bot.chart import load_chart
    from gambler.errors import GamblerError

    try:
        chart = load_chart(name)
    except GamblerError as error:
        parser.exit(1, f"{parser.prog}: error: {error}\n")
    big_blind = chart.blinds[0]
    against_bb, against_sb = (1000 * value / big_blind for value in
                              chart_best_response(chart, edges, slopes))
    slope = f", slopes {_seats_text(slopes)}" if any(slopes) else ""
    print(f"a best response against {chart.name or name}, its player paying edges "
          f"{edges[0]:g} (big blind) and {edges[1]:g} (small blind){slope}: "
          f"{against_bb:+,.1f} mbb/hand against its big blind, {against_sb:+,.1f} against its "
          f"small blind, {(against_bb + against_sb) / 2:+,.1f} on average")
    return 0


if __name__ == "__main__":
    sys.exit(main())
