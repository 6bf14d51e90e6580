"""Paired gaps between two `experiments/adaptive/sweep.py --json` files played on the same
seeds: per opponent, A's portfolio less B's and A's member alone less B's, match by match, with
the 95% CI of the differences.

Usage: python experiments/end-reraise/paired.py A.json B.json
"""

import json
import math
import sys

import numpy as np


def gap(a, b):
    d = np.asarray(a) - np.asarray(b)
    return d.mean(), 1.959964 * d.std(ddof=1) / math.sqrt(len(d))


def main():
    first, second = (json.load(open(path)) for path in sys.argv[1:3])
    rows = {row["opponent"]: row for row in second["rows"]}
    print(f"{first['portfolio']} less {second['portfolio']}, match by match "
          f"({first['matches']} matches of {first['hands']:,} hands from seed {first['seed']})")
    for row in first["rows"]:
        other = rows.get(row["opponent"])
        if other is None:
            continue
        members = [key for key in row["matches"] if key != "portfolio"]
        other_members = [key for key in other["matches"] if key != "portfolio"]
        portfolio = gap(row["matches"]["portfolio"], other["matches"]["portfolio"])
        member = gap(row["matches"][members[0]], other["matches"][other_members[0]])
        print(f"{row['opponent']:>12}: portfolio {portfolio[0]:+7.0f} ± {portfolio[1]:4.0f}   "
              f"member alone {member[0]:+7.0f} ± {member[1]:4.0f}")


if __name__ == "__main__":
    main()
