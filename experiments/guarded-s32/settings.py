"""LBR at the other raising settings of the suite against the guarded default (g50.yaml) and the
session-31 default (../adjusted-s31/adj300.yaml), pooled over the deal seeds both have of 18,
19, 22, 23 and 24 (the seeds' mean, its 95% interval the root of the sum of their squared
half-widths over their number), as the cards fell and all-in adjusted.

    python experiments/guarded-s32/settings.py [ARM]
"""

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = HERE.parent / "adjusted-s31" / "results"
SETTINGS = ("FCPA", "FCHPA", "FCMA", "FCODXA", "FCMQHTPODXA")


def pooled(results: list[dict], key: str) -> tuple[float, float]:
    half = key.replace("mbb_per_hand", "ci95_mbb")
    return (sum(result[key] for result in results) / len(results),
            math.sqrt(sum(result[half] ** 2 for result in results)) / len(results))


def main(arm: str = "g50") -> None:
    print(f"| setting | seeds | `{arm}` | all-in adjusted | `default` (session 31) | all-in adjusted |")
    print("|---|---|---|---|---|---|")
    for setting in SETTINGS:
        rows = []
        for seed in (18, 19, 22, 23, 24):
            new = HERE / "results" / f"lbr{seed}-{arm}-{setting}.json"
            old = BEFORE / f"lbr{seed}-adj300-{setting}.json"
            if new.exists() and new.stat().st_size and old.exists():
                rows.append((seed, json.loads(new.read_text()), json.loads(old.read_text())))
        if not rows:
            continue
        cells = []
        for index in (1, 2):
            for key in ("mbb_per_hand", "mbb_per_hand_allin_adjusted"):
                mean, half = pooled([row[index] for row in rows], key)
                cells.append(f"{mean:+,.0f} ± {half:,.0f}")
        seeds = ", ".join(str(row[0]) for row in rows)
        print(f"| {setting} | {seeds} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(*sys.argv[1:])
