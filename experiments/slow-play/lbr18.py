"""The arm's LBR files on seed 18 beside the shipped default's: one row per setting.

    python experiments/slow-play/lbr18.py [ARM_TAG]   (default: p-sp-ftr100-nb)
"""

import sys
from pathlib import Path

from table import cell  # this folder's table.py (the script's folder is on the path)

EVAL = Path(__file__).resolve().parent / "eval"


def main(arm: str) -> None:
    print(f"| LBR's actions | `default` | `{arm}` |")
    print("|---|---|---|")
    for sets in ("FCPA", "FCHPA", "FCMA", "FCMQT", "FCODXA", "FCMQHTPODXA"):
        print(f"| {sets} ×4 | {cell(EVAL / f'lbr18-default-{sets}.json')} | "
              f"{cell(EVAL / f'lbr18-{arm}-{sets}.json')} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "p-sp-ftr100-nb")
