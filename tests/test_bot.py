"""The bot at the table: baselines, and `gambler` against `gambler-dealer` over loopback."""

import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest

from acpc_support import LIMIT, NOLIMIT, LocalMatch, replay_player
from gambler.bot.strategies import RandomStrategy, load_strategy
from gambler.protocol import BettingState, load_game, parse_matchstate
from gambler.protocol.matchstate import parse_reply_action
from gambler.protocol.client import ConnectionClosed, LineReader
from gambler.protocol.errors import ProtocolError

GAME = load_game(NOLIMIT)


def state(line):
    return parse_matchstate(GAME, line)


def test_baselines():
    facing = state("MATCHSTATE:0:0:r300:7s5s|")
    assert str(load_strategy("call").act(facing)) == "c"
    assert str(load_strategy("raise").act(facing)) == "r500"
    assert str(load_strategy("allin").act(facing)) == "r20000"
    all_in = state("MATCHSTATE:0:0:r20000:7s5s|")
    assert [str(load_strategy(name).act(all_in)) for name in ("raise", "allin")] == ["c", "c"]


@pytest.mark.parametrize("name, line, action", [
    # Preflop: raises to at most the limit are called, bigger ones only with v >= preflop_call_v.
    ("catcher", "MATCHSTATE:0:0:r300:7s2d|", "c"),
    ("catcher", "MATCHSTATE:0:0:r2000:7s2d|", "f"),
    ("catcher", "MATCHSTATE:0:0:r2000:AsAh|", "c"),
    ("shover", "MATCHSTATE:1:0::|7s2d", "c"),          # the small blind limps
    # Checked to after the flop: the prober bets a quarter pot with v < 0.65 (here the minimum
    # bet, 200, is more than 100 + 200 / 4); with a pot of 600 it bets to 300 + 150 = 450.
    ("prober", "MATCHSTATE:0:4:cc/:7s2d|/AhKd9c", "r200"),
    ("prober", "MATCHSTATE:0:4:r300c/:7s2d|/AhKd9c", "r450"),
    ("prober", "MATCHSTATE:0:4:r300c/:AsAc|/AhKd9c", "c"),  # v >= 0.65: checks
    ("catcher", "MATCHSTATE:0:4:cc/:AsAc|/AhKd9c", "c"),
    # Facing a bet after the flop.
    ("shover", "MATCHSTATE:1:4:cc/r400:|AsAc/AhKd9c", "r20000"),
    ("shover", "MATCHSTATE:1:4:cc/r400:|7s2d/AhKd9c", "f"),
    ("sizer", "MATCHSTATE:1:4:cc/r200:|7s2d/AhKd9c", "r20000"),  # 100 into 200: 0.5 pot
    ("sizer", "MATCHSTATE:1:4:cc/r400:|7s2d/AhKd9c", "f"),       # 300 into 200: 1.5 pots
    ("catcher", "MATCHSTATE:1:4:cc/r400:|AsAc/AhKd9c", "c"),
    ("catcher", "MATCHSTATE:1:4:cc/r400:|7s2d/AhKd9c", "f"),
    ("shover", "MATCHSTATE:0:4:cc/r20000:AsAc|/AhKd9c", "c"),  # all in already: call
])
def test_exploiters_follow_their_rules(name, line, action):
    assert str(load_strategy(name).act(state(line))) == action


def test_random_baseline_mix_and_renormalisation():
    player = RandomStrategy(seed=1)
    facing = state("MATCHSTATE:0:0:r300:7s5s|")   # fold, call and raise all legal
    free = state("MATCHSTATE:0:0:c:7s5s|")        # no fold: call 0.5, raise 0.5
    counts = Counter(player.act(facing).kind for _ in range(20000))
    assert abs(counts["f"] / 20000 - 0.06) < 0.01 and abs(counts["c"] / 20000 - 0.47) < 0.02
    counts = Counter(player.act(free).kind for _ in range(20000))
    assert counts["f"] == 0 and abs(counts["c"] / 20000 - 0.5) < 0.02
    sizes = [player.act(facing).raise_to for _ in range(3000)]
    sizes = [size for size in sizes if size]
    assert min(sizes) >= 500 and max(sizes) <= 20000 and max(sizes) - min(sizes) > 15000
    again, other = RandomStrategy(seed=1), RandomStrategy(seed=1)
    assert ([str(again.act(facing)) for _ in range(50)]
            == [str(other.act(facing)) for _ in range(50)])


def test_profile_strategy_keeps_its_plan_for_the_round():
    strategy = load_strategy("seed")
    first = state("MATCHSTATE:0:4:cc/:AsKh|/AhKd2c")
    plan = strategy.plan_for(first)
    later = state("MATCHSTATE:0:4:cc/r400r1200:AsKh|/AhKd2c")
    assert strategy.plan_for(later) is plan and strategy.plans_made == 1
    strategy.plan_for(state("MATCHSTATE:0:4:cc/r400c/:AsKh|/AhKd2c/3s"))  # the turn: a new plan
    assert strategy.plans_made == 2


def own_actions(betting: str, position: int):
    """The actions `position` took in a hand's betting string, replayed on the rules."""
    game = load_game(NOLIMIT)
    state = BettingState.start(game)
    actions = []
    for round_text in betting.split("/"):
        for token in re.findall(r"[fc]|r\d+", round_text):
            action = parse_reply_action(game, token)
            if state.current_player == position:
                actions.append(action)
            state = state.apply(action)
    return actions


def gambler(*args):
    return [sys.executable, "-m", "gambler.adaptive.cli", *args]


def run_match(tmp_path, first, second, hands=300, seed=5):
    errors = open(tmp_path / "dealer.err", "w")  # a file: a full pipe would stall the dealer
    dealer = subprocess.Popen([sys.executable, "-m", "gambler.protocol.dealer_cli", "m", NOLIMIT,
                               str(hands), str(seed), "one", "two", "-q"], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=errors, text=True)
    ports = dealer.stdout.readline().split()
    bots = [subprocess.Popen(gambler("127.0.0.1", port, "--params", params, "--log",
                                     str(tmp_path / f"bot{seat}.txt")),
                             cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
            for seat, (port, params) in enumerate(zip(ports, (first, second)))]
    outputs = [bot.communicate(timeout=300) for bot in bots]
    dealer_out, _ = dealer.communicate(timeout=60)
    errors.close()
    return dealer, dealer_out, (tmp_path / "dealer.err").read_text(), bots, outputs


@pytest.mark.parametrize("first, second", [("seed", "random"), ("default-v2", "default-v2")])
def test_bot_plays_whole_matches_legally_and_scores_them_like_the_dealer(tmp_path, first, second):
    dealer, out, err, bots, outputs = run_match(tmp_path, first, second)
    assert dealer.returncode == 0 and all(bot.returncode == 0 for bot in bots), (err, outputs)
    assert "WARNING" not in err  # no repaired or invalid action
    logged = [line.split(":") for line in (tmp_path / "m.log").read_text().splitlines()
              if line.startswith("STATE:")]
    assert len(logged) == 300
    for seat in range(2):
        lines = (tmp_path / f"bot{seat}.txt").read_text().splitlines()
        rows = [line.split() for line in lines if not line.startswith(("#", "decision "))]
        assert len(rows) == 300
        # One decision line per action the bot took, in order, naming that action.
        decisions = [line.split() for line in lines if line.startswith("decision ")]
        taken = [(hand, str(action)) for hand, position, _, betting, _ in rows
                 for action in own_actions(betting, int(position))]
        assert [(d[1], d[-1].removeprefix("action=")) for d in decisions] == taken
        if (first, second)[seat] == "default-v2":
            assert all(d[3] in ("preflop", "flop", "turn", "river") and d[4].startswith("v=")
                       and d[5].split("=")[1] in ("give-up", "wait-and-see", "raise-to",
                                                  "bet-to-end") for d in decisions)
        for (hand, position, cards, betting, result), state_line in zip(rows, logged):
            assert (int(hand), betting) == (int(state_line[1]), state_line[2])
            assert float(result) == float(state_line[4].split("|")[int(position)])
            # The bot saw its own cards and the board as dealt, the opponent's only if shown.
            seen_holes, *seen_board = cards.split("/")
            dealt_holes, *dealt_board = state_line[3].split("/")
            assert seen_board == dealt_board
            for seat_seen, seat_dealt in zip(seen_holes.split("|"), dealt_holes.split("|")):
                assert seat_seen in ("", seat_dealt)
            assert seen_holes.split("|")[int(position)] == dealt_holes.split("|")[int(position)]
        summary = outputs[seat][1].strip().splitlines()[-1]
        assert summary.startswith("gambler: 300 hands,") and "latency p50" in summary
    score = out.strip().splitlines()[-1]
    total_one = sum(float(row[4].split("|")[row[5].split("|").index("one")]) for row in logged)
    assert score.startswith(f"SCORE:{total_one:g}|")


def test_connection_refused_is_one_line_and_exit_1():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = subprocess.run(gambler("127.0.0.1", str(port)), capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"gambler: error: cannot connect to 127.0.0.1:{port}: Connection refused"]


@pytest.mark.parametrize("args, message", [
    (["--game", "tests/data/acpc/games/holdem.nolimit.3p.game"], "gambler plays heads-up hold'em"),
    (["--params", "nosuch"], "no profile file 'nosuch'"),
    (["--samples", "0"], "--samples"),
])
def test_bad_options_are_refused_at_start(args, message):
    result = subprocess.run(gambler("127.0.0.1", "9", *args), capture_output=True, text=True,
                            timeout=60)
    assert result.returncode != 0 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


class OneShotDealer:
    """Accepts the bot, reads VERSION, sends `lines`, records the answers, then hangs up (or,
    with `hold`, keeps the connection open until the test sets that event)."""

    def __init__(self, lines, hold=None):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.answers = []
        self.hold = hold
        self.thread = threading.Thread(target=self.serve, args=(lines,), daemon=True)
        self.thread.start()

    def serve(self, lines):
        connection, _ = self.server.accept()
        reader = LineReader(connection)
        try:
            self.version = reader.read_line(timeout=60)
            for line in lines:
                connection.sendall(line.encode() + b"\r\n")
                if line.startswith("MATCHSTATE"):
                    try:
                        our_turn = parse_matchstate(GAME, line).is_our_turn
                    except ProtocolError:
                        our_turn = False
                    if our_turn:
                        self.answers.append(reader.read_line(timeout=60))
            if self.hold is not None:
                self.hold.wait(120)
        except (ConnectionClosed, OSError):
            pass  # the bot stopped: the test checks what it said
        finally:
            connection.close()
            self.server.close()


def play(dealer, *args):
    """`gambler` against a fake dealer: (exit status, stderr lines)."""
    result = subprocess.run(gambler("127.0.0.1", str(dealer.port), *args), capture_output=True,
                            text=True, timeout=120)
    dealer.thread.join(10)
    return result.returncode, result.stderr.strip().splitlines()


OUR_TURN = "MATCHSTATE:0:0:c:AsAh|"                               # seed raises aces to 1341
HAND_OVER = "MATCHSTATE:0:0:cc/cc/cc/cc:AsAh|2c3d/KdQs7h/4c/9s"    # position 0 wins 100


def test_a_state_of_another_game_fails_at_once_naming_the_game():
    # A limit dealer's state (a raise without a size) read by a no-limit bot: it may be the
    # bot's turn, so it stops at once instead of leaving the dealer waiting; one line, no warning
    # or summary before it.
    dealer = OneShotDealer(["MATCHSTATE:0:0:r:4cKs|", "MATCHSTATE:0:0:rr:4cKs|"])
    started = time.perf_counter()
    code, lines = play(dealer, "--params", "seed")
    assert code == 1 and time.perf_counter() - started < 60
    assert lines == [
        "gambler: error: cannot read the dealer's first state: 'MATCHSTATE:0:0:r:4cKs|': betting "
        "'r': raise 'r' needs a size; is the dealer playing the game of --game "
        "(holdem.nolimit.2p.reverse_blinds.game)?"]


def test_one_malformed_line_in_a_match_is_skipped_with_one_warning_and_exit_0():
    dealer = OneShotDealer([OUR_TURN,
                            "MATCHSTATE 0 0 cc 7s5s",     # not a state line: skipped
                            "MATCHSTATE:0:0:cr:AsAh|",    # a state that does not parse: skipped
                            HAND_OVER])
    code, lines = play(dealer, "--params", "seed")
    assert code == 0, lines
    assert dealer.version == "VERSION:2.0.0"
    assert dealer.answers == ["MATCHSTATE:0:0:c:AsAh|:r1341"]  # aces raise (seed, preflop)
    assert lines[0] == f"gambler: playing seed with exact win rates at 127.0.0.1:{dealer.port}"
    assert lines[1:3] == [
        "gambler: warning: skipped a malformed line: 'MATCHSTATE 0 0 cc 7s5s' is not "
        "MATCHSTATE:<position>:<hand>:<betting>:<cards>",
        "gambler: warning: skipped a malformed line: 'MATCHSTATE:0:0:cr:AsAh|': betting 'cr': "
        "raise 'r' needs a size"]
    assert lines[3].startswith("gambler: 1 hands, +100 chips, +1,000.0 mbb/hand; 1 decisions,")
    assert lines[3].endswith("; 2 malformed lines skipped, 0 bad decisions") and len(lines) == 4


def test_three_unreadable_states_in_a_row_stop_the_match_naming_the_game():
    unreadable = [f"MATCHSTATE:0:{hand}:r:AsAh|" for hand in (1, 2, 3)]
    dealer = OneShotDealer([OUR_TURN, HAND_OVER, *unreadable, HAND_OVER])
    code, lines = play(dealer, "--params", "seed")
    assert code == 1
    assert lines[1:3] == [f"gambler: warning: skipped a malformed line: {line!r}: betting 'r': "
                          "raise 'r' needs a size" for line in unreadable[:2]]
    assert lines[3].startswith("gambler: 1 hands, +100 chips")  # the match had begun
    assert lines[4:] == [
        "gambler: error: cannot read the dealer's state 3 times in a row, the last: "
        "'MATCHSTATE:0:3:r:AsAh|': betting 'r': raise 'r' needs a size; is the dealer playing "
        "the game of --game (holdem.nolimit.2p.reverse_blinds.game)?"]


def dealer_options(tmp_path, game_file, hands, **changes):
    """The in-process dealer's options for a match of `hands` hands, seat 1 the bot under test."""
    from gambler.protocol.dealer import DealerOptions

    return DealerOptions(match_name=str(tmp_path / "m"), game_file=game_file,
                         game=load_game(game_file), hands=hands, seed=3, names=["bot", "other"],
                         quiet=True, **changes)


def test_a_no_limit_bot_at_a_limit_dealer_stops_within_seconds_naming_the_game(tmp_path):
    # The real dealer plays limit, the bot is left on its no-limit default. A limit hand's first
    # state reads the same under both games, so the match begins; the other seat's first raise
    # ('r', no size) is a state the bot cannot read, on its turn, and the dealer then waits for
    # its answer (here up to 60 s): the bot stops STALL_SECONDS (5) later, naming --game.
    from gambler.protocol.betting import CALL_ACTION, RAISE, Action

    limit = load_game(LIMIT)
    match = LocalMatch(dealer_options(tmp_path, LIMIT, hands=100, t_response_ms=60_000))
    match.add_player(1, replay_player(limit, lambda state: Action(RAISE)
                                      if state.betting.legal_actions().can_raise
                                      else CALL_ACTION))
    dealer = threading.Thread(target=match.run, daemon=True)
    dealer.start()
    bot = subprocess.Popen(gambler("127.0.0.1", str(match.ports[0])), stderr=subprocess.PIPE,
                           text=True)
    try:
        first = bot.stderr.readline()  # "gambler: playing ...": its first state was read
        began = time.monotonic()
        rest = bot.stderr.read().splitlines()
        code = bot.wait(timeout=120)
        seconds = time.monotonic() - began
    finally:
        bot.kill()
        bot.wait()
    dealer.join(30)
    assert first.startswith("gambler: playing default with exact win rates at 127.0.0.1:")
    assert code == 1 and seconds < 20, (code, seconds)  # not the dealer's 60 s
    assert [line for line in rest if "--game" in line] == [rest[-1]]
    assert rest[-1].startswith("gambler: error: cannot read the dealer's state, and it has sent "
                               "nothing for 5 s since (it waits for our answer): "
                               "'MATCHSTATE:0:0:r:")
    assert rest[-1].endswith("': betting 'r': raise 'r' needs a size; is the dealer playing the "
                             "game of --game (holdem.nolimit.2p.reverse_blinds.game)?")
    assert rest[-2].startswith("gambler: 0 hands, +0 chips")  # the summary: the match had begun
    assert not [line for line in rest if "warning" in line or "Traceback" in line]
    assert match.status == 1 and "could not get action from seat 1: the connection closed" in \
        match.stderr.getvalue()


def test_one_garbled_line_from_the_real_dealer_is_skipped_and_the_match_played_out(tmp_path,
                                                                                   monkeypatch):
    # The real dealer, made to send the bot once an extra, garbled copy of a state where it is
    # the bot's turn (in hand 1, just before the state itself): the copy may be the bot's turn,
    # but the dealer sends on at once, so it is skipped with one warning; the bot answers the
    # state and plays every hand.
    from gambler.protocol.betting import CALL_ACTION
    from gambler.protocol.dealer import Dealer

    garbled = []
    send = Dealer._send

    def send_with_one_garbled_copy(dealer, seat, line):
        if seat == 0 and not garbled:
            view = parse_matchstate(dealer.game, line)
            if view.hand == 1 and view.is_our_turn:
                garbled.append(line + "Zz")
                send(dealer, seat, garbled[0])
        return send(dealer, seat, line)

    monkeypatch.setattr(Dealer, "_send", send_with_one_garbled_copy)
    match = LocalMatch(dealer_options(tmp_path, NOLIMIT, hands=10))
    match.add_player(1, replay_player(GAME, lambda state: CALL_ACTION))
    bot = subprocess.Popen(gambler("127.0.0.1", str(match.ports[0]), "--params", "seed"),
                           stderr=subprocess.PIPE, text=True)
    try:
        status = match.run()
        _, errors = bot.communicate(timeout=120)
    finally:
        bot.kill()
        bot.wait()
    lines = errors.splitlines()
    assert status == 0 and bot.returncode == 0, (match.stderr.getvalue(), lines)
    assert len(garbled) == 1 and lines[0].startswith("gambler: playing seed")
    assert lines[1].startswith(f"gambler: warning: skipped a malformed line: {garbled[0]!r}: "
                               "cards ")
    assert lines[2].startswith("gambler: 10 hands, ")
    assert lines[2].endswith("; 1 malformed lines skipped, 0 bad decisions") and len(lines) == 3


@pytest.mark.parametrize("lines, message", [
    ([], "closed the connection without sending a single state: is it an ACPC dealer?"),
    (["HTTP/1.1 400 Bad Request"], "sent 'HTTP/1.1 400 Bad Request' where an ACPC dealer sends "
                                   "its first MATCHSTATE line: is it an ACPC dealer?"),
])
def test_a_server_that_sends_no_state_gets_the_error_line_alone(lines, message):
    dealer = OneShotDealer(lines)
    code, stderr = play(dealer)  # not --quiet: still nothing but the error
    assert code == 1
    assert stderr == [f"gambler: error: 127.0.0.1:{dealer.port} {message}"]


def test_ctrl_c_prints_the_summary_then_exits_130(tmp_path):
    import signal

    from conftest import interruptible

    hold = threading.Event()
    dealer = OneShotDealer([OUR_TURN, HAND_OVER], hold=hold)
    log = tmp_path / "hands.txt"
    bot = subprocess.Popen(gambler("127.0.0.1", str(dealer.port), "--params", "seed", "--log",
                                   str(log)), stderr=subprocess.PIPE, text=True, **interruptible())
    try:
        deadline = time.monotonic() + 120
        # The log is flushed as each hand ends: its line means the bot has scored the hand.
        while not (log.exists() and "\n0 0 " in log.read_text()):
            assert time.monotonic() < deadline and bot.poll() is None
            time.sleep(0.05)
        bot.send_signal(signal.SIGINT)
        _, stderr = bot.communicate(timeout=60)
    finally:
        hold.set()
        if bot.poll() is None:
            bot.kill()
    lines = stderr.strip().splitlines()
    assert bot.returncode == 130, stderr
    assert lines[-2].startswith("gambler: 1 hands, +100 chips, +1,000.0 mbb/hand; 1 decisions"), stderr
    assert lines[-1] == "gambler: error: interrupted" and len(lines) == 3


@pytest.mark.parametrize("target, message", [
    ("missing/hands.txt", "missing/hands.txt: the folder {folder}/missing does not exist"),
    (".", ". is a folder, not a file"),
])
def test_a_log_that_cannot_be_written_is_refused_before_connecting(tmp_path, target, message):
    with socket.socket() as probe:  # nobody listens here: connecting would fail differently
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = subprocess.run(gambler("127.0.0.1", str(port), "--log", target), cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"gambler: error: Invalid value for --log: {message.format(folder=tmp_path)} "
        "(see --help)"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root may write anywhere")
def test_a_log_in_a_read_only_folder_is_refused_before_connecting(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        result = subprocess.run(gambler("127.0.0.1", "9", "--log", str(folder / "hands.txt")),
                                capture_output=True, text=True, timeout=60)
    finally:
        folder.chmod(0o700)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"gambler: error: Invalid value for --log: {folder}/hands.txt: cannot write in the "
        f"folder {folder} (see --help)"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_log_write_that_fails_mid_match_is_one_line_naming_the_file():
    # /dev/full accepts the open and fails every write with ENOSPC: a full disk.
    dealer = OneShotDealer([OUR_TURN, HAND_OVER, "MATCHSTATE:1:1::|7s2d"])
    code, lines = play(dealer, "--params", "seed", "--quiet", "--log", "/dev/full")
    assert code == 1
    assert lines[-1] == "gambler: error: cannot write the log /dev/full: No space left on device"
    assert lines[0].startswith("gambler: 1 hands,") and len(lines) == 2
    assert not any("internal error" in line for line in lines)


def test_help_lists_every_shipped_profile_baseline_and_exploiter():
    from pathlib import Path

    from gambler.bot.exploiters import shipped_exploiter_names
    from gambler.bot.strategies import BASELINES

    shipped = Path(__file__).resolve().parent.parent / "configs" / "params"
    names = sorted(path.stem for path in shipped.glob("*.yaml"))
    assert {"default", "seed", "price-aware"} <= set(names)
    result = subprocess.run(gambler("--help"), capture_output=True, text=True, timeout=60)
    line = " ".join(result.stdout.split()).replace("- ", "-")  # undo the wrapping (and
    # click's breaks after a hyphen: "price-\naware")
    assert f"a shipped name ({', '.join(names)})" in line
    assert f"a baseline ({', '.join(BASELINES)})" in line
    assert shipped_exploiter_names() == ["catcher", "prober", "shover", "sizer"]
    assert "an exploiter (catcher, prober, shover, sizer)" in line


def test_summary_uses_thousands_separators():
    from gambler.bot.player import MatchRecord

    record = MatchRecord(big_blind=100, hands=1000, chips=1577252.0,
                         latencies=[0.001] * 1949 + [0.0125], rounds=[0] * 1000 + [1] * 950,
                         bad_lines=1200, finished=None)
    record.started, record.finished = 0.0, 3.95
    assert record.summary() == (
        "1,000 hands, +1,577,252 chips, +15,772.5 mbb/hand; 1,950 decisions, latency p50 "
        "1.000 ms, p99 1.000 ms (flop 1.000), max 12.500 ms; 3.95 ms/hand; 1,200 malformed "
        "lines skipped, 0 bad decisions")


def test_latency_quantiles_by_round():
    """p99 of 100 decisions is the 99th smallest (index round(0.99 x 99) = 98); a round's
    quantile looks at that round's decisions only."""
    from gambler.bot.player import MatchRecord

    record = MatchRecord(big_blind=100, latencies=[k / 1000 for k in range(1, 101)] + [1.0],
                         rounds=[1] * 100 + [0])
    assert record.latency_ms(0.99, 1) == pytest.approx(99.0)
    assert record.latency_ms(1.0) == pytest.approx(1000.0)
    assert record.latency_ms(0.5, 3) == 0.0


def test_losing_the_dealer_mid_hand_exits_1():
    dealer = OneShotDealer(["MATCHSTATE:0:0:c:AsAh|"])
    result = subprocess.run(gambler("127.0.0.1", str(dealer.port), "--quiet"),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == \
        "gambler: error: the connection was lost during hand 0"


def explain(capsys, *argv):
    from gambler.bot.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["--explain", *argv])
    captured = capsys.readouterr()
    return exit_.value.code, captured.out, captured.err


V_ASKC_QH7C2D = 589791 / 1070190 - 468930 / 1070190  # exact, tests/test_win_rate.py


def test_explain_a_version_1_decision_worked_by_hand(capsys):
    from gambler.bot.params import load_profile

    flop = load_profile("seed").rounds[1]
    v = V_ASKC_QH7C2D
    call_limit = int(sum(c * v ** k for k, c in enumerate(flop.call)))
    raise_target = int(sum(c * v ** k for k, c in enumerate(flop.raise_)))
    x, y, z = flop.thresholds
    assert x <= v < y  # wait and see: call unless the opponent's total passes U
    code, out, err = explain(capsys, "MATCHSTATE:1:12:cr300c/r600:|AsKc/Qh7c2d", "--params",
                             "seed")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "seed, hand 12, position 1, flop: cards |AsKc/Qh7c2d, betting cr300c/r600",
        f"  v {v:+.4f}", "  mode wait-and-see", f"  U {call_limit}", f"  T {raise_target}",
        "  pot 900", "  to_call 300", "  raise_range 900..20000",
        f"  action {'c' if 600 <= call_limit else 'f'}"]


@pytest.mark.parametrize("bet, action", [(700, "c"), (2300, "f")])
def test_explain_a_price_aware_decision(capsys, bet, action):
    # Ks2s on Qh7c2d: wait and see for the price-aware profile, so it calls exactly when its
    # equity (1 + v) / 2 is at least the price to_call / (pot + to_call) plus the flop's margin.
    from gambler.bot.params import load_profile
    from gambler.evaluator import win_rate

    flop = load_profile("price-aware").rounds[1]
    v = win_rate("Ks2s", "Qh7c2d").v
    assert flop.thresholds[0] <= v < flop.thresholds[1]
    to_call, pot = bet - 300, 300 + bet
    price = to_call / (pot + to_call)
    code, out, _ = explain(capsys, f"MATCHSTATE:1:12:cr300c/r{bet}:|Ks2s/Qh7c2d", "--params",
                           "price-aware")
    fields = dict(line.split() for line in out.splitlines()[1:])
    assert code == 0
    assert (fields["mode"], fields["pot"], fields["to_call"]) == ("wait-and-see", str(pot),
                                                                  str(to_call))
    assert fields["price"] == f"{price:.4f}" and fields["margin"] == f"{flop.price_margin:.4f}"
    assert fields["equity"] == f"{(1 + v) / 2:.4f}"
    assert fields["action"] == ("f" if (1 + v) / 2 < price + flop.price_margin else "c") == action


@pytest.mark.parametrize("argv, message", [
    (["MATCHSTATE:0:12:cr300c/r600:AsKc|/Qh7c2d"], "not our turn (position 0)"),
    (["MATCHSTATE:0:12:crX:AsKc|/Qh7c2d"], "betting 'cr': raise 'r' needs a size"),
    (["MATCHSTATE:1:12:cr300c/r600:|AsKc/Qh7c2d", "127.0.0.1"], "--explain takes no HOST"),
])
def test_explain_refuses_bad_input_in_one_line(capsys, argv, message):
    code, out, err = explain(capsys, *argv)
    assert code != 0 and out == "" and message in err and len(err.splitlines()) == 1


def test_explain_a_range_aware_decision(capsys):
    # The opponent (position 0) raised preflop and on the flop: the narrowing profile plans with
    # v against its range narrowed by both raises, and the line shows both v's.
    import numpy as np

    from gambler.bot.automaton import mode_for, MODE_KEYS
    from gambler.bot.params import load_profile
    from gambler.evaluator import parse_cards, win_rate
    from gambler.evaluator.narrowing import holding_preflop_v, range_aware_v
    from gambler.evaluator.tables import load_tables

    narrow = "tests/data/profiles/v2-narrow.yaml"
    profile = load_profile(narrow)
    expected = range_aware_v(load_tables(), parse_cards("Ks2s"), parse_cards("Qh7c2d"),
                             holding_preflop_v(), 0b11, np.array(profile.keep))
    code, out, _ = explain(capsys, "MATCHSTATE:1:12:cr300c/r700:|Ks2s/Qh7c2d", "--params", narrow)
    fields = dict(line.split() for line in out.splitlines()[1:])
    assert code == 0
    assert fields["v"] == f"{win_rate('Ks2s', 'Qh7c2d').v:+.4f}"
    assert fields["v_range"] == f"{expected:+.4f}" and expected < win_rate("Ks2s", "Qh7c2d").v
    assert fields["mode"] == MODE_KEYS[mode_for(profile.rounds[1].thresholds, expected)]
    # Without a raise by the opponent there is nothing to narrow: the plain v alone.
    code, out, _ = explain(capsys, "MATCHSTATE:1:12:cc/c:|Ks2s/Qh7c2d", "--params", narrow)
    assert "v_range" not in out and code == 0
