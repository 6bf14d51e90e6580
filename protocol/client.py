"""The player's side of an ACPC connection: TCP, the version handshake, and the answer loop.

The ACPC rules for a client (protocol version 2.0.0):

1. Connect; do any slow start-up (numba, tables) *before* sending `VERSION:2.0.0\\r\\n`, which the
   dealer awaits without a time limit, while every answer later runs against the clock.
2. Read `\\r\\n`-terminated lines (TCP may split one line over several reads or merge several into
   one); ignore lines that begin with `#` or `;`.
3. Rebuild the whole hand from each MATCHSTATE line; answer only when it is our turn, with the
   line exactly as received, `:`, the action, `\\r\\n`, sent at once.
4. End of stream ends the match.

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
from gambler.protocol.errors import ProtocolError, UnreadableStateError
from gambler.protocol.gamedef import Game
from gambler.protocol.matchstate import MatchState, parse_matchstate

VERSION_LINE = "VERSION:2.0.0"
MAX_LINE_BYTES = 1 << 16


class ConnectionClosed(Exception):
    """The other side closed the connection (end of stream)."""


class LineTimeout(Exception):
    """No complete line arrived in time."""


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
                    raise LineTimeout()
                ready, _, _ = select.select([self._socket], [], [], left)
                if not ready:
                    raise LineTimeout()
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
    answered: int = field(default=0)  # actions sent
    last_state: MatchState | None = None  # the last well-formed state received


def play_match(connection: DealerConnection, game: Game,
               decide: Callable[[MatchState], Action],
               events: MatchEvents | None = None) -> MatchEvents:
    """Answer the dealer until it closes the connection; returns the events record.

    `decide` gets each state where it is our turn and returns an action. The action is checked
    against the rules before it is sent: if `decide` fails or returns an illegal action, the
    error is reported and a check/call (always legal) is sent instead, so no illegal action ever
    leaves this function. Lines that are not states are reported and skipped; a MATCHSTATE line
    that does not parse under `game` is reported and raises `UnreadableStateError`: it may be
    our turn, and a bot that skipped it would leave the dealer waiting (a real dealer sends
    such lines only when it plays another game).
    """
    events = events or MatchEvents()
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
            if events.on_bad_line:
                events.on_bad_line(line, error)
            if line.startswith("MATCHSTATE:"):
                raise UnreadableStateError(f"cannot read the dealer's state: {error}") from None
            continue
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


__all__ = ["DealerConnection", "LineReader", "ConnectionClosed", "LineTimeout", "MatchEvents",
           "play_match", "VERSION_LINE"]
