"""The preflop game's value against the postflop's cost: for each pair of edges (E_BB, E_SB), solve
a chart at those edges (`training.preflop.solve_chart`, sizes 0.5, 1, 2 pots, cap 3) and print
what a best response in the same game wins against it (`training.preflop.chart_best_response`),
per seat and on average: the least a preflop best response can be held to by any chart of this
tree when the postflop gives up those edges (an equilibrium's value, up to the solve's gap).

Usage: python experiments/chart-value/curve.py ITERATIONS E_BB,E_SB [E_BB,E_SB ...]
"""

import sys
import time
from fractions import Fraction

from gambler.bot.chart import Chart
from gambler.training.preflop import chart_best_response, preflop_game, solve_chart

STACK, BLINDS, SIZES, CAP = 20000, (100, 50), (Fraction(1, 2), Fraction(1), Fraction(2)), 3


def main(iterations: int, pairs: list[str]) -> None:
    nodes = preflop_game(STACK, BLINDS, SIZES, CAP).nodes
    print(f"| edges (big blind, small blind) | against its big blind | against its small blind "
          f"| average | ({iterations} iterations a seat) |")
    print("|---|---|---|---|---|")
    for pair in pairs:
        edges = tuple(float(word) for word in pair.split(","))
        started = time.perf_counter()
        strategy = solve_chart(STACK, BLINDS, SIZES, CAP, iterations, edges)
        chart = Chart(STACK, BLINDS, SIZES, CAP, nodes, tuple(strategy))
        against_bb, against_sb = (10.0 * value for value in chart_best_response(chart, edges))
        print(f"| {edges[0]:g}, {edges[1]:g} | {against_bb:+,.0f} | {against_sb:+,.0f} | "
              f"{(against_bb + against_sb) / 2:+,.0f} | {time.perf_counter() - started:.0f} s |",
              flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2:])
