"""The player's side of an ACPC connection: TCP, the version handshake, and the answer loop.

The ACPC rules for a client (protocol version 2.0.0):

1. Connect; do any slow start-up (numba, tables) *before* sending `VERSION:2.0.0\\r\\n`, which the
   dealer awaits without a time limit, while every answer later runs against the clock.
2. Read `\\r\\n`-terminated lines (TCP may split one line over several reads or merge several into
   one); ignore lines that begin with `#` or `;`.
3. Rebuild the whole hand from each MATCHSTATE line; answer only when it is our turn, with the
   line exactly as received, `:`, the action, `\\r\\n`, sent at once.
4. End of stream ends the match.

Lines that cannot be read (our additions; the ACPC client has no such rules):

5. Before the first state: a line that is not a MATCHSTATE line stops the match at once
   (`NotADealerError`: the other side is not an ACPC dealer), and so does a MATCHSTATE line that
   does not parse under our game (`UnreadableStateError`: the dealer plays another game).
6. After it, a malformed line is reported and skipped: one garbled line does not end a match.
   `MAX_UNREADABLE_STATES` (3) MATCHSTATE lines in a row that do not parse stop it
   (`UnreadableStateError`), the last one unreported: a dealer that sends those plays another
   game. So does one that may be our turn (its action letters do not show the other seat to act
   or the hand over) if the dealer then sends nothing for `STALL_SECONDS` (5): it waits for our
   answer to a state we cannot read, as a dealer of another game does at its first raise (a
   limit hand's first state reads the same under a no-limit game). Such a line is reported only
   once the dealer sends on.

`LineReader` (also used by the dealer) does the line framing; `play_match` the loop, with the
decision left to a callback, so that this module knows nothing of any strategy.
"""

from __future__ import annotations

import re
import select
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gambler.protocol.betting import CALL_ACTION, Action
from gambler.protocol.errors import (ConnectionClosed, LineTimeout, NotADealerError, ProtocolError,
                                     UnreadableStateError)
from gambler.protocol.gamedef import Game
from gambler.protocol.matchstate import MatchState, parse_matchstate

VERSION_LINE = "VERSION:2.0.0"
MAX_LINE_BYTES = 1 << 16
#: MATCHSTATE lines in a row that do not parse under the game, after the first state, at which
#: `play_match` stops instead of skipping them (the first state stops it at once).
MAX_UNREADABLE_STATES = 3
#: Seconds of silence after an unreadable MATCHSTATE line that may be our turn at which
#: `play_match` stops: the dealer is waiting for an answer we cannot give.
STALL_SECONDS = 5.0


class LineReader:
    """`\\n`-terminated lines from a socket (a trailing `\\r` is dropped), whatever the packets."""

    def __init__(self, sock: socket.socket):
        self._socket = sock
        self._buffer = bytearray()

    def read_line(self, timeout: float | None = None) -> str:
        """The next line without its ending. `ConnectionClosed` at end of stream (a partial last
        line is dropped), `LineTimeout` if `timeout` seconds pass first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                return raw.rstrip(b"\r").decode("ascii", errors="replace")
            if len(self._buffer) > MAX_LINE_BYTES:
                raw = bytes(self._buffer)
                self._buffer.clear()
                return raw.decode("ascii", errors="replace")  # garbage: let the parser refuse it
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise LineTimeout(f"no complete line within {timeout:g} s")
                ready, _, _ = select.select([self._socket], [], [], left)
                if not ready:
                    raise LineTimeout(f"no complete line within {timeout:g} s")
            try:
                chunk = self._socket.recv(65536)
            except (ConnectionResetError, ConnectionAbortedError, OSError) as error:
                raise ConnectionClosed(str(error)) from None
            if not chunk:
                raise ConnectionClosed("end of stream")
            self._buffer.extend(chunk)


class DealerConnection:
    """A player's TCP connection to a dealer."""

    def __init__(self, host: str, port: int, connect_timeout: float = 30.0):
        self.socket = socket.create_connection((host, port), timeout=connect_timeout)
        self.socket.settimeout(None)
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = LineReader(self.socket)

    def send_line(self, text: str) -> None:
        self.socket.sendall(text.encode("ascii") + b"\r\n")

    def send_version(self) -> None:
        self.send_line(VERSION_LINE)

    def read_line(self, timeout: float | None = None) -> str:
        """The next line; `LineTimeout` if `timeout` seconds pass first (None: no limit)."""
        return self.reader.read_line(timeout)

    def close(self) -> None:
        try:
            self.socket.close()
        except OSError:
            pass

    def __enter__(self) -> DealerConnection:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass
class MatchEvents:
    """What the answer loop reports; every callback is optional."""

    on_hand_end: Callable[[MatchState], None] | None = None   # a hand's final state
    on_bad_line: Callable[[str, ProtocolError], None] | None = None  # skipped line
    on_bad_decision: Callable[[MatchState, Exception], None] | None = None  # replaced by a call
    on_first_state: Callable[[MatchState], None] | None = None  # the match has begun
    answered: int = field(default=0)  # actions sent
    last_state: MatchState | None = None  # the last well-formed state received


def play_match(connection: DealerConnection, game: Game,
               decide: Callable[[MatchState], Action],
               events: MatchEvents | None = None) -> MatchEvents:
    """Answer the dealer until it closes the connection; returns the events record.

    `decide` gets each state where it is our turn and returns an action. The action is checked
    against the rules before it is sent: if `decide` fails or returns an illegal action, the
    error is reported and a check/call (always legal) is sent instead, so no illegal action ever
    leaves this function. Unreadable lines follow rules 5 and 6 of the module docstring: before
    the first state they raise (`NotADealerError`, `UnreadableStateError`); after it they are
    reported and skipped, unless `MAX_UNREADABLE_STATES` MATCHSTATE lines in a row do not parse,
    or the dealer sends nothing for `STALL_SECONDS` after one that may be our turn, which raise
    `UnreadableStateError` without reporting the last one.
    """
    events = events or MatchEvents()
    unreadable_states = 0  # MATCHSTATE lines in a row that did not parse
    awaiting = None  # (line, error): an unreadable state that may be our turn, not yet reported
    while True:
        try:
            line = (connection.read_line() if awaiting is None
                    else connection.read_line(timeout=STALL_SECONDS))
        except ConnectionClosed:
            _report_bad_line(events, awaiting)
            return events
        except LineTimeout:
            raise UnreadableStateError(
                f"cannot read the dealer's state, and it has sent nothing for "
                f"{STALL_SECONDS:g} s since (it waits for our answer): {awaiting[1]}") from None
        if not line or line[0] in "#;":
            continue
        _report_bad_line(events, awaiting)
        awaiting = None
        try:
            state = parse_matchstate(game, line)
        except ProtocolError as error:
            is_state = line.startswith("MATCHSTATE:")
            if events.last_state is None:
                if is_state:
                    raise UnreadableStateError(
                        f"cannot read the dealer's first state: {error}") from None
                raise NotADealerError(f"sent {_shown(line)} where an ACPC dealer sends its "
                                      "first MATCHSTATE line") from None
            if is_state:
                unreadable_states += 1
                if unreadable_states >= MAX_UNREADABLE_STATES:
                    raise UnreadableStateError(
                        f"cannot read the dealer's state {unreadable_states} times in a row, "
                        f"the last: {error}") from None
                if may_be_our_turn(game, line):
                    awaiting = (line, error)
                    continue
            _report_bad_line(events, (line, error))
            continue
        unreadable_states = 0
        if events.last_state is None and events.on_first_state:
            events.on_first_state(state)
        events.last_state = state
        if state.finished:
            if events.on_hand_end:
                events.on_hand_end(state)
            continue
        if not state.is_our_turn:
            continue
        try:
            action = state.betting.check_legal(decide(state))
        except Exception as error:  # noqa: BLE001 - a strategy bug must not cost an illegal action
            if events.on_bad_decision:
                events.on_bad_decision(state, error)
            action = CALL_ACTION
        try:
            connection.send_line(f"{line}:{action.encode(game.no_limit)}")
        except OSError:
            return events
        events.answered += 1


def _report_bad_line(events: MatchEvents, bad: tuple[str, ProtocolError] | None) -> None:
    """Report a skipped line `(line, error)` to `events.on_bad_line` (nothing if `bad` is None)."""
    if bad is not None and events.on_bad_line:
        events.on_bad_line(*bad)


_ACTION_LETTERS = re.compile(r"[fcr][0-9]*")


def may_be_our_turn(game: Game, line: str) -> bool:
    """Whether the dealer may await our answer to a MATCHSTATE `line` that does not parse.

    False only when the line shows otherwise from its position and its action letters alone (no
    sizes, no cards: what another game's line still tells): a fold; the final round closed (a
    call that is not the round's first action); the other seat to act in the last round, heads-up
    seats alternating from the round's first player. True when in doubt: more than two players,
    a position, round or character the letters do not explain.
    """
    fields = line.split(":")
    if game.num_players != 2 or len(fields) != 5 or fields[1] not in ("0", "1"):
        return True
    rounds = fields[3].split("/")
    if len(rounds) > game.num_rounds or any(
            _ACTION_LETTERS.sub("", betting) for betting in rounds):
        return True
    letters = [_ACTION_LETTERS.findall(betting) for betting in rounds]
    if any(action[0] == "f" for actions in letters for action in actions):
        return False
    last = letters[-1]
    if len(last) > 1 and last[-1][0] == "c":  # the round closed with no '/' after it
        return len(rounds) < game.num_rounds  # the final round: the hand is over
    to_act = (game.first_player[len(rounds) - 1] + len(last)) % 2
    return to_act == int(fields[1])


def _shown(line: str, limit: int = 80) -> str:
    """A line as quoted in a message: its repr, cut to about `limit` characters."""
    if len(line) <= limit:
        return repr(line)
    return f"{line[:limit]!r}... ({len(line):,} characters)"


__all__ = ["DealerConnection", "LineReader", "ConnectionClosed", "LineTimeout", "MatchEvents",
           "play_match", "may_be_our_turn", "VERSION_LINE", "MAX_UNREADABLE_STATES",
           "STALL_SECONDS"]
