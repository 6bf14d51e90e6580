"""Where gambler keeps what it computes once and reuses: one root, four caches under it.

    root      $GAMBLER_CACHE, else $XDG_CACHE_HOME/gambler, else ~/.cache/gambler
    numba/    compiled kernels, one folder per source stamp (`gambler.jit`);
              $NUMBA_CACHE_DIR instead when set, or the temp folder when the root is not writable
    deals/    deal sets (`training.deals.cached_deal_set`); $GAMBLER_DEALS instead when set
    holdings/ every holding's win rates per 1,000 deals, for LBR (`training.deals`); beside the
              deals folder, so $GAMBLER_DEALS=/x/deals puts them in /x/holdings
    abstractions/ hold'em card abstractions for the solver and blueprints (`solver.cards`), a
              folder each, named by its settings

Installed blueprints are not a cache: they take hours to build, so they live under a data root
(`data_root()`, `blueprints_dir()`) that `gambler-cache --clear` leaves alone.

Every path is read from the environment when asked for, never cached at import, so a test that
sets a variable sees its effect (numba is the exception: `gambler.jit` picks its folder once, at
import). This module imports neither numba nor numpy: `gambler-cache` answers at once.

A cache here is the files gambler writes into its folder (`Cache.patterns`), temporaries of an
interrupted write included; `measure` counts and `clear` removes those files only, so a folder an
override points at (`$GAMBLER_DEALS=~/data`, say) loses nothing else.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gambler.errors import GamblerError

#: The caches' names, in the order `gambler-cache` lists them.
NAMES = ("numba", "deals", "holdings", "abstractions")


class CacheError(GamblerError, OSError):
    """No cache folder can be written (neither the root nor the temp fallback)."""


def root() -> Path:
    """The folder all four caches live under unless overridden (not created here)."""
    if os.environ.get("GAMBLER_CACHE"):
        return Path(os.environ["GAMBLER_CACHE"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gambler"


def deals_dir() -> Path:
    """Deal sets: `$GAMBLER_DEALS`, else `root()/deals`."""
    if os.environ.get("GAMBLER_DEALS"):
        return Path(os.environ["GAMBLER_DEALS"]).expanduser()
    return root() / "deals"


def holdings_dir() -> Path:
    """Holding win-rate tables: beside the deals folder (`root()/holdings` by default)."""
    return deals_dir().parent / "holdings"


def abstractions_dir() -> Path:
    """Card abstractions (`solver.cards`): `root()/abstractions`."""
    return root() / "abstractions"


def data_root() -> Path:
    """Where gambler keeps what takes hours to build and is not a cache (`gambler-cache --clear`
    never touches it): $GAMBLER_DATA, else $XDG_DATA_HOME/gambler, else ~/.local/share/gambler."""
    if os.environ.get("GAMBLER_DATA"):
        return Path(os.environ["GAMBLER_DATA"]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "gambler"


def blueprints_dir() -> Path:
    """Installed blueprints (`gambler-solve --install NAME`): `data_root()/blueprints`, a folder
    each, found by name (`gambler NAME`, `bot.blueprint.installed_blueprint`)."""
    return data_root() / "blueprints"


def numba_fallback_dir() -> Path:
    """Where numba's kernels go when the root is not writable (a read-only home, a locked-down
    CI runner): a per-user folder in the system temp folder."""
    return Path(tempfile.gettempdir()) / f"gambler-numba-{os.getuid()}"


def writable(directory: Path) -> bool:
    """Whether files can be written in `directory`, creating it if missing (a probe file is
    written and removed: permission bits do not tell about read-only mounts or ACLs)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tempfile.NamedTemporaryFile(dir=directory, prefix=".probe-", delete=True).close()
        return True
    except OSError:
        return False


def _could_create(directory: Path) -> bool:
    """Whether `directory` is, or could be made, a writable folder; nothing is created."""
    for folder in (directory, *directory.parents):
        if folder.exists():
            return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)
    return False


def numba_dir(create: bool = False) -> Path:
    """The folder holding gambler's numba kernels (every source stamp's subfolder):
    `$NUMBA_CACHE_DIR` if set (numba then uses it as is, without a stamp), else `root()/numba`,
    else, when that cannot be written, `numba_fallback_dir()`. With `create`, the chosen folder
    is created and the root's usability is probed by writing; without, nothing is created."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]).expanduser()
    preferred = root() / "numba"
    usable = writable(preferred) if create else _could_create(preferred)
    return preferred if usable else numba_fallback_dir()


@dataclass(frozen=True)
class Cache:
    name: str  # one of NAMES
    path: Path  # the folder in use, overrides applied
    patterns: tuple[str, ...]  # the files gambler writes there (recursive globs)


@dataclass(frozen=True)
class Usage:
    cache: Cache
    bytes: int  # total size of the cache's files, in bytes
    files: int  # how many files


def caches() -> list[Cache]:
    """The caches as the current environment places them, in `NAMES` order."""
    return [
        # numba's index and data files, and the temporaries of its atomic writes (".tmp.<uuid>")
        Cache("numba", numba_dir(), ("*.nbi", "*.nbc", "*.tmp.*")),
        Cache("deals", deals_dir(), ("*.npz",)),  # temporaries end in .tmp.npz
        Cache("holdings", holdings_dir(), ("*.npy",)),  # temporaries end in .tmp.npy
        Cache("abstractions", abstractions_dir(), ("*.npy", "spec.json")),
    ]


def _files(cache: Cache) -> list[Path]:
    if not cache.path.is_dir():
        return []
    found = {path for pattern in cache.patterns for path in cache.path.rglob(pattern)}
    return sorted(path for path in found if path.is_file() and not path.is_symlink())


def measure(cache: Cache) -> Usage:
    """The size and file count of a cache (0, 0 when its folder does not exist)."""
    sizes = []
    for path in _files(cache):
        try:
            sizes.append(path.stat().st_size)
        except FileNotFoundError:  # removed meanwhile by another process
            pass
    return Usage(cache, sum(sizes), len(sizes))


def clear(cache: Cache) -> Usage:
    """Remove a cache's files, then the subfolders left empty (numba's stale stamps); the cache's
    own folder stays. Returns what was removed. Run it while no gambler command is working: a
    running process may still want to write where the files were."""
    removed_bytes = removed_files = 0
    for path in _files(cache):
        try:
            size = path.stat().st_size
            path.unlink()
        except FileNotFoundError:
            continue
        removed_bytes += size
        removed_files += 1
    if cache.path.is_dir():
        # deepest first, so a folder whose subfolders were all empty goes too
        for folder in sorted((p for p in cache.path.rglob("*") if p.is_dir()),
                             key=lambda p: len(p.parts), reverse=True):
            try:
                folder.rmdir()
            except OSError:  # not empty: something else lives there
                pass
    return Usage(cache, removed_bytes, removed_files)
