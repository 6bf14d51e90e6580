"""The arm's LBR files on seed 18 beside the shipped default's: one row per setting.

    python experiments/slow-play/lbr18.py [ARM_TAG]   (default: p-sp-ftr100-nb)
"""

import json
import sys
from pathlib import Path

EVAL = Path(__file__).resolve().parent / "eval"


def cell(path: Path) -> str:
    if not path.exists() or not path.stat().st_size:
        return ""
    row = json.loads(path.read_text())
    share = row.get("portfolio", {}).get("model_share")
    return (f"{row['mbb_per_hand']:+,.0f} ± {row['ci95_mbb']:,.0f}"
            + (f" ({100 * share:.1f}%)" if share is not None else ""))


def main(arm: str) -> None:
    print(f"| LBR's actions | `default` | `{arm}` |")
    print("|---|---|---|")
    for sets in ("FCPA", "FCHPA", "FCMA", "FCMQT", "FCODXA", "FCMQHTPODXA"):
        print(f"| {sets} ×4 | {cell(EVAL / f'lbr18-default-{sets}.json')} | "
              f"{cell(EVAL / f'lbr18-{arm}-{sets}.json')} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "p-sp-ftr100-nb")
