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
from gambler.training.evaluate import score_means  # noqa: E402

HERE = Path(__file__).resolve().parent / "results"
PAIRS = {"default": "default-er95", "default-static": "static-s26-er95"}


def written(*paths: Path) -> bool:
    """Whether every file exists and is written (a job still running leaves its file empty)."""
    return all(path.exists() and path.stat().st_size for path in paths)


def seed_rows(before: str, after: str, seeds) -> list:
    """(seed, before's LBR result, after's) for each of `seeds` whose two files are `written`:
    `before` and `after` are paths with `{seed}` in them."""
    rows = []
    for seed in seeds:
        old, new = Path(before.format(seed=seed)), Path(after.format(seed=seed))
        if written(old, new):
            rows.append((seed, json.loads(old.read_text()), json.loads(new.read_text())))
    return rows


def print_pairs(rows, before: str, arm: str, paired: bool = False) -> None:
    """A markdown table of (seed, before's LBR result, arm's) rows: each seed, then the pooled
    figures as the cards fell and all-in adjusted; with `paired`, also the mean paired difference
    with its 95% t interval over the seeds and how many seeds the arm lowered
    (experiments/adjusted-s31/compare.py)."""
    print(f"| seed | {before} | `{arm}` | difference |")
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
        difference = f"{pooled[1][0] - pooled[0][0]:+,.0f}"
        if paired:
            differences = [row[2][key] - row[1][key] for row in rows]
            score = score_means(differences)
            lower = sum(d < 0 for d in differences)
            difference = (f"{score.mbb_per_hand:+,.0f} ± {score.ci95_mbb:,.0f} (lower on "
                          f"{lower} of {len(rows)})")
        words = "as the cards fell" if key == "mbb_per_hand" else "all-in adjusted"
        print(f"| pooled, {len(rows)} seeds, {words} | {pooled[0][0]:+,.0f} ± "
              f"{pooled[0][1]:,.0f} | {pooled[1][0]:+,.0f} ± {pooled[1][1]:,.0f} | "
              f"{difference} |")


def main() -> None:
    for before, arm in PAIRS.items():
        rows = []
        for seed, pattern in FILES[before].items():
            old, new = ROOT / pattern.format(sets="FCMQT"), HERE / f"lbr{seed}-{arm}-FCMQT.json"
            if written(old, new):
                rows.append((seed, json.loads(old.read_text()), json.loads(new.read_text())))
        if not rows:
            continue
        print_pairs(rows, f"`{before}`", arm)
        print()


if __name__ == "__main__":
    main()
