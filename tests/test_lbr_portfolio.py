"""LBR against a portfolio (`training.lbr_portfolio`): told the member drawn, it plays each hand
exactly as `training.lbr` plays that member, and the portfolio draws, learns and installs its
counters as its rules say (checked against a reference loop built from the fixed-strategy LBR)."""

import json

import numpy as np
import pytest

from gambler.bot.params import load_profile
from gambler.bot.portfolio import Exp3, parse_portfolio, revealed_estimates
from gambler.evaluator.rng import portfolio_uniform
from gambler.evaluator.tables import load_tables
from gambler.protocol import load_game
from gambler.training.counter import Counter
from gambler.training.deals import cached_holding_rates
from gambler.training.engine import FOLD_CODE, encode_rules, encode_strategy
from gambler.training.lbr import (LbrDeals, deal_arrays, lbr_hand, lbr_tables, parse_action_sets,
                                  run_lbr)
from gambler.training.lbr_portfolio import play_lbr_match
from gambler.training.portfolio import _TRACE_ROWS

GAME = load_game()
DEAL_SEED = 23
DEALS = 60
ACTIONS = "FCPA,FCPA,FCPA,FCPA"


@pytest.fixture(autouse=True)
def private_deal_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("GAMBLER_DEALS", str(tmp_path_factory.getbasetemp() / "deals"))


def portfolio(members: str, extra: str = ""):
    return parse_portfolio(f"kind: portfolio\nmembers: [{members}]\nexploration: 0.1\n"
                           f"learning_rate: 0.05\n{extra}")


def fixed_lbr(profile, match_seed: int):
    """LBR against one fixed profile on every deal and seat: (LBR's chips, all-in adjusted,
    the hand's actions) by [deal][LBR's position], as `training.lbr.lbr_hand` plays them."""
    kind, params = encode_strategy(profile)
    rules, tables, lookups = encode_rules(GAME), load_tables(), lbr_tables()
    deals = LbrDeals(DEAL_SEED, 2 * DEALS)
    arrays, holding_v = deal_arrays(deals.deals), cached_holding_rates(DEAL_SEED, 0, DEALS)
    sets = parse_action_sets(ACTIONS)
    table = []
    for i in range(DEALS):
        row = []
        for lbr in range(2):
            trace = np.full((_TRACE_ROWS, 3), -1, dtype=np.int64)
            raw, adjusted, folded = lbr_hand(rules, lbr, kind, params, arrays, holding_v, i, 0,
                                        match_seed, tables, lookups, sets, trace,
                                        np.empty((0, 3), dtype=np.int64),
                                        np.empty(4, dtype=np.int64))
            sign = 1 if lbr == 0 else -1
            row.append((sign * raw, sign * adjusted, trace, folded))
        table.append(row)
    return table


def test_a_portfolio_of_one_profile_twice_gives_lbr_exactly_what_the_profile_gives():
    """`default` mixes its play; with the match's seed equal to the deal seed the dice are
    LBR's own, so whichever copy is drawn every hand is chip for chip `run_lbr`'s."""
    alone = run_lbr(load_profile("default-v2"), GAME, 2 * DEALS, seed=DEAL_SEED, actions=ACTIONS)
    match = play_lbr_match(portfolio("default-v2, default-v2"), GAME, LbrDeals(DEAL_SEED, 2 * DEALS),
                           0, DEALS, DEAL_SEED, ACTIONS)
    assert (match.chips == alone.chips).all()
    assert np.allclose(match.adjusted, alone.adjusted)
    assert (match.lines == alone.lines).all()
    assert set(match.chosen.tolist()) == {0, 1} and match.model_hands == 0
    assert alone.chips.any()  # LBR won or lost something: the equality is not of zeros


@pytest.mark.parametrize("estimator", ["agreement", "folds"])
def test_the_draws_and_the_estimates_follow_exp3_against_lbr_told_the_member(estimator):
    """Two members, each met by LBR told it is playing: the hand played is LBR's hand against
    the member drawn, and the estimates are Exp3's from the fixed-strategy LBR's hands (a member
    agrees when LBR against it takes the same actions; the folds estimator reveals a member that
    folds where the hand went on)."""
    names = ("seed", "default-v1")
    match_seed = 41
    table = {name: fixed_lbr(load_profile(name), match_seed) for name in names}
    bot = portfolio(", ".join(names), f"estimator: {estimator}\n")
    match = play_lbr_match(bot, GAME, LbrDeals(DEAL_SEED, 2 * DEALS), 0, DEALS, match_seed,
                           ACTIONS)
    rule = Exp3(2, bot.exploration, bot.rate_for(min(GAME.stacks) / GAME.big_blind), bot.share)
    for h in range(2 * DEALS):
        deal, position = h // 2, h % 2
        lbr = 1 - position
        probabilities = rule.probabilities()
        pick = rule.choose(portfolio_uniform(match_seed, h), probabilities)
        assert match.chosen[h] == pick, h
        raw, adjusted, trace, folded = table[names[pick]][deal][lbr]
        assert match.chips[deal, lbr] == raw
        reward = -adjusted / GAME.big_blind
        rows = int((trace[:, 0] >= 0).sum())
        whole = rows - 1 if folded == position else _TRACE_ROWS
        agreed, reached, revealed = [], [], []
        for slot, name in enumerate(names):
            other = table[name][deal][lbr]
            same = slot == pick or (other[2] == trace).all()
            agreed.append(bool(same))
            if same:
                reached.append(_TRACE_ROWS)
                revealed.append((whole, reward))
                continue
            first = int(np.argmax((other[2] != trace).any(axis=1)))
            reached.append(first)
            revealed.append((first, -other[0] / GAME.big_blind)
                            if other[2][first, 1] == FOLD_CODE else None)
        if estimator == "folds":
            rule.credit(revealed_estimates(reached, revealed, probabilities))
        else:
            rule.update(reward, agreed, probabilities)
    assert set(match.chosen.tolist()) == {0, 1}
    # default-v1 gives LBR far more (strength.md): by the end seed is drawn more often
    assert rule.probabilities()[0] > 0.6


@pytest.mark.parametrize("budget", ["model", "match"])
def test_the_model_is_fitted_to_lbr_and_its_counter_is_met_by_lbr_told_so(budget):
    """The refresh sees LBR's hands before `every - lag`, counted as the dealer shows them;
    from hand `every` on the counter's slot is drawn, its hands are LBR's against it, and it
    is drawn only while the chips its budget counts (the match's, or its own hands') are at
    least a stack less the allowance."""
    calls = []
    counter = load_profile("seed")

    def refresh(game, bot, stats, index):
        calls.append((index, stats.positions[0].hands + stats.positions[1].hands))
        return Counter(counter, 0.0, {}, 0)

    bot = portfolio("default-v1", "model: {every: 40, lag: 10, deals: 100, steps: 1, "
                                  f"population: 2, seed: 5, allowance: 200, budget: {budget}}}\n")
    match_seed = 43
    match = play_lbr_match(bot, GAME, LbrDeals(DEAL_SEED, 2 * DEALS), 0, DEALS, match_seed,
                           ACTIONS, refresh=refresh)
    assert calls == [(1, 30), (2, 70)]  # hands before 40 - 10, then all those before 80 - 10
    assert (match.chosen[:40] == 0).all()
    model_hands = np.flatnonzero(match.chosen == 1)
    assert model_hands.size == match.model_hands and (model_hands >= 40).all()
    table = fixed_lbr(counter, match_seed)
    for h in model_hands:
        assert match.chips[h // 2, 1 - h % 2] == table[h // 2][1 - h % 2][0]
    ours = np.array([-match.chips[h // 2, 1 - h % 2] for h in range(2 * DEALS)])
    counted = ours if budget == "match" else np.where(match.chosen == 1, ours, 0)
    before = np.concatenate([[0], np.cumsum(counted)[:-1]])
    risk = min(GAME.stacks) - 200 * GAME.big_blind  # 0: never behind
    assert (before[model_hands] >= risk).all()
    if budget == "model":  # its own hands start at 0: it plays from hand 40
        assert model_hands.size > 0 and model_hands.min() == 40
    else:  # LBR has put the match behind by hand 40, and it stays behind: the bar bites
        assert (before[40:] < risk).all() and model_hands.size == 0


def allin_counter_met_by_lbr(account: str, counted_loss: int = 0) -> int:
    """A model whose counter moves all in every hand, met by LBR (which calls it with the better
    hand), with its own account (`account`, an allowance of 300 big blinds, `counted_loss`):
    checks that the model is drawn only while its own hands so far, counted that way (each at
    no less than -counted_loss big blinds), stand at the bar, and once below it never again;
    returns the hands it played."""
    bot = portfolio("default-v1", "model: {every: 40, lag: 10, deals: 100, steps: 1, "
                                  "population: 2, seed: 5, allowance: 300, budget: model, "
                                  f"account: {account}, counted_loss: {counted_loss}}}\n")
    match = play_lbr_match(bot, GAME, LbrDeals(DEAL_SEED, 2 * DEALS), 0, DEALS, 43, ACTIONS,
                           refresh=lambda *_: Counter("allin", 0.0, {}, 0))
    mine = match.chosen == 1
    values = match.adjusted if account == "adjusted" else match.chips
    ours = np.array([-values[h // 2, 1 - h % 2] for h in range(2 * DEALS)], dtype=np.float64)
    if counted_loss:
        ours = np.maximum(ours, -counted_loss * GAME.big_blind)
    before = np.concatenate([[0.0], np.cumsum(np.where(mine, ours, 0.0))[:-1]])
    risk = min(GAME.stacks) - 300 * GAME.big_blind
    assert (before[mine] >= risk).all()
    below = np.flatnonzero(before < risk)
    assert below.size == 0 or not mine[below[0]:].any()
    return int(mine.sum())


def test_an_adjusted_account_charges_the_counters_all_ins_their_equity():
    """`account: adjusted` against `raw` (`allin_counter_met_by_lbr`). On these deals the
    counter wins its run-outs more often than its equity says: counted raw it stays above the
    bar and plays 56 hands; all-in adjusted it falls below after a few and stops (counting raw
    chips in the adjusted run fails this)."""
    assert allin_counter_met_by_lbr("raw") > 10 * allin_counter_met_by_lbr("adjusted") > 0


def test_a_counted_loss_floors_each_hand_of_the_account_met_by_lbr():
    """`counted_loss: 20` on the adjusted account above: each of the all-in counter's hands
    counts at no less than -20 big blinds, and the model is drawn exactly while the floored sum
    stands at the bar; LBR's called all-ins cost it 20 each in the account, so it plays far
    longer than the account in full lets it (dropping the floor in the LBR loop fails this)."""
    assert allin_counter_met_by_lbr("adjusted", 20) > 2 * allin_counter_met_by_lbr("adjusted") > 0


def test_a_second_chance_starts_the_account_again_at_the_next_counter_met_by_lbr():
    """`chances: 2` on the all-in counter's adjusted account met by LBR: it falls below the bar
    before hand 80, so it is out until the counter of hand 80 starts the account again from
    zero (the bar moved to the account then less 100 big blinds), and from there it is drawn
    only while the account stands at the moved bar (a loop written from the rule); it plays
    hands after hand 80 that one chance refuses (dropping the move in the LBR loop fails this)."""
    bot = portfolio("default-v1", "model: {every: 40, lag: 10, deals: 100, steps: 1, "
                                  "population: 2, seed: 5, allowance: 300, budget: model, "
                                  "account: adjusted, chances: 2}\n")
    match = play_lbr_match(bot, GAME, LbrDeals(DEAL_SEED, 2 * DEALS), 0, DEALS, 43, ACTIONS,
                           refresh=lambda *_: Counter("allin", 0.0, {}, 0))
    mine = match.chosen == 1
    ours = [-match.adjusted[h // 2, 1 - h % 2] for h in range(2 * DEALS)]
    threshold = min(GAME.stacks) - 300 * GAME.big_blind
    bar, account, moved, drawable = float(threshold), 0.0, [], []
    for h in range(2 * DEALS):
        if h in (40, 80) and account < bar and not moved:
            bar = account + threshold
            moved.append(h)
        drawable.append(h >= 40 and account >= bar)
        account += ours[h] if mine[h] else 0.0
    assert moved == [80]
    assert mine[80:].any() and not (mine & ~np.array(drawable)).any()
    one_chance = allin_counter_met_by_lbr("adjusted")
    assert int(mine.sum()) > one_chance > 0


def test_gambler_lbr_names_a_portfolio_and_says_lbr_is_told_the_member(tmp_path, capsys):
    from gambler.training.lbr_cli import main

    path = tmp_path / "two.yaml"
    path.write_text("kind: portfolio\nmembers: [seed, default-v1]\nexploration: 0.1\n"
                    "learning_rate: 0.05\n")
    with pytest.raises(SystemExit) as exit_:
        main([str(path), "--hands", "40", "--seed", str(DEAL_SEED), "--actions", ACTIONS,
              "--json"])
    assert exit_.value.code == 0
    report = json.loads(capsys.readouterr().out)
    match = play_lbr_match(parse_portfolio(path.read_text()), GAME, LbrDeals(DEAL_SEED, 40), 0,
                           20, DEAL_SEED, ACTIONS)
    expected = 1000 * match.chips.sum() / 40 / GAME.big_blind
    assert report["mbb_per_hand"] == pytest.approx(expected)
    assert report["portfolio"] == {"lbr_told_member": True, "matches": 1, "match_hands": 3000,
                                   "model_share": 0.0,
                                   "match_mbb_per_hand": [pytest.approx(expected)]}
    assert report["ci95_mbb"] is None  # one match: no interval over matches


def test_the_interval_against_a_learning_bot_is_over_its_matches():
    """Three matches of 2 deals with means 1, 2 and 6 big blinds a hand (per pair: 2, 4, 12 big
    blinds): the mean over every pair, the spread of the three match means, times Student's t at
    2 degrees of freedom (4.303, not the normal 1.96: three numbers say little of their spread)."""
    from gambler.training.evaluate import score_matches

    pairs = np.array([100, 300, 400, 400, 1000, 1400])
    score = score_matches(pairs, 100, 2)
    assert score.mbb_per_hand == pytest.approx(1000 * pairs.mean() / 2 / 100)
    means = np.array([1000.0, 2000.0, 6000.0])
    assert score.ci95_mbb == pytest.approx(4.303 * means.std(ddof=1) / np.sqrt(3))
    assert score.deals == 6
