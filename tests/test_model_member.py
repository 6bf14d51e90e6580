"""A portfolio's model member: the file, Exp3 with a slot that cannot be drawn, the TCP bot and
the fast engine hand for hand across the refreshes (in line, late, and in a worker process
behind the real dealer), and the budget that a rigged counter tries to overspend."""

import concurrent.futures
import math
import subprocess
import sys
import time

import numpy as np
import pytest

from acpc_support import NOLIMIT
from gambler.adaptive.live import InlineRefresher
from gambler.bot.params import ProfileError
from gambler.bot.portfolio import Exp3, Model, level_weights, load_portfolio, parse_portfolio
from gambler.bot.strategies import load_strategy, resolve_strategy
from gambler.bot.switch import Switch
from gambler.protocol import load_game
from gambler.training.counter import Counter
from gambler.training.deals import compute_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import play_portfolio
from test_portfolio import members_drawn, real_dealer_match, tcp_match

NL = load_game(NOLIMIT)
STACK = min(NL.stacks)
SMALL_MODEL = "{every: 60, lag: 20, deals: 200, steps: 2, population: 4}"


def modelled(model=SMALL_MODEL, members=("default-v2", "price-aware"), exploration=0.1,
             learning_rate=0.05, share=0.0):
    text = (f"kind: portfolio\nname: test\nmembers: [{', '.join(members)}]\n"
            f"exploration: {exploration}\nlearning_rate: {learning_rate}\nshare: {share}\n"
            f"model: {model}\n")
    return parse_portfolio(text, source="test.yaml")


@pytest.fixture(scope="module")
def deals():
    return compute_deal_set(seed=9, first_deal=0, count=150)


# --- the file and the rule -------------------------------------------------------------------

def test_a_window_fits_the_last_hands_before_the_cut():
    model = Model(every=500, lag=100, window=300)
    assert (model.fitted_from(1), model.fitted_before(1)) == (100, 400)
    assert (model.fitted_from(3), model.fitted_before(3)) == (1100, 1400)
    assert Model(every=500, lag=100).fitted_from(3) == 0
    assert Model(every=500, lag=100, window=1000).fitted_from(1) == 0


def test_a_model_member_adds_a_slot_named_model():
    chosen = modelled("true")
    assert chosen.model == Model()
    assert chosen.slots == ("default-v2", "price-aware", "model") and chosen.model_slot == 2
    assert (chosen.model.refresh_at(2), chosen.model.fitted_before(2)) == (1000, 900)
    # the guaranteed rate counts the model's slot: gamma / (3 R)
    assert chosen.guaranteed_rate(200.0) == pytest.approx(0.1 / 600)
    assert "a model member refreshed every 500 hands (fitted up to 100 hands before), " \
           "playing only while the match is a stack ahead" in chosen.describe(200.0)
    windowed = modelled("{every: 500, lag: 100, window: 500}")
    assert "refreshed every 500 hands (fitted on the last 500 hands up to 100 hands before)" \
        in windowed.describe(200.0)
    calibrated = modelled("{every: 500, lag: 100, calibrate: 3}")
    assert "(fitted up to 100 hands before, calibrated 3 times), playing only while" \
        in calibrated.describe(200.0)
    guarded = modelled("{every: 500, lag: 100, guards: [call, seed], guard_weight: 0.75}")
    assert "(fitted up to 100 hands before; each counter scored 75% by what it wins against " \
           "call, seed), playing only while" in guarded.describe(200.0)


@pytest.mark.parametrize("model, message", [
    ("{every: 100, lag: 100}", "model: lag: 100 is not below every (100)"),
    ("{every: 0}", "model: every: 0 is below 1"),
    ("{every: 100, depth: 3}", "model: unknown key 'depth'"),
    ("{every: 1.5}", "model: every: a whole number expected, got 1.5"),
    ("{calibrate: -1}", "model: calibrate: -1 is below 0"),
    ("{chances: 0}", "model: chances: 0 is below 1"),
    ("{chances: 2.5}", "model: chances: a whole number expected, got 2.5"),
    ("{lead: 0}", "model: lead: 0 is not above 0"),
    ("{lead: -0.5}", "model: lead: -0.5 is not above 0"),
    ("{lead: often}", "model: lead: a number expected, got 'often'"),
    ("{budget: bot}", "model: budget: 'bot' is not one of match, model"),
    ("{account: net}", "model: account: 'net' is not one of raw, adjusted"),
    ("[500]", "model: a mapping of every, lag"),
])
def test_a_bad_model_names_the_file_and_the_field(model, message):
    with pytest.raises(ProfileError) as error:
        modelled(model)
    assert str(error.value).startswith("test.yaml: ") and message in str(error.value)


def test_a_model_needs_a_profile_to_search_from():
    with pytest.raises(ProfileError, match="list at least one profile among the members"):
        modelled("true", members=("call", "catcher"))


def test_a_slot_that_cannot_be_drawn_gives_its_probability_to_the_others():
    """Weights (0.2, 0.5, 0.3) after an update, gamma 0.3: p = 0.7 w + 0.1 = (0.24, 0.45,
    0.31); without slot 2, (0.24, 0.45) / 0.69. Levelling slot 0 with the best: (0.5, 0.5,
    0.3) / 1.3."""
    rule = Exp3(3, exploration=0.3, learning_rate=1.0)
    rule.weights = [0.2, 0.5, 0.3]
    assert rule.probabilities() == pytest.approx([0.24, 0.45, 0.31])
    assert rule.probabilities(excluded=2) == pytest.approx([0.24 / 0.69, 0.45 / 0.69, 0.0])
    assert rule.choose(0.99, rule.probabilities(excluded=2)) == 1
    rule.level(0)
    assert rule.weights == pytest.approx([0.5 / 1.3, 0.5 / 1.3, 0.3 / 1.3])
    assert level_weights([0.7, 0.1, 0.2], 1) == pytest.approx([0.7 / 1.6, 0.7 / 1.6, 0.2 / 1.6])
    # with a lead of 4 the slot starts at four times the best: (0.7, 2.8, 0.2) / 3.7
    assert level_weights([0.7, 0.1, 0.2], 1, 4) == pytest.approx([0.7 / 3.7, 2.8 / 3.7, 0.2 / 3.7])
    # and with a lead of 1/4 a quarter of it: (0.7, 0.175, 0.2) / 1.075
    assert level_weights([0.7, 0.1, 0.2], 1, 0.25) == \
        pytest.approx([0.7 / 1.075, 0.175 / 1.075, 0.2 / 1.075])


def test_a_lead_may_be_a_fraction():
    assert modelled("{lead: 0.25}").model.lead == 0.25
    assert modelled("{lead: 4}").model.lead == 4


def test_an_underflowed_weight_stays_zero_instead_of_failing():
    """Without a share a member far behind reaches weight 0.0: the next update must not take
    log(0) (numba gives -inf; so does the Python rule)."""
    rule = Exp3(2, exploration=0.1, learning_rate=1.0)
    rule.update(2000.0, [True, False], [1.0, 0.0])
    assert rule.weights == [1.0, 0.0]
    rule.update(1.0, [True, True], [0.5, 0.5])
    assert rule.weights == [1.0, 0.0]


def test_without_a_refresher_the_bot_layer_says_where_the_counter_comes_from(tmp_path):
    path = tmp_path / "modelled.yaml"
    path.write_text("kind: portfolio\nname: modelled\nmembers: [default-v2, price-aware]\n"
                    "model: true\n")
    with pytest.raises(ProfileError, match="play it with `gambler`"):
        load_strategy(str(path), game=NL)
    plain = subprocess.run([sys.executable, "-m", "gambler.bot.cli", "--params", str(path),
                            "127.0.0.1", "1"], capture_output=True, text=True)
    assert plain.returncode == 1
    assert plain.stderr.startswith("gambler: error: modelled: its model member's counter")
    assert len(plain.stderr.splitlines()) == 1
    # One decision (--explain) never reaches a counter: both layers explain it, alike.
    state = "MATCHSTATE:1:0::|AsKc"
    explained = [subprocess.run([sys.executable, "-m", layer, "--params", str(path), "--explain",
                                 state], capture_output=True, text=True)
                 for layer in ("gambler.bot.cli", "gambler.adaptive.cli")]
    assert [run.returncode for run in explained] == [0, 0], explained[0].stderr
    assert explained[0].stdout == explained[1].stdout
    assert "member default-v2" in explained[0].stdout or "member price-aware" in explained[0].stdout


# --- the TCP bot and the engine, hand for hand ------------------------------------------------

@pytest.mark.parametrize("opponent, seat, duplicate, extra", [
    ("call", 0, True, ""), ("sizer", 1, False, ""), ("prober", 0, True, ""),
    ("call", 1, True, "window: 50"), ("sizer", 0, True, "calibrate: 2"),
    ("call", 0, True, "lead: 4"), ("sizer", 1, True, "allowance: 250, budget: model"),
    ("allin", 0, True, "allowance: 300, budget: model, account: adjusted"),
    ("allin", 1, True, "allowance: 300, budget: model, account: adjusted, counted_loss: 40")])
def test_the_engine_plays_the_model_member_hand_for_hand_as_the_tcp_bot(deals, opponent, seat,
                                                                        duplicate, extra):
    """Counters at hands 60, 120, ... fitted on the hands before 40, 100, ... (with a window of
    50, on hands 0-39, 50-99, ...; calibrated or not): the same draws, probabilities (to the
    last bit), estimates and weights, in line in both."""
    model = SMALL_MODEL if not extra else SMALL_MODEL.replace("}", f", {extra}}}")
    chosen = modelled(model, share=0.01 if seat else 0.0)
    games = deals if duplicate else deals.slice(0, 130)
    bot, rewards = tcp_match(chosen, opponent, games, seat, 17, duplicate,
                             refresher=InlineRefresher(NL))
    match = play_portfolio(encode_rules(NL), chosen, resolve_strategy(opponent), games, 17,
                           NL.big_blind, STACK, seat=seat, duplicate=duplicate, game=NL)
    assert match.chosen.tolist() == [row[1] for row in bot.history]
    assert match.probabilities.tolist() == [row[3] for row in bot.history]
    assert match.adjusted.tolist() == rewards
    assert match.gains.tolist() == bot.rule.gains
    assert match.weights.tolist() == bot.rule.weights
    assert bot.refreshes == 4 if duplicate else 2
    each = match.adjusted if chosen.model.account == "adjusted" else match.chips
    if chosen.model.counted_loss:  # each hand counted at no less than -counted_loss
        assert (each < -chosen.model.counted_loss * NL.big_blind).any()
        each = np.maximum(each, -chosen.model.counted_loss * NL.big_blind)
    assert bot.balance == pytest.approx(each.sum(), abs=1e-6)
    if chosen.model.account == "adjusted":  # all-ins that the two accounts count otherwise
        assert (match.adjusted != match.chips).any()
    # before hand 60 the model cannot be drawn; after, only while the bot is a stack ahead
    # (less the allowance), in the match or in the model's own hands
    assert (match.probabilities[:60, 2] == 0).all()
    counted = each if chosen.model.budget == "match" else np.where(match.chosen == 2, each, 0)
    ahead = np.concatenate([[0.0], np.cumsum(counted)[:-1]]) >= STACK - \
        chosen.model.allowance * NL.big_blind
    assert ((match.probabilities[60:, 2] > 0) == ahead[60:]).all()
    if chosen.model.budget == "model":
        assert bot.model_balance == pytest.approx(counted.sum(), abs=1e-6)
    if opponent != "prober":  # the members beat these by a stack soon: the model plays
        assert (match.chosen == 2).sum() > 20
        # the first hand it can be drawn it is level with the best member (the same
        # probability), or `lead` times its weight: p - gamma / 3 is (1 - gamma) w
        first = int(np.nonzero(match.probabilities[:, 2] > 0)[0][0])
        lead = chosen.model.lead
        floor = chosen.exploration / 3
        assert match.probabilities[first, 2] - floor == pytest.approx(
            lead * (match.probabilities[first, :2].max() - floor))
        level = match.probabilities[first, 2] == match.probabilities[first, :2].max()
        assert level == (lead == 1)


@pytest.mark.parametrize("window, counted", [(0, [40, 100, 160, 220]), (50, [40, 50, 50, 50])])
def test_each_counter_is_fitted_on_the_hands_its_schedule_names(deals, window, counted):
    """Every 60 hands, lag 20: counter k counts the hands before 60 k - 20, all of them or the
    last `window`, in the engine and in the TCP bot alike."""
    model = SMALL_MODEL if not window else SMALL_MODEL.replace("}", f", window: {window}}}")
    chosen = modelled(model)
    seen = {"engine": [], "tcp": []}

    def counting(where):
        def refresh(*arguments):
            stats = arguments[-2]
            seen[where].append(stats.positions[0].hands + stats.positions[1].hands)
            future = concurrent.futures.Future()
            future.set_result(Counter("call", 0.0, {}, 0))
            return future
        return refresh

    play_portfolio(encode_rules(NL), chosen, resolve_strategy("seed"), deals, 3, NL.big_blind,
                   STACK, game=NL, refresh=lambda *a: counting("engine")(*a).result())
    tcp_match(chosen, "seed", deals, 0, 3, True, refresher=counting("tcp"))
    # (the TCP bot, which cannot know that the match ends at hand 300, also starts counter 5)
    assert seen["engine"] == seen["tcp"][:4] == counted and len(seen["tcp"]) == 5


def test_a_late_counter_takes_effect_at_its_hand_all_the_same(deals):
    """A refresher whose counters arrive seconds late (a worker busy elsewhere): the bot waits
    at the hand the counter is due, so the match is the in-line one hand for hand."""
    chosen = modelled()
    inline = InlineRefresher(NL)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def late(portfolio, stats, refresh):
        def work():
            time.sleep(0.5)
            return inline(portfolio, stats, refresh).result()
        return pool.submit(work)

    slow, _ = tcp_match(chosen, "call", deals.slice(0, 70), 0, 3, True, refresher=late)
    fast, _ = tcp_match(chosen, "call", deals.slice(0, 70), 0, 3, True, refresher=inline)
    assert [row[:2] for row in slow.history] == [row[:2] for row in fast.history]
    assert slow.rule.weights == fast.rule.weights and slow.refreshes == 2
    pool.shutdown()


def test_a_failed_counter_search_leaves_the_slot_as_it_was_and_says_so(deals):
    """A refresher whose future raises (a worker that died): the match goes on, the model's slot
    keeps what it had (here: nothing, so it is never drawn), and the log's note says why."""
    from concurrent.futures.process import BrokenProcessPool

    def broken(*_):
        future = concurrent.futures.Future()
        future.set_exception(BrokenProcessPool("worker died"))
        return future

    bot, _ = tcp_match(modelled(), "call", deals.slice(0, 70), 0, 3, True, refresher=broken)
    assert bot.refreshes == 2 and bot.counter is None
    assert all(row[1] != 2 for row in bot.history)
    assert bot.notes[0] == ("# model 1 from hand 60: the counter search failed "
                            "(BrokenProcessPool: worker died); the slot keeps what it had")


def test_a_counter_late_beyond_the_wait_is_given_up_and_the_bot_answers(deals):
    """A refresher whose future never ends (a worker starved of the processor): at the refresh
    hand the bot waits `refresh_wait` seconds, then plays on with the slot as it was and says
    so, instead of leaving the dealer without an answer."""
    def starved(*_):
        return concurrent.futures.Future()

    bot, _ = tcp_match(modelled(), "call", deals.slice(0, 70), 0, 3, True, refresher=starved,
                       refresh_wait=0.05)
    assert bot.refreshes == 2 and bot.counter is None
    assert all(row[1] != 2 for row in bot.history)
    assert bot.notes[0] == ("# model 1 from hand 60: the counter search was not done after "
                            "0.05 s; the slot keeps what it had")


# --- the budget --------------------------------------------------------------------------------

def rigged(profile):
    """A refresher whose every 'counter' is `profile`, whatever the opponent does."""
    counter = Counter(profile, 0.0, {}, 0)

    def refresh(*_):
        future = concurrent.futures.Future()
        future.set_result(counter)
        return future
    return refresh


def test_a_losing_counter_never_spends_more_than_the_bot_has_won(tmp_path):
    """The opponent calls everything for 100 hands (the members win a stack fast, the budget
    opens), then plays the seed profile, which a calling station (the rigged counter) loses to
    by stacks. The model plays only hands the bot starts a stack ahead, so after each of them
    the bot is still even, and its losses never exceed what the members won before them; the
    TCP bot keeps the same budget hand for hand. (With the budget check removed, the model
    plays at a deficit and the first assertion fails.)"""
    path = tmp_path / "switch.yaml"
    path.write_text("kind: switch\nfirst: call\nthen: seed\nat: 100\n")
    chosen = modelled("{every: 40, lag: 10}")
    deal_set = compute_deal_set(seed=31, first_deal=0, count=400)
    match = play_portfolio(encode_rules(NL), chosen, resolve_strategy(str(path)), deal_set, 5,
                           NL.big_blind, STACK, game=NL,
                           refresh=lambda *_: Counter("call", 0.0, {}, 0))
    before = np.concatenate([[0.0], np.cumsum(match.chips)[:-1]])
    model = match.chosen == 2
    assert (before[model] >= STACK).all()
    assert (before[model] + match.chips[model] >= 0).all()
    losses = np.cumsum(np.where(model, match.chips, 0.0))
    won = np.cumsum(np.where(model, 0.0, match.chips))
    assert (won[model] + losses[model] >= 0).all()
    # The test means something: the counter lost more than a stack in all, and the budget
    # refused it on many hands after it was installed.
    assert match.chips[model].sum() < -STACK and model.sum() >= 10
    refused = (np.arange(len(before)) >= 40) & (before < STACK)
    assert refused.sum() > 50 and (match.probabilities[refused, 2] == 0).all()
    # ... and learned nothing from those hands, though the rigged counter (a calling station)
    # plays many of them as the members did
    assert not match.agreed[refused, 2].any()
    # The TCP bot: the same hands refused and played.
    bot, _ = tcp_match(chosen, str(path), deal_set, 0, 5, True, refresher=rigged("call"))
    assert match.chosen.tolist() == [row[1] for row in bot.history]
    assert match.probabilities.tolist() == [row[3] for row in bot.history]
    assert bot.balance == match.chips.sum()


def all_in_counter_against_a_station(model: str):
    """A portfolio with `model` whose every counter moves all in every hand, against a calling
    station on 400 deals of seed 32 (match seed 5): (the portfolio, the deals, the engine's
    match)."""
    chosen = modelled(model)
    deal_set = compute_deal_set(seed=32, first_deal=0, count=400)
    match = play_portfolio(encode_rules(NL), chosen, resolve_strategy("call"), deal_set, 5,
                           NL.big_blind, STACK, game=NL,
                           refresh=lambda *_: Counter("allin", 0.0, {}, 0))
    return chosen, deal_set, match


def test_the_models_own_account_bounds_what_its_hands_lose_and_no_more():
    """`budget: model` with an allowance of 500 big blinds: the model plays a hand only while
    its own hands so far have won at least -30,000 chips, so they never end below -50,000 (the
    allowance), however the members do. The rigged counter moves all in every hand against a
    calling station: each of its hands is a stack won or lost, and it loses its way out; the
    members beat the station, so the match's bar (the same numbers on the whole match) would
    have gone on playing it. The TCP bot refuses and plays the same hands. (Counting the match's
    chips instead, or dropping the check, fails the first assertion.)"""
    chosen, deal_set, match = all_in_counter_against_a_station(
        "{every: 40, lag: 10, allowance: 500, budget: model}")
    bar = STACK - 500 * NL.big_blind
    model = match.chosen == 2
    own = np.concatenate([[0.0], np.cumsum(np.where(model, match.chips, 0.0))[:-1]])
    whole = np.concatenate([[0.0], np.cumsum(match.chips)[:-1]])
    installed = np.arange(len(own)) >= 40
    assert ((match.probabilities[:, 2] > 0) == (installed & (own >= bar))).all()
    assert (own[model] + match.chips[model] >= -500 * NL.big_blind).all()
    # The test means something: the counter lost its way below the bar, and the match's bar
    # would have gone on playing it where this one refused.
    assert model.sum() >= 2 and own[-1] + (match.chips[-1] if model[-1] else 0) < bar
    refused = installed & (own < bar)
    assert refused.sum() > 100 and (whole[refused] >= bar).any()
    bot, _ = tcp_match(chosen, "call", deal_set, 0, 5, True, refresher=rigged("allin"))
    assert match.chosen.tolist() == [row[1] for row in bot.history]
    assert match.probabilities.tolist() == [row[3] for row in bot.history]
    assert bot.model_balance == match.chips[model].sum()


@pytest.mark.parametrize("every", [40, 400])
def test_a_counted_loss_counts_each_lost_stack_as_the_limit(every):
    """`counted_loss: 50` on the model's own raw account, allowance 300: the rigged counter
    moves all in every hand against a calling station, so each of its hands is a stack won or
    lost, and each lost stack counts -50 big blinds. The model plays a hand exactly while the
    floored sum of its own hands so far stands at the bar (a stack less 300 big blinds); in
    full, the same hands' account falls below the bar where the floored one does not, so the
    model plays hands that the account in full would have refused (dropping the floor in the
    engine, before a part or within it, fails this: with counters every 40 hands the account
    is summed afresh before each part, with one at hand 400 it is kept within one part). The
    TCP bot refuses and plays the same hands, and its own account is the floored sum."""
    chosen, deal_set, match = all_in_counter_against_a_station(
        f"{{every: {every}, lag: 10, allowance: 300, budget: model, counted_loss: 50}}")
    bar = STACK - 300 * NL.big_blind
    model = match.chosen == 2
    installed = np.arange(model.size) >= every

    def before(values):
        return np.concatenate([[0.0], np.cumsum(np.where(model, values, 0.0))[:-1]])

    floored = np.maximum(match.chips, -50 * NL.big_blind)
    counted, whole = before(floored), before(match.chips)
    assert ((match.probabilities[:, 2] > 0) == (installed & (counted >= bar))).all()
    assert (match.chips[model] == -STACK).sum() >= 3  # stacks lost, each counted -50
    # the floor decided: hands the model played that the account in full would have refused
    assert (model & (whole < bar)).sum() > 10
    bot, _ = tcp_match(chosen, "call", deal_set, 0, 5, True, refresher=rigged("allin"))
    assert match.chosen.tolist() == [row[1] for row in bot.history]
    assert match.probabilities.tolist() == [row[3] for row in bot.history]
    assert bot.model_balance == floored[model].sum()
    assert "a hand's loss counted up to 50 big blinds" in chosen.describe(STACK / NL.big_blind)


def drawable_by_rule(model, values, every: int, threshold: float, chances: int):
    """The model's budget written out from its rule (`bot.portfolio`, "More than one chance"):
    (whether each hand may draw the model, the hands where the bar moved, the bar at the end).
    `model[h]`: the model
    played hand h; `values[h]`: what that hand counts in its account; a counter takes the slot
    every `every` hands, and one that takes it with the account below the bar starts the
    account again (the bar moves to the account plus `threshold`), at most `chances` - 1 times."""
    bar, renewals, account, playable, moved = threshold, 0, 0.0, [], []
    for h in range(model.size):
        if h >= every and h % every == 0 and account < bar and renewals < chances - 1:
            bar, renewals = account + threshold, renewals + 1
            moved.append(h)
        playable.append(h >= every and account >= bar)
        account += values[h] if model[h] else 0.0
    return np.array(playable), moved, bar


def test_more_chances_start_the_account_again_at_the_counter_after_a_fall():
    """`chances: 3` on the model's own raw account, allowance 300: the rigged counter moves all
    in every hand against a calling station, so its account swings a stack a hand and falls
    below the bar. A counter that takes the slot (every 40 hands) while the account stands below
    the bar starts it again from zero, the bar moving to the account then less 100 big blinds,
    twice at most; the model is drawn exactly while the account stands at the bar so moved
    (checked against a loop written from the rule). With one chance the first fall would have
    ended its play; here it plays after each of two falls, and its hands lose no more than three
    times (100 big blinds and a stack). The TCP bot moves the same bar at the same hands and
    plays the same hands."""
    chosen, deal_set, match = all_in_counter_against_a_station(
        "{every: 40, lag: 10, allowance: 300, budget: model, chances: 3}")
    threshold = STACK - 300 * NL.big_blind
    model = match.chosen == 2
    drawable, moved, bar = drawable_by_rule(model, match.chips, 40, threshold, 3)
    assert ((match.probabilities[:, 2] > 0) == drawable).all()
    assert len(moved) == 2  # both chances were used ...
    first, second = moved
    assert model[first:second].any() and model[second:].any()  # ... and played after each fall
    assert match.chips[model].sum() >= 3 * (threshold - STACK)
    bot, _ = tcp_match(chosen, "call", deal_set, 0, 5, True, refresher=rigged("allin"))
    assert match.chosen.tolist() == [row[1] for row in bot.history]
    assert match.probabilities.tolist() == [row[3] for row in bot.history]
    assert (bot.bar, bot.renewals) == (bar, 2)
    again = [note for note in bot.notes if "starts again from zero" in note]
    assert [note.split(":")[0] for note in again] == [f"# model {hand // 40}" for hand in moved]
    assert again[-1].endswith("(chance 3 of 3)")
    assert "3 chances" in chosen.describe(STACK / NL.big_blind)


def test_an_adjusted_account_charges_an_all_in_its_equity_not_the_run_out():
    """`account: adjusted`, own hands, an allowance of 500 big blinds: the rigged counter moves
    all in every hand against a calling station, so each of its hands is an all-in before the
    flop, charged (2 e - 1) x the stack (e its exact preflop equity) instead of the stack won
    or lost. The model plays a hand exactly while the adjusted sum of its own hands so far is at
    least the bar; counted raw the bar would have refused some of those hands, or played some
    it refused (the run-outs' luck), so the rule is the adjusted one (counting raw chips in the
    engine, before a part or within it, fails this). The TCP bot refuses and plays the same
    hands, and its own account is the adjusted sum."""
    chosen, deal_set, match = all_in_counter_against_a_station(
        "{every: 40, lag: 10, allowance: 500, budget: model, account: adjusted}")
    bar = STACK - 500 * NL.big_blind
    model = match.chosen == 2
    installed = np.arange(model.size) >= 40

    def before(values):
        return np.concatenate([[0.0], np.cumsum(np.where(model, values, 0.0))[:-1]])

    adjusted, raw = before(match.adjusted), before(match.chips)
    assert ((match.probabilities[:, 2] > 0) == (installed & (adjusted >= bar))).all()
    # every model hand is a stack all in, scored by its equity: never a whole stack
    assert model.sum() > 20
    assert (np.abs(match.adjusted[model]) < STACK).all()
    assert (np.abs(match.chips[model]) == STACK).all()
    # the test means something: the raw account would have decided some hand otherwise
    assert ((installed & (adjusted >= bar)) != (installed & (raw >= bar))).any()
    bot, _ = tcp_match(chosen, "call", deal_set, 0, 5, True, refresher=rigged("allin"))
    assert match.chosen.tolist() == [row[1] for row in bot.history]
    assert match.probabilities.tolist() == [row[3] for row in bot.history]
    assert bot.model_balance == pytest.approx(match.adjusted[model].sum(), abs=1e-6)
    assert "all-in adjusted" in chosen.describe(STACK / NL.big_blind)


def test_the_shipped_default_charges_its_counters_by_equity_and_gives_them_two_chances_of_50():
    """The shipped `default` (0.10.0, 0.12.0 and 0.13.0): its model's own hands are counted all-in
    adjusted, each at no less than -50 big blinds (`counted_loss: 50`), with an allowance of 250
    big blinds, so a counter plays while that count of its hands stands at -50 big blinds (a
    stack less 250) or better; with two chances, the counter that takes the slot after a fall
    starts the count again from zero once (the bar moves to the count then less 50), so the
    count never ends below -200. The rigged counter moves all in every hand against `seed` from
    hand 500 on (1,500 hands of deal seed 34), which calls it with its strong hands: the first
    counter falls and is out until hand 1,000, where the second chance lets the model play
    again. Each part of the rule decides hands here: one chance, the adjusted account counted
    in full, and the raw one with an allowance of 400 (0.7.0 to 0.9.0) would have played or
    refused other hands."""
    chosen = load_portfolio("default")
    deal_set = compute_deal_set(seed=34, first_deal=0, count=750)
    match = play_portfolio(encode_rules(NL), chosen, resolve_strategy("seed"), deal_set, 5,
                           NL.big_blind, STACK, game=NL,
                           refresh=lambda *_: Counter("allin", 0.0, {}, 0))
    slot = chosen.model_slot
    model = match.chosen == slot
    counted = np.maximum(match.adjusted, -50 * NL.big_blind)

    def drawable(values, threshold, chances):
        return drawable_by_rule(model, values, chosen.model.every, threshold, chances)[:2]

    plays = match.probabilities[:, slot] > 0
    expected, moved = drawable(counted, -50 * NL.big_blind, 2)
    assert (plays == expected).all() and len(moved) == 1
    assert plays[500:1000].any() and not plays[900:1000].any() and plays[1000:].any()
    account = np.concatenate([[0.0], np.cumsum(np.where(model, counted, 0.0))[:-1]])
    assert (account[model] + counted[model] >= -200 * NL.big_blind).all()
    assert (match.adjusted[model] < -50 * NL.big_blind).sum() >= 2
    assert (plays != drawable(counted, -50 * NL.big_blind, 1)[0]).any()
    assert (plays != drawable(match.adjusted, -50 * NL.big_blind, 2)[0]).any()
    assert (plays != drawable(match.chips, -200 * NL.big_blind, 1)[0]).any()


def test_the_shipped_default_floor_keeps_an_even_all_in_counter_playing():
    """What the floor costs: a counter whose big pots lose on average looks better to a floored
    account. The rigged counter moves all in every hand against a calling station (about even:
    each all-in charged its equity, from -200 to +200 big blinds); counted at no less than -50
    big blinds a hand it is never shut out over hands 500-1,499 of deal seed 34, where the same
    portfolio counting each hand in full shuts it out for half of them, second chance and all."""
    from dataclasses import replace

    chosen = load_portfolio("default")
    deal_set = compute_deal_set(seed=34, first_deal=0, count=750)

    def shut_out(portfolio):
        match = play_portfolio(encode_rules(NL), portfolio, resolve_strategy("call"), deal_set, 5,
                               NL.big_blind, STACK, game=NL,
                               refresh=lambda *_: Counter("allin", 0.0, {}, 0))
        installed = np.arange(match.chosen.size) >= portfolio.model.every
        return (installed & (match.probabilities[:, portfolio.model_slot] == 0)).sum()

    assert chosen.model.counted_loss == 50
    assert shut_out(chosen) == 0
    assert shut_out(replace(chosen, model=replace(chosen.model, counted_loss=0))) > 450


def test_the_shipped_default_scores_each_counter_half_against_default_v2():
    """The shipped `default` (since 0.11.0): each counter is searched for the best mixture, half
    what it wins against the fitted model and half what it wins against `default-v2` (README,
    "Portfolios", guards), so it keeps the model's leaks where sound play does not punish them.
    Its refresh, cut to the starts alone on 100 of its deals (no step), reports the score it
    keeps its counter by, each half played on the search's deals as the engine plays them, and
    the counter is the start of the best such score. The 0.10.0 file (no guards) reports no
    such score, and a guard weight of 0.75 another one: both fail here."""
    from dataclasses import replace

    from gambler.bot.opponent import OpponentStats
    from gambler.training.counter import profile_vector, refresh_counter
    from gambler.training.deals import cached_deal_set
    from gambler.training.engine import PROFILE, encode_strategy, play_deals

    chosen = load_portfolio("default")
    quick = replace(chosen, model=replace(chosen.model, deals=100, steps=0))
    found = refresh_counter(NL, quick, OpponentStats(), 1)
    deal_set, _ = cached_deal_set(chosen.model.seed, 0, 100)

    def won(profile, opponent):  # the engine's deals played as the search plays them
        results = np.zeros((100, 2), dtype=np.int64)
        adjusted = np.zeros((100, 2))
        play_deals(encode_rules(NL), PROFILE, profile_vector(profile), *encode_strategy(opponent),
                   deal_set.v, deal_set.outcomes, deal_set.allin_equity, chosen.model.seed + 1, 0,
                   results, adjusted)
        return 1000 * adjusted.mean() / NL.big_blind

    guard = resolve_strategy("default-v2")
    mixture = {name: 0.5 * found.starts[name] + 0.5 * won(profile, guard)
               for name, profile in zip(chosen.model.starts, chosen.model.start_profiles)}
    best = max(mixture, key=mixture.get)
    assert found.guarded == pytest.approx(mixture[best], rel=1e-12)
    assert (profile_vector(found.profile) == profile_vector(resolve_strategy(best))).all()


# --- through the real dealer ------------------------------------------------------------------

def test_gambler_with_a_model_member_behind_the_real_dealer_is_the_engines_match(tmp_path):
    """`gambler --params PORTFOLIO --log` (its counters computed in a worker process) against
    `gambler-dealer --duplicate` and a calling station: the chips hand by hand are the engine's
    match on the dealer's cards, each decision line names the slot the engine drew (`model`
    included), and the log says when each counter took effect."""
    path = tmp_path / "modelled.yaml"
    path.write_text("kind: portfolio\nname: modelled\nmembers: [default-v2, price-aware]\n"
                    "exploration: 0.1\nlearning_rate: 0.05\n"
                    "model: {every: 40, lag: 10, deals: 200, steps: 2, population: 4}\n")
    # The worker runs at a low priority: from a cold kernel cache, on cores the other test
    # workers keep busy, compiling the counter search there could outlast the bot's wait
    # (REFRESH_WAIT_SECONDS), which gives the counter up. Compiled here first, it loads.
    from dataclasses import replace

    from gambler.bot.opponent import OpponentStats
    from gambler.training.counter import refresh_counter

    portfolio = resolve_strategy(str(path))
    refresh_counter(NL, replace(portfolio, model=replace(portfolio.model, deals=20, steps=1)),
                    OpponentStats(), 1)
    hands, deal_set = real_dealer_match(tmp_path, path, "call", 60, 11)
    match = play_portfolio(encode_rules(NL), portfolio, "call", deal_set, 0, NL.big_blind, STACK,
                           game=NL)
    assert match.chips.tolist() == [hand.value_of("a") for hand in hands]
    names = ["default-v2", "price-aware", "model"]
    log = (tmp_path / "a.log").read_text().splitlines()
    drawn = members_drawn(tmp_path / "a.log")
    parted = {hand: (found, names[match.chosen[hand]]) for hand, found in drawn.items()
              if found != {names[match.chosen[hand]]}}
    assert not parted, (parted, [line for line in log if line.startswith("# model ")])
    assert "model" in set().union(*drawn.values())
    notes = [line for line in log if line.startswith("# model ")]
    assert [note.split(":")[0] for note in notes] == ["# model 1 from hand 40",
                                                      "# model 2 from hand 80"]
    assert "fitted on hands 0 to 29" in notes[0] and "mbb/hand against the model" in notes[0]
    assert math.isclose(sum(match.chips), sum(hand.value_of("a") for hand in hands))
    # gambler-report reads the model's slot like a member's
    report = subprocess.run([sys.executable, "-m", "gambler.training.report_cli",
                             str(tmp_path / "a.log"), "--json"], capture_output=True, text=True)
    assert report.returncode == 0, report.stderr
    import json

    adaptation = json.loads(report.stdout)["adaptation"][0]
    assert adaptation["members"] == names and adaptation["chosen"] == match.chosen.tolist()
    assert adaptation["shares"]["model"] == pytest.approx((match.chosen == 2).mean())


def test_gambler_match_says_what_the_model_played(tmp_path):
    """`gambler-match PORTFOLIO B` reports the hands the portfolio's model member played and
    what they won for the portfolio in big blinds, raw and all-in adjusted: the engine's match
    (`play_portfolio` on the same deals and seed) summed over the hands whose slot is the
    model's; in either seat (as B, the portfolio's own chips all the same); the text says it
    too, and a portfolio without a model says nothing of one."""
    import json
    import subprocess

    from gambler.training.deals import cached_deal_set
    from gambler.training.match_cli import describe, model_summary

    path = tmp_path / "small.yaml"
    path.write_text("kind: portfolio\nname: small\nmembers: [default-v2]\nexploration: 0.1\n"
                    f"learning_rate: 0.05\nshare: 0.0\nmodel: {SMALL_MODEL}\n")
    deals, _ = cached_deal_set(6, 0, 150)
    chosen = parse_portfolio(path.read_text(), str(path))
    for seat, order in ((0, (str(path), "call")), (1, ("call", str(path)))):
        result = subprocess.run([sys.executable, "-m", "gambler.training.match_cli", *order,
                                 "--hands", "300", "--seed", "6", "--json"],
                                capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stderr
        model = json.loads(result.stdout)["model"]
        match = play_portfolio(encode_rules(NL), chosen, resolve_strategy("call"), deals, 6,
                               NL.big_blind, STACK, seat=seat, game=NL)
        played = match.chosen == chosen.model_slot
        assert model == model_summary(chosen, match, NL.big_blind)
        assert model["hands"] == played.sum() > 20
        assert model["big_blinds"] == pytest.approx(match.chips[played].sum() / NL.big_blind)
        assert model["big_blinds_allin_adjusted"] == pytest.approx(
            match.adjusted[played].sum() / NL.big_blind)
        assert model["big_blinds"] > 0  # the counters beat a calling station
    result = json.loads(result.stdout)
    lines = describe(result)
    assert lines[-1] == (f"  the portfolio's model played {model['hands']:,} of the 300 hands: "
                         f"{model['big_blinds']:+,.1f} big blinds for the portfolio "
                         f"({model['big_blinds_allin_adjusted']:+,.1f} all-in adjusted)")
    del result["model"]
    assert len(describe(result)) == 2
    without = parse_portfolio("kind: portfolio\nmembers: [seed, default-v2]\n", "two.yaml")
    assert model_summary(without, match, NL.big_blind) is None


# --- the exploiter search against a portfolio ---------------------------------------------------

def test_the_search_scores_a_portfolio_of_one_member_as_that_member():
    """A portfolio of `seed` twice plays every hand as `seed`: the portfolio scorer's chips
    (3,000-hand matches through `play_portfolio`) equal the plain scorer's against `seed` (the
    population kernel), pair for pair, for any exploiter. (`seed` does not mix: a mixed
    profile's draws are seeded by hand numbers, which the two number differently.)"""
    from gambler.training.engine import encode_strategy
    from gambler.training.exploit import GENES, _PortfolioScorer, _Scorer, vector_of

    deal_set = compute_deal_set(seed=41, first_deal=0, count=1600)  # a match and a part
    twice = parse_portfolio("kind: portfolio\nmembers: [seed, seed]\n", "twice.yaml")
    rules = encode_rules(NL)
    vectors = np.random.default_rng(3).normal(0.0, 0.6, (4, GENES))
    plain = _Scorer(rules, *encode_strategy(resolve_strategy("seed")), deal_set, 7)
    scored = _PortfolioScorer(rules, twice, deal_set, 7, NL, workers=2)
    raw, adjusted = scored.chips(vector_of(vectors))
    expected_raw, expected_adjusted = plain.chips(vector_of(vectors))
    assert (raw == expected_raw).all()
    np.testing.assert_allclose(adjusted, expected_adjusted, rtol=0, atol=1e-6)
    assert (raw != 0).any(axis=1).all()
    # the interval is over matches: two here (1,500 deals and 100), Student's t at 1 degree
    # of freedom
    score = scored.score(adjusted[0], NL.big_blind)
    halves = [adjusted[0][:1500].mean(), adjusted[0][1500:].mean()]
    assert score.mbb_per_hand == pytest.approx(adjusted[0].mean() * 5)
    assert score.ci95_mbb == pytest.approx(12.706 * np.std(halves, ddof=1) * 5 / np.sqrt(2),
                                           rel=1e-6)


def test_gambler_exploit_searches_against_a_portfolio(tmp_path):
    path = tmp_path / "duo.yaml"
    path.write_text("kind: portfolio\nname: duo\nmembers: [call, price-aware]\n")
    result = subprocess.run([sys.executable, "-m", "gambler.training.exploit_cli", str(path),
                             "--generations", "2", "--deals", "200", "--held-out", "3000",
                             "--json", "--out", str(tmp_path / "found.yaml")],
                            capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    import json

    record = json.loads(result.stdout)
    assert record["profile"] == str(path) and record["generations"] == 2
    assert record["hands"] == 6000
    found = resolve_strategy(str(tmp_path / "found.yaml"))
    assert found.name == "found" and "against duo.yaml" in found.description.replace(
        str(tmp_path) + "/", "")


def test_an_allowance_lowers_the_bar_by_itself_and_no_more():
    """With an allowance of 100 big blinds the rigged counter plays from 10,000 chips ahead
    (half a stack): after each of its hands the bot is at most 10,000 behind, and it did play
    hands the plain budget would have refused."""
    chosen = modelled("{every: 40, lag: 10, allowance: 100}")
    deal_set = compute_deal_set(seed=31, first_deal=0, count=400)
    opponent = Switch(resolve_strategy("call"), resolve_strategy("seed"), 100, ("call", "seed"))
    match = play_portfolio(encode_rules(NL), chosen, opponent, deal_set, 5, NL.big_blind, STACK,
                           game=NL, refresh=lambda *_: Counter("call", 0.0, {}, 0))
    before = np.concatenate([[0.0], np.cumsum(match.chips)[:-1]])
    model = match.chosen == 2
    assert (before[model] >= STACK - 10000).all()
    assert (before[model] + match.chips[model] >= -10000).all()
    assert ((before[model] < STACK)).any() and match.chips[model].sum() < -STACK


def test_the_fit_goes_through_calibration_against_the_first_profile_with_the_prior(monkeypatch):
    from gambler.bot.opponent import PRIOR, OpponentStats
    from gambler.training import counter

    seen = []

    def recording(stats, against, deal_set, rules, game, iterations, name="model", prior=None):
        seen.append((against.name, iterations, name, len(deal_set), prior))
        return resolve_strategy("prober")

    monkeypatch.setattr(counter, "calibrated_model", recording)
    stats = OpponentStats()
    counter.refresh_counter(NL, modelled(SMALL_MODEL.replace("}", ", calibrate: 3}")), stats, 2)
    assert seen == [("default-v2", 3, "model-2", 200, PRIOR)]
    counter.refresh_counter(NL, modelled(SMALL_MODEL.replace("}", ", prior: 30}")), stats, 2)
    assert seen[-1] == ("default-v2", 0, "model-2", 200, 30)  # 0 rounds: the plain fit


# --- one member and the model; the counter search's starts ------------------------------------

def test_a_portfolio_of_one_member_and_the_model():
    """With a model member one member is enough: Exp3 then draws between it and the counter."""
    chosen = modelled("{every: 60, lag: 20, starts: [default-v2, price-aware]}",
                      members=("price-aware",))
    assert chosen.slots == ("price-aware", "model") and chosen.model_slot == 1
    assert chosen.model.starts == ("default-v2", "price-aware")
    assert [profile.name for profile in chosen.model.start_profiles] == ["default-v2",
                                                                         "price-aware"]
    assert chosen.describe(200.0).startswith("Exp3 over 1 member (price-aware and the model)")
    with pytest.raises(ProfileError) as error:
        parse_portfolio("kind: portfolio\nmembers: [price-aware]\n", source="one.yaml")
    assert str(error.value) == ("one.yaml: members: a list of at least two names or paths (or "
                                "one, with a model member)")


@pytest.mark.parametrize("starts, message", [
    ("[]", "model: starts: a list of at least one profile name or path"),
    ("default-v2", "model: starts: a list of at least one profile name or path"),
    ("[default-v2, call]", "model: starts[1] (call): the counter search starts from automaton "
                        "profiles, not a baseline"),
    ("[catcher]", "model: starts[0] (catcher): the counter search starts from automaton "
                  "profiles, not an exploiter"),
    ("[nosuch]", "model: starts[0] (nosuch): no profile file 'nosuch'"),
])
def test_bad_starts_name_the_file_the_field_and_the_entry(starts, message):
    with pytest.raises(ProfileError) as error:
        modelled(f"{{every: 60, lag: 20, starts: {starts}}}")
    assert str(error.value).startswith("test.yaml: ") and message in str(error.value)


@pytest.mark.parametrize("members, starts, searched", [
    (("price-aware",), "", ["price-aware"]),
    (("price-aware",), ", starts: [default-v2]", ["default-v2"]),
    (("price-aware", "default-v2"), ", starts: [seed, default-v2]", ["seed", "default-v2"])])
def test_the_counter_search_starts_from_the_starts_or_else_the_members(members, starts,
                                                                       searched):
    """Without a step the counter is the start that beats the model most: with one start, that
    start's parameters exactly; the search scored every start and nothing else."""
    from gambler.bot.opponent import OpponentStats
    from gambler.training.counter import profile_vector, refresh_counter

    chosen = modelled(f"{{every: 60, lag: 20, deals: 100, steps: 0{starts}}}", members=members)
    counter = refresh_counter(NL, chosen, OpponentStats(), 1)
    assert sorted(counter.starts) == sorted(searched)
    best = max(counter.starts, key=counter.starts.get)
    assert counter.mbb_per_hand == counter.starts[best]
    assert (profile_vector(counter.profile) == profile_vector(resolve_strategy(best))).all()
    assert counter.profile.name == "model-1"


def test_the_search_leaves_the_first_start_only_for_more_than_the_margin():
    """With the worse start first, a margin just below the other's lead climbs from the other,
    and one at its lead (rounded up) keeps the first."""
    import math

    from gambler.bot.opponent import OpponentStats
    from gambler.training.counter import profile_vector, refresh_counter

    def counter(starts, margin):
        chosen = modelled(f"{{every: 60, lag: 20, deals: 100, steps: 0, starts: {starts}, "
                          f"margin: {margin}}}", members=("price-aware",))
        return refresh_counter(NL, chosen, OpponentStats(), 1)

    scores = counter("[seed, default-v2]", 0).starts
    worse, better = sorted(scores, key=scores.get)
    lead = scores[better] - scores[worse]
    assert lead > 1
    for margin, kept in ((math.floor(lead) - 1, better), (math.ceil(lead), worse)):
        found = counter(f"[{worse}, {better}]", margin)
        assert found.mbb_per_hand == scores[kept]
        assert (profile_vector(found.profile) == profile_vector(resolve_strategy(kept))).all()


def test_a_negative_margin_is_refused():
    with pytest.raises(ProfileError) as error:
        modelled("{every: 60, lag: 20, margin: -5}")
    assert "model: margin: -5 is below 0" in str(error.value)



@pytest.mark.parametrize("model, message", [
    ("guards: [default-v2]", "model: guards without a guard_weight: name the guards and their "
                             "share of the counter's score together"),
    ("guard_weight: 0.5", "model: a guard_weight without guards"),
    ("guards: [default-v2], guard_weight: 1", "model: guard_weight: 1 is not in [0, 1)"),
    ("guards: [default-v2], guard_weight: -0.25", "model: guard_weight: -0.25 is not in [0, 1)"),
    ("guards: [], guard_weight: 0.5", "model: guards: a list of at least one profile, exploiter "
                                      "or baseline"),
    ("guards: [call, default-static], guard_weight: 0.5",
     "model: guards[1] (default-static): a profile with range defence or range bets cannot "
     "guard"),
    ("guards: [adaptive], guard_weight: 0.5", "model: guards[0] (adaptive): a guard is one "
                                              "strategy, not a portfolio"),
    ("guards: [nosuch], guard_weight: 0.5", "model: guards[0] (nosuch): no profile file"),
])
def test_bad_guards_name_the_file_the_field_and_the_entry(model, message):
    with pytest.raises(ProfileError) as error:
        modelled(f"{{every: 60, lag: 20, {model}}}")
    assert str(error.value).startswith("test.yaml: ") and message in str(error.value)


def test_guards_choose_the_start_by_the_mixture_with_the_model():
    """Without a step the counter is the start of the best score: against the model alone
    (no guards) or (1 - w) x against the model + w x the guards' mean with them; refresh_counter
    passes the file's guards and weight to the search, which reports both numbers, each equal to
    the starts played against the model and each guard on the search's deals."""
    import numpy as np

    from gambler.bot.opponent import OpponentStats
    from gambler.training.counter import profile_vector, refresh_counter
    from gambler.training.deals import cached_deal_set
    from gambler.training.engine import PROFILE, encode_strategy, play_deals

    def counter(guards):
        chosen = modelled(f"{{every: 60, lag: 20, deals: 100, steps: 0, "
                          f"starts: [default-v2, seed]{guards}}}", members=("price-aware",))
        return chosen, refresh_counter(NL, chosen, OpponentStats(), 1)

    plain_file, plain = counter("")
    guarded_file, guarded = counter(", guards: [call, raise], guard_weight: 0.75")
    assert plain.guarded is None and guarded.starts == plain.starts
    deal_set, _ = cached_deal_set(601, 0, 100)

    def won(profile, opponent):  # the engine's deals played as the search plays them
        results = np.zeros((100, 2), dtype=np.int64)
        adjusted = np.zeros((100, 2))
        play_deals(encode_rules(NL), PROFILE, profile_vector(profile), *encode_strategy(opponent),
                   deal_set.v, deal_set.outcomes, deal_set.allin_equity, 602, 0, results, adjusted)
        return 1000 * adjusted.mean() / NL.big_blind

    mixture = {name: 0.25 * plain.starts[name] + 0.75 * (won(profile, "call") +
                                                         won(profile, "raise")) / 2
               for name, profile in zip(("default-v2", "seed"),
                                        guarded_file.model.start_profiles)}
    by_model = max(plain.starts, key=plain.starts.get)
    by_mixture = max(mixture, key=mixture.get)
    assert by_model != by_mixture  # the guards change which start the counter is
    for found, name in ((plain, by_model), (guarded, by_mixture)):
        assert (profile_vector(found.profile) ==
                profile_vector(resolve_strategy(name))).all()
        assert found.mbb_per_hand == pytest.approx(plain.starts[name], rel=1e-12)
    assert guarded.guarded == pytest.approx(mixture[by_mixture], rel=1e-12)

@pytest.mark.parametrize("opponent, seat", [("sizer", 0), ("call", 1)])
def test_one_member_and_the_model_play_hand_for_hand_in_the_engine_and_over_tcp(deals, opponent,
                                                                              seat):
    chosen = modelled(SMALL_MODEL.replace("}", ", starts: [default-v2, price-aware], "
                                               "budget: model, allowance: 250}"),
                      members=("price-aware",))
    bot, rewards = tcp_match(chosen, opponent, deals, seat, 23, True,
                             refresher=InlineRefresher(NL))
    match = play_portfolio(encode_rules(NL), chosen, resolve_strategy(opponent), deals, 23,
                           NL.big_blind, STACK, seat=seat, game=NL)
    assert match.chosen.tolist() == [row[1] for row in bot.history]
    assert match.probabilities.tolist() == [row[3] for row in bot.history]
    assert match.adjusted.tolist() == rewards
    assert match.gains.tolist() == bot.rule.gains
    assert match.weights.tolist() == bot.rule.weights
    assert bot.refreshes == 4
    # the member alone until the first counter
    np.testing.assert_allclose(match.probabilities[:60, 0], 1.0, rtol=0, atol=1e-12)
    assert (match.chosen == 1).sum() > 20  # then the counter plays
