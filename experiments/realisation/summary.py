"""Print what measure.py counted: per seat the flops and the mean postflop shortfall (stakes the
bot's postflop play gave up against a check-down), then per class, the most played first.

Usage: python experiments/realisation/summary.py RESULT.json... [--top 40]

Several files (seeds) are pooled. The chart solver's postflop edge prices one shortfall per seat
(`default-static`'s chart: 0.6 for the big blind, 0.4 for the small blind); here it is measured
against LBR, with its standard error per class and a least-squares line in the class's preflop
equity against a random holding (weighted by the flops counted).
"""

import argparse
import json

import numpy as np

from gambler.evaluator.preflop import class_name
from gambler.training.preflop import class_equities


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--top", type=int, default=40)
    options = parser.parse_args()
    equity = class_equities()
    totals = [{key: np.zeros(169) for key in ("count", "shortfall", "square")} for _ in range(2)]
    for path in options.results:
        with open(path) as handle:
            document = json.load(handle)
        print(f"{path}: {document['profile']} at {document['actions']}, seed {document['seed']},"
              f" {document['hands']:,} hands, LBR {document['lbr_mbb']:+,.0f} mbb/hand")
        for seat in range(2):
            for key in totals[seat]:
                totals[seat][key] += np.asarray(document["seats"][seat][key])
    for seat, name in enumerate(("big blind", "small blind")):
        n = totals[seat]["count"]
        mean = totals[seat]["shortfall"] / np.maximum(n, 1)
        spread = np.sqrt(np.maximum(totals[seat]["square"] / np.maximum(n, 1) - mean ** 2, 0))
        overall = totals[seat]["shortfall"].sum() / n.sum()
        sd = np.sqrt(totals[seat]["square"].sum() / n.sum() - overall ** 2)
        weights = np.sqrt(n)
        line = np.linalg.lstsq(np.stack([np.ones(169), equity], 1) * weights[:, None],
                               mean * weights, rcond=None)[0]
        print(f"\n{name}: {n.sum():,.0f} flops in {int((n > 0).sum())} classes, mean shortfall "
              f"{overall:.3f} ± {1.96 * sd / np.sqrt(n.sum()):.3f} stakes (sd {sd:.2f} a hand); "
              f"line in equity e: {line[0]:+.2f} {line[1]:+.2f} e")
        print("  class  flops  equity  shortfall (stakes)")
        for index in np.argsort(-n)[:options.top]:
            if n[index] == 0:
                break
            error = 1.96 * spread[index] / np.sqrt(n[index])
            print(f"  {class_name(index):5s} {n[index]:6.0f}  {equity[index]:6.3f}  "
                  f"{mean[index]:+6.2f} ± {error:.2f}")


if __name__ == "__main__":
    main()
