"""LBR FCMQT x4 against a counted_loss arm of this folder (default counted50) and the shipped
default of session 32 (measured as ../guarded-s32/g50.yaml), seed by seed on the same deals,
pooled over the held-out seeds both have (not 21, the choice seed) and paired (`print_pairs` in
../end-reraise/s30/compare.py), as the cards fell and all-in adjusted. Both play the same member
with the same draws; only the model's account differs (each hand counted at no less than -C big
blinds, or as it fell). The pooled rows' intervals root-sum the seeds' own, which were 1.96
standard errors over a seed's matches until session 33 and Student t ones since (wider by a
quarter at 7 matches); the last rows put each arm on one footing: the mean of the seeds' means
with a t interval over the seeds.

    python experiments/matches-s33/compare.py [ARM]
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = HERE.parent / "guarded-s32" / "results"
sys.path.insert(0, str(HERE.parent / "end-reraise" / "s30"))

from compare import print_pairs, seed_rows  # noqa: E402  (experiments/end-reraise/s30/compare.py)
from gambler.training.evaluate import score_means  # noqa: E402


def main(arm: str = "counted50") -> None:
    compare(str(BEFORE / "lbr{seed}-g50-FCMQT.json"), "`default` (session 32)",
            str(HERE / "results" / f"lbr{{seed}}-{arm}-FCMQT.json"), arm)


def compare(before: str, before_name: str, after: str, arm: str) -> None:
    """The table for two files of LBR results (`before` and `after`: paths with `{seed}`), over
    the held-out seeds both have (also used by ../chances-s35/compare.py)."""
    rows = seed_rows(before, after, (18, 19, *range(22, 40)))
    print_pairs(rows, before_name, arm, paired=True)
    print()
    print(f"| over the seeds' means (t interval) | {before_name} | `{arm}` |")
    print("|---|---|---|")
    for key, words in (("mbb_per_hand", "as the cards fell"),
                       ("mbb_per_hand_allin_adjusted", "all-in adjusted")):
        scores = [score_means([row[index][key] for row in rows]) for index in (1, 2)]
        cells = [f"{score.mbb_per_hand:+,.0f} ± {score.ci95_mbb:,.0f}" for score in scores]
        print(f"| {len(rows)} seeds, {words} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main(*sys.argv[1:])
