"""`gambler-cache`: how much disk gambler's caches take, and clearing them.

    gambler-cache                    # each cache's folder, size and file count, and the total
    gambler-cache --clear            # remove them all (they are rebuilt when next needed)
    gambler-cache --clear deals      # or one: numba, deals, holdings, abstractions
    gambler-cache --json

Where the caches live is `gambler.caches`; this module only prints and asks it to clear.
"""

from __future__ import annotations

import json

import click

from gambler import caches
from gambler.cli import debug_option, run

MB = 1_000_000  # sizes are shown in decimal megabytes, as `du --si` and file managers do


def _table(usages: list[caches.Usage], total_label: str) -> list[str]:
    width = max(len(str(usage.cache.path)) for usage in usages)
    lines = [f"{usage.cache.name:<9} {str(usage.cache.path):<{width}}  "
             f"{usage.bytes / MB:9.1f} MB  {usage.files:7,} files" for usage in usages]
    total_bytes, total_files = sum(u.bytes for u in usages), sum(u.files for u in usages)
    lines.append(f"{total_label:<9} {'':<{width}}  {total_bytes / MB:9.1f} MB  "
                 f"{total_files:7,} files")
    return lines


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--clear", type=click.Choice(["all", *caches.NAMES]), is_flag=False,
              flag_value="all", default=None, metavar="[NAME]",
              help="Remove the caches' files: all of them, or one of numba, deals, holdings, "
                   "abstractions.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@debug_option
def command(clear: str | None, as_json: bool) -> None:
    """Size of gambler's caches (compiled kernels, deal sets, LBR holding tables, card
    abstractions), or --clear.

    The caches live under $GAMBLER_CACHE, else $XDG_CACHE_HOME/gambler, else ~/.cache/gambler;
    $NUMBA_CACHE_DIR and $GAMBLER_DEALS move one of them. Everything in them is rebuilt when
    next needed. Clear while no other gambler command runs. With --clear, the sizes shown are
    what was removed.
    """
    chosen = [cache for cache in caches.caches()
              if clear is None or clear in ("all", cache.name)]
    if clear is None:
        usages = [caches.measure(cache) for cache in chosen]
    else:
        usages = [caches.clear(cache) for cache in chosen]
    if as_json:
        click.echo(json.dumps({
            "root": str(caches.root()),
            "caches": [{"name": u.cache.name, "path": str(u.cache.path), "bytes": u.bytes,
                        "files": u.files} for u in usages],
            "total_bytes": sum(u.bytes for u in usages),
            "cleared": clear is not None}))
        return
    click.echo(f"cache root: {caches.root()}")
    click.echo("\n".join(_table(usages, "total" if clear is None else "removed")))


def main(argv=None) -> None:
    run(command, argv, program="gambler-cache")


if __name__ == "__main__":
    main()
