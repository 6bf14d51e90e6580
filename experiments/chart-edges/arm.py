"""Write an arm: the shipped member `default-static` behind another preflop chart.

Usage: python experiments/chart-edges/arm.py NAME CHART_FILE "DESCRIPTION"

The profile (experiments/chart-edges/NAME.yaml) is configs/params/default-static.yaml with its
name, description, provenance and `chart:` line replaced (the chart by a path relative to the
arm); every other line is the shipped file's, so the arm differs from the member in its chart
only.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MEMBER = HERE.parent.parent / "configs" / "params" / "default-static.yaml"


def arm_text(name: str, chart: str, description: str) -> str:
    """The member's file with the header and the chart replaced."""
    lines = MEMBER.read_text().splitlines()
    rules = lines[lines.index(next(l for l in lines if l.startswith("chart:"))) + 1:]
    header = [f"version: 5", f"name: {name}", f"description: '{description}'",
              "provenance: 'configs/params/default-static.yaml (session 26) with another chart "
              "(session 27, experiments/chart-edges/arm.py).'", f"chart: {chart}"]
    return "\n".join(header + rules) + "\n"


if __name__ == "__main__":
    name, chart, description = sys.argv[1:4]
    (HERE / f"{name}.yaml").write_text(arm_text(name, chart, description))
    print(f"wrote {HERE / (name + '.yaml')}")
