"""Command-line plumbing shared by every gambler command.

The contract (the README): every command has `--help`, exits 0 on success, and on bad
input exits non-zero with a one-line message on stderr; a traceback only with `--debug`.
`run` gives a click command that behaviour; `debug_option` adds the `--debug` flag.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Sequence
from contextlib import contextmanager
from typing import NoReturn

import click

from gambler.errors import GamblerError

EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

#: Every command's seeds (`--seed`, `gambler-dealer`'s SEED) take one range: the ACPC dealer's
#: 32-bit seeds, which every kernel (63-bit seeds) accepts too.
CLI_MAX_SEED = 2**32 - 1


class SeedType(click.ParamType):
    """A seed: a whole number in 0..CLI_MAX_SEED, with one wording for a bad one everywhere:
    `'-3' is not a seed: seeds are whole numbers from 0 to 4,294,967,295`."""

    name = "seed"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).strip(), 10)
            except ValueError:
                number = None
        if number is None or not 0 <= number <= CLI_MAX_SEED:
            self.fail(f"{str(value)!r} is not a seed: seeds are whole numbers from 0 to "
                      f"{CLI_MAX_SEED:,}", param, ctx)
        return number

    def get_metavar(self, param, ctx=None):
        return "N"


#: The `--seed` option's type in every command (and gambler-dealer's SEED argument).
SEED = SeedType()
SEED_RANGE = SEED  # the older name


def interrupt_on_signals() -> None:
    """Make `kill PID` (SIGTERM), and Ctrl-C where a shell started the command in the background
    with SIGINT ignored (`nohup gambler-train ... &`), stop a long command as Ctrl-C does: the
    best so far is written (and a training run can be resumed)."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def debug_option(function):
    """`--debug`: show tracebacks (`run` reads it from the arguments, the command ignores it);
    and `--version`, which every command has with it."""
    from gambler import __version__

    function = click.version_option(__version__, "--version", message="%(prog)s %(version)s",
                                    help="Show the version and exit.")(function)
    return click.option("--debug", is_flag=True, expose_value=False, is_eager=True,
                        help="Show the traceback of any error.")(function)


def check_output_path(path: str | os.PathLike, option: str) -> None:
    """Refuse, before any work, an output file that cannot be written: its folder is missing or
    not writable, or it is a folder or an unwritable file. Nothing is created."""
    target = os.path.abspath(os.fspath(path))
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        raise click.BadParameter(f"{path} is a folder, not a file", param_hint=option)
    if not os.path.isdir(folder):
        raise click.BadParameter(f"{path}: the folder {folder} does not exist", param_hint=option)
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise click.BadParameter(f"{path} is not writable", param_hint=option)
    if not os.path.exists(target) and not os.access(folder, os.W_OK | os.X_OK):
        raise click.BadParameter(f"{path}: cannot write in the folder {folder}", param_hint=option)


def require_matplotlib(option: str) -> None:
    """Refuse a plot option, before any work, when the `plot` extra is not installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.UsageError(f"{option} needs matplotlib: pip install 'gambler[plot]'") \
            from None


#: Seconds between two progress lines when stderr is not a terminal (a `nohup` run's log).
PROGRESS_LINE_SECONDS = 60.0


class ProgressLines:
    """Progress for a stderr that is not a terminal: a line `label: 25% (10,000 of 40,000),
    2 min 5 s, about 6 min 15 s left` at most once every `every` seconds, so that a run left
    under `nohup` says how far it is without filling its log (a run shorter than `every` prints
    nothing). `update(count)` adds `count` done, as click's bar does; `clock` gives seconds."""

    def __init__(self, label: str, total: int, stream, every: float = PROGRESS_LINE_SECONDS,
                 clock=time.monotonic):
        self.label, self.total, self.stream, self.every, self.clock = (label, total, stream,
                                                                       every, clock)
        self.done = 0
        self.started = clock()
        self.last_line = self.started

    def update(self, count: int) -> None:
        self.done += count
        now = self.clock()
        if now - self.last_line < self.every or self.total <= 0:
            return
        self.last_line = now
        elapsed = now - self.started
        share = min(1.0, self.done / self.total)
        line = (f"{self.label}: {share:.0%} ({self.done:,} of {self.total:,}), "
                f"{_duration(elapsed)}")
        if 0.0 < share < 1.0:
            line += f", about {_duration(elapsed * (1.0 - share) / share)} left"
        print(line, file=self.stream, flush=True)


def _duration(seconds: float) -> str:
    """`1 h 5 min`, `2 min 5 s` or `40 s`."""
    whole = int(round(seconds))
    hours, minutes, rest = whole // 3600, whole // 60 % 60, whole % 60
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


@contextmanager
def progress_bar(label: str, total: int, lines: bool = True):
    """Progress on stderr: yields an `update(count)`. A bar on a terminal; elsewhere (a log
    file, a pipe) a plain line every `PROGRESS_LINE_SECONDS` (`ProgressLines`), or, with
    `lines=False` (a command that writes its own lines there), None."""
    if not sys.stderr.isatty():
        yield ProgressLines(label, total, sys.stderr).update if lines else None
        return
    with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
        yield bar.update


def child_command(module: str) -> list[str]:
    """The command line that runs `python -m module` in a child process, immune to the current
    folder: `-P` keeps the folder off `sys.path`, so a directory named `gambler` there (a clone,
    say) cannot shadow the installed package."""
    return [sys.executable, "-P", "-m", module]


def last_line(text: str | None) -> str:
    """The last non-blank line of a child's stderr (its one-line error), or ''."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _seed_taking(command: click.Command, args: list[str], token: str) -> str | None:
    """The quoted name of the seed that `token` (a negative number, which click reads as an
    unknown option) was given for: `'--seed'` after `--seed`, or a positional SEED argument
    (`gambler-dealer`'s) at its place among the words that are not options; else None."""
    if token not in args:
        return None
    position = args.index(token)
    if position and args[position - 1] == "--seed":
        return "'--seed'"
    words_before = [arg for arg in args[:position] if not arg.startswith("-")]
    arguments = [param for param in command.params if isinstance(param, click.Argument)]
    if len(words_before) < len(arguments):
        argument = arguments[len(words_before)]
        if isinstance(argument.type, SeedType):
            return f"'{argument.human_readable_name}'"
    return None


def fail(program: str, message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    click.echo(f"{program}: error: {message}", err=True)
    sys.exit(code)


def run(command: click.Command, argv: Sequence[str] | None = None,
        program: str | None = None, obj=None) -> NoReturn:
    """Run `command` and exit: one-line errors, tracebacks only with `--debug`. `obj`: the click
    context's object (what a layer above hands the command: `gambler.adaptive.cli`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    program = program or os.path.basename(sys.argv[0]) or command.name or "gambler"
    debug = "--debug" in args
    try:
        result = command.main(args=args, prog_name=program, standalone_mode=False, obj=obj)
    except click.exceptions.Exit as exit_:
        sys.exit(exit_.exit_code)
    except click.Abort:
        fail(program, "interrupted", EXIT_INTERRUPTED)
    except click.NoSuchOption as error:
        if debug:
            raise
        if error.option_name[1:].isdigit():  # click reads "-5" as an option
            seed_name = _seed_taking(command, args, error.option_name)
            if seed_name:
                fail(program, f"Invalid value for {seed_name}: '{error.option_name}' is not a "
                              f"seed: seeds are whole numbers from 0 to {CLI_MAX_SEED:,} (see "
                              "--help)", EXIT_USAGE)
            fail(program, f"{error.option_name}: negative numbers are not accepted here (counts "
                          "and seeds are 0 or more)", error.exit_code)
        fail(program, error.format_message() + " (see --help)", error.exit_code)
    except click.ClickException as error:
        if debug:
            raise
        hint = " (see --help)" if isinstance(error, click.UsageError) else ""
        fail(program, error.format_message() + hint, error.exit_code)
    except GamblerError as error:
        if debug:
            raise
        fail(program, str(error))
    except KeyboardInterrupt:
        if debug:
            raise
        fail(program, "interrupted", EXIT_INTERRUPTED)
    except MemoryError as error:  # a request too big for this machine: --hands, --samples, ...
        if debug:
            raise
        fail(program, f"not enough memory for this request ({error or 'MemoryError'}); ask for "
                      "less: fewer hands, deals or samples")
    except Exception as error:  # a bug: still one line unless asked, but say how to see more
        if debug:
            raise
        fail(program, f"internal error: {type(error).__name__}: {error} "
                      "(run again with --debug for the traceback)")
    sys.exit(result if isinstance(result, int) else 0)
