"""gambler-train as an overnight user meets it: what it prints off a terminal, resuming, the final
LBR report, the run's wall time, and the config's errors. The evaluation is a stub (test_anneal's),
so each run takes a fraction of a second; the deal-set cache is faked so that "computing" and
"reading from the cache" can both be seen."""

import json
import re
import time
from dataclasses import dataclass

import numpy as np
import pytest
import yaml

import gambler.training.anneal as anneal
import gambler.training.deals as deals_module
import gambler.training.evaluate as evaluate
from gambler.bot.params import load_profile
from gambler.training.lbr import format_action_sets
from gambler.training.anneal import RunState
from gambler.training.config import ConfigError, TrainConfig, load_config, parse_config
from gambler.training.evaluate import Backend, BackendError, Score
from gambler.training import train_cli
from gambler.training.train_cli import main, step_line

KERNELS_COMPILED = train_cli.kernels_compiled  # the fixture `stubs` replaces it
from test_anneal import DEAL_SEED, FakeDeals, StubBackend

CONFIG = """start: seed
deals: 50
fresh_deals: 50
fresh_sets: 2
deal_seed: 1000
opponents: {seed: 1.0, call: 1.0, best: 1.0}
held_out: {}
normalize: false
hall_of_fame: 0
restart_after: 0
sweeps: 1
steps_per_parameter: 1
temperature: {start: 20.0, end: 0.5}
lbr: {weight: 0, actions: "C,C,FCPA,FCPA", hands: 200, deal_seed: 3000, report_hands: 300}
"""
SETUP_SLEEP = 0.15  # seconds each fake deal-set computation and the fake LBR report take


@dataclass
class FakeCache:
    """Stands for the deal-set cache: the first request for a seed "computes" it (announces it,
    then sleeps SETUP_SLEEP), later ones read it; `fail_on` makes a request raise."""

    computed: set
    fail_on: int | None = None

    def deal_set(self, seed, first, count, progress=None, announce=None):
        if seed == self.fail_on:
            raise anneal.RunError("stopped in the set-up (test)")
        if seed not in self.computed:
            if announce is not None:
                announce(count)  # a probe's raises: nothing computed
            self.computed.add(seed)
            time.sleep(SETUP_SLEEP)
        return FakeDeals(seed, count), f"deals-{seed}"

    def holdings(self, seed, start, count, announce=None):
        if ("holdings", seed, start) not in self.computed:
            if announce is not None:
                announce(count)
            self.computed.add(("holdings", seed, start))
        return np.zeros((count, 3, 1326))


class FakeLbr:
    """Records the LBR runs (the final report) and gives a known score."""

    def __init__(self):
        self.calls = []

    def __call__(self, profile, game, hands, seed, actions):
        assert isinstance(actions, np.ndarray)  # parsed once a run, not at every call
        self.calls.append((hands, seed, format_action_sets(actions)))
        time.sleep(SETUP_SLEEP)

        class Result:
            score = Score(-1234.5, 67.8, (hands + 1) // 2)
        return Result()


@pytest.fixture
def stubs(monkeypatch):
    """The fake cache, the fake LBR report, and a stub backend (the CLI builds it)."""
    cache = FakeCache(set())
    lbr = FakeLbr()
    monkeypatch.setattr(anneal, "cached_deal_set", cache.deal_set)
    monkeypatch.setattr(anneal, "cached_holding_rates", cache.holdings)
    monkeypatch.setattr(anneal, "run_lbr", lbr)
    monkeypatch.setattr(evaluate, "Backend", lambda workers=1, scheduler=None: StubBackend(0.5))
    monkeypatch.setattr(train_cli, "kernels_compiled", lambda: True)
    return cache, lbr


def train(capsys, *args) -> tuple[int, str, str]:
    """gambler-train in this process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_:
        main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def config_file(tmp_path, text=CONFIG):
    path = tmp_path / "mine.yaml"
    path.write_text(text)
    return path


STEP = re.compile(r"step \d+/3 [a-z]+\.[a-z_]+\[\d\] T=\d+\.\d\d Δ=[+-][\d,]+\.\d\d±[\d,]+\.\d\d "
                  r"(accepted(, new best)?|rejected); best [+-][\d,]+\.\d ± [\d,]+\.\d mbb/hand; "
                  r"[\d,]+ hands/s")


def test_off_a_terminal_each_phase_and_each_step_is_one_plain_line(tmp_path, capsys, stubs):
    code, out, err = train(capsys, "--config", config_file(tmp_path), "--run-dir",
                           tmp_path / "run", "--steps", 3, "--no-lbr-report")
    assert code == 0, err
    assert "\r" not in err and "\x1b" not in err  # no progress bar, no escape codes
    lines = err.splitlines()
    steps = [line for line in lines if line.startswith("step ")]
    assert len(steps) == 3 and all(STEP.fullmatch(line) for line in steps), steps
    setup = lines[:lines.index(steps[0])]
    assert setup[0] == (f"gambler-train: run {tmp_path / 'run'}: 3 steps over the 44 parameters "
                        f"of seed; config {tmp_path / 'mine.yaml'}, seed 0")
    # What the set-up will compute before the first step's end: training, fresh set 1 and
    # validation deals, from an empty cache.
    assert re.fullmatch(r"gambler-train: set-up before the first step: up to the win rates of 150 "
                        r"deals in 3 deal sets to compute \(once; cached after\): about \d+\.\d "
                        r"s on \d+ cores?", setup[1]), setup
    # Each deal set: computed (said before, with an estimate, and after) or read from the cache.
    assert re.fullmatch(r"gambler-train: computing the win rates of 50 training deals \(deal "
                        r"seed 1000\): about \d+\.\d s on \d+ cores?", setup[2]), setup
    assert re.fullmatch(r"gambler-train: computed the win rates of 50 training deals in "
                        r"\d+\.\d s", setup[3])
    assert "gambler-train: scoring the start profile (seed) on the validation deals" in setup
    assert "gambler-train: computing the win rates of 50 validation deals (deal seed 1100): " \
           "about" in err
    done = setup.index("gambler-train: set-up done; annealing from step 1 of 3")
    assert all("validation" not in line for line in setup[done:])  # the step's own deal sets
    assert re.fullmatch(r"gambler-train: 3 steps, 3 accepted, 0 new bests in \d+\.\d s; best "
                        r"\+0\.0 ± 0\.0 mbb/hand; best profile in " + re.escape(
                            str(tmp_path / "run" / "best.yaml")), lines[-1]), lines[-1]
    assert out == ""


def test_step_lines_use_thousands_separators():
    record = {"step": 1234, "parameter": "turn.price", "temperature": 6.03,
              "delta": {"mbb_per_hand": 1031.714, "ci95_mbb": 81.94}, "accepted": True,
              "new_best": True, "best_score": {"mbb_per_hand": 3093.4, "ci95_mbb": 1326.3},
              "hands_per_second": 880_000.4}
    state = RunState(seed=0, config={}, target_steps=6600, target_seconds=None)
    assert step_line(record, state) == (
        "step 1,234/6,600 turn.price T=6.03 Δ=+1,031.71±81.94 accepted, new best; best "
        "+3,093.4 ± 1,326.3 mbb/hand; 880,000 hands/s")
    hours = RunState(seed=0, config={}, target_steps=None, target_seconds=3600.0)
    assert step_line(record, hours).startswith("step 1,234 turn.price ")


def test_a_resumed_run_says_where_it_resumes_before_any_set_up(tmp_path, capsys, stubs):
    cache, _ = stubs
    code, _, err = train(capsys, "--config", config_file(tmp_path), "--run-dir", tmp_path / "run",
                         "--steps", 3, "--no-lbr-report")
    assert code == 0, err
    state = json.loads((tmp_path / "run" / "checkpoint.json").read_text())
    state.update(step=1, target_steps=3)
    (tmp_path / "run" / "checkpoint.json").write_text(json.dumps(state))
    # The set-up's first deal set fails: the resume line must already be out.
    cache.fail_on = DEAL_SEED
    code, _, err = train(capsys, "--resume", tmp_path / "run")
    lines = err.splitlines()
    assert code == 1 and lines == [
        f"gambler-train: resuming {tmp_path / 'run'} at step 2 of 3 (1 done)",
        "gambler-train: error: stopped in the set-up (test)"]
    # The line reads the checkpoint by a name of its own (no engine import): the same file.
    assert train_cli.CHECKPOINT_FILE == anneal.CHECKPOINT
    # An --hours run says how much of its time is left.
    state.update(target_steps=None, target_seconds=3 * 3600.0, elapsed=1800.0)
    (tmp_path / "run" / "checkpoint.json").write_text(json.dumps(state))
    code, _, err = train(capsys, "--resume", tmp_path / "run")
    assert err.splitlines()[0] == (f"gambler-train: resuming {tmp_path / 'run'} at step 2 "
                                   "(1 done; 2.5 h of steps to go)")


def test_resume_refuses_a_damaged_checkpoint_and_options_it_would_ignore(tmp_path, capsys):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "checkpoint.json").write_text("{")
    code, _, err = train(capsys, "--resume", tmp_path / "run")
    assert code == 1 and err.startswith(
        f"gambler-train: error: {tmp_path / 'run' / 'checkpoint.json'}: cannot read the "
        "checkpoint: ") and len(err.splitlines()) == 1
    code, _, err = train(capsys, "--resume", tmp_path / "run", "--steps", 5, "--seed", 3)
    assert code == 2 and err.strip() == (
        "gambler-train: error: --resume continues a run with its own config, seed and target: "
        "drop --steps, --seed (see --help)")
    (tmp_path / "empty").mkdir()
    code, _, err = train(capsys, "--resume", tmp_path / "empty")
    assert code == 1 and err.strip() == (
        f"gambler-train: error: {tmp_path / 'empty'} has no checkpoint.json to resume from")


def test_no_lbr_report_skips_the_final_lbr_measurement(tmp_path, capsys, stubs):
    _, lbr = stubs
    code, out, err = train(capsys, "--config", config_file(tmp_path), "--run-dir",
                           tmp_path / "skip", "--steps", 1, "--no-lbr-report", "--json")
    assert code == 0, err
    assert lbr.calls == []
    assert "lbr" not in load_profile(tmp_path / "skip" / "best.yaml").training
    assert "lbr" not in json.loads(out)
    # Without the flag the config's report_hands (300, LBR seed 3000 + 200) is measured.
    code, out, err = train(capsys, "--config", config_file(tmp_path), "--run-dir",
                           tmp_path / "report", "--steps", 1)
    assert code == 0, err
    assert lbr.calls == [(300, 3200, "C,C,FCPA,FCPA")]  # the run's parsed sets, handed on
    reported = load_profile(tmp_path / "report" / "best.yaml").training["lbr"]
    assert (reported["mbb_per_hand"], reported["hands"], reported["seed"]) == (-1234.5, 300, 3200)
    # Its tables are computed first, said before (the slow part) and after.
    lines = err.splitlines()
    tables = lines.index("gambler-train: measuring LBR (C,C,FCPA,FCPA) against the best profile "
                         "over 300 hands (LBR seed 3200)") - 2
    assert re.fullmatch(r"gambler-train: computing LBR's holding tables \(every holding's win "
                        r"rate on each street: the slow part of LBR's set-up\) for 150 LBR "
                        r"report deals \(LBR seed 3200\): about \d+\.\d s on \d+ cores?",
                        lines[tables]), lines
    assert lines[tables + 1].startswith("gambler-train: computed the tables of 150 LBR report "
                                        "deals in ")
    assert err.splitlines()[-1] == ("gambler-train: LBR (C,C,FCPA,FCPA) wins -1,234.5 ± 67.8 "
                                    "mbb/hand against it over 300 hands (seed 3200)")


def test_training_seconds_is_the_whole_wall_time_of_every_session(tmp_path, capsys, stubs,
                                                                  monkeypatch):
    # The first invocation: the set-up computes the training and validation deals (SETUP_SLEEP each), then
    # step 2 is interrupted (Ctrl-C): the checkpoint keeps the invocation's wall time.
    calls = []

    class Interrupting(StubBackend):
        def run(self, deals, path, rules, pairs, seed):
            calls.append(deals.seed)
            if calls.count(DEAL_SEED) == 2:
                raise KeyboardInterrupt
            return super().run(deals, path, rules, pairs, seed)

    monkeypatch.setattr(evaluate, "Backend", lambda workers=1, scheduler=None: Interrupting(0.5))
    started = time.perf_counter()
    code, _, err = train(capsys, "--config", config_file(tmp_path), "--run-dir", tmp_path / "run",
                         "--steps", 3)
    first_session = time.perf_counter() - started
    assert code == 130, err
    wall = json.loads((tmp_path / "run" / "checkpoint.json").read_text())["wall"]
    # training deals, validation deals, fresh set 1 (step 1's re-scoring): SETUP_SLEEP each
    assert 3 * SETUP_SLEEP <= wall <= first_session
    # The second invocation: fresh set 2 and the LBR report are new (SETUP_SLEEP each); the rest is cached.
    monkeypatch.setattr(evaluate, "Backend", lambda workers=1, scheduler=None: StubBackend(0.5))
    started = time.perf_counter()
    code, out, err = train(capsys, "--resume", tmp_path / "run", "--json")
    second_session = time.perf_counter() - started
    assert code == 0, err
    summary = json.loads(out)
    training = load_profile(tmp_path / "run" / "best.yaml").training
    assert training["seconds"] == summary["seconds"]
    assert wall + 2 * SETUP_SLEEP - 0.1 <= training["seconds"] <= \
        first_session + second_session + 0.1  # rounded to 0.1 s
    assert 2 * SETUP_SLEEP - 0.1 <= summary["session_seconds"] <= second_session + 0.1
    # The steps alone: the set-up's sleeps are left out of step_seconds.
    assert training["step_seconds"] <= training["seconds"] - 3 * SETUP_SLEEP


README_LBR = ('lbr: {weight: 0.5, actions: "C,C,FCPA,FCPA", hands: 4000, deal_seed: 3000, '
              'report_hands: 20000}\n')


def test_the_readme_lbr_example_parses_as_pasted(tmp_path):
    config = load_config(config_file(tmp_path, README_LBR))
    assert config.lbr == {"weight": 0.5, "actions": "C,C,FCPA,FCPA", "hands": 4000,
                          "deal_seed": 3000, "report_hands": 20000}
    assert config.lbr == TrainConfig().lbr  # the example gives the defaults


def test_unquoted_actions_in_a_flow_mapping_are_reported(tmp_path):
    path = config_file(tmp_path, README_LBR.replace('"C,C,FCPA,FCPA"', "C,C,FCPA,FCPA"))
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value) == (
        f"{path}: lbr: unknown key 'C' (known: weight, actions, hands, deal_seed, report_hands, held_out); "
        'quote actions that contain commas: actions: "C,C,FCPA,FCPA"')


@pytest.mark.parametrize("text, message", [
    ("temperature: {start: 30, stop: 1}", "mine.yaml: temperature: unknown key 'stop' (known: "
                                          "start, end)"),
    ("proposal: {c4: 1.0}", "mine.yaml: proposal: unknown kind 'c4' (known: threshold, c0, c1, "),
    ("lbr: {weight: 0.5, depth: 3}", "mine.yaml: lbr: unknown key 'depth' (known: weight, "),
    ("opponents: {seed: 1.0, nosuch: 1.0}", "mine.yaml: opponents.nosuch: "),
    ("sweeps: 2\nsweep: 3", "mine.yaml: unknown key 'sweep' (known: start, deals, "),
])
def test_unknown_keys_of_every_nested_mapping_are_reported(text, message):
    with pytest.raises(ConfigError) as error:
        parse_config(yaml.safe_load(text), "mine.yaml")
    assert str(error.value).startswith(message)
    assert "quote actions" not in str(error.value)


def test_the_shipped_default_config_lists_the_defaults_and_quotes_its_actions():
    from gambler.training.config import SHIPPED_CONFIGS

    assert load_config(SHIPPED_CONFIGS / "default.yaml") == TrainConfig()
    text = (SHIPPED_CONFIGS / "default.yaml").read_text()
    assert re.search(r'^  actions: "C,C,FCPA,FCPA"', text, re.MULTILINE)


def test_worker_processes_without_a_deal_file_raise_a_backend_error():
    backend = Backend(workers=2)
    try:
        with pytest.raises(BackendError, match="read deal sets from their cache files"):
            backend.run(FakeDeals(1, 10), None, None, [], 0)
    finally:
        backend.close()


def test_deal_sets_announce_a_computation_before_it_and_never_when_cached(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setenv("GAMBLER_DEALS", str(tmp_path / "deals"))
    events = []

    def compute(seed, first, count, samples=None, progress=None):
        events.append(("compute", first, count))
        return deals_module.DealSet(seed, first, "exact", np.zeros((count, 2, 2), np.uint8),
                                    np.zeros((count, 5), np.uint8), np.zeros((count, 2, 4)),
                                    np.zeros(count, np.int8), np.zeros((count, 3)))

    monkeypatch.setattr(deals_module, "compute_deal_set", compute)
    announce = lambda deals: events.append(("announce", deals))  # noqa: E731
    deals_module.cached_deal_set(5, 0, 30, announce=announce)
    assert events == [("announce", 30), ("compute", 0, 30)]
    events.clear()
    deals_module.cached_deal_set(5, 0, 30, announce=announce)
    assert events == []  # cached: nothing to say
    # A set in blocks whose first block is cached: one announcement, of what is left.
    block = deals_module.BLOCK
    deals_module.cached_deal_set(6, 0, block)
    events.clear()
    deals_module.cached_deal_set(6, 0, block + 7, announce=announce)
    assert events == [("announce", 7), ("compute", block, 7)]


def test_estimates_scale_the_measured_cost_by_cores():
    from gambler.training.deals import DEAL_CORE_SECONDS, estimate_seconds

    assert estimate_seconds(20_000, DEAL_CORE_SECONDS, cores=2) == pytest.approx(
        20_000 * DEAL_CORE_SECONDS / 2)
    assert estimate_seconds(1000, 0.03, cores=1) == pytest.approx(30.0)
    assert anneal.format_duration(18.4) == "18 s"
    assert anneal.format_duration(200) == "3 min 20 s"
    assert anneal.format_duration(7500) == "2 h 05 min"


def test_a_cold_numba_cache_is_announced_before_the_set_up(tmp_path, capsys, stubs,
                                                           monkeypatch):
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setattr(train_cli, "kernels_compiled", KERNELS_COMPILED)
    assert not train_cli.kernels_compiled()
    code, _, err = train(capsys, "--config", config_file(tmp_path), "--run-dir", tmp_path / "run",
                         "--steps", 1, "--no-lbr-report")
    assert code == 0, err
    lines = err.splitlines()
    assert lines[1] == (f"gambler-train: compiling the engine's numba kernels first (once "
                        f"after an install or an upgrade): about {train_cli.COMPILE_MINUTES} min")
    assert lines[2].startswith("gambler-train: set-up before the first step: up to the win ")
    # numba's name for the engine's cached kernel, in its folder for training/: then it is quiet.
    (tmp_path / "numba" / "training_0123abcd").mkdir(parents=True)
    (tmp_path / "numba" / "training_0123abcd" / "engine._deals_kernel-612.py311.nbi").touch()
    assert train_cli.kernels_compiled()


def test_the_set_up_estimate_counts_only_what_the_cache_lacks_and_splits_out_lbr(
        tmp_path, stubs, monkeypatch):
    from test_anneal import trainer

    cache, _ = stubs
    run = trainer(tmp_path, StubBackend(0.5), steps=1,
                  lbr={**TrainConfig().lbr, "weight": 0.5, "hands": 2000})
    said = []
    run.notify = said.append
    import numba

    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    # From an empty cache: training, fresh set 1 and validation deals (50 each); LBR's deals and
    # holding tables for 1,000 deals each of LBR seeds 3000, 3001 and 3100.
    run._say_set_up()
    deals, tables = 3 * 50 + 3 * 1000, 3 * 1000
    table_seconds = tables * deals_module.HOLDINGS_CORE_SECONDS / 2
    seconds = deals * deals_module.DEAL_CORE_SECONDS / 2 + table_seconds
    assert said == [f"set-up before the first step: up to the win rates of {deals:,} deals in 6 "
                    f"deal sets and LBR's holding tables for {tables:,} deals to compute (once; "
                    f"cached after): about {anneal.format_duration(seconds)} on 2 cores (LBR's "
                    f"holding tables: {anneal.format_duration(table_seconds)} of it)"]
    # The probe computed nothing; once everything is cached, it says so.
    assert cache.computed == set()
    cache.computed.update({1000, 1001, 1100, 3000, 3001, 3100}
                          | {("holdings", seed, 0) for seed in (3000, 3001, 3100)})
    said.clear()
    run._say_set_up()
    assert said == ["set-up: every deal set and LBR table it needs is in the cache"]


def test_plot_reads_a_log_still_being_written_and_names_a_damaged_line(tmp_path):
    from gambler.errors import GamblerError
    from gambler.training.plot import plot_run

    records = [{"step": step, "parameter": "river.thresholds[0]", "temperature": 30.0 - step,
                "delta": {"mbb_per_hand": 1.0 - step, "ci95_mbb": 2.0}, "accepted": step == 1,
                "new_best": step == 1, "best_score": {"mbb_per_hand": 10.0, "ci95_mbb": 3.0}}
               for step in (1, 2)]
    search = {"search": 0, "before_step": 1, "seed": 5000, "generations": 40,
              "held_out": {"mbb_per_hand": 900.0, "ci95_mbb": 80.0, "hands": 16000}}
    lines = [json.dumps(search)] + [json.dumps(record) for record in records]
    (tmp_path / "log.jsonl").write_text("\n".join(lines) + '\n{"step": 3, "param')
    target = plot_run(tmp_path)  # the last line is being written: left out
    assert target == tmp_path / "training.png" and target.stat().st_size > 10_000
    (tmp_path / "log.jsonl").write_text(lines[1] + '\n{"step": 2, "param\n' + lines[2] + "\n")
    with pytest.raises(GamblerError) as error:
        plot_run(tmp_path)
    assert str(error.value) == f"{tmp_path / 'log.jsonl'}:2: not a log record (damaged JSON)"


def test_the_search_and_ab_tools_take_seeds_as_every_command_does(capsys):
    from gambler.cli import CLI_MAX_SEED
    from gambler.training import ab, search

    assert search.seed_argument(str(CLI_MAX_SEED)) == CLI_MAX_SEED
    for main_, argv in ((ab.main, ["a", "b", "--lbr-seed", "-3"]),
                        (search.main, ["--seed", str(CLI_MAX_SEED + 1)])):
        with pytest.raises(SystemExit) as exit_:
            main_(argv)
        assert exit_.value.code == 2
        assert capsys.readouterr().err.splitlines()[-1].endswith(
            "is not a seed: seeds are whole numbers from 0 to 4,294,967,295")


@pytest.mark.parametrize("actions, message", [
    ("[]", "lbr.actions: expected sets like C,C,FCPA,FCPA or a non-empty list of them"),
    ('["C,C,FCPA,FCPA", 7]', "lbr.actions[1]: 7 is not a string of action sets like "
                             "C,C,FCPA,FCPA"),
    ('["C,C,FCPA,FCPA", "FCMA,FCMA,FCMA,FCMA", "c,c,apcf,fcpa"]',
     "lbr.actions[2]: 'c,c,apcf,fcpa' repeats lbr.actions[0] ('C,C,FCPA,FCPA')"),
    ('["C,C,FCPA,FCPA", "C,C,FCZA,FCPA"]',
     "lbr.actions[1]: action sets 'C,C,FCZA,FCPA': unknown action 'Z' in set 3"),
    ("[FCPA,FCPA,FCPA,FCPA]", "lbr.actions[0]: action sets 'FCPA': expected 4 comma-separated "
                              "sets, one per round, found 1; quote each setting in a list: "),
    ("{preflop: FCPA}", "lbr.actions: expected sets like C,C,FCPA,FCPA or a non-empty list"),
])
def test_bad_lbr_settings_name_the_file_field_and_entry(tmp_path, actions, message):
    path = config_file(tmp_path, f"lbr: {{weight: 0.5, actions: {actions}}}\n")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value).startswith(f"{path}: {message}")


def test_lbr_settings_may_be_a_list_kept_as_written(tmp_path):
    text = "lbr:\n  actions:\n    - C,C,FCPA,FCPA\n    - fcma,fcma,fcma,fcma\n"
    config = load_config(config_file(tmp_path, text))
    assert config.lbr["actions"] == ["C,C,FCPA,FCPA", "fcma,fcma,fcma,fcma"]
    assert {key: value for key, value in config.lbr.items() if key != "actions"} == \
        {key: value for key, value in TrainConfig().lbr.items() if key != "actions"}
    assert load_config(config_file(tmp_path, 'lbr: {actions: "C,C,FCPA,FCPA"}\n')).lbr == \
        TrainConfig().lbr  # one string stays a string
