"""Shipped data: ACPC game definitions (`games/`), parameter profiles (`params/`) and training
configurations (`train/`). `path("games/holdem.nolimit.2p.reverse_blinds.game")` finds one."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent


def path(relative: str) -> Path:
    """Absolute path of a shipped file, given relative to `configs/`."""
    return ROOT / relative
