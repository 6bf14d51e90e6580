"""LBR at the suite's other raising settings (FCPA, FCHPA, FCMA, FCODXA and every size, x4)
against an arm of this folder (default a250c2, the default shipped in session 35) and the
default of session 32 (measured as ../guarded-s32/g50.yaml; session 34's file was not measured at
these settings), one table per setting over the deal seeds both have of 18, 19 and 22-24, seed by
seed and paired, then the mean of the seeds' means with a t interval over the seeds
(../matches-s33/compare.py's `compare`), as the cards fell and all-in adjusted.

    python experiments/chances-s35/settings.py [ARM]
"""

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = HERE.parent / "guarded-s32" / "results"
SETTINGS = ("FCPA", "FCHPA", "FCMA", "FCODXA", "FCMQHTPODXA")
_spec = importlib.util.spec_from_file_location("matches_s33_compare",
                                               HERE.parent / "matches-s33" / "compare.py")
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)


def main(arm: str = "a250c2") -> None:
    for setting in SETTINGS:
        before = str(BEFORE / f"lbr{{seed}}-g50-{setting}.json")
        after = str(HERE / "results" / f"lbr{{seed}}-{arm}-{setting}.json")
        if not _module.seed_rows(before, after, (18, 19, 22, 23, 24)):
            continue  # not measured yet
        print(f"### {setting} x4")
        print()
        _module.compare(before, "`default` (session 32)", after, arm)
        print()


if __name__ == "__main__":
    main(*sys.argv[1:])
