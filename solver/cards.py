"""The card abstraction for heads-up hold'em: each hand's bucket in each round, from the evaluator.

Rounds and their buckets:

* preflop: the 169 classes of starting hands (`evaluator.preflop`), lossless;
* river: hand strength E[HS], the share of the opponent's hands beaten (ties counting one half)
  against a uniformly random hand, with card removal; buckets are equal-mass quantiles of E[HS]
  over every (board, hand) of the real game;
* turn: k-means over each hand's distribution of river E[HS] over the 46 river cards (a
  histogram of `BINS` equal-width bins, compared as cumulative distributions in L2: the earth
  mover's distance of Johanson et al. 2013 between one-dimensional histograms is the L1 distance
  of their cumulative forms). Because the river buckets lie on a line (E[HS]), the turn's
  potential-aware histogram over river buckets and its hand-strength distribution coincide;
* flop: k-means over two distributions of each hand: its turn strength (the turn's mean E[HS],
  over the 47 turn cards) and its final strength (the mean of its turns' centroids: the
  distribution of river E[HS] two cards ahead), both cumulative, `2 * BINS` values in L2. This
  stands in for Johanson's potential-aware histogram over turn clusters, whose earth mover's
  distance between clusters costs orders of magnitude more to cluster with.

Suit isomorphism keeps the tables small: a board is replaced by its canonical form (the suit
relabelling, of the 24, that gives the smallest colex index), the hand's cards relabelled the same
way. A round's table is then `bucket[canonical board, hand pair index]` (1,755 flops, 16,432 turns
and 134,459 rivers, by 1,326 pairs, a byte an entry up to 256 buckets); `raw_to_canonical[colex(board)]` and
`raw_permutations[colex(board)]` find a board's row and the relabellings that map it there (a
bit mask; more than one when the board is symmetric, e.g. a suit it lacks); of those, the one
giving the hand's smallest pair index is used, so that hands the board cannot tell apart share
one entry and every lookup is unchanged by relabelling the suits.

colex(c_1 < ... < c_k) = sum_i C(c_i, i): every k-card set of the 52 has its own index in
0..C(52, k) - 1; a pair's index is colex of its two cards (0..1325).

k-means: Lloyd's algorithm from a k-means++ start (Arthur and Vassilvitskii 2007), fitted on a
sample of points drawn by their weight (how many real (board, hand) pairs each canonical point
stands for), then every point is assigned its nearest centroid. Seeded: the same settings give
the same tables.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import numpy as np
from numba import prange

from gambler.evaluator.hand_rank import hand_value
from gambler.evaluator.preflop import class_indices
from gambler.evaluator.tables import SUIT_COUNTERS_START, load_tables
from gambler.jit import helper, njit
from gambler.solver.errors import SolverError

BINS = 20
#: The tables' format; a change to how they are computed bumps it, so that no cache of an older
#: format is read.
FORMAT = 2
EHS_LEVELS = 65536  # river E[HS] is kept as a uint16 level: round(E[HS] * 65535)
PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def binomials(top: int = 53, width: int = 8) -> np.ndarray:
    table = np.zeros((top, width), dtype=np.int64)
    for n in range(top):
        table[n, 0] = 1
        for k in range(1, min(n, width - 1) + 1):
            table[n, k] = table[n - 1, k - 1] + (table[n - 1, k] if k <= n - 1 else 0)
    return table


BINOMIAL = binomials()


@helper
def colex(cards, count, binomial):
    """colex index of the first `count` entries of `cards`, sorted ascending in place."""
    for i in range(1, count):  # insertion sort: count <= 7
        card = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > card:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card
    index = 0
    for i in range(count):
        index += binomial[cards[i], i + 1]
    return index


@helper
def pair_index(first, second):
    high = max(first, second)
    low = min(first, second)
    return high * (high - 1) // 2 + low


@njit
def canonical_boards(count, binomial, permutations):
    """For every `count`-card board by colex index: its canonical row and the set (a bit mask
    over `permutations`) of the relabellings that map it there; and the canonical boards
    (sorted cards) with how many raw boards each stands for."""
    total = binomial[52, count]
    smallest = np.empty(total, dtype=np.int64)
    chosen = np.zeros(total, dtype=np.uint32)
    cards = np.empty(count, dtype=np.int64)
    mapped = np.empty(count, dtype=np.int64)
    for i in range(count):
        cards[i] = i
    for raw in range(total):
        best = total
        mask = np.uint32(0)
        for p in range(permutations.shape[0]):
            for i in range(count):
                mapped[i] = (cards[i] // 4) * 4 + permutations[p, cards[i] % 4]
            index = colex(mapped, count, binomial)
            if index < best:
                best = index
                mask = np.uint32(0)
            if index == best:
                mask |= np.uint32(1) << np.uint32(p)
        smallest[raw] = best
        chosen[raw] = mask
        # next combination in colex order
        i = 0
        while i < count - 1 and cards[i] + 1 == cards[i + 1]:
            cards[i] = i
            i += 1
        cards[i] += 1
    row_of = np.full(total, -1, dtype=np.int32)
    rows = 0
    for raw in range(total):
        if smallest[raw] == raw:
            row_of[raw] = rows
            rows += 1
    raw_to_row = np.empty(total, dtype=np.int32)
    weights = np.zeros(rows, dtype=np.int64)
    for raw in range(total):
        raw_to_row[raw] = row_of[smallest[raw]]
        weights[raw_to_row[raw]] += 1
    boards = np.empty((rows, count), dtype=np.int64)
    for i in range(count):
        cards[i] = i
    for raw in range(total):
        if row_of[raw] >= 0:
            boards[row_of[raw]] = cards
        i = 0
        while i < count - 1 and cards[i] + 1 == cards[i + 1]:
            cards[i] = i
            i += 1
        cards[i] += 1
    return raw_to_row, chosen, boards, weights


@njit(parallel=True)
def river_strength(tables, boards):
    """E[HS] level (uint16) of every pair on every canonical river board (65535 where the pair
    meets the board: never looked up)."""
    rows = boards.shape[0]
    out = np.full((rows, 1326), 65535, dtype=np.uint16)
    for row in prange(rows):
        used = np.zeros(52, dtype=np.bool_)
        key = SUIT_COUNTERS_START
        bits = 0
        for i in range(5):
            used[boards[row, i]] = True
            key += tables.card_keys[boards[row, i]]
            bits |= tables.card_bits[boards[row, i]]
        firsts = np.empty(1081, dtype=np.int64)
        seconds = np.empty(1081, dtype=np.int64)
        values = np.empty(1081, dtype=np.int64)
        n = 0
        for a in range(52):
            if used[a]:
                continue
            for b in range(a + 1, 52):
                if used[b]:
                    continue
                firsts[n] = a
                seconds[n] = b
                values[n] = hand_value(tables, key + tables.card_keys[a] + tables.card_keys[b],
                                       bits | tables.card_bits[a] | tables.card_bits[b])
                n += 1
        order = np.argsort(values)
        below_card = np.zeros(52, dtype=np.int64)
        group_card = np.zeros(52, dtype=np.int64)
        below = 0
        start = 0
        while start < n:
            end = start
            while end < n and values[order[end]] == values[order[start]]:
                end += 1
            for i in range(start, end):
                h = order[i]
                group_card[firsts[h]] += 1
                group_card[seconds[h]] += 1
            size = end - start
            for i in range(start, end):
                h = order[i]
                a, b = firsts[h], seconds[h]
                wins = below - below_card[a] - below_card[b]
                ties = size - group_card[a] - group_card[b] + 1
                strength = (wins + 0.5 * ties) / 990.0
                out[row, pair_index(a, b)] = np.uint16(round(strength * 65535.0))
            for i in range(start, end):
                h = order[i]
                below_card[firsts[h]] += 1
                below_card[seconds[h]] += 1
                group_card[firsts[h]] = 0
                group_card[seconds[h]] = 0
            below += size
            start = end
    return out


@helper
def _lookup_row(board, count, binomial, raw_to_row, raw_perm, permutations, first, second,
                scratch):
    """(canonical row, canonical pair index) of a board of `count` cards and a pair: among the
    relabellings that map the board to its canonical form, the one giving the smallest pair
    index, so that hands the board cannot tell apart share one entry."""
    for i in range(count):
        scratch[i] = board[i]
    raw = colex(scratch, count, binomial)
    mask = raw_perm[raw]
    best = 1326
    for p in range(permutations.shape[0]):
        if (mask >> np.uint32(p)) & np.uint32(1):
            a = (first // 4) * 4 + permutations[p, first % 4]
            b = (second // 4) * 4 + permutations[p, second % 4]
            index = pair_index(a, b)
            if index < best:
                best = index
    return raw_to_row[raw], best


@njit(parallel=True)
def turn_histograms(boards4, binomial, raw_to_row5, raw_perm5, permutations, river_ehs, bins):
    """Per canonical turn board and pair: the histogram (counts over `bins` equal-width bins) of
    river E[HS] over the 46 river cards, and the mean river E[HS] (0 where the pair meets the
    board)."""
    rows = boards4.shape[0]
    histograms = np.zeros((rows, 1326, bins), dtype=np.uint8)
    means = np.zeros((rows, 1326), dtype=np.float32)
    for row in prange(rows):
        used = np.zeros(52, dtype=np.bool_)
        board = np.empty(5, dtype=np.int64)
        scratch = np.empty(5, dtype=np.int64)
        for i in range(4):
            used[boards4[row, i]] = True
            board[i] = boards4[row, i]
        for a in range(52):
            if used[a]:
                continue
            for b in range(a + 1, 52):
                if used[b]:
                    continue
                pair = pair_index(a, b)
                total = 0.0
                for river in range(52):
                    if used[river] or river == a or river == b:
                        continue
                    board[4] = river
                    r, p = _lookup_row(board, 5, binomial, raw_to_row5, raw_perm5, permutations,
                                       a, b, scratch)
                    level = river_ehs[r, p]
                    total += level
                    histograms[row, pair, min(level * bins // 65536, bins - 1)] += 1
                means[row, pair] = total / (46.0 * 65535.0)
    return histograms, means


@njit(parallel=True)
def flop_features(boards3, binomial, raw_to_row4, raw_perm4, permutations, turn_bucket,
                  turn_mean, turn_centroids, bins):
    """Per canonical flop and pair: [the cumulative distribution of its turn mean E[HS] over the
    47 turn cards, the mean of its turns' centroids (cumulative)], 2 * bins values."""
    rows = boards3.shape[0]
    features = np.zeros((rows, 1326, 2 * bins), dtype=np.float32)
    for row in prange(rows):
        used = np.zeros(52, dtype=np.bool_)
        board = np.empty(4, dtype=np.int64)
        scratch = np.empty(4, dtype=np.int64)
        for i in range(3):
            used[boards3[row, i]] = True
            board[i] = boards3[row, i]
        counts = np.zeros(bins)
        mean_cdf = np.zeros(bins)
        for a in range(52):
            if used[a]:
                continue
            for b in range(a + 1, 52):
                if used[b]:
                    continue
                counts[:] = 0.0
                mean_cdf[:] = 0.0
                for turn in range(52):
                    if used[turn] or turn == a or turn == b:
                        continue
                    board[3] = turn
                    r, p = _lookup_row(board, 4, binomial, raw_to_row4, raw_perm4, permutations,
                                       a, b, scratch)
                    counts[min(int(turn_mean[r, p] * bins), bins - 1)] += 1.0
                    mean_cdf += turn_centroids[turn_bucket[r, p]]
                pair = pair_index(a, b)
                running = 0.0
                for i in range(bins):
                    running += counts[i] / 47.0
                    features[row, pair, i] = running
                    features[row, pair, bins + i] = mean_cdf[i] / 47.0
    return features


@njit(parallel=True)
def nearest(points, centroids):
    """Index of the nearest centroid (L2) of each point."""
    out = np.empty(points.shape[0], dtype=np.int64)
    k, dims = centroids.shape
    for i in prange(points.shape[0]):
        best = np.inf
        choice = 0
        for c in range(k):
            distance = 0.0
            for d in range(dims):
                gap = points[i, d] - centroids[c, d]
                distance += gap * gap
            if distance < best:
                best = distance
                choice = c
        out[i] = choice
    return out


@helper
def _lcg(state):
    """One step of a 64-bit linear congruential generator: (new state, uniform in [0, 1))."""
    state = state * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
    return state, (state >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit
def _plus_plus(points, k, seed):
    """k-means++ initial centroids from `points` (drawn in proportion to squared distance)."""
    state = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(1)
    n, dims = points.shape
    centroids = np.empty((k, dims), dtype=np.float64)
    distances = np.full(n, np.inf)
    state, u = _lcg(state)
    centroids[0] = points[min(int(u * n), n - 1)]
    for c in range(1, k):
        total = 0.0
        for i in range(n):
            distance = 0.0
            for d in range(dims):
                gap = points[i, d] - centroids[c - 1, d]
                distance += gap * gap
            if distance < distances[i]:
                distances[i] = distance
            total += distances[i]
        state, u = _lcg(state)
        target = u * total
        running = 0.0
        pick = n - 1
        for i in range(n):
            running += distances[i]
            if running >= target:
                pick = i
                break
        centroids[c] = points[pick]
    return centroids


def kmeans(points: np.ndarray, k: int, seed: int, iterations: int = 30) -> np.ndarray:
    """Lloyd's k-means from a k-means++ start; returns the centroids (k x dims)."""
    if points.shape[0] < k:
        raise SolverError(f"k-means with {k} clusters needs at least {k} points")
    centroids = _plus_plus(points.astype(np.float64), k, seed)
    for _ in range(iterations):
        labels = nearest(points, centroids)
        sums = np.zeros_like(centroids)
        np.add.at(sums, labels, points)
        counts = np.bincount(labels, minlength=k).astype(np.float64)
        moved = sums[counts > 0] / counts[counts > 0, None]
        if np.allclose(moved, centroids[counts > 0], atol=1e-7) and counts.all():
            break
        centroids[counts > 0] = moved
    return centroids


def valid_points(boards: np.ndarray) -> np.ndarray:
    """A [rows, 1326] mask: the pair shares no card with the board."""
    firsts, seconds = np.triu_indices(52, 1)
    order = np.argsort(seconds * (seconds - 1) // 2 + firsts)
    firsts, seconds = firsts[order], seconds[order]
    mask = np.ones((boards.shape[0], 1326), dtype=bool)
    for column in range(boards.shape[1]):
        mask &= boards[:, column, None] != firsts[None, :]
        mask &= boards[:, column, None] != seconds[None, :]
    return mask


def weighted_sample(mask: np.ndarray, weights: np.ndarray, size: int, rng) -> np.ndarray:
    """Flat indices of `size` valid points drawn by their board's weight."""
    rows, pairs = np.nonzero(mask)
    chances = weights[rows].astype(np.float64)
    chosen = rng.choice(rows.shape[0], size=min(size, rows.shape[0]), replace=False,
                        p=chances / chances.sum())
    return rows[chosen] * 1326 + pairs[chosen]


@njit
def _level_mass(levels, valid, weights):
    mass = np.zeros(EHS_LEVELS)
    for row in range(levels.shape[0]):
        for pair in range(levels.shape[1]):
            if valid[row, pair]:
                mass[levels[row, pair]] += weights[row]
    return mass


def quantile_buckets(levels: np.ndarray, valid: np.ndarray, weights: np.ndarray,
                     buckets: int) -> np.ndarray:
    """level -> bucket: equal-mass quantiles of the levels of valid points, weighted by their
    board's weight (a level's bucket is where the middle of its mass falls)."""
    mass = _level_mass(levels, valid, weights.astype(np.float64))
    cumulative = np.cumsum(mass) / mass.sum()
    middle = cumulative - mass / mass.sum() / 2
    return np.minimum((middle * buckets).astype(np.int64), buckets - 1).astype(np.uint16)


@dataclass(frozen=True)
class CardAbstractionSpec:
    """Buckets per postflop round, the k-means sample size and iterations, and the seed."""

    flop: int = 200
    turn: int = 200
    river: int = 200
    sample: int = 200_000
    iterations: int = 25
    seed: int = 0

    def __post_init__(self):
        for name in ("flop", "turn", "river"):
            value = getattr(self, name)
            if not 2 <= value <= 65535:
                raise SolverError(f"cards.{name}: {value} buckets (2 to 65535)")

    def name(self) -> str:
        """The cache folder's name: the settings and the tables' format version."""
        return (f"holdem-v{FORMAT}-{self.flop}-{self.turn}-{self.river}-s{self.sample}"
                f"-i{self.iterations}-r{self.seed}")


@dataclass
class CardAbstraction:
    """The lookup tables of a hold'em card abstraction (see the module docstring)."""

    spec: CardAbstractionSpec
    preflop: np.ndarray           # uint16[1326]: class per pair index
    raw_to_row: tuple             # per board size 3, 4, 5: int32[C(52, k)]
    raw_perm: tuple               # per board size: uint32[C(52, k)], relabelling bit masks
    tables: tuple                 # flop, turn, river: uint8 or uint16 [rows, 1326]

    @property
    def bucket_counts(self) -> np.ndarray:
        return np.array([169, self.spec.flop, self.spec.turn, self.spec.river], dtype=np.int64)


def bucket_type(buckets: int):
    """The smallest unsigned type that holds bucket numbers 0..buckets-1."""
    return np.uint8 if buckets <= 256 else np.uint16


def build_card_abstraction(spec: CardAbstractionSpec, say=lambda text: None) -> CardAbstraction:
    """Compute the tables of `spec` (minutes on two cores; `say` gets a line per phase)."""
    rng = np.random.default_rng(spec.seed)
    tables = load_tables()
    began = time.monotonic()

    def done(text):
        say(f"{text} ({time.monotonic() - began:,.0f} s)")

    canon = {count: canonical_boards(count, BINOMIAL, PERMUTATIONS) for count in (3, 4, 5)}
    done("canonical boards: " + ", ".join(f"{canon[c][2].shape[0]:,}" for c in (3, 4, 5)))
    raw5, perm5, boards5, weights5 = canon[5]
    river_ehs = river_strength(tables, boards5)
    valid5 = valid_points(boards5)
    level_to_bucket = quantile_buckets(river_ehs, valid5, weights5, spec.river)
    river = level_to_bucket.astype(bucket_type(spec.river))[river_ehs]
    done(f"river: E[HS] of {int(valid5.sum()):,} points, {spec.river} quantile buckets")

    raw4, perm4, boards4, weights4 = canon[4]
    histograms, means = turn_histograms(boards4, BINOMIAL, raw5, perm5, PERMUTATIONS, river_ehs,
                                        BINS)
    del river_ehs
    valid4 = valid_points(boards4)
    cdf = np.cumsum(histograms, axis=2, dtype=np.float32) / 46.0
    del histograms
    flat = cdf.reshape(-1, BINS)
    sample = weighted_sample(valid4, weights4, spec.sample, rng)
    turn_centroids = kmeans(flat[sample], spec.turn, spec.seed + 1, spec.iterations)
    turn = nearest(flat, turn_centroids).astype(bucket_type(spec.turn)).reshape(
        boards4.shape[0], 1326)
    del cdf, flat
    done(f"turn: {int(valid4.sum()):,} points, {spec.turn} k-means clusters")

    raw3, perm3, boards3, weights3 = canon[3]
    features = flop_features(boards3, BINOMIAL, raw4, perm4, PERMUTATIONS, turn, means,
                             turn_centroids, BINS)
    valid3 = valid_points(boards3)
    flat = features.reshape(-1, 2 * BINS)
    sample = weighted_sample(valid3, weights3, spec.sample, rng)
    flop_centroids = kmeans(flat[sample], spec.flop, spec.seed + 2, spec.iterations)
    flop = nearest(flat, flop_centroids).astype(bucket_type(spec.flop)).reshape(
        boards3.shape[0], 1326)
    done(f"flop: {int(valid3.sum()):,} points, {spec.flop} k-means clusters")

    firsts, seconds = np.triu_indices(52, 1)
    pairs = np.stack([firsts, seconds], axis=1)
    order = np.argsort(seconds * (seconds - 1) // 2 + firsts)
    preflop = class_indices(pairs[order]).astype(np.uint16)
    return CardAbstraction(spec=spec, preflop=preflop, raw_to_row=(raw3, raw4, raw5),
                           raw_perm=(perm3, perm4, perm5), tables=(flop, turn, river))


_ARRAYS = ("preflop", "raw3", "perm3", "raw4", "perm4", "raw5", "perm5", "flop", "turn", "river")


def save_card_abstraction(abstraction: CardAbstraction, folder) -> None:
    """Write the tables as .npy files (memory-mappable) and `spec.json` into `folder`; the
    folder appears whole or not at all (written beside it, then renamed)."""
    import json
    import os
    import shutil
    from dataclasses import asdict
    from pathlib import Path

    folder = Path(folder)
    temporary = folder.with_name(folder.name + ".partial")
    shutil.rmtree(temporary, ignore_errors=True)
    temporary.mkdir(parents=True)
    arrays = dict(zip(_ARRAYS, (abstraction.preflop, abstraction.raw_to_row[0],
                                abstraction.raw_perm[0], abstraction.raw_to_row[1],
                                abstraction.raw_perm[1], abstraction.raw_to_row[2],
                                abstraction.raw_perm[2], *abstraction.tables)))
    for name, array in arrays.items():
        np.save(temporary / f"{name}.npy", np.ascontiguousarray(array))
    (temporary / "spec.json").write_text(json.dumps(asdict(abstraction.spec), indent=1) + "\n")
    if folder.exists():
        shutil.rmtree(folder)
    os.replace(temporary, folder)


def load_card_abstraction(folder, memory_map: bool = True) -> CardAbstraction:
    """The abstraction saved in `folder` (`SolverError` naming the file if one is missing or
    unreadable); memory-mapped read-only by default."""
    import json
    from pathlib import Path

    folder = Path(folder)
    try:
        spec = CardAbstractionSpec(**json.loads((folder / "spec.json").read_text()))
        arrays = {name: np.load(folder / f"{name}.npy", mmap_mode="r" if memory_map else None)
                  for name in _ARRAYS}
    except (OSError, ValueError, TypeError) as error:
        raise SolverError(f"{folder}: not a readable card abstraction ({error})") from None
    return CardAbstraction(spec=spec, preflop=arrays["preflop"],
                           raw_to_row=(arrays["raw3"], arrays["raw4"], arrays["raw5"]),
                           raw_perm=(arrays["perm3"], arrays["perm4"], arrays["perm5"]),
                           tables=(arrays["flop"], arrays["turn"], arrays["river"]))


@helper
def round_buckets(round_, board, holding_cards, cards, out, scratch):
    """out[h]: holding h's bucket in `round_` on `board` (-1 for a holding the board meets)."""
    binomial, preflop, raw3, perm3, raw4, perm4, raw5, perm5, permutations, flop, turn, \
        river = cards
    visible = 0 if round_ == 0 else 2 + round_
    taken = np.int64(0)
    for k in range(visible):
        taken |= np.int64(1) << board[k]
    for h in range(holding_cards.shape[0]):
        a = holding_cards[h, 0]
        b = holding_cards[h, 1]
        if (taken >> a) & 1 or (taken >> b) & 1:
            out[h] = -1
        elif round_ == 0:
            out[h] = preflop[h]
        elif round_ == 1:
            row, pair = _lookup_row(board, 3, binomial, raw3, perm3, permutations, a, b, scratch)
            out[h] = flop[row, pair]
        elif round_ == 2:
            row, pair = _lookup_row(board, 4, binomial, raw4, perm4, permutations, a, b, scratch)
            out[h] = turn[row, pair]
        else:
            row, pair = _lookup_row(board, 5, binomial, raw5, perm5, permutations, a, b, scratch)
            out[h] = river[row, pair]
