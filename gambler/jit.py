"""numba set-up shared by every kernel in gambler.

Rules every jitted function follows:

1. `cache=True` always, so a process after the first loads machine code instead of compiling.
2. The cache lives in a per-user directory chosen here, at import, when `NUMBA_CACHE_DIR` is
   unset: `<root>/numba/<stamp>` under gambler's cache root (`gambler.caches`: `$GAMBLER_CACHE`,
   else `$XDG_CACHE_HOME/gambler`, else `~/.cache/gambler`), falling back to the system
   temporary directory when that is not writable (a read-only home, a locked-down CI runner).
   numba would otherwise write next to the sources, which fails in a read-only site-packages.
   `gambler-cache` shows its size and clears it.
3. `<stamp>` hashes gambler's version and the size and modification time of every source file of
   the jitted packages. numba's own cache check looks only at the file that defines a function, so
   an edit to a kernel that another module's kernel calls would otherwise load stale code.
4. Lookup tables are passed to kernels as arguments: numba freezes global arrays into the compiled
   code (and refuses to cache large ones).
5. Compile time is mostly numba's per-function work, so helpers that only kernels call use
   `helper` (no Python or C entry point of their own), and a kernel that must be fast for several
   sizes passes each size to one helper as a constant, so LLVM unrolls it.

Import this module (or use its `njit`) before defining any kernel; it configures numba on import.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
from pathlib import Path

import numba
import numba.extending

from gambler import __version__, caches

_JITTED_PACKAGES = ("gambler", "gambler.evaluator", "gambler.protocol", "gambler.bot",
                    "gambler.training", "gambler.games", "gambler.solver")


def _package_folder(package: str) -> Path:
    """Where a package's sources are, without importing it (in a checkout `gambler.bot` is the
    repository's `bot/`; installed, it is `site-packages/gambler/bot/`)."""
    return Path(importlib.util.find_spec(package).submodule_search_locations[0])


def _source_stamp() -> str:
    """A short hash that changes whenever any source file of a jitted package changes."""
    digest = hashlib.sha1(f"{__version__}|{numba.__version__}".encode())
    for package in _JITTED_PACKAGES:
        for path in sorted(_package_folder(package).glob("*.py")):
            stat = path.stat()
            digest.update(f"{package}/{path.name}|{stat.st_size}|{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def choose_cache_dir() -> Path:
    """The directory numba caches gambler's kernels in (created if missing)."""
    stamp = _source_stamp()
    candidates = [caches.root() / "numba" / stamp, caches.numba_fallback_dir() / stamp]
    for directory in candidates:
        if caches.writable(directory):
            return directory
    raise caches.CacheError(f"no writable numba cache directory among {', '.join(map(str, candidates))}")


def _configure() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # the user chose; numba already read it
    numba.config.CACHE_DIR = str(choose_cache_dir())


_configure()

#: `numba.njit` with gambler's defaults: cached, GIL released, no bounds checks, and no C
#: function-pointer wrapper (gambler never passes kernels as first-class functions).
njit = functools.partial(numba.njit, cache=True, nogil=True, no_cfunc_wrapper=True)

#: For helpers that only kernels call: compiled into each calling kernel with no Python entry
#: point of their own (about 0.05 s less compile time each; a cold start compiles a dozen).
#: Called from Python, a helper is the plain Python function, without numba's integer semantics
#: (fixed widths that wrap): only kernels should call helpers.
helper = numba.extending.register_jitable(cache=True, nogil=True)


@numba.extending.intrinsic
def popcount(typing_context, value):
    """The number of set bits of a uint64 (LLVM's `ctpop`: one `popcnt` instruction on x86-64)."""
    signature = numba.types.uint64(numba.types.uint64)

    def codegen(context, builder, signature, arguments):
        return builder.ctpop(arguments[0])

    return signature, codegen
