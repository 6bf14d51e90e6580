"""LBR against the shipped `default` and its member `default-static`, pooled over the deal seeds
that nothing chose them on (18, 19, 22, 23, 24, 25-29 from session 29 in `experiments/fresh-s29/`
and 30-34 from session 30 in `experiments/fresh-s30/`; each setting over the seeds measured at
it), and the shipped defaults of sessions 30 and 31 (`experiments/end-reraise/s30/`,
`experiments/adjusted-s31/`) where they were measured, per setting, as the cards
fell and all-in adjusted. Every seed has 20,000 hands, so the pooled figure is the seeds' mean
and its 95% interval the root of the sum of their squared half-widths over the number of seeds.
Seed 18's `default` is measured under its arm's name (experiments/slow-play/p-sp-ftr100-nb.yaml,
the same bot to the chip); the member alone was not measured there.

Usage: python experiments/fresh-s28/pooled.py
"""

import json
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ("FCMQT", "FCPA", "FCHPA", "FCMA", "FCODXA", "FCMQHTPODXA")
FILES = {  # profile -> seed -> the file pattern, {sets} the setting
    "default": {18: "slow-play/eval/lbr18-p-sp-ftr100-nb-{sets}.json",
                19: "fresh-s27/results/lbr19-default-{sets}.json",
                22: "fresh-s28/results/lbr22-default-{sets}.json",
                23: "fresh-s28/results/lbr23-default-{sets}.json",
                24: "fresh-s28/results/lbr24-default-{sets}.json",
                **{seed: f"fresh-s29/results/lbr{seed}-default-{{sets}}.json"
                   for seed in range(25, 30)},
                **{seed: f"fresh-s30/results/lbr{seed}-default-{{sets}}.json"
                   for seed in range(30, 35)}},
    "default-static": {19: "fresh-s27/results/lbr19-default-static-{sets}.json",
                       22: "fresh-s28/results/lbr22-default-static-{sets}.json",
                       23: "fresh-s28/results/lbr23-default-static-{sets}.json",
                       24: "fresh-s28/results/lbr24-default-static-{sets}.json",
                       **{seed: f"fresh-s29/results/lbr{seed}-default-static-{{sets}}.json"
                          for seed in range(25, 30)},
                       **{seed: f"fresh-s30/results/lbr{seed}-default-static-{{sets}}.json"
                          for seed in range(30, 35)}},
    "default (session 30)": {seed: f"end-reraise/s30/results/lbr{seed}-default-er95-{{sets}}.json"
                             for seed in (18, 19, *range(22, 35))},
    "default (session 31)": {seed: f"adjusted-s31/results/lbr{seed}-adj300-{{sets}}.json"
                             for seed in (18, 19, *range(22, 35))},
}


def pooled(results: list[dict], key: str) -> tuple[float, float]:
    """(the mean of the seeds' figures, its 95% half-width) for `key` (mbb_per_hand or its
    all-in adjusted twin)."""
    means = [result[key] for result in results]
    halves = [result[key.replace("mbb_per_hand", "ci95_mbb")] for result in results]
    return sum(means) / len(means), math.sqrt(sum(h * h for h in halves)) / len(halves)


def main() -> None:
    print("| profile | LBR's actions | seeds | as the cards fell | all-in adjusted |")
    print("|---|---|---|---|---|")
    for profile, seeds in FILES.items():
        for sets in SETTINGS:
            found = {seed: ROOT / pattern.format(sets=sets) for seed, pattern in seeds.items()}
            results = {seed: json.loads(path.read_text()) for seed, path in found.items()
                       if path.exists() and path.stat().st_size}
            if not results:
                continue
            assert all(result["hands"] == 20000 and result["seed"] == seed
                       for seed, result in results.items())
            raw = pooled(list(results.values()), "mbb_per_hand")
            adjusted = pooled(list(results.values()), "mbb_per_hand_allin_adjusted")
            print(f"| `{profile}` | {sets} ×4 | {', '.join(map(str, results))} "
                  f"({20 * len(results)},000 hands) | {raw[0]:+,.0f} ± {raw[1]:,.0f} | "
                  f"{adjusted[0]:+,.0f} ± {adjusted[1]:,.0f} |")


if __name__ == "__main__":
    main()
