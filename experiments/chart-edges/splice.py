"""Write a chart that is one chart with some nodes taken from another (a diagnostic).

Usage: python experiments/chart-edges/splice.py BASE DONOR NODE[,NODE...] NAME

BASE and DONOR are chart names or paths solved on the same tree (sizes and cap); each NODE (a
path such as `r0.5`) gets DONOR's strategy, mixed classes included; the rest is BASE's. The
chart is written by `bot.chart.chart_text` to experiments/chart-edges/charts/NAME.yaml.
"""

import sys
from dataclasses import replace
from pathlib import Path

from gambler.bot.chart import chart_text, find_chart_file, load_chart

HERE = Path(__file__).resolve().parent


def main(base_name: str, donor_name: str, paths: list[str], name: str) -> None:
    base, donor = load_chart(find_chart_file(base_name)), load_chart(find_chart_file(donor_name))
    if [node.path for node in base.nodes] != [node.path for node in donor.nodes]:
        sys.exit(f"{base_name} and {donor_name} are not solved on the same tree")
    index = {node.path: n for n, node in enumerate(base.nodes)}
    strategy = list(base.strategy)
    for path in paths:
        strategy[index[path]] = donor.strategy[index[path]]
    spliced = replace(base, strategy=tuple(strategy), name=name, solve=None,
                      description=f"{base_name} with node(s) {', '.join(paths)} taken from "
                                  f"{donor_name}: a diagnostic",
                      provenance=f"python experiments/chart-edges/splice.py {base_name} "
                                 f"{donor_name} {','.join(paths)} {name}")
    target = HERE / "charts" / f"{name}.yaml"
    target.write_text(chart_text(spliced))
    print(f"wrote {target}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4])
