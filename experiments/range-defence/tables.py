"""Markdown tables of eval folders side by side: the LBR suite (LBR's winnings as the cards fell),
the matches against the pool and against every searched exploiter (the arm's winnings, all-in
adjusted), and a count of the exploiters beaten, tied and lost to (interval above, across or
below zero).

    python experiments/range-defence/tables.py experiments/range-defence/eval/chart-rd \\
        experiments/range-defence/eval/chart-e35-rd
"""

import json
import sys
from pathlib import Path


def _read(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _cell(mean: float, half_width: float) -> str:
    return f"{mean:+,.0f} ± {half_width:,.0f}"


def _label(folder: Path) -> str:
    """A column's name: the arm's folder (`validate.sh`'s `fresh` folder under its arm's)."""
    return (f"`{folder.parent.name}`, fresh seeds" if folder.name == "fresh"
            else f"`{folder.name}`")


def suite_table(folders: list[Path]) -> list[str]:
    suites = [_read(folder / "lbr-suite.json") for folder in folders]
    settings = next((list(row["actions"] for row in suite["rows"]) for suite in suites if suite),
                    [])
    lines = ["| LBR's actions | " + " | ".join(_label(folder) for folder in folders) + " |",
             "|---|" + "---|" * len(folders)]
    for k, actions in enumerate(settings):
        cells = [_cell(suite["rows"][k]["mbb_per_hand"], suite["rows"][k]["ci95_mbb"])
                 if suite else "" for suite in suites]
        lines.append(f"| {actions} | " + " | ".join(cells) + " |")
    worst = [f"**{_cell(suite['worst']['mbb_per_hand'], suite['worst']['ci95_mbb'])}** "
             f"({suite['worst']['actions']})" if suite else "" for suite in suites]
    lines.append("| **the worst** | " + " | ".join(worst) + " |")
    return lines


def _matches(folder: Path, prefix: str) -> dict[str, tuple[float, float]]:
    found = {}
    for path in sorted(folder.glob(f"{prefix}-*.json")):
        row = _read(path)
        if row:
            found[path.stem[len(prefix) + 1:]] = (row["mbb_per_hand_allin_adjusted"],
                                                  row["ci95_mbb_allin_adjusted"])
    return found


def match_table(folders: list[Path], prefix: str) -> list[str]:
    columns = [_matches(folder, prefix) for folder in folders]
    names = sorted(set().union(*columns))
    lines = ["| opponent | " + " | ".join(_label(folder) for folder in folders) + " |",
             "|---|" + "---|" * len(folders)]
    for name in names:
        cells = [_cell(*column[name]) if name in column else "" for column in columns]
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
    counts = []
    for column in columns:
        won = sum(mean - half > 0 for mean, half in column.values())
        lost = sum(mean + half < 0 for mean, half in column.values())
        counts.append(f"{won} / {len(column) - won - lost} / {lost}")
    lines.append("| won / tied / lost | " + " | ".join(counts) + " |")
    return lines


def main(arguments: list[str]) -> None:
    folders = [Path(argument) for argument in arguments]
    print("\n".join(suite_table(folders)), end="\n\n")
    print("\n".join(match_table(folders, "match")), end="\n\n")
    print("\n".join(match_table(folders, "vs")))


if __name__ == "__main__":
    main(sys.argv[1:])
