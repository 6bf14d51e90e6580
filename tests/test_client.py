"""The client: line framing over TCP, the version handshake, and never an illegal action."""

import socket
import threading
import time

import pytest

from acpc_support import LIMIT, NOLIMIT, transcript
from gambler.protocol import Action, ProtocolError, load_game, parse_matchstate, raise_to
from gambler.protocol.errors import NotADealerError, UnreadableStateError
from gambler.protocol import client
from gambler.protocol.client import (MAX_UNREADABLE_STATES, VERSION_LINE, ConnectionClosed,
                                     DealerConnection, LineReader, LineTimeout, MatchEvents,
                                     may_be_our_turn, play_match)

GAME = load_game(NOLIMIT)


def test_lines_survive_any_packet_boundaries():
    left, right = socket.socketpair()
    reader = LineReader(right)
    payload = b"first\r\nsecond line\r\n\r\nthird\nfourth\r\n"
    for start in range(0, len(payload), 3):  # three bytes at a time
        left.sendall(payload[start:start + 3])
        time.sleep(0.001)
    left.sendall(b"merged one\r\nmerged two\r\npartial")
    left.close()
    lines = [reader.read_line(timeout=1) for _ in range(7)]
    assert lines == ["first", "second line", "", "third", "fourth", "merged one", "merged two"]
    with pytest.raises(ConnectionClosed):
        reader.read_line(timeout=1)


def test_read_times_out():
    left, right = socket.socketpair()
    with pytest.raises(LineTimeout):
        LineReader(right).read_line(timeout=0.05)
    left.close()


class FakeDealer:
    """Listens once, records what the client sends, and plays back given lines (a number among
    them: that many seconds of silence); then hangs up, or with `hold` waits for the client to."""

    def __init__(self, lines, hold=False):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.lines = lines
        self.hold = hold
        self.received = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        connection, _ = self.server.accept()
        try:
            reader = LineReader(connection)
            self.received.append(reader.read_line(timeout=5))  # the version
            for line in self.lines:
                if not isinstance(line, str):
                    time.sleep(line)
                    continue
                connection.sendall(line.encode() + b"\r\n")
                if line.startswith("MATCHSTATE") and self._expects_answer(line):
                    self.received.append(reader.read_line(timeout=5))
            while self.hold:
                self.received.append(reader.read_line(timeout=60))
        except (ConnectionClosed, OSError):
            pass  # the client stopped: the test checks what it received until then
        finally:
            connection.close()
            self.server.close()

    @staticmethod
    def _expects_answer(line):
        from gambler.protocol import ProtocolError, parse_matchstate
        try:
            return parse_matchstate(GAME, line).is_our_turn
        except ProtocolError:
            return False


def run_client(lines, decide, events=None, hold=False):
    dealer = FakeDealer(lines, hold)
    with DealerConnection("127.0.0.1", dealer.port) as connection:
        connection.send_version()
        events = play_match(connection, GAME, decide, events or MatchEvents())
    dealer.thread.join(5)
    return dealer.received, events


def test_answers_echo_the_line_and_skip_comments_and_others_turns():
    lines = ["# comment from the dealer", "; another",
             "MATCHSTATE:1:0::|3c6h",          # our turn (small blind acts first)
             "MATCHSTATE:1:0:c:|3c6h",         # the big blind's turn: no answer
             "MATCHSTATE:1:0:cr300:|3c6h"]     # ours again
    received, events = run_client(lines, lambda state: Action("c"))
    assert received == [VERSION_LINE, "MATCHSTATE:1:0::|3c6h:c", "MATCHSTATE:1:0:cr300:|3c6h:c"]
    assert events.answered == 2


def test_lines_that_are_not_states_are_reported_and_skipped():
    bad = []
    events = MatchEvents(on_bad_line=lambda line, error: bad.append((line, str(error))))
    received, _ = run_client(["MATCHSTATE:1:0:c:|3c6h", "garbage", "MATCH STATE",
                              "MATCHSTATE:1:0::|3c6h"], lambda state: Action("c"), events)
    assert received[-1] == "MATCHSTATE:1:0::|3c6h:c"
    assert [line for line, _ in bad] == ["garbage", "MATCH STATE"]


def test_an_unreadable_first_state_stops_the_client_at_once():
    # It might be our turn: skipping it would leave the dealer waiting for an answer, and a
    # first state that does not parse means the dealer plays another game. Not reported as a
    # skipped line: the error says it all.
    bad = []
    events = MatchEvents(on_bad_line=lambda line, error: bad.append(line))
    with pytest.raises(UnreadableStateError) as error:
        run_client(["# hello", "MATCHSTATE:1:0:zz:|3c6h", "MATCHSTATE:1:0::|3c6h"],
                   lambda state: Action("c"), events)
    assert str(error.value).startswith(
        "cannot read the dealer's first state: 'MATCHSTATE:1:0:zz:|3c6h'")
    assert bad == []


def test_a_first_line_that_is_not_a_state_is_not_a_dealer():
    bad = []
    events = MatchEvents(on_bad_line=lambda line, error: bad.append(line))
    with pytest.raises(NotADealerError) as error:
        run_client(["SSH-2.0-OpenSSH_9.6", "MATCHSTATE:1:0::|3c6h"], lambda state: Action("c"),
                   events)
    assert str(error.value) == ("sent 'SSH-2.0-OpenSSH_9.6' where an ACPC dealer sends its first "
                                "MATCHSTATE line")
    assert bad == [] and events.last_state is None


def test_one_unreadable_state_in_a_match_is_skipped_and_the_match_goes_on():
    bad = []
    events = MatchEvents(on_bad_line=lambda line, error: bad.append(line))
    received, events = run_client(["MATCHSTATE:1:0::|3c6h",       # ours: answered
                                   "MATCHSTATE:1:0:cr:|3c6h",      # a raise without a size
                                   "MATCHSTATE:1:0:cr300:|3c6h"],  # ours again: answered
                                  lambda state: Action("c"), events)
    assert received == [VERSION_LINE, "MATCHSTATE:1:0::|3c6h:c", "MATCHSTATE:1:0:cr300:|3c6h:c"]
    assert bad == ["MATCHSTATE:1:0:cr:|3c6h"] and events.answered == 2


def test_unreadable_states_in_a_row_stop_the_client():
    assert MAX_UNREADABLE_STATES == 3
    unreadable = [f"MATCHSTATE:1:{hand}:cr:|3c6h" for hand in range(1, 4)]
    # Two in a row, a readable state, two more: skipped, the count starts again.
    bad = []
    events = MatchEvents(on_bad_line=lambda line, error: bad.append(line))
    received, events = run_client(["MATCHSTATE:1:0::|3c6h", *unreadable[:2],
                                   "MATCHSTATE:1:4:c:|3c6h", *unreadable[:2],
                                   "MATCHSTATE:1:5::|3c6h"],
                                  lambda state: Action("c"), events)
    assert bad == unreadable[:2] * 2 and received[-1] == "MATCHSTATE:1:5::|3c6h:c"
    # Three in a row (comments and other lines between them do not count): stopped at the third,
    # which is not reported as skipped.
    bad = []
    events = MatchEvents(on_bad_line=lambda line, error: bad.append(line))
    with pytest.raises(UnreadableStateError) as error:
        run_client(["MATCHSTATE:1:0::|3c6h", unreadable[0], "# note", "garbage", *unreadable[1:],
                    "MATCHSTATE:1:4::|3c6h"], lambda state: Action("c"), events)
    assert str(error.value).startswith(
        "cannot read the dealer's state 3 times in a row, the last: 'MATCHSTATE:1:3:cr:|3c6h'")
    assert bad == [unreadable[0], "garbage", unreadable[1]]


def test_silence_after_an_unreadable_state_on_our_turn_stops_the_client(monkeypatch):
    # A limit dealer's raise read under no-limit: our turn by its letters (the small blind
    # called, the big blind raised), and the dealer, waiting for our answer, sends nothing more.
    # Stopped STALL_SECONDS later; the line is not reported as skipped: the error says it all.
    monkeypatch.setattr(client, "STALL_SECONDS", 0.2)
    bad = []
    events = MatchEvents(on_bad_line=lambda line, error: bad.append(line))
    with pytest.raises(UnreadableStateError) as error:
        run_client(["MATCHSTATE:1:0::|3c6h", "MATCHSTATE:1:0:cr:|3c6h"],
                   lambda state: Action("c"), events, hold=True)
    assert str(error.value) == (
        "cannot read the dealer's state, and it has sent nothing for 0.2 s since (it waits for "
        "our answer): 'MATCHSTATE:1:0:cr:|3c6h': betting 'cr': raise 'r' needs a size")
    assert bad == []


def test_silence_after_an_unreadable_state_on_the_others_turn_is_waited_out(monkeypatch):
    # Our raise echoed without its size, the other seat to act: it may think as long as the
    # dealer lets it (here five times STALL_SECONDS); the line is skipped when the dealer sends
    # again, and the match goes on.
    monkeypatch.setattr(client, "STALL_SECONDS", 0.2)
    bad = []
    events = MatchEvents(on_bad_line=lambda line, error: bad.append(line))
    received, events = run_client(
        ["MATCHSTATE:1:0::|3c6h", "MATCHSTATE:1:0:r:|3c6h", 1.0, "MATCHSTATE:1:0:r300r900:|3c6h"],
        lambda state: Action("c") if state.betting.actions[0] else raise_to(300), events)
    assert bad == ["MATCHSTATE:1:0:r:|3c6h"]
    assert received == [VERSION_LINE, "MATCHSTATE:1:0::|3c6h:r300",
                        "MATCHSTATE:1:0:r300r900:|3c6h:c"]


@pytest.mark.parametrize("game, line, expected", [
    # A limit line under no-limit: the river after check, raise; the big blind (0) acts first.
    (NOLIMIT, "MATCHSTATE:0:0:cc/cc/cc/cr:8s2h|/7hAdTd/4s/Kc", True),
    (NOLIMIT, "MATCHSTATE:1:0:cc/cc/cc/cr:|Kd5c/7hAdTd/4s/Kc", False),
    (NOLIMIT, "MATCHSTATE:0:0:r:4cKs|", True),        # preflop: the small blind (1) first
    (NOLIMIT, "MATCHSTATE:1:0:r:|4cKs", False),
    (NOLIMIT, "MATCHSTATE:1:0:rf:|4cKs", False),      # a fold: the hand is over
    (NOLIMIT, "MATCHSTATE:0:0:cc/cc/cc/rc:8s2h|/7hAdTd/4s/Kc", False),  # the river closed
    (NOLIMIT, "MATCHSTATE:0:0:rc:4cKs|", True),       # closed, no '/' after it: cannot tell
    (NOLIMIT, "MATCHSTATE:1:0:zz:|4cKs", True),       # letters that are not actions
    (NOLIMIT, "MATCHSTATE:x:0:r:4cKs|", True),        # no position
    # A no-limit line under limit.
    (LIMIT, "MATCHSTATE:0:0:r300:4cKs|", True),
    (LIMIT, "MATCHSTATE:1:0:r300:|4cKs", False),
])
def test_an_unreadable_states_turn_is_told_from_its_letters_or_else_assumed(game, line,
                                                                            expected):
    game = load_game(game)
    with pytest.raises(ProtocolError):
        parse_matchstate(game, line)
    assert may_be_our_turn(game, line) is expected


def test_connection_errors_are_gambler_errors_but_not_bad_input():
    from gambler.errors import GamblerError
    from gambler.protocol import MatchError, ProtocolError
    from gambler.protocol.dealer import MatchFailed

    for kind in (ConnectionClosed, LineTimeout, MatchFailed):
        assert issubclass(kind, MatchError) and issubclass(kind, GamblerError)
        assert not issubclass(kind, (ProtocolError, ValueError))
    left, right = socket.socketpair()
    with pytest.raises(GamblerError, match=r"no complete line within 0\.05 s"):
        LineReader(right).read_line(timeout=0.05)
    left.close()


@pytest.mark.parametrize("decision", [
    Action("f"),                # fold when checking is free
    raise_to(150),              # below the minimum raise
    raise_to(25000),            # above the stack
    "not an action",            # nonsense
    ZeroDivisionError,          # the strategy crashes
])
def test_a_bad_decision_never_reaches_the_dealer(decision):
    def decide(state):
        if decision is ZeroDivisionError:
            raise ZeroDivisionError("strategy bug")
        return decision

    problems = []
    events = MatchEvents(on_bad_decision=lambda state, error: problems.append(error))
    # Position 0 after the small blind's limp: checking is free.
    received, _ = run_client(["MATCHSTATE:0:0:c:7s5s|"], decide, events)
    assert received == [VERSION_LINE, "MATCHSTATE:0:0:c:7s5s|:c"] and len(problems) == 1


def test_a_whole_transcript_is_answered_as_recorded():
    """Seat 2's side of the recorded no-limit match, answered with the recorded actions."""
    rows = transcript("nolimit")
    to_seat = [line for direction, seat, line in rows if direction == "TO" and seat == 2][:400]
    answers = {line.rpartition(":")[0]: line.rpartition(":")[2]
               for direction, seat, line in rows if direction == "FROM" and seat == 2}
    from gambler.protocol.matchstate import parse_reply_action

    received, events = run_client(to_seat, lambda state: parse_reply_action(
        GAME, answers[state.encode()]))
    expected = [f"{line}:{answers[line]}" for line in to_seat if line in answers]
    assert received[1:] == expected and events.answered == len(expected)
