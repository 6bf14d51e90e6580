"""Portfolios: Exp3 by hand, the file format, the TCP bot and the fast engine hand for hand, and
the estimate unbiased."""

import math
from pathlib import Path

import numpy as np
import pytest

from acpc_support import NOLIMIT
from gambler.bot.params import ProfileError
from gambler.bot.portfolio import (Exp3, PortfolioStrategy, hand_reward, parse_portfolio,
                                   revealed_estimates)
from gambler.bot.strategies import load_strategy, member_strategy, resolve_strategy
from gambler.bot.switch import Switch, SwitchStrategy, parse_switch
from gambler.protocol import BettingState, load_game
from gambler.protocol.matchstate import MatchState
from gambler.training.deals import compute_deal_set
from gambler.training.engine import EngineError, encode_rules
from gambler.training.portfolio import play_portfolio

NL = load_game(NOLIMIT)
DATA = Path(__file__).resolve().parent / "data" / "profiles"
MIXED = str(DATA / "v2-mixed.yaml")
NARROW = str(DATA / "v2-narrow.yaml")
V3 = str(DATA / "v3-defend.yaml")


def portfolio(members, exploration=0.1, learning_rate=0.05, share=0.0, estimator="agreement"):
    text = (f"kind: portfolio\nname: test\nmembers: {list(members)!r}\n"
            f"exploration: {exploration}\nlearning_rate: {learning_rate}\nshare: {share}\n"
            f"estimator: {estimator}\n")
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



def test_exp3_s_mixes_a_share_of_the_uniform_into_the_weights():
    """Exp3.S with alpha = 0.2, two members, gamma 0.1, eta 1: member 1 plays alone and wins 3
    big blinds at p = 1/2: its estimate is 6, the weights before the share (1, e^6) / (1 + e^6)
    = (0.002473, 0.997527), after it 0.8 w + 0.1 = (0.101979, 0.898021); p = 0.9 w + 0.05."""
    rule = Exp3(2, exploration=0.1, learning_rate=1.0, share=0.2)
    assert rule.update(3.0, [False, True]) == [0.0, 6.0]
    w = 1 / (1 + math.exp(6))
    assert rule.weights == pytest.approx([0.8 * w + 0.1, 0.8 * (1 - w) + 0.1], rel=1e-12)
    assert rule.weights == pytest.approx([0.101979, 0.898021], abs=1e-6)
    assert rule.probabilities() == pytest.approx([0.9 * 0.101979 + 0.05, 0.9 * 0.898021 + 0.05],
                                                 abs=1e-6)
    # However far behind, a member keeps alpha / K of the weight: a follow-up in a few hands.
    for _ in range(50):
        rule.update(100.0, [False, True])
    assert rule.weights[0] == pytest.approx(0.1)
    assert Exp3(2, 0.1, 1.0).weights == [0.5, 0.5]

def test_exp3_weights_and_draws_are_what_the_docstring_says_for_many_members():
    """Four members, updates that leave estimates (1, -3, 10, 0) with eta 0.1: the weights are
    exp(eta S) normalised, p = 0.8 w + 0.05, and a draw picks by cumulative probability."""
    rule = Exp3(4, exploration=0.2, learning_rate=0.1)
    rule.update(1.0, [True, False, False, False], [1.0, 0.0, 0.0, 0.0])
    rule.update(-3.0, [False, True, False, False], [0.0, 1.0, 0.0, 0.0])
    rule.update(10.0, [False, False, True, False], [0.0, 0.0, 1.0, 0.0])
    assert rule.gains == [1.0, -3.0, 10.0, 0.0]
    powers = [math.exp(0.1 * g) for g in rule.gains]
    assert rule.weights == pytest.approx([w / sum(powers) for w in powers], rel=1e-12)
    p = rule.probabilities()
    assert p == pytest.approx([0.8 * w / sum(powers) + 0.05 for w in powers], rel=1e-12)
    assert sum(p) == pytest.approx(1.0)
    cumulative = np.cumsum(p)
    for u in np.linspace(0, 0.999, 97):
        assert rule.choose(u, p) == int(np.searchsorted(cumulative, u, side="right"))


@pytest.mark.parametrize("text, message", [
    ("kind: portfolio\nmembers: [default-v2]\n", "members: a list of at least two"),
    ("kind: portfolio\nmembers: [default-v2, random]\n", "members[1] (random): a member must be "
                                                      "deterministic"),
    ("kind: portfolio\nmembers: [default-v2, nosuch]\n", "members[1] (nosuch): no profile file"),
    ("kind: portfolio\nmembers: [default-v2, seed]\nexploration: 0\n", "exploration: 0.0 is not"),
    ("kind: portfolio\nmembers: [default-v2, seed]\nexploration: 1.5\n", "exploration: 1.5 is not"),
    ("kind: portfolio\nmembers: [default-v2, seed]\nlearning_rate: -1\n", "learning_rate: -1.0"),
    ("kind: portfolio\nmembers: [default-v2, seed]\nlearning_rate: fast\n",
     "learning_rate: a number expected, got 'fast'"),
    ("kind: portfolio\nmembers: [default-v2, seed]\nrule: exp4\n", "unknown key 'rule'"),
    ("kind: portfolio\nmembers: [default-v2, seed]\nshare: 1\n", "share: 1.0 is not in [0, 1)"),
    ("kind: profile\nmembers: [default-v2, seed]\n", "not a portfolio"),
])
def test_a_bad_portfolio_file_names_the_file_and_the_field(text, message):
    with pytest.raises(ProfileError) as error:
        parse_portfolio(text, source="mine.yaml")
    assert str(error.value).startswith("mine.yaml: ")
    assert message in str(error.value)


def test_a_portfolio_file_is_found_wherever_a_profile_is_named(tmp_path):
    path = tmp_path / "trio.yaml"
    path.write_text("kind: portfolio\nname: trio\nmembers: [default-v2, price-aware, catcher]\n")
    resolved = resolve_strategy(str(path))
    assert resolved.members == ("default-v2", "price-aware", "catcher")
    assert resolved.learning_rate is None  # auto
    # auto: the largest rate with the guarantee, gamma / (K R)
    assert resolved.rate_for(200.0) == pytest.approx(0.05 / (3 * 200))
    assert resolved.guaranteed(200.0)
    assert resolved.describe(200.0) == (
        "Exp3 over 3 members (default-v2, price-aware, catcher): exploration 0.05, learning rate "
        "8.33e-05 per big blind (the regret bound holds)")
    assert not portfolio(["default-v2", "seed"], 0.05, 0.01).guaranteed(200.0)
    strategy = load_strategy(str(path), game=NL)
    assert isinstance(strategy, PortfolioStrategy)
    assert strategy.names == ["default-v2", "price-aware", "catcher"]


# --- the TCP bot and the engine, hand for hand -----------------------------------------------

@pytest.fixture(scope="module")
def deals():
    return compute_deal_set(seed=9, first_deal=0, count=240)


@pytest.fixture(scope="module")
def many_deals():
    """6,000 deals of seed 21, for the two estimator tests (computed once)."""
    return compute_deal_set(seed=21, first_deal=0, count=6000)


def lookup_rate(table):
    """v from the current deal (`table`: hole cards -> v by round, refreshed per hand)."""
    return lambda hole, board, hand, round_: table[tuple(int(c) for c in hole)][round_]


def tcp_match(chosen_portfolio, opponent_name, deals, seat, seed, duplicate, refresher=None,
              **options):
    """The match as the TCP bot plays it under `gambler-dealer` (`--duplicate`: hand 2k + 1
    repeats hand 2k's cards): `PortfolioStrategy` and the opponent's strategy on the deal set's
    cards, the portfolio at position (h + seat) % 2 in hand h; `hand_ended` gets the final state
    the dealer would send (the opponent's cards shown at a showdown only). `refresher`: for a
    model member (`gambler.adaptive.live`); `options`: more of `PortfolioStrategy`'s."""
    table = {}
    bot = PortfolioStrategy(chosen_portfolio, NL.big_blind, min(NL.stacks),
                            win_rate=lookup_rate(table), seed=seed, refresher=refresher,
                            **options)
    resolved = resolve_strategy(opponent_name)
    if isinstance(resolved, Switch):
        opponent = SwitchStrategy(resolved, *(member_strategy(part, lookup_rate(table), seed)
                                              for part in (resolved.first, resolved.then)))
    else:
        opponent = member_strategy(resolved, lookup_rate(table), seed)
    rewards = []
    for h in range(len(deals) * (2 if duplicate else 1)):
        deal = h // 2 if duplicate else h
        table.clear()
        holes = tuple(tuple(int(c) for c in deals.holes[deal, p]) for p in range(2))
        for p in range(2):
            table[holes[p]] = deals.v[deal, p]
        board = tuple(int(c) for c in deals.boards[deal])
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
        bot.final_states = getattr(bot, "final_states", []) + [final]
    return bot, rewards


@pytest.mark.parametrize("members, opponent", [
    (["default-v2", "price-aware", "catcher"], "seed"),
    (["seed", V3, "shover", "call"], "prober"),
    ([MIXED, "default-v2", NARROW], "sizer"),
    (["handmade", "allin", "default-v1"], MIXED),
])
@pytest.mark.parametrize("seat, duplicate", [(0, True), (1, False)])
def test_the_engine_plays_a_portfolio_hand_for_hand_as_the_tcp_bot(deals, members, opponent,
                                                                    seat, duplicate):
    chosen = portfolio(members, share=0.01 if seat else 0.0)
    seed = 17
    games = deals.slice(0, 150) if duplicate else deals
    bot, rewards = tcp_match(chosen, opponent, games, seat, seed, duplicate)
    match = play_portfolio(encode_rules(NL), chosen, resolve_strategy(opponent), games, seed,
                           NL.big_blind, min(NL.stacks), seat=seat, duplicate=duplicate)
    hands = [row[0] for row in bot.history]
    assert hands == list(range(len(match.chips)))
    assert match.chosen.tolist() == [row[1] for row in bot.history]
    assert match.probabilities.tolist() == [row[3] for row in bot.history]  # to the last bit
    assert match.adjusted.tolist() == rewards
    assert match.gains.tolist() == bot.rule.gains
    assert match.weights.tolist() == bot.rule.weights
    # The test means something: several members played, and they disagreed on many hands.
    assert len(set(match.chosen.tolist())) >= 2
    assert (~match.agreed).any(axis=1).sum() > 20


def played_alike(chosen, opponent, games, seat, duplicate):
    """The engine's match of `chosen` against `opponent` (seed 17), once checked equal to the
    TCP bot's hand for hand: the members drawn, the rewards, and Exp3's gains and weights."""
    bot, rewards = tcp_match(chosen, opponent, games, seat, 17, duplicate)
    match = play_portfolio(encode_rules(NL), chosen, resolve_strategy(opponent), games, 17,
                           NL.big_blind, min(NL.stacks), seat=seat, duplicate=duplicate)
    assert match.chosen.tolist() == [row[1] for row in bot.history]
    assert match.adjusted.tolist() == rewards
    assert match.gains.tolist() == bot.rule.gains
    assert match.weights.tolist() == bot.rule.weights
    return match


RANGE = str(DATA / "v5-range.yaml")
CHART_RANGE = str(DATA / "v5-chart-range.yaml")


@pytest.mark.parametrize("members, opponent, seat, duplicate", [
    ([RANGE, "default-v2"], "prober", 0, True),            # a member with range defence
    ([CHART_RANGE, "price-aware"], RANGE, 1, False),    # a chart member; the opponent defends
])
def test_the_engine_plays_range_defence_in_a_portfolio_as_the_tcp_bot(deals, members, opponent,
                                                                     seat, duplicate):
    """Version 5 members and opponents (`training.defended`'s hands inside the portfolio's
    match; a chart member's longer vector beside plain ones): the TCP bot's members,
    rewards, gains and weights hand for hand, to the last bit."""
    games = deals.slice(0, 40) if duplicate else deals.slice(0, 80)
    match = played_alike(portfolio(members), opponent, games, seat, duplicate)
    assert len(set(match.chosen.tolist())) == 2
    assert (~match.agreed).any(axis=1).sum() > 20


def test_a_portfolio_match_refuses_range_defence_beside_range_aware_v(deals):
    """The defended loop does not narrow the opponent's range: refused, not played wrong."""
    with pytest.raises(EngineError, match="range defence .* and range-aware v"):
        play_portfolio(encode_rules(NL), portfolio([RANGE, "default-v2"]), resolve_strategy(NARROW),
                       deals.slice(0, 4), 17, NL.big_blind, min(NL.stacks))


@pytest.mark.parametrize("members, opponent, seat, duplicate", [
    (["default-v2", "price-aware", "catcher"], "seed", 0, True),
    (["seed", V3, "shover", "call"], "prober", 1, False),
])
def test_the_folds_estimator_is_the_same_in_the_engine_and_the_tcp_bot(deals, members, opponent,
                                                                      seat, duplicate):
    """`estimator: folds`: gains and weights to the last bit, hand for hand; and the rule
    bites: members that did not play the hand as it went gained from it (their fold revealed)."""
    games = deals.slice(0, 150) if duplicate else deals
    match = played_alike(portfolio(members, estimator="folds"), opponent, games, seat, duplicate)
    assert match.gains.tolist() == match.estimates.sum(axis=0).tolist()
    assert ((match.estimates != 0) & ~match.agreed).sum() > 10


def test_revealed_estimates_by_hand():
    """Three members drawn with 0.5, 0.25, 0.25: member 0 played and the hand went to its end
    (+3 big blinds) after two decisions; member 1 folds at the second decision (1 big blind
    in), member 2 raises at the first. Member 0's result is revealed only by its own draw: 3 /
    0.5; member 1's (-1) by every draw that reaches the second decision (0 and 1): -1 / 0.75;
    member 2's by nothing. Had the hand ended with the bot's fold at its second decision, every
    member reaching that decision would reveal member 0's result too."""
    assert revealed_estimates([2, 1, 0], [(2, 3.0), (1, -1.0), None], [0.5, 0.25, 0.25]) == \
        [6.0, -1.0 / 0.75, 0.0]
    assert revealed_estimates([2, 1, 0], [(1, -2.0), (1, -1.0), None], [0.5, 0.25, 0.25]) == \
        [-2.0 / 0.75, -1.0 / 0.75, 0.0]
    assert revealed_estimates([-1, 1, 1], [None, (1, 4.0), (1, 4.0)], [0.0, 0.5, 0.5]) == \
        [0.0, 4.0, 4.0]  # slot 0 could not be drawn: it reaches nothing, gains nothing


def test_a_duplicate_match_repeats_each_deal_from_the_other_position(deals):
    """`call` against `call`: hand 2k + 1 gives each side the cards the other had in hand 2k, so
    every pair cancels to the chip; without duplicate the sum is far from zero."""
    rules = encode_rules(NL)
    calls = portfolio(["call", "call"])
    match = play_portfolio(rules, calls, "call", deals, 3, NL.big_blind, min(NL.stacks))
    assert len(match.chips) == 2 * len(deals)
    assert (match.chips.reshape(-1, 2).sum(axis=1) == 0).all()
    assert (match.chips != 0).sum() > len(deals)
    single = play_portfolio(rules, calls, "call", deals, 3, NL.big_blind, min(NL.stacks),
                            duplicate=False)
    assert len(single.chips) == len(deals)
    assert single.chips[0] == match.chips[0]  # deal 0 from position 0 in both
    assert abs(single.chips.sum()) > 0


def test_the_estimate_is_unbiased_for_each_members_own_result(many_deals):
    """Over many hands with the draw nearly uniform (eta tiny), member k's estimate on a hand
    (reward / P(C) if it agreed, else 0) has the mean of what k wins playing that hand itself
    (a portfolio of k twice: it always plays), within the CI of the per-hand differences."""
    deal_set = many_deals
    rules = encode_rules(NL)
    members = ["default-v2", "price-aware", "catcher"]
    chosen = portfolio(members, exploration=1.0, learning_rate=1e-9)
    seed = resolve_strategy("seed")
    match = play_portfolio(rules, chosen, seed, deal_set, 5, NL.big_blind, min(NL.stacks))
    share = (match.probabilities * match.agreed).sum(axis=1)
    differences = []
    for k, member in enumerate(members):
        estimates = np.where(match.agreed[:, k], match.adjusted / NL.big_blind / share, 0.0)
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
    plain = np.where(match.chosen == 0, match.adjusted / NL.big_blind / match.probabilities[:, 0],
                     0.0)
    assert differences[0].std() < 0.95 * (plain - alone_truth(rules, deal_set, "default-v2")).std()


def test_the_folds_estimate_is_unbiased_and_less_noisy_than_agreement(many_deals):
    """The same hands as above with `estimator: folds`: each member's estimate has the mean of
    what it wins playing the hand itself (within the CI of the differences), and its spread
    about that truth is no larger than the agreement estimator's on the same draws (measured:
    smaller by 0.02% for `default`; the chips a folding member would have lost are small next to
    the result of the member that went on, which stays the noise)."""
    deal_set = many_deals
    rules = encode_rules(NL)
    members = ["default-v2", "price-aware", "catcher"]
    seed = resolve_strategy("seed")
    folds = play_portfolio(rules, portfolio(members, 1.0, 1e-9, estimator="folds"), seed,
                           deal_set, 5, NL.big_blind, min(NL.stacks))
    agreement = play_portfolio(rules, portfolio(members, 1.0, 1e-9), seed, deal_set, 5,
                               NL.big_blind, min(NL.stacks))
    assert (folds.chosen == agreement.chosen).all()  # the same draws: learning is negligible
    for k, member in enumerate(members):
        truth = alone_truth(rules, deal_set, member)
        difference = folds.estimates[:, k] - truth
        error = 1.96 * difference.std() / math.sqrt(difference.size)
        assert abs(difference.mean()) < error, (member, difference.mean(), error)
        assert difference.std() > 0.1
        assert difference.std() <= (agreement.estimates[:, k] - truth).std(), member


def alone_truth(rules, deal_set, member):
    alone = play_portfolio(rules, portfolio([member, member]), resolve_strategy("seed"), deal_set, 5, NL.big_blind,
                           min(NL.stacks))
    return alone.adjusted / NL.big_blind


def real_dealer_match(tmp_path, portfolio_path, opponent: str, deals: int, seed: int,
                      command: str = "gambler.adaptive.cli"):
    """`gambler-dealer --duplicate` (2 x `deals` hands of `seed`, in `tmp_path`) with `command`
    playing the portfolio (its log in `tmp_path / "a.log"`) and `opponent`: (the dealer's hands
    read back, the deal set of the dealer's own cards)."""
    import subprocess
    import sys

    from gambler.protocol.deal import MersenneTwister, deal_hand
    from gambler.protocol.logs import read_log
    from gambler.training.deals import deal_set_from_cards

    dealer = subprocess.Popen([sys.executable, "-m", "gambler.protocol.dealer_cli", "m", NOLIMIT,
                               str(2 * deals), str(seed), "a", "b", "--duplicate", "-q"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    ports = dealer.stdout.readline().split()
    commands = [["--params", str(portfolio_path), "--log", str(tmp_path / "a.log")],
                ["--params", opponent]]
    bots = [subprocess.Popen([sys.executable, "-m", command, "127.0.0.1", port, *arguments,
                              "--quiet"], stderr=subprocess.PIPE, text=True)
            for port, arguments in zip(ports, commands)]
    for bot in bots:
        assert bot.wait(timeout=600) == 0, bot.stderr.read()
    dealer.wait(timeout=60)
    rng = MersenneTwister(seed)
    cards = [deal_hand(NL, rng) for _ in range(deals)]
    deal_set = deal_set_from_cards(np.array([deal.hole_cards for deal in cards], dtype=np.uint8),
                                   np.array([deal.board for deal in cards], dtype=np.uint8))
    return read_log(NL, tmp_path / "m.log"), deal_set


def members_drawn(log_path) -> dict[int, set[str]]:
    """Hand -> the `member=NAME` fields of the bot log's decision lines for that hand."""
    drawn: dict[int, set[str]] = {}
    for line in Path(log_path).read_text().splitlines():
        if line.startswith("decision "):
            hand, member = int(line.split()[1]), line.split()[4]
            assert member.startswith("member=")
            drawn.setdefault(hand, set()).add(member[len("member="):])
    return drawn


def test_a_portfolio_through_the_real_dealer_is_the_engines_match_hand_for_hand(tmp_path):
    """`gambler --params PORTFOLIO --log` against `gambler-dealer --duplicate` and a `gambler`
    opponent: the log's chips hand by hand are the engine's match on the dealer's own cards, and
    each decision line names the member that the engine drew for its hand."""
    import subprocess
    import sys

    path = tmp_path / "trio.yaml"
    path.write_text("kind: portfolio\nname: trio\nmembers: [default-v2, price-aware, catcher]\n"
                    "exploration: 0.2\nlearning_rate: 0.05\n")
    deals = 60
    hands, deal_set = real_dealer_match(tmp_path, path, "shover", deals, 13,
                                        command="gambler.bot.cli")
    match = play_portfolio(encode_rules(NL), resolve_strategy(str(path)),
                           resolve_strategy("shover"), deal_set, 0, NL.big_blind, min(NL.stacks))
    assert match.chips.tolist() == [hand.value_of("a") for hand in hands]
    names = ["default-v2", "price-aware", "catcher"]
    members = members_drawn(tmp_path / "a.log")
    assert len(members) > deals  # the bot acted in most hands
    assert all(names_ == {names[match.chosen[hand]]} for hand, names_ in members.items())
    assert len(set(match.chosen.tolist())) == 3
    # gambler-report reads the adaptation back: who played each hand, and with what probability
    report = subprocess.run([sys.executable, "-m", "gambler.training.report_cli",
                             str(tmp_path / "a.log"), "--json"], capture_output=True, text=True)
    assert report.returncode == 0, report.stderr
    import json

    adaptation = json.loads(report.stdout)["adaptation"][0]
    assert adaptation["portfolio"] == "trio" and adaptation["members"] == names
    assert adaptation["hands"] == list(range(2 * deals))
    assert adaptation["chosen"] == match.chosen.tolist()
    np.testing.assert_allclose(adaptation["probabilities"], match.probabilities, atol=5e-7)
    shares = np.bincount(match.chosen, minlength=3) / (2 * deals)
    assert [adaptation["shares"][name] for name in names] == pytest.approx(shares)
    text = subprocess.run([sys.executable, "-m", "gambler.training.report_cli",
                           str(tmp_path / "a.log")], capture_output=True, text=True).stdout
    assert f"portfolio trio: hands played by each member: default-v2 {shares[0]:.1%}" in text


@pytest.mark.parametrize("lines, message", [
    (["adapt 0 member=a p=0.5/0.5"], "log:1: an adapt line before the portfolio's header"),
    (["# portfolio x: members a b", "adapt 0 member=c p=0.5/0.5"], "log:2: member 'c'"),
    (["# portfolio x: members a b", "adapt 0 member=a p=1.0"], "log:2: member 'a' or 1 "),
    (["# portfolio x: members a b", "adapt zero member=a p=0.5/0.5"], "log:2: not an adapt"),
])
def test_a_bad_adapt_line_names_its_line(lines, message):
    from gambler.protocol.logs import LogError
    from gambler.training.report import read_adaptation

    with pytest.raises(LogError) as error:
        read_adaptation(lines, "log")
    assert str(error.value).startswith(message)


def test_a_log_without_a_portfolio_has_no_adaptation():
    from gambler.training.report import read_adaptation

    assert read_adaptation(["# hand position cards betting result", "0 0 AsKd| c 0"]) is None


def test_gambler_lbr_refuses_a_switch_before_any_work(tmp_path):
    """LBR plays a portfolio (`tests/test_lbr_portfolio.py`) but not a switch: the engine's
    one-line error, before any deal is computed."""
    import subprocess
    import sys

    path = tmp_path / "change.yaml"
    path.write_text("kind: switch\nname: change\nfirst: call\nthen: seed\nat: 100\n")
    result = subprocess.run([sys.executable, "-m", "gambler.training.lbr_cli", str(path),
                             "--hands", "100"], capture_output=True, text=True, cwd=tmp_path,
                            timeout=300)
    assert result.returncode == 1
    assert result.stderr.strip().endswith("change switches strategy at hand 100: the fast "
                                          "engine plays it against a portfolio only (or use "
                                          "--engine dealer)")
    assert "Traceback" not in result.stderr and "computing" not in result.stderr


def test_a_switching_opponent_is_played_hand_for_hand_across_the_switch(deals, tmp_path):
    """`prober` for the first 120 hands, then `call`: the engine's two parts, the estimates
    carried across, are the TCP bot's one match; the portfolio moves to price-aware after the
    switch (it wins far more against call)."""
    path = tmp_path / "switch.yaml"
    path.write_text("kind: switch\nfirst: prober\nthen: call\nat: 120\n")
    chosen = portfolio(["default-v2", "price-aware"], exploration=0.1, learning_rate=0.02,
                       share=0.001)
    games = deals.slice(0, 150)
    bot, rewards = tcp_match(chosen, str(path), games, 0, 17, True)
    match = play_portfolio(encode_rules(NL), chosen, resolve_strategy(str(path)), games, 17,
                           NL.big_blind, min(NL.stacks))
    assert match.chosen.tolist() == [row[1] for row in bot.history]
    assert match.probabilities.tolist() == [row[3] for row in bot.history]
    assert match.adjusted.tolist() == rewards
    assert match.gains.tolist() == bot.rule.gains
    assert match.weights.tolist() == bot.rule.weights
    assert match.probabilities[-1, 1] > 0.9 > match.probabilities[119, 1]


@pytest.mark.parametrize("text, message", [
    ("kind: switch\nfirst: seed\nthen: call\n", "at: a hand number"),
    ("kind: switch\nfirst: seed\nat: 10\n", "then: a strategy's name or path expected"),
    ("kind: switch\nfirst: seed\nthen: nosuch\nat: 10\n", "then (nosuch): no profile file"),
    ("kind: switch\nfirst: adaptive\nthen: call\nat: 10\n", "first (adaptive): a single"),
    ("kind: switch\nfirst: seed\nthen: call\nat: 10\nwhen: 3\n", "unknown key 'when'"),
])
def test_a_bad_switch_file_names_the_field(text, message):
    with pytest.raises(ProfileError) as error:
        parse_switch(text, source="s.yaml")
    assert str(error.value).startswith("s.yaml: ") and message in str(error.value)


def test_the_engines_hands_read_back_as_the_states_the_dealer_sends(deals):
    """A match played with traces: `hand_states` rebuilds each hand's final state from the
    portfolio's seat (the opponent's cards only at a showdown) exactly as the TCP bot received
    it, so the opponent's counts from the engine's match are the TCP bot's."""
    from gambler.bot.opponent import OpponentStats
    from gambler.training.portfolio import hand_states

    chosen = portfolio(["default-v2", "price-aware"], share=0.001)
    games = deals.slice(0, 100)
    bot, _ = tcp_match(chosen, "shover", games, 1, 23, True)
    match = play_portfolio(encode_rules(NL), chosen, resolve_strategy("shover"), games, 23,
                           NL.big_blind, min(NL.stacks), seat=1, traces=True)
    states = hand_states(match, games, NL, seat=1)
    assert states == bot.final_states
    assert sum(not any(state.betting.folded) for state in states) > 10  # showdowns shown
    counts = [OpponentStats(win_rate=lambda hole, board: 0.5) for _ in range(2)]
    for state, seen in zip(states, bot.final_states):
        counts[0].observe(state)
        counts[1].observe(seen)
    assert counts[0].as_dict() == counts[1].as_dict()
    assert counts[0].positions[0].hands + counts[0].positions[1].hands == 200


def test_gambler_match_says_workers_do_not_apply_to_a_portfolio():
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "gambler.training.match_cli", "adaptive",
                             "seed", "--hands", "200", "--workers", "2", "--json"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "a portfolio's match is played hand after hand on one thread" in result.stderr
    import json

    assert json.loads(result.stdout)["hands"] == 200


def test_the_members_compute_each_v_once_a_hand(deals):
    """The member that plays computes v in each round it reaches; the others, asked at the
    hand's end what they would have done, reuse those answers (`shared_win_rate`)."""
    asked = []
    table = {}
    lookup = lookup_rate(table)

    def counting(hole, board, hand, round_):
        asked.append((hand, round_))
        return lookup(hole, board, hand, round_)

    chosen = portfolio(["default-v2", "price-aware", "handmade"])
    bot = PortfolioStrategy(chosen, NL.big_blind, min(NL.stacks), win_rate=counting, seed=3)
    opponent = member_strategy(resolve_strategy("call"), lookup, 3)
    rounds_reached = 0
    for h in range(40):
        table.clear()
        holes = tuple(tuple(int(c) for c in deals.holes[h, p]) for p in range(2))
        for p in range(2):
            table[holes[p]] = deals.v[h, p]
        board = tuple(int(c) for c in deals.boards[h])
        players = {0: bot, 1: opponent}
        state = BettingState.start(NL)
        seen = set()
        while not state.finished:
            player = state.current_player
            if player == 0:
                seen.add(state.round)
            view = MatchState(player, h, state, tuple(holes[p] if p == player else ()
                                                      for p in range(2)),
                              board[:state.board_cards_visible])
            state = state.apply(players[player].act(view))
        rounds_reached += len(seen)
        bot.hand_ended(MatchState(0, h, state, holes, board[:state.board_cards_visible]))
    assert len(asked) == rounds_reached == len(set(asked))
    assert rounds_reached > 60


@pytest.mark.parametrize("order", [("adaptive", "seed"), ("seed", "adaptive")])
def test_gambler_match_scores_a_portfolio_in_either_seat(order):
    """`gambler-match A B` with the portfolio as A (seat 0) or B (seat 1): A's mbb/hand is the
    engine's duplicate match from that seat, the portfolio's chips negated when it is B."""
    import json
    import subprocess
    import sys

    from gambler.training.deals import cached_deal_set

    result = subprocess.run([sys.executable, "-m", "gambler.training.match_cli", *order,
                             "--hands", "400", "--seed", "5", "--json"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    reported = json.loads(result.stdout)
    deals, _ = cached_deal_set(5, 0, 200)
    seat = order.index("adaptive")
    match = play_portfolio(encode_rules(NL), resolve_strategy("adaptive"),
                           resolve_strategy("seed"), deals, 5, NL.big_blind, min(NL.stacks),
                           seat=seat)
    sign = 1 if seat == 0 else -1
    expected = sign * 1000 * match.adjusted.mean() / NL.big_blind
    assert reported["mbb_per_hand_allin_adjusted"] == pytest.approx(expected)
    assert abs(expected) > 100
