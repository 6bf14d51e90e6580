"""A `gambler-solve` run: its folder, its checkpoints, its log and what it leaves behind.

A run folder holds

    config.yaml       the solve config as given (a resumed run reads it back)
    checkpoint.npz    the tables, the batches done, the seconds spent and the target, written
                      atomically every `checkpoint_minutes` (and when the run stops)
    log.jsonl         one JSON object per checkpoint: iterations, seconds, iterations per
                      second, and for a game whose deals can be listed, the exact exploitability
    strategy.npy      the average strategy (float32, the tables' layout), written with the
                      last checkpoint
    blueprint.yaml    the profile that plays it (`kind: blueprint`, see bot.blueprint)

`install_blueprint` copies the last three of a finished run to `caches.blueprints_dir()/NAME`,
where `gambler NAME` (or a portfolio member NAME) finds it.

Resuming runs the same batches an uninterrupted run would have run from the checkpoint on, so a
run with an iteration target, killed at any moment and resumed, ends with the same tables. A run
with `--hours` stops at the first batch after that much solving time (set-up excluded), counted
over all its sessions.
"""

from __future__ import annotations

import json
import math
import re
import signal
import time
from pathlib import Path

import numpy as np
import yaml

from gambler import caches
from gambler.solver.betting import build_tree
from gambler.solver.cards import (CardAbstraction, CardAbstractionSpec, build_card_abstraction,
                                  load_card_abstraction, save_card_abstraction)
from gambler.solver.config import CategorySpec, SolveConfig, parse_config
from gambler.solver.deals import category_deals, lossless_deals
from gambler.solver.errors import SolverError
from gambler.solver.solve import AbstractGame, Solve, exploitability

CHECKPOINT = "checkpoint.npz"


def card_abstraction(spec: CardAbstractionSpec, say=lambda text: None) -> CardAbstraction:
    """The abstraction of `spec` from the cache (`gambler-cache`: abstractions), built and
    cached first if missing."""
    folder = caches.abstractions_dir() / spec.name()
    if (folder / "spec.json").is_file():
        return load_card_abstraction(folder)
    say(f"building the card abstraction {spec.name()} (once; minutes on two cores)")
    abstraction = build_card_abstraction(spec, say)
    try:
        save_card_abstraction(abstraction, folder)
    except OSError as error:
        say(f"could not cache it in {folder}: {error.strerror or error}")
        return abstraction
    return load_card_abstraction(folder)


def abstract_game(config: SolveConfig, say=lambda text: None) -> AbstractGame:
    tree = build_tree(config.game, config.betting)
    if config.cards is None:
        chance = lossless_deals(config.game)
    elif isinstance(config.cards, CategorySpec):
        chance = category_deals(config.game, config.cards.deals, config.cards.seed)
    else:
        chance = card_abstraction(config.cards, say)
    return AbstractGame(tree, chance)


class SolveRun:
    """One run folder's solve, with its target (iterations or hours)."""

    def __init__(self, directory: Path, config: SolveConfig, game: AbstractGame, solve: Solve,
                 target_iterations: int | None, hours: float | None, seconds: float = 0.0):
        self.directory = Path(directory)
        self.config = config
        self.game = game
        self.solve = solve
        self.target_iterations = target_iterations
        self.hours = hours
        self.seconds = seconds  # solving time over all sessions
        self.logged_batches = _last_logged_batches(self.directory / "log.jsonl")

    @classmethod
    def start(cls, directory: Path, config: SolveConfig, iterations: int | None,
              hours: float | None, say=lambda text: None) -> SolveRun:
        directory = Path(directory)
        if (directory / CHECKPOINT).exists():
            raise SolverError(f"{directory} already holds a run; resume it with --resume "
                              f"{directory}, or choose another --run-dir")
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "config.yaml").write_text(config.text)
        game = abstract_game(config, say)
        target = None if hours is not None else (iterations or config.iterations)
        run = cls(directory, config, game, Solve(game, config.settings), target, hours)
        run.checkpoint()
        return run

    @classmethod
    def resume(cls, directory: Path, say=lambda text: None) -> SolveRun:
        directory = Path(directory)
        if not (directory / CHECKPOINT).is_file():
            raise SolverError(f"{directory}: no {CHECKPOINT} (not a gambler-solve run folder)")
        try:
            meta = _checkpoint_meta(directory / CHECKPOINT)
            text = (directory / "config.yaml").read_text()
        except OSError as error:
            raise SolverError(f"{directory}: cannot read the run ({error})") from None
        extra = meta.get("extra", {})
        config = parse_config(text, str(directory / "config.yaml"), meta["settings"]["seed"])
        game = abstract_game(config, say)
        solve = Solve.load_checkpoint(directory / CHECKPOINT, game)
        return cls(directory, config, game, solve, extra.get("target_iterations"),
                   extra.get("hours"), float(extra.get("seconds", 0.0)))

    @property
    def target_batches(self) -> int | None:
        if self.target_iterations is None:
            return None
        return math.ceil(self.target_iterations / self.solve.settings.batch)

    def finished(self) -> bool:
        if self.target_batches is not None:
            return self.solve.batches >= self.target_batches
        return self.seconds >= self.hours * 3600

    def checkpoint(self) -> dict:
        """Save the state atomically; append the log line (returned)."""
        solve = self.solve
        solve.save_checkpoint(self.directory / CHECKPOINT, {
            "target_iterations": self.target_iterations, "hours": self.hours,
            "seconds": self.seconds})
        record = {"iterations": solve.iterations, "batches": solve.batches,
                  "seconds": round(self.seconds, 2),
                  "iterations_per_second": round(solve.iterations / self.seconds)
                  if self.seconds > 0 else 0}
        if self.game.deals is not None and solve.batches:
            value, br0, br1 = exploitability(self.game, solve.policy())
            record.update(value=value, exploitability=(br0 + br1) / 2)
        if solve.batches > self.logged_batches:
            with open(self.directory / "log.jsonl", "a") as log:
                log.write(json.dumps(record) + "\n")
            self.logged_batches = solve.batches
        return record

    def run(self, progress=lambda record: None, cluster=None) -> dict:
        """Run batches to the target, a checkpoint every `checkpoint_minutes`; the last one,
        the strategy and the blueprint profile when done. SIGINT or SIGTERM (Ctrl-C, `kill`)
        stops the run after the batch under way, checkpointed, and raises KeyboardInterrupt.
        With `cluster` (`solver.cluster.SolveCluster`) each batch's chunks run there, to the
        same tables."""
        interval = self.config.checkpoint_minutes * 60
        self.solve.compile()
        last_save = time.monotonic()
        record = None
        stop = []
        previous = {number: signal.signal(number, lambda *_: stop.append(number))
                    for number in (signal.SIGINT, signal.SIGTERM)}
        try:
            while not self.finished() and not stop:
                began = time.monotonic()
                self.solve.run_batches(1, cluster)
                self.seconds += time.monotonic() - began
                if time.monotonic() - last_save >= interval:
                    record = self.checkpoint()
                    progress(record)
                    last_save = time.monotonic()
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
        if stop:
            self.checkpoint()
            raise KeyboardInterrupt
        if record is None or record["batches"] != self.solve.batches:
            record = self.checkpoint()
            progress(record)
        self.write_strategy()
        return record

    def write_strategy(self) -> None:
        policy = self.solve.policy().astype(np.float32)
        temporary = self.directory / "strategy.tmp.npy"
        np.save(temporary, policy)
        temporary.replace(self.directory / "strategy.npy")
        profile = {"kind": "blueprint", "description": f"MCCFR blueprint of "
                   f"{self.config.game_name}, {self.solve.iterations:,} iterations",
                   "solve": "config.yaml", "strategy": "strategy.npy"}
        (self.directory / "blueprint.yaml").write_text(yaml.safe_dump(profile, sort_keys=False))


BLUEPRINT_FILES = ("config.yaml", "strategy.npy", "blueprint.yaml")


def check_blueprint_name(name: str) -> None:
    """`SolverError` unless `name` can name an installed blueprint: letters, digits, '-', '_'
    and '.', not starting with '.'."""
    if not re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*", name or ""):
        raise SolverError(f"--install {name!r}: a blueprint's name is letters, digits, '-', '_' "
                          "and '.', not starting with '.'")


def install_blueprint(run_dir: Path, name: str) -> Path:
    """Copy a finished run's blueprint (`BLUEPRINT_FILES`) to `caches.blueprints_dir()/name`,
    replacing what was there only once the copy is whole (a folder beside it, then renamed);
    the folder is returned. `SolverError` for a bad name or a run with no strategy yet."""
    import shutil

    run_dir = Path(run_dir)
    check_blueprint_name(name)
    missing = [file for file in BLUEPRINT_FILES if not (run_dir / file).is_file()]
    if missing:
        raise SolverError(f"{run_dir}: no {', '.join(missing)} (the run has not finished)")
    home = caches.blueprints_dir()
    target = home / name
    staging = home / f".{name}.installing"
    old = home / f".{name}.old"
    try:
        home.mkdir(parents=True, exist_ok=True)
        for leftover in (staging, old):
            shutil.rmtree(leftover, ignore_errors=True)
        staging.mkdir()
        for file in BLUEPRINT_FILES:
            shutil.copyfile(run_dir / file, staging / file)
        if target.exists():
            target.rename(old)
        staging.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as error:
        raise SolverError(f"cannot install the blueprint in {target}: "
                          f"{error.strerror or error}") from None
    return target


def _last_logged_batches(path: Path) -> int:
    """The batch count of the log's last complete line (0 without a log). A line cut by a kill
    is ignored; lines past the checkpoint (a kill between the log and the checkpoint cannot
    leave any: the checkpoint is written first) would be rewritten."""
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        return 0
    for line in reversed(lines):
        try:
            return int(json.loads(line)["batches"])
        except (ValueError, KeyError):
            continue
    return 0


def _checkpoint_meta(path: Path) -> dict:
    try:
        with np.load(path) as data:
            return json.loads(bytes(data["meta"]).decode())
    except (ValueError, KeyError) as error:
        raise SolverError(f"{path}: not a readable checkpoint ({error})") from None
