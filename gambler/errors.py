"""The root of every error gambler raises on bad input.

Each layer has one exception type of its own (`evaluator.CardError`, `protocol.ProtocolError`,
...), all derived from `GamblerError`, so that a command-line front end can turn any of them into
a one-line message and a non-zero exit while a genuine bug still shows its traceback.
"""

from __future__ import annotations

from pathlib import Path


class GamblerError(Exception):
    """Bad input: a card, a file, a protocol line or an option that cannot be used as given."""


def read_text(path: Path, error: type[GamblerError]) -> str:
    """The text of `path`; a file that cannot be read raises `error`, naming the file."""
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError) as reason:
        raise error(f"cannot read {path}: {reason}") from None
