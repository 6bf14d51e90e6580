"""`python -m gambler`: the list of gambler's commands, one line each.

The names are the console scripts gambler installs (pyproject.toml's `[project.scripts]`, read from
the installed package's metadata, or from pyproject.toml itself in an uninstalled checkout); each
description is the first paragraph of that command's own `--help`, so the list cannot drift from
the commands. No command module imports numba, so listing them is quick.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import tomllib
from pathlib import Path

import click

from gambler import __version__
from gambler.cli import debug_option, run

DESCRIPTION_WIDTH = 100  # characters of a description before it is cut with "…"


def console_scripts() -> dict[str, str]:
    """Every gambler command's name and its `module:function` target, sorted by name."""
    try:
        scripts = {point.name: point.value
                   for point in importlib.metadata.distribution("gambler").entry_points
                   if point.group == "console_scripts"}
    except importlib.metadata.PackageNotFoundError:
        scripts = {}
    if not scripts:  # a checkout on sys.path but not installed
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        with open(pyproject, "rb") as file:
            scripts = tomllib.load(file)["project"]["scripts"]
    return dict(sorted(scripts.items()))


def describe(target: str) -> str:
    """One line about a command: the first paragraph of its help, cut at a word to fit."""
    module = importlib.import_module(target.split(":")[0])
    command = getattr(module, "command", None)
    text = (command.help if command is not None else None) or module.__doc__ or ""
    line = " ".join(inspect.cleandoc(text).split("\n\n")[0].split())
    if len(line) > DESCRIPTION_WIDTH:
        line = line[:DESCRIPTION_WIDTH - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return line


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@debug_option
def command() -> None:
    """List gambler's commands with one line about each (each has its own --help)."""
    scripts = console_scripts()
    width = max(map(len, scripts))
    click.echo(f"gambler {__version__}: the commands (each has --help)")
    for name, target in scripts.items():
        click.echo(f"  {name:<{width}}  {describe(target)}")


def main(argv=None) -> None:
    run(command, argv, program="python -m gambler")


if __name__ == "__main__":
    main()
