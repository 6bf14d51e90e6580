"""`gambler-dealer`: an ACPC-compatible dealer for local matches.

    gambler-dealer MATCH GAMEFILE HANDS SEED NAME1 NAME2 [-p P1,P2] [-f] [-q] [--host H]
                   [--t_response MS] [--t_hand MS] [--t_per_hand MS] [--start_timeout MS]

The same arguments as the ACPC server's `dealer`, so scripts can use either; GAMEFILE may also
name a shipped game (`holdem.nolimit.2p.reverse_blinds.game`).

Its own errors (bad arguments, a bad game file, a log that cannot be written, a port in use) are
one line, `gambler-dealer: error: ...`, before any port is printed, as in every gambler command. A
match that fails once it has started (a timeout, a lost seat) ends as the ACPC dealer's does:
`ERROR: ...` on stderr, exit status 1.
"""

from __future__ import annotations

import click

from gambler.cli import SEED, debug_option, run
from gambler.protocol.dealer import (DEFAULT_T_HAND_MS, DEFAULT_T_PER_HAND_MS,
                                     DEFAULT_T_RESPONSE_MS, Dealer, DealerOptions)
from gambler.protocol.errors import MatchFailed, ProtocolError
from gambler.protocol.gamedef import load_game


def _ports(text: str | None, seats: int) -> list[int]:
    if not text:
        return []
    try:
        ports = [int(part) for part in text.split(",")]
    except ValueError:
        raise click.BadParameter(f"bad port string {text!r}", param_hint="-p") from None
    if len(ports) > seats or any(not 0 <= port < 65536 for port in ports):
        raise click.BadParameter(f"bad port string {text!r}: up to {seats} ports 0..65535",
                                 param_hint="-p")
    return ports


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("match")
@click.argument("gamefile")
@click.argument("hands", type=click.IntRange(min=1))
@click.argument("seed", type=SEED, metavar="SEED")
@click.argument("names", nargs=-1, required=True)
@click.option("-p", "ports", metavar="P1,P2", help="Ports to listen on, per seat (0 = any).")
@click.option("-f", "fixed_seats", is_flag=True, help="Fixed seats: positions do not rotate.")
@click.option("-q", "quiet", is_flag=True, help="Only errors, warnings and the score on stderr.")
@click.option("-l", "no_log", is_flag=True, help="No log file.")
@click.option("-L", "log", is_flag=True, help="Write MATCH.log (the default).")
@click.option("-a", "append", is_flag=True, help="Append to MATCH.log instead of replacing it.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--duplicate", is_flag=True,
              help="Heads-up: every odd hand repeats the previous hand's cards, seats swapped.")
@click.option("--t_response", "t_response", type=int, default=DEFAULT_T_RESPONSE_MS,
              show_default=True, metavar="MS", help="Longest time for one answer.")
@click.option("--t_hand", "t_hand", type=int, default=DEFAULT_T_HAND_MS, show_default=True,
              metavar="MS", help="Longest time a seat may use in one hand.")
@click.option("--t_per_hand", "t_per_hand", type=int, default=DEFAULT_T_PER_HAND_MS,
              show_default=True, metavar="MS", help="Average time per hand a seat may use.")
@click.option("--start_timeout", "start_timeout", type=int, default=-1, show_default=True,
              metavar="MS", help="Longest wait for the seats to connect and say VERSION "
                                 "(< 0: no limit).")
@debug_option
def command(match, gamefile, hands, seed, names, ports, fixed_seats, quiet, no_log, log, append,
            host, duplicate, t_response, t_hand, t_per_hand, start_timeout) -> int:
    """Deal HANDS hands of GAMEFILE to the players NAME1 NAME2 ... with random seed SEED.

    Prints the ports to connect to on the first line of stdout, writes MATCH.log in the ACPC
    format, and prints the final SCORE line. Exit status 0 after a full match, 1 if it failed
    (a timeout or a lost connection: an ACPC `ERROR:` line) or could not start (a
    `gambler-dealer: error:` line, before any port is printed).
    """
    game = load_game(gamefile)
    if len(names) != game.num_players:
        raise click.UsageError(f"{gamefile} has {game.num_players} players but "
                               f"{len(names)} names were given")
    if duplicate and (game.num_players != 2 or fixed_seats or hands % 2):
        raise ProtocolError("--duplicate needs a heads-up game, rotating seats and an even "
                            "number of hands")
    options = DealerOptions(
        match_name=match, game_file=gamefile, game=game, hands=hands, seed=seed,
        names=list(names), ports=_ports(ports, game.num_players), host=host,
        fixed_seats=fixed_seats, quiet=quiet, log=not no_log or log, append=append,
        duplicate=duplicate, t_response_ms=t_response, t_hand_ms=t_hand,
        t_per_hand_ms=t_per_hand, start_timeout_ms=start_timeout)
    dealer = Dealer(options)
    try:  # set-up errors are ours (one `error:` line), match failures the ACPC dealer's
        dealer.open_log()
        dealer.open_ports()
    except MatchFailed:
        dealer.close()
        raise
    return dealer.run()


def main(argv=None) -> None:
    run(command, argv, program="gambler-dealer")


if __name__ == "__main__":
    main()
