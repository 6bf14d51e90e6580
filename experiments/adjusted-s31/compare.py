"""LBR FCMQT x4 against an arm of this folder (default adj300.yaml) and the default of session 30
(measured as ../end-reraise/s30/default-er95.yaml), seed by seed on the same deals,
pooled over the seeds both have (the seeds' mean, its 95% interval the root of the sum of their
squared half-widths over their number) and paired (the mean difference, its 95% t interval over
the seeds), as the cards fell and all-in adjusted. Both play the same member with the same draws;
only the model's account and allowance differ.

    python experiments/adjusted-s31/compare.py [ARM]
"""

import json
import math
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = HERE.parent / "end-reraise" / "s30" / "results"
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120}


def main(arm: str = "adj300") -> None:
    rows = []
    for seed in range(18, 40):
        old = BEFORE / f"lbr{seed}-default-er95-FCMQT.json"
        new = HERE / "results" / f"lbr{seed}-{arm}-FCMQT.json"
        if old.exists() and new.exists():
            rows.append((seed, json.loads(old.read_text()), json.loads(new.read_text())))
    print(f"| seed | `default` (session 30) | `{arm}` | difference |")
    print("|---|---|---|---|")
    for seed, old, new in rows:
        print(f"| {seed} | {old['mbb_per_hand']:+,.0f} ± {old['ci95_mbb']:,.0f} | "
              f"{new['mbb_per_hand']:+,.0f} ± {new['ci95_mbb']:,.0f} | "
              f"{new['mbb_per_hand'] - old['mbb_per_hand']:+,.0f} |")
    for key in ("mbb_per_hand", "mbb_per_hand_allin_adjusted"):
        half = key.replace("mbb_per_hand", "ci95_mbb")
        pooled = []
        for index in (1, 2):
            means = [row[index][key] for row in rows]
            halves = [row[index][half] for row in rows]
            pooled.append((statistics.fmean(means),
                           math.sqrt(sum(h * h for h in halves)) / len(halves)))
        differences = [row[2][key] - row[1][key] for row in rows]
        spread = (T975[len(rows) - 1] * statistics.stdev(differences) / math.sqrt(len(rows))
                  if len(rows) > 1 else math.nan)
        lower = sum(d < 0 for d in differences)
        words = "as the cards fell" if key == "mbb_per_hand" else "all-in adjusted"
        print(f"| pooled, {len(rows)} seeds, {words} | {pooled[0][0]:+,.0f} ± "
              f"{pooled[0][1]:,.0f} | {pooled[1][0]:+,.0f} ± {pooled[1][1]:,.0f} | "
              f"{statistics.fmean(differences):+,.0f} ± {spread:,.0f} (lower on {lower} of "
              f"{len(rows)}) |")


if __name__ == "__main__":
    main(*sys.argv[1:])
