"""Two portfolios' sweeps on the same deals, side by side, as a markdown table.

    python experiments/adaptive/compare.py NEW.json OLD.json [--all]

NEW.json and OLD.json are `experiments/adaptive/sweep.py --json` outputs on the same seeds and
opponents (OLD's members alone are the columns `default alone` and `price-aware alone`). Each
cell is mbb/hand all-in adjusted with the 95% CI over the matches; the differences are match by
match on the same deals: NEW less OLD, and NEW less the better member alone (better by its mean)
of OLD's members. NEW's opponents that OLD lacks are left out, or with `--all` listed with the
OLD cells empty and NEW's own members alone (the same members play the same deals alike).
When NEW has one member and OLD another (a member changed), two more columns: NEW's member
alone, and it less OLD's member alone, match by match.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from sweep import cell  # this folder is on the path when the script runs


def main() -> None:
    every_row = "--all" in sys.argv[3:]
    new, old = (json.loads(Path(name).read_text()) for name in sys.argv[1:3])
    if (new["seed"], new["matches"]) != (old["seed"], old["matches"]):
        raise SystemExit("compare.py: the two sweeps are on different seeds")
    old_rows = {row["opponent"]: row for row in old["rows"]}
    members = [name for name in old["rows"][0]["matches"] if name != "portfolio"]
    new_members = [name for name in new["rows"][0]["matches"] if name != "portfolio"]
    swapped = len(members) == len(new_members) == 1 and members != new_members
    extra = (f" `{Path(new_members[0]).stem}` alone | new member − old member |" if swapped
             else "")
    print(f"| opponent | new | old | {' | '.join(f'`{m}` alone' for m in members)} | "
          f"new − old | new − better member |{extra}")
    print("|---|---|---|" + "---|" * len(members) + "---|---|" + ("---|---|" if swapped else ""))
    for row in new["rows"]:
        name = row["opponent"]
        if name not in old_rows and not every_row:
            continue
        mine = row["matches"]["portfolio"]
        theirs = old_rows[name]["matches"] if name in old_rows else row["matches"]
        best = max(members, key=lambda member: np.mean(theirs[member]))
        label = Path(name).name if "/" in name else f"`{name}`"
        before, less_before = ((cell(theirs["portfolio"]),
                                cell(np.subtract(mine, theirs["portfolio"])))
                               if name in old_rows else ("", ""))
        print(f"| {label} | {cell(mine)} | {before} | "
              + " | ".join(cell(theirs[member]) for member in members)
              + f" | {less_before} | {cell(np.subtract(mine, theirs[best]))} |"
              + (f" {cell(row['matches'][new_members[0]])} | "
                 f"{cell(np.subtract(row['matches'][new_members[0]], theirs[members[0]]))} |"
                 if swapped and name in old_rows else ""))


if __name__ == "__main__":
    main()
