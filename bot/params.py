"""Parameter profiles: the 44 numbers that make one bot, loaded from YAML and validated.

Per betting round (preflop, flop, turn, river):

    thresholds: [x, y, z]        win-rate thresholds on v, ascending: the four modes
    call:  [a0, a1, a2, a3]      p(v) = a0 + a1 v + a2 v^2 + a3 v^3, the call ceiling (chips)
    raise: [b0, b1, b2, b3]      q(v) = b0 + b1 v + b2 v^2 + b3 v^3, the raise target (chips)

Chip levels are hand totals, the unit of `r<N>`. Optional metadata at the top level: `name`,
`description`, `provenance` (text) and `training` (a mapping, free-form: seed, config, scores).
Anything else, a missing round, a wrong count, a non-number or descending thresholds is an error
naming the file and the field (`seed.yaml: flop.thresholds: ...`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from gambler.errors import GamblerError, read_text

ROUNDS = ("preflop", "flop", "turn", "river")
SHIPPED_PROFILES = Path(__file__).resolve().parent.parent / "configs" / "params"
_ROUND_KEYS = ("thresholds", "call", "raise")
_METADATA_TEXT = ("name", "description", "provenance")
_METADATA_MAP = ("training",)


class ProfileError(GamblerError, ValueError):
    """A parameter profile that cannot be used: the message names the file and field."""


@dataclass(frozen=True)
class RoundParams:
    """The 11 parameters of one betting round."""

    thresholds: tuple[float, float, float]       # x <= y <= z: give up | wait | raise | bet
    call: tuple[float, float, float, float]      # coefficients of p(v), the call ceiling
    raise_: tuple[float, float, float, float]    # coefficients of q(v), the raise target

    def call_limit(self, v: float) -> int:
        """U = p(v), truncated toward zero like the seed bot's (int) cast."""
        return _cubic_to_chips(self.call, v)

    def raise_target(self, v: float) -> int:
        """T = q(v), truncated toward zero."""
        return _cubic_to_chips(self.raise_, v)

    def as_vector(self) -> tuple[float, ...]:
        return (*self.thresholds, *self.call, *self.raise_)


def _cubic_to_chips(coefficients, v: float) -> int:
    a0, a1, a2, a3 = coefficients
    value = a0 + a1 * v + a2 * v * v + a3 * v * v * v
    return int(value)  # int() truncates toward zero, as C's (int) does


@dataclass(frozen=True)
class Profile:
    """A whole bot: `rounds[r]` for r = 0 (preflop) .. 3 (river), and metadata."""

    rounds: tuple[RoundParams, RoundParams, RoundParams, RoundParams]
    name: str = ""
    description: str = ""
    provenance: str = ""
    training: dict = field(default_factory=dict, compare=False, hash=False)

    def as_vector(self) -> tuple[float, ...]:
        """The 44 numbers in file order: per round x y z, a0..a3, b0..b3."""
        return tuple(value for round_params in self.rounds for value in round_params.as_vector())

    @classmethod
    def from_vector(cls, values, **metadata) -> Profile:
        values = [float(value) for value in values]
        if len(values) != 44:
            raise ProfileError(f"a profile has 44 numbers, not {len(values)}")
        rounds = tuple(RoundParams(tuple(values[11 * r:11 * r + 3]),
                                   tuple(values[11 * r + 3:11 * r + 7]),
                                   tuple(values[11 * r + 7:11 * r + 11])) for r in range(4))
        profile = cls(rounds, **metadata)
        for r, round_params in enumerate(profile.rounds):
            _check_thresholds(round_params.thresholds, f"{ROUNDS[r]}.thresholds", "<vector>")
        return profile

    def to_yaml(self) -> str:
        document: dict = {}
        for key in _METADATA_TEXT:
            if getattr(self, key):
                document[key] = getattr(self, key)
        if self.training:
            document["training"] = self.training
        for name, round_params in zip(ROUNDS, self.rounds):
            document[name] = {"thresholds": list(round_params.thresholds),
                              "call": list(round_params.call),
                              "raise": list(round_params.raise_)}
        return yaml.safe_dump(document, sort_keys=False, default_flow_style=None, width=100)


class _StrictLoader(yaml.SafeLoader):
    """YAML without silently repeated keys."""


def _construct_mapping(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} appears twice", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _numbers(value, count: int, field_name: str, source: str) -> tuple[float, ...]:
    if not isinstance(value, list):
        raise ProfileError(f"{source}: {field_name}: expected a list of {count} numbers, "
                           f"found {type(value).__name__}")
    if len(value) != count:
        raise ProfileError(f"{source}: {field_name}: expected {count} numbers, found {len(value)}")
    numbers = []
    for index, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            raise ProfileError(f"{source}: {field_name}[{index}]: {item!r} is not a number")
        if not math.isfinite(item):
            raise ProfileError(f"{source}: {field_name}[{index}]: {item!r} is not finite")
        numbers.append(float(item))
    return tuple(numbers)


def _check_thresholds(thresholds, field_name: str, source: str) -> None:
    x, y, z = thresholds
    if not x <= y <= z:
        raise ProfileError(f"{source}: {field_name}: {list(thresholds)} must be ascending "
                           "(x <= y <= z)")


def parse_profile(text: str, source: str = "<profile>") -> Profile:
    """A profile from YAML text; `source` names it in error messages."""
    try:
        document = yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        raise ProfileError(f"{source}{where}: not valid YAML: {problem}") from None
    if not isinstance(document, dict):
        raise ProfileError(f"{source}: expected a mapping with keys {', '.join(ROUNDS)}")
    unknown = [key for key in document
               if key not in ROUNDS and key not in _METADATA_TEXT + _METADATA_MAP]
    if unknown:
        raise ProfileError(f"{source}: unknown key {unknown[0]!r} (expected {', '.join(ROUNDS)} "
                           f"and optional {', '.join(_METADATA_TEXT + _METADATA_MAP)})")
    rounds = []
    for name in ROUNDS:
        if name not in document:
            raise ProfileError(f"{source}: round {name!r} is missing")
        section = document[name]
        if not isinstance(section, dict):
            raise ProfileError(f"{source}: {name}: expected a mapping with keys "
                               f"{', '.join(_ROUND_KEYS)}")
        for key in section:
            if key not in _ROUND_KEYS:
                raise ProfileError(f"{source}: {name}: unknown key {key!r} "
                                   f"(expected {', '.join(_ROUND_KEYS)})")
        for key in _ROUND_KEYS:
            if key not in section:
                raise ProfileError(f"{source}: {name}.{key} is missing")
        thresholds = _numbers(section["thresholds"], 3, f"{name}.thresholds", source)
        _check_thresholds(thresholds, f"{name}.thresholds", source)
        rounds.append(RoundParams(thresholds,
                                  _numbers(section["call"], 4, f"{name}.call", source),
                                  _numbers(section["raise"], 4, f"{name}.raise", source)))
    metadata = {}
    for key in _METADATA_TEXT:
        if key in document:
            if not isinstance(document[key], str):
                raise ProfileError(f"{source}: {key}: expected text")
            metadata[key] = document[key]
    if "training" in document:
        if not isinstance(document["training"], dict):
            raise ProfileError(f"{source}: training: expected a mapping")
        metadata["training"] = document["training"]
    return Profile(tuple(rounds), **metadata)


def shipped_profile_names() -> list[str]:
    return sorted(path.stem for path in SHIPPED_PROFILES.glob("*.yaml"))


def find_profile_file(name: str | Path) -> Path:
    """A profile by path, or by the name of a shipped one (`seed`, `handmade`, `default`)."""
    path = Path(name)
    if path.is_file():
        return path
    if path.parent == Path(".") and path.suffix in ("", ".yaml"):
        shipped = SHIPPED_PROFILES / f"{path.stem}.yaml"
        if shipped.is_file():
            return shipped
    raise ProfileError(f"no profile file {str(name)!r} (shipped profiles: "
                       f"{', '.join(shipped_profile_names())})")


def load_profile(name: str | Path = "default") -> Profile:
    """Read a profile from a path or a shipped name."""
    path = find_profile_file(name)
    text = read_text(path, ProfileError)
    return parse_profile(text, source=str(name))


def save_profile(profile: Profile, path: str | Path) -> None:
    """Write a profile atomically (a temporary file renamed over the target)."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(profile.to_yaml())
    temporary.replace(target)
