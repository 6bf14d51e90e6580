"""`gambler-games`: declared in the contract; it arrives with issue #6."""

from gambler.cli import not_yet


def main() -> None:
    not_yet("gambler-games", 6)
