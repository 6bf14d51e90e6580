"""LBR FCMQT x4 against a counted_loss arm of this folder (default counted50) and the shipped
default of session 32 (measured as ../guarded-s32/g50.yaml), seed by seed on the same deals,
pooled over the held-out seeds both have (not 21, the choice seed) and paired (`print_pairs` in
../end-reraise/s30/compare.py), as the cards fell and all-in adjusted. Both play the same member
with the same draws; only the model's account differs (each hand counted at no less than -C big
blinds, or as it fell).

    python experiments/matches-s33/compare.py [ARM]
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = HERE.parent / "guarded-s32" / "results"
sys.path.insert(0, str(HERE.parent / "end-reraise" / "s30"))

from compare import print_pairs  # noqa: E402  (experiments/end-reraise/s30/compare.py)


def main(arm: str = "counted50") -> None:
    rows = []
    for seed in (18, 19, *range(22, 40)):
        old = BEFORE / f"lbr{seed}-g50-FCMQT.json"
        new = HERE / "results" / f"lbr{seed}-{arm}-FCMQT.json"
        if old.exists() and new.exists():
            rows.append((seed, json.loads(old.read_text()), json.loads(new.read_text())))
    print_pairs(rows, "`default` (session 32)", arm, paired=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
