"""A hold'em card abstraction for tests: the real preflop classes and board lookups, random
postflop buckets. Any table is a valid abstraction (each hand on each board gets a bucket), and
this one takes seconds where building a real one takes minutes."""

from __future__ import annotations

import numpy as np


def synthetic_card_abstraction(buckets: int = 3, seed: int = 0):
    from gambler.evaluator.preflop import class_indices
    from gambler.solver.cards import (BINOMIAL, PERMUTATIONS, CardAbstraction,
                                      CardAbstractionSpec, canonical_boards)

    rng = np.random.default_rng(seed)
    canon = [canonical_boards(count, BINOMIAL, PERMUTATIONS) for count in (3, 4, 5)]
    tables = tuple(rng.integers(0, buckets, (rows[2].shape[0], 1326), dtype=np.uint8)
                   for rows in canon)
    firsts, seconds = np.triu_indices(52, 1)
    pairs = np.stack([firsts, seconds], axis=1)
    order = np.argsort(seconds * (seconds - 1) // 2 + firsts)
    return CardAbstraction(CardAbstractionSpec(buckets, buckets, buckets, seed=seed),
                           class_indices(pairs[order]).astype(np.uint16),
                           tuple(rows[0] for rows in canon), tuple(rows[1] for rows in canon),
                           tables)
