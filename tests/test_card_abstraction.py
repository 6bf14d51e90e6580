"""The hold'em card abstraction's pieces, each against an independent answer: the known counts
of boards up to suit relabelling, the evaluator's exact win rates (river E[HS] and the turn's
river histograms), suit relabelling leaving every lookup unchanged, and k-means and the quantile
buckets on data whose answer is known."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gambler.evaluator import win_rate
from gambler.evaluator.tables import load_tables
from gambler.solver import cards


@pytest.fixture(scope="module")
def canonical():
    return {count: cards.canonical_boards(count, cards.BINOMIAL, cards.PERMUTATIONS)
            for count in (3, 4, 5)}


def row_and_pair(canonical, board, first, second):
    raw_to_row, raw_perm = canonical[len(board)][:2]
    return cards._lookup_row(np.array(board), len(board), cards.BINOMIAL, raw_to_row, raw_perm,
                             cards.PERMUTATIONS, first, second, np.empty(5, dtype=np.int64))


def test_boards_up_to_suit_relabelling_have_their_known_counts(canonical):
    # 1,755 flops, 16,432 turns and 134,459 rivers (Waugh 2013, "A fast and optimal hand
    # isomorphism algorithm"), standing for all C(52, k) boards.
    assert [canonical[k][2].shape[0] for k in (3, 4, 5)] == [1755, 16432, 134459]
    assert [int(canonical[k][3].sum()) for k in (3, 4, 5)] == [22100, 270725, 2598960]


def relabel(card, permutation):
    return (card // 4) * 4 + permutation[card % 4]


def test_relabelling_suits_changes_no_lookup(canonical):
    rng = np.random.default_rng(11)
    for _ in range(300):
        dealt = rng.choice(52, size=7, replace=False)
        permutation = rng.permutation(4)
        twin = [relabel(card, permutation) for card in dealt]
        for count in (3, 4, 5):
            assert row_and_pair(canonical, dealt[2:2 + count], dealt[0], dealt[1]) == \
                row_and_pair(canonical, twin[2:2 + count], twin[0], twin[1])


def test_river_strength_is_the_exact_win_rate_against_a_random_hand(canonical):
    raw5, perm5, boards5, _ = canonical[5]
    rng = np.random.default_rng(5)
    rows = rng.choice(boards5.shape[0], size=6, replace=False)
    levels = cards.river_strength(load_tables(), boards5[rows])
    for index, row in enumerate(rows):
        board = [int(card) for card in boards5[row]]
        free = [card for card in range(52) if card not in board]
        for first, second in itertools.islice(itertools.combinations(free, 2), 0, None, 97):
            exact = win_rate([first, second], board)
            expected = exact.win + exact.tie / 2
            level = levels[index, cards.pair_index(first, second)]
            assert abs(level / 65535 - expected) <= 0.5 / 65535 + 1e-12


def test_a_turn_histogram_counts_the_river_strength_of_each_river(canonical):
    raw4, perm4, boards4, _ = canonical[4]
    raw5, perm5, boards5, _ = canonical[5]
    board = [int(card) for card in boards4[1234]]
    first, second = [card for card in range(52) if card not in board][5:7]
    rivers = [card for card in range(52) if card not in (*board, first, second)]
    # river E[HS] only where this turn can lead; the rest of the table is never read
    rows = sorted({row_and_pair(canonical, board + [river], first, second)[0]
                   for river in rivers})
    river_ehs = np.zeros((boards5.shape[0], 1326), dtype=np.uint16)
    river_ehs[rows] = cards.river_strength(load_tables(), boards5[rows])
    histograms, means = cards.turn_histograms(boards4[1234:1235], cards.BINOMIAL, raw5, perm5,
                                              cards.PERMUTATIONS, river_ehs, 20)
    pair = cards.pair_index(first, second)
    strengths = []
    for river in rivers:
        exact = win_rate([first, second], board + [river])
        strengths.append(exact.win + exact.tie / 2)
    expected = np.bincount(np.minimum((np.array(strengths) * 65535).round().astype(int) * 20
                                      // 65536, 19), minlength=20)
    assert histograms[0, pair].tolist() == expected.tolist() and expected.sum() == 46
    assert means[0, pair] == pytest.approx(np.mean(strengths), abs=1e-4)


def test_kmeans_finds_separated_clusters():
    rng = np.random.default_rng(2)
    centres = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 9.0]])
    points = np.concatenate([centre + rng.normal(scale=0.3, size=(300, 2))
                             for centre in centres]).astype(np.float32)
    found = cards.kmeans(points, 3, seed=4)
    order = np.argsort(found[:, 0] * 10 + found[:, 1])
    assert np.allclose(found[order], centres[np.argsort(centres[:, 0] * 10 + centres[:, 1])],
                       atol=0.1)
    labels = cards.nearest(points, found)
    assert [len(set(labels[i * 300:(i + 1) * 300])) for i in range(3)] == [1, 1, 1]


def test_quantile_buckets_hold_equal_mass():
    rng = np.random.default_rng(8)
    levels = rng.integers(0, 65536, size=(50, 1326)).astype(np.uint16)
    valid = rng.random((50, 1326)) < 0.9
    weights = rng.integers(1, 25, size=50)
    mapping = cards.quantile_buckets(levels, valid, weights, 10)
    assert np.all(np.diff(mapping.astype(int)) >= 0)  # stronger never in a lower bucket
    rows, pairs = np.nonzero(valid)
    mass = np.bincount(mapping[levels[rows, pairs]], weights=weights[rows], minlength=10)
    assert np.allclose(mass / mass.sum(), 0.1, atol=0.002)
