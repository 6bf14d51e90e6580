"""A switching opponent: one strategy until a hand number, another after it.

What an adaptive bot must survive: an opponent that changes its play in the middle of a match.

    kind: switch
    name: seed-then-call
    first: seed         # any strategy name or path but a portfolio or another switch
    then: call
    at: 1500            # hand number (from 0) from which `then` plays

Usable wherever an opponent is named over TCP (`gambler --params FILE`), and in the fast engine
against a portfolio (`gambler-match adaptive FILE`: the match is played in two parts, the
portfolio's estimates carried across).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gambler.bot.params import ProfileError, file_kind, find_profile_file, kind_document
from gambler.errors import read_text
from gambler.protocol.betting import Action
from gambler.protocol.matchstate import MatchState

_KEYS = ("kind", "name", "description", "provenance", "first", "then", "at")


@dataclass(frozen=True)
class Switch:
    """`first` (resolved) before hand `at`, `then` from it; the names as written."""

    first: object
    then: object
    at: int
    names: tuple[str, str]
    name: str = ""
    description: str = ""
    provenance: str = ""


def load_switch(name: str | Path) -> Switch:
    path = find_profile_file(name)
    return parse_switch(read_text(path, ProfileError), source=str(name))


def parse_switch(text: str, source: str = "<switch>") -> Switch:
    """A switch file; `ProfileError` naming the file and field for anything wrong."""
    from gambler.bot.strategies import resolve_strategy

    document = kind_document(text, source, "switch", _KEYS)
    resolved, names = [], []
    for key in ("first", "then"):
        spec = document.get(key)
        if not isinstance(spec, str):
            raise ProfileError(f"{source}: {key}: a strategy's name or path expected")
        if file_kind(spec) in ("portfolio", "switch"):
            raise ProfileError(f"{source}: {key} ({spec}): a single strategy expected, not a "
                               "portfolio or a switch")
        try:
            resolved.append(resolve_strategy(spec))
        except ProfileError as error:
            raise ProfileError(f"{source}: {key} ({spec}): {error}") from None
        names.append(spec)
    at = document.get("at")
    if isinstance(at, bool) or not isinstance(at, int) or at < 0:
        raise ProfileError(f"{source}: at: a hand number (an integer >= 0) expected, got {at!r}")
    text_fields = {key: str(document.get(key, "")) for key in ("name", "description",
                                                                 "provenance")}
    return Switch(resolved[0], resolved[1], at, tuple(names), **text_fields)


class SwitchStrategy:
    """Plays `first` before hand `at`, then `then` (strategy objects)."""

    def __init__(self, switch: Switch, first, then):
        self.switch = switch
        self.name = switch.name or f"{switch.names[0]}-then-{switch.names[1]}"
        self.strategies = (first, then)

    def current(self, state: MatchState):
        return self.strategies[state.hand >= self.switch.at]

    def act(self, state: MatchState) -> Action:
        return self.current(state).act(state)

    def act_and_explain(self, state: MatchState):
        from gambler.bot.strategies import act_and_explain
        return act_and_explain(self.current(state), state)
