"""`gambler HOST PORT`: play as an ACPC client until the dealer closes the connection.

    gambler 127.0.0.1 58669
    gambler 127.0.0.1 58669 --params configs/params/mine.yaml --log hands.txt
    gambler --explain "MATCHSTATE:0:12:cr300c/:AsKc|/Qh7c2d"

Host and port come last and nothing else is required, so ACPC scripts (`play_match.pl`) can
start it as they start any player. Playing, it writes only to stderr (`--explain` prints on
stdout):

* `gambler: playing ...` when the first state arrives (not with `--quiet`);
* `gambler: warning: ...` for a line it skipped (one per line) or a strategy error;
* the summary (hands, chips, mbb/hand, decisions, latency), once a match has begun: at the end,
  and before any error that stops it, Ctrl-C included (exit status 130);
* `gambler: error: ...`, one line, when it stops early (exit status 1).

How it treats lines it cannot read (`protocol.client`, rules 5 and 6): the first line must be a
state that parses under `--game`; later, a malformed line is skipped with one warning, and
`MAX_UNREADABLE_STATES` (3) states in a row that do not parse stop the match, naming `--game`, as
does one that may be its turn when the dealer then sends nothing for `STALL_SECONDS` (5): a
limit dealer's first raise, read under the no-limit default.
A `--log` that cannot be written is refused before connecting, and a write that fails during the
match (a full disk) stops it; both name the file.
"""

from __future__ import annotations

import sys
import time

import click

from gambler.cli import EXIT_INTERRUPTED, SEED, check_output_path, debug_option, fail, run
from gambler.protocol.client import (MAX_UNREADABLE_STATES, STALL_SECONDS, DealerConnection,
                                     play_match)
from gambler.protocol.errors import (GameDefinitionError, NotADealerError, ProtocolError,
                                     UnreadableStateError)
from gambler.protocol.gamedef import DEFAULT_GAME, load_game


def profile_help() -> str:
    """`--params`'s help, listing what exists now: the files in configs/params and the baseline
    and exploiter registries."""
    from gambler.bot.exploiters import exploiter_names_text
    from gambler.bot.params import shipped_profile_names
    from gambler.bot.strategies import BASELINES

    return (f"Profile: a YAML path, a shipped name ({', '.join(shipped_profile_names())}), a "
            f"baseline ({', '.join(BASELINES)}) or an exploiter "
            f"({exploiter_names_text()}).")


class ProfileOption(click.Option):
    """`--params`, whose help is built when it is shown, so that it lists every shipped profile
    without importing the strategies at every start."""

    def get_help_record(self, ctx):
        self.help = profile_help()
        return super().get_help_record(ctx)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("host", required=False)
@click.argument("port", type=click.IntRange(1, 65535), required=False)
@click.option("--params", "profile", cls=ProfileOption, default="default", show_default=True,
              metavar="PROFILE", help="Profile: a YAML path, a shipped name, a baseline or an "
                                      "exploiter (listed when the help is shown).")
@click.option("--game", "game_file", default=DEFAULT_GAME, show_default=True, metavar="FILE",
              help="ACPC game definition (a path or a shipped name). The dealer's first state, "
                   f"or {MAX_UNREADABLE_STATES} in a row, that do not parse under it stop the "
                   f"match, as does one on the bot's turn then {STALL_SECONDS:g} s of silence; "
                   "a single malformed line later is skipped with a warning.")
@click.option("--samples", type=click.IntRange(min=1), default=None, metavar="N",
              help="Monte Carlo win rates with N deals instead of exact ones.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed for --samples and the random baseline.")
@click.option("--log", "log_path", default=None, metavar="FILE",
              help="One line per hand (hand, position, cards, betting, result) and one per "
                   "decision (v, mode, U or price, T, pot, owed, legal raises, action), written "
                   "as each hand ends.")
@click.option("--quiet", is_flag=True, help="Only errors and the final summary on stderr.")
@click.option("--explain", "state_line", default=None, metavar="STATE",
              help="No match: print the decision for one MATCHSTATE line where it is our turn.")
@debug_option
def command(host, port, profile, game_file, samples, seed, log_path, quiet, state_line) -> None:
    """Play heads-up hold'em against the ACPC dealer at HOST PORT (or explain one decision).

    The summary goes to stderr at the end of the match, and before the error line if it stops
    early (Ctrl-C included).
    """
    from gambler.bot.strategies import load_strategy

    if state_line is None and (host is None or port is None):
        raise click.UsageError("give HOST and PORT to play, or --explain STATE")
    if state_line is not None and host is not None:
        raise click.UsageError("--explain takes no HOST or PORT")
    if log_path is not None:
        check_output_path(log_path, "--log")
    game = load_game(game_file)
    if not game.is_heads_up_holdem:
        raise GameDefinitionError(
            f"{game_file}: gambler plays heads-up hold'em (2 players, 4 suits x 13 ranks, 2 hole "
            f"cards, boards 0 3 1 1), not this game ({game.num_players} players, "
            f"{game.num_suits} x {game.num_ranks} cards, {game.num_hole_cards} hole cards)")
    plugged = click.get_current_context().obj or {}  # what a layer above gives (gambler.adaptive)
    refresher = plugged.get("refresher")
    if refresher is None and state_line is not None:
        refresher = _no_counter_in_one_decision
    strategy = load_strategy(profile, seed=seed, samples=samples, game=game, refresher=refresher)
    try:
        play(strategy, game, game_file, host, port, samples, log_path, quiet, state_line)
    finally:
        close = getattr(strategy, "close", None)
        if close is not None:
            close()


def _no_counter_in_one_decision(game, portfolio):
    """A portfolio's refresher for `--explain`: one decision, made before any hand has ended,
    never reaches a counter (the model member is drawn only once one is in), so none is asked
    for; this only lets a portfolio with a model member load without `gambler.adaptive`."""
    def refresh(portfolio, stats, refresh: int):
        raise AssertionError("--explain asked for a counter")
    return refresh


def play(strategy, game, game_file, host, port, samples, log_path, quiet, state_line) -> None:
    """Explain one state, or play the match (`command`'s body once the strategy is loaded)."""
    from gambler.bot.player import MatchLogError, Player, open_log

    if state_line is not None:
        explain(strategy, game, state_line)
        return
    try:
        connection = DealerConnection(host, port)
    except OSError as error:
        fail("gambler", f"cannot connect to {host}:{port}: {error.strerror or error}")
    how = ""
    if hasattr(strategy, "win_rate") or hasattr(strategy, "members"):
        how = (f" with Monte Carlo win rates ({samples:,} deals)" if samples
               else " with exact win rates")
    rule = (f"\ngambler: {strategy.name}: "
            f"{strategy.portfolio.describe(min(game.stacks) / game.big_blind)}"
            if hasattr(strategy, "portfolio") else "")
    stopped = None  # the one-line error that ended the match early
    with connection:
        from gambler import evaluator
        evaluator.warm_up(samples=bool(samples))  # heavy start-up happens before VERSION
        player = Player(strategy, game.big_blind, warn=None if quiet else sys.stderr,
                        log_file=open_log(log_path) if log_path is not None else None)
        events = player.events()
        if not quiet:
            events.on_first_state = lambda state: click.echo(
                f"gambler: playing {strategy.name}{how} at {host}:{port}{rule}", err=True)
        try:
            connection.send_version()
        except OSError:
            pass  # closed already: the first read says so
        try:
            try:
                play_match(connection, game, player.decide, events)
            finally:
                player.close_log()
        except KeyboardInterrupt:
            if sys.stderr.isatty():
                click.echo(err=True)  # past the terminal's "^C"
            summarise(player, events)
            fail("gambler", "interrupted", EXIT_INTERRUPTED)
        except UnreadableStateError as error:
            stopped = (f"{error}; is the dealer playing the game of --game "
                       f"({game_file})?")
        except NotADealerError as error:
            stopped = f"{host}:{port} {error}: is it an ACPC dealer?"
        except MatchLogError as error:
            stopped = str(error)
    summarise(player, events)
    if stopped is not None:
        fail("gambler", stopped)
    last = events.last_state
    if last is None:
        fail("gambler", f"{host}:{port} closed the connection without sending a single state: "
                        "is it an ACPC dealer?")
    if not last.finished:
        fail("gambler", f"the connection was lost during hand {last.hand:,}")


def summarise(player, events) -> None:
    """The summary line on stderr, once a match has begun (a state has been read)."""
    if events.last_state is None:
        return
    record = player.record
    record.finished = time.perf_counter()
    click.echo(f"gambler: {record.summary()}", err=True)


def explain(strategy, game, line: str) -> None:
    """Print the decision the strategy makes in one MATCHSTATE line, with the decision log's
    fields one per line."""
    from gambler.bot.automaton import format_fields
    from gambler.bot.player import ROUND_NAMES
    from gambler.bot.strategies import act_and_explain
    from gambler.protocol.matchstate import format_cards_field, parse_matchstate

    state = parse_matchstate(game, line.strip())
    if not state.is_our_turn:
        raise ProtocolError(f"{line.strip()!r}: not our turn (position {state.position}), "
                            "nothing to decide")
    _, fields = act_and_explain(strategy, state)
    cards = format_cards_field(game, state.betting.round, state.hole_cards, state.board)
    click.echo(f"{strategy.name}, hand {state.hand}, position {state.position}, "
               f"{ROUND_NAMES[state.betting.round]}: cards {cards}, betting "
               f"{state.betting.betting_string() or '(none)'}")
    for name, value in fields.items():
        click.echo(f"  {format_fields({name: value}).replace('=', ' ', 1):s}")


def main(argv=None) -> None:
    run(command, argv, program="gambler")


if __name__ == "__main__":
    main()
