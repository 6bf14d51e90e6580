"""A profile that plays its preflop from a chart (version 4, `bot.chart`): the packed chart the
engine reads against the Python chart the TCP bot reads, the engine against the TCP bot hand for
hand, the mixed classes' draws, and the errors of a chart that does not fit."""

import math
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from acpc_support import NOLIMIT
from test_engine import python_hand, table_strategy
from gambler.bot.chart import (KIND_OF_LETTER, RAISE, ChartError, draw_action, encode_chart,
                               find_chart_file, follow, load_chart, packed_class, packed_draw, packed_follow,
                               packed_real_action, real_action)
from gambler.bot.params import ProfileError, load_profile, parse_profile, save_profile
from gambler.bot.strategies import ProfileStrategy, resolve_strategy
from gambler.evaluator.preflop import class_index, class_name, class_preflop_v
from gambler.evaluator.rng import chart_uniform, mixing_uniform
from gambler.protocol import BettingState, load_game
from gambler.protocol.betting import Action
from gambler.protocol.matchstate import MatchState
from gambler.training.deals import compute_deal_set
from gambler.training.engine import (EngineError, encode_rules, encode_strategy, play_hand,
                                     stack_vectors)
from gambler.evaluator.rng import stream_seed

NL = load_game(NOLIMIT)
CHART = str(Path(__file__).resolve().parent / "data" / "profiles" / "v4-chart.yaml")


def random_rounds(count: int, seed: int):
    """`count` legal preflop rounds of random play (folds rare; raises of random legal sizes,
    a fifth of them all in), as lists of (kind, raise-to) and their `BettingState`s."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        state = BettingState.start(NL)
        played = []
        while not state.finished and state.round == 0:
            legal = state.legal_actions()
            roll = rng.random()
            if legal.can_raise and roll < 0.55:
                high = legal.max_raise_to if rng.random() < 0.2 else \
                    min(legal.max_raise_to, legal.min_raise_to * 4)
                action = Action("r", int(rng.integers(legal.min_raise_to, high + 1)))
            elif roll < 0.6 and state.max_spent > state.spent[state.current_player]:
                action = Action("f")
            else:
                action = Action("c")
            yield list(played), state
            played.append((KIND_OF_LETTER[action.kind], action.raise_to))
            state = state.apply(action)


def test_the_packed_chart_follows_and_acts_as_the_chart_itself():
    """The engine's numba helpers (called here as plain Python) against `follow`,
    `real_action` and `draw_action` on 400 random rounds' every prefix."""
    chart = load_chart("preflop")
    packed = encode_chart(chart)
    rng = np.random.default_rng(5)
    reached = set()
    for played, state in random_rounds(400, 7):
        kinds = np.array([kind for kind, _ in played], dtype=np.int64)
        amounts = np.array([amount for _, amount in played], dtype=np.int64)
        node = follow(chart, played)
        assert packed_follow(packed, 0, kinds, amounts, len(played)) == node, played
        if node < 0:
            continue
        reached.add(node)
        legal = state.legal_actions()
        low, high = (legal.min_raise_to, legal.max_raise_to) if legal.can_raise else (-1, -1)
        bet, pot = state.max_spent, sum(state.spent)
        to_call = bet - state.spent[state.current_player]
        for k, action in enumerate(chart.nodes[node].actions):
            assert packed_real_action(packed, 0, node, k, bet, pot, to_call, low, high) == \
                real_action(action, bet, pot, to_call, low, high)
        for class_ in rng.integers(0, 169, 5):
            for uniform in rng.random(3):
                assert packed_draw(packed, 0, node, class_, uniform) == \
                    draw_action(chart, node, class_, uniform)
    assert len(reached) > 60  # most of the tree's 160 nodes were met


def test_the_engine_finds_each_class_from_its_preflop_v():
    """The engine has no cards, only v: each class's preflop v is its own, the deal sets carry
    exactly the table's, and the chart's bisection finds the class from it."""
    packed = encode_chart(load_chart("preflop"))
    table = class_preflop_v()
    assert np.unique(table).size == 169
    for class_ in range(169):
        assert packed_class(packed, 0, table[class_]) == class_
        assert packed_class(packed, 0, table[class_] + 1e-12) == class_  # nearest
    deals = compute_deal_set(seed=4, first_deal=0, count=200)
    for i in range(200):
        for p in range(2):
            assert deals.v[i, p, 0] == table[class_index(*deals.holes[i, p])]


class Counted:
    """A chart profile's TCP strategy that counts its preflop decisions and those its chart
    made (`chart_decision`: not None while the round stays in the tree)."""

    def __init__(self, strategy):
        self.strategy, self.preflop, self.charted = strategy, 0, 0

    def act(self, view):
        if view.betting.round == 0:
            self.preflop += 1
            self.charted += self.strategy.chart_decision(view) is not None
        return self.strategy.act(view)


@pytest.fixture(scope="module")
def deals():
    return compute_deal_set(seed=3, first_deal=0, count=150)


@pytest.mark.parametrize("pair", [(CHART, "default-v2"), ("prober", CHART), (CHART, CHART),
                                  ("raise", CHART), (CHART, "allin"), ("sizer", CHART)])
def test_engine_hands_equal_tcp_hands_with_a_chart(deals, pair):
    rules = encode_rules(NL)
    encoded = [encode_strategy(resolve_strategy(name)) for name in pair]
    kinds = np.array([kind for kind, _ in encoded])
    params = stack_vectors([vector for _, vector in encoded])
    preflop = charted = 0
    for i in range(len(deals)):
        deal = deals.slice(i, i + 1)
        v_of_hole = {tuple(int(c) for c in deal.holes[0, p]): deal.v[0, p] for p in range(2)}
        strategies = [table_strategy(name, v_of_hole) for name in pair]
        strategies = [Counted(s) if getattr(s, "profile", None) is not None and s.profile.chart
                      else s for s in strategies]
        state, payoffs = python_hand(NL, strategies, None, SimpleNamespace(
            holes=deal.holes[0], boards=deal.boards[0]), i)
        trace = np.full((64, 3), -1, dtype=np.int64)
        ours, _ = play_hand(rules, kinds, params, deal.v[0], deal.outcomes[0],
                            np.uint64(stream_seed(0, i)), trace, 0, i, holes=deal.holes[0],
                            board=deal.boards[0])
        replay = BettingState.start(NL)
        for _, code, amount in (row for row in trace if row[0] >= 0):
            replay = replay.apply(Action("fcr"[code], int(amount) if code == 2 else 0))
        assert replay.betting_string() == state.betting_string(), i
        assert ours == payoffs[0], i
        preflop += sum(c.preflop for c in strategies if isinstance(c, Counted))
        charted += sum(c.charted for c in strategies if isinstance(c, Counted))
    # Every preflop decision of the chart profile came from its chart (the round never left
    # the tree in these pairings), so the chart, not the preflop rules, is what was compared.
    assert charted == preflop > len(deals) // 2


def test_a_mixed_class_plays_each_action_as_often_as_the_chart_says():
    """At the root the TCP bot draws a mixed class's action from `chart_uniform`: over 3,000
    hands each action's frequency is its probability within 4 standard errors; the draws are
    not mixed play's (no shared stream)."""
    profile = load_profile(CHART)
    chart = profile.preflop_chart
    table = chart.strategy[0]
    mixed = [c for c in range(169) if 0.2 < table[:, c].max() < 0.8]
    class_ = mixed[0]
    hole = next((a, b) for a in range(52) for b in range(a + 1, 52)
                if class_index(a, b) == class_)
    bot = ProfileStrategy(profile, win_rate=lambda *args: 0.0, seed=21)
    start = BettingState.start(NL)
    hands = 3000
    counts = np.zeros(table.shape[0])
    for hand in range(hands):
        action, fields = bot.act_and_explain(MatchState(1, hand, start, ((), hole), ()))
        assert fields["chart"] == "root" and fields["class"] == class_name(class_)
        kind = KIND_OF_LETTER[action.kind]
        k = next(k for k, a in enumerate(chart.nodes[0].actions)
                 if a.kind == kind and (kind != RAISE or
                                        real_action(a, 100, 150, 50, 200, 20000)[1]
                                        == action.raise_to))
        counts[k] += 1
    for k, p in enumerate(table[:, class_]):
        assert abs(counts[k] - hands * p) <= 4 * math.sqrt(hands * p * (1 - p)) + 1e-9, (k, p)
    u = np.array([chart_uniform(21, hand, 0, 1) for hand in range(hands)])
    w = np.array([mixing_uniform(21, hand, 0, 1) for hand in range(hands)])
    assert abs(np.corrcoef(u, w)[0, 1]) < 4 / math.sqrt(hands)


def test_a_chart_for_another_game_is_refused_by_the_bot_and_the_engine():
    short = replace(NL, stacks=(1000, 1000))
    profile = load_profile(CHART)
    bot = ProfileStrategy(profile, win_rate=lambda *args: 0.0)
    with pytest.raises(ChartError, match=r"stacks of 20000 .* not stacks \[1000, 1000\]"):
        bot.act(MatchState(1, 0, BettingState.start(short), ((), (0, 1)), ()))
    kind, vector = encode_strategy(profile)
    with pytest.raises(EngineError, match=r"solved for stacks of 20000"):
        play_hand(encode_rules(short), np.array([kind, kind]), stack_vectors([vector, vector]),
                  np.zeros((2, 4)), 0, np.uint64(1), np.empty((0, 3), dtype=np.int64))


def test_the_chart_key_needs_version_4_and_a_chart_that_exists():
    text = Path(CHART).read_text()
    assert parse_profile(parse_profile(text, "c.yaml").to_yaml(), "again.yaml").chart == "preflop"
    with pytest.raises(ProfileError, match=r"c.yaml: unknown key 'chart' .*needs version: 4"):
        parse_profile(text.replace("version: 4", "version: 3"), "c.yaml")
    with pytest.raises(ProfileError, match=r"c.yaml: chart: no chart file 'nosuch'"):
        parse_profile(text.replace("chart: preflop", "chart: nosuch"), "c.yaml")


def test_the_chart_stream_never_meets_mixed_plays_streams():
    """Chart draws are keyed by (hand, actions so far, position), mixed play's by (hand, round,
    position); both are SplitMix64 streams of one seed, so without the chart's salt hand h's
    chart draw would be hand 16 h's mixed-play draw. None of 1,600 chart draws is any of
    25,600 mixed-play draws of the hands up to 16 times further."""
    chart = {chart_uniform(3, hand, decision, position) for hand in range(200)
             for decision in range(4) for position in range(2)}
    mixed = {mixing_uniform(3, hand, round_, position) for hand in range(3200)
             for round_ in range(4) for position in range(2)}
    assert len(chart) == 1600 and not chart & mixed


def test_a_saved_profile_still_finds_its_chart(tmp_path):
    """A chart beside the profile is named relative to the profile's folder; saved elsewhere
    (a training run's best.yaml) the path is rewritten from there; a shipped chart keeps its
    name."""
    (tmp_path / "charts").mkdir()
    (tmp_path / "charts" / "mine.yaml").write_text(find_chart_file("preflop").read_text())
    (tmp_path / "profiles").mkdir()
    text = Path(CHART).read_text().replace("chart: preflop", "chart: ../charts/mine.yaml")
    (tmp_path / "profiles" / "p.yaml").write_text(text)
    profile = load_profile(tmp_path / "profiles" / "p.yaml")
    assert Path(profile.chart_path) == (tmp_path / "charts" / "mine.yaml").resolve()
    (tmp_path / "runs" / "x").mkdir(parents=True)
    save_profile(profile, tmp_path / "runs" / "x" / "best.yaml")
    again = load_profile(tmp_path / "runs" / "x" / "best.yaml")
    assert again.chart == "../../charts/mine.yaml" and again.chart_path == profile.chart_path
    assert "chart: preflop\n" in load_profile(CHART).to_yaml(tmp_path)
