"""Training configuration: YAML in `configs/train/`, every key optional, validated with messages
that name the file and key. `configs/train/default.yaml` lists every key with its default."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

from gambler.errors import GamblerError

SHIPPED_CONFIGS = Path(__file__).resolve().parent.parent / "configs" / "train"


class ConfigError(GamblerError, ValueError):
    """A training configuration that cannot be used."""


def _default_opponents() -> dict[str, float]:
    return {"seed": 1.0, "default-v1": 1.0, "call": 0.5, "raise": 0.5, "allin": 0.5,
            "random": 0.5, "catcher": 1.0, "shover": 1.0, "sizer": 1.0, "best": 1.0,
            "hall": 1.0}


def _default_held_out() -> dict[str, float]:
    return {"handmade": 1.0, "prober": 1.0}


def _default_lbr() -> dict:
    """The `lbr` section's defaults; `held_out` (default none) is kept only when it lists a
    setting, so a config without one is the dictionary it always was."""
    return {"weight": 0.5, "actions": "C,C,FCPA,FCPA", "hands": 4000, "deal_seed": 3000,
            "report_hands": 20000}


def _default_exploit() -> dict:
    return {"every": 0, "generations": 40, "deals": 8000, "seed": 5000, "weight": 1.0,
            "keep": 0}


def default_proposal() -> dict[str, float]:
    """The default training proposal: a step's standard deviation for each kind of number."""
    return {"threshold": 0.05, "c0": 300.0, "c1": 1500.0, "c2": 2000.0, "c3": 2500.0,
            "p0": 0.3, "p1": 1.0, "p2": 1.5, "p3": 2.0, "margin": 0.03, "probability": 0.1,
            "size": 0.3, "slope": 0.3, "defence": 0.2}


@dataclass(frozen=True)
class TrainConfig:
    start: str = "v2-start"              # profile to start from (path or shipped name)
    deals: int = 20_000                  # deals per comparison (2 hands each, per opponent)
    deal_seed: int = 1000                # the training deals are deals 0..deals-1 of this seed
    fresh_deals: int = 20_000            # deals per re-scoring of an accepted profile
    fresh_sets: int = 4                  # fresh deal sets used in turn (seeds deal_seed + 1 ...)
    opponents: dict[str, float] = field(default_factory=_default_opponents)
    normalize: bool = True               # weigh each opponent in units of its own spread
    hall_of_fame: int = 4                # earlier bests that the pool's "hall" stands for
    held_out: dict[str, float] = field(default_factory=_default_held_out)  # re-scoring too
    restart_after: int = 40              # steps without a new best before current = best
    sweeps: int = 3                      # passes over the tunable numbers, river to preflop
    steps_per_parameter: int = 5         # annealing steps on a parameter per pass
    temperature_start: float = 30.0      # mbb/hand
    temperature_end: float = 1.0         # mbb/hand; geometric cooling in between
    proposal: dict[str, float] = field(default_factory=default_proposal)
    lbr: dict = field(default_factory=_default_lbr)  # local best response in the objective
    exploit: dict = field(default_factory=_default_exploit)  # exploiter searches (every 0: off)
    tune: list[str] = field(default_factory=lambda: ["*"])  # which tunable numbers move (globs)

    def as_dict(self) -> dict:
        return asdict(self)


_INTEGERS = {"deals": 2, "deal_seed": 0, "fresh_deals": 2, "fresh_sets": 1, "sweeps": 1,
             "steps_per_parameter": 1, "hall_of_fame": 0, "restart_after": 0}
_PROPOSAL_KINDS = ("threshold", "c0", "c1", "c2", "c3", "p0", "p1", "p2", "p3", "margin",
                   "probability", "size", "slope", "defence")
_LBR_KEYS = ("weight", "actions", "hands", "deal_seed", "report_hands", "held_out")
#: `exploit`'s integer keys and their least values (`weight` is a number >= 0).
_EXPLOIT_INTEGERS = {"every": 0, "generations": 1, "deals": 2, "seed": 0, "keep": 0}
_EXPLOIT_KEYS = ("every", "generations", "deals", "seed", "weight", "keep")
#: Every top-level key, in default.yaml's order (`temperature` stands for temperature_start/end).
_TOP_KEYS = ("start", "deals", "deal_seed", "fresh_deals", "fresh_sets", "opponents", "normalize",
             "hall_of_fame", "held_out", "restart_after", "sweeps", "steps_per_parameter",
             "temperature", "proposal", "lbr", "exploit", "tune")


def _known_keys(section: dict, known, name: str, source: str, noun: str = "key") -> None:
    """Refuse a key of the mapping `name` that is not in `known`, naming it and the known ones.

    An unquoted `actions: C,C,FCPA,FCPA` inside a YAML flow mapping (`lbr: {...}`) splits at the
    commas into `actions: C` and keys `C`, `FCPA` with no value: that case gets a hint."""
    for key in section:
        if key in known:
            continue
        hint = isinstance(key, str) and section[key] is None and key \
            and set(key.upper()) <= set("FCMQHTPODXA")  # LBR's letters
        message = f"{source}: {name}: unknown {noun} {key!r} (known: {', '.join(known)})"
        if hint:
            message += '; quote actions that contain commas: actions: "C,C,FCPA,FCPA"'
        raise ConfigError(message)


def parse_config(document, source: str = "<config>") -> TrainConfig:
    """A `TrainConfig` from a parsed YAML document (a mapping, possibly empty)."""
    if document is None:
        document = {}
    if not isinstance(document, dict):
        raise ConfigError(f"{source}: expected a mapping of settings")
    for key in document:
        if not isinstance(key, str):
            raise ConfigError(f"{source}: unknown key {key!r} (known: {', '.join(_TOP_KEYS)})")
    values: dict = {}
    for key, value in document.items():
        if key == "temperature":
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: temperature: expected a mapping with start and end")
            _known_keys(value, ("start", "end"), "temperature", source)
            for end in ("start", "end"):
                if end in value:
                    values[f"temperature_{end}"] = _positive(value[end], f"temperature.{end}",
                                                             source)
        elif key == "proposal":
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: proposal: expected a mapping by kind")
            merged = default_proposal()
            _known_keys(value, _PROPOSAL_KINDS, "proposal", source, noun="kind")
            for kind, scale in value.items():
                merged[kind] = _positive(scale, f"proposal.{kind}", source)
            values["proposal"] = merged
        elif key == "lbr":
            values["lbr"] = _parse_lbr(value, source)
        elif key == "exploit":
            values["exploit"] = _parse_exploit(value, source)
        elif key == "tune":
            values["tune"] = _parse_tune(value, source)
        elif key in ("opponents", "held_out"):
            values[key] = _weights(value, key, source, allow_empty=key == "held_out")
        elif key == "normalize":
            if not isinstance(value, bool):
                raise ConfigError(f"{source}: normalize: expected true or false")
            values[key] = value
        elif key == "start":
            if not isinstance(value, str):
                raise ConfigError(f"{source}: start: expected a profile name or path")
            values["start"] = value
        elif key in _INTEGERS:
            if isinstance(value, bool) or not isinstance(value, int) or value < _INTEGERS[key]:
                raise ConfigError(f"{source}: {key}: {value!r} must be an integer >= "
                                  f"{_INTEGERS[key]}")
            values[key] = value
        else:
            raise ConfigError(f"{source}: unknown key {key!r} (known: {', '.join(_TOP_KEYS)})")
    config = TrainConfig(**values)
    if config.temperature_end > config.temperature_start:
        raise ConfigError(f"{source}: temperature.end must not exceed temperature.start")
    if config.lbr.get("held_out") and config.lbr["weight"] <= 0:
        raise ConfigError(f"{source}: lbr.held_out: needs lbr.weight > 0 (the held-out settings "
                          "join LBR's term in the re-scoring of a new best, weighed by it)")
    if config.exploit["every"] > 0:
        _check_exploit_seed(config, source)
    return config


def _parse_tune(value, source: str) -> list[str]:
    """`tune`: one pattern or a list of them over the start profile's tunable labels
    (`river.defend[0]`, `flop.call[2]`, ...: `bot.params.Profile.tunable`; `*` stands for any
    text, `?` for one character, brackets are literal): only the numbers some pattern matches
    are moved. That each pattern matches a label is checked against the start profile
    (`training.anneal.tuned_positions`)."""
    patterns = [value] if isinstance(value, str) else value
    if not isinstance(patterns, list) or not patterns \
            or not all(isinstance(pattern, str) and pattern for pattern in patterns):
        raise ConfigError(f"{source}: tune: expected a pattern or a list of patterns of "
                          "parameter labels, such as ['*.defend*', 'river.call*']")
    return list(patterns)


def _check_exploit_seed(config: TrainConfig, source: str) -> None:
    """Search n reads deal seed `exploit.seed` + n, and no other part of the run may read
    those deals: the seed must lie above every other deal seed of the run (the training, fresh
    and validation deals, and LBR's, if LBR is played)."""
    from gambler.training.anneal import REPORT_OFFSET, VALIDATION_OFFSET

    others = {"deal_seed + fresh_sets (the last fresh deals)":
              config.deal_seed + config.fresh_sets,
              f"deal_seed + {VALIDATION_OFFSET} (the validation deals)":
              config.deal_seed + VALIDATION_OFFSET}
    if config.lbr["weight"] > 0 or config.lbr["report_hands"] > 0:
        lbr_seed = config.lbr["deal_seed"]
        others.update({"lbr.deal_seed + fresh_sets (LBR's last fresh deals)":
                       lbr_seed + config.fresh_sets,
                       f"lbr.deal_seed + {REPORT_OFFSET} (LBR's report deals)":
                       lbr_seed + REPORT_OFFSET})
    what, highest = max(others.items(), key=lambda item: item[1])
    seed = config.exploit["seed"]
    if seed <= highest:
        raise ConfigError(f"{source}: exploit.seed: {seed} must be above every other deal seed "
                          f"of the run (search n reads seed {seed} + n), but {what} is "
                          f"{highest}")


def _weights(value, key: str, source: str, allow_empty: bool = False) -> dict[str, float]:
    """A mapping of opponent names to weights >= 0, not all zero (unless `allow_empty` and
    empty); every name must be something `resolve_strategy` knows, or best / hall."""
    from gambler.bot.params import ProfileError
    from gambler.bot.strategies import resolve_strategy

    if not isinstance(value, dict) or (not value and not allow_empty):
        raise ConfigError(f"{source}: {key}: expected a mapping of names to weights")
    weights = {}
    for name, weight in value.items():
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) \
                or not math.isfinite(weight) or weight < 0:
            raise ConfigError(f"{source}: {key}.{name}: weight {weight!r} must be a "
                              "number >= 0")
        name = str(name)
        if name not in ("best", "hall"):
            try:
                resolve_strategy(name)
            except ProfileError as error:
                raise ConfigError(f"{source}: {key}.{name}: {error}") from None
        weights[name] = float(weight)
    if weights and sum(weights.values()) <= 0:
        raise ConfigError(f"{source}: {key}: the weights sum to zero")
    return weights


def _parse_lbr(value, source: str) -> dict:
    """The `lbr` section: every key optional (`_default_lbr`)."""
    if not isinstance(value, dict):
        raise ConfigError(f"{source}: lbr: expected a mapping (weight, actions, hands, deal_seed, "
                          "report_hands, held_out)")
    merged = _default_lbr()
    # first: a stray key explains a bad value
    _known_keys(value, _LBR_KEYS, "lbr", source)
    for key, item in value.items():
        if key == "held_out":
            continue  # after actions, which it must not repeat
        if key == "weight":
            merged[key] = _weight_field(item, "lbr.weight", source)
        elif key == "actions":
            merged[key] = _lbr_actions(item, source)
        elif key in ("hands", "deal_seed", "report_hands"):
            merged[key] = _integer_field(item, 2 if key == "hands" else 0, f"lbr.{key}", source)
    held_out = _lbr_held_out(value.get("held_out", []), merged["actions"], source)
    if held_out:  # none given (or an empty list): the section as it always was
        merged["held_out"] = held_out
    return merged


def _parse_exploit(value, source: str) -> dict:
    """The `exploit` section: every key optional (`_default_exploit`; `every: 0`, off)."""
    if not isinstance(value, dict):
        raise ConfigError(f"{source}: exploit: expected a mapping ({', '.join(_EXPLOIT_KEYS)})")
    merged = _default_exploit()
    _known_keys(value, _EXPLOIT_KEYS, "exploit", source)
    for key, item in value.items():
        if key == "weight":
            merged[key] = _weight_field(item, "exploit.weight", source)
        else:
            merged[key] = _integer_field(item, _EXPLOIT_INTEGERS[key], f"exploit.{key}", source)
    return merged


def _weight_field(item, name: str, source: str) -> float:
    """A section's weight (`lbr.weight`, `exploit.weight`): a finite number >= 0."""
    if isinstance(item, bool) or not isinstance(item, (int, float)) \
            or not math.isfinite(item) or item < 0:
        raise ConfigError(f"{source}: {name}: {item!r} must be a number >= 0")
    return float(item)


def _integer_field(item, least: int, name: str, source: str) -> int:
    """A section's count or seed (`lbr.hands`, `exploit.every`...): an integer >= `least`."""
    if isinstance(item, bool) or not isinstance(item, int) or item < least:
        raise ConfigError(f"{source}: {name}: {item!r} must be an integer >= {least}")
    return item


def _lbr_held_out(item, actions, source: str) -> list[str]:
    """`lbr.held_out`: a list (possibly empty) of LBR settings that only the re-scoring of a new
    best plays (with the objective's), never the objective: each a string of action sets like
    `lbr.actions`', distinct from each other and from every setting of `lbr.actions` (one
    string is one setting)."""
    from gambler.training.lbr import parse_action_sets

    if isinstance(item, str):
        item = [item]
    if not isinstance(item, list):
        raise ConfigError(f"{source}: lbr.held_out: expected a list of settings like "
                          "C,C,FCPA,FCPA")
    used = {}  # parsed sets -> where they were written first
    for index, entry in enumerate([actions] if isinstance(actions, str) else actions):
        used.setdefault(tuple(parse_action_sets(entry).tolist()),
                        "lbr.actions" if isinstance(actions, str) else f"lbr.actions[{index}]")
    for index, entry in enumerate(item):
        name = f"lbr.held_out[{index}]"
        sets = _listed_setting(entry, name, source)
        if sets in used:
            raise ConfigError(f"{source}: {name}: {entry!r} repeats {used[sets]} (a held-out "
                              "setting is one the objective never plays)")
        used[sets] = name
    return list(item)


def _listed_setting(entry, name: str, source: str) -> tuple:
    """One LBR setting of a list (`lbr.actions`, `lbr.held_out`), parsed, as a tuple to compare
    with the others; `name` is its field (`lbr.actions[2]`)."""
    from gambler.training.lbr import ActionSetError, parse_action_sets

    if not isinstance(entry, str):
        raise ConfigError(f"{source}: {name}: {entry!r} is not a string of action sets "
                          "like C,C,FCPA,FCPA")
    try:
        return tuple(parse_action_sets(entry).tolist())
    except ActionSetError as error:
        hint = ""
        if "," not in entry:  # [FCPA,FCPA,...] unquoted: YAML split it at the commas
            hint = "; quote each setting in a list: ['FCPA,FCPA,FCPA,FCPA', ...]"
        raise ConfigError(f"{source}: {name}: {error}{hint}") from None


def _lbr_actions(item, source: str) -> str | list[str]:
    """`lbr.actions`: one setting (a string of action sets, `C,C,FCPA,FCPA`) or a non-empty list
    of distinct settings (the objective then takes the worst: `training.anneal`), each checked
    with `parse_action_sets`. Kept as written: a string stays a string."""
    from gambler.training.lbr import ActionSetError, parse_action_sets

    if isinstance(item, str):
        try:
            parse_action_sets(item)
        except ActionSetError as error:
            raise ConfigError(f"{source}: lbr.actions: {error}") from None
        return item
    if not isinstance(item, list) or not item:
        raise ConfigError(f"{source}: lbr.actions: expected sets like C,C,FCPA,FCPA or a "
                          "non-empty list of them")
    first_index: dict[tuple, int] = {}  # parsed sets -> the entry that gave them first
    for index, entry in enumerate(item):
        name = f"lbr.actions[{index}]"
        sets = _listed_setting(entry, name, source)
        if sets in first_index:
            earlier = first_index[sets]
            raise ConfigError(f"{source}: {name}: {entry!r} repeats lbr.actions[{earlier}] "
                              f"({item[earlier]!r})")
        first_index[sets] = index
    return list(item)


def _positive(value, name: str, source: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
            or not math.isfinite(value):
        raise ConfigError(f"{source}: {name}: {value!r} must be a positive number")
    return float(value)


def load_config(name: str | Path | None) -> TrainConfig:
    """A config from a path or a shipped name (`default`); None is the defaults."""
    if name is None:
        return TrainConfig()
    path = Path(name)
    if not path.is_file():
        shipped = SHIPPED_CONFIGS / f"{path.stem}.yaml"
        if path.parent == Path(".") and shipped.is_file():
            path = shipped
        else:
            raise ConfigError(f"no training config {str(name)!r}")
    try:
        text = path.read_text()
    except OSError as error:
        raise ConfigError(f"{name}: cannot read: {error.strerror or error}") from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise ConfigError(f"{name}{where}: not valid YAML: {problem}") from None
    return parse_config(document, str(name))
