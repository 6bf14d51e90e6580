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
6. After it, a malformed line is reported and skipped: one garbled line does not end a match. If
   it was our turn, the dealer's clock ends the match. `MAX_UNREADABLE_STATES` (3) MATCHSTATE
   lines in a row that do not parse stop it (`UnreadableStateError`), the last one unreported:
   a dealer that sends those plays another game.

`LineReader` (also used by the dealer) does the line framing; `play_match` the loop, with the
decision left to a callback, so that this module knows nothing of any strategy.
"""

from __future__ import annotations

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

    def read_line(self) -> str:
        return self.reader.read_line()

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
    which raises `UnreadableStateError` without reporting the last one.
    """
    events = events or MatchEvents()
    unreadable_states = 0  # MATCHSTATE lines in a row that did not parse
    while True:
        try:
            line = connection.read_line()
        except ConnectionClosed:
            return events
        if not line or line[0] in "#;":
            continue
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
            if events.on_bad_line:
                events.on_bad_line(line, error)
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


def _shown(line: str, limit: int = 80) -> str:
    """A line as quoted in a message: its repr, cut to about `limit` characters."""
    if len(line) <= limit:
        return repr(line)
    return f"{line[:limit]!r}... ({len(line):,} characters)"


__all__ = ["DealerConnection", "LineReader", "ConnectionClosed", "LineTimeout", "MatchEvents",
           "play_match", "VERSION_LINE", "MAX_UNREADABLE_STATES"]
