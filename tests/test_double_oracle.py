"""The double oracle in `gambler-train` (`exploit`): exploiter searches against the run's own best
profile, the found-exploiter term of the objective (each profile at its worst found exploiter),
the held-out gate (the term on fresh deals, held-out LBR settings), resumption across a search,
and the config's errors. Every number is checked against an independent computation: the search
run again on its own, the profiles played against the exploiter files with `play_deals`."""

import json
import math

import numpy as np
import pytest
import yaml

import gambler.training.anneal as anneal
from acpc_support import NOLIMIT
from gambler.bot.exploiters import load_exploiter
from gambler.bot.params import load_profile
from gambler.protocol import load_game
from gambler.training.anneal import Trainer, objective, objective_pairs, worst_found
from gambler.training.config import ConfigError, parse_config
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules, encode_strategy, exploiter_vector, play_deals
from gambler.training.evaluate import Backend, score_pairs
from gambler.training.exploit import SearchSettings, search_exploiter
from gambler.training.lbr import run_lbr

GAME = load_game(NOLIMIT)
RULES = encode_rules(GAME)
SEED = 1  # the run's seed
TIMING = ("seconds", "hands_per_second", "deal_set_seconds")

# Tiny: 200 training deals against two fixed opponents (no normalize, so the pool's weights are
# plain halves), big proposal moves (so decisions change), searches of 2 generations on 400
# deals every 2 steps.
SMALL = """
start: seed
deals: 200
deal_seed: 1000
fresh_deals: 200
fresh_sets: 2
opponents: {seed: 1.0, call: 1.0}
held_out: {}
normalize: false
hall_of_fame: 0
restart_after: 0
sweeps: 1
steps_per_parameter: 1
temperature: {start: 40.0, end: 1.0}
proposal: {threshold: 0.3, c0: 3000.0, c1: 6000.0, c2: 8000.0, c3: 8000.0}
lbr: {weight: 0, report_hands: 0}
exploit: {every: 2, generations: 2, deals: 400}
"""


def config_of(text: str = SMALL, **sections):
    document = yaml.safe_load(text)
    for key, value in sections.items():
        document[key] = {**document[key], **value} if isinstance(value, dict) else value
    return parse_config(document, "small.yaml")


def start(directory, steps: int, config=None) -> Trainer:
    return Trainer.start(directory, config or config_of(), GAME, Backend(), seed=SEED,
                         steps=steps, hours=None)


def log_of(directory) -> list[dict]:
    return [json.loads(line) for line in (directory / "log.jsonl").read_text().splitlines()]


def chips_of(strategy, opponent, deals) -> np.ndarray:
    """`strategy`'s raw chips per deal (both hands) against `opponent`, by `play_deals`."""
    raw = np.zeros((len(deals), 2), dtype=np.int64)
    adjusted = np.zeros((len(deals), 2))
    play_deals(RULES, *encode_strategy(strategy), *encode_strategy(opponent), deals.v,
               deals.outcomes, deals.allin_equity, SEED, deals.first_deal, raw, adjusted,
               deals.holes, deals.boards)
    return raw.sum(axis=1)


def found_files(directory, count: int) -> list:
    """The first `count` found exploiters, read from their files."""
    return [load_exploiter(directory / "exploiters" / f"found-{n:02d}.yaml")
            for n in range(count)]


def recording_with_lbr(monkeypatch) -> list:
    """Every `Trainer._with_lbr` call as (pool, first, second, lbr seed, settings, exploiters
    found so far, result): `pool` is the paired score before LBR, exploiter term included."""
    calls = []
    original = Trainer._with_lbr

    def recorded(self, pool, first, second, seed, settings=None):
        result = original(self, pool, first, second, seed, settings)
        calls.append((pool, first, second, seed, settings, len(self.state.found), result))
        return result

    monkeypatch.setattr(Trainer, "_with_lbr", recorded)
    return calls


# --- the searches ---------------------------------------------------------------------------------

def test_each_search_is_an_independent_search_against_the_best_of_its_time(tmp_path):
    # Searches before step 1 and step 4 (every 3): the second against the best after step 3.
    # After step 3 the best is made default-v1's numbers (a profile far from the start and from
    # the current one, so that a search against either of those finds something else).
    run = start(tmp_path / "run", steps=4, config=config_of(exploit={"every": 3}))
    begin = run.profile(run.state.best)
    run.state.target_steps = 3
    run.run()
    assert len(run.state.found) == 1  # the next one comes before step 4
    run.state.best = [value for _, value, _ in load_profile("default-v1").tunable()]
    best_then, current_then = list(run.state.best), list(run.state.current)
    run.state.target_steps = 4
    run.run()
    checkpoint = json.loads((tmp_path / "run" / "checkpoint.json").read_text())
    found = checkpoint["found"]
    assert [(entry["search"], entry["before_step"], entry["seed"], entry["file"])
            for entry in found] == [(0, 1, 5000, "exploiters/found-00.yaml"),
                                    (1, 4, 5001, "exploiters/found-01.yaml")]
    settings = SearchSettings(training_deals=400, validation_deals=200, held_out_deals=400)
    for entry, against in zip(found, (begin, run.profile(best_then))):
        alone = search_exploiter(against, GAME, seed=entry["seed"], seconds=math.inf,
                                 settings=settings, generations=2)
        assert entry["vector"] == exploiter_vector(alone.exploiter).tolist()
        assert entry["held_out"] == anneal._score_dict(alone.held_out)
        written = load_exploiter(tmp_path / "run" / entry["file"])
        assert exploiter_vector(written).tolist() == entry["vector"]
        assert written.name == f"found-{entry['search']:02d}"
        assert f"search {entry['search']} against the best before step " \
               f"{entry['before_step']}, deal seed {entry['seed']}" in written.provenance
        assert str(tmp_path / "run") in written.provenance
    # Against the start or the current profile the second search finds something else.
    for profile in (begin, run.profile(current_then)):
        other = search_exploiter(profile, GAME, seed=5001, seconds=math.inf,
                                 settings=settings, generations=2)
        assert anneal._score_dict(other.held_out) != found[1]["held_out"]
    # One log line per search, before the step it precedes, with the held-out score.
    records = log_of(tmp_path / "run")
    assert [("search" in record, record.get("step")) for record in records] == [
        (True, None), (False, 1), (False, 2), (False, 3), (True, None), (False, 4)]
    assert records[4] == {"search": 1, "before_step": 4, "seed": 5001, "generations": 2,
                          "held_out": found[1]["held_out"], "file": "exploiters/found-01.yaml",
                          "seconds": records[4]["seconds"]}
    # best.yaml lists them.
    listed = run.save_best(report=False).training["exploiters"]
    assert listed == [{"search": entry["search"], "file": entry["file"],
                       "before_step": entry["before_step"], "held_out": entry["held_out"]}
                      for entry in found]


def test_the_run_tells_each_search_before_and_after(tmp_path):
    run = start(tmp_path / "run", steps=1, config=config_of(exploit={"every": 5}))
    lines = []
    run.notify = lines.append
    run.run()
    before = lines.index("searching an exploiter against the best (search 0, 2 generations, "
                         "deal seed 5000)")
    after = [line for line in lines if line.startswith("search 0: found-00 wins ")]
    held_out = run.state.found[0]["held_out"]
    assert len(after) == 1 and lines.index(after[0]) > before
    assert f"{held_out['mbb_per_hand']:+,.1f} ± {held_out['ci95_mbb']:,.1f} mbb/hand" in after[0]


# --- the objective's found-exploiter term ---------------------------------------------------------

def expected_difference(directory, first, second, deal_seed: int, count: int, found: int,
                        keep: int, weight: float):
    """The paired score first - second, worked out here: the pool (seed and call at half weight
    each) plus weight x (first's chips against its worst of the last `keep` found exploiters -
    second's against its own worst), the worsts picked here by mean chips; and the two names."""
    deals = cached_deal_set(deal_seed, 0, count)[0]
    pool = sum(0.5 * (chips_of(first, opponent, deals) - chips_of(second, opponent, deals))
               for opponent in (load_profile("seed"), "call"))
    if not found or weight == 0:
        return score_pairs(pool, GAME.big_blind), None
    numbers = list(range(found))[-keep:] if keep else list(range(found))
    exploiters = found_files(directory, found)
    worsts, term = [], []
    for profile in (first, second):
        chips = [chips_of(profile, exploiters[n], deals) for n in numbers]
        means = [row.mean() for row in chips]
        worst = means.index(min(means))
        worsts.append(f"found-{numbers[worst]:02d}")
        term.append(chips[worst])
    return (score_pairs(pool + weight * (term[0] - term[1]), GAME.big_blind),
            {"first": worsts[0], "second": worsts[1]})


STEPS = 8


def test_the_objective_adds_weight_times_each_profiles_chips_against_its_worst(tmp_path,
                                                                              monkeypatch):
    # A search before every step, the objective weighing the last 3 at 2.0: each step's delta
    # (and each re-scoring's gain, on its fresh deals) is the pool's paired difference + 2 x (the
    # proposal's chips against its worst found exploiter - the current's against its own).
    # After step 1 the current profile is made default-v1's numbers, far from the best (the
    # start, seed), so that the re-scorings compare profiles that play differently.
    calls = recording_with_lbr(monkeypatch)
    config = config_of(exploit={"every": 1, "keep": 3, "weight": 2.0})
    run = start(tmp_path / "run", steps=STEPS, config=config)
    run.state.target_steps = 1
    run.run()
    run.state.current = [value for _, value, _ in load_profile("default-v1").tunable()]
    run.state.target_steps = STEPS
    run.run()
    records = [record for record in log_of(tmp_path / "run") if "step" in record]
    assert len(run.state.found) == STEPS
    seen = {"worst is not best": 0, "rescored": 0}
    for pool, first, second, seed, _, found, (delta, _) in calls:
        fresh = seed - 3000  # LBR's deal seed: 3000 for a step, 3000 + k for fresh set k
        expected, worsts = expected_difference(tmp_path / "run", first, second, 1000 + fresh,
                                               200, found, 3, 2.0)
        assert delta == pool
        assert pool.mbb_per_hand == pytest.approx(expected.mbb_per_hand, rel=1e-12, abs=1e-9)
        assert pool.ci95_mbb == pytest.approx(expected.ci95_mbb, rel=1e-12, abs=1e-9)
        seen["rescored"] += fresh > 0
        if fresh == 0:
            record = records[found - 1]
            assert record["exploit_worst"] == {"proposal": worsts["first"],
                                               "current": worsts["second"]}
            assert record["delta"] == anneal._score_dict(expected)
        # The exploiter each profile does best against is not its worst (else worst = best).
        deals = cached_deal_set(1000 + fresh, 0, 200)[0]
        means = [chips_of(first, exploiter, deals).mean()
                 for exploiter in found_files(tmp_path / "run", found)[-3:]]
        seen["worst is not best"] += min(means) != max(means)
    # The cases that tell the rule apart happened: re-scorings, and exploiters a profile does
    # not do equally badly against. (A proposal and a current profile with different worsts:
    # the next test.)
    assert seen["rescored"] >= 1 and seen["worst is not best"] >= 1


def test_the_exploiter_term_between_two_profiles_with_different_worsts(tmp_path):
    # Three found exploiters, searched against seed, default-v1 and handmade (each made the best
    # in turn), and two profiles (seed, default-v1) that lose most to different ones on the
    # training deals: the term is seed's chips against its worst - default-v1's against its own;
    # the reverse order flips its sign exactly.
    run = start(tmp_path / "run", steps=3, config=config_of(exploit={"every": 1}))
    for step, name in enumerate(("default-v1", "handmade", None)):
        run.state.target_steps = step + 1
        run.run()
        if name:
            run.state.best = [value for _, value, _ in load_profile(name).tunable()]
    first, second = load_profile("seed"), load_profile("default-v1")
    deals, path = run._deals(1000, 200, "training deals")
    term, names = run._exploit_difference(deals, path, first, second)
    exploiters = found_files(tmp_path / "run", 3)
    chips = {name: [chips_of(profile, exploiter, deals) for exploiter in exploiters]
             for name, profile in (("first", first), ("second", second))}
    worst = {name: int(np.argmin([row.mean() for row in rows])) for name, rows in chips.items()}
    # The cases that tell the rule apart: the two worsts differ, and seed's worst is not its best.
    assert worst["first"] != worst["second"]
    assert worst["first"] != int(np.argmax([row.mean() for row in chips["first"]]))
    assert names == {"first": f"found-{worst['first']:02d}", "second":
                     f"found-{worst['second']:02d}"}
    np.testing.assert_array_equal(term, chips["first"][worst["first"]]
                                  - chips["second"][worst["second"]])
    back, _ = run._exploit_difference(deals, path, second, first)
    np.testing.assert_array_equal(back, -term)


def test_the_objective_functions():
    # The pool's chips + weight x the term, deal by deal; nothing to add: the pool's, untouched.
    pool = np.array([3.0, -1.0, 4.0])
    assert objective_pairs(pool, np.array([2, -2, 0]), 0.5).tolist() == [4.0, -2.0, 4.0]
    assert objective_pairs(pool, None, 0.5) is pool
    # The worst found exploiter: the least mean chips, the first of equals.
    assert worst_found(np.array([[5, -5], [-1, -2], [0, -3]])) == 1
    assert worst_found(np.array([[-4, 0], [0, 9], [-2, -2]])) == 0


def test_a_reported_score_has_the_exploiter_term_and_each_exploiters_score(tmp_path):
    # keep 1 of 2: every exploiter is reported, the weighted score takes the worst of the last.
    config = config_of(exploit={"every": 1, "keep": 1, "weight": 0.5})
    run = start(tmp_path / "run", steps=2, config=config)
    run.run()
    profile = run.profile(run.state.best)
    scores = run.validate(profile)
    deals = cached_deal_set(1000 + anneal.VALIDATION_OFFSET, 0, 200)[0]
    exploiters = found_files(tmp_path / "run", 2)
    against = [chips_of(profile, exploiter, deals) for exploiter in exploiters]
    assert scores["exploiters"] == {f"found-{n:02d}": anneal._score_dict(
        score_pairs(chips, GAME.big_blind)) for n, chips in enumerate(against)}
    assert scores["exploit_worst"] == "found-01"
    pool = 0.5 * (chips_of(profile, load_profile("seed"), deals) + chips_of(profile, "call", deals))
    assert scores["weighted"] == anneal._score_dict(
        score_pairs(pool + 0.5 * against[1], GAME.big_blind))
    assert against[1].mean() != 0


# --- the held-out gate ----------------------------------------------------------------------------

HELD_OUT = "FCPA,FCPA,FCPA,FCPA"


def test_the_re_scoring_plays_the_held_out_lbr_settings_and_the_objective_never(tmp_path,
                                                                                 monkeypatch):
    calls = recording_with_lbr(monkeypatch)
    config = config_of(lbr={"weight": 0.5, "hands": 200, "held_out": [HELD_OUT]},
                       exploit={"every": 0})
    run = start(tmp_path / "run", steps=3, config=config)
    run.run()
    records = [record for record in log_of(tmp_path / "run") if "step" in record]
    steps = [call for call in calls if call[3] == 3000]
    rescores = [call for call in calls if call[3] != 3000]
    assert steps and rescores
    assert all(settings is None for _, _, _, _, settings, _, _ in steps)  # the objective's
    for pool, first, second, seed, settings, _, (gain, worst) in rescores:
        assert [setting for setting, _ in settings] == ["C,C,FCPA,FCPA", HELD_OUT]
        each = {}
        for name, profile in (("first", first), ("second", second)):
            results = [(actions, run_lbr(profile, GAME, 200, seed, actions))
                       for actions in ("C,C,FCPA,FCPA", HELD_OUT)]
            each[name] = max(results, key=lambda result: result[1].score.mbb_per_hand)
        assert worst == {"first": each["first"][0], "second": each["second"][0]}
        lbr = score_pairs(each["first"][1].chips.sum(axis=1)
                          - each["second"][1].chips.sum(axis=1), GAME.big_blind)
        assert gain == objective(pool, lbr, 0.5)
    rescored = [record for record in records if "fresh_gain" in record]
    assert all(set(record["fresh_lbr_worst"]) == {"candidate", "best"} for record in rescored)
    # Validation reports the held-out setting's score, as gambler-lbr measures it.
    profile = run.profile(run.state.best)
    scores = run.validate(profile)
    measured = run_lbr(profile, GAME, 200, 3000 + anneal.VALIDATION_OFFSET, HELD_OUT).score
    assert scores["lbr_held_out"] == {HELD_OUT: anneal._score_dict(measured)}
    assert scores["lbr"]["actions"] == "C,C,FCPA,FCPA"  # the objective's setting only


# --- resumption -----------------------------------------------------------------------------------

def comparable(directory) -> tuple:
    records = [{key: value for key, value in record.items() if key not in TIMING}
               for record in log_of(directory)]
    checkpoint = json.loads((directory / "checkpoint.json").read_text())
    for key in ("elapsed", "wall", "search_seconds"):
        checkpoint.pop(key)
    files = {}
    for path in sorted((directory / "exploiters").glob("*.yaml")):
        exploiter = load_exploiter(path)
        files[path.name] = (exploiter.blocks, exploiter.description,
                            {**exploiter.extra["search"], "run": None})
    return records, checkpoint, files


def test_a_run_resumed_across_a_search_continues_exactly(tmp_path, monkeypatch):
    straight = start(tmp_path / "straight" / "run", steps=5)
    straight.run()
    assert len(straight.state.found) == 3  # before steps 1, 3 and 5

    class Killed(Exception):
        pass

    # The same run killed as its second search starts (after step 2), resumed and killed again
    # in step 3 just after that search was checkpointed, then resumed to the end: the last
    # invocation searches once, before step 5, and the run is the straight one.
    original_search = anneal.search_exploiter
    original_step = Trainer._objective_difference
    searches = []

    def search(*arguments, **settings):
        searches.append(settings["seed"])
        if settings["seed"] == 5001 and searches.count(5001) == 1:
            raise Killed
        return original_search(*arguments, **settings)

    def step(self, *arguments):
        if len(self.state.found) == 2 and self.state.step == 2:
            raise Killed
        return original_step(self, *arguments)

    monkeypatch.setattr(anneal, "search_exploiter", search)
    monkeypatch.setattr(Trainer, "_objective_difference", step)
    directory = tmp_path / "cut" / "run"
    with pytest.raises(Killed):
        start(directory, steps=5).run()
    assert (anneal.load_state(directory).step, searches) == (2, [5000, 5001])
    with pytest.raises(Killed):
        Trainer.resume(directory, GAME, Backend()).run()
    assert (anneal.load_state(directory).step, searches) == (2, [5000, 5001, 5001])
    assert len(anneal.load_state(directory).found) == 2
    monkeypatch.setattr(Trainer, "_objective_difference", original_step)
    searches.clear()
    Trainer.resume(directory, GAME, Backend()).run()
    assert searches == [5002]  # not the one before step 3 again
    assert comparable(directory) == comparable(tmp_path / "straight" / "run")


def test_an_old_checkpoint_without_the_new_keys_resumes_with_the_searches_off(tmp_path):
    config = config_of(exploit={"every": 0})
    run = start(tmp_path / "run", steps=2, config=config)
    run.state.target_steps = 1
    run.run()
    path = tmp_path / "run" / "checkpoint.json"
    checkpoint = json.loads(path.read_text())
    for key in ("found", "search_seconds"):
        del checkpoint[key]
    del checkpoint["config"]["exploit"]
    assert "held_out" not in checkpoint["config"]["lbr"]  # no held-out settings: as before
    path.write_text(json.dumps(checkpoint))
    resumed = Trainer.resume(tmp_path / "run", GAME, Backend())
    assert resumed.exploit["every"] == 0 and resumed._lbr_held_out == []
    resumed.state.target_steps = 2
    resumed.run()
    assert resumed.state.step == 2 and resumed.state.found == []
    assert not (tmp_path / "run" / "exploiters").exists()
    assert all("search" not in record for record in log_of(tmp_path / "run"))


# --- the config -----------------------------------------------------------------------------------

@pytest.mark.parametrize("section, message", [
    ({"exploit": {"every": -1}}, "small.yaml: exploit.every: -1 must be an integer >= 0"),
    ({"exploit": {"evry": 2}}, "small.yaml: exploit: unknown key 'evry' (known: every, "),
    ({"exploit": {"generations": 0}}, "small.yaml: exploit.generations: 0 must be an integer"),
    ({"exploit": {"deals": 1}}, "small.yaml: exploit.deals: 1 must be an integer >= 2"),
    ({"exploit": {"weight": -0.5}}, "small.yaml: exploit.weight: -0.5 must be a number >= 0"),
    ({"exploit": {"keep": True}}, "small.yaml: exploit.keep: True must be an integer >= 0"),
    ({"exploit": 3}, "small.yaml: exploit: expected a mapping"),
    ({"exploit": {"every": 2, "seed": 1001}}, "small.yaml: exploit.seed: 1001 must be above "
                                              "every other deal seed"),
    ({"lbr": {"weight": 0.5, "held_out": ["C,C,FCPZ,FCPA"]}},
     "small.yaml: lbr.held_out[0]: action sets 'C,C,FCPZ,FCPA': unknown action 'Z'"),
    ({"lbr": {"weight": 0.5, "held_out": ["FCPA,FCPA,FCPA,FCPA", "C,C,FCPA,FCPA"]}},
     "small.yaml: lbr.held_out[1]: 'C,C,FCPA,FCPA' repeats lbr.actions"),
    ({"lbr": {"weight": 0.5, "held_out": [3]}}, "small.yaml: lbr.held_out[0]: 3 is not a string"),
    ({"lbr": {"weight": 0, "held_out": ["FCPA,FCPA,FCPA,FCPA"]}},
     "small.yaml: lbr.held_out: needs lbr.weight > 0"),
])
def test_bad_exploit_and_held_out_settings_name_the_field(section, message):
    document = yaml.safe_load(SMALL)
    for key, value in section.items():
        document[key] = {**document[key], **value} if isinstance(value, dict) else value
    with pytest.raises(ConfigError) as error:
        parse_config(document, "small.yaml")
    assert str(error.value).startswith(message), str(error.value)


def test_the_exploit_section_defaults_to_off_and_is_kept_in_the_checkpoint(tmp_path):
    document = yaml.safe_load(SMALL)
    del document["exploit"]
    config = parse_config(document, "small.yaml")
    assert config.exploit == {"every": 0, "generations": 40, "deals": 8000, "seed": 5000,
                              "weight": 1.0, "keep": 0}
    assert "held_out" not in config.lbr  # none: the section as it always was
    assert "held_out" not in config_of(lbr={"held_out": []}).lbr
    assert config_of(lbr={"weight": 0.5, "held_out": HELD_OUT}).lbr["held_out"] == [HELD_OUT]
    run = start(tmp_path / "run", steps=1, config=config_of(exploit={"keep": 2}))
    saved = json.loads((tmp_path / "run" / "checkpoint.json").read_text())["config"]
    assert saved["exploit"] == {"every": 2, "generations": 2, "deals": 400, "seed": 5000,
                                "weight": 1.0, "keep": 2}
    assert run.exploit == saved["exploit"]
