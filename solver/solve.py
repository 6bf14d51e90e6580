"""A solve: an abstract game, the MCCFR tables, batches run, checkpoints and the strategy.

`AbstractGame` joins a betting tree (`solver.betting`) and a chance model (`solver.deals`) and
lays out the tables (`mccfr.table_offsets`). `Solve` holds the cumulative regrets and the strategy
sum with the number of batches done, and runs further batches (`mccfr` module docstring: the
result depends on the seed, the batch size and the chunk count only, never on the cores or on
where a run was interrupted). `save_checkpoint` writes the tables and the count atomically (a
temporary file, then a rename), so a run killed at any moment resumes from its last checkpoint
and reaches the same strategy as one never interrupted.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from gambler.evaluator.tables import load_tables
from gambler.solver import mccfr
from gambler.solver.betting import DECISION, BettingTree
from gambler.solver.cards import BINOMIAL, PERMUTATIONS, CardAbstraction
from gambler.solver.deals import FiniteDeals
from gambler.solver.errors import SolverError


#: The tables' type: single precision halves the memory the traversals walk through (they are
#: bound by it), and regret matching needs no more.
TABLE_DTYPE = np.float32


@dataclass(frozen=True)
class SolveSettings:
    """How MCCFR runs: the weighting (`mccfr.WEIGHTINGS`) with DCFR's exponents, iterations per
    batch, parallel chunks per batch, and the seed."""

    weighting: str = "linear"
    alpha: float = 1.5
    beta: float = 0.0
    gamma: float = 2.0
    batch: int = 10_000
    chunks: int = 2
    seed: int = 0
    prune_below: float | None = None   # regret-based pruning's threshold in chips; None: off
    prune_share: float = 0.95          # the share of iterations that prune
    prune_after: int = 0               # batches before pruning starts

    def __post_init__(self):
        if self.weighting not in mccfr.WEIGHTINGS:
            raise SolverError(f"weighting {self.weighting!r}: expected one of "
                              f"{', '.join(mccfr.WEIGHTINGS)}")
        if self.batch < 1 or self.chunks < 1:
            raise SolverError("batch and chunks must be at least 1")
        if self.prune_below is not None and self.prune_below >= 0:
            raise SolverError(f"prune_below {self.prune_below:g}: a regret threshold must be "
                              "negative")
        if not 0 <= self.prune_share <= 1:
            raise SolverError(f"prune_share {self.prune_share:g}: a share from 0 to 1")

    def pruning(self, batch: int) -> tuple[float, float]:
        """(threshold, share) for batch number `batch` (-inf: no pruning)."""
        if self.prune_below is None or batch <= self.prune_after:
            return -np.inf, 0.0
        return float(self.prune_below), float(self.prune_share)


class ChunkWork(NamedTuple):
    """An abstract game's arrays as a batch's chunks read them: the tree's (`tree_arrays`), and
    the finite deal list's (buckets, result) or the card abstraction's (`card_arrays`)."""

    tree: tuple
    deals: tuple | None
    cards: tuple | None
    max_actions: int


def run_chunks(work: ChunkWork, regrets: np.ndarray, d_regrets: np.ndarray,
               d_strategy: np.ndarray, seed: int, batch: int, iterations: int, first_chunk: int,
               chunks: int, prune: tuple[float, float]) -> None:
    """Chunks first_chunk, ... (one per row of d_regrets) of batch `batch`, its `iterations`
    split over `chunks`: their deltas in d_regrets and d_strategy (`mccfr.finite_batch`)."""
    if work.deals is not None:
        mccfr.finite_batch(*work.tree, regrets, d_regrets, d_strategy, seed, batch, iterations,
                           first_chunk, chunks, *work.deals, work.max_actions, *prune)
    else:
        mccfr.holdem_batch(*work.tree, regrets, d_regrets, d_strategy, seed, batch, iterations,
                           first_chunk, chunks, work.max_actions, *work.cards, *prune)


class AbstractGame:
    """A betting tree and a chance model (a finite deal list, or a hold'em card abstraction
    that deals are drawn through), with the tables' layout."""

    def __init__(self, tree: BettingTree, chance: FiniteDeals | CardAbstraction):
        if len(chance.bucket_counts) != tree.game.num_rounds:
            raise SolverError("the chance model's rounds do not match the game's")
        if isinstance(chance, CardAbstraction) and not tree.game.is_heads_up_holdem:
            raise SolverError("a hold'em card abstraction needs heads-up hold'em")
        self.tree = tree
        self.deals = chance if isinstance(chance, FiniteDeals) else None
        self.cards = chance if isinstance(chance, CardAbstraction) else None
        self.bucket_counts = np.asarray(chance.bucket_counts, dtype=np.int64)
        self.offsets, self.size = mccfr.table_offsets(tree.kind, tree.round, tree.child_count,
                                                      self.bucket_counts)
        self.payoff0 = tree.payoff0.astype(np.float64)
        self.max_actions = int(tree.child_count.max())
        self._card_arrays = None

    def tree_arrays(self) -> tuple:
        tree = self.tree
        return (tree.kind, tree.player, tree.round, tree.child_start, tree.child_count,
                tree.children, self.payoff0, self.offsets)

    def card_arrays(self) -> tuple:
        """The card abstraction's arrays in `mccfr.holdem_batch`'s order."""
        if self._card_arrays is None:
            cards = self.cards
            self._card_arrays = (
                load_tables(), BINOMIAL, np.asarray(cards.preflop),
                np.asarray(cards.raw_to_row[0]), np.asarray(cards.raw_perm[0]),
                np.asarray(cards.raw_to_row[1]), np.asarray(cards.raw_perm[1]),
                np.asarray(cards.raw_to_row[2]), np.asarray(cards.raw_perm[2]), PERMUTATIONS,
                *(np.asarray(table) for table in cards.tables))
        return self._card_arrays

    def chunk_work(self) -> ChunkWork:
        """What a batch's chunks read besides the tables (`run_chunks`)."""
        deals = None if self.deals is None else (self.deals.buckets, self.deals.result)
        cards = None if self.cards is None else self.card_arrays()
        return ChunkWork(self.tree_arrays(), deals, cards, self.max_actions)

    def information_sets(self) -> int:
        decisions = self.tree.kind == DECISION
        return int(self.bucket_counts[self.tree.round[decisions]].sum())

    def fingerprint(self) -> str:
        """A hash of everything the tables' meaning depends on (tree and chance model)."""
        digest = hashlib.sha1()
        chance = ((self.deals.buckets, self.deals.result) if self.deals is not None
                  else (np.frombuffer(self.cards.spec.name().encode(), dtype=np.uint8),))
        for array in (*self.tree_arrays(), *chance, self.bucket_counts):
            digest.update(np.ascontiguousarray(array).tobytes())
        return digest.hexdigest()[:16]

    def describe(self) -> str:
        tree = self.tree
        per_round = ", ".join(f"{n:,}" for n in tree.decisions_per_round())
        size = 2 * np.dtype(TABLE_DTYPE).itemsize * self.size
        shown = f"{size / 1e6:,.1f} MB" if size >= 1e6 else f"{size / 1e3:,.1f} kB"
        return (f"{tree.nodes:,} betting nodes ({per_round} decisions per round), "
                f"{self.information_sets():,} information sets, {self.size:,} table entries "
                f"({shown} of regrets and strategy sums)")


class Solve:
    """The MCCFR state of one abstract game under one `SolveSettings`."""

    def __init__(self, game: AbstractGame, settings: SolveSettings):
        self.game = game
        self.settings = settings
        self.regrets = np.zeros(game.size, dtype=TABLE_DTYPE)
        self.strategy_sum = np.zeros(game.size, dtype=TABLE_DTYPE)
        self.batches = 0
        self.extra: dict = {}
        self._d_regrets = None
        self._d_strategy = None

    @property
    def iterations(self) -> int:
        return self.batches * self.settings.batch

    def compile(self) -> None:
        """Compile (or load) the kernels: a batch of no iterations, its tables unchanged, so a
        run's clock counts solving alone."""
        self._ensure_deltas()
        run_chunks(self.game.chunk_work(), self.regrets, self._d_regrets, self._d_strategy,
                   self.settings.seed, 1, 0, 0, self.settings.chunks, (-np.inf, 0.0))
        empty = np.zeros(0, dtype=TABLE_DTYPE)
        mccfr.merge_batch(empty, empty.copy(), np.zeros((1, 0), dtype=TABLE_DTYPE),
                          np.zeros((1, 0), dtype=TABLE_DTYPE), 0, 1, 1.5, 0.0, 2.0)

    def _ensure_deltas(self) -> None:
        if self._d_regrets is None:
            shape = (self.settings.chunks, self.game.size)
            self._d_regrets = np.zeros(shape, dtype=TABLE_DTYPE)
            self._d_strategy = np.zeros(shape, dtype=TABLE_DTYPE)

    def run_batches(self, count: int, cluster=None) -> None:
        """Run `count` batches here, or with each batch's chunks on `cluster` (a
        `solver.cluster.SolveCluster`): the same tables either way."""
        settings = self.settings
        self._ensure_deltas()
        weighting = mccfr.WEIGHTINGS[settings.weighting]
        work = self.game.chunk_work() if cluster is None else None
        for _ in range(count):
            batch = self.batches + 1
            prune = settings.pruning(batch)
            if cluster is None:
                run_chunks(work, self.regrets, self._d_regrets, self._d_strategy, settings.seed,
                           batch, settings.batch, 0, settings.chunks, prune)
            else:
                cluster.run_chunks(self.regrets, self._d_regrets, self._d_strategy,
                                   settings.seed, batch, settings.batch, prune)
            mccfr.merge_batch(self.regrets, self.strategy_sum, self._d_regrets,
                              self._d_strategy, weighting, batch, settings.alpha, settings.beta,
                              settings.gamma)
            self.batches = batch

    def policy(self) -> np.ndarray:
        """The average strategy, laid out as the tables."""
        game = self.game
        tree = game.tree
        return mccfr.average_policy(tree.kind, tree.round, tree.child_count, game.offsets,
                                    game.bucket_counts, self.strategy_sum)

    # --- checkpoints ----------------------------------------------------------------------------

    def save_checkpoint(self, path: Path, extra: dict | None = None) -> None:
        """Write the state to `path` atomically (`path.tmp`, flushed, then renamed), with
        `extra` (JSON) for the caller (`load_checkpoint` returns it as `solve.extra`)."""
        path = Path(path)
        temporary = path.with_name(path.name + ".tmp")
        meta = json.dumps({"fingerprint": self.game.fingerprint(),
                           "settings": asdict(self.settings), "batches": self.batches,
                           "extra": extra or {}})
        with open(temporary, "wb") as stream:
            np.savez(stream, regrets=self.regrets, strategy_sum=self.strategy_sum,
                     meta=np.frombuffer(meta.encode(), dtype=np.uint8))
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)

    @classmethod
    def load_checkpoint(cls, path: Path, game: AbstractGame) -> Solve:
        """The state saved at `path`, for `game` (`SolverError` if it was another game's)."""
        path = Path(path)
        try:
            with np.load(path) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                regrets, strategy_sum = data["regrets"], data["strategy_sum"]
        except (OSError, ValueError, KeyError) as error:
            raise SolverError(f"{path}: not a readable checkpoint ({error})") from None
        if meta["fingerprint"] != game.fingerprint() or regrets.shape != (game.size,):
            raise SolverError(f"{path}: the checkpoint is of another abstract game (its tree or "
                              "its buckets differ)")
        solve = cls(game, SolveSettings(**meta["settings"]))
        solve.regrets = np.array(regrets, dtype=TABLE_DTYPE)
        solve.strategy_sum = np.array(strategy_sum, dtype=TABLE_DTYPE)
        solve.batches = int(meta["batches"])
        solve.extra = meta.get("extra", {})
        return solve


def exploitability(game: AbstractGame, policy: np.ndarray) -> tuple[float, float, float]:
    """(position 0's value when both play `policy`, best response values of positions 0 and 1)
    in chips per hand, on the game's finite deal list (`mccfr.best_response_value`)."""
    tree = game.tree
    arrays = (tree.kind, tree.player, tree.round, tree.child_start, tree.child_count,
              tree.children, game.payoff0, game.offsets, policy, game.deals.buckets,
              game.deals.result, game.bucket_counts)
    value = mccfr.best_response_value(-1, *arrays)
    return (float(value), float(mccfr.best_response_value(0, *arrays)),
            float(mccfr.best_response_value(1, *arrays)))


def sampled_deals(game: AbstractGame, count: int, seed: int) -> FiniteDeals:
    """`count` random deals of a hold'em card abstraction's game, as a finite deal list (each
    equally likely): the abstract game restricted to them."""
    buckets, result = mccfr.sample_holdem_deals(seed, count, *game.card_arrays())
    return FiniteDeals(buckets, result, np.asarray(game.bucket_counts), kind="sampled")


class ResponseEstimates(NamedTuple):
    """Best responses to a strategy on sampled deals (`sampled_exploitability`), chips a hand."""

    value: float                      # position 0's value when both play the strategy
    held_out: tuple[float, float]     # each position's response, scored on other deals
    in_sample: tuple[float, float]    # the same responses on the deals they were found on

    @property
    def lower(self) -> float:
        """Exploitability >= this (up to the sampling error of the held-out deals)."""
        return sum(self.held_out) / 2

    @property
    def upper(self) -> float:
        """The in-sample responses overfit the deals: an estimate from above."""
        return sum(self.in_sample) / 2


def sampled_exploitability(game: AbstractGame, policy: np.ndarray, deals: int = 20_000,
                           seed: int = 1) -> ResponseEstimates:
    """Exploitability inside a hold'em card abstraction, where no exact best response can be
    computed (the deals are too many to list), estimated from both sides. For each position a
    best response (`mccfr.best_response_policy`, one action per information set, as the
    abstraction's imperfect recall allows) is found on `deals` random deals of `seed`. On those
    deals its value overstates what it would win (it fits their luck: `in_sample`); played
    against `policy` on `deals` other deals (seed + 1) its value is an unbiased estimate of a
    real response's, so exploitability is at least about their mean (`held_out`). With few deals
    per information set the gap is wide and the held-out response can even lose."""
    tree = game.tree
    train, test = sampled_deals(game, deals, seed), sampled_deals(game, deals, seed + 1)
    shape = (tree.kind, tree.player, tree.round, tree.child_start, tree.child_count,
             tree.children, game.payoff0, game.offsets)
    policy = np.asarray(policy, dtype=np.float64)
    held_out, in_sample = [], []
    for responder in (0, 1):
        response, fitted = mccfr.best_response_policy(responder, *shape, policy, train.buckets,
                                                      train.result, game.bucket_counts)
        own = mccfr.best_response_value(-1, *shape, response, test.buckets, test.result,
                                        game.bucket_counts)
        held_out.append(float(own if responder == 0 else -own))
        in_sample.append(float(fitted))
    both = mccfr.best_response_value(-1, *shape, policy, test.buckets, test.result,
                                     game.bucket_counts)
    return ResponseEstimates(float(both), tuple(held_out), tuple(in_sample))
