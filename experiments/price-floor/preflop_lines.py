"""LBR's hands against a profile by the first three actions before the flop (LBR's letter L, the
bot's B, raise-to in big blinds): how often, what LBR wins each, and its share of LBR's
mbb/hand, on deals 0 .. DEALS - 1 of SEED as `gambler-lbr` plays them.

Usage: python experiments/price-floor/preflop_lines.py PROFILE ACTIONS [DEALS [SEED]]
"""

import collections
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "realisation"))
from postflop import lbr_hands  # noqa: E402


def main(profile: str, actions: str, deals: int = 4000, seed: int = 21) -> None:
    lines = collections.defaultdict(lambda: [0, 0])
    hands = 0
    for _, chips, line, _, _ in lbr_hands(profile, actions, seed, deals):
        hands += 1
        key = " ".join(line.split(" |")[0].split()[:3])
        lines[key][0] += 1
        lines[key][1] += chips
    total = sum(chips for _, chips in lines.values())
    print(f"LBR against {profile} at {actions}, {hands:,} hands of seed {seed}: "
          f"{1000 * total / hands / 100:+,.1f} mbb/hand (lines under 0.5% of the hands left out)")
    print("   hands  share  LBR bb each  of LBR's mbb/hand  first actions")
    for key, (count, chips) in sorted(lines.items(), key=lambda item: -item[1][1]):
        if count >= hands // 200:
            print(f"{count:8,d} {count / hands:6.1%} {chips / count / 100:+12.2f} "
                  f"{1000 * chips / hands / 100:+18.1f}  {key}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], *(int(word) for word in sys.argv[3:5]))
