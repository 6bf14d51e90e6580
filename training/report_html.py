"""`gambler-report --html`: one self-contained page (no network, no script, no server).

Plots are inline SVG drawn here: the first player's cumulative winnings in big blinds with the
95% band of its luck (running total ± 1.96 s sqrt(n), s the per-hand spread) and the all-in
adjusted line; each player's result by position with its interval; the result by the street
where hands ended; and each player's action frequencies per round. The numbers of the text
report are in tables next to them, so the page can be read without the plots.
"""

from __future__ import annotations

import html
import math

from gambler.training.report import STREETS, PlayerReport

WIDTH, HEIGHT, MARGIN, RIGHT, TOP = 780, 300, 76, 90, 16
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e")


def _padded(low: float, high: float) -> tuple[float, float]:
    """The range with 6% of room above and below."""
    room = 0.06 * ((high - low) or 1.0)
    return low - room, high + room


def _scale(low: float, high: float, out_low: float, out_high: float):
    span = (high - low) or 1.0
    return lambda value: out_low + (value - low) * (out_high - out_low) / span


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high]."""
    span = (high - low) or 1.0
    step = 10 ** math.floor(math.log10(span / count))
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= count:
            step *= factor
            break
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step) + 1)]


def _axes(x_of, y_of, x_ticks, y_ticks, x_label: str, y_label: str) -> list[str]:
    parts = [f'<line x1="{MARGIN}" y1="{HEIGHT - MARGIN}" x2="{WIDTH - RIGHT}" '
             f'y2="{HEIGHT - MARGIN}" stroke="#333"/>',
             f'<line x1="{MARGIN}" y1="{TOP}" x2="{MARGIN}" y2="{HEIGHT - MARGIN}" stroke="#333"/>']
    for tick in y_ticks:
        y = y_of(tick)
        parts.append(f'<line x1="{MARGIN - 4}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                     'stroke="#ddd"/>')
        parts.append(f'<text x="{MARGIN - 6}" y="{y + 4:.1f}" text-anchor="end">'
                     f'{tick:,.6g}</text>')
    for tick in x_ticks:
        x = x_of(tick)
        parts.append(f'<text x="{x:.1f}" y="{HEIGHT - MARGIN + 16}" text-anchor="middle">'
                     f'{tick:,.6g}</text>')
    parts.append(f'<text x="{(WIDTH + MARGIN) / 2}" y="{HEIGHT - 12}" text-anchor="middle">'
                 f'{html.escape(x_label)}</text>')
    middle = (HEIGHT - MARGIN + TOP) / 2
    parts.append(f'<text x="12" y="{middle}" text-anchor="middle" '
                 f'transform="rotate(-90 12 {middle})">{html.escape(y_label)}</text>')
    return parts


def _svg(title: str, parts: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{html.escape(title)}">'
            + "".join(parts) + "</svg>")


def cumulative_chart(report: PlayerReport, big_blind: int) -> str:
    """Running total in big blinds, its luck band and the all-in adjusted line."""
    raw = [value / big_blind for value, _ in report.series]
    adjusted = [value / big_blind for _, value in report.series]
    n = len(raw)
    mean = sum(raw) / n
    spread = math.sqrt(sum((x - mean) ** 2 for x in raw) / (n - 1)) if n > 1 else 0.0
    totals, adjusted_totals, running, running_adjusted = [0.0], [0.0], 0.0, 0.0
    for value, value_adjusted in zip(raw, adjusted):
        running += value
        running_adjusted += value_adjusted
        totals.append(running)
        adjusted_totals.append(running_adjusted)
    band = [1.96 * spread * math.sqrt(k) for k in range(n + 1)]
    low = min(min(t - b for t, b in zip(totals, band)), min(adjusted_totals))
    high = max(max(t + b for t, b in zip(totals, band)), max(adjusted_totals))
    x_of = _scale(0, n, MARGIN, WIDTH - RIGHT)
    low, high = _padded(low, high)
    y_of = _scale(low, high, HEIGHT - MARGIN, TOP)
    step = max(1, n // 400)  # at most ~400 points a line
    points = list(range(0, n + 1, step)) + ([n] if n % step else [])
    upper = " ".join(f"{x_of(k):.1f},{y_of(totals[k] + band[k]):.1f}" for k in points)
    lower = " ".join(f"{x_of(k):.1f},{y_of(totals[k] - band[k]):.1f}" for k in reversed(points))
    parts = _axes(x_of, y_of, _ticks(0, n), _ticks(low, high), "hands",
                  f"{report.name}: big blinds won")
    parts.append(f'<polygon points="{upper} {lower}" fill="{COLOURS[0]}" fill-opacity="0.15" '
                 'stroke="none"><title>95% band of the luck</title></polygon>')
    for series, colour, dash, label in ((totals, COLOURS[0], "", "raw"),
                                        (adjusted_totals, COLOURS[1], ' stroke-dasharray="5 3"',
                                         "all-in adjusted")):
        line = " ".join(f"{x_of(k):.1f},{y_of(series[k]):.1f}" for k in points)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" '
                     f'stroke-width="1.5"{dash}><title>{label}</title></polyline>')
    parts.append(f'<text x="{MARGIN + 8}" y="24" fill="{COLOURS[0]}">raw (band: 95% of the '
                 'luck)</text>')
    parts.append(f'<text x="{MARGIN + 8}" y="40" fill="{COLOURS[1]}">all-in adjusted</text>')
    return _svg(f"{report.name}: cumulative winnings", parts)


def bar_chart(title: str, groups: list[str], series: list[tuple[str, list[float],
                                                                 list[float] | None]],
              y_label: str) -> str:
    """Grouped bars (one colour per series) with optional 95% whiskers."""
    values = [v for _, vs, _ in series for v in vs]
    whiskers = [(v - e, v + e) for _, vs, es in series if es for v, e in zip(vs, es)]
    low = min([0.0, *values, *(w[0] for w in whiskers)])
    high = max([0.0, *values, *(w[1] for w in whiskers)])
    low, high = _padded(low, high)
    x_of = _scale(0, len(groups), MARGIN, WIDTH - RIGHT)
    y_of = _scale(low, high, HEIGHT - MARGIN, TOP)
    parts = _axes(x_of, y_of, [], _ticks(low, high), "", y_label)
    slot = (x_of(1) - x_of(0)) * 0.8 / max(1, len(series))
    for g, group in enumerate(groups):
        parts.append(f'<text x="{x_of(g + 0.5):.1f}" y="{HEIGHT - MARGIN + 16}" '
                     f'text-anchor="middle">{html.escape(group)}</text>')
        for s, (name, vs, es) in enumerate(series):
            x = x_of(g) + (x_of(1) - x_of(0)) * 0.1 + s * slot
            top, bottom = sorted((y_of(vs[g]), y_of(0)))
            parts.append(f'<rect x="{x:.1f}" y="{top:.1f}" width="{slot * 0.9:.1f}" '
                         f'height="{max(bottom - top, 0.5):.1f}" fill="{COLOURS[s % 4]}">'
                         f'<title>{html.escape(name)}, {html.escape(group)}: {vs[g]:,.1f}'
                         '</title></rect>')
            if es:
                centre = x + slot * 0.45
                parts.append(f'<line x1="{centre:.1f}" y1="{y_of(vs[g] - es[g]):.1f}" '
                             f'x2="{centre:.1f}" y2="{y_of(vs[g] + es[g]):.1f}" stroke="#000"/>')
    for s, (name, _, _) in enumerate(series):
        parts.append(f'<text x="{WIDTH - 4}" y="{TOP + 12 + 16 * s}" text-anchor="end" '
                     f'fill="{COLOURS[s % 4]}">{html.escape(name)}</text>')
    return _svg(title, parts)


def adaptation_chart(adaptation) -> str:
    """Each member's probability of being drawn, against the hands played (a portfolio's log)."""
    n = len(adaptation.hands)
    x_of = _scale(0, max(n - 1, 1), MARGIN, WIDTH - RIGHT)
    y_of = _scale(0.0, 1.0, HEIGHT - MARGIN, TOP)
    parts = _axes(x_of, y_of, _ticks(0, max(n - 1, 1)), _ticks(0.0, 1.0), "hands",
                  "probability of playing the hand")
    step = max(1, n // 400)
    points = list(range(0, n, step)) + ([n - 1] if n and (n - 1) % step else [])
    for index, name in enumerate(adaptation.members):
        colour = COLOURS[index % len(COLOURS)]
        line = " ".join(f"{x_of(k):.1f},{y_of(adaptation.probabilities[k][index]):.1f}"
                        for k in points)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" '
                     f'stroke-width="1.5"><title>{html.escape(name)}</title></polyline>')
        parts.append(f'<text x="{WIDTH - 4}" y="{TOP + 12 + 16 * index}" text-anchor="end" '
                     f'fill="{colour}">{html.escape(name)}</text>')
    return _svg(f"portfolio {adaptation.portfolio}: each member's probability", parts)


def page(logs: list[str], reports: list[PlayerReport], duplicate: bool, hands: int,
         big_blind: int, adaptations=()) -> str:
    """The whole page as one string (with a portfolio's adaptation, if its log has one)."""
    rows = []
    for report in reports:
        style = report.style.as_dict()
        aggression = "-" if style["aggression"] is None else f"{style['aggression']:.2f}"
        fold = "-" if style["fold_to_bet"] is None else f"{style['fold_to_bet']:.1%}"
        rows.append(
            f"<tr><th>{html.escape(report.name)}</th><td>{report.hands:,}</td>"
            f"<td>{report.chips:+,.0f}</td><td class='result'>{report.result}</td>"
            f"<td>{report.adjusted}</td><td>{report.luck}</td>"
            f"<td>{report.showdown_mbb:+,.1f}</td><td>{report.no_showdown_mbb:+,.1f}</td>"
            f"<td>{style['vpip']:.1%}</td><td>{style['pfr']:.1%}</td><td>{aggression}</td>"
            f"<td>{fold}</td></tr>")
    positions = sorted({p for r in reports for p in r.by_position})  # fixed seats: one each
    by_position = bar_chart(
        "result by position", positions,
        [(r.name, [r.by_position[p].mbb_per_hand if p in r.by_position else 0.0
                   for p in positions],
          [r.by_position[p].ci95_mbb if p in r.by_position else 0.0 for p in positions])
         for r in reports],
        "mbb/hand (95% interval)")
    by_street = bar_chart(
        "result by street of the hand's end", list(STREETS),
        [(r.name, [r.by_street[s] for s in STREETS], None) for r in reports],
        "mbb/hand, over all hands")
    action_charts = []
    for report in reports:
        shares = []
        for counts in report.actions:
            total = sum(counts) or 1
            shares.append([100.0 * c / total for c in counts])
        action_charts.append(bar_chart(
            f"{report.name}: actions per round", list(STREETS[:len(report.actions)]),
            [(kind, [share[k] for share in shares], None)
             for k, kind in enumerate(("fold", "check/call", "bet/raise"))],
            f"{report.name}: % of its actions"))
    adaptation_section = "".join(
        f'<h2 id="adaptation">Portfolio {html.escape(adaptation.portfolio)}: who played</h2>'
        f"<p>Hands played by each member: "
        + ", ".join(f"{html.escape(name)} {share:.1%}"
                    for name, share in adaptation.shares().items())
        + f"</p>{adaptation_chart(adaptation)}" for adaptation in adaptations)
    unit = "duplicate deals" if duplicate else "hands"
    title = "gambler-report: " + ", ".join(html.escape(log) for log in logs)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }}
table {{ border-collapse: collapse; margin: 12px 0; }}
th, td {{ border: 1px solid #ccc; padding: 4px 8px; text-align: right; white-space: nowrap; }}
svg {{ display: block; margin: 8px 0 20px; font: 11px sans-serif; }}
</style></head><body>
<h1>{title}</h1>
<p id="summary">{hands:,} hands; 95% intervals over {unit}; mbb/hand = thousandths of a big
blind ({big_blind:,} chips) per hand.</p>
<table id="players"><tr><th>player</th><th>hands</th><th>chips</th><th>mbb/hand</th>
<th>all-in adjusted</th><th>run-outs' luck</th><th>showdown</th><th>no showdown</th>
<th>VPIP</th><th>PFR</th><th>aggression</th><th>fold to a bet</th></tr>
{''.join(rows)}</table>
<h2>Cumulative winnings</h2>
{cumulative_chart(reports[0], big_blind)}
<h2>By position</h2>
{by_position}
<h2>By street of the hand's end</h2>
{by_street}
<h2>Actions</h2>
{''.join(action_charts)}
{adaptation_section}
</body></html>
"""
