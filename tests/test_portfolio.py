"""Portfolios: Exp3 by hand, the file format, the TCP bot and the fast engine hand for hand, and
the estimate unbiased."""

import math
from pathlib import Path

import numpy as np
import pytest

from acpc_support import NOLIMIT
from gambler.bot.params import ProfileError
from gambler.bot.portfolio import Exp3, PortfolioStrategy, hand_reward, parse_portfolio
from gambler.bot.strategies import load_strategy, member_strategy, resolve_strategy
from gambler.protocol import BettingState, load_game
from gambler.protocol.matchstate import MatchState
from gambler.training.deals import compute_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import play_portfolio

NL = load_game(NOLIMIT)
DATA = Path(__file__).resolve().parent / "data" / "profiles"
MIXED = str(DATA / "v2-mixed.yaml")
NARROW = str(DATA / "v2-narrow.yaml")
V3 = str(DATA / "v3-defend.yaml")


def portfolio(members, exploration=0.1, learning_rate=0.05):
    text = (f"kind: portfolio\nname: test\nmembers: {list(members)!r}\n"
            f"exploration: {exploration}\nlearning_rate: {learning_rate}\n")
    return parse_portfolio(text.replace("'", '"'), source="test.yaml")


def test_exp3_follows_a_sequence_worked_by_hand():
    """Three members, gamma 0.3, eta 0.5 per big blind; every number below worked on paper."""
    rule = Exp3(3, exploration=0.3, learning_rate=0.5)
    assert rule.probabilities() == pytest.approx([1 / 3] * 3)
    # Hand 1: member 0 drawn (u = 0.2 < 1/3), the hand wins 3 big blinds; member 2 agreed with
    # every action, member 1 did not: P(C) = 2/3, members 0 and 2 gain 3 / (2/3) = 4.5.
    assert rule.choose(0.2) == 0
    assert rule.update(3.0, [True, False, True]) == pytest.approx([4.5, 0.0, 4.5])
    # Weights exp(0.5 (S - 4.5)) = (1, e^-2.25, 1) = (1, 0.105399, 1); p = 0.7 w / 2.105399 + 0.1.
    w = math.exp(-2.25)
    expected = [0.7 / (2 + w) + 0.1, 0.7 * w / (2 + w) + 0.1, 0.7 / (2 + w) + 0.1]
    assert rule.probabilities() == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx([0.43248, 0.13504, 0.43248], abs=1e-5)
    # Hand 2: u = 0.5 falls between 0.43248 and 0.43248 + 0.13504: member 1 plays alone and loses
    # 2 big blinds: it gains -2 / 0.13504 = -14.810; the others nothing.
    assert rule.choose(0.5) == 1
    estimates = rule.update(-2.0, [False, True, False])
    assert estimates == pytest.approx([0.0, -2 / expected[1], 0.0])
    assert rule.gains == pytest.approx([4.5, -14.8101, 4.5], abs=1e-4)
    # Hand 3: a draw beyond the sum (rounding) takes the last member.
    assert rule.choose(0.9999999999999999999) == 2


def test_exp3_gains_and_draws_are_what_the_docstring_says_for_many_members():
    rule = Exp3(4, exploration=0.2, learning_rate=0.1)
    rule.gains = [1.0, -3.0, 10.0, 0.0]
    p = rule.probabilities()
    weights = [math.exp(0.1 * (g - 10.0)) for g in rule.gains]
    assert p == pytest.approx([0.8 * w / sum(weights) + 0.05 for w in weights], rel=1e-12)
    assert sum(p) == pytest.approx(1.0)
    cumulative = np.cumsum(p)
    for u in np.linspace(0, 0.999, 97):
        assert rule.choose(u, p) == int(np.searchsorted(cumulative, u, side="right"))


@pytest.mark.parametrize("text, message", [
    ("kind: portfolio\nmembers: [default]\n", "members: a list of at least two"),
    ("kind: portfolio\nmembers: [default, random]\n", "members[1] (random): a member must be "
                                                      "deterministic"),
    ("kind: portfolio\nmembers: [default, nosuch]\n", "members[1] (nosuch): no profile file"),
    ("kind: portfolio\nmembers: [default, seed]\nexploration: 0\n", "exploration: 0.0 is not"),
    ("kind: portfolio\nmembers: [default, seed]\nexploration: 1.5\n", "exploration: 1.5 is not"),
    ("kind: portfolio\nmembers: [default, seed]\nlearning_rate: -1\n", "learning_rate: -1.0"),
    ("kind: portfolio\nmembers: [default, seed]\nlearning_rate: fast\n",
     "learning_rate: a number expected, got 'fast'"),
    ("kind: portfolio\nmembers: [default, seed]\nrule: exp4\n", "unknown key 'rule'"),
    ("kind: profile\nmembers: [default, seed]\n", "not a portfolio"),
])
def test_a_bad_portfolio_file_names_the_file_and_the_field(text, message):
    with pytest.raises(ProfileError) as error:
        parse_portfolio(text, source="mine.yaml")
    assert str(error.value).startswith("mine.yaml: ")
    assert message in str(error.value)


def test_a_portfolio_file_is_found_wherever_a_profile_is_named(tmp_path):
    path = tmp_path / "trio.yaml"
    path.write_text("kind: portfolio\nname: trio\nmembers: [default, price-aware, catcher]\n")
    resolved = resolve_strategy(str(path))
    assert resolved.members == ("default", "price-aware", "catcher")
    assert resolved.learning_rate is None  # auto
    # auto: the largest rate with the guarantee, gamma / (K R)
    assert resolved.rate_for(200.0) == pytest.approx(0.05 / (3 * 200))
    assert resolved.guaranteed(200.0)
    assert not portfolio(["default", "seed"], 0.05, 0.01).guaranteed(200.0)
    strategy = load_strategy(str(path), game=NL)
    assert isinstance(strategy, PortfolioStrategy)
    assert strategy.names == ["default", "price-aware", "catcher"]


# --- the TCP bot and the engine, hand for hand -----------------------------------------------

@pytest.fixture(scope="module")
def deals():
    return compute_deal_set(seed=9, first_deal=0, count=240)


def lookup_rate(table):
    """v from the current deal (`table`: hole cards -> v by round, refreshed per hand)."""
    return lambda hole, board, hand, round_: table[tuple(int(c) for c in hole)][round_]


def tcp_match(chosen_portfolio, opponent_name, deals, seat, seed):
    """The match as the TCP bot plays it: `PortfolioStrategy` and the opponent's strategy on the
    deal set's cards, the portfolio at position (h + seat) % 2 in hand h; `hand_ended` gets the
    final state the dealer would send (the opponent's cards shown at a showdown only)."""
    table = {}
    bot = PortfolioStrategy(chosen_portfolio, NL.big_blind, min(NL.stacks),
                            win_rate=lookup_rate(table), seed=seed)
    opponent = member_strategy(resolve_strategy(opponent_name), lookup_rate(table), seed)
    rewards = []
    for h in range(len(deals)):
        table.clear()
        holes = tuple(tuple(int(c) for c in deals.holes[h, p]) for p in range(2))
        for p in range(2):
            table[holes[p]] = deals.v[h, p]
        board = tuple(int(c) for c in deals.boards[h])
        position = (h + seat) % 2
        players = {position: bot, 1 - position: opponent}
        state = BettingState.start(NL)
        while not state.finished:
            player = state.current_player
            view = MatchState(player, h, state, tuple(holes[p] if p == player else ()
                                                      for p in range(2)),
                              board[:state.board_cards_visible])
            state = state.apply(players[player].act(view))
        shown = tuple(holes[p] if p == position or not any(state.folded) else ()
                      for p in range(2))
        final = MatchState(position, h, state, shown, board[:state.board_cards_visible])
        rewards.append(hand_reward(final))
        bot.hand_ended(final)
    return bot, rewards


@pytest.mark.parametrize("members, opponent", [
    (["default", "price-aware", "catcher"], "seed"),
    (["seed", V3, "shover", "call"], "prober"),
    ([MIXED, "default", NARROW], "sizer"),
    (["handmade", "allin", "default-v1"], MIXED),
])
@pytest.mark.parametrize("seat", [0, 1])
def test_the_engine_plays_a_portfolio_hand_for_hand_as_the_tcp_bot(deals, members, opponent,
                                                                    seat):
    chosen = portfolio(members)
    seed = 17
    bot, rewards = tcp_match(chosen, opponent, deals, seat, seed)
    match = play_portfolio(encode_rules(NL), chosen, resolve_strategy(opponent), deals, seed,
                           NL.big_blind, min(NL.stacks), seats=(seat,))
    hands = [row[0] for row in bot.history]
    assert hands == list(range(len(deals)))
    assert match.chosen[0].tolist() == [row[1] for row in bot.history]
    assert match.probabilities[0].tolist() == [row[3] for row in bot.history]  # to the last bit
    assert match.adjusted[0].tolist() == rewards
    assert match.gains[0].tolist() == bot.rule.gains
    # The test means something: several members played, and they disagreed on many hands.
    assert len(set(match.chosen[0].tolist())) >= 2
    assert (~match.agreed[0]).any(axis=1).sum() > 20


def test_a_duplicate_match_is_its_two_seats(deals):
    chosen = portfolio(["default", "price-aware", "catcher"])
    rules = encode_rules(NL)
    both = play_portfolio(rules, chosen, "raise", deals, 3, NL.big_blind, min(NL.stacks))
    for seat in (0, 1):
        alone = play_portfolio(rules, chosen, "raise", deals, 3, NL.big_blind, min(NL.stacks),
                               seats=(seat,))
        for name in ("chips", "adjusted", "chosen", "probabilities", "agreed", "gains"):
            assert (getattr(both, name)[seat] == getattr(alone, name)[0]).all(), name


def test_the_estimate_is_unbiased_for_each_members_own_result():
    """Over many hands with the draw nearly uniform (eta tiny), member k's estimate on a hand
    (reward / P(C) if it agreed, else 0) has the mean of what k wins playing that hand itself
    (a portfolio of k twice: it always plays), within the CI of the per-hand differences."""
    deal_set = compute_deal_set(seed=21, first_deal=0, count=6000)
    rules = encode_rules(NL)
    members = ["default", "price-aware", "catcher"]
    chosen = portfolio(members, exploration=1.0, learning_rate=1e-9)
    seed = resolve_strategy("seed")
    match = play_portfolio(rules, chosen, seed, deal_set, 5, NL.big_blind, min(NL.stacks))
    share = (match.probabilities * match.agreed).sum(axis=2)
    differences = []
    for k, member in enumerate(members):
        estimates = np.where(match.agreed[..., k], match.adjusted / NL.big_blind / share, 0.0)
        alone = play_portfolio(rules, portfolio([member, member]), seed, deal_set, 5,
                               NL.big_blind, min(NL.stacks))
        truth = alone.adjusted / NL.big_blind
        difference = (estimates - truth).ravel()
        error = 1.96 * difference.std() / math.sqrt(difference.size)
        assert abs(difference.mean()) < max(error, 1e-9), (member, difference.mean(), error)
        differences.append(difference)
        # and the estimate is not the truth itself: it moves with the draw
        assert difference.std() > 0.1
    # The agreement matters: its second moment, r^2 / P(C), is at most plain Exp3's r^2 / p_k
    # (reward / p_J for the drawn member alone); these three members agree often enough that the
    # spread is 11% lower (18.8 against 21.2 big blinds a hand).
    plain = np.where(match.chosen == 0, match.adjusted / NL.big_blind / match.probabilities[..., 0],
                     0.0)
    assert differences[0].std() < 0.95 * (plain - alone_truth(rules, deal_set, "default")).std()


def alone_truth(rules, deal_set, member):
    alone = play_portfolio(rules, portfolio([member, member]), resolve_strategy("seed"), deal_set, 5, NL.big_blind,
                           min(NL.stacks))
    return alone.adjusted / NL.big_blind
