"""Preflop charts (`bot.chart`) and their solver (`training.preflop`): the tree against the
protocol's own rules, the translation of real raises, the file's errors, and CFR+ against known
game values (Kuhn poker) and its own best response."""

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from acpc_support import NOLIMIT
from gambler.bot.chart import (CALL, FOLD, FOLD_END, RAISE, SHOWDOWN, ChartError, build_tree,
                               chart_text, draw_action, find_chart_file, follow, load_chart, parse_chart,
                               real_action, translate_raise)
from gambler.evaluator.preflop import class_index, class_name
from gambler.protocol import BettingState, load_game
from gambler.protocol.betting import CALL_ACTION, FOLD_ACTION, raise_to
from gambler.training.preflop import (PreflopGame, _terminal, chart_best_response,
                                      class_equities, class_matrices, cfr_plus, exploitability,
                                      new_solution, preflop_game, rounded, solve_chart,
                                      values_per_hand)
from gambler.training.preflop import main as solve_main

NL = load_game(NOLIMIT)
TREE = build_tree(20000, (100, 50), (Fraction(1, 2), 1, 2), 3)


def _protocol_action(action):
    if action.kind == FOLD:
        return FOLD_ACTION
    if action.kind == CALL:
        return CALL_ACTION
    return raise_to(action.target)


@pytest.mark.parametrize("tree", [TREE, build_tree(20000, (100, 50), (Fraction(1, 4), 1), 3)],
                         ids=["shipped sizes", "quarter pots"])
def test_every_node_and_action_of_the_tree_is_what_the_protocol_allows(tree):
    """Each node, reached by its path through `protocol.betting`, has the actor, totals and
    legal raises the rules give; a call closes the round exactly where the protocol says. (A
    quarter-pot three-bet falls below the minimum raise, the last raise's increment: 450 after an
    open to 300 is moved up to 500.)"""
    states = {0: BettingState.start(NL)}
    for index, node in enumerate(tree):
        state = states[index]
        assert state.round == 0 and state.to_act == node.actor
        assert tuple(state.spent) == node.totals
        legal = state.legal_actions()
        assert any(a.kind == FOLD for a in node.actions) == legal.can_fold
        for action in node.actions:
            after = state.apply(_protocol_action(action))
            if action.kind == RAISE:
                assert legal.min_raise_to <= action.target <= legal.max_raise_to
            if action.end == FOLD_END:
                assert after.finished and after.folded[node.actor]
            elif action.end == SHOWDOWN:
                assert after.round > 0 or after.finished
            else:
                assert after.round == 0 and not after.finished
                states[action.child] = after
    assert len(states) == len(tree)


def test_the_raise_sizes_are_lbrs_pot_fractions():
    """Facing an open to 300 in the big blind (bet 300, pot 400, to call 200) the three-bets are
    LBR's H, P and D: 600, 900 and 1,500 (`training.lbr.raise_size_target`'s example)."""
    node = TREE[TREE[0].actions[3].child]
    assert node.path == "r1" and node.totals == (100, 300)
    assert [(a.label, a.target) for a in node.actions] == [
        ("f", 0), ("c", 0), ("r0.5", 600), ("r1", 900), ("r2", 1500), ("a", 20000)]
    assert [a.label for a in TREE[0].actions] == ["f", "c", "r0.5", "r1", "r2", "a"]
    assert TREE[0].actions[2].target == 200  # half a pot is below the minimum raise: moved up


def test_a_real_raise_maps_to_the_nearest_size_in_logarithm():
    root = TREE[0]  # bet 100, pot 150, to call 50: r0.5 = 200 (0.5 pots), r1 = 300 (1 pot)
    labels = [a.label for a in root.actions]
    at = {amount: labels[translate_raise(root, 100, 150, 50, amount, 20000)]
          for amount in (200, 240, 250, 300, 420, 450, 2900, 3000, 19999, 20000)}
    # 240 is 0.7 pots: nearer 0.5 than 1 in logarithm (0.34 < 0.36); 250 is 0.75: nearer 1.
    # All in is 99.5 pots here, so the boundary with r2 is their geometric mean, 14.1 pots
    # (a raise to about 2,920): 2,900 is a two-pot raise, 3,000 an all in.
    assert at == {200: "r0.5", 240: "r0.5", 250: "r1", 300: "r1", 420: "r2", 450: "r2",
                  2900: "r2", 3000: "a", 19999: "a", 20000: "a"}
    assert translate_raise(TREE[TREE[0].actions[5].child], 20000, 20100, 19900, 20000,
                           20000) == -1  # facing all in: no raise


def test_following_a_real_round_down_the_tree():
    chart = load_chart("preflop")
    assert follow(chart, []) == 0
    opened = follow(chart, [(RAISE, 250)])  # 250 translates to the pot raise
    assert chart.nodes[opened].path == "r1"
    assert chart.nodes[follow(chart, [(RAISE, 250), (RAISE, 800)])].path == "r1 r1"
    assert chart.nodes[follow(chart, [(CALL, 0)])].path == "c"
    deep = [(RAISE, 300), (RAISE, 900), (RAISE, 2700), (RAISE, 8000)]
    # a fourth raise, below all in, beyond the cap of 3: all in is the only raise left there
    assert chart.nodes[follow(chart, deep)].path == "r1 r1 r1 a"
    assert follow(chart, [(RAISE, 300), (FOLD, 0)]) == -1


def test_a_chart_action_in_the_real_state():
    """A sized raise is computed on the real bet and pot, then moved into the legal range."""
    node = TREE[TREE[0].actions[3].child]  # facing an open; the real open was 250, not 300
    pot_raise = node.actions[3]
    assert real_action(pot_raise, 250, 350, 150, 400, 20000) == (RAISE, 250 + 500)
    assert real_action(pot_raise, 250, 350, 150, 1000, 20000) == (RAISE, 1000)
    assert real_action(pot_raise, 250, 350, 150, -1, -1) == (CALL, 0)
    assert real_action(node.actions[5], 250, 350, 150, 400, 20000) == (RAISE, 20000)
    assert real_action(node.actions[0], 250, 350, 150, 400, 20000) == (FOLD, 0)
    assert real_action(node.actions[0], 100, 200, 0, 200, 20000) == (CALL, 0)


def test_the_class_matrices_count_compatible_pairs_and_are_antisymmetric():
    counts, showdown = class_matrices()
    aces, kings, ace_king_suited = class_index(48, 49), class_index(44, 45), class_index(48, 44)
    assert counts.sum() == 1326 * 1225
    assert counts[aces, aces] == 6  # each pair of aces meets only the other two aces
    assert counts[aces, kings] == 36
    assert counts[ace_king_suited, aces] == 12  # each suited AK leaves three aces: 3 pairs
    np.testing.assert_array_equal(counts, counts.T)
    np.testing.assert_allclose(showdown, -showdown.T, atol=1e-9)
    assert abs(showdown[aces, aces]) < 1e-12  # a split pot
    assert 0.6 < showdown[aces, kings] / counts[aces, kings] < 0.7  # about 82% for the aces


def test_cfr_plus_finds_kuhn_pokers_value():
    """Kuhn poker in the chart's terms: antes as two equal blinds of 1, stacks of 2, so the only
    raise is all in (a bet of 1); the first player's value is -1/18."""
    nodes = build_tree(2, (1, 1), (Fraction(1, 2),), 1)
    assert [(n.path, [a.label for a in n.actions]) for n in nodes] == [
        ("root", ["c", "a"]), ("c", ["c", "a"]), ("a", ["f", "c"]), ("c a", ["f", "c"])]
    counts = 1.0 - np.eye(3)
    showdown = np.sign(np.subtract.outer(np.arange(3), np.arange(3))).astype(float)
    game = PreflopGame(nodes, counts, showdown, 6.0)
    solution = cfr_plus(new_solution(game), 2000)
    second, first = values_per_hand(game, solution.sums, 2)
    assert first == pytest.approx(-1 / 18, abs=1e-4) and second == pytest.approx(1 / 18, abs=1e-4)
    assert 0.0 <= exploitability(game, solution.sums) < 1e-3


def test_the_shipped_chart_is_nearly_unexploitable_in_its_game_and_uniform_play_is_not():
    chart = load_chart("preflop")
    game = preflop_game(chart.stack, chart.blinds, chart.sizes, chart.cap)
    gap = exploitability(game, list(chart.strategy)) / 100 * 1000  # mbb/hand
    assert gap == pytest.approx(chart.solve["exploitability_mbb"], abs=0.01)
    assert 0.0 <= gap < 1.0
    uniform = [np.full_like(t, 1.0 / t.shape[0]) for t in chart.strategy]
    assert exploitability(game, uniform) / 100 * 1000 > 1000.0


def test_a_short_solve_gets_less_exploitable_as_it_runs():
    game = preflop_game(sizes=(1,), cap=2)
    solution = new_solution(game)
    gaps = []
    for _ in range(3):
        cfr_plus(solution, 40)
        gaps.append(exploitability(game, solution.sums))
    assert gaps[0] > gaps[1] > gaps[2] > 0.0
    # CFR+'s floor on the regrets: 38.9 mbb/hand after 120 iterations; plain CFR (no floor,
    # the same averaging) is still at 69.4
    assert gaps[2] * 10 < 50.0


def _closing_call(tree, path):
    """(node, its call action) at the node reached by `path`."""
    node = next(node for node in tree if node.path == path)
    return node, next(action for action in node.actions if action.kind == CALL)


def test_a_postflop_edge_moves_e_times_the_stake_from_the_taxed_player_when_chips_remain():
    """(2e - 1) T - E T for the taxed player and + E T for the other, at every class pairing; an
    all in reaches a showdown with nothing behind and pays nothing."""
    plain, taxed_bb = preflop_game(), preflop_game(edge=0.35, taxed=0)
    reach = np.linspace(0.1, 1.0, 169)
    node, call = _closing_call(plain.nodes, "r1")  # the small blind opens a pot, the big blind calls
    stake = max(node.totals)
    assert call.end == SHOWDOWN and stake < plain.stack
    for player, sign in ((0, -1.0), (1, +1.0)):
        base = _terminal(plain, node, call, player, reach)
        edged = _terminal(taxed_bb, node, call, player, reach)
        np.testing.assert_allclose(edged - base, sign * 0.35 * stake * (plain.counts @ reach))
    all_in, call_all_in = _closing_call(plain.nodes, "a")
    assert max(all_in.totals) == plain.stack
    for player in (0, 1):
        np.testing.assert_array_equal(_terminal(taxed_bb, all_in, call_all_in, player, reach),
                                      _terminal(plain, all_in, call_all_in, player, reach))


def _class_of(name: str) -> int:
    return [class_name(index) for index in range(169)].index(name)


def test_class_equities_are_the_published_preflop_equities_against_a_random_hand():
    """Known values (wins plus half the ties against one random holding): AA 85.20%, KK 82.40%,
    AKs 67.04%, 72o 34.58%, 32o 32.30%."""
    equities = class_equities()
    for name, known in (("AA", 0.8520), ("KK", 0.8240), ("AKs", 0.6704), ("72o", 0.3458),
                        ("32o", 0.3230)):
        assert equities[_class_of(name)] == pytest.approx(known, abs=5e-5)


def test_a_sloped_edge_charges_each_class_of_the_taxed_player_its_own_edge():
    """With a slope S the taxed player's class c pays (E + S (e_c - 1/2)) T: its own classes pay
    their own edges, and against it each opposing class's edge is weighted by that class's
    reach (not the average edge: a taxed range of strong hands pays less)."""
    plain = preflop_game()
    sloped = preflop_game(edge=0.35, taxed=1, slope=-2.0)
    per_class = 0.35 - 2.0 * (class_equities() - 0.5)
    assert per_class[_class_of("AA")] == pytest.approx(0.35 - 2.0 * 0.3520, abs=1e-4)
    reach = np.linspace(0.1, 1.0, 169)
    node, call = _closing_call(plain.nodes, "r1")
    stake = max(node.totals)
    taxed_gap = _terminal(sloped, node, call, 1, reach) - _terminal(plain, node, call, 1, reach)
    np.testing.assert_allclose(taxed_gap, -stake * per_class * (plain.counts @ reach))
    other_gap = _terminal(sloped, node, call, 0, reach) - _terminal(plain, node, call, 0, reach)
    np.testing.assert_allclose(other_gap, stake * (plain.counts @ (per_class * reach)))
    flat = preflop_game(edge=0.35, taxed=1)
    assert not np.allclose(other_gap, _terminal(flat, node, call, 0, reach)
                           - _terminal(plain, node, call, 0, reach))


def test_a_negative_slope_lets_the_strong_classes_defend_what_a_flat_edge_folds():
    """Solved with the same edge for the average class, a slope of -3 keeps the strong classes
    in (they pay less) and folds more of the weak ones, here the big blind's answer to the
    small blind's pot-sized open."""
    sizes, iterations = (Fraction(1, 2), 1, 2), 24
    flat = solve_chart(20000, (100, 50), sizes, 3, iterations, (0.8, 0.8))
    sloped = solve_chart(20000, (100, 50), sizes, 3, iterations, (0.8, 0.8),
                         slopes=(-3.0, -3.0))
    index = next(n for n, node in enumerate(TREE) if node.path == "r1")
    assert TREE[index].actor == 0 and TREE[index].actions[0].kind == FOLD
    equities = class_equities()
    strong, weak = equities > 0.6, equities < 0.45
    assert sloped[index][0][strong].mean() < flat[index][0][strong].mean() - 0.1
    assert sloped[index][0][weak].mean() >= flat[index][0][weak].mean()


def test_each_seat_of_a_chart_comes_from_the_solve_where_that_seat_pays_its_own_edge():
    sizes, iterations = (Fraction(1, 2), 1, 2), 24
    both = {edge: solve_chart(20000, (100, 50), sizes, 3, iterations, (edge, edge))
            for edge in (0.1, 0.4)}
    mixed = solve_chart(20000, (100, 50), sizes, 3, iterations, (0.4, 0.1))
    for n, node in enumerate(TREE):
        np.testing.assert_array_equal(mixed[n], both[0.4 if node.actor == 0 else 0.1][n])
    # the small blind's opening fold share (over holdings) grows with its edge
    combos = class_matrices()[0].sum(axis=1)
    fold = [float(both[edge][0][0] @ combos / combos.sum()) for edge in (0.1, 0.4)]
    assert TREE[0].actions[0].kind == FOLD and TREE[0].actor == 1
    assert fold[1] > fold[0] + 0.1  # 0.58 and 0.75 after 24 iterations


def test_the_solver_names_a_bad_edge(capsys):
    with pytest.raises(SystemExit):
        solve_main(["--postflop-edge", "0.1,x", "--out", "unused.yaml"])
    assert "'0.1,x': expected E or E_BB,E_SB (numbers)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        solve_main(["--edge-slope=-3,-5,1", "--out", "unused.yaml"])
    assert "'-3,-5,1': expected S or S_BB,S_SB (numbers)" in capsys.readouterr().err


def _first_action_everywhere(chart):
    """The chart with every class playing each node's first action: a fold, or a check when
    nothing is owed (the big blind checks a limp)."""
    folding = []
    for table in chart.strategy:
        first = np.zeros_like(table)
        first[0] = 1.0
        folding.append(first)
    return dataclasses.replace(chart, strategy=tuple(folding))


def test_a_chart_that_folds_every_hand_is_worth_what_a_best_response_can_take():
    """Against its small blind the best response wins the small blind's 50 chips a hand, edges or
    not. Against its big blind, which folds to any raise and checks a limp: with no edge every
    holding raises and wins the 100 chips; with an edge E on the big blind a class c of equity e_c
    limps when the check-down, 100 (2 e_c - 1) + 100 E, is worth more (class_equities: the
    equity against a random holding, card removal included)."""
    chart = _first_action_everywhere(load_chart("preflop-tight"))
    against_bb, against_sb = chart_best_response(chart)
    assert against_bb == pytest.approx(100.0) and against_sb == pytest.approx(50.0)
    combos = class_matrices()[0].sum(axis=1)
    limp = 100.0 * (2.0 * class_equities() - 1.0) + 100.0 * 0.9
    expected = float(np.maximum(100.0, limp) @ combos / combos.sum())
    assert expected > 103.0  # the classes above 55% equity limp: AA's check-down is worth 160
    against_bb, against_sb = chart_best_response(chart, (0.9, 0.3))
    assert against_bb == pytest.approx(expected, rel=1e-9)
    assert against_sb == pytest.approx(50.0)


def test_each_seat_of_a_chart_is_priced_at_its_own_edge():
    """What the best response takes from the big blind moves with the big blind's edge alone, and
    grows with it; the same for the small blind."""
    chart = load_chart("preflop-tight")
    low, high = chart_best_response(chart, (0.2, 0.7)), chart_best_response(chart, (0.6, 0.7))
    assert high[0] > low[0] + 5.0 and high[1] == pytest.approx(low[1])
    low, high = chart_best_response(chart, (0.6, 0.2)), chart_best_response(chart, (0.6, 0.7))
    assert high[1] > low[1] + 5.0 and high[0] == pytest.approx(low[0])


def test_the_solver_prices_a_chart_on_the_command_line(capsys):
    assert solve_main(["--evaluate", "preflop-tight", "--postflop-edge", "0.55,0.7"]) == 0
    against_bb, against_sb = (10.0 * value for value in
                              chart_best_response(load_chart("preflop-tight"), (0.55, 0.7)))
    assert capsys.readouterr().out == (
        "a best response against preflop-tight, its player paying edges 0.55 (big blind) and 0.7 "
        f"(small blind): {against_bb:+,.1f} mbb/hand against its big blind, {against_sb:+,.1f} "
        f"against its small blind, {(against_bb + against_sb) / 2:+,.1f} on average\n")
    with pytest.raises(SystemExit) as exit_:
        solve_main(["--evaluate", "nosuch"])
    assert exit_.value.code == 1
    assert capsys.readouterr().err == ("python -m gambler.training.preflop: error: no chart file "
                                       "'nosuch' (shipped charts: preflop, preflop-edge, "
                                       "preflop-tight)\n")
    with pytest.raises(SystemExit) as exit_:
        solve_main(["--iterations", "3"])
    assert exit_.value.code == 2
    assert "give --out FILE (solve a chart) or --evaluate CHART (price one)" in \
        capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        solve_main(["--evaluate", "preflop-tight", "--cap", "4", "--name", "x"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.endswith(
        "error: --cap, --name solve a chart; --evaluate prices CHART as written\n")


def test_drawing_a_mixed_action_follows_the_cumulative_probabilities():
    chart = load_chart("preflop")
    node, class_ = next((n, c) for n, table in enumerate(chart.strategy)
                        for c in range(169) if 0.2 < table[:, c].max() < 0.8)
    column = chart.strategy[node][:, class_]
    cumulative = np.cumsum(column)
    first = int(np.argmax(column > 0))
    assert draw_action(chart, node, class_, 0.0) == first
    for k in np.flatnonzero(column > 0):
        assert draw_action(chart, node, class_, cumulative[k] - 1e-9) == k
    rng = np.random.default_rng(5)
    draws = [draw_action(chart, node, class_, u) for u in rng.random(20000)]
    shares = np.bincount(draws, minlength=len(column)) / len(draws)
    np.testing.assert_allclose(shares, column, atol=0.015)


def test_the_chart_file_round_trips_and_rounding_keeps_it_a_strategy():
    chart = load_chart("preflop")
    again = parse_chart(chart_text(chart), "again.yaml")
    for a, b in zip(chart.strategy, again.strategy):
        np.testing.assert_allclose(a, b, atol=1e-9)
    for table in rounded([np.array([[0.996, 0.3], [0.004, 0.7]])]):
        np.testing.assert_allclose(table.sum(axis=0), 1.0)
        assert table[1, 0] == 0.0  # below half a percent: dropped


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace("  root: 2", "  root: x", 1), "nodes: root: letter 1 'x' is not an action"),
    (lambda t: t.replace("cap: 3", "cap: 0"), "cap: a positive integer"),
    (lambda t: t.replace("- 0.5\n", "- -1\n", 1), "sizes: 1 to 10 distinct positive"),
    (lambda t: t.replace("kind: chart", "kind: profile"), "not a chart file"),
    (lambda t: t.replace("nodes:", "colour: red\nnodes:"), "unknown key 'colour'"),
    (lambda t: t.replace("\n  c: ", "\n  zz: ", 1), "nodes: 'zz' is not a node of this tree"),
])
def test_a_broken_chart_file_names_the_field(change, message):
    text = find_chart_file("preflop").read_text()
    with pytest.raises(ChartError, match="broken.yaml: " + message.replace("(", r"\(")):
        parse_chart(change(text), "broken.yaml")


def test_mixed_probabilities_must_sum_to_one():
    text = chart_text(load_chart("preflop"))
    start = text.index("mixed:")
    entry = text.index("{", start)
    close = text.index("}", entry)
    broken = text[:entry] + "{c: 0.5}" + text[close + 1:]
    with pytest.raises(ChartError, match=r"mixed: .*: the probabilities sum to 0.5, not 1"):
        parse_chart(broken, "broken.yaml")


def test_a_chart_is_found_by_path_or_shipped_name_and_a_missing_one_is_named():
    assert find_chart_file("preflop") == find_chart_file("preflop.yaml")
    assert load_chart(find_chart_file("preflop")).name == "preflop"
    with pytest.raises(ChartError,
                       match=r"no chart file 'nosuch' \(shipped charts: preflop, preflop-edge, preflop-tight\)"):
        load_chart("nosuch")
