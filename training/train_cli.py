"""`gambler-train`: declared in the contract; it arrives with issue #5."""

from gambler.cli import not_yet


def main() -> None:
    not_yet("gambler-train", 5)
