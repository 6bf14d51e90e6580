"""`gambler-lbr PROFILE`: how much a local best response wins against a profile (or baseline).

    gambler-lbr default
    gambler-lbr seed --actions C,C,FCPA,FCPA --hands 20000 --json
    gambler-lbr mine.yaml --actions C,FCHPA,FCHPA,FCHPA
    gambler-lbr shover --breakdown
    gambler-lbr default --suite --hands 4000

LBR's winnings are a lower bound on the profile's exploitability: what an opponent who knows the
profile's rules can take from it, in mbb/hand with a 95% confidence interval over duplicate deals
(LBR plays both seats of every deal). `training.lbr` explains the algorithm. The profile may
also be a baseline or one of the rule-based exploiters (`bot.exploiters`), whose ranges LBR
computes the same way. `--suite` plays the standard suite of action sets
(`training.lbr.STANDARD_SUITE`) on the same deals and names the worst case.

A portfolio (`kind: portfolio`, e.g. `adaptive`) is met in matches of 3,000 hands, learning from
scratch in each, by an LBR told which member plays each hand (`training.lbr_portfolio`); the
output says so, and how often the model's counters played. `--workers` is then the number of
processes playing matches side by side.
"""

from __future__ import annotations

import json
import math
import time

import click
from click.core import ParameterSource

from gambler.cli import SEED, debug_option, progress_bar, run
from gambler.protocol.gamedef import DEFAULT_GAME, load_game
from gambler.training.match_cli import StrategyHelpCommand, note_rounded_hands, resolve


@click.command(cls=StrategyHelpCommand, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("profile")
@click.option("--actions", default="C,C,FCPA,FCPA", show_default=True, metavar="SETS",
              help="LBR's actions per round, preflop first: F fold, C check/call, and raises "
                   "of M the minimum, Q a quarter pot, H half a pot, T three quarters, P a pot, "
                   "O 1.5 pots, D 2 pots, X 3 pots, A all in (a set of C only just checks and "
                   "calls); either case.")
@click.option("--suite", is_flag=True,
              help="Play the standard suite of action sets (the published LBR table's kind "
                   "of settings, plus preflop raises, minimum raises and overbets) on the same "
                   "deals: one row each, then the worst case. Not with --actions or "
                   "--breakdown.")
@click.option("--hands", type=click.IntRange(min=2), default=20000, show_default=True,
              help="Hands to play (LBR takes both seats of each deal).")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Which deals: the same seed deals the same cards as gambler-match.")
@click.option("--game", "game_file", default=DEFAULT_GAME, show_default=True, metavar="FILE",
              help="ACPC game definition (heads-up hold'em).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Threads for LBR's hands (default: every core); against a portfolio, "
                   "processes playing its matches (default 1).")
@click.option("--breakdown", is_flag=True,
              help="Also show where LBR's winnings come from: hands by LBR's first bet or raise "
                   "and the bot's answer.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@debug_option
def command(profile, actions, suite, hands, seed, game_file, workers, breakdown, as_json) -> None:
    """Play a local best response against PROFILE and print LBR's winnings in mbb/hand.

    PROFILE is {strategies}."""
    from gambler.training.lbr import format_action_sets, parse_action_sets

    if suite:
        given = click.get_current_context().get_parameter_source("actions")
        if given is not ParameterSource.DEFAULT:
            raise click.UsageError("--suite plays its own action sets: drop --actions")
        if breakdown:
            raise click.UsageError("--breakdown is for one setting: run it with --actions, "
                                   "not with --suite")
    game = load_game(game_file)
    if not game.is_heads_up_holdem:
        raise click.UsageError(f"{game_file} is not heads-up hold'em")
    strategy = resolve(profile)
    if _is_portfolio(strategy):
        _run_portfolio(profile, game_file, game, actions, suite, hands, seed, workers,
                       breakdown, as_json)
        return
    from gambler.bot.blueprint import Blueprint
    from gambler.bot.resolve import Resolve

    if isinstance(strategy, Resolve):
        raise click.UsageError(f"{profile} re-solves the river at each decision (kind: resolve): "
                               "LBR against it is not built yet; `gambler-lbr blueprint` "
                               "measures what it plays before the river")
    if not isinstance(strategy, Blueprint):  # blueprints: training.lbr_blueprint
        resolve(profile, single=True)  # a switch: the engine's error, before any work
    if suite:
        _run_suite(profile, game, hands, seed, workers, as_json)
        return
    action_sets = parse_action_sets(actions, game.num_rounds)  # bad sets fail before any work
    actions = format_action_sets(action_sets)  # as echoed: "c,c,fcpa,fcpa" -> "C,C,FCPA,FCPA"
    note_rounded_hands("gambler-lbr", hands)
    from gambler.training.lbr import run_lbr

    started = time.perf_counter()
    deals = (hands + 1) // 2
    with progress_bar("LBR", deals) as update:
        # The parsed sets, not the text: run_lbr passes them through without parsing again.
        result = run_lbr(strategy, game, hands, seed, action_sets, workers, progress=update)
    seconds = time.perf_counter() - started
    score, adjusted = result.score, result.adjusted_score
    seats = [result.position_score(position) for position in range(2)]
    rows = result.breakdown() if breakdown else None
    for row in rows or ():
        row["hand_count"] = round(row["hands"] * 2 * deals)  # "hands" is the share of all hands
    if as_json:
        extra = {"breakdown": rows} if rows is not None else {}
        click.echo(json.dumps(extra | _report(profile, actions, result, seconds, seed)))
        return
    click.echo(f"LBR vs {profile}: {score.mbb_per_hand:+,.1f} mbb/hand ± {score.ci95_mbb:,.1f} "
               f"(95% CI) over {2 * deals:,} hands ({deals:,} duplicate deals, seed {seed}), "
               f"actions {actions}, {seconds:,.1f} s")
    click.echo(f"  all-in adjusted: {adjusted.mbb_per_hand:+,.1f} ± {adjusted.ci95_mbb:,.1f}; "
               f"LBR in position 0 (big blind): {seats[0].mbb_per_hand:+,.1f} ± "
               f"{seats[0].ci95_mbb:,.1f}, in position 1: {seats[1].mbb_per_hand:+,.1f} ± "
               f"{seats[1].ci95_mbb:,.1f}")
    if rows is not None:
        _echo_breakdown(rows)


def _echo_breakdown(rows) -> None:
    click.echo("")
    click.echo("       hands   share  LBR mbb/hand  of its winnings  LBR's first bet or raise")
    for row in rows:
        click.echo(f"  {row['hand_count']:10,}  {100 * row['hands']:5.1f}%  "
                   f"{row['mbb_per_hand']:+12,.0f}  {100 * row['share']:14.1f}%  "
                   f"{row['line']}")


def _is_portfolio(strategy) -> bool:
    from gambler.bot.portfolio import Portfolio

    return isinstance(strategy, Portfolio)


def _run_portfolio(profile, game_file, game, actions, suite, hands, seed, workers, breakdown,
                   as_json) -> None:
    """LBR, told the member drawn, against a portfolio (`training.lbr_portfolio`): one
    setting, or the suite's settings one after another, printed as for a profile."""
    from gambler.training.lbr import STANDARD_SUITE, format_action_sets, parse_action_sets
    from gambler.training.lbr_portfolio import PORTFOLIO_MATCH_DEALS, run_lbr_portfolio

    settings = [setting.actions for setting in STANDARD_SUITE] if suite else [actions]
    settings = [format_action_sets(parse_action_sets(text, game.num_rounds))
                for text in settings]  # bad sets fail before any work
    note_rounded_hands("gambler-lbr", hands)
    deals = (hands + 1) // 2
    rows, results, shares = [], [], []
    started = time.perf_counter()
    with progress_bar("LBR suite" if suite else "LBR", deals * len(settings)) as update:
        for text in settings:
            setting_started = time.perf_counter()
            measured = run_lbr_portfolio(profile, game_file, hands, seed, text, workers or 1,
                                         update)
            row = _report(profile, text, measured.result,
                          time.perf_counter() - setting_started, seed)
            row["portfolio"] = {"lbr_told_member": True, "matches": measured.matches,
                                "match_hands": 2 * PORTFOLIO_MATCH_DEALS,
                                "model_share": measured.model_share,
                                "match_mbb_per_hand": measured.result.match_means()}
            rows.append(row)
            results.append((text, measured.result))
            shares.append(measured.model_share)
    seconds = time.perf_counter() - started
    matches = rows[0]["portfolio"]["matches"]
    plural = "match" if matches == 1 else "matches"
    told = (f"LBR told the member drawn each hand; {matches} {plural} of up to"
            f" {2 * PORTFOLIO_MATCH_DEALS:,} hands, learning from scratch in each; "
            "intervals over the matches")
    if not suite:
        row, result = rows[0], results[0][1]
        lines = result.breakdown() if breakdown else None
        for line in lines or ():
            line["hand_count"] = round(line["hands"] * 2 * deals)
        if as_json:
            extra = {"breakdown": lines} if lines is not None else {}
            click.echo(json.dumps(extra | row))
            return
        click.echo(f"LBR vs {profile} (a portfolio; {told}): {_interval(row, '')} mbb/hand "
                   f"(95% CI) over {2 * deals:,} hands ({deals:,} duplicate deals, seed {seed}), "
                   f"actions {row['actions']}, {seconds:,.1f} s")
        click.echo(f"  all-in adjusted: {_interval(row, '_allin_adjusted')}; the model's "
                   f"counters played {100 * shares[0]:.1f}% of the hands")
        if lines is not None:
            _echo_breakdown(lines)
        return
    _echo_suite(profile, rows, results, deals, seed, seconds, as_json, f" (a portfolio; {told})",
                "", shares)


def _report(profile, actions, result, seconds, seed) -> dict:
    """One setting's --json object (without --breakdown's rows); an interval that cannot be
    computed (one match against a portfolio) is null."""
    score, adjusted = result.score, result.adjusted_score
    return {"profile": profile, "actions": actions, "hands": score.hands,
            "mbb_per_hand": score.mbb_per_hand, "ci95_mbb": _finite(score.ci95_mbb),
            "mbb_per_hand_allin_adjusted": adjusted.mbb_per_hand,
            "ci95_mbb_allin_adjusted": _finite(adjusted.ci95_mbb),
            "by_position": [{"mbb_per_hand": seat.mbb_per_hand,
                             "ci95_mbb": _finite(seat.ci95_mbb)}
                            for seat in map(result.position_score, range(2))],
            "seconds": seconds, "seed": seed}


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _run_suite(profile, game, hands, seed, workers, as_json) -> None:
    """`--suite`: every setting of `STANDARD_SUITE` on one set of deals, then the worst."""
    from gambler.training.lbr import STANDARD_SUITE, iter_lbr_suite

    strategy = resolve(profile)
    note_rounded_hands("gambler-lbr", hands)
    deals = (hands + 1) // 2
    started = time.perf_counter()
    rows, results = [], []
    with progress_bar("LBR suite", deals * len(STANDARD_SUITE)) as update:
        setting_started = started
        for actions, result in iter_lbr_suite(strategy, game, hands, seed, STANDARD_SUITE,
                                              workers, update):
            now = time.perf_counter()
            rows.append(_report(profile, actions, result, now - setting_started, seed))
            results.append((actions, result))
            setting_started = now
    seconds = time.perf_counter() - started
    _echo_suite(profile, rows, results, deals, seed, seconds, as_json, "",
                " (the first row's seconds include loading the deals)")


def _echo_suite(profile, rows, results, deals, seed, seconds, as_json, about, note,
                shares=None) -> None:
    """A suite's rows (`_report`'s objects, with their `LbrResult`s in `results`), then the
    worst: one JSON object, or the table (`about` after the profile's name, `note` after the
    time; with `shares`, a column of the share of hands the model's counters played)."""
    from gambler.training.lbr import worst_setting

    worst = worst_setting(results)
    if as_json:
        click.echo(json.dumps({"profile": profile, "hands": 2 * deals, "seed": seed,
                               "rows": rows, "worst": rows[worst], "seconds": seconds}))
        return
    click.echo(f"LBR suite vs {profile}{about}: {2 * deals:,} hands ({deals:,} duplicate deals, "
               f"seed {seed}) at each of {len(rows)} settings, mbb/hand (95% CI), "
               f"{seconds:,.1f} s{note}")
    width = max(len(row["actions"]) for row in rows)
    model = f"{'model':>6}  " if shares is not None else ""
    click.echo(f"  {'actions':<{width}}  {'LBR wins':>21}  {'all-in adjusted':>21}  "
               f"{model}{'seconds':>7}")
    for index, row in enumerate(rows):
        mark = "  <- worst" if index == worst else ""
        share = f"{100 * shares[index]:5.1f}%  " if shares is not None else ""
        click.echo(f"  {row['actions']:<{width}}  {_interval(row, ''):>21}  "
                   f"{_interval(row, '_allin_adjusted'):>21}  {share}{row['seconds']:7,.1f}{mark}")
    row = rows[worst]
    click.echo(f"worst case: {row['actions']}, LBR wins {_interval(row, '')} mbb/hand "
               f"(all-in adjusted {_interval(row, '_allin_adjusted')})")


def _interval(row: dict, suffix: str) -> str:
    """A row's mbb/hand and its 95% half-width, as "+1,234.5 ± 67.8" (`suffix`: "" for the
    chips won, "_allin_adjusted" for the all-in adjusted pair; "± ?" without an interval)."""
    half = row["ci95_mbb" + suffix]
    return f"{row['mbb_per_hand' + suffix]:+,.1f} ± " + ("?" if half is None else f"{half:,.1f}")


def main(argv=None) -> None:
    run(command, argv, program="gambler-lbr")


if __name__ == "__main__":
    main()
