"""Per-parameter simulated annealing, as the seed bot trained: one parameter at a time.

The run, step by step:

1. The parameters are the starting profile's tunable numbers (`bot.params.Profile.tunable`: a
   version 1 profile's 44, more or fewer for version 2), visited river to preflop, each round's
   in file order, `steps_per_parameter` steps each, `sweeps` times over all of them (or over
   those the config's `tune` patterns name: `tuned_positions`).
2. The temperature falls geometrically from `temperature_start` to `temperature_end` (mbb/hand)
   over the schedule.
3. A proposal moves the parameter by a normal step whose spread is the kind's scale (thresholds
   small, higher powers of v larger) times temperature / temperature_start; a threshold stays
   between its neighbours (x <= y <= z) and within [-1, 1], a price margin within [-1, 1], a
   probability of mixed play within [0, 1].
4. The proposal and the current profile play the same training deals against the opponent pool
   (`opponents`): `best` is the best profile so far, `hall` the last `hall_of_fame` bests before
   it (their weight shared), any other name a fixed profile, baseline or exploiter. For each
   opponent o, d_o = the pair-by-pair difference (proposal - current) of their chips against o;
   with `normalize`, d_o is multiplied by s / s_o, where s_o is the spread (standard deviation
   of the pair chips) of the starting profile against o, measured once, and s the weighted mean
   of the s_o: each opponent then weighs by its weight, not by how many chips are at stake
   against it (the baselines lose tens of thousands of mbb a hand and would otherwise drown
   everything else). delta = the weighted mean of the d_o in mbb/hand. With an `lbr` weight w,
   the objective also subtracts w x what a local best response wins against the profile
   (`training.lbr`, on LBR deals of its own), so delta loses w x (LBR's winnings against the
   proposal - against the current profile). `lbr.actions` is one setting of LBR's action sets
   or a list of them; with a list, what LBR wins against a profile is what it wins at the
   profile's *worst* setting: the one where LBR wins most (mean over the LBR deals; the first
   of equals, `training.lbr.worst_setting`). Each profile has its own worst setting, so
   delta's LBR term is the per-deal difference of LBR's chips at the proposal's worst setting
   against the proposal and at the current profile's worst against the current profile, still
   paired (the same deals). Every setting costs one LBR run per profile. With found
   exploiters (below) and an `exploit` weight u, delta also gains u x (the proposal's chips
   against its *worst* found exploiter - the current profile's against its own worst), the worst
   being the one a profile loses most to on the training deals (mean over them; the first of
   equals), added deal by deal to the pool's weighted difference before it is scored (the same
   training deals: the interval stays paired), in the pool's units: raw chips, not normalized.
   Only the last `exploit.keep` found exploiters count (0: all). Metropolis: a proposal is
   accepted if delta >= 0, else with probability exp(delta / temperature).
5. An accepted profile is re-scored against the best so far on a *fresh* deal set (the fresh
   sets are used in turn), against the pool and the `held_out` opponents, which training never
   plays, with the found-exploiter term on the same fresh deals (LBR, if weighted, on fresh LBR
   deals, each profile at its worst of the objective's settings and the `lbr.held_out` ones,
   which the objective never plays): it becomes the best only if it gains there, so neither the
   training deals' noise nor the pool's particular opponents decide what is kept.
   With `restart_after` N, a current profile that has gone N steps without a new best starts
   again from the best (annealing's random walk can otherwise drift where the held-out
   opponents never let it become the best).
   (A proposal that changes no decision on the training deals, delta exactly 0, is accepted
   without re-scoring.) Each new best joins the hall of fame and is scored against every fixed
   opponent (and LBR) on one validation deal set, so the reported scores of successive bests
   compare like with like (the found-exploiter term, though, counts the exploiters found by
   then). With `lbr.report_hands`, the final best profile's LBR is measured on deals no step has
   seen (at every setting; the report names the worst and, for a list of settings, gives each
   one's score, as the validation scores do).
6. With `exploit.every` N > 0 (double oracle: the pool grows with the adversaries found against
   the run's own best), an exploiter search (`training.exploit.search_exploiter`, the
   cross-entropy method, `exploit.generations` generations on `exploit.deals` training deals,
   half as many validation and as many held-out deals) runs against the best profile before
   step 1 and before every step k + 1 where k > 0 is a multiple of N. Search n (0, 1, ...)
   reads deal seed `exploit.seed` + n, deals that no other part of the run reads; its exploiter
   is written to RUN_DIR/exploiters/found-NN.yaml and joins the found exploiters of step 4, and
   what it wins against the best on its own held-out deals is logged: the run's fresh measure
   of the best's exploitability.

Everything random comes from one numpy generator seeded by the run's seed, and the evaluation and
the searches are deterministic, so a run is reproducible; after every step and every search the
state is checkpointed atomically, and a resumed run continues exactly where the checkpoint left
it.

What a run is doing is told as it happens: `Trainer.notify` (a callable taking one line of text)
hears each set-up phase (deal sets read or computed, with an estimate of how long before a
computation, LBR's holding tables, the start profile's scoring, each exploiter search before and
after, the final LBR report), and `progress` each step's record.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path

import numpy as np

from gambler.bot.exploiters import save_exploiter
from gambler.bot.params import ROUNDS, Profile, load_profile, parse_profile, save_profile
from gambler.bot.strategies import resolve_strategy
from gambler.errors import GamblerError
from gambler.training.config import ConfigError, TrainConfig
from gambler.training.deals import (DEAL_CORE_SECONDS, HOLDINGS_CHUNK, HOLDINGS_CORE_SECONDS,
                                    cached_deal_set, cached_holding_rates, estimate_seconds)
from gambler.training.evaluate import Backend, Score, kept, score_pairs
from gambler.training.lbr import LbrDeals, LbrResult, parse_action_sets, run_lbr, worst_setting
from gambler.training.engine import (encode_rules, encode_strategy, exploiter_vector,
                                     profile_vector)
from gambler.training.exploit import SearchSettings, exploiter_of, search_exploiter

CHECKPOINT = "checkpoint.json"
VALIDATION_OFFSET = 100  # the validation deals are those of seed deal_seed + 100
REPORT_OFFSET = 200      # LBR's report on the best profile plays the deals of lbr seed + 200
LOG = "log.jsonl"
SELF = ("best", "hall")  # pool names that stand for the run's own profiles


class RunError(GamblerError):
    """A run directory that cannot be used: no checkpoint to resume from, a damaged one, a log
    that cannot be read."""


class _WouldCompute(Exception):
    """Raised by a probe's `announce`: the cache lacks `deals` deals (nothing was computed)."""

    def __init__(self, deals: int):
        super().__init__(deals)
        self.deals = deals


#: LBR results a run keeps: a step's two profiles at every setting, and a re-scoring's
_KEPT_LBR_RESULTS = 32


def _stop(deals: int) -> None:
    raise _WouldCompute(deals)


def parameter_order(labels: list[str]) -> list[int]:
    """Indices into the tunable vector in visiting order: river first, each round in file
    order."""
    by_round = {name: [] for name in ROUNDS}
    for index, label in enumerate(labels):
        by_round[label.split(".")[0]].append(index)
    return [index for name in reversed(ROUNDS) for index in by_round[name]]


def tuned_positions(labels: list[str], patterns: list[str], source: str = "tune") -> list[int]:
    """The visiting order (`parameter_order`) kept to the labels that one of `patterns` (the
    config's `tune`) matches: `*` any text, `?` one character, everything else literal (so
    `flop.call[2]` names one number). A pattern that matches no label is a `ConfigError`.

    >>> labels = ["flop.call[0]", "flop.defend[0]", "river.call[0]", "river.defend[0]"]
    >>> tuned_positions(labels, ["*.defend*", "flop.call[0]"])
    [3, 0, 1]
    """
    globs = [pattern.replace("[", "[[]") for pattern in patterns]  # fnmatch, brackets literal
    for pattern, glob in zip(patterns, globs):
        if not any(fnmatchcase(label, glob) for label in labels):
            raise ConfigError(f"{source}: pattern {pattern!r} matches none of the start "
                              f"profile's parameters ({labels[0]}, ..., {labels[-1]})")
    return [index for index in parameter_order(labels)
            if any(fnmatchcase(labels[index], glob) for glob in globs)]


def lbr_settings(actions: str | list[str]) -> list[str]:
    """`lbr.actions` as a list of settings: one string is one setting.

    >>> lbr_settings("C,C,FCPA,FCPA")
    ['C,C,FCPA,FCPA']
    """
    return [actions] if isinstance(actions, str) else list(actions)


def objective(pool: Score, lbr: Score, weight: float) -> Score:
    """The run's objective from the pool's score and LBR's: pool - weight x LBR's winnings, in
    mbb/hand (what a local best response wins against a profile counts `weight` times against
    it). With several LBR settings (`lbr.actions` a list), `lbr` is LBR's winnings at the
    profile's worst setting, the one where LBR wins most (for a difference first - second:
    first's worst against first minus second's worst against second, on the same deals; see
    `Trainer._with_lbr`). The two come from different deals, so they are independent and their
    variances add: the 95% half-width is hypot(the pool's, weight x LBR's). Counted in the
    pool's deals.

    The one place the rule is written: a step's delta (both scores differences proposal -
    current, `Trainer._with_lbr`) and a best's reported score (`Trainer.validate`) use it.

    >>> objective(Score(10.0, 3.0, 500), Score(8.0, 8.0, 100), 0.5)
    Score(mbb_per_hand=6.0, ci95_mbb=5.0, deals=500)
    """
    return Score(pool.mbb_per_hand - weight * lbr.mbb_per_hand,
                 math.hypot(pool.ci95_mbb, weight * lbr.ci95_mbb), pool.deals)


def objective_pairs(pool: np.ndarray, exploit: np.ndarray | None, weight: float) -> np.ndarray:
    """The objective's part paired deal by deal, before it is scored (`score_pairs`) and LBR's
    term is taken off (`objective`): the pool's weighted chips per deal + weight (`exploit.weight`)
    x the found-exploiter term's chips per deal, which are raw chips, in the pool's units (the
    pool's weights sum to 1, so at weight 1 the term counts as much as the whole pool at its mean
    spread). The term is a profile's chips against its worst found exploiter (`worst_found`), and
    for a difference first - second, first's chips against first's worst - second's against
    second's worst, on the same deals as the pool's. `exploit` None (no exploiter found yet, or
    weight 0): the pool's chips, untouched.

    The one place the term is written: a step's delta, the re-scoring's gain (`Trainer._rescore`)
    and a best's reported score (`Trainer.validate`) use it.

    >>> objective_pairs(np.array([1.0, 2.0]), np.array([-10, 4]), 0.5).tolist()
    [-4.0, 4.0]
    """
    if exploit is None:
        return pool
    return pool + weight * exploit


def worst_found(chips: np.ndarray) -> int:
    """The index of a profile's worst found exploiter: the row of `chips` (the profile's chips
    per deal against each exploiter) with the least mean, the first of equals.

    >>> worst_found(np.array([[1, -3], [-2, -1], [-1, -2]]))  # means -1, -1.5, -1.5
    1
    """
    means = np.asarray(chips, dtype=np.float64).mean(axis=1)
    return int(np.argmin(means))


def temperature(config: TrainConfig, step: int, total: int) -> float:
    if total <= 1:
        return config.temperature_start
    fraction = (step % total) / (total - 1)
    return config.temperature_start * (config.temperature_end / config.temperature_start) \
        ** fraction


def propose(vector: np.ndarray, position: int, scale: float, rng: np.random.Generator,
            labels: list[str] | None = None):
    """A copy of `vector` with one parameter moved: thresholds kept ordered and in [-1, 1], a
    price margin in [-1, 1], a probability in [0, 1], a bluff size in [0, 10] pots, a defence
    line's d0 in [-1, 2] (2: never) and d1 in [-4, 4], range defence in [0, 10], its cap in
    [0, 1], its least size in [0, 10] pots and its keep in [-1, 1], a range bet's or range
    raise's share in [0, 1] and size in [0, 10] pots, and `end_reraise` in [-1, 1]. `labels`
    (`Profile.tunable`'s) say which is which; without them the vector is a version 1 profile's
    44 numbers."""
    candidate = vector.copy()
    candidate[position] += rng.normal() * scale
    label = labels[position] if labels is not None else _v1_label(position)
    if ".thresholds[" in label:
        index = int(label[-2])
        low = candidate[position - 1] if index > 0 else -1.0
        high = candidate[position + 1] if index < 2 else 1.0
        candidate[position] = min(max(candidate[position], low), high)
    else:
        low, high = _BOUNDS.get(label.rsplit(".", 1)[1], (-math.inf, math.inf))
        candidate[position] = min(max(candidate[position], low), high)
    return candidate


_BOUNDS = {"price": (-1.0, 1.0), "slow_play": (0.0, 1.0), "bluff": (0.0, 1.0),
           "bluff_size": (0.0, 10.0), "defend[0]": (-1.0, 2.0), "defend[1]": (-4.0, 4.0),
           "range_defence": (0.0, 10.0), "range_defence_cap": (0.0, 1.0),
           "range_defence_from": (0.0, 10.0), "range_defence_keep": (-1.0, 1.0),
           "range_bet[0]": (0.0, 1.0), "range_bet[1]": (0.0, 10.0),
           "range_raise[0]": (0.0, 1.0), "range_raise[1]": (0.0, 10.0),
           "end_reraise": (-1.0, 1.0)}


def _v1_label(position: int) -> str:
    index = position % 11
    name = ("thresholds", "call", "raise")[0 if index < 3 else 1 if index < 7 else 2]
    offset = (0, 3, 7)[("thresholds", "call", "raise").index(name)]
    return f"{ROUNDS[position // 11]}.{name}[{index - offset}]"


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
    best_score: dict | None = None        # best vs the fixed opponents on the validation deals
    best_step: int = 0
    fresh_index: int = 0
    accepted: int = 0
    improvements: int = 0
    hands: int = 0
    #: hands LBR played (when the objective includes it; a result reused for an unchanged
    #: profile counts once)
    lbr_hands: int = 0
    elapsed: float = 0.0                  # seconds inside the steps (for --hours)
    wall: float = 0.0                     # the run's wall time: every session from its start
                                          # (set-up included) to its last checkpoint, summed
    log_lines: int = 0
    rng: dict = field(default_factory=dict)
    template: str = ""                    # the starting profile (YAML): what the vectors fill in
    hall: list[list[float]] = field(default_factory=list)   # earlier bests, oldest first
    scales: dict[str, float] = field(default_factory=dict)  # s_o of `normalize`, by opponent
    restarted_at: int = 0                 # the step after which current last went back to best
    found: list[dict] = field(default_factory=list)  # the exploiter searches, in order: "search"
                                          # n, "before_step", deal "seed", "file" (in the run
                                          # directory), "held_out" (its score against the best
                                          # then) and "vector" (`exploiter_vector`: what it plays)
    search_seconds: float = 0.0           # seconds inside the searches (for --hours with elapsed)

    def finished(self) -> bool:
        if self.target_steps is not None:
            return self.step >= self.target_steps
        return self.target_seconds is not None and \
            self.elapsed + self.search_seconds >= self.target_seconds


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
        self.template = (parse_profile(state.template, "the run's starting profile")
                         if state.template else load_profile(config.start))
        tunable = self.template.tunable()
        self.labels = [label for label, _, _ in tunable]
        self.kinds = [kind for _, _, kind in tunable]
        #: the visiting order, kept to the config's `tune` patterns (a checkpoint from before
        #: the key: every number)
        self.order = tuned_positions(self.labels, config.tune, "tune")
        self.pool = {name: weight for name, weight in config.opponents.items() if weight > 0}
        self.held_out = {name: weight for name, weight in config.held_out.items() if weight > 0}
        self.fixed = {name: resolve_strategy(name) for name in {**self.pool, **self.held_out}
                      if name not in SELF}
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = state.rng
        self._deal_sets: dict[tuple[int, int], tuple] = {}
        self._deal_seconds = 0.0  # spent reading or computing deal sets (kept out of hands/s)
        #: (label, total) -> a context manager giving update(count) or None: shows deal sets
        #: being computed (the CLI sets it; None: silent)
        self.deal_progress = None
        self.lbr = config.lbr
        #: LBR's settings as the config writes them, and their sets, parsed once a run
        self._lbr_settings = lbr_settings(config.lbr["actions"])
        self._lbr_action_sets = [parse_action_sets(actions) for actions in self._lbr_settings]
        #: a list in the config (even of one): the records and reports give every setting's
        #: score and name the worst; one string keeps them as they were
        self._lbr_listed = not isinstance(config.lbr["actions"], str)
        self._lbr_deals: dict[int, LbrDeals] = {}
        #: LBR's results by (seed, hands, setting, the profile's engine numbers), the last
        #: `_KEPT_LBR_RESULTS` computed
        self._lbr_results: dict[tuple, LbrResult] = {}
        #: `lbr.held_out`: settings only the re-scoring of a new best plays (a checkpoint from
        #: before the key has none), and the re-scoring's settings: the objective's, then these
        self._lbr_held_out = [(actions, parse_action_sets(actions))
                              for actions in config.lbr.get("held_out") or []]
        self._lbr_gate = list(zip(self._lbr_settings, self._lbr_action_sets)) + \
            self._lbr_held_out
        #: the `exploit` section (a checkpoint from before it: off), and the found exploiters'
        #: engine encodings by search number (made from the checkpoint's vectors when needed)
        self.exploit = config.exploit
        self._found_encoded: dict[int, tuple] = {}
        #: one line of text -> None: told each set-up phase as it starts (None: silent)
        self.notify = None
        #: measure LBR against the final best profile (`lbr.report_hands`); False skips it
        self.report_lbr = True
        #: the session's start (time.perf_counter()): its wall time so far is added to that of
        #: the earlier sessions in each checkpoint. A front end sets it to when it started.
        self.session_started = time.perf_counter()
        self._wall_before = state.wall

    def _say(self, text: str) -> None:
        if self.notify is not None:
            self.notify(text)

    def profile(self, vector) -> Profile:
        return self.template.with_tunable(vector)

    @property
    def schedule_steps(self) -> int:
        return self.config.sweeps * len(self.order) * self.config.steps_per_parameter

    # --- set-up ---------------------------------------------------------------------------------

    @classmethod
    def start(cls, run_dir: Path, config: TrainConfig, game, backend: Backend, seed: int,
              steps: int | None, hours: float | None, progress=None) -> Trainer:
        run_dir.mkdir(parents=True, exist_ok=True)
        start = load_profile(config.start)
        vector = [value for _, value, _ in start.tunable()]
        rng = np.random.default_rng(seed)
        state = RunState(seed=seed, config=config.as_dict(), target_steps=steps,
                         target_seconds=None if hours is None else hours * 3600,
                         current=list(vector), best=list(vector), rng=rng.bit_generator.state,
                         template=start.to_yaml())
        (run_dir / LOG).write_text("")
        trainer = cls(run_dir, config, game, backend, state, progress)
        if steps is None and hours is None:
            state.target_steps = trainer.schedule_steps
        trainer.checkpoint()
        return trainer

    @classmethod
    def resume(cls, run_dir: Path, game, backend: Backend, progress=None,
               state: RunState | None = None) -> Trainer:
        """The run in `run_dir`, from its checkpoint (or `state`, read from it by `load_state`),
        to continue where the checkpoint left it."""
        state = state or load_state(run_dir)
        try:
            config = TrainConfig(**state.config)
        except TypeError as error:
            raise RunError(f"{run_dir / CHECKPOINT}: config: {error}") from None
        # Steps logged after the last checkpoint are done again: drop them from the log.
        lines = (run_dir / LOG).read_text().splitlines(keepends=True)[:state.log_lines]
        (run_dir / LOG).write_text("".join(lines))
        return cls(run_dir, config, game, backend, state, progress)

    # --- evaluation -----------------------------------------------------------------------------

    def _deals(self, seed: int, count: int, role: str):
        """A deal set and its file, read from the disk cache once per run; `role` names it on
        the set-up lines ("training deals")."""
        key = (seed, count)
        if key not in self._deal_sets:
            started = time.perf_counter()
            computed = []
            updates = []  # the progress bar's update, once computing starts
            bar = contextlib.ExitStack()

            def announce(deals: int) -> None:
                computed.append(deals)
                self._say(f"computing the win rates of {deals:,} {role} (deal seed {seed}): "
                          f"{_about(estimate_seconds(deals, DEAL_CORE_SECONDS))}")
                if self.deal_progress is not None:  # after the line, not across it
                    updates.append(bar.enter_context(
                        self.deal_progress(f"win rates of deal set {seed}", deals)))

            def progress(deals: int) -> None:
                if updates and updates[0] is not None:
                    updates[0](deals)

            with bar:
                self._deal_sets[key] = cached_deal_set(seed, 0, count, progress=progress,
                                                       announce=announce)
            seconds = time.perf_counter() - started
            self._deal_seconds += seconds
            if computed:
                self._say(f"computed the win rates of {computed[0]:,} {role} in "
                          f"{format_duration(seconds)}")
            else:
                self._say(f"read {count:,} {role} (deal seed {seed}) from the cache")
        return self._deal_sets[key]

    def _say_set_up(self) -> None:
        """Say, before any of it, what the set-up up to the first step's end has to compute and
        about how long it takes: the deal sets and LBR holding tables that step reads (the
        validation sets only before the start profile is scored; the next fresh set in case the
        step is accepted; an exploiter search's deals if one comes first) that the cache lacks.
        The cache is probed, never filled, here."""
        config, state = self.config, self.state
        sets = [(config.deal_seed, config.deals),
                (config.deal_seed + 1 + state.fresh_index % config.fresh_sets, config.fresh_deals)]
        lbr_sets = []
        if self.lbr["weight"] > 0:
            lbr_sets = [self.lbr["deal_seed"], self.lbr["deal_seed"] + 1
                        + state.fresh_index % config.fresh_sets]
        if state.best_score is None:
            sets.append((config.deal_seed + VALIDATION_OFFSET, config.fresh_deals))
            lbr_sets = lbr_sets and lbr_sets + [self.lbr["deal_seed"] + VALIDATION_OFFSET]
        if self._search_due():  # the search's training, validation and held-out deals
            deals = self.exploit["deals"]
            sets.append((self.exploit["seed"] + len(state.found), deals + deals // 2 + deals))
        lbr_count = (self.lbr["hands"] + 1) // 2
        missing = [_missing_deals(seed, count) for seed, count in sets] + \
            [_missing_deals(seed, lbr_count) for seed in lbr_sets]
        tables = sum(_missing_holdings(seed, lbr_count) for seed in lbr_sets)
        if not any(missing) and not tables:
            self._say("set-up: every deal set and LBR table it needs is in the cache")
            return
        deal_seconds = estimate_seconds(sum(missing), DEAL_CORE_SECONDS)
        table_seconds = estimate_seconds(tables, HOLDINGS_CORE_SECONDS)
        parts = []
        if any(missing):
            count = sum(1 for deals in missing if deals)
            parts.append(f"the win rates of {sum(missing):,} deals in {count:,} deal "
                         f"set{'s' if count > 1 else ''}")
        if tables:
            parts.append(f"LBR's holding tables for {tables:,} deals")
        split = f" (LBR's holding tables: {format_duration(table_seconds)} of it)" \
            if tables and any(missing) else ""
        self._say(f"set-up before the first step: up to {' and '.join(parts)} to compute (once; "
                  f"cached after): {_about(deal_seconds + table_seconds)}{split}")

    def _prepare_lbr(self, seed: int, hands: int) -> None:
        """Compute (or find in the cache) LBR's deals and holding tables for `hands` hands of
        `seed`, saying first how long a computation will take (LBR would otherwise compute them
        silently as it plays). The holding tables are most of it: about ten times a deal set's
        cost a deal."""
        count = (hands + 1) // 2
        offset = seed - self.lbr["deal_seed"]
        role = {0: "LBR training deals", VALIDATION_OFFSET: "LBR validation deals",
                REPORT_OFFSET: "LBR report deals"}.get(offset, f"LBR fresh deals of set {offset}")
        started = time.perf_counter()
        announced = []
        for start in range(0, count, HOLDINGS_CHUNK):
            def announce_tables(_, remaining=count - start):
                if not announced:
                    announced.append(remaining)
                    seconds = estimate_seconds(remaining, HOLDINGS_CORE_SECONDS) \
                        + estimate_seconds(count, DEAL_CORE_SECONDS)
                    self._say(f"computing LBR's holding tables (every holding's win rate on "
                              f"each street: the slow part of LBR's set-up) for {remaining:,} "
                              f"{role} (LBR seed {seed}): {_about(seconds)}")
            cached_holding_rates(seed, start, min(HOLDINGS_CHUNK, count - start),
                                 announce_tables)

        def announce_deals(deals: int) -> None:
            if not announced:
                announced.append(deals)
                self._say(f"computing the win rates of {deals:,} {role} (LBR seed {seed}): "
                          f"{_about(estimate_seconds(deals, DEAL_CORE_SECONDS))}")

        cached_deal_set(seed, 0, count, announce=announce_deals)
        seconds = time.perf_counter() - started
        self._deal_seconds += seconds
        if announced:
            self._say(f"computed the tables of {count:,} {role} in {format_duration(seconds)}")
        else:
            self._say(f"read {count:,} {role} and their holding tables (LBR seed {seed}) from "
                      "the cache")

    def _worst_lbr(self, profile: Profile, seed: int, hands: int,
                   settings: list[tuple] | None = None) -> tuple[int, list[tuple[str, LbrResult]]]:
        """LBR against `profile` at every setting on the LBR deals of `seed`: (the index of the
        worst setting, the one where LBR wins most, [(setting, its result)] in the config's
        order). `settings`: [(setting, its parsed action sets)] to play instead of the
        objective's. The deals' holding tables stay in memory for the run (a few, the oldest
        dropped)."""
        if (seed, hands) not in self._lbr_deals:
            self._prepare_lbr(seed, hands)
        deals = kept(self._lbr_deals, (seed, hands), lambda: LbrDeals(seed, hands, keep=True))
        results = []
        if settings is None:
            settings = list(zip(self._lbr_settings, self._lbr_action_sets))
        played = profile_vector(profile).tobytes()

        def play(sets) -> LbrResult:
            self.state.lbr_hands += 2 * deals.count
            return run_lbr(profile, self.game, actions=sets, deals=deals)

        for actions, sets in settings:
            # LBR's play is a function of the profile and the deals: a step that keeps the
            # current profile reuses its results (most steps are rejected), at the same result
            results.append((actions, kept(self._lbr_results, (seed, hands, actions, played),
                                          lambda: play(sets), _KEPT_LBR_RESULTS)))
        return worst_setting(results), results

    def _lbr_record(self, results: list[tuple[str, LbrResult]], worst: int, seed: int) -> dict:
        """What a report says of LBR: the score at the worst setting with that setting's
        "actions" and the LBR "seed", and, when the config lists its settings, every setting's
        score in "settings"."""
        actions, result = results[worst]
        record = _score_dict(result.score) | {"actions": actions, "seed": seed}
        if self._lbr_listed:
            record["settings"] = {setting: _score_dict(each.score) for setting, each in results}
        return record

    def _with_lbr(self, pool: Score, first: Profile, second: Profile, seed: int,
                  settings: list[tuple] | None = None) -> tuple[Score, dict | None]:
        """The objective's difference first - second (`objective`): the pool's (with the
        found-exploiter term, `objective_pairs`), minus weight x the difference of what LBR wins
        against them, paired on the same LBR deals of `seed`. With several settings each profile
        is measured at its own worst (where LBR wins most against it): the difference per deal
        is LBR's chips at first's worst setting against first - at second's worst against
        second. `settings` ([(setting, parsed sets)]): those instead of the objective's (the
        re-scoring's, `_gate_lbr`). Returns (that score, the two worst settings {"first",
        "second"} when the config lists its settings or `settings` are given, else None).
        Without an LBR weight, the pool's alone (LBR is not played)."""
        weight = self.lbr["weight"]
        if weight <= 0:
            return pool, None
        hands = self.lbr["hands"]
        first_worst, first_results = self._worst_lbr(first, seed, hands, settings)
        second_worst, second_results = self._worst_lbr(second, seed, hands, settings)
        first_setting, first_result = first_results[first_worst]
        second_setting, second_result = second_results[second_worst]
        lbr = score_pairs(first_result.chips.sum(axis=1) - second_result.chips.sum(axis=1),
                          self.game.big_blind)
        worst = {"first": first_setting, "second": second_setting} \
            if self._lbr_listed or settings is not None else None
        return objective(pool, lbr, weight), worst

    def _gate_lbr(self, pool: Score, first: Profile, second: Profile,
                  seed: int) -> tuple[Score, dict | None]:
        """The re-scoring's `_with_lbr`: each profile at its worst of the objective's settings
        and the held-out ones (`lbr.held_out`, which the objective never plays). Without
        held-out settings, `_with_lbr` itself."""
        if not self._lbr_held_out:
            return self._with_lbr(pool, first, second, seed)
        return self._with_lbr(pool, first, second, seed, self._lbr_gate)

    # --- the found exploiters (`exploit`) ---------------------------------------------------------

    def _found(self, kept_only: bool = True) -> list[tuple[str, tuple]]:
        """(name, engine encoding) of the found exploiters, oldest first: with `kept_only` the
        last `exploit.keep` of them (0: all), the ones the objective uses."""
        entries = self.state.found
        keep = self.exploit["keep"]
        if kept_only and keep:
            entries = entries[-keep:]
        found = []
        for entry in entries:
            number = entry["search"]
            if number not in self._found_encoded:
                exploiter = exploiter_of(np.array(entry["vector"], dtype=np.float64),
                                         name=_found_name(number))
                self._found_encoded[number] = encode_strategy(exploiter)
            found.append((_found_name(number), self._found_encoded[number]))
        return found

    def _against_found(self, deals, path, profiles: list[Profile],
                       found: list[tuple[str, tuple]]) -> np.ndarray:
        """Each profile's raw chips per deal against each exploiter of `found`, in one run of the
        backend: [profiles, exploiters, deals]."""
        pairs = [(*encode_strategy(profile), *encoded) for profile in profiles
                 for _, encoded in found]
        chips = [result.raw for result in
                 self.backend.run(deals, str(path), self.rules, pairs, self.state.seed)]
        self.state.hands += 2 * len(deals) * len(pairs)
        return np.stack(chips).reshape(len(profiles), len(found), len(deals))

    def _exploit_difference(self, deals, path, first: Profile,
                            second: Profile) -> tuple[np.ndarray | None, dict | None]:
        """The found-exploiter term of a difference first - second on `deals` (`objective_pairs`):
        per deal, first's chips against first's worst found exploiter - second's against
        second's worst (`worst_found`, on these deals), and the two worsts' names {"first",
        "second"}. (None, None) while no exploiter is found or with `exploit.weight` 0 (nothing
        is played)."""
        found = self._found()
        if not found or self.exploit["weight"] <= 0:
            return None, None
        chips = self._against_found(deals, path, [first, second], found)
        first_worst, second_worst = worst_found(chips[0]), worst_found(chips[1])
        names = {"first": found[first_worst][0], "second": found[second_worst][0]}
        return chips[0, first_worst] - chips[1, second_worst], names

    def _search_due(self) -> bool:
        """Whether an exploiter search comes before the next step: before step 1 and before step
        k + 1 for k a positive multiple of `exploit.every` (the searches done count them)."""
        every = self.exploit["every"]
        return every > 0 and len(self.state.found) < 1 + self.state.step // every

    def _search(self) -> None:
        """Search n: an exploiter against the best profile (module docstring, 6), written to
        RUN_DIR/exploiters/found-NN.yaml, logged, kept in the state, checkpointed."""
        state, exploit = self.state, self.exploit
        number = len(state.found)
        seed = exploit["seed"] + number
        generations, deals = exploit["generations"], exploit["deals"]
        before = state.step + 1
        name = _found_name(number)
        self._say(f"searching an exploiter against the best (search {number}, {generations:,} "
                  f"generations, deal seed {seed})")

        def announce(count: int) -> None:
            self._say(f"computing the win rates of {count:,} deals for the search (deal seed "
                      f"{seed}): {_about(estimate_seconds(count, DEAL_CORE_SECONDS))}")

        started = time.perf_counter()
        settings = SearchSettings(training_deals=deals, validation_deals=deals // 2,
                                  held_out_deals=deals)
        result = search_exploiter(self.profile(state.best), self.game, seed=seed,
                                  seconds=math.inf, settings=settings, announce=announce,
                                  name=name, generations=generations)
        if result.interrupted:  # Ctrl-C: the run stops (resumed, it searches again, in full)
            raise KeyboardInterrupt
        score = result.held_out
        held_out = _score_dict(score)
        relative = f"exploiters/{name}.yaml"
        which = {"search": number, "before_step": before, "seed": seed}  # in every record of it
        record = {"run": str(self.run_dir), **which, "generations": result.generations,
                  "deals": deals, "held_out": held_out}
        exploiter = replace(
            result.exploiter,
            description=f"The exploiter that won most against the best profile of a "
                        f"gambler-train run before step {before}: {score.mbb_per_hand:+,.1f} ± "
                        f"{score.ci95_mbb:,.1f} mbb/hand on {score.hands:,} held-out hands, "
                        f"all-in adjusted.",
            provenance=f"Found by gambler-train in {self.run_dir} (run seed {state.seed}): "
                       f"search {number} against the best before step {before}, deal seed "
                       f"{seed}, {result.generations} generations (training/exploit.py).",
            extra={"search": record})
        (self.run_dir / "exploiters").mkdir(exist_ok=True)
        save_exploiter(exploiter, self.run_dir / relative)
        seconds = time.perf_counter() - started
        state.search_seconds += seconds
        state.found.append({**which, "file": relative, "held_out": held_out,
                            "vector": exploiter_vector(result.exploiter).tolist()})
        self._log({**which, "generations": result.generations, "held_out": held_out,
                   "file": relative, "seconds": seconds})
        self._say(f"search {number}: {name} wins {score.mbb_per_hand:+,.1f} ± "
                  f"{score.ci95_mbb:,.1f} mbb/hand against the best on {score.hands:,} held-out "
                  f"hands (all-in adjusted), in {format_duration(seconds)}; written to "
                  f"{self.run_dir / relative}")
        self.checkpoint()

    def _play_pairs(self, deals, path, pairs) -> list:
        """`Chips` of each (A, B) pair of strategies on `deals`: through the backend, except
        against a portfolio, which learns hand after hand and so plays whole matches in this
        process (`training.portfolio.chips_against`)."""
        from gambler.bot.portfolio import Portfolio
        from gambler.training.portfolio import chips_against

        results: list = [None] * len(pairs)
        fixed = [index for index, (_, b) in enumerate(pairs) if not isinstance(b, Portfolio)]
        if fixed:
            encoded = [(*encode_strategy(pairs[index][0]), *encode_strategy(pairs[index][1]))
                       for index in fixed]
            for index, chips in zip(fixed, self.backend.run(deals, str(path), self.rules,
                                                            encoded, self.state.seed)):
                results[index] = chips
        for index, (a, b) in enumerate(pairs):
            if isinstance(b, Portfolio):
                results[index] = chips_against(self.rules, a, b, deals, self.state.seed,
                                               self.game)
        return results

    def _entries(self, names: dict[str, float], best: Profile) -> list[tuple[str, object, float]]:
        """(name, strategy, weight) of each opponent a pool stands for, weights summing to 1:
        `best` is the best profile, `hall` the last `hall_of_fame` earlier bests (the most
        recent ones before the current best, oldest first), each with the hall's weight divided
        by how many there are (left out while there are none)."""
        entries = []
        for name, weight in names.items():
            if name == "best":
                entries.append((name, best, weight))
            elif name == "hall":
                hall = self.state.hall[-self.config.hall_of_fame:] \
                    if self.config.hall_of_fame else []
                for index, vector in enumerate(hall):
                    entries.append((f"hall{index}", self.profile(vector), weight / len(hall)))
            else:
                entries.append((name, self.fixed[name], weight))
        total = sum(weight for _, _, weight in entries)
        return [(name, strategy, weight / total) for name, strategy, weight in entries]

    def _scale_of(self, name: str) -> float:
        """s / s_o of `normalize` (1 without it): the opponent's weight in units of its spread."""
        if not self.config.normalize:
            return 1.0
        scales = self.state.scales
        spread = scales[name] if name in scales else scales["self"]  # best, hall0, hall1...
        return scales["mean"] / spread if spread > 0 else 1.0

    def _measure_scales(self) -> None:
        """s_o: the starting profile's spread against each opponent on the training deals (the
        run's own profiles, which it would only meet in self-play, where duplicate deals cancel
        exactly, take the mean of the others')."""
        config = self.config
        deals, path = self._deals(config.deal_seed, config.deals, "training deals")
        start = self.profile(self.state.best)
        names = sorted(self.fixed)
        self._say(f"measuring the start profile's spread against {len(names):,} opponents on "
                  f"{len(deals):,} training deals (for normalize)")
        results = self._play_pairs(deals, path, [(start, self.fixed[name]) for name in names])
        self.state.hands += 2 * len(deals) * len(names)
        spreads = {name: float(np.std(result.raw, ddof=1)) for name, result in zip(names, results)}
        weights = {**self.pool, **self.held_out}
        fixed_weight = sum(weights[name] for name in names)
        mean = sum(weights[name] * spreads[name] for name in names) / fixed_weight \
            if fixed_weight else 1.0
        self.state.scales = {**spreads, "self": mean, "mean": mean}

    def _objective_difference(self, deals, path, first: Profile, second: Profile,
                              names: dict[str, float], best: Profile) -> np.ndarray:
        """Per deal: the weighted (and normalized) difference first - second of their chips
        against the opponents in `names`."""
        entries = self._entries(names, best)
        pairs = [(first, strategy) for _, strategy, _ in entries] + \
            [(second, strategy) for _, strategy, _ in entries]
        chips = [result.raw for result in self._play_pairs(deals, path, pairs)]
        count = len(entries)
        self.state.hands += 2 * len(deals) * 2 * count
        weights = np.array([weight * self._scale_of(name) for name, _, weight in entries])
        return weights @ (np.stack(chips[:count]) - np.stack(chips[count:]))

    # --- the loop -------------------------------------------------------------------------------

    def run(self) -> Profile:
        config = self.config
        order = self.order
        total = self.state.target_steps or self.schedule_steps
        if self.notify is not None and not self.state.finished():
            self._say_set_up()
        train_deals, train_path = self._deals(config.deal_seed, config.deals, "training deals")
        if config.normalize and not self.state.scales:
            self._measure_scales()
        if self.state.best_score is None:  # the starting profile's score, for the progress line
            self._say(f"scoring the start profile ({config.start}) on the validation deals")
            self.state.best_score = self.validate(self.profile(self.state.best))
            self.checkpoint()
        if not self.state.finished():
            if self.state.target_steps is not None:
                target = f"of {self.state.target_steps:,}"
            else:
                left = self.state.target_seconds - self.state.elapsed - self.state.search_seconds
                target = f"({format_duration(left)} of steps to go)"
            self._say(f"set-up done; annealing from step {self.state.step + 1:,} {target}")
        while not self.state.finished():
            if self._search_due():
                self._search()
                continue  # (an --hours run may have run out of time in it)
            started = time.perf_counter()
            deal_seconds_before = self._deal_seconds
            state = self.state
            slot = (state.step // config.steps_per_parameter) % len(order)
            position = order[slot]
            heat = temperature(config, state.step, total)
            scale = config.proposal[self.kinds[position]] * heat / config.temperature_start
            current = np.array(state.current)
            best = self.profile(state.best)
            candidate = propose(current, position, scale, self.rng, self.labels)
            hands_before = state.hands
            first, second = self.profile(candidate), self.profile(current)
            weighted = self._objective_difference(train_deals, train_path, first, second,
                                                  self.pool, best)
            exploit, found_worst = self._exploit_difference(train_deals, train_path, first,
                                                            second)
            pairs = objective_pairs(weighted, exploit, self.exploit["weight"])
            delta, worst = self._with_lbr(score_pairs(pairs, self.game.big_blind), first,
                                          second, self.lbr["deal_seed"])
            if delta.mbb_per_hand >= 0:
                accept = True
            else:
                accept = bool(self.rng.random() < math.exp(delta.mbb_per_hand / heat))
            record = {"step": state.step + 1, "parameter": self.labels[position],
                      "old": float(current[position]), "proposed": float(candidate[position]),
                      "temperature": heat, "delta": _score_dict(delta), "accepted": accept}
            if worst is not None:  # each profile's worst LBR setting (`lbr.actions` a list)
                record["lbr_worst"] = {"proposal": worst["first"], "current": worst["second"]}
            if found_worst is not None:  # each profile's worst found exploiter
                record["exploit_worst"] = {"proposal": found_worst["first"],
                                           "current": found_worst["second"]}
            if accept:
                state.current = [float(value) for value in candidate]
                state.accepted += 1
                if delta.ci95_mbb > 0 or delta.mbb_per_hand != 0:  # some decision changed
                    record.update(self._rescore(candidate, best))
            seconds = time.perf_counter() - started
            state.elapsed += seconds
            hands = state.hands - hands_before
            playing = seconds - (self._deal_seconds - deal_seconds_before)  # deal sets apart
            record.update({"best_score": state.best_score["weighted"] if state.best_score
                           else None, "hands": hands, "seconds": seconds,
                           "hands_per_second": hands / playing if playing > 0 else 0.0})
            if playing < seconds:
                record["deal_set_seconds"] = seconds - playing
            state.step += 1
            restart = config.restart_after
            if restart and state.step - max(state.best_step, state.restarted_at) >= restart:
                state.current = list(state.best)  # back to the best (`restart_after`)
                state.restarted_at = state.step
                record["restarted"] = True
            self._log(record)
            self.checkpoint()
            if self.progress is not None:
                self.progress(record, state)
        return self.finish()

    def _rescore(self, candidate: np.ndarray, best: Profile) -> dict:
        """Candidate against the best so far on the next fresh deal set, against the pool and the
        held-out opponents, with the found-exploiter term on the same deals and LBR at the
        objective's and the held-out settings (`_gate_lbr`) on fresh LBR deals: does it gain
        there?"""
        config = self.config
        state = self.state
        fresh = 1 + state.fresh_index % config.fresh_sets
        seed = config.deal_seed + fresh
        state.fresh_index += 1
        deals, path = self._deals(seed, config.fresh_deals, f"fresh deals of set {fresh}")
        profile = self.profile(candidate)
        weighted = self._objective_difference(deals, path, profile, best,
                                              {**self.pool, **self.held_out}, best)
        exploit, found_worst = self._exploit_difference(deals, path, profile, best)
        pairs = objective_pairs(weighted, exploit, self.exploit["weight"])
        gain, worst = self._gate_lbr(score_pairs(pairs, self.game.big_blind), profile, best,
                                     self.lbr["deal_seed"] + fresh)
        improved = gain.mbb_per_hand > 0
        if improved:
            state.hall.append(list(state.best))
            state.best = [float(value) for value in candidate]
            state.best_score = self.validate(profile)
            state.best_step = state.step
            state.improvements += 1
        record = {"fresh_seed": seed, "fresh_gain": _score_dict(gain), "new_best": improved}
        if worst is not None:
            record["fresh_lbr_worst"] = {"candidate": worst["first"], "best": worst["second"]}
        if found_worst is not None:
            record["fresh_exploit_worst"] = {"candidate": found_worst["first"],
                                             "best": found_worst["second"]}
        return record

    def validate(self, profile: Profile) -> dict:
        """`profile` against each fixed opponent of the pool and the held-out ones on the
        validation deals: {"weighted": the objective, "opponents": {name: score}}; with an
        LBR weight "lbr": LBR's score at the profile's worst setting (the one where it wins
        most) with that setting's "actions" and its "seed" (and, when the config lists its
        settings, every setting's score by setting in "settings"), and with held-out LBR
        settings (`lbr.held_out`, not in the objective) each one's LBR score by setting in
        "lbr_held_out"; once exploiters are found, the profile's score against each of them by
        name in "exploiters" and (with an `exploit` weight) the worst of those the objective
        uses, on these deals, in "exploit_worst": the objective's term is the profile's chips
        against it (`objective_pairs`)."""
        config = self.config
        deals, path = self._deals(config.deal_seed + VALIDATION_OFFSET, config.fresh_deals,
                                  "validation deals")
        names = [name for name in {**self.pool, **self.held_out} if name not in SELF]
        chips = np.stack([result.raw for result in self._play_pairs(
            deals, path, [(profile, self.fixed[name]) for name in names])])
        self.state.hands += 2 * len(deals) * len(names)
        in_pool = [index for index, name in enumerate(names) if name in self.pool]
        weights = np.array([self.pool[names[index]] * self._scale_of(names[index])
                            for index in in_pool])
        weights = weights / np.array([self.pool[names[index]] for index in in_pool]).sum()
        big_blind = self.game.big_blind
        exploit, worst_name = None, None
        found = self._found(kept_only=False)
        if found:  # every found exploiter is reported; the objective's term takes the kept
            against = self._against_found(deals, path, [profile], found)[0]
            used = len(self._found())
            if self.exploit["weight"] > 0:
                worst = len(found) - used + worst_found(against[-used:])
                exploit, worst_name = against[worst], found[worst][0]
        weighted = score_pairs(objective_pairs(weights @ chips[in_pool], exploit,
                                               self.exploit["weight"]), big_blind)
        scores = {"weighted": _score_dict(weighted),
                  "opponents": {name: _score_dict(score_pairs(row, big_blind))
                                for name, row in zip(names, chips)},
                  "deals": f"{len(deals)} duplicate deals of seed "
                           f"{config.deal_seed + VALIDATION_OFFSET}"}
        if found:
            scores["exploiters"] = {name: _score_dict(score_pairs(row, big_blind))
                                    for (name, _), row in zip(found, against)}
            if worst_name is not None:
                scores["exploit_worst"] = worst_name
        weight = self.lbr["weight"]
        if weight > 0:  # the objective: the pool's weighted score - weight x LBR's winnings
            seed = self.lbr["deal_seed"] + VALIDATION_OFFSET
            worst, results = self._worst_lbr(profile, seed, self.lbr["hands"])
            scores["lbr"] = self._lbr_record(results, worst, seed)
            scores["weighted"] = _score_dict(objective(weighted, results[worst][1].score,
                                                       weight))
            if self._lbr_held_out:
                _, held_out = self._worst_lbr(profile, seed, self.lbr["hands"],
                                              self._lbr_held_out)
                scores["lbr_held_out"] = {setting: _score_dict(result.score)
                                          for setting, result in held_out}
        return scores

    def finish(self) -> Profile:
        """The best profile, scored on the validation deals against each opponent, saved (with
        LBR's report on it unless `report_lbr` is off)."""
        return self.save_best(report=self.report_lbr)

    def save_best(self, report: bool = True) -> Profile:
        """Write the best profile so far to RUN_DIR/best.yaml with its provenance and scores
        (and, with `report`, LBR's result against it): at the end, and on an interrupt.
        `training.seconds` is the run's wall time up to this write, every session's set-up and
        the LBR report included; `training.step_seconds` the time inside the steps alone."""
        state = self.state
        config = self.config
        best = self.profile(state.best)
        if state.best_score is None:
            state.best_score = self.validate(best)
        training = {"seed": state.seed, "config": state.config, "steps": state.step,
                    "accepted": state.accepted, "improvements": state.improvements,
                    "best_step": state.best_step, "hands_played": state.hands,
                    "step_seconds": round(state.elapsed, 1), "scores": state.best_score}
        if state.lbr_hands:
            training["lbr_hands_played"] = state.lbr_hands
        if state.found:  # the exploiter searches (`exploit`): what each won against the best
            training["exploiters"] = [{"search": entry["search"], "file": entry["file"],
                                       "before_step": entry["before_step"],
                                       "held_out": entry["held_out"]} for entry in state.found]
            training["search_seconds"] = round(state.search_seconds, 1)
        report_hands = self.lbr["report_hands"] if report else 0
        if report_hands:  # LBR against the result, on deals no step has seen
            seed = self.lbr["deal_seed"] + REPORT_OFFSET
            self._prepare_lbr(seed, report_hands)
            settings = self._lbr_settings
            named = settings[0] if len(settings) == 1 else \
                f"{len(settings)} settings: {'; '.join(settings)}"
            self._say(f"measuring LBR ({named}) against the best profile over "
                      f"{report_hands:,} hands (LBR seed {seed})")
            results = [(actions, run_lbr(best, self.game, report_hands, seed, sets))
                       for actions, sets in zip(settings, self._lbr_action_sets)]
            training["lbr"] = self._lbr_record(results, worst_setting(results), seed)
        self._update_wall()
        training["seconds"] = round(state.wall, 1)
        profile = Profile(best.rounds, name="trained",
                          description="Trained by gambler-train (per-parameter simulated "
                                      "annealing, duplicate self-play).",
                          provenance=f"gambler-train seed {state.seed}, start "
                                     f"{config.start}, {state.step} steps",
                          training=training, version=best.version, chart=best.chart,
                          chart_path=best.chart_path)
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

    def _update_wall(self) -> None:
        self.state.wall = self._wall_before + time.perf_counter() - self.session_started

    def checkpoint(self) -> None:
        self.state.rng = self.rng.bit_generator.state
        self._update_wall()
        _write_json_atomically(self.run_dir / CHECKPOINT, self.state.__dict__)


def load_state(run_dir: Path) -> RunState:
    """The state in `run_dir`'s checkpoint; a missing or damaged one raises `RunError`."""
    path = run_dir / CHECKPOINT
    try:
        payload = json.loads(path.read_text())
    except FileNotFoundError:
        raise RunError(f"{run_dir} has no {CHECKPOINT} to resume from") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise RunError(f"{path}: cannot read the checkpoint: {error}") from None
    try:
        return RunState(**payload)
    except TypeError as error:
        raise RunError(f"{path}: not a gambler-train checkpoint ({error})") from None


def _missing_deals(seed: int, count: int) -> int:
    """How many deals of the set (`seed`, deals 0 .. count - 1) the cache lacks."""
    try:
        cached_deal_set(seed, 0, count, announce=_stop)
    except _WouldCompute as probe:
        return probe.deals
    return 0


def _missing_holdings(seed: int, count: int) -> int:
    """How many of deals 0 .. count - 1 of `seed` lack LBR holding tables in the cache."""
    for start in range(0, count, HOLDINGS_CHUNK):
        try:
            cached_holding_rates(seed, start, min(HOLDINGS_CHUNK, count - start), _stop)
        except _WouldCompute:
            return count - start
    return 0


def format_duration(seconds: float) -> str:
    """`42 s`, `3 min 20 s`, `2 h 05 min`."""
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"
    if seconds < 3600:
        return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"
    return f"{int(seconds // 3600):,} h {int(seconds % 3600 // 60):02d} min"


def _about(seconds: float) -> str:
    """An estimate's wording: `about 18 s on 2 cores`."""
    import numba

    cores = numba.get_num_threads()
    return f"about {format_duration(seconds)} on {cores} core{'s' if cores != 1 else ''}"


def _found_name(number: int) -> str:
    """Search n's exploiter: `found-00`, `found-01`, ..."""
    return f"found-{number:02d}"


def _score_dict(score: Score) -> dict:
    return {"mbb_per_hand": round(score.mbb_per_hand, 3), "ci95_mbb": round(score.ci95_mbb, 3),
            "hands": score.hands}
