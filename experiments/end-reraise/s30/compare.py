"""LBR FCMQT x4 against the end_reraise default (default-er95.yaml) and the shipped default before
it, seed by seed on the same deals, and pooled over the seeds both have (the seeds' mean, its 95%
interval the root of the sum of their squared half-widths over their number), as the cards fell
and all-in adjusted; the members alone too where both were measured.

    python experiments/end-reraise/s30/compare.py
"""

import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fresh-s28"))

from pooled import FILES, ROOT  # noqa: E402  (experiments/fresh-s28/pooled.py)

HERE = Path(__file__).resolve().parent / "results"
PAIRS = {"default": "default-er95", "default-static": "static-s26-er95"}


def main() -> None:
    for before, arm in PAIRS.items():
        rows = []
        for seed, pattern in FILES[before].items():
            old, new = ROOT / pattern.format(sets="FCMQT"), HERE / f"lbr{seed}-{arm}-FCMQT.json"
            if old.exists() and new.exists():
                rows.append((seed, json.loads(old.read_text()), json.loads(new.read_text())))
        if not rows:
            continue
        print(f"| seed | `{before}` | `{arm}` | difference |")
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
                pooled.append((sum(means) / len(means),
                               math.sqrt(sum(h * h for h in halves)) / len(halves)))
            words = "as the cards fell" if key == "mbb_per_hand" else "all-in adjusted"
            print(f"| pooled, {len(rows)} seeds, {words} | {pooled[0][0]:+,.0f} ± "
                  f"{pooled[0][1]:,.0f} | {pooled[1][0]:+,.0f} ± {pooled[1][1]:,.0f} | "
                  f"{pooled[1][0] - pooled[0][0]:+,.0f} |")
        print()


if __name__ == "__main__":
    main()
