"""A chart whose big blind folds at most a given share of its hands to an open of a given size.

    python experiments/range-defence/floor/chart_floor.py CHART NODE FOLD OUT [NODE FOLD ...]

At each NODE of CHART (a node's path, e.g. r2: the big blind facing the small blind's 2-pot open)
the strongest hands the chart folds, by their preflop v against one random hand
(`evaluator.preflop.class_preflop_v`), call instead, until the share of the 1,326 starting hands
that fold is FOLD (the last class moved mixes fold and call to hit it exactly). Nothing else
changes: every other node, every raise and every call of the chart stay as solved. The chart is
read with `bot.chart.load_chart` and written with `bot.chart.chart_text`.

Why: a solved chart's big blind may fold far more than an open's price allows against any two
cards (a 2-pot open, to 5 big blinds, risks 4.5 to win 1.5 and profits from any two cards when
the big blind folds more than 75%), because the solve charges the big blind a postflop edge
for every flop it reaches. Against an opener that takes those blinds with every hand
(experiments/exploit/default-static-seed82.yaml), what the chart saves against LBR is what it
loses to the steal; this file is the arm that trades one for the other.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from gambler.bot.chart import CALL, FOLD, chart_text, load_chart
from gambler.evaluator.preflop import CLASS_COUNT, class_combos, class_preflop_v

COMBO_SHARES = np.array([class_combos(c) for c in range(CLASS_COUNT)], dtype=float) / 1326


def floor_table(kinds: list[int], table: np.ndarray, fold_share: float) -> np.ndarray:
    """A node's table (float64[actions, 169]) with fold probability moved to the call, strongest
    class first, until the combo-weighted fold share is at most `fold_share`."""
    table = table.copy()
    fold, call = kinds.index(FOLD), kinds.index(CALL)
    excess = float(table[fold] @ COMBO_SHARES) - fold_share
    for class_ in np.argsort(-class_preflop_v()):
        if excess <= 1e-12:
            break
        moved = min(table[fold, class_], excess / COMBO_SHARES[class_])
        table[fold, class_] -= moved
        table[call, class_] += moved
        excess -= moved * COMBO_SHARES[class_]
    return table


def main(argv: list[str]) -> int:
    if len(argv) < 4 or len(argv) % 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    source, out = argv[0], Path(argv[3])
    pairs = [argv[1:3]] + [argv[i:i + 2] for i in range(4, len(argv), 2)]
    chart = load_chart(source)
    paths = [node.path for node in chart.nodes]
    strategy, changes = list(chart.strategy), []
    for path, share in pairs:
        index = paths.index(path)
        kinds = [action.kind for action in chart.nodes[index].actions]
        before = float(strategy[index][kinds.index(FOLD)] @ COMBO_SHARES)
        strategy[index] = floor_table(kinds, strategy[index], float(share))
        after = float(strategy[index][kinds.index(FOLD)] @ COMBO_SHARES)
        changes.append(f"{path}: folds {before:.1%} -> {after:.1%}")
        print(changes[-1])
    floored = replace(chart, strategy=tuple(strategy), name=out.stem,
                      description=f"{out.stem}: the chart {source} with its strongest folds "
                                  f"called instead at {', '.join(changes)}",
                      provenance="python experiments/range-defence/floor/chart_floor.py "
                                 + " ".join(argv))
    out.write_text(chart_text(floored))
    load_chart(out)  # it reads back
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
