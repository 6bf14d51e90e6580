"""The slow-play scan as a markdown table: one row per LBR setting, one column per arm.

    python experiments/slow-play/table.py SEED ARM...
"""

import json
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def cell(path: Path) -> str:
    """One `gambler-lbr --json` file as a table cell: mbb/hand ± the interval, and the share of
    hands the model member played when the profile is a portfolio; empty while it runs."""
    if not path.exists() or not path.stat().st_size:
        return ""
    row = json.loads(path.read_text())
    share = row.get("portfolio", {}).get("model_share")
    return (f"{row['mbb_per_hand']:+,.0f} ± {row['ci95_mbb']:,.0f}"
            + (f" ({100 * share:.1f}%)" if share is not None else ""))


def main(seed: str, arms: list[str]) -> None:
    tags = [Path(arm).stem for arm in arms]
    print("| LBR's actions | " + " | ".join(f"`{tag}`" for tag in tags) + " |")
    print("|---|" + "---|" * len(tags))
    for sets in ("FCHPA", "FCPA", "FCMQT"):
        cells = []
        for tag in tags:
            cells.append(cell(RESULTS / f"lbr{seed}-{tag}-{sets}.json"))
        print(f"| {sets} ×4 | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
