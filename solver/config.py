"""Solve configs: the YAML file `gambler-solve` reads (configs/solve/*.yaml).

    game: holdem.nolimit.2p.reverse_blinds.game   # a path or a shipped game name
    cards:                                        # or `lossless` for a game small enough
      flop: 200                                   #   to list every deal (Kuhn, Leduc), or
                                                  #   {categories: N, seed: S}: made-hand
                                                  #   buckets on N fixed deals (a test game)
      turn: 200
      river: 200
      sample: 200000                              # k-means fitting sample, points
      iterations: 25                              # Lloyd iterations
      seed: 0
    betting:
      fractions: {preflop: [0.5, 1], flop: [0.5, 1], turn: [0.5, 1], river: [0.5, 1]}
      all_in: true
      max_raises: {preflop: 3, flop: 2, turn: 2, river: 2}
    solver:
      weighting: linear                           # none, linear or dcfr
      batch: 100000                               # iterations between merges
      chunks: 2                                   # parallel streams of a batch
      prune_below: -300000                        # regret-based pruning (chips; off if absent)
      prune_share: 0.95                           #   in this share of the iterations
      prune_after: 100                            #   from this batch on
    iterations: 100000000                         # the target (or --hours)
    checkpoint_minutes: 10                        # 0: after every batch

Every key but `game` has a default; an unknown key, a wrong type or a value out of range is a
`SolverError` naming the file and the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from gambler.protocol.errors import GameDefinitionError
from gambler.protocol.gamedef import Game, load_game
from gambler.solver.betting import BettingAbstraction, abstraction_from_mapping
from gambler.solver.cards import CardAbstractionSpec
from gambler.solver.errors import SolverError
from gambler.solver.solve import SolveSettings

_KEYS = ("game", "cards", "betting", "solver", "iterations", "checkpoint_minutes")


@dataclass(frozen=True)
class CategorySpec:
    """The small made-hand abstraction of `deals.category_deals` on a fixed deal sample."""

    deals: int
    seed: int = 0


@dataclass(frozen=True)
class SolveConfig:
    game: Game
    game_name: str
    cards: CardAbstractionSpec | CategorySpec | None   # None: lossless
    betting: BettingAbstraction
    betting_data: dict
    settings: SolveSettings                # its seed is the command's --seed
    iterations: int
    checkpoint_minutes: float
    text: str                              # the file's text, kept in the run folder


def _shipped_configs() -> Path:
    from gambler import configs  # the installed package's data folder

    return Path(configs.__file__).resolve().parent / "solve"


def shipped_config_names() -> list[str]:
    return sorted(path.stem for path in _shipped_configs().glob("*.yaml"))


def find_config(name: str) -> Path:
    """A config by path or by the name of a shipped one (`leduc`, `blueprint`)."""
    path = Path(name)
    if path.is_file():
        return path
    shipped = _shipped_configs() / f"{path.stem}.yaml"
    if path.parent == Path(".") and shipped.is_file():
        return shipped
    names = ", ".join(shipped_config_names())
    raise SolverError(f"no solve config {name!r} (shipped: {names})")


def load_config(name: str, seed: int = 0) -> SolveConfig:
    path = find_config(name)
    try:
        text = path.read_text()
    except OSError as error:
        raise SolverError(f"{path}: cannot read it ({error.strerror or error})") from None
    return parse_config(text, str(path), seed)


def _number(data: dict, key: str, source: str, kind, low, default):
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int) \
            or value < low:
        what = "number" if kind is float else "whole number"
        raise SolverError(f"{source}: {key}: expected a {what} >= {low}, got {value!r}")
    return kind(value)


def _threshold(value, where: str) -> float | None:
    """The pruning threshold: absent, or a negative number of chips."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value >= 0:
        raise SolverError(f"{where}: prune_below: expected a negative number of chips, got "
                          f"{value!r}")
    return float(value)


def parse_config(text: str, source: str, seed: int = 0) -> SolveConfig:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise SolverError(f"{source}{where}: not valid YAML") from None
    if not isinstance(data, dict):
        raise SolverError(f"{source}: expected a mapping of {', '.join(_KEYS)}")
    unknown = set(data) - set(_KEYS)
    if unknown:
        raise SolverError(f"{source}: unknown key {sorted(unknown)[0]!r} (keys: "
                          f"{', '.join(_KEYS)})")
    if "game" not in data:
        raise SolverError(f"{source}: game: missing (a .game file or a shipped game name)")
    try:
        game = load_game(str(data["game"]))
    except GameDefinitionError as error:
        raise SolverError(f"{source}: game: {error}") from None
    cards_data = data.get("cards", "lossless")
    if cards_data == "lossless":
        cards = None
    elif isinstance(cards_data, dict) and "categories" in cards_data:
        extra = set(cards_data) - {"categories", "seed"}
        if extra:
            raise SolverError(f"{source}: cards: unknown key {sorted(extra)[0]!r} (categories, "
                              "seed)")
        cards = CategorySpec(_number(cards_data, "categories", f"{source}: cards", int, 100, 0),
                             _number(cards_data, "seed", f"{source}: cards", int, 0, 0))
        if not game.is_heads_up_holdem:
            raise SolverError(f"{source}: cards: categories are for heads-up hold'em")
    elif isinstance(cards_data, dict):
        allowed = ("flop", "turn", "river", "sample", "iterations", "seed")
        extra = set(cards_data) - set(allowed)
        if extra:
            raise SolverError(f"{source}: cards: unknown key {sorted(extra)[0]!r} "
                              f"({', '.join(allowed)})")
        values = {key: _number(cards_data, key, f"{source}: cards", int, low, default)
                  for key, low, default in (("flop", 2, 200), ("turn", 2, 200),
                                            ("river", 2, 200), ("sample", 1000, 200_000),
                                            ("iterations", 1, 25), ("seed", 0, 0))}
        cards = CardAbstractionSpec(**values)
        if not game.is_heads_up_holdem:
            raise SolverError(f"{source}: cards: buckets are for heads-up hold'em; use "
                              "`cards: lossless` for a small game")
    else:
        raise SolverError(f"{source}: cards: expected `lossless` or a mapping of bucket counts")
    betting_data = data.get("betting", {}) or {}
    betting = abstraction_from_mapping(betting_data, game, source)
    solver_data = data.get("solver", {}) or {}
    if not isinstance(solver_data, dict):
        raise SolverError(f"{source}: solver: expected a mapping")
    extra = set(solver_data) - {"weighting", "alpha", "beta", "gamma", "batch", "chunks",
                                "prune_below", "prune_share", "prune_after"}
    if extra:
        raise SolverError(f"{source}: solver: unknown key {sorted(extra)[0]!r}")
    where = f"{source}: solver"
    try:
        settings = SolveSettings(
            weighting=str(solver_data.get("weighting", "linear")),
            alpha=_number(solver_data, "alpha", where, float, 0, 1.5),
            beta=_number(solver_data, "beta", where, float, 0, 0.0),
            gamma=_number(solver_data, "gamma", where, float, 0, 2.0),
            batch=_number(solver_data, "batch", where, int, 1, 100_000),
            chunks=_number(solver_data, "chunks", where, int, 1, 2), seed=seed,
            prune_below=_threshold(solver_data.get("prune_below"), where),
            prune_share=_number(solver_data, "prune_share", where, float, 0, 0.95),
            prune_after=_number(solver_data, "prune_after", where, int, 0, 0))
    except SolverError as error:
        if str(error).startswith(source):
            raise
        raise SolverError(f"{where}: {error}") from None
    return SolveConfig(game=game, game_name=str(data["game"]), cards=cards, betting=betting,
                       betting_data=betting_data, settings=settings,
                       iterations=_number(data, "iterations", source, int, 1, 1_000_000),
                       checkpoint_minutes=_number(data, "checkpoint_minutes", source, float,
                                                  0, 10.0),
                       text=text)
