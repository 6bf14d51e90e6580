"""`gambler-equity`: the win rate of a hand against one random hand, from the command line.

    gambler-equity AsKc --board Qh7c2d
    gambler-equity As Kc --board "Qh 7c 2d"
    gambler-equity AsKc --samples 100000 --seed 7 --json
    gambler-equity AsKc --board Qh7c2d --vs QQ+,AKs,AQo

The hole is one word (`AsKc`) or two (`As Kc`); the board is one option value, so a board written
with spaces needs quotes (`--board "Qh 7c 2d"`): unquoted, its later cards would be read as more
hole cards, and the error says so.
"""

from __future__ import annotations

import json

import click

from gambler.evaluator.cards import BOARD_SIZES, CardError, format_cards, parse_cards
from gambler.cli import SEED, debug_option, run


def _progress_line():
    """A `progress(done, total)` that keeps one line on a terminal's stderr up to date (long
    Monte Carlo runs only), or None when stderr is not a terminal."""
    import sys

    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total > 20_000_000:
            end = "\n" if done == total else ""
            click.echo(f"\r{done:,} of {total:,} samples", err=True, nl=False)
            click.echo(end, err=True, nl=False)
    return show


def _hole_codes(words: tuple[str, ...]):
    """The two hole cards from the HOLE words (`AsKc`, or `As Kc`)."""
    text = " ".join(words)
    codes = parse_cards(text)
    if len(codes) != 2:
        hint = (" (a board written with spaces needs quotes: --board \"Qh 7c 2d\")"
                if len(codes) > 2 and len(words) > 1 else "")
        count = f"{len(codes)} card" + ("" if len(codes) == 1 else "s")
        raise CardError(f"the hole {text!r} has {count}, expected 2{hint}")
    return codes


def _describe(rate) -> str:
    if rate.exact:
        return "exact"
    return f"Monte Carlo, {rate.samples:,} samples, seed {rate.seed}"


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("hole", nargs=-1, required=True, metavar="HOLE")
@click.option("--board", default="", metavar="CARDS",
              help="Visible board: 0, 3, 4 or 5 cards, e.g. Qh7c2d or \"Qh 7c 2d\".")
@click.option("--samples", type=click.IntRange(min=1), default=None, metavar="N",
              help="Monte Carlo with N deals instead of exact enumeration.")
@click.option("--seed", type=SEED, default=None,
              help="Seed for --samples (default: a fresh one, printed).")
@click.option("--vs", "against", default=None, metavar="RANGE",
              help="Against a range instead of a random hand: QQ+,AKs,AQo, 22-55, A2s+, one "
                   "holding (QdQh), weights (T9s:0.5). Exact.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@debug_option
def command(hole: tuple[str, ...], board: str, samples: int | None, seed: int | None,
            against: str | None, as_json: bool) -> None:
    """Win rate of HOLE (AsKc, or As Kc) against one uniformly random hand, or a range (--vs).

    Prints W, T, L (win, tie, loss probabilities), v = W - L and equity = W + T/2. Exact
    unless --samples is given: preflop from a table of the 169 starting hands (of every
    preflop matchup with --vs), later streets by enumerating every board and opponent hand.
    """
    hole_codes = _hole_codes(hole)
    board_codes = parse_cards(board, count=BOARD_SIZES)
    combos = None
    if against is not None:
        if samples is not None:
            raise click.UsageError("--samples applies to a random opponent, not to --vs")
        from gambler.evaluator.ranges import live_combos, range_win_rate

        rate = range_win_rate(hole_codes, board_codes, against)  # the text, for its errors
        combos = live_combos(hole_codes, board_codes, against)
    else:
        from gambler.evaluator.rates import win_rate  # numba loads only once the input is known good

        rate = win_rate(hole_codes, board_codes, samples=samples, seed=seed,
                        progress=_progress_line() if samples else None)
    hole_text, board_text = format_cards(hole_codes), format_cards(board_codes)
    if as_json:
        result = {
            "hole": hole_text, "board": board_text, "win": rate.win, "tie": rate.tie,
            "loss": rate.loss, "v": rate.v, "equity": rate.equity, "exact": rate.exact,
            "samples": rate.samples, "seed": rate.seed, "std_error": rate.std_error}
        if against is not None:
            result.update({"vs": against, "combos": combos})
        click.echo(json.dumps(result))
        return
    spread = "" if rate.exact else f" ± {rate.std_error:.4f} (1 s.e.)"
    opponent = ("" if against is None else
                f" against {against} ({combos:,g} combo{'' if combos == 1 else 's'} live)")
    where = f"on {board_text}" if board_text else "preflop"
    click.echo(f"{hole_text} {where}{opponent} ({_describe(rate)})")
    click.echo(f"  win     {rate.win:8.3%}")
    click.echo(f"  tie     {rate.tie:8.3%}")
    click.echo(f"  loss    {rate.loss:8.3%}")
    click.echo(f"  v       {rate.v:+8.4f}{spread}")
    click.echo(f"  equity  {rate.equity:8.3%}")


def main(argv=None) -> None:
    run(command, argv, program="gambler-equity")


if __name__ == "__main__":
    main()
