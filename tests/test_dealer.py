"""gambler-dealer: byte-for-byte agreement with the ACPC dealer, and its behaviour under faults."""

import random
import re
import socket
import subprocess
import sys
import threading
import time

import pytest

from acpc_support import (LIMIT, NOLIMIT, LocalMatch, log_lines, replay_decider, replay_player,
                          scripted_actions, transcript)
from gambler.protocol import Action, load_game, parse_betting, parse_matchstate, raise_to
from gambler.protocol.client import DealerConnection, MatchEvents, play_match
from gambler.protocol.dealer import DealerOptions
from gambler.protocol.matchstate import parse_cards_field

MATCHES = {  # kind: (match name, game file, hands, seed, names) of the recorded matches
    "nolimit": ("matches/gam_vs_ex_2k_s2", NOLIMIT, 2000, 2, ["gambler", "example"]),
    "limit": ("matches/lim", LIMIT, 200, 5, ["a", "b"]),
}


def options_for(kind, **changes):
    match, game_file, hands, seed, names = MATCHES[kind]
    settings = dict(match_name=match, game_file=game_file, game=load_game(game_file),
                    hands=hands, seed=seed, names=names, quiet=True)
    settings.update(changes)
    return DealerOptions(**settings)


@pytest.mark.parametrize("kind", ["nolimit", "limit"])
def test_replayed_match_writes_the_real_dealers_log_byte_for_byte(kind, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "matches").mkdir()
    options = options_for(kind)
    recorded = log_lines(kind)
    decide = replay_decider(scripted_actions(options.game,
                                             [l for l in recorded if l.startswith("STATE:")]))
    match = LocalMatch(options)
    for seat in range(2):
        match.add_player(seat, replay_player(options.game, decide))
    assert match.run() == 0
    assert (tmp_path / f"{options.match_name}.log").read_text().splitlines() == recorded
    assert match.stdout.getvalue().splitlines()[-1] == recorded[-1]  # the SCORE line


def raw_replayer(answers: list[str]):
    """A client that answers each state with the recorded reply to it, byte for byte."""
    def run(port):
        with DealerConnection("127.0.0.1", port) as connection:
            connection.send_version()
            pending = list(answers)
            while pending:
                line = connection.read_line()
                if pending[0].startswith(line + ":"):
                    connection.send_line(pending.pop(0))
            try:
                while True:
                    connection.read_line()
            except Exception:
                pass
    return run


@pytest.mark.parametrize("kind, hands", [("nolimit", 300), ("limit", 200)])
def test_dealer_sends_exactly_what_the_real_dealer_sent(kind, hands, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rows = transcript(kind)
    options = options_for(kind, match_name="replay", hands=hands, quiet=False)
    match = LocalMatch(options)
    for seat in (1, 2):
        match.add_player(seat - 1, raw_replayer([line for d, s, line in rows
                                                 if d == "FROM" and s == seat]))
    assert match.run() == 0
    stamp = re.compile(r"^(TO|FROM) (\d+) at \d+\.\d+ ")
    ours = [stamp.sub(r"\1 \2 ", line) for line in match.stderr.getvalue().splitlines()
            if stamp.match(line)]
    assert ours == [f"{d} {s} {line}" for d, s, line in rows]


class Scripted:
    """A client that sends the given raw replies, in order, whenever it is its turn."""

    def __init__(self, replies, then=lambda state: "c"):
        self.replies = list(replies)
        self.then = then

    def __call__(self, port):
        game = load_game(NOLIMIT)
        with DealerConnection("127.0.0.1", port) as connection:
            connection.send_version()
            try:
                while True:
                    line = connection.read_line()
                    state = parse_matchstate(game, line)
                    if state.finished or not state.is_our_turn:
                        continue
                    if self.replies:
                        for reply in self.replies.pop(0)(line):
                            connection.send_line(reply)
                    else:
                        connection.send_line(f"{line}:{self.then(state)}")
            except Exception:
                pass


def test_bad_answers_are_repaired_or_ignored_as_the_acpc_dealer_does(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    options = options_for("nolimit", match_name="faults", hands=6)
    stale = {}

    def remember(line):
        stale["line"] = line
        return [f"{line}:c"]

    replies = [
        remember,                                                   # hand 0: a normal call
        lambda line: ["# a comment", "; another", "hello dealer",   # ignored, with warnings
                      f"{stale['line']}:r500",                      # a stale echo: ignored
                      f"{line}:r150"],                              # raised to the minimum
        lambda line: [f"{line}:x"],                                 # unreadable -> call
        lambda line: [f"{line}:r99999"],                            # capped at the stack
    ]
    match = LocalMatch(options)
    match.add_player(0, Scripted([]))                 # seat 1 always checks/calls
    match.add_player(1, Scripted(replies))
    assert match.run() == 0
    errors = match.stderr.getvalue()
    assert errors.count("WARNING: bad state format in response") == 1
    assert "WARNING: ignoring un-requested response" in errors
    assert "WARNING: raise of 150 increased to" in errors
    assert "WARNING: bad action format in response, changed to call" in errors
    assert "WARNING: raise of 99999 decreased to 20000" in errors
    hands = [line for line in (tmp_path / "faults.log").read_text().splitlines()
             if line.startswith("STATE:")]
    assert len(hands) == 6 and "r20000c" in "".join(hands)  # the capped raise was called


def test_a_silent_player_times_out_and_the_log_keeps_finished_hands(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    options = options_for("nolimit", match_name="silent", hands=50, t_response_ms=300)
    answered = {"count": 0}

    def calls_then_sleeps(state):
        answered["count"] += 1
        if answered["count"] > 12:
            time.sleep(3)
        return "c"

    match = LocalMatch(options)
    match.add_player(0, Scripted([]))
    match.add_player(1, Scripted([], then=calls_then_sleeps))
    assert match.run() == 1
    assert match.seconds < 2.5  # the 300 ms limit, not the player's 3 s nap
    errors = match.stderr.getvalue()
    assert re.search(r"ERROR: could not get action from seat 2: no answer within 300 ms", errors)
    logged = (tmp_path / "silent.log").read_text().splitlines()
    assert logged[0].startswith("# name/game/hands/seed silent")
    assert 1 <= sum(line.startswith("STATE:") for line in logged) < 50
    assert not any(line.startswith("SCORE") for line in logged)


def test_a_player_that_disconnects_ends_the_match(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    options = options_for("nolimit", match_name="gone", hands=20)

    def leaves_after_a_few_answers(port):
        game = load_game(NOLIMIT)
        with DealerConnection("127.0.0.1", port) as connection:
            connection.send_version()
            answers = 0
            while answers < 5:  # answer a few times, then hang up mid-hand
                line = connection.read_line()
                state = parse_matchstate(game, line)
                if state.is_our_turn:
                    connection.send_line(f"{line}:c")
                    answers += 1

    match = LocalMatch(options)
    match.add_player(0, Scripted([]))
    match.add_player(1, leaves_after_a_few_answers)
    assert match.run() == 1 and match.seconds < 5
    assert "ERROR: could not get action from seat 2" in match.stderr.getvalue() or \
        "ERROR: could not send state to seat 2" in match.stderr.getvalue()


def test_duplicate_mode_repeats_each_deal_with_seats_swapped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    options = options_for("nolimit", match_name="dup", hands=40, duplicate=True)
    match = LocalMatch(options)
    for seat in range(2):
        match.add_player(seat, Scripted([]))  # check/call down: every hand shows down
    assert match.run() == 0
    rows = [line.split(":") for line in (tmp_path / "dup.log").read_text().splitlines()
            if line.startswith("STATE:")]
    for first, second in zip(rows[0::2], rows[1::2]):
        assert first[3] == second[3]                                    # same cards by position
        assert first[5].split("|") == second[5].split("|")[::-1]        # seats swapped
        assert [float(v) for v in first[4].split("|")] == [float(v) for v in second[4].split("|")]
    score = match.stdout.getvalue().splitlines()[-1]
    assert score.startswith("SCORE:0|0:")  # identical play on identical cards cancels exactly


def random_player(seed):
    rng = random.Random(seed)

    def decide(state):
        legal = state.betting.legal_actions()
        roll = rng.random()
        if legal.can_raise and roll < 0.4:
            return raise_to(rng.randint(legal.min_raise_to, legal.max_raise_to))
        if legal.can_fold and roll > 0.9:
            return Action("f")
        return Action("c")

    def run(port):
        with DealerConnection("127.0.0.1", port) as connection:
            connection.send_version()
            play_match(connection, load_game(NOLIMIT), decide, MatchEvents())
    return run


def test_gambler_dealer_command_plays_a_match_and_logs_it(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "gambler.protocol.dealer_cli", "local", NOLIMIT, "300", "7", "alice",
         "bob", "-q"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ports = [int(port) for port in process.stdout.readline().split()]
    threads = [threading.Thread(target=random_player(seat), args=(port,))
               for seat, port in enumerate(ports)]
    for thread in threads:
        thread.start()
    out, err = process.communicate(timeout=120)
    for thread in threads:
        thread.join()
    assert process.returncode == 0, err
    game = load_game(NOLIMIT)
    totals = {"alice": 0.0, "bob": 0.0}
    lines = (tmp_path / "local.log").read_text().splitlines()
    for line in lines:
        if line.startswith("STATE:"):
            _, hand, betting, cards, values, names = line.split(":")
            state = parse_betting(game, betting)
            holes, board = parse_cards_field(game, state.round, cards, line)
            payoffs = state.payoffs(holes, board)
            assert payoffs == tuple(float(v) for v in values.split("|"))
            for name, value in zip(names.split("|"), payoffs):
                totals[name] += value
    assert sum(line.startswith("STATE:") for line in lines) == 300
    score = out.strip().splitlines()[-1]
    assert score == f"SCORE:{totals['alice']:g}|{totals['bob']:g}:alice|bob"
    assert lines[-1] == score and "WARNING" not in err


@pytest.mark.parametrize("argv, message", [
    (["m", NOLIMIT, "10", "1", "only-one"], "has 2 players but 1 names were given"),
    (["m", "nosuch.game", "10", "1", "a", "b"], "no game file 'nosuch.game'"),
    (["m", NOLIMIT, "0", "1", "a", "b"], "HANDS"),
    (["m", NOLIMIT, "10", "1", "a", "b", "-p", "70000"], "bad port string"),
    (["m", NOLIMIT, "-5", "1", "a", "b"],
     "gambler-dealer: error: -5: negative numbers are not accepted here"),
    (["m", NOLIMIT, "5", "-1", "a", "b"],
     "Invalid value for 'SEED': '-1' is not a seed: seeds are whole numbers from 0 to"),
])
def test_bad_arguments_give_one_line(argv, message, tmp_path):
    result = subprocess.run([sys.executable, "-m", "gambler.protocol.dealer_cli", *argv], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("seed", ["abc", "4294967296", "1.5"])
def test_a_bad_seed_has_the_wording_of_every_seed(seed, tmp_path):
    result = subprocess.run([sys.executable, "-m", "gambler.protocol.dealer_cli", "m", NOLIMIT,
                             "10", seed, "a", "b"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"gambler-dealer: error: Invalid value for 'SEED': {seed!r} is not a seed: seeds are "
        "whole numbers from 0 to 4,294,967,295 (see --help)"]


def test_set_up_failures_are_one_error_line_before_any_port(tmp_path):
    dealer = [sys.executable, "-m", "gambler.protocol.dealer_cli"]
    with socket.create_server(("127.0.0.1", 0)) as busy:  # a port in use
        port = busy.getsockname()[1]
        result = subprocess.run([*dealer, "m", NOLIMIT, "10", "1", "a", "b", "-p", f"{port},0"],
                                cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"gambler-dealer: error: could not create listen socket for player 1 on "
        f"127.0.0.1:{port}: Address already in use"]
    result = subprocess.run([*dealer, "nosuch/m", NOLIMIT, "10", "1", "a", "b"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "gambler-dealer: error: cannot write the log nosuch/m.log: No such file or directory"]


def test_same_seed_same_cards_different_seed_different_cards(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    boards = []
    for name, seed in (("one", 11), ("two", 11), ("three", 12)):
        match = LocalMatch(options_for("nolimit", match_name=name, hands=10, seed=seed))
        for seat in range(2):
            match.add_player(seat, Scripted([]))
        assert match.run() == 0
        boards.append([line.split(":")[3] for line in
                       (tmp_path / f"{name}.log").read_text().splitlines()
                       if line.startswith("STATE:")])
    assert boards[0] == boards[1] != boards[2]


def test_ports_can_be_chosen(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    match = LocalMatch(options_for("nolimit", match_name="ports", hands=2, ports=[free, 0]))
    assert match.ports[0] == free and match.stdout.getvalue().split()[0] == str(free)
    for seat in range(2):
        match.add_player(seat, Scripted([]))
    assert match.run() == 0
