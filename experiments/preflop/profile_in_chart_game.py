"""How exploitable is a profile's preflop play in the chart's abstract preflop game?

The game of `training.preflop` (check-down values at the flop, the chart's tree). The profile's
action at each node is the automaton's (`training.engine.automaton_action`) for each class's
preflop v at the node's real totals; its raises are translated to the tree's nearest size
(`bot.chart.translate_raise`), and a preflop slow play or bluff is taken with its probability at
each node independently (the bot draws it once a round: an approximation). Prints the best
responses' values and the exploitability, next to the shipped chart's.

    python experiments/preflop/profile_in_chart_game.py default price-aware seed
"""

import sys

import numpy as np

from gambler.bot.chart import CALL, FOLD, RAISE, load_chart, translate_raise
from gambler.bot.params import load_profile
from gambler.evaluator.preflop import class_preflop_v
from gambler.training.engine import automaton_action, mixing_probability, profile_vector
from gambler.training.preflop import exploitability, preflop_game, values_per_hand


def profile_strategy(game, params, stack=20000, big=100):
    class_v = class_preflop_v()
    strategy = []
    for node in game.nodes:
        table = np.zeros((len(node.actions), 169))
        bet, pot = max(node.totals), sum(node.totals)
        spent = node.totals[node.actor]
        can_raise = node.totals[1 - node.actor] < stack and bet < stack
        low = min(bet + max(node.last_raise, big), stack) if can_raise else -1
        high = stack if can_raise else -1
        for class_ in range(169):
            v = class_v[class_]
            chance = mixing_probability(params, 0, v)
            for mixed, share in ((False, 1.0 - chance), (True, chance)):
                if share <= 0.0:
                    continue
                code, amount = automaton_action(params, 0, v, spent, bet, pot, 100, 150, low,
                                                high, mixed)
                if code == RAISE:
                    k = translate_raise(node, bet, pot, bet - spent, amount, stack)
                else:
                    wanted = FOLD if code == FOLD and bet > spent else CALL
                    k = next(k for k, a in enumerate(node.actions) if a.kind == wanted)
                table[k, class_] += share
        strategy.append(table)
    return strategy


def main(names):
    chart = load_chart("preflop")
    game = preflop_game(chart.stack, chart.blinds, chart.sizes, chart.cap)
    rows = [("chart preflop", list(chart.strategy))]
    rows += [(name, profile_strategy(game, profile_vector(load_profile(name)))) for name in names]
    print("| preflop play | BR as big blind | BR as small blind | exploitability (mbb/hand) |")
    print("|---|---|---|---|")
    for name, strategy in rows:
        best_0, best_1 = values_per_hand(game, strategy, 1)
        gap = exploitability(game, strategy)
        print(f"| {name} | {best_0 * 10:+,.1f} | {best_1 * 10:+,.1f} | {gap * 10:,.1f} |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["default-v2"])
