"""An ACPC-compatible dealer: the match loop of the server's `dealer.c`, for local matches.

What it does, in order (as the ACPC dealer does):

1. Listen on one port per seat (127.0.0.1 unless told otherwise), print the ports on the first
   line of stdout, print the header (`# name/game/hands/seed ...`) to stderr and the log.
2. Accept the seats in order, then read each seat's `VERSION:2.0.0` line (no time limit unless
   `start_timeout` is set; an unreadable version ends the match).
3. For each hand: deal with the match's Mersenne Twister (`protocol.deal`); position p sits in
   seat (p + hand) mod players unless seats are fixed. Before every action send each seat its
   view of the state, then read the acting seat's answer: comments are skipped, an unparseable
   line or an echo of another state is ignored with a warning (the seat keeps its clock running),
   an unreadable action becomes a call, an invalid action is repaired (fold when checking is free
   or a raise when none is legal -> call; a raise outside the range -> moved into it).
4. After the hand: one `STATE:` line in the log (all cards, values and names in position order,
   flushed at once), and the final state to every seat.
5. At the end: `SCORE:<totals>:<names>` in seat order on stdout, stderr and the log; exit 0.

A timeout (per answer, per hand, or the average per hand over the match) or a lost connection
ends the match at once with `ERROR: ...` on stderr and exit status 1; the log keeps every hand
finished so far. Set-up failures (the log cannot be opened, a port is in use) raise `MatchFailed`
from `open_log` and `open_ports`, which `gambler-dealer` calls first, so that they read as its
other errors; `run` alone reports them as `ERROR: ...` too.

Duplicate mode (an extension, heads-up only): hand 2k + 1 repeats the cards of hand 2k; as the
seats rotate, each seat then plays the cards and the position the other seat had, so the luck of
the deal cancels between the pair.
"""

from __future__ import annotations

import select
import socket
import sys
import time
from dataclasses import dataclass, field
from typing import TextIO

from gambler.protocol.betting import CALL_ACTION, BettingState
from gambler.protocol.client import LineReader
from gambler.protocol.deal import Deal, MersenneTwister, deal_hand
from gambler.protocol.errors import ConnectionClosed, LineTimeout, MatchFailed, ProtocolError
from gambler.protocol.gamedef import Game
from gambler.protocol.matchstate import (MatchState, format_cards_field, parse_matchstate,
                                 parse_reply_action)

DEFAULT_T_RESPONSE_MS = 600_000
DEFAULT_T_HAND_MS = 600_000
DEFAULT_T_PER_HAND_MS = 7_000


@dataclass
class DealerOptions:
    """Everything a match needs; the defaults are the ACPC dealer's."""

    match_name: str
    game_file: str                     # as given on the command line (printed in the header)
    game: Game
    hands: int
    seed: int
    names: list[str]                   # per seat
    ports: list[int] = field(default_factory=list)  # per seat; 0 or missing = any free port
    host: str = "127.0.0.1"
    fixed_seats: bool = False
    quiet: bool = False
    log: bool = True
    append: bool = False
    duplicate: bool = False
    t_response_ms: int = DEFAULT_T_RESPONSE_MS
    t_hand_ms: int = DEFAULT_T_HAND_MS
    t_per_hand_ms: int = DEFAULT_T_PER_HAND_MS
    start_timeout_ms: int = -1         # < 0: wait for ever


def format_value(value: float) -> str:
    """A chip value as the ACPC dealer prints it: `%.6f` without trailing zeros (`-100`)."""
    text = f"{value:.6f}".rstrip("0")
    return text[:-1] if text.endswith(".") else text


def state_line(hand: int, state: BettingState, deal: Deal) -> str:
    """`STATE:<hand>:<betting>:<all hole cards>/<board>` (the server's `printState`)."""
    cards = format_cards_field(state.game, state.round, deal.hole_cards,
                               deal.board[:state.board_cards_visible])
    return f"STATE:{hand}:{state.betting_string()}:{cards}"


def view_for(position: int, hand: int, state: BettingState, deal: Deal) -> MatchState:
    """What `position` may see: its own hole cards, and others' at a showdown they reached."""
    game = state.game
    showdown = state.finished and sum(state.folded) + 1 < game.num_players
    holes = tuple(cards if p == position or (showdown and not state.folded[p]) else ()
                  for p, cards in enumerate(deal.hole_cards))
    return MatchState(position, hand, state, holes, deal.board[:state.board_cards_visible])


class Dealer:
    """One match. `run()` plays it and returns the exit status (0 success, 1 failure)."""

    def __init__(self, options: DealerOptions, stdout: TextIO = sys.stdout,
                 stderr: TextIO = sys.stderr):
        self.options = options
        self.game = options.game
        self.stdout = stdout
        self.stderr = stderr
        self.listeners: list[socket.socket] = []
        self.seats: list[socket.socket] = []
        self.readers: list[LineReader] = []
        self.log_file: TextIO | None = None
        self.totals = [0.0] * self.game.num_players
        self.used_hand_s = [0.0] * self.game.num_players
        self.used_match_s = [0.0] * self.game.num_players
        self.warnings = 0
        self.ports: list[int] = []

    # --- output -----------------------------------------------------------------------------

    def _err(self, text: str) -> None:
        self.stderr.write(text + "\n")
        self.stderr.flush()

    def _log(self, text: str) -> None:
        if self.log_file is not None:
            self.log_file.write(text + "\n")
            self.log_file.flush()

    def _warn(self, text: str) -> None:
        self.warnings += 1
        self._err(f"WARNING: {text}")

    # --- set-up -----------------------------------------------------------------------------

    def open_log(self) -> None:
        """Open `MATCH.log` (unless there is no log, or it is open): `MatchFailed` naming the file
        if it cannot be written."""
        options = self.options
        if not options.log or self.log_file is not None:
            return
        path = f"{options.match_name}.log"
        try:
            self.log_file = open(path, "a" if options.append else "w")
        except OSError as error:
            raise MatchFailed(f"cannot write the log {path}: {error.strerror or error}") from None

    def open_ports(self) -> list[int]:
        """Bind one listening socket per seat; returns the ports (also printed on stdout).

        `run` calls it; call it first to learn the ports before the match starts (tests).
        """
        if self.ports:
            return self.ports
        options = self.options
        for seat in range(self.game.num_players):
            port = options.ports[seat] if seat < len(options.ports) else 0
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                listener.bind((options.host, port))
            except OSError as error:
                listener.close()
                raise MatchFailed(f"could not create listen socket for player {seat + 1} "
                                  f"on {options.host}:{port}: {error.strerror}") from None
            listener.listen(1)
            self.listeners.append(listener)
            self.ports.append(listener.getsockname()[1])
        self.stdout.write(" ".join(map(str, self.ports)) + "\n")
        self.stdout.flush()
        return self.ports

    def _header(self) -> str:
        options = self.options
        return (f"# name/game/hands/seed {options.match_name} {options.game_file} "
                f"{options.hands} {options.seed}\n#--t_response {options.t_response_ms}\n"
                f"#--t_hand {options.t_hand_ms}\n#--t_per_hand {options.t_per_hand_ms}")

    def _accept_seats(self) -> None:
        timeout_ms = self.options.start_timeout_ms
        started = time.monotonic()
        for seat, listener in enumerate(self.listeners):
            if timeout_ms >= 0:
                left = max(0.0, timeout_ms / 1000 - (time.monotonic() - started))
                ready, _, _ = select.select([listener], [], [], left)
                if not ready:
                    raise MatchFailed(f"timed out waiting for seat {seat + 1} to connect")
            connection, _ = listener.accept()
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            listener.close()
            self.seats.append(connection)
            self.readers.append(LineReader(connection))
        self.listeners = []
        for seat, reader in enumerate(self.readers):
            timeout = None
            if timeout_ms >= 0:
                timeout = max(0.0, timeout_ms / 1000 - (time.monotonic() - started))
            try:
                line = reader.read_line(timeout)
            except (ConnectionClosed, LineTimeout):
                raise MatchFailed(f"could not read version string from seat {seat + 1}") from None
            parts = line[len("VERSION:"):].split(".") if line.startswith("VERSION:") else []
            if len(parts) != 3 or not all(part.isdigit() for part in parts):
                raise MatchFailed(f"invalid version string {line!r} from seat {seat + 1}")
            if parts[0] != "2":
                self._err(f"ERROR: this server is currently using version 2.0.0 "
                          f"(seat {seat + 1} sent {line})")

    # --- the match --------------------------------------------------------------------------

    def _send(self, seat: int, line: str) -> float:
        try:
            self.seats[seat].sendall(line.encode("ascii") + b"\r\n")
        except OSError:
            raise MatchFailed(f"could not send state to seat {seat + 1}") from None
        sent = time.monotonic()
        if not self.options.quiet:
            self._err(f"TO {seat + 1} at {time.time():.6f} {line}")
        return sent

    def _read_action(self, seat: int, view: MatchState, expected: str, sent: float):
        """The acting seat's action, repaired as the ACPC dealer repairs it.

        `view` is the state sent to the seat, `expected` the line it was sent as.
        """
        options = self.options
        reader = self.readers[seat]
        deadline = sent + options.t_response_ms / 1000  # comments and bad lines do not extend it
        while True:
            try:
                line = reader.read_line(max(0.0, deadline - time.monotonic()))
            except LineTimeout:
                raise MatchFailed(f"could not get action from seat {seat + 1}: no answer within "
                                  f"{options.t_response_ms} ms") from None
            except ConnectionClosed:
                raise MatchFailed(f"could not get action from seat {seat + 1}: "
                                  "the connection closed") from None
            received = time.monotonic()
            if not options.quiet:
                self._err(f"FROM {seat + 1} at {time.time():.6f} {line}")
            if line[:1] in ("#", ";"):
                continue
            elapsed = received - sent
            self.used_hand_s[seat] += elapsed
            self.used_match_s[seat] += elapsed
            sent = received  # time spent after this line counts from here
            if (elapsed * 1000 > options.t_response_ms
                    or self.used_hand_s[seat] * 1000 > options.t_hand_ms
                    or self.used_match_s[seat] * 1000 > options.t_per_hand_ms * options.hands):
                raise MatchFailed(f"seat {seat + 1} ran out of time")
            echoed, separator, action_text = line.rpartition(":")
            if not separator or not echoed.startswith("MATCHSTATE:"):
                self._warn("bad state format in response")
                continue
            if echoed != expected:
                try:
                    echo = parse_matchstate(self.game, echoed)
                except ProtocolError:
                    self._warn("bad state format in response")
                    continue
                if (echo.position, echo.hand, echo.betting.betting_string(), echo.board,
                        echo.our_hole) != (view.position, view.hand,
                                           view.betting.betting_string(), view.board,
                                           view.our_hole):
                    self._warn("ignoring un-requested response")
                    continue
            action = parse_reply_action(self.game, action_text)
            if action is None:
                self._warn("bad action format in response, changed to call")
                return CALL_ACTION
            repaired, warning = view.betting.repair(action)
            if warning:
                self._warn(warning)
            return repaired

    def _play_hand(self, hand: int, player0_seat: int, deal: Deal) -> None:
        game = self.game
        players = game.num_players

        def seat_of(position: int) -> int:
            return (position + player0_seat) % players

        self.used_hand_s = [0.0] * players
        state = BettingState.start(game)
        while not state.finished:
            acting = state.current_player
            sent = 0.0
            for seat in range(players):
                position = (seat + players - player0_seat) % players
                view = view_for(position, hand, state, deal)
                line = view.encode()
                sent_at = self._send(seat, line)
                if position == acting:
                    sent, acting_view, acting_line = sent_at, view, line
            action = self._read_action(seat_of(acting), acting_view, acting_line, sent)
            state = state.apply(action)
        values = state.payoffs(deal.hole_cards, deal.board)
        for position, value in enumerate(values):
            self.totals[seat_of(position)] += value
        names = [self.options.names[seat_of(position)] for position in range(players)]
        self._log(f"{state_line(hand, state, deal)}:{'|'.join(map(format_value, values))}:"
                  f"{'|'.join(names)}")
        for seat in range(players):
            position = (seat + players - player0_seat) % players
            self._send(seat, view_for(position, hand, state, deal).encode())

    def play(self) -> None:
        """Connect the seats and play every hand (raises `MatchFailed`)."""
        options = self.options
        self._accept_seats()
        if not options.quiet:
            self._err(f"STARTED at {time.time():.6f}")
        rng = MersenneTwister(options.seed)
        deal = None
        player0_seat = 0
        for hand in range(options.hands):
            if not (options.duplicate and hand % 2 == 1):
                deal = deal_hand(self.game, rng)
            self._play_hand(hand, player0_seat, deal)
            if not options.fixed_seats:
                player0_seat = (player0_seat + 1) % self.game.num_players
        if not options.quiet:
            self._err(f"FINISHED at {time.time():.6f}")
        score = (f"SCORE:{'|'.join(map(format_value, self.totals))}:"
                 f"{'|'.join(options.names)}")
        self.stdout.write(score + "\n")
        self.stdout.flush()
        self._err(score)
        self._log(score)

    def run(self) -> int:
        """Play the match; 0 on success, 1 (with `ERROR: ...` on stderr) on failure."""
        try:
            self.open_log()
            self.open_ports()
            header = self._header()
            self._err(header)
            self._log(header)
            self.play()
            return 0
        except MatchFailed as failure:
            self._err(f"ERROR: {failure}")
            return 1
        except OSError as error:
            self._err(f"ERROR: {error}")
            return 1
        finally:
            self.close()

    def close(self) -> None:
        for sock in self.listeners + self.seats:
            try:
                sock.close()
            except OSError:
                pass
        self.listeners, self.seats = [], []
        if self.log_file is not None:
            self.log_file.close()
            self.log_file = None
