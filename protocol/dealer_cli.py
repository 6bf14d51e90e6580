"""`gambler-dealer`: declared in the contract; it arrives with issue #3."""

from gambler.cli import not_yet


def main() -> None:
    not_yet("gambler-dealer", 3)
