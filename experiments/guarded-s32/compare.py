"""LBR FCMQT x4 against an arm of this folder (default g50.yaml) and the shipped default of
session 31 (measured as ../adjusted-s31/adj300.yaml), seed by seed on the same deals, pooled
over the held-out seeds both have (not 21, the choice seed) and paired (`print_pairs` in ../end-reraise/s30/compare.py), as the
cards fell and all-in adjusted. Both play the same member with the same draws; only the model's
counters differ (guarded or not).

    python experiments/guarded-s32/compare.py [ARM]
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = HERE.parent / "adjusted-s31" / "results"
sys.path.insert(0, str(HERE.parent / "end-reraise" / "s30"))

from compare import print_pairs, seed_rows  # noqa: E402  (experiments/end-reraise/s30/compare.py)


def main(arm: str = "g50") -> None:
    rows = seed_rows(str(BEFORE / "lbr{seed}-adj300-FCMQT.json"),
                     str(HERE / "results" / f"lbr{{seed}}-{arm}-FCMQT.json"), (18, 19, *range(22, 40)))
    print_pairs(rows, "`default` (session 31)", arm, paired=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
