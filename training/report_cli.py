"""`gambler-report LOG...`: what match logs say about each player.

    gambler-report match.log
    gambler-report match.log swapped.log --json       # a duplicate pair: scored by deal
    gambler-report match.log --html match.html         # one page with the plots
    gambler-report bot.log                             # what `gambler --log bot.log` wrote
    gambler-report match.log --phh match.phhs          # the hands as Poker Hand Histories
    gambler-report match.phhs --acpc match.log         # PHH in, the dealer's log format out
    gambler-report match.log --aivat a=default-v2      # AIVAT for player a, who played it

A LOG is the dealer's ACPC match log or the bot's own log (`protocol.logs` reads both), or a
PHH file (`.phh`, one hand; `.phhs`, many: `protocol.phh`). An ACPC log's game is the one
`--game` names, else the one the log's header names, else what its betting shows (raises with
sizes: no-limit; without: limit); when none of these tells, the error asks for `--game`. A PHH
hand carries its game (blinds and stacks).
"""

from __future__ import annotations

import json

import click

from gambler.cli import check_output_path, debug_option, run
from gambler.protocol.gamedef import load_game


def _share(value) -> str:
    return "-" if value is None else f"{value:.1%}"


def describe(reports, duplicate: bool, hands: int) -> list[str]:
    """The summary's lines."""
    unit = "duplicate deals" if duplicate else "hands"
    lines = [f"{hands:,} hands; 95% intervals over {unit}; mbb/hand = thousandths of a big "
             "blind per hand"]
    for report in reports:
        style = report.style.as_dict()
        aggression = "-" if style["aggression"] is None else f"{style['aggression']:.2f}"
        lines += [
            "",
            f"{report.name}: {report.hands:,} hands, {report.chips:+,.0f} chips, "
            f"{report.result} mbb/hand",
            f"  all-in adjusted: {report.adjusted} (the run-outs' luck: "
            f"{report.luck})",
            "  by position: " + "; ".join(f"{label} {value}"
                                          for label, value in report.by_position.items()),
            f"  showdown {report.showdown_mbb:+,.1f}, no showdown {report.no_showdown_mbb:+,.1f} "
            "mbb/hand",
            f"  VPIP {_share(style['vpip'])}, PFR {_share(style['pfr'])}, aggression "
            f"{aggression}, fold to a bet {_share(style['fold_to_bet'])}"]
        if report.aivat is not None:
            lines += aivat_lines(report.aivat)
    return lines


def aivat_lines(aivat) -> list[str]:
    """A player's AIVAT result (`training.report.Aivat`) and the spreads beside it."""
    spreads = aivat.spreads
    labels = (("plain", "plain"), ("all-in adjusted", "allin_adjusted"), ("AIVAT", "aivat"))
    plain = spreads["plain"].sd_mbb
    lower = (f" ({1 - spreads['aivat'].sd_mbb / plain:.0%} lower than plain)" if plain > 0
             else "")
    return [f"  AIVAT ({aivat.profile}): {aivat.result} mbb/hand",
            "  standard deviation per hand: " + ", ".join(
                f"{label} {spreads[key].sd_mbb:,.0f}" for label, key in labels) + f" mbb{lower}",
            "  hands for a 95% interval of ±100 mbb/hand: " + ", ".join(
                f"{label} {spreads[key].hands_for_100:,}" for label, key in labels)]


def parse_aivat(specs: tuple[str, ...], names: list[str]) -> dict[str, object]:
    """`--aivat NAME=PROFILE` options: {name: (PROFILE, the strategy it played)}, checked
    before any work (a player the logs do not hold, a strategy AIVAT cannot score)."""
    from gambler.bot.strategies import resolve_strategy
    from gambler.training.aivat_holdem import AivatLogError, check_scorable

    known = {}
    for spec in specs:
        name, sep, profile = spec.partition("=")
        if not sep or not name or not profile:
            raise click.BadParameter(f"{spec!r}: expected NAME=PROFILE", param_hint="--aivat")
        if name not in names:
            raise click.BadParameter(f"{spec!r}: the logs have no player {name!r} (players: "
                                     f"{', '.join(names)})", param_hint="--aivat")
        strategy = resolve_strategy(profile)
        try:
            check_scorable(strategy)
        except AivatLogError as error:
            raise click.BadParameter(f"{spec!r}: {error}", param_hint="--aivat") from None
        known[name] = (profile, strategy)
    return known


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--game", "game_file", default=None, metavar="FILE",
              help="ACPC game definition the logs were played in (heads-up)  [default: the "
                   "one each log's header names, else limit or no-limit hold'em as its raises "
                   "show]")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@click.option("--html", "html_path", default=None, metavar="FILE",
              help="Also write one self-contained page with the plots (no network needed).")
@click.option("--phh", "phh_path", default=None, metavar="FILE",
              help="Also write every hand as a Poker Hand History: FILE.phhs (any number of "
                   "hands) or FILE.phh (one).")
@click.option("--acpc", "acpc_path", default=None, metavar="FILE",
              help="Also write every hand as the ACPC dealer's log lines (STATE:...).")
@click.option("--aivat", "aivat_specs", multiple=True, metavar="NAME=PROFILE",
              help="Also score player NAME, who played PROFILE (a blueprint, a profile, an "
                   "exploiter or a baseline but random; not a portfolio), by AIVAT: an unbiased "
                   "estimate with the luck of the cards and of its own draws taken out; needs "
                   "both players' cards (the dealer's log). Repeatable.")
@debug_option
def command(logs, game_file, as_json, html_path, phh_path, acpc_path, aivat_specs) -> None:
    """Summarise match logs (several, e.g. a duplicate pair): per player the result with its 95%
    interval, all-in adjusted, by position, showdown and not, VPIP, PFR, aggression and fold to
    a bet.

    A LOG is the dealer's ACPC match log or the bot's own `gambler --log` file (the bot is named
    gambler there, the other seat opponent; a portfolio's log also shows which member played
    each hand, and the page plots each member's probability)."""
    from gambler.protocol.logs import format_state_line, log_hands, read_log_lines
    from gambler.protocol.phh import (check_writable, hand_to_phh, hands_to_phhs, is_phh_path,
                                      read_phh)
    from gambler.training.report import build_report, read_adaptation

    for path, option in ((html_path, "--html"), (phh_path, "--phh"), (acpc_path, "--acpc")):
        if path is not None:
            check_output_path(path, option)
    if phh_path is not None and not is_phh_path(phh_path):
        raise click.BadParameter(f"{phh_path}: name a .phhs file (or .phh for one hand)",
                                 param_hint="--phh")
    game = None
    if game_file is not None:
        game = load_game(game_file)
        if game.num_players != 2:
            raise click.UsageError(f"{game_file}: gambler-report reads heads-up logs")
    texts = [[] if is_phh_path(path) else read_log_lines(path) for path in logs]  # read once
    hands = [read_phh(path) if is_phh_path(path) else log_hands(game, lines, path)
             for lines, path in zip(texts, logs)]
    adaptations = [adaptation for adaptation in (read_adaptation(lines, path)
                                                 for lines, path in zip(texts, logs))
                   if adaptation is not None]
    total = sum(len(log) for log in hands)
    if total == 0:
        raise click.UsageError("the logs hold no hands")
    every_hand = [hand for log in hands for hand in log]
    if phh_path is not None:
        for hand in every_hand:
            check_writable(hand.betting.game, hand.where)
        if phh_path.endswith(".phh") and total != 1:
            raise click.BadParameter(f"{phh_path}: a .phh file holds one hand, and the logs "
                                     f"hold {total:,}: name a .phhs file", param_hint="--phh")
        with open(phh_path, "w") as file:
            file.write(hand_to_phh(every_hand[0]) if total == 1 and phh_path.endswith(".phh")
                       else hands_to_phhs(every_hand))
    if acpc_path is not None:
        with open(acpc_path, "w") as file:
            file.writelines(format_state_line(hand) + "\n" for hand in every_hand)
    aivat = None
    if aivat_specs:
        from gambler.training.aivat_holdem import AivatLogError, score_hands

        names = list(dict.fromkeys(name for hand in every_hand for name in hand.names))
        aivat = {}
        for name, (profile, blueprint) in parse_aivat(aivat_specs, names).items():
            theirs = [hand for hand in every_hand if name in hand.names]
            try:
                scores = score_hands(blueprint, theirs, name)
            except AivatLogError as error:
                raise click.ClickException(f"--aivat {name}={profile}: {error}") from None
            aivat[name] = (profile, {id(hand): float(value)
                                     for hand, value in zip(theirs, scores.estimates)})
    reports, duplicate = build_report(hands, aivat)
    game = every_hand[0].betting.game
    if html_path is not None:
        from gambler.training.report_html import page

        with open(html_path, "w") as file:
            file.write(page(list(logs), reports, duplicate, total, max(game.blinds),
                            adaptations))
    if as_json:
        click.echo(json.dumps({"logs": list(logs), "hands": total, "duplicate": duplicate,
                               "players": [report.as_dict() for report in reports],
                               "adaptation": [adaptation.as_dict()
                                              for adaptation in adaptations]}))
        return
    for line in describe(reports, duplicate, total):
        click.echo(line)
    for adaptation in adaptations:
        shares = ", ".join(f"{name} {share:.1%}" for name, share in adaptation.shares().items())
        last = ", ".join(f"{name} {p:.3f}" for name, p in zip(adaptation.members,
                                                              adaptation.probabilities[-1]))
        click.echo(f"\nportfolio {adaptation.portfolio}: hands played by each member: {shares}; "
                   f"the last hand's probabilities: {last}")


def main(argv=None) -> None:
    run(command, argv, program="gambler-report")


if __name__ == "__main__":
    main()
