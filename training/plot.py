"""The training curve of a run directory, as a PNG (matplotlib: the `plot` extra)."""

from __future__ import annotations

import json
from pathlib import Path

from gambler.errors import GamblerError


def plot_run(run_dir: Path, out: Path | None = None) -> Path:
    """Draw the proposals' deltas, the best profile's score with its CI, and the temperature."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise GamblerError("plotting needs matplotlib: pip install 'gambler[plot]'") from None
    log = run_dir / "log.jsonl"
    if not log.is_file():
        raise GamblerError(f"{run_dir} has no log.jsonl")
    everything = _read_log(log)
    records = [record for record in everything if "step" in record]
    searches = search_points(everything)
    if not records:
        raise GamblerError(f"{log} is empty: nothing to plot yet")
    steps = [record["step"] for record in records]  # 1, 2, ... as on the progress lines
    figure, (top, bottom, moved) = plt.subplots(3, 1, figsize=(10, 8.5), sharex=True,
                                                gridspec_kw={"height_ratios": [2, 1, 0.8]})
    scored = [(step, record["best_score"]) for step, record in zip(steps, records)
              if record.get("best_score")]
    if scored:
        xs = [step for step, _ in scored]
        ys = [score["mbb_per_hand"] for _, score in scored]
        spread = [score["ci95_mbb"] for _, score in scored]
        top.plot(xs, ys, color="tab:blue",
                 label="best profile vs the fixed opponents (validation deals)")
        top.fill_between(xs, [y - s for y, s in zip(ys, spread)],
                         [y + s for y, s in zip(ys, spread)], color="tab:blue", alpha=0.2,
                         label="95% CI")
    new_best = [step for step, record in zip(steps, records) if record.get("new_best")]
    for step in new_best:
        top.axvline(step, color="tab:green", alpha=0.15)
    top.set_ylabel("mbb/hand")
    top.set_title(f"gambler-train: {run_dir.name}")
    top.legend(loc="lower right", fontsize=7)
    if searches:  # the double oracle's number to watch fall, on its own scale
        found = top.twinx()
        xs, ys, spread = zip(*searches)
        found.errorbar(xs, ys, yerr=spread, fmt="o", color="tab:red", markersize=4,
                       capsize=3, label="a fresh exploiter search vs the best (held-out hands)")
        found.set_ylabel("exploiter wins (mbb/hand)", color="tab:red")
        found.legend(loc="upper center", fontsize=7)
    accepted = [(step, r["delta"]["mbb_per_hand"]) for step, r in zip(steps, records)
                if r["accepted"]]
    rejected = [(step, r["delta"]["mbb_per_hand"]) for step, r in zip(steps, records)
                if not r["accepted"]]
    for points, color, label in ((accepted, "tab:green", "accepted"),
                                 (rejected, "tab:red", "rejected")):
        if points:
            bottom.scatter(*zip(*points), s=6, color=color, label=label)
    bottom.set_ylabel("proposal Δ (mbb/hand)")
    # Which number each step moved: its round on the y axis, spread within the round by the
    # parameter's place in it; labels where a new parameter starts.
    rounds = ("preflop", "flop", "turn", "river")
    names = [record["parameter"] for record in records]
    order = sorted(set(names), key=lambda name: (rounds.index(name.split(".")[0])
                                                 if name.split(".")[0] in rounds else 4, name))
    within: dict[str, list[str]] = {}
    for name in order:
        within.setdefault(name.split(".")[0], []).append(name)
    def height(name: str) -> float:
        group = within[name.split(".")[0]]
        base = rounds.index(name.split(".")[0]) if name.split(".")[0] in rounds else 4
        return base + 0.8 * group.index(name) / max(1, len(group))
    moved.scatter(steps, [height(name) for name in names], s=4, color="tab:purple")
    moved.set_yticks(range(4), rounds)
    moved.set_ylabel("parameter moved")
    moved.set_ylim(-0.2, 4.4)
    labelled: set[str] = set()
    for step, name in zip(steps, names):
        if name not in labelled:  # the first sweep names each parameter once
            labelled.add(name)
            moved.annotate(name.split(".", 1)[1], (step, height(name)), fontsize=5,
                           xytext=(1, 2), textcoords="offset points", rotation=60)
    moved.set_xlabel("step")
    from matplotlib.ticker import MaxNLocator
    moved.xaxis.set_major_locator(MaxNLocator(integer=True))
    heat = bottom.twinx()
    heat.plot(steps, [record["temperature"] for record in records], color="tab:gray",
              linewidth=1)
    heat.set_ylabel("temperature")
    bottom.legend(loc="upper right")
    figure.tight_layout()
    target = out or run_dir / "training.png"
    figure.savefig(target, dpi=110)
    plt.close(figure)
    return target


def search_points(records: list[dict]) -> list[tuple[float, float, float]]:
    """(x, what the found exploiter won against the best on its held-out hands, its 95%
    half-width) for each exploiter search of the log (the double oracle: `exploit.every`). A
    search ran before step k, so it is drawn at k - 0.5, between the steps it separates.

    >>> search_points([{"search": 0, "before_step": 1, "held_out": {"mbb_per_hand": 900.0,
    ...                 "ci95_mbb": 80.0}}, {"step": 1}])
    [(0.5, 900.0, 80.0)]
    """
    return [(record["before_step"] - 0.5, record["held_out"]["mbb_per_hand"],
             record["held_out"]["ci95_mbb"]) for record in records if "search" in record]


def _read_log(log: Path) -> list[dict]:
    """The records of a run's log. A run still going may be writing its last line: a last line
    that is not yet whole JSON is left out; a damaged line elsewhere is an error naming it."""
    lines = log.read_text().splitlines()
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            if number == len(lines):
                break
            raise GamblerError(f"{log}:{number}: not a log record (damaged JSON)") from None
    return records
