"""One table row per battery folder (`battery.sh`): the LBR suite's worst setting and its value,
then each match's mbb/hand (± 95% CI).

    python experiments/preflop/summary.py experiments/preflop/eval/*/
"""

import json
import sys
from pathlib import Path


def main(folders: list[str]) -> None:
    for folder in map(Path, folders):
        cells = [folder.name]
        suite = folder / "lbr-suite.json"
        if suite.is_file() and suite.stat().st_size:
            document = json.loads(suite.read_text())
            worst = document["worst"]
            cells.append(f"LBR worst {worst['actions']} {worst['mbb_per_hand']:+,.0f} "
                         f"± {worst['ci95_mbb']:,.0f}")
            cells.append("rows " + " ".join(f"{row['mbb_per_hand']:+,.0f}"
                                             for row in document["rows"]))
        search = folder / "exploit-seed77.json"
        if search.is_file() and search.stat().st_size:
            found = json.loads(search.read_text())
            held = found.get("held_out", found)
            cells.append(f"search seed 77 {held['mbb_per_hand']:+,.0f} ± {held['ci95_mbb']:,.0f}")
        for match in sorted(folder.glob("match-*.json")):
            if match.stat().st_size:
                row = json.loads(match.read_text())
                cells.append(f"{match.stem[6:]} {row['mbb_per_hand']:+,.0f} ± {row['ci95_mbb']:,.0f}")
        print(" | ".join(cells))


if __name__ == "__main__":
    main(sys.argv[1:])
