"""Mean and 95% interval over the matches of experiments/adaptive/tcp.sh, per opponent
(all-in adjusted mbb/hand):

    python experiments/adaptive/tcp_summary.py OUT_DIR [BEFORE_DIR]

With BEFORE_DIR (another tcp.sh run on the same seeds), a last column: OUT less BEFORE, match
by match on the same seed and opponent (the dealer deals the same cards for a seed), with the
95% interval of those differences, over the matches both runs played."""

import json
import sys
from collections import defaultdict
from pathlib import Path

from sweep import cell  # experiments/adaptive/sweep.py, next to this script


def matches(folder):
    """{opponent: {seed: all-in adjusted mbb/hand}} of a tcp.sh folder (finished matches)."""
    found = defaultdict(dict)
    for path in sorted(Path(folder).glob("*.json")):
        if path.stat().st_size:
            match = json.loads(path.read_text())
            found[match["b"]][match["seed"]] = match["mbb_per_hand_allin_adjusted"]
    return found


def main() -> None:
    results = matches(sys.argv[1])
    before = matches(sys.argv[2]) if len(sys.argv) > 2 else None
    for opponent, by_seed in results.items():
        row = f"| `{opponent}` | {cell(list(by_seed.values()))} | {len(by_seed)} matches |"
        if before is not None:
            shared = sorted(set(by_seed) & set(before.get(opponent, {})))
            row += (f" {cell([by_seed[s] - before[opponent][s] for s in shared])} "
                    f"({len(shared)}) |" if shared else " |")
        print(row)


if __name__ == "__main__":
    main()
