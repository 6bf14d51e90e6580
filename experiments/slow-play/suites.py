"""LBR suite files (`gambler-lbr --suite --json`) side by side: one row per setting, one column
per file, and each column's worst.

    python experiments/slow-play/suites.py FILE...
"""

import json
import sys
from pathlib import Path


def main(paths: list[str]) -> None:
    suites = [json.loads(Path(path).read_text()) for path in paths]
    print("| LBR's actions | " + " | ".join(f"`{Path(p).stem}`" for p in paths) + " |")
    print("|---|" + "---|" * len(paths))
    for index, row in enumerate(suites[0]["rows"]):
        actions = row["actions"].split(",")
        label = f"{actions[0]} ×4" if len(set(actions)) == 1 else row["actions"]
        cells = [f"{s['rows'][index]['mbb_per_hand']:+,.0f} ± {s['rows'][index]['ci95_mbb']:,.0f}"
                 for s in suites]
        print(f"| {label} | " + " | ".join(cells) + " |")
    worst = [max(s["rows"], key=lambda r: r["mbb_per_hand"]) for s in suites]
    print("| **the worst** | " + " | ".join(
        f"**{w['mbb_per_hand']:+,.0f}** ({w['actions'].split(',')[0]})" for w in worst) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
