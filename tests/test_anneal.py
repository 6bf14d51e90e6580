"""The annealing rules, with a stub evaluation backend whose chips the tests choose: Metropolis
acceptance, the new-best rule, the temperature schedule, proposals, the hall of fame, and the
objective's LBR term (with LBR itself, measured again independently)."""

import math
from dataclasses import replace

import numpy as np
import pytest

import gambler.training.anneal as anneal
from acpc_support import NOLIMIT
from gambler.bot.params import load_profile
from gambler.bot.strategies import resolve_strategy
from gambler.protocol import load_game
from gambler.training.anneal import Trainer, objective, propose, temperature
from gambler.training.config import TrainConfig
from gambler.training.engine import encode_strategy
from gambler.training.evaluate import Chips, Score, score_pairs
from gambler.training.lbr import run_lbr

GAME = load_game(NOLIMIT)
DEAL_SEED = 1000


class FakeDeals:
    """Stands for a deal set: only its seed and size matter to the stub."""

    def __init__(self, seed, count):
        self.seed, self.count = seed, count

    def __len__(self):
        return self.count


class StubBackend:
    """Chips chosen by the test. On the training deals every candidate-vs-opponent pair gets
    `train_delta` chips a deal and every current-vs-opponent pair 0, so delta is known exactly;
    on fresh set k the candidate gets `fresh_gains[k]` chips a deal more than the best; the
    validation deals give 0."""

    parallelism = 1

    def __init__(self, train_delta: float, fresh_gains=(-1.0,)):
        self.train_delta = train_delta
        self.fresh_gains = fresh_gains
        self.calls = []

    def run(self, deals, path, rules, pairs, seed):
        self.calls.append(deals.seed)
        count = len(deals)
        if deals.seed == DEAL_SEED:
            first = self.train_delta
        elif DEAL_SEED < deals.seed <= DEAL_SEED + len(self.fresh_gains):
            first = self.fresh_gains[deals.seed - DEAL_SEED - 1]
        else:
            first = 0.0
        values = [first] * (len(pairs) // 2) + [0.0] * (len(pairs) - len(pairs) // 2)
        return [Chips(np.full(count, value), np.full(count, value)) for value in values]

    def close(self):
        pass


@pytest.fixture(autouse=True)
def fake_deal_sets(monkeypatch):
    monkeypatch.setattr(anneal, "cached_deal_set",
                        lambda seed, first, count, **_: (FakeDeals(seed, count), f"deals-{seed}"))


def trainer(tmp_path, backend, steps, **settings):
    config = replace(TrainConfig(start="seed", deals=50, fresh_deals=50, deal_seed=DEAL_SEED,
                                 opponents={"seed": 1.0, "call": 1.0, "best": 1.0},
                                 sweeps=1, steps_per_parameter=1, normalize=False,
                                 hall_of_fame=0, held_out={}, restart_after=0,
                                 temperature_start=20.0, temperature_end=0.5,
                                 lbr={**TrainConfig().lbr, "weight": 0.0, "report_hands": 0}),
                     **settings)
    return Trainer.start(tmp_path / "run", config, GAME, backend, seed=3, steps=steps,
                         hours=None)


def test_a_non_negative_delta_is_always_accepted(tmp_path):
    for delta in (0.0, 0.5):
        run = trainer(tmp_path / str(delta), StubBackend(delta), steps=40)
        run.run()
        assert run.state.accepted == 40


def test_a_negative_delta_is_accepted_at_rate_exp_delta_over_t(tmp_path):
    # Big blind 100: a chips a deal are 5 a mbb/hand. At T = 10 (start = end), a delta of
    # -10 ln 2 mbb/hand is accepted with probability exp(-ln 2) = 1/2.
    heat = 10.0
    chips = -heat * math.log(2) / 5
    steps = 400
    run = trainer(tmp_path, StubBackend(chips), steps=steps, temperature_start=heat,
                  temperature_end=heat)
    run.run()
    deviation = math.sqrt(steps * 0.25)
    assert abs(run.state.accepted - steps / 2) < 4 * deviation
    # Twice the loss: exp(-2 ln 2) = 1/4.
    run = trainer(tmp_path / "twice", StubBackend(2 * chips), steps=steps,
                  temperature_start=heat, temperature_end=heat)
    run.run()
    assert abs(run.state.accepted - steps / 4) < 4 * math.sqrt(steps * 3 / 16)


def test_the_best_changes_only_on_a_positive_fresh_gain(tmp_path):
    backend = StubBackend(1.0, fresh_gains=(1.0, -1.0, 0.0))
    run = trainer(tmp_path, backend, steps=9, fresh_sets=3)
    start = list(run.state.best)
    bests = after_each_step(run, 9, lambda state: list(state.best))
    records = [anneal.json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text()
               .splitlines()]
    assert [record["new_best"] for record in records] == [True, False, False] * 3
    assert [record["fresh_seed"] for record in records] == [DEAL_SEED + 1, DEAL_SEED + 2,
                                                            DEAL_SEED + 3] * 3
    assert run.state.improvements == 3
    for step, best in enumerate(bests):
        changed = best != (bests[step - 1] if step else start)
        assert changed == (step % 3 == 0)
    assert bests[-1] == bests[6] and bests[6] != bests[5]


def test_temperature_schedule_ends_and_middle():
    config = TrainConfig(temperature_start=20.0, temperature_end=0.5)
    assert temperature(config, 0, 11) == 20.0
    assert temperature(config, 10, 11) == pytest.approx(0.5)
    assert temperature(config, 5, 11) == pytest.approx(math.sqrt(20.0 * 0.5))  # geometric
    assert temperature(config, 11, 11) == 20.0  # a run longer than the schedule starts over
    assert temperature(config, 0, 1) == 20.0


def test_proposals_move_one_parameter_and_keep_thresholds_ordered():
    vector = np.array(load_profile("seed").as_vector())
    rng = np.random.default_rng(4)
    for _ in range(300):
        position = int(rng.integers(44))
        candidate = propose(vector, position, 5.0, rng)
        assert (np.delete(candidate, position) == np.delete(vector, position)).all()
        for round_ in range(4):
            x, y, z = candidate[11 * round_:11 * round_ + 3]
            assert -1.0 <= x <= y <= z <= 1.0
    # An unbounded parameter moves by exactly scale x a standard normal draw.
    draw = np.random.default_rng(9).normal()
    moved = propose(vector, 5, 3.0, np.random.default_rng(9))
    assert moved[5] == pytest.approx(vector[5] + 3.0 * draw)


class OpponentStub(StubBackend):
    """Chips by opponent kind (the engine's strategy kinds: 0 a profile, 1 `call`): on the
    training and fresh deals the candidate gets `gains[kind]` chips a deal more than the profile
    it is compared with; for the spreads of `normalize`, the starting profile's chips against an
    opponent alternate +-`spreads[kind]` (standard deviation = spreads[kind] x a known factor)."""

    def __init__(self, gains, spreads=None, fresh=None):
        super().__init__(0.0)
        self.gains, self.spreads, self.fresh = gains, spreads or {}, fresh or gains
        self.pair_counts = []

    def run(self, deals, path, rules, pairs, seed):
        count = len(deals)
        self.pair_counts.append((deals.seed, len(pairs)))
        if deals.seed == DEAL_SEED + 100:  # validation
            return [Chips(np.zeros(count), np.zeros(count)) for _ in pairs]
        half = len(pairs) // 2
        measuring = len(pairs) == len(self.spreads)  # the start against each fixed opponent
        results = []
        for index, (_, _, kind_b, _) in enumerate(pairs):
            if measuring:
                values = np.tile([self.spreads[kind_b], -self.spreads[kind_b]], count // 2)
            else:
                gains = self.gains if deals.seed == DEAL_SEED else self.fresh
                values = np.full(count, gains[kind_b] if index < half else 0.0)
            results.append(Chips(values, values))
        return results


def test_normalize_weighs_each_opponent_in_units_of_its_spread(tmp_path):
    # Against `call` (kind 1) the chips spread 100, against `seed` (kind 0) 10; the proposal
    # gains 10 chips a deal against `call` and loses 1 against `seed`, equal weights. Raw, that
    # is +4.5 chips a deal (+22.5 mbb/hand); in units of each spread (s = 55) it is
    # 0.5 x 10 x 55/100 - 0.5 x 1 x 55/10 = 0.
    for normalize, expected in ((False, 22.5), (True, 0.0)):
        backend = OpponentStub({1: 10.0, 0: -1.0}, spreads={1: 100.0, 0: 10.0})
        run = trainer(tmp_path / str(normalize), backend, steps=1, normalize=normalize,
                      opponents={"seed": 1.0, "call": 1.0})
        run.run()
        record = anneal.json.loads((tmp_path / str(normalize) / "run" / "log.jsonl")
                                   .read_text().splitlines()[0])
        assert record["delta"]["mbb_per_hand"] == pytest.approx(expected, abs=1e-9)
        if normalize:
            spread = np.std(np.tile([100.0, -100.0], 25), ddof=1)
            assert run.state.scales["call"] == pytest.approx(spread)


def test_the_hall_of_fame_joins_the_pool_and_keeps_the_last_bests(tmp_path):
    backend = OpponentStub({0: 1.0, 1: 1.0})  # every proposal gains everywhere: all new bests
    run = trainer(tmp_path, backend, steps=4, hall_of_fame=2,
                  opponents={"seed": 1.0, "best": 1.0, "hall": 1.0})
    start = list(run.state.best)
    seen = after_each_step(run, 4, lambda state: (list(state.best),
                                                  [list(vector) for vector in state.hall]))
    # Training comparisons (pairs = 2 x opponents): seed + best, then + 1, 2, 2 hall entries.
    training = [pairs for seed, pairs in backend.pair_counts if seed == DEAL_SEED]
    assert training == [4, 6, 8, 8]
    assert run.state.improvements == 4 and len(run.state.hall) == 4
    # Each new best sends the one it replaces to the hall: the hall holds every earlier best,
    # oldest first, and never the current one.
    bests = [start] + [best for best, _ in seen]
    assert len({tuple(best) for best in bests}) == 5
    for step, (best, hall) in enumerate(seen):
        assert hall == bests[:step + 1]
        assert best not in hall


class ByOpponentStub(StubBackend):
    """On the training deals the candidate gets `gains[the opponent's numbers]` chips a deal more
    than the current profile (opponents told apart by their encoded parameters); every other
    deal set gives 0 (so no new best)."""

    def __init__(self):
        super().__init__(0.0)
        self.gains: dict[bytes, float] = {}

    def run(self, deals, path, rules, pairs, seed):
        count, half = len(deals), len(pairs) // 2
        results = []
        for index, (_, _, _, params_b) in enumerate(pairs):
            training = deals.seed == DEAL_SEED and index < half
            gain = self.gains[params_b.tobytes()] if training else 0.0
            results.append(Chips(np.full(count, gain), np.full(count, gain)))
        return results


def test_the_hall_is_the_most_recent_earlier_bests_sharing_its_weight(tmp_path):
    # Four earlier bests (oldest first) and the current best, told apart by river.call[0]:
    # against them the proposal gains 1, 2, 4, 8 and 16 chips a deal, against `seed` nothing.
    # With hall_of_fame 2 the hall stands for the two most recent earlier bests, each at half
    # the hall's weight: seed 1/2, they 1/4 each, so delta = (4 + 8) / 4 = 3 chips a deal =
    # 15 mbb/hand. (The two oldest would give 3.75; the current best in the hall 30; each at
    # the hall's whole weight 20; all four 9.375.)
    backend = ByOpponentStub()
    run = trainer(tmp_path, backend, steps=1, hall_of_fame=2,
                  opponents={"seed": 1.0, "hall": 1.0})
    position = run.labels.index("river.call[0]")

    def marked(value):
        vector = list(run.state.best)
        vector[position] = value
        return vector

    run.state.hall = [marked(100.0), marked(200.0), marked(300.0), marked(400.0)]
    run.state.best = marked(900.0)
    backend.gains[encode_strategy(resolve_strategy("seed"))[1].tobytes()] = 0.0
    for value, gain in ((100.0, 1.0), (200.0, 2.0), (300.0, 4.0), (400.0, 8.0), (900.0, 16.0)):
        backend.gains[encode_strategy(run.profile(marked(value)))[1].tobytes()] = gain
    run.run()
    record = anneal.json.loads((tmp_path / "run" / "log.jsonl").read_text().splitlines()[0])
    assert record["delta"]["mbb_per_hand"] == pytest.approx(15.0, abs=1e-9)


def test_a_new_best_must_gain_against_the_held_out_opponents_too(tmp_path):
    # Training against `seed` gains; on fresh deals the re-scoring weighs the pool (`seed`) and
    # the held-out `call` equally: +1 and -3 chips is a loss, so no new best...
    backend = OpponentStub({0: 1.0, 1: 1.0}, fresh={0: 1.0, 1: -3.0})
    run = trainer(tmp_path / "loses", backend, steps=3, opponents={"seed": 1.0},
                  held_out={"call": 1.0})
    run.run()
    assert run.state.accepted == 3 and run.state.improvements == 0
    # ... though against the pool alone it gains; -1 and +3 is a gain.
    backend = OpponentStub({0: 1.0, 1: 1.0}, fresh={0: -1.0, 1: 3.0})
    run = trainer(tmp_path / "gains", backend, steps=3, opponents={"seed": 1.0},
                  held_out={"call": 1.0})
    run.run()
    assert run.state.improvements == 3
    # Training never plays the held-out opponent: only kind 0 (`seed`) on the training deals.
    assert all(pairs == 2 for seed, pairs in backend.pair_counts if seed == DEAL_SEED)


def after_each_step(run, steps: int, read) -> list:
    """`read(run.state)` after each of the first `steps` steps, the run advanced one at a time."""
    seen = []
    for step in range(steps):
        run.state.target_steps = step + 1
        run.run()
        seen.append(read(run.state))
    return seen


def test_restart_after_n_steps_without_a_new_best(tmp_path):
    backend = OpponentStub({0: 1.0, 1: 1.0}, fresh={0: -1.0, 1: -1.0})  # never a new best
    run = trainer(tmp_path, backend, steps=5, opponents={"seed": 1.0}, restart_after=2)
    start = list(run.state.best)
    currents = after_each_step(run, 5, lambda state: list(state.current))
    assert currents[0] != start and currents[1] == start  # reset after steps 0 and 1
    assert currents[2] != start and currents[3] == start
    records = [anneal.json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text()
               .splitlines()]
    assert [bool(record.get("restarted")) for record in records] == [False, True, False, True,
                                                                     False]


def test_the_objective_is_the_pool_minus_weight_times_lbr():
    # 10 - 0.5 x 8 = 6 mbb/hand; the half-widths add as independent errors: hypot(3, 0.5 x 8) = 5.
    assert objective(Score(10.0, 3.0, 500), Score(8.0, 8.0, 100), 0.5) == Score(6.0, 5.0, 500)
    assert objective(Score(10.0, 3.0, 500), Score(-8.0, 8.0, 100), 2.0) == Score(
        26.0, math.hypot(3.0, 16.0), 500)
    assert objective(Score(10.0, 3.0, 500), Score(8.0, 8.0, 100), 0.0) == Score(10.0, 3.0, 500)


LBR = {"weight": 0.5, "actions": "C,C,FCPA,FCPA", "hands": 200, "deal_seed": 1,
       "report_hands": 0}
VALIDATION_CHIPS = np.tile([30.0, -10.0], 25)  # a validation deal's chips against each opponent


class ValidationStub(StubBackend):
    """`StubBackend`, with `VALIDATION_CHIPS` for every pair on the validation deals."""

    def run(self, deals, path, rules, pairs, seed):
        if deals.seed == DEAL_SEED + anneal.VALIDATION_OFFSET:
            return [Chips(VALIDATION_CHIPS, VALIDATION_CHIPS) for _ in pairs]
        return super().run(deals, path, rules, pairs, seed)


def lbr_chips(profile, seed: int):
    """LBR's chips per deal (both seats) against `profile` on LBR's 200 hands of `seed`, measured
    here with `run_lbr` itself."""
    return run_lbr(profile, GAME, LBR["hands"], seed, LBR["actions"]).chips.sum(axis=1)


def test_a_steps_delta_loses_weight_times_what_lbr_gains(tmp_path):
    # The pool: the proposal loses 200 chips a deal to every opponent (-1,000 mbb/hand, no
    # spread). LBR plays the proposal and the current profile on the same 100 deals of seed 1;
    # the step's delta is -1,000 - 0.5 x (LBR's winnings against the proposal - against the
    # current), and the half-widths combine as hypot(0, 0.5 x LBR's).
    proposal = {**TrainConfig().proposal, "threshold": 0.3}  # a move LBR notices
    run = trainer(tmp_path, StubBackend(-200.0), steps=1, lbr=LBR, proposal=proposal)
    current = list(run.state.current)
    run.run()
    record = anneal.json.loads((tmp_path / "run" / "log.jsonl").read_text().splitlines()[0])
    candidate = list(current)
    candidate[run.labels.index(record["parameter"])] = record["proposed"]
    lbr = score_pairs(lbr_chips(run.profile(candidate), 1) - lbr_chips(run.profile(current), 1),
                      GAME.big_blind)
    assert abs(lbr.mbb_per_hand) > 1.0  # the move changed what LBR wins
    assert record["delta"]["mbb_per_hand"] == pytest.approx(-1000.0 - 0.5 * lbr.mbb_per_hand,
                                                            abs=1e-3)
    assert record["delta"]["ci95_mbb"] == pytest.approx(0.5 * lbr.ci95_mbb, abs=1e-3)
    assert not record["accepted"]  # exp(delta / 20) is nil


def test_a_reported_score_loses_weight_times_what_lbr_wins(tmp_path):
    # On the validation deals the profile wins 30 and -10 chips in turn against each opponent
    # (10 chips, +50 mbb/hand); LBR plays it on the 100 deals of seed 1 + 100. The weighted
    # score is 50 - 0.5 x LBR's winnings, the half-widths combined as hypot(pool's, 0.5 x LBR's).
    run = trainer(tmp_path, ValidationStub(0.0), steps=1, lbr=LBR,
                  opponents={"seed": 1.0, "call": 1.0})
    start = run.profile(run.state.best)
    scores = run.validate(start)
    pool = score_pairs(VALIDATION_CHIPS, GAME.big_blind)
    assert pool.mbb_per_hand == pytest.approx(50.0)
    lbr = score_pairs(lbr_chips(start, 1 + anneal.VALIDATION_OFFSET), GAME.big_blind)
    assert abs(lbr.mbb_per_hand) > 1.0
    assert scores["lbr"]["mbb_per_hand"] == pytest.approx(lbr.mbb_per_hand, abs=1e-3)
    assert scores["weighted"]["mbb_per_hand"] == pytest.approx(
        50.0 - 0.5 * lbr.mbb_per_hand, abs=1e-3)
    assert scores["weighted"]["ci95_mbb"] == pytest.approx(
        math.hypot(pool.ci95_mbb, 0.5 * lbr.ci95_mbb), abs=1e-3)


def test_search_candidates_are_valid_version_2_profiles():
    from gambler.training.search import candidate, profile_of, rank

    rng = np.random.default_rng(2)
    for _ in range(50):
        numbers = candidate(rng)
        profile = profile_of(numbers)
        assert profile.version == 2 and len(numbers) == 24
        for round_params in profile.rounds:
            x, y, z = round_params.thresholds
            assert x <= y <= z <= 1.01 and round_params.levels == "pot"
            assert -0.1 <= round_params.price_margin <= 0.3 and round_params.mixing
            assert round_params.slow_play == round_params.bluff == 0.0
    again = np.random.default_rng(2)
    assert candidate(again) == candidate(np.random.default_rng(2))
    row = {"scores": {"seed": 100.0, "prober": -50.0}, "lbr": 2500.0}
    assert rank(row) == -50.0 - 0.3 * 1000.0
