"""`gambler HOST PORT`: `bot.cli`'s command with the model member's refresher plugged in
(`live.refresher_for`), so that every profile, portfolios with a model member included, plays."""

from __future__ import annotations

from gambler.bot.cli import command
from gambler.cli import run


def main(argv=None) -> None:
    from gambler.adaptive.live import refresher_for

    run(command, argv, program="gambler", obj={"refresher": refresher_for})


if __name__ == "__main__":
    main()
