"""gambler-match and gambler-train: the engine against real matches, determinism, resumption."""

import json
import os
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import numpy as np
import pytest

from acpc_support import NOLIMIT
from conftest import interruptible
from gambler.bot.params import load_profile
from gambler.bot.strategies import resolve_strategy
from gambler.protocol import load_game
from gambler.protocol.deal import MersenneTwister, deal_hand
from gambler.training.deals import deal_set_from_cards
from gambler.training.engine import encode_rules, encode_strategy, play_deals
from gambler.training.luck import adjusted_values
from gambler.protocol.logs import read_log

GAME = load_game(NOLIMIT)


@pytest.fixture(autouse=True)
def private_deal_cache(tmp_path_factory, monkeypatch):
    """Deal sets of these tests go to one temporary cache shared by the module's runs."""
    monkeypatch.setenv("GAMBLER_DEALS", str(tmp_path_factory.getbasetemp() / "deals"))


def cli(module, *args, cwd=None, timeout=600):
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, env=os.environ.copy())


def real_match(folder, a: str, b: str, deals: int, seed: int):
    """`a` against `b` through gambler-dealer --duplicate and two gambler processes: the log's
    hands, and the engine's results on the dealer's own cards (chips, all-in adjusted)."""
    dealer = subprocess.Popen([sys.executable, "-m", "gambler.protocol.dealer_cli", "m", NOLIMIT,
                               str(2 * deals), str(seed), "a", "b", "--duplicate", "-q"],
                              cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    ports = dealer.stdout.readline().split()
    bots = [subprocess.Popen([sys.executable, "-m", "gambler.bot.cli", "127.0.0.1", port, "--params",
                              params, "--quiet"], stderr=subprocess.PIPE, text=True)
            for port, params in zip(ports, (a, b))]
    for bot in bots:
        assert bot.wait(timeout=300) == 0, bot.stderr.read()
    dealer.wait(timeout=60)
    hands = read_log(GAME, folder / "m.log")
    # The dealer's cards, dealt again with its own generator: one deal per duplicate pair.
    rng = MersenneTwister(seed)
    cards = [deal_hand(GAME, rng) for _ in range(deals)]
    holes = np.array([deal.hole_cards for deal in cards], dtype=np.uint8)
    boards = np.array([deal.board for deal in cards], dtype=np.uint8)
    deal_set = deal_set_from_cards(holes, boards)
    results = np.zeros((deals, 2), dtype=np.int64)
    adjusted = np.zeros((deals, 2))
    play_deals(encode_rules(GAME), *encode_strategy(resolve_strategy(a)),
               *encode_strategy(resolve_strategy(b)), deal_set.v, deal_set.outcomes,
               deal_set.allin_equity, 0, 0, results, adjusted, deal_set.holes, deal_set.boards)
    return hands, results, adjusted


V2 = str(Path(__file__).resolve().parent / "data" / "profiles" / "v2-test.yaml")
MIXED = str(Path(__file__).resolve().parent / "data" / "profiles" / "v2-mixed.yaml")
NARROW = str(Path(__file__).resolve().parent / "data" / "profiles" / "v2-narrow.yaml")
V3 = str(Path(__file__).resolve().parent / "data" / "profiles" / "v3-defend.yaml")


@pytest.mark.parametrize("a, b", [("shover", "default-v2"), ("seed", "prober"), (V2, "default-v2"),
                                  (MIXED, "default-v2"), (NARROW, "raise"), ("prober", NARROW),
                                  (V3, "sizer"), ("prober", V3)])
def test_exploiters_play_real_matches_as_the_engine_does(tmp_path, a, b):
    hands, results, adjusted = real_match(tmp_path, a, b, 60, 33)
    assert results.reshape(-1).tolist() == [hand.value_of("a") for hand in hands]
    np.testing.assert_allclose(adjusted.reshape(-1),
                               [adjusted_values(hand)[hand.names.index("a")] for hand in hands],
                               rtol=1e-12)


def test_engine_agrees_with_real_matches_hand_by_hand(tmp_path):
    """The same deals through gambler-dealer --duplicate and two gambler processes: the engine's
    chips, raw and all-in adjusted, hand by hand; and `gambler-match --engine dealer` reports the
    mbb/hand and intervals worked out from that log."""
    deals, seed = 150, 21
    hands, results, adjusted = real_match(tmp_path, "seed", "handmade", deals, seed)
    logged = [hand.value_of("a") for hand in hands]
    logged_adjusted = [adjusted_values(hand)[hand.names.index("a")] for hand in hands]
    assert results.reshape(-1).tolist() == logged  # A's chips, hand by hand
    np.testing.assert_allclose(adjusted.reshape(-1), logged_adjusted, rtol=1e-12)
    assert sum(a != b for a, b in zip(logged, logged_adjusted)) > 5  # all-ins were adjusted

    # Run as a user would, by its console script, from a folder that holds a directory named
    # gambler (a clone, say): the dealer and bot children must not import that folder.
    shadow = tmp_path / "shadow"
    (shadow / "gambler").mkdir(parents=True)
    result = subprocess.run([console_script("gambler-match"), "seed", "handmade", "--engine",
                             "dealer", "--hands", str(2 * deals), "--seed", str(seed), "--json"],
                            capture_output=True, text=True, cwd=shadow, timeout=600)
    assert result.returncode == 0, result.stderr
    reported = json.loads(result.stdout)
    pairs = np.array(logged).reshape(deals, 2).sum(axis=1)
    per_hand = pairs.sum() / (2 * deals) / GAME.big_blind * 1000
    half_width = 1.959964 * pairs.std(ddof=1) / np.sqrt(deals) / 2 / GAME.big_blind * 1000
    assert reported["mbb_per_hand"] == pytest.approx(per_hand)
    assert reported["ci95_mbb"] == pytest.approx(half_width, rel=1e-5)
    adjusted_pairs = np.array(logged_adjusted).reshape(deals, 2).sum(axis=1)
    assert reported["mbb_per_hand_allin_adjusted"] == pytest.approx(
        adjusted_pairs.mean() / 2 / GAME.big_blind * 1000)
    assert reported["ci95_mbb_allin_adjusted"] == pytest.approx(
        1.959964 * adjusted_pairs.std(ddof=1) / np.sqrt(deals) / 2 / GAME.big_blind * 1000,
        rel=1e-5)


def console_script(name: str) -> str:
    """The installed command `name` of this Python's environment."""
    path = Path(sysconfig.get_path("scripts")) / name
    assert path.exists(), f"{name} is not installed next to {sys.executable}"
    return str(path)


def test_a_child_that_fails_says_why(monkeypatch):
    """gambler-match --engine dealer shows the last line of a dealer that did not start."""
    from click import ClickException

    import gambler.training.match_cli as match_cli

    monkeypatch.setattr(match_cli, "child_command", lambda module: [
        sys.executable, "-c", f"import sys; sys.exit('{module}: cannot start, and says why')"])
    with pytest.raises(ClickException, match=r"^gambler-dealer did not start: "
                       r"gambler.protocol.dealer_cli: cannot start, and says why$"):
        match_cli.dealer_match("seed", "call", 4, 1, GAME, NOLIMIT, 1)


def match_json(*args):
    result = cli("gambler.training.match_cli", *args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_match_json_is_deterministic_and_worker_independent():
    first = match_json("seed", "handmade", "--hands", "2000", "--seed", "3")
    assert set(first) >= {"a", "b", "hands", "mbb_per_hand", "ci95_mbb", "seconds",
                          "mbb_per_hand_allin_adjusted", "ci95_mbb_allin_adjusted"}
    assert (first["a"], first["b"], first["hands"]) == ("seed", "handmade", 2000)
    again = match_json("seed", "handmade", "--hands", "2000", "--seed", "3", "--workers", "2")
    assert (again["mbb_per_hand"], again["ci95_mbb"]) == (first["mbb_per_hand"],
                                                          first["ci95_mbb"])
    swapped = match_json("handmade", "seed", "--hands", "2000", "--seed", "3")
    assert swapped["mbb_per_hand"] == pytest.approx(-first["mbb_per_hand"])
    other = match_json("seed", "handmade", "--hands", "2000", "--seed", "4")
    assert other["mbb_per_hand"] != first["mbb_per_hand"]


def test_several_matches_are_the_single_matches_of_their_seeds_and_their_t_interval():
    """`--matches 3 --seed 3` plays the matches `--seed 3`, `--seed 4` and `--seed 5` play, each
    whole, and reports their mean with the 95% Student t interval over the three means (t at 2
    degrees of freedom: 4.303), the hands summed and the matches A lost (all-in adjusted)."""
    from gambler.training.evaluate import t95

    several = match_json("seed", "handmade", "--hands", "600", "--seed", "3", "--matches", "3")
    singles = [match_json("seed", "handmade", "--hands", "600", "--seed", str(seed))
               for seed in (3, 4, 5)]
    for one, single in zip(several["each_match"], singles):
        assert {key: value for key, value in one.items() if key != "seconds"} == \
            {key: value for key, value in single.items() if key != "seconds"}
    assert (several["matches"], several["seed"], several["hands"]) == (3, 3, 1800)
    for key, half in (("mbb_per_hand", "ci95_mbb"),
                      ("mbb_per_hand_allin_adjusted", "ci95_mbb_allin_adjusted")):
        means = np.array([single[key] for single in singles])
        assert several[key] == pytest.approx(means.mean())
        assert several[half] == pytest.approx(4.303 * means.std(ddof=1) / np.sqrt(3))
    assert several["matches_lost"] == sum(single["mbb_per_hand_allin_adjusted"] < 0
                                          for single in singles)
    assert t95(2) == 4.303
    text = cli("gambler.training.match_cli", "seed", "handmade", "--hands", "600", "--seed", "3",
               "--matches", "3").stdout.splitlines()
    assert [line.split(":")[0] for line in text[:3]] == ["  seed 3", "  seed 4", "  seed 5"]
    assert text[3].startswith(f"seed vs handmade: {several['mbb_per_hand']:+,.1f} mbb/hand ± "
                              f"{several['ci95_mbb']:,.1f} (95% t interval over the matches) "
                              "over 3 matches of 600 hands (seeds 3-5)")


@pytest.mark.parametrize("degrees, quantile", [(1, 12.706), (9, 2.262), (30, 2.042),
                                               (31, 2.0395), (40, 2.0211), (60, 2.0003),
                                               (120, 1.9799), (1000, 1.9623)])
def test_t95_is_students_quantile(degrees, quantile):
    """Student's t at 0.975 as the tables give it (to the table's last decimal): the table up
    to 30 degrees of freedom, the expansion above."""
    from gambler.training.evaluate import t95

    assert t95(degrees) == pytest.approx(quantile, abs=6e-5)


def test_match_says_it_rounded_odd_hands():
    result = cli("gambler.training.match_cli", "call", "raise", "--hands", "3", "--json")
    assert result.returncode == 0 and json.loads(result.stdout)["hands"] == 4
    assert result.stderr.strip() == "gambler-match: note: --hands 3 rounded up to 4 (whole " \
        "duplicate deals: each deal is played twice, the seats swapped)"


def test_match_refuses_bad_input_in_one_line():
    result = cli("gambler.training.match_cli", "seed", "nosuch")
    assert result.returncode == 1
    assert result.stderr.strip() == "gambler-match: error: no profile file 'nosuch' (shipped " \
        "profiles: adaptive, default, default-static, default-v1, default-v2, handmade, price-aware, " \
        "resolve, " \
        "seed, v2-start; baselines: call, " \
        "raise, allin, random; exploiters: " \
        "catcher, prober, shover, sizer; installed blueprints: none)"


SMALL = """start: seed
deals: 300
fresh_deals: 300
fresh_sets: 2
opponents: {seed: 2.0, handmade: 0.5, call: 0.25, raise: 0.25, allin: 0.25, random: 0.25, best: 1.0}
held_out: {}
sweeps: 1
steps_per_parameter: 1
temperature: {start: 40.0, end: 1.0}
lbr: {weight: 0, report_hands: 0}
"""


def train(tmp_path, name, *args, config=SMALL):
    (tmp_path / "small.yaml").write_text(config)
    return cli("gambler.training.train_cli", "--config", str(tmp_path / "small.yaml"), "--run-dir",
               str(tmp_path / name), "--seed", "7", *args)


def comparable(run_dir):
    """The log without the timing fields, and the best profile."""
    records = [json.loads(line) for line in (run_dir / "log.jsonl").read_text().splitlines()]
    for record in records:
        for key in ("seconds", "hands_per_second", "deal_set_seconds"):
            record.pop(key, None)
    best = (run_dir / "best.yaml").read_text()
    return records, best[best.index("preflop:"):]


def test_training_run_log_checkpoint_and_profile(tmp_path):
    result = train(tmp_path, "run", "--steps", "8", "--out", str(tmp_path / "out.yaml"))
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("\nstep ") + result.stderr.startswith("step ") == 8
    records, _ = comparable(tmp_path / "run")
    assert [record["step"] for record in records] == list(range(1, 9))
    # The same numbers on the progress lines as in the log.
    shown = [int(line.split()[1].split("/")[0]) for line in result.stderr.splitlines()
             if line.startswith("step ")]
    assert shown == list(range(1, 9))
    assert [record["parameter"] for record in records[:2]] == ["river.thresholds[0]",
                                                               "river.thresholds[1]"]
    best = load_profile(tmp_path / "out.yaml")
    assert best.training["steps"] == 8 and best.training["seed"] == 7
    assert best.training["seconds"] >= best.training["step_seconds"] > 0  # wall time, and steps
    assert set(best.training["scores"]["opponents"]) == {"seed", "handmade", "call", "raise",
                                                         "allin", "random"}
    assert (tmp_path / "run" / "checkpoint.json").is_file()


def training_in_background(tmp_path, name: str, steps: int, stderr):
    """`gambler-train` on SMALL in a child process, returned once its log has 4 steps (or after
    5 minutes): (the process, its log's path)."""
    (tmp_path / "small.yaml").write_text(SMALL)
    process = subprocess.Popen([sys.executable, "-m", "gambler.training.train_cli", "--config",
                                str(tmp_path / "small.yaml"), "--run-dir",
                                str(tmp_path / name), "--seed", "7", "--steps", str(steps)],
                               stdout=subprocess.DEVNULL, stderr=stderr, text=True,
                               env=os.environ.copy(), **interruptible())
    log = tmp_path / name / "log.jsonl"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and (not log.exists()
                                           or len(log.read_text().splitlines()) < 4):
        time.sleep(0.002)
    return process, log


def test_kill_9_and_resume_gives_the_uninterrupted_result(tmp_path):
    # Steps take milliseconds here: 40 of them leave room to kill the run part-way.
    assert train(tmp_path, "whole", "--steps", "40").returncode == 0
    process, log = training_in_background(tmp_path, "cut", 40, stderr=subprocess.DEVNULL)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert len(log.read_text().splitlines()) < 40
    resumed = cli("gambler.training.train_cli", "--resume", str(tmp_path / "cut"))
    assert resumed.returncode == 0, resumed.stderr
    assert comparable(tmp_path / "cut") == comparable(tmp_path / "whole")


def test_ctrl_c_keeps_the_best_profile_so_far(tmp_path):
    process, _ = training_in_background(tmp_path, "cut", 400, stderr=subprocess.PIPE)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130
    last = err.strip().splitlines()[-1]
    assert last.startswith("gambler-train: error: interrupted after step ")
    assert f"the best so far is in {tmp_path / 'cut' / 'best.yaml'}" in last
    best = load_profile(tmp_path / "cut" / "best.yaml")
    checkpoint = json.loads((tmp_path / "cut" / "checkpoint.json").read_text())
    assert best.training["steps"] == checkpoint["step"] < 400
    assert [r.thresholds for r in best.rounds] == [
        tuple(checkpoint["best"][i * 11:i * 11 + 3]) for i in range(4)]


def test_kill_keeps_the_best_profile_so_far_as_ctrl_c_does(tmp_path):
    """SIGTERM (`kill PID`, the way to stop a nohup'd overnight run) writes best.yaml too."""
    process, _ = training_in_background(tmp_path, "term", 400, stderr=subprocess.PIPE)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130
    assert err.strip().splitlines()[-1].startswith("gambler-train: error: interrupted after step ")
    best = load_profile(tmp_path / "term" / "best.yaml")
    checkpoint = json.loads((tmp_path / "term" / "checkpoint.json").read_text())
    assert best.training["steps"] == checkpoint["step"] < 400


def test_workers_and_a_dask_cluster_give_the_same_run(tmp_path):
    from dask.distributed import Client, LocalCluster

    from gambler.training.anneal import Trainer
    from gambler.training.config import parse_config
    from gambler.training.evaluate import Backend
    import yaml

    config = parse_config(yaml.safe_load(SMALL))
    runs = {}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        backends = {"serial": Backend(), "processes": Backend(workers=2),
                    "dask": Backend(client=client)}
        for name, backend in backends.items():
            trainer = Trainer.start(tmp_path / name, config, GAME, backend, seed=7, steps=5,
                                    hours=None)
            trainer.run()
            runs[name] = comparable(tmp_path / name)
        backends["processes"].close()
    assert runs["serial"] == runs["processes"] == runs["dask"]


def test_training_with_lbr_in_the_objective_and_exploiters_in_the_pool(tmp_path):
    config = "\n".join(line for line in SMALL.splitlines()
                       if not line.startswith(("opponents:", "lbr:"))) + """
opponents: {seed: 1.0, shover: 1.0, best: 1.0}
lbr: {weight: 0.5, hands: 200, report_hands: 300}
normalize: false
"""
    result = train(tmp_path, "run", "--steps", "3", "--json", config=config)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    best = load_profile(tmp_path / "run" / "best.yaml")
    scores = best.training["scores"]
    assert set(scores["opponents"]) == {"seed", "shover"}
    # The objective: the pool's weighted score (equal weights) - 0.5 x LBR's winnings.
    pool = (scores["opponents"]["seed"]["mbb_per_hand"]
            + scores["opponents"]["shover"]["mbb_per_hand"]) / 2
    assert scores["weighted"]["mbb_per_hand"] == pytest.approx(
        pool - 0.5 * scores["lbr"]["mbb_per_hand"], abs=0.01)
    # The report: LBR against the best profile on 300 hands of seed 3200, as gambler-lbr says.
    assert summary["lbr"] == best.training["lbr"]
    assert (summary["lbr"]["hands"], summary["lbr"]["seed"]) == (300, 3200)
    check = cli("gambler.training.lbr_cli", str(tmp_path / "run" / "best.yaml"), "--hands", "300",
                "--seed", "3200", "--json")
    assert json.loads(check.stdout)["mbb_per_hand"] == pytest.approx(
        summary["lbr"]["mbb_per_hand"], abs=1e-3)


@pytest.mark.parametrize("config, message", [
    ("deals: -5\n", "deals: -5 must be an integer >= 2"),
    ("temperature: {start: 1.0, end: 5.0}\n", "temperature.end must not exceed"),
    ("opponents: {seed: -1}\n", "opponents.seed: weight -1 must be a number >= 0"),
    ("proposal: {c4: 1.0}\n", "proposal: unknown kind 'c4'"),
    ("sweeps: 2\nfoo: 1\n", "unknown key 'foo'"),
    ("lbr: {weight: -1}\n", "lbr.weight: -1 must be a number >= 0"),
    ("lbr: {actions: 'C,C,FPA,FCPA'}\n", "lbr.actions: action sets 'C,C,FPA,FCPA': set 3"),
    ("lbr: {hands: 1}\n", "lbr.hands: 1 must be an integer >= 2"),
    ("lbr: {depth: 3}\n", "lbr: unknown key 'depth'"),
    ("deals: [1,\n  2\nopponents: {", "small.yaml:3:10: not valid YAML: expected ',' or ']'"),
])
def test_bad_configs_name_the_key(tmp_path, config, message):
    result = train(tmp_path, "bad", "--steps", "1", config=config)
    assert result.returncode == 1 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "small.yaml" in result.stderr


def test_plot_draws_the_training_curve(tmp_path):
    assert train(tmp_path, "run", "--steps", "4").returncode == 0
    with open(tmp_path / "run" / "log.jsonl", "a") as log:  # a search's line has no step
        log.write(json.dumps({"search": 1, "before_step": 5, "seed": 5001, "generations": 2,
                              "held_out": {"mbb_per_hand": 300.0, "ci95_mbb": 50.0,
                                           "hands": 400},
                              "file": "exploiters/found-01.yaml", "seconds": 1.0}) + "\n")
    result = cli("gambler.training.train_cli", "plot", str(tmp_path / "run"))
    assert result.returncode == 0, result.stderr
    import matplotlib.image
    image = matplotlib.image.imread(result.stdout.strip())
    assert image.shape[0] > 500 and image.shape[1] > 800  # a 10 x 7 inch figure at 110 dpi


def test_user_errors_never_read_internal_error(tmp_path, monkeypatch):
    huge = cli("gambler.training.match_cli", "seed", "handmade", "--hands", "100000000000")
    assert huge.returncode == 1 and huge.stderr.startswith(
        "gambler-match: error: not enough memory for this request (50,000,000,000 deals need")
    (tmp_path / "file").write_text("")
    blocked = train(tmp_path, "file/run", "--steps", "1")
    assert blocked.returncode == 1 and blocked.stderr.strip() == (
        f"gambler-train: error: cannot create the run folder {tmp_path / 'file' / 'run'}: "
        "Not a directory")
    from gambler.training import evaluate
    from gambler.training.evaluate import Backend, BackendError

    monkeypatch.setattr(evaluate, "CONNECT_SECONDS", 1)
    with pytest.raises(BackendError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"):
        Backend(scheduler="tcp://127.0.0.1:1")


# --- the deal-set cache -------------------------------------------------------------------------

def small_blocks(monkeypatch, tmp_path):
    import gambler.training.deals as deals

    monkeypatch.setenv("GAMBLER_DEALS", str(tmp_path / "deals"))
    monkeypatch.setattr(deals, "CHUNK", 10)
    monkeypatch.setattr(deals, "BLOCK", 20)
    return deals


def same_sets(a, b):
    return all(np.array_equal(getattr(a, name), getattr(b, name))
               for name in ("holes", "boards", "v", "outcomes", "allin_equity"))


def test_a_deal_set_computed_in_blocks_is_the_set_computed_at_once(monkeypatch, tmp_path):
    deals = small_blocks(monkeypatch, tmp_path)
    blocked, path = deals.cached_deal_set(5, 0, 50, samples=40)  # Monte Carlo: seeds by chunk
    assert same_sets(blocked, deals.compute_deal_set(5, 0, 50, samples=40))
    assert sorted(p.name for p in path.parent.iterdir()) == ["s5-d0-n50-mc40v2.npz"]


def test_an_interrupted_computation_keeps_its_finished_blocks(monkeypatch, tmp_path):
    deals = small_blocks(monkeypatch, tmp_path)
    real, calls = deals.compute_deal_set, []

    def interrupted_at_the_third_block(seed, first_deal, count, samples=None, progress=None):
        calls.append(first_deal)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(seed, first_deal, count, samples, progress)

    monkeypatch.setattr(deals, "compute_deal_set", interrupted_at_the_third_block)
    with pytest.raises(KeyboardInterrupt):
        deals.cached_deal_set(5, 0, 50, samples=40)
    assert sorted(p.name for p in (tmp_path / "deals").iterdir()) == [
        "s5-d0-n20-mc40v2.npz", "s5-d20-n20-mc40v2.npz"]
    calls.clear()
    monkeypatch.setattr(deals, "compute_deal_set", lambda *args, **kw: (
        calls.append(args[1]), real(*args, **kw))[1])
    resumed, _ = deals.cached_deal_set(5, 0, 50, samples=40)
    assert calls == [40]  # only the block that was not finished
    assert same_sets(resumed, real(5, 0, 50, samples=40))


def test_a_smaller_set_is_read_from_a_larger_one(monkeypatch, tmp_path):
    deals = small_blocks(monkeypatch, tmp_path)
    whole, whole_path = deals.cached_deal_set(5, 0, 50, samples=40)
    monkeypatch.setattr(deals, "compute_deal_set", lambda *args, **kw: pytest.fail("computed"))
    part, path = deals.cached_deal_set(5, 0, 30, samples=40)
    assert path == whole_path and same_sets(part, whole.slice(0, 30)) and len(part) == 30


def test_the_paired_ab_is_the_difference_of_the_two_matches():
    from gambler.training.ab import paired_ab

    result = paired_ab("seed", "handmade", opponents=("call", "shover"), seed=3, hands=2000,
                       lbr_seed=1, lbr_hands=200)
    for name in ("call", "shover"):
        a, b = (json.loads(cli("gambler.training.match_cli", spec, name, "--hands", "2000", "--seed",
                               "3", "--json").stdout) for spec in ("seed", "handmade"))
        assert result["opponents"][name]["mbb_per_hand"] == pytest.approx(
            a["mbb_per_hand_allin_adjusted"] - b["mbb_per_hand_allin_adjusted"])
    lbr = [json.loads(cli("gambler.training.lbr_cli", spec, "--hands", "200", "--seed", "1",
                          "--json").stdout)["mbb_per_hand"] for spec in ("seed", "handmade")]
    assert (result["lbr"]["a"], result["lbr"]["b"]) == pytest.approx(tuple(lbr))
    assert result["lbr"]["difference"]["mbb_per_hand"] == pytest.approx(lbr[0] - lbr[1])
    same = paired_ab("seed", "seed", opponents=("random",), seed=3, hands=2000, lbr_hands=0)
    assert same["opponents"]["random"] == {"mbb_per_hand": 0.0, "ci95_mbb": 0.0}


def test_a_portfolio_in_the_pool_plays_whole_matches_against_each_candidate(tmp_path):
    """A portfolio of `seed` twice plays every hand as `seed`, so against the (deterministic)
    `seed` start it scores exactly as `seed` does, though it plays through the portfolio's
    matches (`training.portfolio.chips_against`) and `seed` through the backend."""
    (tmp_path / "duo.yaml").write_text("kind: portfolio\nname: duo\nmembers: [seed, seed]\n")
    config = "\n".join(line for line in SMALL.splitlines()
                       if not line.startswith("opponents:")) + f"""
opponents: {{seed: 1.0, {tmp_path / 'duo.yaml'}: 1.0, call: 1.0}}
"""
    result = train(tmp_path, "run", "--steps", "2", "--no-lbr-report", config=config)
    assert result.returncode == 0, result.stderr
    scores = load_profile(tmp_path / "run" / "best.yaml").training["scores"]["opponents"]
    assert scores[str(tmp_path / "duo.yaml")] == scores["seed"]
    assert scores["seed"] != scores["call"]
