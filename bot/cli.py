"""`gambler HOST PORT`: declared in the contract; it arrives with issue #4."""

from gambler.cli import not_yet


def main() -> None:
    not_yet("gambler", 4)
