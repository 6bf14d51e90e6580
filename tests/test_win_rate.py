"""Win rates: exact against independent enumerations, Monte Carlo against exact, known spots."""

import itertools

import numba
import numpy as np
import pytest

from gambler.evaluator import CardError, parse_cards, win_rate, win_rates
from gambler.evaluator.cards import card_text
from gambler.evaluator.preflop import (CLASS_COUNT, SHOWDOWNS_PER_HAND, class_combos,
                               class_index,
                               class_indices, class_name, load_table, representative)
from gambler.evaluator.showdown import EXACT_KERNELS, enumerate_counts
from gambler.evaluator.tables import load_tables
from gambler.evaluator.rates import WinRate
from gambler.errors import GamblerError
from gambler.evaluator.showdown import unseen_cards


def treys_counts(hole: str, board: str, treys_cards, evaluator):
    """(wins, ties, losses) by brute force with treys: every completion, every opponent hand."""
    hole_codes, board_codes = parse_cards(hole), parse_cards(board)
    unseen = sorted(set(range(52)) - set(hole_codes.tolist()) - set(board_codes.tolist()))
    ours_cards = treys_cards[hole_codes].tolist()
    wins = ties = losses = 0
    for completion in itertools.combinations(unseen, 5 - len(board_codes)):
        full_board = treys_cards[np.r_[board_codes, completion].astype(int)].tolist()
        ours = evaluator.evaluate(full_board, ours_cards)  # treys: lower is better
        rest = [card for card in unseen if card not in completion]
        for pair in itertools.combinations(rest, 2):
            theirs = evaluator.evaluate(full_board, treys_cards[list(pair)].tolist())
            wins += theirs > ours
            ties += theirs == ours
            losses += theirs < ours
    return wins, ties, losses


def counts(hole: str, board: str, kernel=None):
    hole_codes, board_codes = parse_cards(hole), parse_cards(board)
    kernel = kernel or EXACT_KERNELS[len(board_codes)]
    return tuple(kernel(load_tables(), hole_codes, board_codes))


@pytest.mark.parametrize("hole, board", [
    ("AsKc", "Qh7c2d9s3h"), ("7h6h", "5h4h2c9h8d"), ("2c2d", "AsKsQsJsTs"), ("Td9d", "8d7d6c"),
    ("AhKh", "QhJh2c3h"), ("5c5d", "5h5sAcKd"),
])
def test_exact_matches_treys_enumeration(hole, board, treys_cards, treys_evaluator):
    if len(board) == 6:  # the flop: 1,070,190 treys showdowns are too slow; check one turn card
        board += "2s"
    assert counts(hole, board) == treys_counts(hole, board, treys_cards, treys_evaluator)


@pytest.mark.parametrize("hole, board", [("AsKc", "Qh7c2d"), ("AhKh", "Qh7h2d"),
                                         ("7c2d", "7h7s2c"), ("Ts9s", "8s7s2s")])
def test_flop_fast_path_agrees_with_reference_and_turns(hole, board):
    fast = counts(hole, board)
    assert fast == counts(hole, board, enumerate_counts)
    assert sum(fast) == 1_070_190
    # Every unordered (turn, river) pair is counted twice when summing over turn cards.
    hole_codes, board_codes = parse_cards(hole), parse_cards(board)
    by_turn = np.zeros(3, dtype=np.int64)
    for turn in unseen_cards(hole_codes, board_codes):
        by_turn += counts(hole, board + card_text(turn))
    assert by_turn.tolist() == [2 * part for part in fast]


def test_turn_and_river_agree_with_reference():
    for hole, board in [("AsKc", "Qh7c2d9s"), ("Ah2h", "3h4h9c9d"), ("QcQd", "QhQsAcAd"),
                        ("AsKc", "Qh7c2d9s3h"), ("Ah2h", "3h4h9h9d5c")]:
        assert counts(hole, board) == counts(hole, board, enumerate_counts)


def test_degenerate_spots():
    royal_on_board = win_rate("2c3d", "AsKsQsJsTs")
    assert (royal_on_board.tie, royal_on_board.equity, royal_on_board.v) == (1.0, 0.5, 0.0)
    locked_quads = win_rate("2c3d", "AcAdAhAsKc")  # everyone plays four aces with a king
    assert locked_quads.tie == 1.0
    nuts = win_rate("AsKs", "QsJsTs2c3d")  # our royal flush cannot be tied or beaten
    assert (nuts.win, nuts.v) == (1.0, 1.0)
    board_plays = win_rate("2c3d", "AsKsQsJs9s")  # the board's flush ties all but the Ts
    assert (board_plays.win, board_plays.tie, board_plays.loss) == (0.0, 946 / 990, 44 / 990)


def test_preflop_table_totals_and_symmetry():
    table = load_table()
    assert table.shape == (CLASS_COUNT, 3)
    assert (table.sum(axis=1) == SHOWDOWNS_PER_HAND).all()
    combos = np.array([class_combos(index) for index in range(CLASS_COUNT)])
    assert combos.sum() == 1326
    # Over all holes, every win of one hand is a loss of another: total wins equal total losses.
    assert (combos * table[:, 0]).sum() == (combos * table[:, 2]).sum()
    aces = win_rate("AsAh")
    assert round(aces.equity, 4) == 0.8520  # the classic 85.20% for aces against a random hand
    assert win_rate("AsAh").v > win_rate("KsKh").v > win_rate("AsKs").v > win_rate("7c2d").v


def test_preflop_table_agrees_with_monte_carlo():
    holes = np.array([representative(index) for index in range(CLASS_COUNT)], dtype=np.uint8)
    exact = win_rates(holes)
    sampled = win_rates(holes, samples=20_000, seed=11)
    std_error = np.sqrt((sampled.win + sampled.loss - sampled.v ** 2) / 20_000)
    assert (np.abs(sampled.v - exact.v) < 4 * std_error).all()


@pytest.mark.slow
def test_preflop_class_recomputed_from_another_hole():
    # The table was built from each class's representative (spades and hearts); enumerating the
    # 2,097,572,400 showdowns of a different hole of the class must give the same counts.
    from gambler.evaluator.preflop import _class_counts
    from gambler.evaluator.tables import load_tables

    hole = np.array([[parse_cards("Kd")[0], parse_cards("9c")[0]]], dtype=np.uint8)
    index = class_indices(hole)[0]
    assert class_name(index) == "K9o" and set(representative(index)) != set(hole[0].tolist())
    counts = np.zeros((1, 3), dtype=np.int64)
    _class_counts(load_tables(), hole, counts)
    np.testing.assert_array_equal(counts[0], load_table()[index])


@pytest.mark.parametrize("board", ["", "Qh7c2d", "Qh7c2d9s", "Qh7c2d9s3h"])
def test_monte_carlo_is_within_four_standard_errors_of_exact(board):
    for hole in ("AsKc", "7h6h", "5c5s"):
        exact = win_rate(hole, board)
        sampled = win_rate(hole, board, samples=50_000, seed=3)
        assert sampled.samples == 50_000 and not sampled.exact
        assert abs(sampled.v - exact.v) < 4 * sampled.std_error


@pytest.mark.parametrize("hole, board", [
    ("AsKc", ""),              # preflop: exact from the shipped table
    ("7h2c", ""),
    ("Ah2h", "Kh7h3c"),        # flush draws: the opponent's pair and the board share suits
    ("9s9d", "9h9c2d"),        # quads on the flop: only a straight flush beats us
    ("AsKc", "Qh7c2d9s"),
    ("7h6h", "5h4h3c2c9d"),    # river, many splits
])
def test_monte_carlo_win_tie_and_loss_rates_each_match_exact(hole, board):
    """All three rates, not only v: a sampler that skews the opponent's pairs moves them apart."""
    samples = 400_000
    exact, sampled = win_rate(hole, board), win_rate(hole, board, samples=samples, seed=8)
    for exact_rate, sampled_rate in ((exact.win, sampled.win), (exact.tie, sampled.tie),
                                     (exact.loss, sampled.loss)):
        standard_error = np.sqrt(exact_rate * (1 - exact_rate) / samples)
        assert abs(sampled_rate - exact_rate) <= 4 * standard_error


def test_monte_carlo_is_reproducible_and_reports_its_seed():
    first = win_rate("AsKc", "Qh7c2d", samples=1000, seed=5)
    assert first == win_rate("AsKc", "Qh7c2d", samples=1000, seed=5)
    assert first != win_rate("AsKc", "Qh7c2d", samples=1000, seed=6)
    for seed in range(12):  # about half the streams start above 2**63: all must be accepted
        assert win_rate("AsKc", "Qh7c2d", samples=10, seed=seed).samples == 10
    unseeded = win_rate("AsKc", samples=1000)
    assert unseeded == win_rate("AsKc", samples=1000, seed=unseeded.seed)


def test_batch_matches_single_spots_and_thread_count():
    rng = np.random.default_rng(4)
    deals = np.argsort(rng.random((40, 52)), axis=1)[:, :7].astype(np.uint8)
    sizes = np.array([0, 3, 4, 5] * 10)
    batch = win_rates(deals[:, :2], deals[:, 2:], board_sizes=sizes)
    for row in range(0, 40, 7):
        single = win_rate(deals[row, :2], deals[row, 2:2 + sizes[row]])
        assert (batch.win[row], batch.tie[row], batch.loss[row]) == \
            (single.win, single.tie, single.loss)
    sampled = [None, None]
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        sampled[threads > 1] = win_rates(deals[:, :2], deals[:, 2:], board_sizes=sizes,
                                         samples=500, seed=9)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    np.testing.assert_array_equal(sampled[0].win, sampled[1].win)
    np.testing.assert_array_equal(sampled[0].tie, sampled[1].tie)


def test_bad_spots_are_refused():
    with pytest.raises(CardError, match="Kc is both in the hole and on the board"):
        win_rate("AsKc", "Kc7d2h")
    with pytest.raises(CardError, match="expected 0 or 3 or 4 or 5"):
        win_rate("AsKc", "7d2h")
    with pytest.raises(CardError, match="expected 2"):
        win_rate("As", "")
    with pytest.raises(ValueError, match="samples"):
        win_rate("AsKc", samples=0)
    with pytest.raises(CardError, match="row 1"):
        win_rates(np.array([[0, 1], [2, 2]]))


def test_win_rate_arithmetic():
    rate = WinRate.from_counts(6, 2, 2, exact=False, samples=10)
    assert (rate.v, rate.equity) == (pytest.approx(0.4), pytest.approx(0.7))
    assert rate.std_error == pytest.approx(np.sqrt((0.8 - 0.16) / 10))


def test_preflop_classes_cover_every_hole():
    holes = np.array(list(itertools.combinations(range(52), 2)))
    classes = class_indices(holes)
    assert [class_index(int(a), int(b)) for a, b in holes] == classes.tolist()
    sizes = np.bincount(classes, minlength=CLASS_COUNT)
    assert sizes.tolist() == [class_combos(index) for index in range(CLASS_COUNT)]
    assert [class_name(class_index(*parse_cards(hole).tolist())) for hole in
            ("AsAh", "AsKs", "KsAd", "7c2d", "2d7c", "Tc9c")] == \
        ["AA", "AKs", "AKo", "72o", "72o", "T9s"]


def test_long_monte_carlo_runs_in_chunks_of_their_own_streams(monkeypatch):
    """Up to MONTE_CARLO_CHUNK samples: one kernel call on stream 0 (results of earlier versions
    unchanged); beyond, chunk k on stream k, so that Ctrl-C and progress happen between calls."""
    import gambler.evaluator.rates as rates
    from gambler.evaluator.rng import stream_seed
    from gambler.evaluator.showdown import sampled_counts
    from gambler.evaluator.tables import load_tables

    hole, board = parse_cards("AsKc"), parse_cards("Qh7c2d")
    single = win_rate(hole, board, samples=2500, seed=9)
    expected = sampled_counts(load_tables(), hole, board, 2500, np.uint64(stream_seed(9, 0)))
    assert round(single.win * 2500) == expected[0] and round(single.loss * 2500) == expected[2]
    monkeypatch.setattr(rates, "MONTE_CARLO_CHUNK", 1000)
    seen = []
    chunked = win_rate(hole, board, samples=2500, seed=9,
                       progress=lambda done, total: seen.append((done, total)))
    parts = [sampled_counts(load_tables(), hole, board, size, np.uint64(stream_seed(9, k)))
             for k, size in enumerate((1000, 1000, 500))]
    assert round(chunked.win * 2500) == sum(p[0] for p in parts)
    assert round(chunked.tie * 2500) == sum(p[1] for p in parts)
    assert seen == [(1000, 2500), (2000, 2500), (2500, 2500)]


def test_ctrl_c_stops_a_huge_monte_carlo_run_at_once():
    import signal
    import subprocess
    import sys
    import time

    from conftest import interruptible

    process = subprocess.Popen([sys.executable, "-m", "gambler.evaluator.cli", "AsKc", "--samples",
                                "10000000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, **interruptible())
    time.sleep(4)  # imports and kernel loading, then sampling
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    out, err = process.communicate(timeout=30)
    assert time.perf_counter() - sent < 3
    assert process.returncode == 130 and out == ""
    assert err.strip().splitlines()[-1] == "gambler-equity: error: interrupted"


@pytest.mark.parametrize("options, message", [
    ({"samples": 0}, "samples must be a positive integer, not 0"),
    ({"samples": 1.5}, "samples must be a positive integer, not 1.5"),
    ({"samples": True}, "samples must be a positive integer, not True"),
    ({"samples": 10, "seed": -1}, "seed must be an integer in 0..2**63-1, not -1"),
    ({"samples": 10, "seed": 2**63}, f"seed must be an integer in 0..2**63-1, not {2**63}"),
    ({"samples": 10, "seed": "7"}, "seed must be an integer in 0..2**63-1, not '7'"),
])
def test_bad_samples_and_seeds_raise_the_evaluators_error(options, message):
    """The evaluator's one input error: a GamblerError (for the CLIs) and a ValueError (for
    callers that catch that)."""
    with pytest.raises(CardError) as error:
        win_rate("AsKc", "Qh7c2d", **options)
    assert str(error.value) == message
    assert isinstance(error.value, GamblerError) and isinstance(error.value, ValueError)
