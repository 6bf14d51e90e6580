"""LBR FCMQT x4 against an arm of this folder (default chances2) and the shipped default of
session 34 (measured as ../matches-s33/counted50.yaml), seed by seed on the same deals, pooled
over the held-out seeds both have (not 21, the choice seed) and paired, as the cards fell and
all-in adjusted, with the mean of the seeds' means and a t interval over the seeds
(../matches-s33/compare.py). Both play the same member with the same draws; only the model's
second chance differs.

    python experiments/chances-s35/compare.py [ARM]
"""

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("matches_s33_compare",
                                               HERE.parent / "matches-s33" / "compare.py")
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
compare = _module.compare


def main(arm: str = "chances2") -> None:
    compare(str(HERE.parent / "matches-s33" / "results" / "lbr{seed}-counted50-FCMQT.json"),
            "`default` (session 34)", str(HERE / "results" / f"lbr{{seed}}-{arm}-FCMQT.json"),
            arm)


if __name__ == "__main__":
    main(*sys.argv[1:])
