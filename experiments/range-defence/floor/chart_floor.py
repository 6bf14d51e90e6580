"""A chart whose big blind folds at most a given share of its hands to an open of a given size.

    python experiments/range-defence/chart_floor.py CHART NODE FOLD OUT [NODE FOLD ...]

At each NODE of CHART (a node label, e.g. r2: the big blind facing the small blind's 2-pot open)
the strongest hands the chart folds, by their preflop v against one random hand
(`evaluator.preflop.class_preflop_v`), call instead, until the share of the 1,326 starting hands
that fold is FOLD (the last class moved mixes fold and call to hit it exactly). Nothing else
changes: every other node, every raise and every call of the chart stay as solved.

Why: a solved chart's big blind may fold far more than an open's price allows against any two
cards (a 2-pot open, to 5 big blinds, risks 4.5 to win 1.5 and profits from any two cards when
the big blind folds more than 75%), because the solve charges the big blind a postflop edge
for every flop it reaches. Against an opener that takes those blinds with every hand
(experiments/exploit/default-static-seed82.yaml), what the chart saves against LBR is what it
loses to the steal; this file is the arm that trades one for the other.
"""

from __future__ import annotations

import sys

import numpy as np
import yaml

from gambler.bot.chart import load_chart
from gambler.evaluator.preflop import CLASS_COUNT, class_combos, class_name, class_preflop_v


def fold_probabilities(letters: str, mixed: dict) -> np.ndarray:
    """Each class's probability of folding at a node: its letter, or its mixed entry."""
    folds = np.array([1.0 if letter == "f" else 0.0 for letter in letters])
    for name, probabilities in mixed.items():
        index = [class_name(i) for i in range(CLASS_COUNT)].index(name)
        folds[index] = float(probabilities.get("f", 0.0))
    return folds


def floor_node(letters: str, mixed: dict, fold_share: float) -> tuple[str, dict, float, float]:
    """The node's letters and mixed entries with folds moved to calls, strongest first, until
    the combo-weighted fold share is `fold_share`; the shares before and after."""
    weights = np.array([class_combos(i) for i in range(CLASS_COUNT)], dtype=float)
    weights /= weights.sum()
    folds = fold_probabilities(letters, mixed)
    before = float(folds @ weights)
    excess = float(before - fold_share)
    letters, mixed = list(letters), {name: dict(p) for name, p in mixed.items()}
    strength = class_preflop_v()
    for index in np.argsort(-strength):
        if excess <= 1e-12:
            break
        if folds[index] == 0.0:
            continue
        moved = float(min(folds[index], excess / weights[index]))
        excess -= moved * weights[index]
        name = class_name(int(index))
        probabilities = mixed.get(name, {letters[index]: 1.0})
        probabilities["f"] = round(probabilities.get("f", 0.0) - moved, 6)
        probabilities["c"] = round(probabilities.get("c", 0.0) + moved, 6)
        probabilities = {k: p for k, p in probabilities.items() if p > 0.0}
        if len(probabilities) == 1:
            letters[index] = next(iter(probabilities))
            mixed.pop(name, None)
        else:
            letters[index] = max(probabilities, key=probabilities.get)
            mixed[name] = probabilities
    after = float(fold_probabilities("".join(letters), mixed) @ weights)
    return "".join(letters), mixed, before, after


def main(argv: list[str]) -> int:
    if len(argv) < 4 or len(argv) % 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    source, out, pairs = argv[0], argv[3], [argv[1:3]] + [argv[i:i + 2] for i in range(4, len(argv), 2)]
    load_chart(source)  # a chart that parses
    with open(source, encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    changes = []
    for node, share in pairs:
        letters, mixed, before, after = floor_node(document["nodes"][node],
                                                   document.get("mixed", {}).get(node, {}),
                                                   float(share))
        document["nodes"][node] = letters
        if mixed:
            document.setdefault("mixed", {})[node] = mixed
        else:
            document.get("mixed", {}).pop(node, None)
        changes.append(f"{node}: folds {before:.1%} -> {after:.1%}")
        print(changes[-1])
    document["name"] = out.rsplit("/", 1)[-1].removesuffix(".yaml")
    document["description"] = (f"{document['name']}: the chart {source} with its strongest folds "
                               f"called instead at {', '.join(changes)}")
    document["provenance"] = "python experiments/range-defence/chart_floor.py " + " ".join(argv)
    with open(out, "w", encoding="utf-8") as handle:
        yaml.safe_dump(document, handle, sort_keys=False, width=100, default_flow_style=None)
    load_chart(out)  # and the new one too
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
