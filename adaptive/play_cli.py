"""`gambler-play [PROFILE]`: play the bot heads-up in a browser.

    gambler-play                          # against the default, 100 hands: open the printed URL
    gambler-play seed --hands 20 --seed 7 --log tonight.log

It starts a dealer and the bot on 127.0.0.1 (`adaptive.play`), prints the page's address, and
serves it until Ctrl-C. The match log (ACPC format) grows hand by hand; `gambler-report` reads it.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
from datetime import datetime

import click

from gambler.cli import SEED, check_output_path, debug_option, fail, run

PROGRAM = "gambler-play"
HUMAN_SECONDS = 3600  # the dealer's clocks for a person: an hour an action, and on average


def _say(text: str) -> None:
    click.echo(f"{PROGRAM}: {text}", err=True)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("profile", default="default")
@click.option("--hands", type=click.IntRange(min=1), default=100, show_default=True,
              help="Hands in the match.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the deals.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="The page's port on 127.0.0.1 (0: any free port).")
@click.option("--log", "log_path", default=None, metavar="FILE.log",
              help="The match log (default play-<date-time>.log).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@debug_option
def command(profile, hands, seed, port, log_path, open_browser) -> None:
    """Play PROFILE (any profile name or file `gambler --params` takes) heads-up no-limit
    hold'em in a browser, through a real ACPC match: you are seat 1, the bot seat 2."""
    from gambler.adaptive.play import Table, serve
    from gambler.adaptive.play_page import PAGE
    from gambler.bot.strategies import resolve_strategy
    from gambler.protocol.client import DealerConnection, MatchEvents, play_match
    from gambler.protocol.dealer import Dealer, DealerOptions
    from gambler.protocol.errors import MatchError
    from gambler.protocol.gamedef import DEFAULT_GAME, load_game

    resolve_strategy(profile)  # a bad name fails here, listing the names
    log_path = log_path or f"play-{datetime.now():%Y%m%d-%H%M%S}.log"
    if not log_path.endswith(".log"):
        raise click.BadParameter(f"{log_path}: the dealer writes NAME.log: end it in .log",
                                 param_hint="--log")
    check_output_path(log_path, "--log")
    game = load_game(DEFAULT_GAME)
    milliseconds = HUMAN_SECONDS * 1000
    dealer = Dealer(DealerOptions(log_path[:-len(".log")], DEFAULT_GAME, game, hands, seed,
                                  ["you", profile], t_response_ms=milliseconds,
                                  t_hand_ms=milliseconds, t_per_hand_ms=milliseconds),
                    stdout=io.StringIO(), stderr=io.StringIO())
    dealer.open_log()
    ports = dealer.open_ports()
    table = Table(profile, hands, game.big_blind, os.path.abspath(log_path))
    try:
        server = serve(table, PAGE, port)
    except OSError as error:
        dealer.close()
        fail(PROGRAM, f"cannot serve the page on 127.0.0.1:{port}: {error.strerror or error}")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    bot = subprocess.Popen([sys.executable, "-m", "gambler.adaptive.cli", "127.0.0.1",
                            str(ports[1]), "--params", profile, "--quiet"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def deal() -> None:
        dealer.run()

    def seat() -> None:
        table.events = MatchEvents(on_hand_end=table.on_hand_end,
                                   on_first_state=table.on_first_state)
        try:
            with DealerConnection("127.0.0.1", ports[0]) as connection:
                connection.send_version()
                play_match(connection, game, table.decide, table.events)
        except (MatchError, OSError) as error:
            table.finish("failed", f"the match stopped: {error}")
            return
        summary = (f"match over: you {table.total:+,.0f} chips "
                   f"({table.total / game.big_blind:+,.1f} big blinds) over "
                   f"{len(table.results)} hands; the log is {log_path}")
        table.finish("over" if len(table.results) == hands else "failed", summary)
        _say(summary)

    def watch_bot() -> None:
        _, err = bot.communicate()
        if bot.returncode and table.status != "over":
            last = (err or "").strip().splitlines()
            table.finish("failed", f"the bot stopped: {last[-1] if last else bot.returncode}")
            _say(f"the bot stopped: {last[-1] if last else bot.returncode}")

    for target in (deal, seat, watch_bot):
        threading.Thread(target=target, daemon=True).start()
    _say(f"{hands} hands against {profile}: open {url} in a browser (Ctrl-C to stop); the log "
         f"is {log_path}")
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if bot.poll() is None:
            bot.terminate()
        dealer.close()
    if table.status != "over":
        fail(PROGRAM, f"stopped after {len(table.results)} hands; the log is {log_path}", 130)


def main(argv=None) -> None:
    run(command, argv, program=PROGRAM)


if __name__ == "__main__":
    main()
