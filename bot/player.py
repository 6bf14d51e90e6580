"""The bot at the table: a strategy wired to the protocol client, with a match record.

`Player` times every decision, records each finished hand (its own computation of the result,
from the final state the dealer sends), writes the optional per-hand log, and summarises the match:
hands, chips won, mbb/hand, decision latency p50/p99 and ms/hand.

The log has two kinds of lines: per hand `HAND POSITION CARDS BETTING RESULT`, and before it one
line per decision, `decision HAND POSITION ROUND name=value ...` (`bot.automaton.decision_fields`:
v, the mode, U or the price, T, the pot, what is owed, the legal raises and the action; a preflop
chart's decision names the node (its path, commas between actions), the class and the action's
probability there instead of v and the mode; a portfolio's start with the member that played and
its probability). A portfolio adds after each hand line `adapt HAND member=NAME p=P1/P2/...`
(`bot.portfolio.PortfolioStrategy`), its members named in a header comment. A hand's lines are
written, and flushed, when it ends (a decision's clock never waits for the disk), the lines of an
unfinished last hand when the log is closed. A log that cannot be written raises `MatchLogError`,
naming the file.
"""

from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass, field
from typing import TextIO

from gambler.bot.automaton import format_fields
from gambler.bot.strategies import act_and_explain
from gambler.errors import GamblerError
from gambler.protocol.betting import Action
from gambler.protocol.client import MatchEvents
from gambler.protocol.errors import ProtocolError
from gambler.protocol.matchstate import MatchState, format_cards_field


ROUND_NAMES = ("preflop", "flop", "turn", "river")


class MatchLogError(GamblerError):
    """The match log (`gambler --log`) cannot be written: a missing folder, no permission, a
    full disk. The message names the file."""


def open_log(path: str | os.PathLike) -> TextIO:
    """Open the match log for writing; `MatchLogError` naming the file if that fails."""
    try:
        return open(path, "w")
    except OSError as error:
        raise MatchLogError(f"cannot write the log {os.fspath(path)}: "
                            f"{error.strerror or error}") from None


def _log_error(log_file: TextIO, error: OSError) -> MatchLogError:
    return MatchLogError(f"cannot write the log {getattr(log_file, 'name', '(unnamed)')}: "
                         f"{error.strerror or error}")


@dataclass
class MatchRecord:
    """What happened in a match, from the bot's side."""

    big_blind: int
    hands: int = 0
    chips: float = 0.0
    latencies: list[float] = field(default_factory=list)  # seconds per decision
    rounds: list[int] = field(default_factory=list)       # the round of each decision
    bad_lines: int = 0
    bad_decisions: int = 0
    started: float = field(default_factory=time.perf_counter)
    finished: float | None = None
    last_state: MatchState | None = None

    @property
    def seconds(self) -> float:
        return (self.finished or time.perf_counter()) - self.started

    @property
    def mbb_per_hand(self) -> float:
        return 1000 * self.chips / self.big_blind / self.hands if self.hands else 0.0

    def latency_ms(self, quantile: float, round_: int | None = None) -> float:
        """A quantile of the decisions' latency (of one round's, with `round_`), in ms."""
        latencies = self.latencies if round_ is None else [
            latency for latency, at in zip(self.latencies, self.rounds) if at == round_]
        if not latencies:
            return 0.0
        ordered = sorted(latencies)
        index = min(len(ordered) - 1, max(0, round(quantile * (len(ordered) - 1))))
        return 1000 * ordered[index]

    def summary(self) -> str:
        per_hand = 1000 * self.seconds / self.hands if self.hands else 0.0
        median = 1000 * statistics.median(self.latencies) if self.latencies else 0.0
        chips = f"{self.chips:+,.0f}" if self.chips == int(self.chips) else f"{self.chips:+,.2f}"
        text = (f"{self.hands:,} hands, {chips} chips, {self.mbb_per_hand:+,.1f} mbb/hand; "
                f"{len(self.latencies):,} decisions, latency p50 {median:,.3f} ms, "
                f"p99 {self.latency_ms(0.99):,.3f} ms (flop {self.latency_ms(0.99, 1):,.3f}), "
                f"max {self.latency_ms(1.0):,.3f} ms; {per_hand:,.2f} ms/hand")
        if self.bad_lines or self.bad_decisions:
            text += (f"; {self.bad_lines:,} malformed lines skipped, "
                     f"{self.bad_decisions:,} bad decisions")
        return text


class Player:
    """Glue between a strategy and `protocol.client.play_match`."""

    def __init__(self, strategy, big_blind: int, log_file: TextIO | None = None,
                 warn: TextIO | None = None):
        self.strategy = strategy
        self.record = MatchRecord(big_blind)
        self.log_file = log_file
        self.warn = warn
        self._pending: list[str] = []  # the current hand's decision lines, written when it ends
        header = getattr(strategy, "adaptation_header", None)
        self._write("# hand position cards betting result\n"
                    "# decision hand position round name=value ... (one per action)\n"
                    + (f"{header()}\n# adapt hand member=NAME p=P1/P2/... (after each hand: "
                       "who played it, with what probability each member was drawn)\n"
                       if header is not None else ""))

    def decide(self, state: MatchState) -> Action:
        started = time.perf_counter()
        if self.log_file is None:
            action = self.strategy.act(state)
        else:
            action, fields = act_and_explain(self.strategy, state)
        self.record.latencies.append(time.perf_counter() - started)
        self.record.rounds.append(state.betting.round)
        self.record.last_state = state
        if self.log_file is not None:
            self._pending.append(f"decision {state.hand} {state.position} "
                                 f"{ROUND_NAMES[state.betting.round]} {format_fields(fields)}\n")
        return action

    def hand_ended(self, state: MatchState) -> None:
        record = self.record
        record.last_state = state
        try:
            result = state.payoffs()[state.position]
        except ProtocolError as error:  # a final state without the cards a showdown needs
            self._warning(f"hand {state.hand}: cannot score: {error}")
            self._write("", flush=True)
            return
        record.hands += 1
        record.chips += result
        learn = getattr(self.strategy, "hand_ended", None)
        if learn is not None:  # a portfolio updates its estimates (off the decision clock)
            learn(state)
        if self.log_file is not None:
            cards = format_cards_field(state.game, state.betting.round, state.hole_cards,
                                       state.board)
            adaptation = getattr(self.strategy, "adaptation_line", None)
            self._write(f"{state.hand} {state.position} {cards} "
                        f"{state.betting.betting_string()} {result:+.10g}\n"
                        + (f"{adaptation()}\n" if adaptation is not None else ""), flush=True)

    def close_log(self) -> None:
        """Write what is pending (an unfinished hand's decisions) and close the log."""
        if self.log_file is None:
            return
        log_file = self.log_file
        try:
            self._write("", flush=True)
        finally:
            self.log_file = None
            try:
                log_file.close()
            except OSError as error:
                raise _log_error(log_file, error) from None

    def _write(self, text: str, flush: bool = False) -> None:
        """Write the pending decision lines, then `text`, to the log (if any)."""
        if self.log_file is None:
            return
        try:
            if self._pending:
                self.log_file.write("".join(self._pending))
                self._pending.clear()
            if text:
                self.log_file.write(text)
            if flush:
                self.log_file.flush()
        except OSError as error:
            raise _log_error(self.log_file, error) from None

    def bad_line(self, line: str, error: ProtocolError) -> None:
        self.record.bad_lines += 1
        self._warning(f"skipped a malformed line: {error}")

    def bad_decision(self, state: MatchState, error: Exception) -> None:
        self.record.bad_decisions += 1
        self._warning(f"hand {state.hand}: the strategy failed ({type(error).__name__}: "
                      f"{error}); checked/called instead")

    def _warning(self, text: str) -> None:
        if self.warn is not None:
            self.warn.write(f"gambler: warning: {text}\n")
            self.warn.flush()

    def events(self) -> MatchEvents:
        return MatchEvents(on_hand_end=self.hand_ended, on_bad_line=self.bad_line,
                           on_bad_decision=self.bad_decision)
