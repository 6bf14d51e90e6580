"""Per-parameter simulated annealing, as the seed bot trained: one parameter at a time.

The run, step by step:

1. The parameters are visited river to preflop, each round's 11 in file order (x, y, z,
   a0..a3, b0..b3), `steps_per_parameter` steps each, `sweeps` times over all 44.
2. The temperature falls geometrically from `temperature_start` to `temperature_end` (mbb/hand)
   over the schedule.
3. A proposal moves the parameter by a normal step whose spread is the kind's scale (thresholds
   small, higher powers of v larger) times temperature / temperature_start; a threshold stays
   between its neighbours (x <= y <= z) and within [-1, 1].
4. The proposal and the current profile play the same training deals against the opponent pool;
   delta = the weighted mean, pair by pair, of (proposal - current) in mbb/hand. With an `lbr`
   weight w in the config, the objective also subtracts w x what a local best response wins
   against the profile (`training.lbr`, on LBR deals of its own), so delta loses
   w x (LBR's winnings against the proposal - against the current profile). Metropolis: a
   proposal is accepted if delta >= 0, else with probability exp(delta / temperature).
5. An accepted profile is re-scored against the best so far on a *fresh* deal set (the fresh
   sets are used in turn); it becomes the best only if it wins there, so a lucky proposal cannot
   become the best on the training deals' noise (LBR, if weighted, plays fresh deals too). (A
   proposal that changes no decision on the training deals, delta exactly 0, is accepted without
   re-scoring.) Each new best is scored against the fixed opponents (and LBR) on one validation
   deal set, so the reported scores of successive bests compare like with like. With
   `lbr.report_hands`, the final best profile's LBR is measured on deals no step has seen.
6. The pool's `best` entry is the best profile so far: as it improves, training plays against
   it (the iterated best response the seed bot's author suggested).

Everything random comes from one numpy generator seeded by the run's seed, and the evaluation is
deterministic, so a run is reproducible; after every step the state is checkpointed atomically,
and a resumed run continues exactly where the checkpoint left it.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bot.params import ROUNDS, Profile, load_profile, save_profile
from bot.strategies import resolve_strategy
from training.config import TrainConfig
from training.deals import cached_deal_set
from training.evaluate import Backend, Score, kept, score_pairs
from training.lbr import LbrDeals, run_lbr
from training.engine import encode_rules, encode_strategy

PARAMETER_NAMES = ("thresholds[0]", "thresholds[1]", "thresholds[2]", "call[0]", "call[1]",
                   "call[2]", "call[3]", "raise[0]", "raise[1]", "raise[2]", "raise[3]")
KIND_OF_INDEX = ("threshold",) * 3 + ("c0", "c1", "c2", "c3") * 2
CHECKPOINT = "checkpoint.json"
VALIDATION_OFFSET = 100  # the validation deals are those of seed deal_seed + 100
REPORT_OFFSET = 200      # LBR's report on the best profile plays the deals of lbr seed + 200
LOG = "log.jsonl"


def parameter_order() -> list[int]:
    """Indices into the 44-vector in visiting order: river first, each round in file order."""
    return [11 * round_ + index for round_ in (3, 2, 1, 0) for index in range(11)]


def parameter_label(position: int) -> str:
    return f"{ROUNDS[position // 11]}.{PARAMETER_NAMES[position % 11]}"


def temperature(config: TrainConfig, step: int, total: int) -> float:
    if total <= 1:
        return config.temperature_start
    fraction = (step % total) / (total - 1)
    return config.temperature_start * (config.temperature_end / config.temperature_start) \
        ** fraction


def propose(vector: np.ndarray, position: int, scale: float, rng: np.random.Generator):
    """A copy of `vector` with one parameter moved (thresholds kept ordered and in [-1, 1])."""
    candidate = vector.copy()
    candidate[position] += rng.normal() * scale
    index = position % 11
    if index < 3:
        base = position - index
        low = candidate[base + index - 1] if index > 0 else -1.0
        high = candidate[base + index + 1] if index < 2 else 1.0
        candidate[position] = min(max(candidate[position], low), high)
    return candidate


@dataclass
class RunState:
    """Everything a run needs to continue: written to `checkpoint.json` after every step."""

    seed: int
    config: dict
    target_steps: int | None
    target_seconds: float | None
    step: int = 0
    current: list[float] = field(default_factory=list)
    best: list[float] = field(default_factory=list)
    best_score: dict | None = None        # best vs the pool on its last fresh re-scoring
    best_step: int = 0
    fresh_index: int = 0
    accepted: int = 0
    improvements: int = 0
    hands: int = 0
    lbr_hands: int = 0                    # hands LBR played (when the objective includes it)
    elapsed: float = 0.0
    log_lines: int = 0
    rng: dict = field(default_factory=dict)

    def finished(self) -> bool:
        if self.target_steps is not None:
            return self.step >= self.target_steps
        return self.target_seconds is not None and self.elapsed >= self.target_seconds


def _write_json_atomically(path: Path, payload: dict) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "w") as file:
        json.dump(payload, file)
        file.flush()
        os.fsync(file.fileno())
    temporary.replace(path)


class Trainer:
    """One training run in `run_dir`, evaluated on `backend`."""

    def __init__(self, run_dir: Path, config: TrainConfig, game, backend: Backend,
                 state: RunState, progress=None):
        self.run_dir = run_dir
        self.config = config
        self.game = game
        self.backend = backend
        self.state = state
        self.progress = progress
        self.rules = encode_rules(game)
        self.names = [name for name, weight in config.opponents.items() if weight > 0]
        self.weights = np.array([config.opponents[name] for name in self.names])
        self.weights = self.weights / self.weights.sum()
        self.fixed = {name: resolve_strategy(name) for name in self.names if name != "best"}
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = state.rng
        self._deal_sets: dict[tuple[int, int], tuple] = {}
        self.lbr = config.lbr
        self._lbr_deals: dict[int, LbrDeals] = {}

    # --- set-up ---------------------------------------------------------------------------------

    @classmethod
    def start(cls, run_dir: Path, config: TrainConfig, game, backend: Backend, seed: int,
              steps: int | None, hours: float | None, progress=None) -> Trainer:
        run_dir.mkdir(parents=True, exist_ok=True)
        start = load_profile(config.start)
        rng = np.random.default_rng(seed)
        if steps is None and hours is None:
            steps = config.schedule_steps
        state = RunState(seed=seed, config=config.as_dict(), target_steps=steps,
                         target_seconds=None if hours is None else hours * 3600,
                         current=list(start.as_vector()), best=list(start.as_vector()),
                         rng=rng.bit_generator.state)
        (run_dir / LOG).write_text("")
        trainer = cls(run_dir, config, game, backend, state, progress)
        trainer.checkpoint()
        return trainer

    @classmethod
    def resume(cls, run_dir: Path, game, backend: Backend, progress=None) -> Trainer:
        payload = json.loads((run_dir / CHECKPOINT).read_text())
        state = RunState(**payload)
        config = TrainConfig(**state.config)
        # Steps logged after the last checkpoint are done again: drop them from the log.
        lines = (run_dir / LOG).read_text().splitlines(keepends=True)[:state.log_lines]
        (run_dir / LOG).write_text("".join(lines))
        return cls(run_dir, config, game, backend, state, progress)

    # --- evaluation -----------------------------------------------------------------------------

    def _deals(self, seed: int, count: int):
        """A deal set and its file, read from the disk cache once per run."""
        key = (seed, count)
        if key not in self._deal_sets:
            self._deal_sets[key] = cached_deal_set(seed, 0, count)
        return self._deal_sets[key]

    # --- local best response ----------------------------------------------------------------------

    def _lbr_chips(self, profile: Profile, seed: int, hands: int) -> np.ndarray:
        """LBR's chips per deal (both seats) against `profile` on the LBR deals of `seed`; the
        deals' holding tables stay in memory for the run (a few, the oldest dropped)."""
        deals = kept(self._lbr_deals, (seed, hands), lambda: LbrDeals(seed, hands, keep=True))
        result = run_lbr(profile, self.game, actions=self.lbr["actions"], deals=deals)
        self.state.lbr_hands += 2 * deals.count
        return result.chips.sum(axis=1)

    def _with_lbr(self, pool: Score, first: Profile, second: Profile, seed: int) -> Score:
        """The objective's difference first - second: the pool's, minus weight x the difference
        of what LBR wins against them (paired on the same LBR deals; the two estimates are
        independent, so their variances add)."""
        weight = self.lbr["weight"]
        if weight <= 0:
            return pool
        hands = self.lbr["hands"]
        lbr = score_pairs(self._lbr_chips(first, seed, hands)
                          - self._lbr_chips(second, seed, hands), self.game.big_blind)
        return Score(pool.mbb_per_hand - weight * lbr.mbb_per_hand,
                     math.hypot(pool.ci95_mbb, weight * lbr.ci95_mbb), pool.deals)

    def _opponents(self, best: Profile):
        return [best if name == "best" else self.fixed[name] for name in self.names]

    def _paired(self, deals, path, first: Profile, second: Profile, best: Profile):
        """Per-deal weighted chips of first and second against the pool, and per-opponent."""
        encoded = [encode_strategy(opponent) for opponent in self._opponents(best)]
        pairs = [(*encode_strategy(first), *opponent) for opponent in encoded] + \
            [(*encode_strategy(second), *opponent) for opponent in encoded]
        chips = [result.raw for result in
                 self.backend.run(deals, str(path), self.rules, pairs, self.state.seed)]
        count = len(encoded)
        first_chips = np.stack(chips[:count])
        second_chips = np.stack(chips[count:])
        self.state.hands += 2 * len(deals) * 2 * count
        weighted = self.weights @ (first_chips - second_chips)
        return weighted, first_chips, second_chips

    # --- the loop -------------------------------------------------------------------------------

    def run(self) -> Profile:
        config = self.config
        order = parameter_order()
        total = self.state.target_steps or config.schedule_steps
        train_deals, train_path = self._deals(config.deal_seed, config.deals)
        if self.state.best_score is None:  # the starting profile's score, for the progress line
            self.state.best_score = self.validate(Profile.from_vector(self.state.best))
            self.checkpoint()
        while not self.state.finished():
            started = time.perf_counter()
            state = self.state
            slot = (state.step // config.steps_per_parameter) % len(order)
            position = order[slot]
            heat = temperature(config, state.step, total)
            scale = config.proposal[KIND_OF_INDEX[position % 11]] * heat / config.temperature_start
            current = np.array(state.current)
            best = Profile.from_vector(state.best, name="best")
            candidate = propose(current, position, scale, self.rng)
            hands_before = state.hands
            weighted, _, _ = self._paired(train_deals, train_path,
                                          Profile.from_vector(candidate),
                                          Profile.from_vector(current), best)
            delta = self._with_lbr(score_pairs(weighted, self.game.big_blind),
                                   Profile.from_vector(candidate), Profile.from_vector(current),
                                   self.lbr["deal_seed"])
            if delta.mbb_per_hand >= 0:
                accept = True
            else:
                accept = bool(self.rng.random() < math.exp(delta.mbb_per_hand / heat))
            record = {"step": state.step, "parameter": parameter_label(position),
                      "old": float(current[position]), "proposed": float(candidate[position]),
                      "temperature": heat, "delta": _score_dict(delta), "accepted": accept}
            if accept:
                state.current = [float(value) for value in candidate]
                state.accepted += 1
                if delta.ci95_mbb > 0 or delta.mbb_per_hand != 0:  # some decision changed
                    record.update(self._rescore(candidate, best))
            seconds = time.perf_counter() - started
            state.elapsed += seconds
            hands = state.hands - hands_before
            record.update({"best_score": state.best_score["weighted"] if state.best_score
                           else None, "hands": hands, "seconds": seconds,
                           "hands_per_second": hands / seconds if seconds else 0.0})
            state.step += 1
            self._log(record)
            self.checkpoint()
            if self.progress is not None:
                self.progress(record, state)
        return self.finish()

    def _rescore(self, candidate: np.ndarray, best: Profile) -> dict:
        """Candidate against the best so far on the next fresh deal set: does it win there?"""
        config = self.config
        state = self.state
        fresh = 1 + state.fresh_index % config.fresh_sets
        seed = config.deal_seed + fresh
        state.fresh_index += 1
        deals, path = self._deals(seed, config.fresh_deals)
        weighted, _, _ = self._paired(deals, path, Profile.from_vector(candidate), best, best)
        gain = self._with_lbr(score_pairs(weighted, self.game.big_blind),
                              Profile.from_vector(candidate), best, self.lbr["deal_seed"] + fresh)
        improved = gain.mbb_per_hand > 0
        if improved:
            state.best = [float(value) for value in candidate]
            state.best_score = self.validate(Profile.from_vector(candidate))
            state.best_step = state.step
            state.improvements += 1
        return {"fresh_seed": seed, "fresh_gain": _score_dict(gain), "new_best": improved}

    def validate(self, profile: Profile) -> dict:
        """`profile` against each fixed opponent (not `best`) on the validation deals:
        {"weighted": score, "opponents": {name: score}}."""
        config = self.config
        deals, path = self._deals(config.deal_seed + VALIDATION_OFFSET, config.fresh_deals)
        fixed = [name for name in self.names if name != "best"]
        pairs = [(*encode_strategy(profile), *encode_strategy(self.fixed[name]))
                 for name in fixed]
        chips = np.stack([result.raw for result in
                          self.backend.run(deals, str(path), self.rules, pairs, self.state.seed)])
        self.state.hands += 2 * len(deals) * len(fixed)
        weights = np.array([config.opponents[name] for name in fixed])
        weights = weights / weights.sum()
        big_blind = self.game.big_blind
        weighted = score_pairs(weights @ chips, big_blind)
        scores = {"weighted": _score_dict(weighted),
                  "opponents": {name: _score_dict(score_pairs(row, big_blind))
                                for name, row in zip(fixed, chips)},
                  "deals": f"{len(deals)} duplicate deals of seed "
                           f"{config.deal_seed + VALIDATION_OFFSET}"}
        weight = self.lbr["weight"]
        if weight > 0:  # the objective: the pool's weighted score - weight x LBR's winnings
            seed = self.lbr["deal_seed"] + VALIDATION_OFFSET
            lbr = score_pairs(self._lbr_chips(profile, seed, self.lbr["hands"]), big_blind)
            scores["lbr"] = _score_dict(lbr) | {"actions": self.lbr["actions"], "seed": seed}
            scores["weighted"] = _score_dict(Score(
                weighted.mbb_per_hand - weight * lbr.mbb_per_hand,
                math.hypot(weighted.ci95_mbb, weight * lbr.ci95_mbb), weighted.deals))
        return scores

    def finish(self) -> Profile:
        """The best profile, scored on the validation deals against each opponent, saved."""
        state = self.state
        config = self.config
        best = Profile.from_vector(state.best)
        if state.best_score is None:
            state.best_score = self.validate(best)
        training = {"seed": state.seed, "config": state.config, "steps": state.step,
                    "accepted": state.accepted, "improvements": state.improvements,
                    "best_step": state.best_step, "hands_played": state.hands,
                    "seconds": round(state.elapsed, 1), "scores": state.best_score}
        if state.lbr_hands:
            training["lbr_hands_played"] = state.lbr_hands
        report_hands = self.lbr["report_hands"]
        if report_hands:  # LBR against the result, on deals no step has seen
            seed = self.lbr["deal_seed"] + REPORT_OFFSET
            result = run_lbr(best, self.game, report_hands, seed, self.lbr["actions"])
            training["lbr"] = _score_dict(result.score) | {"actions": self.lbr["actions"],
                                                           "seed": seed}
        profile = Profile(best.rounds, name="trained",
                          description="Trained by gambler-train (per-parameter simulated "
                                      "annealing, duplicate self-play).",
                          provenance=f"gambler-train seed {state.seed}, start "
                                     f"{config.start}, {state.step} steps",
                          training=training)
        save_profile(profile, self.run_dir / "best.yaml")
        self.checkpoint()
        return profile

    # --- persistence ----------------------------------------------------------------------------

    def _log(self, record: dict) -> None:
        with open(self.run_dir / LOG, "a") as log:
            log.write(json.dumps(record) + "\n")
            log.flush()
            os.fsync(log.fileno())
        self.state.log_lines += 1

    def checkpoint(self) -> None:
        self.state.rng = self.rng.bit_generator.state
        _write_json_atomically(self.run_dir / CHECKPOINT, self.state.__dict__)


def _score_dict(score: Score) -> dict:
    return {"mbb_per_hand": round(score.mbb_per_hand, 3), "ci95_mbb": round(score.ci95_mbb, 3),
            "hands": score.hands}
