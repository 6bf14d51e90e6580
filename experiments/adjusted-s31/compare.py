"""LBR FCMQT x4 against an arm of this folder (default adj300.yaml) and the default of session 30
(measured as ../end-reraise/s30/default-er95.yaml), seed by seed on the same deals,
pooled over the seeds both have (the seeds' mean, its 95% interval the root of the sum of their
squared half-widths over their number) and paired (the mean difference, its 95% t interval over
the seeds), as the cards fell and all-in adjusted. Both play the same member with the same draws;
only the model's account and allowance differ.

    python experiments/adjusted-s31/compare.py [ARM]
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = HERE.parent / "end-reraise" / "s30" / "results"
sys.path.insert(0, str(BEFORE.parent))

from compare import print_pairs, seed_rows  # noqa: E402  (experiments/end-reraise/s30/compare.py)


def main(arm: str = "adj300") -> None:
    rows = seed_rows(str(BEFORE / "lbr{seed}-default-er95-FCMQT.json"),
                     str(HERE / "results" / f"lbr{{seed}}-{arm}-FCMQT.json"), range(18, 40))
    print_pairs(rows, "`default` (session 30)", arm, paired=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
