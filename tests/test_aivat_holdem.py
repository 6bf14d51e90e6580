"""AIVAT on hold'em for a blueprint (`training.aivat_holdem`), checked where exact answers exist.

* Every correction has expectation zero given the history, which is what makes AIVAT unbiased:
  at a decision, over the real actions the blueprint could take there (the kernel's mass of each
  divided by the range's, which must sum to 1); at the turn and the river, over every card that
  could come (P(c) = the range's mass that c leaves / (the mass before x the cards left)).
* The range is the bot's: W at the end of each hand equals the belief the Python bot's own
  `distribution`, `_real_action` and translations give (the helpers of `test_lbr_blueprint`).
* A blueprint that always checks or calls decides nothing at random: its decision corrections
  are exactly 0.
* On hands the Python bot played against a random opponent, the estimates average to the chips
  within their interval, with a smaller spread.

The blueprint is `test_lbr_blueprint`'s synthetic one (random buckets, a random mixed strategy).
"""

from __future__ import annotations

import numpy as np
import pytest

from gambler.bot.blueprint import BlueprintStrategy
from gambler.protocol.betting import CALL_ACTION, FOLD_ACTION, BettingState, raise_to
from gambler.protocol.logs import LoggedHand
from gambler.protocol.matchstate import MatchState
from gambler.training.aivat_holdem import (OFF_STRATEGY, OK, TERM_CHANCE, TERM_DECISION,
                                              UNFINISHED, AivatLogError, _trace_of,
                                              blueprint_aivat_hand, preflop_equities,
                                              score_hands)
from test_lbr_blueprint import (GAME, _holdings, _holes, _translations, _weigh_by_the_action,
                                synthetic_blueprint)


@pytest.fixture(scope="module")
def mixed():
    return synthetic_blueprint("mixed")


def _play(strategy, known, number, rng, board=None):
    """One hand of the Python bot at `known` against an opponent that folds, calls and raises
    at random (small raises and any size)."""
    cards = [int(c) for c in rng.permutation(52)[:9]]
    holes = ((cards[0], cards[1]), (cards[2], cards[3]))
    board = cards[4:9]
    betting = BettingState.start(GAME)
    while not betting.finished:
        player = betting.current_player
        shown = GAME.board_cards_through(betting.round)
        if player == known:
            action = strategy.act(MatchState(player, number, betting,
                                             _holes(player, holes[player]),
                                             tuple(board[:shown])))
        else:
            legal = betting.legal_actions()
            draw = rng.random()
            if legal.can_fold and draw < 0.15:
                action = FOLD_ACTION
            elif legal.can_raise and draw > 0.75:
                action = raise_to(int(rng.integers(legal.min_raise_to, legal.max_raise_to + 1))
                                  if rng.random() < 0.3 else legal.min_raise_to)
            else:
                action = CALL_ACTION
        betting = betting.apply(action)
    names = ("bp", "other") if known == 0 else ("other", "bp")
    return LoggedHand(number, betting, holes, tuple(board[:betting.board_cards_visible]),
                      betting.payoffs(holes, board), names, f"hand {number}")


def _kernel_args(blueprint):
    from gambler.evaluator.tables import load_tables
    from gambler.training.engine import encode_rules
    from gambler.training.lbr import lbr_tables
    from gambler.training.lbr_blueprint import blueprint_arrays

    tree, offsets, policy, cards = blueprint_arrays(blueprint)
    return (encode_rules(GAME), tree, offsets, policy, cards, lbr_tables().holding_cards,
            load_tables())


def _score(args, known, holes, board, trace, range_only=False):
    """The kernel on one (possibly unfinished) hand: (status, out, terms used, W at the end);
    with `range_only`, the known player's own cards play no part (the opponent's view)."""
    rules, tree, offsets, policy, cards, holding_cards, tables = args
    padded = np.full(5, -1, dtype=np.int64)
    padded[:len(board)] = board
    terms = np.zeros((16, 5))
    final = np.zeros(1326)
    own = np.full(2, -1, dtype=np.int64) if range_only else np.array(holes[known],
                                                                      dtype=np.int64)
    status, out, rows = blueprint_aivat_hand(
        rules, known, tree, offsets, policy, cards, holding_cards, tables,
        own, np.array(holes[1 - known], dtype=np.int64),
        padded, np.asarray(trace, dtype=np.int64).reshape(-1, 3), len(trace),
        preflop_equities(holes[1 - known]), terms, final)
    return status, out, terms[:rows], final


def _hands(strategy, count, seed):
    rng = np.random.default_rng(seed)
    return [_play(strategy, i % 2, i, rng) for i in range(count)]


def _full_board(hand):
    """The hand's board, completed (where it ended early) by the lowest cards no one holds."""
    used = set(hand.board) | set(hand.hole_cards[0]) | set(hand.hole_cards[1])
    return [*hand.board, *[card for card in range(52) if card not in used]][:5]


def _last(terms, kind):
    return next(row for row in terms[::-1] if row[0] == kind)


def _candidate_actions(strategy, betting):
    """Every real action the blueprint could take here, and more: fold, call, and what each
    child of every abstract node of this round and player becomes in the real hand."""
    tree = strategy.tree
    candidates = {FOLD_ACTION, CALL_ACTION}
    for node in np.flatnonzero((tree.kind == 0) & (tree.round == betting.round)
                               & (tree.player == betting.current_player)):
        first = int(tree.child_start[node])
        for c in range(int(tree.child_count[node])):
            candidates.add(strategy._real_action(betting, int(node),
                                                 int(tree.children[first + c])))
    return candidates


def test_every_decision_correction_averages_to_zero_over_the_actions_it_could_take(mixed):
    strategy = BlueprintStrategy(mixed, seed=3)
    args = _kernel_args(mixed)
    checked = 0
    for hand in _hands(strategy, 12, 21):
        known = hand.names.index("bp")
        trace = _trace_of(hand)
        betting = BettingState.start(GAME)
        for index, row in enumerate(trace):
            action = FOLD_ACTION if row[1] == 0 else CALL_ACTION if row[1] == 1 \
                else raise_to(int(row[2]))
            if row[0] == known:
                board = _full_board(hand)
                *_, range_before = _score(args, known, hand.hole_cards, board, trace[:index],
                                          range_only=True)
                weighted = total = 0.0
                for candidate in _candidate_actions(strategy, betting):
                    code = 0 if candidate.kind == "f" else 1 if candidate.kind == "c" else 2
                    prefix = [*trace[:index].tolist(), [known, code, candidate.raise_to]]
                    status, _, terms, range_after = _score(args, known, hand.hole_cards, board,
                                                           prefix, range_only=True)
                    if status == OFF_STRATEGY:  # no holding takes it
                        continue
                    assert status in (OK, UNFINISHED)
                    _, before, after, mass_before, mass_after = _last(terms, TERM_DECISION)
                    # the masses are the range's, before and after the action
                    assert mass_before == pytest.approx(range_before.sum(), rel=1e-12)
                    if terms[-1][0] == TERM_DECISION:  # no card came after it
                        assert mass_after == pytest.approx(range_after.sum(), rel=1e-12)
                    share = mass_after / mass_before
                    total += share
                    weighted += share * (before - after)
                assert total == pytest.approx(1.0, abs=1e-12)
                assert abs(weighted) < 1e-9 * max(1.0, abs(before))
                checked += 1
            betting = betting.apply(action)
    assert checked >= 20


def test_every_turn_and_river_correction_averages_to_zero_over_the_cards_that_could_come(mixed):
    strategy = BlueprintStrategy(mixed, seed=3)
    args = _kernel_args(mixed)
    checked = 0
    for hand in _hands(strategy, 40, 22):
        known = hand.names.index("bp")
        trace = _trace_of(hand)
        betting = BettingState.start(GAME)
        for index, row in enumerate(trace):
            action = FOLD_ACTION if row[1] == 0 else CALL_ACTION if row[1] == 1 \
                else raise_to(int(row[2]))
            after_action = betting.apply(action)
            closes = not after_action.finished and after_action.round > betting.round
            if closes and after_action.round in (2, 3):
                shown = GAME.board_cards_through(after_action.round - 1)
                seen = set(hand.board[:shown]) | set(hand.hole_cards[1 - known])
                cards_left = 52 - 4 - shown
                weighted = total = 0.0
                for card in range(52):
                    if card in seen:
                        continue
                    board = [*hand.board[:shown], card]
                    status, _, terms, _ = _score(args, known, hand.hole_cards, board,
                                                 trace[:index + 1], range_only=True)
                    assert status == UNFINISHED
                    kind, before, after, mass_before, mass_after = terms[-1]
                    assert kind == TERM_CHANCE
                    share = mass_after / (mass_before * cards_left)
                    total += share
                    weighted += share * (before - after)
                assert total == pytest.approx(1.0, abs=1e-12)
                assert abs(weighted) < 1e-9 * max(1.0, abs(before))
                checked += 1
            betting = after_action
    assert checked >= 8


def test_the_range_at_the_end_of_a_hand_is_the_python_bots_belief(mixed):
    strategy = BlueprintStrategy(mixed, seed=3)
    args = _kernel_args(mixed)
    tree = mixed.game.tree
    holdings = _holdings()
    checked = 0
    for hand in _hands(strategy, 16, 23):
        known = hand.names.index("bp")
        other = set(hand.hole_cards[1 - known])
        branches = [(0, np.array([0.0 if set(pair) & other else 1.0 for pair in holdings]))]
        betting = BettingState.start(GAME)
        trace = _trace_of(hand)
        for index, row in enumerate(trace):
            shown = GAME.board_cards_through(betting.round)
            seen = set(hand.board[:shown])
            alive = np.array([0.0 if set(pair) & seen else 1.0 for pair in holdings])
            branches = [(node, weights * alive) for node, weights in branches]
            action = FOLD_ACTION if row[1] == 0 else CALL_ACTION if row[1] == 1 \
                else raise_to(int(row[2]))
            if row[0] == known:
                for node, weights in branches:
                    _weigh_by_the_action(strategy, tree, node, weights, betting, action,
                                         hand.hand, known, hand.board[:shown], holdings)
            moved = {}
            for node, weights in branches:
                for child, p in _translations(strategy, node, betting, action, hand.hand, index):
                    moved[child] = moved.get(child, 0.0) + p * weights
            branches = list(moved.items())
            betting = betting.apply(action)
        seen = set(hand.board)
        alive = np.array([0.0 if set(pair) & seen else 1.0 for pair in holdings])
        expected = sum(weights for _, weights in branches) * alive
        status, _, _, final = _score(args, known, hand.hole_cards, hand.board, trace)
        assert status == OK
        np.testing.assert_allclose(final, expected, rtol=1e-9, atol=1e-12)
        checked += int((expected > 0).sum())
    assert checked > 5_000


def test_a_blueprint_that_always_calls_has_no_decision_corrections():
    calls = synthetic_blueprint("call")
    hands = _hands(BlueprintStrategy(calls, seed=1), 60, 24)
    scores = score_hands(calls, hands, "bp")
    assert np.array_equal(scores.decisions, np.zeros(60))
    assert np.abs(scores.chance).max() > 100  # the cards are still scored


def test_the_estimates_average_to_the_chips_with_a_smaller_spread(mixed):
    hands = _hands(BlueprintStrategy(mixed, seed=3), 400, 1)
    scores = score_hands(mixed, hands, "bp")
    assert np.array_equal(scores.chips, [hand.value_of("bp") for hand in hands])
    gap = scores.estimates - scores.chips
    assert abs(gap.mean()) < 3 * gap.std() / np.sqrt(len(hands))
    assert scores.estimates.std() < 0.5 * scores.chips.std()


def test_logs_aivat_cannot_score_are_refused_by_hand(mixed):
    strategy = BlueprintStrategy(mixed, seed=3)
    hands = _hands(strategy, 6, 25)
    with pytest.raises(AivatLogError, match="no player 'nobody'"):
        score_hands(mixed, hands, "nobody")
    hidden = hands[2]
    known = hidden.names.index("bp")
    holes = tuple(cards if position == known else () for position, cards in
                  enumerate(hidden.hole_cards))
    blind = LoggedHand(hidden.hand, hidden.betting, holes, hidden.board, hidden.values,
                       hidden.names, "bot.log:3")
    with pytest.raises(AivatLogError, match="bot.log:3: a hole card is missing"):
        score_hands(mixed, [*hands[:2], blind], "bp")
    calls = synthetic_blueprint("call")
    raised = next(hand for hand in hands if any(
        action.kind == "r" for actions, actors in zip(hand.betting.actions, hand.betting.actors)
        for action, actor in zip(actions, actors) if actor == hand.names.index("bp")))
    with pytest.raises(AivatLogError, match=f"{raised.where}: bp took an action .* never takes"):
        score_hands(calls, [raised], "bp")


def _report(argv, capsys):
    from gambler.training.report_cli import main

    with pytest.raises(SystemExit) as exit_:
        main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return exit_.value.code, captured.out, captured.err


def test_gambler_report_scores_a_blueprint_player_by_aivat(mixed, tmp_path, monkeypatch, capsys):
    import json

    import gambler.bot.strategies as strategies
    from gambler.protocol.logs import format_state_line

    hands = _hands(BlueprintStrategy(mixed, seed=3), 120, 26)
    log = tmp_path / "match.log"
    log.write_text("".join(format_state_line(hand) + "\n" for hand in hands))
    original = strategies.resolve_strategy
    monkeypatch.setattr(strategies, "resolve_strategy",
                        lambda spec: mixed if spec == "synthetic" else original(spec))
    code, out, _ = _report([log, "--aivat", "bp=synthetic", "--json"], capsys)
    assert code == 0
    player = next(p for p in json.loads(out)["players"] if p["name"] == "bp")
    expected = score_hands(mixed, hands, "bp").estimates
    big_blind = max(GAME.blinds)
    assert player["aivat"]["profile"] == "synthetic"
    assert player["aivat"]["result"]["mbb_per_hand"] == pytest.approx(
        expected.mean() * 1000 / big_blind, rel=1e-9)
    sd = player["aivat"]["spread"]
    assert sd["aivat"]["sd_mbb_per_hand"] == pytest.approx(
        expected.std(ddof=1) * 1000 / big_blind, rel=1e-9)
    assert sd["aivat"]["sd_mbb_per_hand"] < sd["plain"]["sd_mbb_per_hand"]
    assert "aivat" not in next(p for p in json.loads(out)["players"] if p["name"] == "other")
    code, out, _ = _report([log, "--aivat", "bp=synthetic"], capsys)
    assert code == 0 and "AIVAT (synthetic):" in out and "lower than plain" in out
    for spec, message in (("bp", "expected NAME=PROFILE"),
                          ("nobody=synthetic", "the logs have no player 'nobody'"),
                          ("bp=random", "does not score the random baseline"),
                          ("bp=default", "a portfolio or a switch")):
        code, out, err = _report([log, "--aivat", spec], capsys)
        assert code != 0 and message in err and len(err.strip().splitlines()) == 1


def test_gambler_match_aivat_needs_the_dealer_and_a_strategy_it_scores(capsys):
    from gambler.training.match_cli import main

    for argv, message in ((["seed", "call", "--aivat"], "add --engine dealer"),
                          (["default", "random", "--engine", "dealer", "--aivat"],
                           "--aivat needs A or B to be a strategy it scores")):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        err = capsys.readouterr().err
        assert exit_.value.code != 0 and message in err and len(err.strip().splitlines()) == 1
