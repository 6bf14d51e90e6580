"""Write an arm of the member `default-static` with some postflop keys changed.

Usage: python experiments/chart-edges/variant.py NAME ROUNDS KEY=VALUE... [--description TEXT]
           [--out DIR] [--session N]
    ROUNDS: f, t, r letters (e.g. ftr); VALUE a number (an integer stays one), numbers with
    commas between for a list (range_bet=0.3,0.75), or `none` to drop the key. The arm is
    written to DIR/NAME.yaml (default: this folder); its provenance names the command and the
    session N that made it (default 27, this script's first).

The rest of configs/params/default-static.yaml is kept as it is.
"""

import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
MEMBER = HERE.parent.parent / "configs" / "params" / "default-static.yaml"
ROUND_NAMES = {"f": "flop", "t": "turn", "r": "river"}


def number(text: str):
    """An int for an integer literal, else a float."""
    return int(text) if text.lstrip("-").isdigit() else float(text)


def value_of(text: str):
    """A key's value as written on the command line (module docstring)."""
    if "," in text:
        return [number(word) for word in text.split(",")]
    return number(text)


def take_option(argv: list[str], option: str, default):
    """(the value after `option` in argv, or `default`; argv without the two)."""
    if option not in argv:
        return default, argv
    at = argv.index(option)
    return argv[at + 1], argv[:at] + argv[at + 2:]


def main(argv):
    description, argv = take_option(argv, "--description", None)
    out, argv = take_option(argv, "--out", None)
    session, argv = take_option(argv, "--session", "27")
    command = " ".join(argv + (["--out", out] if out else []))
    name, rounds, *changes = argv
    document = yaml.safe_load(MEMBER.read_text())
    document["name"] = name
    document["description"] = description or f"default-static with {' '.join(changes)} on {rounds}"
    document["provenance"] = ("configs/params/default-static.yaml (session 26), changed by "
                              f"python experiments/chart-edges/variant.py {command} "
                              f"(session {session}).")
    for letter in rounds:
        for change in changes:
            key, value = change.split("=")
            if value == "none":
                document[ROUND_NAMES[letter]].pop(key, None)
            else:
                document[ROUND_NAMES[letter]][key] = value_of(value)
    path = Path(out or HERE) / f"{name}.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False, width=100))
    print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
