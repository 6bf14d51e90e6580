"""Write an arm of the member `default-static` with some postflop keys changed.

Usage: python experiments/chart-edges/variant.py NAME ROUNDS KEY=VALUE...   (ROUNDS: f, t, r
letters, e.g. ftr; VALUE a number, or `none` to drop the key) [--chart PATH]

The rest of configs/params/default-static.yaml is kept as it is.
"""

import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
MEMBER = HERE.parent.parent / "configs" / "params" / "default-static.yaml"
ROUND_NAMES = {"f": "flop", "t": "turn", "r": "river"}


def main(argv):
    chart = None
    if "--chart" in argv:
        at = argv.index("--chart")
        chart = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
    name, rounds, *changes = argv
    document = yaml.safe_load(MEMBER.read_text())
    document["name"] = name
    document["description"] = f"default-static with {' '.join(changes)} on {rounds}" + (
        f", chart {chart}" if chart else "")
    document["provenance"] = ("configs/params/default-static.yaml (session 26), changed by "
                              "experiments/chart-edges/variant.py (session 27).")
    if chart:
        document["chart"] = chart
    for letter in rounds:
        for change in changes:
            key, value = change.split("=")
            if value == "none":
                document[ROUND_NAMES[letter]].pop(key, None)
            else:
                document[ROUND_NAMES[letter]][key] = float(value)
    (HERE / f"{name}.yaml").write_text(yaml.safe_dump(document, sort_keys=False, width=100))
    print(f"wrote {HERE / (name + '.yaml')}")


if __name__ == "__main__":
    main(sys.argv[1:])
