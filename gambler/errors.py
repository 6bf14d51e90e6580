"""The root of every error gambler raises on bad input.

Each layer has one exception type of its own (`evaluator.CardError`, `protocol.ProtocolError`,
...), all derived from `GamblerError`, so that a command-line front end can turn any of them into
a one-line message and a non-zero exit while a genuine bug still shows its traceback.
"""

from __future__ import annotations

from pathlib import Path


class GamblerError(Exception):
    """Bad input: a card, a file, a protocol line or an option that cannot be used as given."""


def shipped_names(folder: Path) -> list[str]:
    """The names of the YAML files shipped in `folder` (`configs/params/`...), sorted."""
    return sorted(path.stem for path in folder.glob("*.yaml"))


def find_file(name: str | Path, folder: Path, error: type[GamblerError], kind: str) -> Path:
    """A file by path, or by the name of one shipped in `folder` (`seed`, `seed.yaml`); else
    `error`: "no profile file 'x' (shipped profiles: default, seed, ...)" for kind `profile`."""
    path = Path(name)
    if path.is_file():
        return path
    if path.parent == Path(".") and path.suffix in ("", ".yaml"):
        shipped = folder / f"{path.stem}.yaml"
        if shipped.is_file():
            return shipped
    raise error(f"no {kind} file {str(name)!r} (shipped {kind}s: "
                f"{', '.join(shipped_names(folder))})")


def read_text(path: Path, error: type[GamblerError]) -> str:
    """The text of `path`; a file that cannot be read raises `error`, naming the file."""
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError) as reason:
        raise error(f"cannot read {path}: {reason}") from None
