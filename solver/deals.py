"""Chance in the abstract game: deals, and what each player knows of them round by round.

The kernels see a deal only through

    buckets[d, position, round]   the position's card bucket in that round (its information:
                                  the solver's information set is (betting node, bucket))
    result[d]                     the showdown: +1 position 0 wins, -1 position 1 wins, 0 a split

A `FiniteDeals` lists deals that are equally likely (a deal may appear several times), so that
the expected value of a strategy profile is their mean: exact for a game small enough to list
every deal (`lossless_deals`: Kuhn poker, Leduc hold'em and other small ACPC games, each bucket
one player's exact cards), and for larger games the abstract game whose chance is a fixed sample
of deals. The buckets are lossless there: bucket r of a position is the index of (its hole cards,
the board through round r), cards sorted within each round, so the information sets are exactly
the real game's and have perfect recall.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from gambler.protocol.gamedef import Game
from gambler.protocol.showdown import hand_strength
from gambler.solver.errors import SolverError


@dataclass(frozen=True)
class FiniteDeals:
    """Equally likely deals: `buckets[d, position, round]`, `result[d]`, buckets per round."""

    buckets: np.ndarray          # int32 [deals, 2, rounds]
    result: np.ndarray           # int8 [deals]
    bucket_counts: np.ndarray    # int64 [rounds]
    labels: tuple[tuple[tuple[int, ...], ...], ...] = ()  # per round, per bucket: its cards
    kind: str = "lossless"       # how a bucket is found from cards: lossless, categories, sampled

    @property
    def deals(self) -> int:
        return int(self.result.shape[0])


def lossless_deals(game: Game, max_deals: int = 2_000_000) -> FiniteDeals:
    """Every deal of a small heads-up game, each player's bucket its exact cards per round."""
    if game.num_players != 2:
        raise SolverError("lossless deals are for heads-up games")
    deck = game.deck
    hole, rounds = game.num_hole_cards, game.num_rounds
    board = game.board_cards_through(rounds - 1)
    needed = 2 * hole + board
    count = 1
    for taken in range(needed):
        count *= len(deck) - taken
    if needed > len(deck) or count > max_deals:
        raise SolverError(f"{game.source}: {count:,} ordered deals is too many to list "
                          f"(at most {max_deals:,}): the game needs a card abstraction")
    index: list[dict[tuple, int]] = [{} for _ in range(rounds)]
    labels: list[list[tuple[int, ...]]] = [[] for _ in range(rounds)]
    buckets, results = [], []
    cuts = [game.board_cards_through(r) for r in range(rounds)]
    for cards in itertools.permutations(deck, needed):
        holes = (tuple(sorted(cards[:hole])), tuple(sorted(cards[hole:2 * hole])))
        table = cards[2 * hole:]
        row = []
        for position in range(2):
            per_round = []
            for round_ in range(rounds):
                seen = holes[position]
                start = 0
                for r in range(round_ + 1):
                    seen = seen + tuple(sorted(table[start:cuts[r]]))
                    start = cuts[r]
                bucket = index[round_].setdefault(seen, len(index[round_]))
                if bucket == len(labels[round_]):
                    labels[round_].append(seen)
                per_round.append(bucket)
            row.append(per_round)
        buckets.append(row)
        strengths = [hand_strength(holes[p] + tuple(table)) for p in range(2)]
        results.append(0 if strengths[0] == strengths[1] else
                       1 if strengths[0] > strengths[1] else -1)
    return FiniteDeals(buckets=np.array(buckets, dtype=np.int32),
                       result=np.array(results, dtype=np.int8),
                       bucket_counts=np.array([len(i) for i in index], dtype=np.int64),
                       labels=tuple(tuple(per) for per in labels))


def category_deals(game: Game, deals: int, seed: int) -> FiniteDeals:
    """A small hold'em abstraction with perfect recall, on `deals` deals drawn once (seeded):
    preflop, the tercile of the hand's class by its preflop v (`evaluator.preflop`); on each
    later round, the made hand's category grouped as nothing, one pair, better, appended to the
    round before (3, 9, 27, 81 buckets). Its chance is the fixed deal sample, so its best response
    is exact (`mccfr.best_response_value`): the abstract game a solver's exploitability can be
    measured in, small enough for a test."""
    from gambler.evaluator.hand_rank import rank_hands

    if not game.is_heads_up_holdem:
        raise SolverError("category deals are for heads-up hold'em")
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((deals, 52)), axis=1)[:, :9].astype(np.uint8)
    holes = (cards[:, 0:2], cards[:, 2:4])
    board = cards[:, 4:9]
    buckets = np.zeros((deals, 2, 4), dtype=np.int32)
    values = []
    for position, hole in enumerate(holes):
        buckets[:, position] = category_buckets(hole, board)
        values.append(rank_hands(np.concatenate([hole, board], axis=1)))
    result = np.sign(values[0].astype(np.int64) - values[1].astype(np.int64)).astype(np.int8)
    return FiniteDeals(buckets=buckets, result=result,
                       bucket_counts=np.array([3, 9, 27, 81], dtype=np.int64),
                       kind="categories")


def category_buckets(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """`category_deals`' buckets [n, rounds] of hands `holes` [n, 2] on `boards` [n, k]: the
    rounds whose board cards are all there (k = 0, 3, 4 or 5)."""
    from gambler.evaluator.hand_rank import hand_category, rank_hands
    from gambler.evaluator.preflop import class_indices, class_preflop_v

    holes = np.asarray(holes, dtype=np.uint8).reshape(-1, 2)
    boards = np.asarray(boards, dtype=np.uint8).reshape(holes.shape[0], -1)
    v = class_preflop_v()
    cuts = np.quantile(v, [1 / 3, 2 / 3])
    shown_rounds = [shown for shown in (3, 4, 5) if shown <= boards.shape[1]]
    out = np.zeros((holes.shape[0], 1 + len(shown_rounds)), dtype=np.int32)
    out[:, 0] = np.searchsorted(cuts, v[class_indices(holes)])
    for round_, shown in enumerate(shown_rounds, start=1):
        made = hand_category(rank_hands(np.concatenate([holes, boards[:, :shown]], axis=1)))
        out[:, round_] = out[:, round_ - 1] * 3 + np.minimum(made, 2)
    return out
