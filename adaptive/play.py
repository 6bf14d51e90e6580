"""`gambler-play`: a person plays the bot heads-up in a browser, through a real ACPC match.

Three parties on 127.0.0.1, as in any ACPC match:

* the dealer (`protocol.dealer.Dealer`, in a thread), which deals, keeps the rules and writes the
  match log in the ACPC format (so `gambler-report` reads it), with clocks long enough for a
  person (an hour an action);
* the bot, `gambler 127.0.0.1 PORT --params PROFILE` in a process of its own, in seat 2;
* the person's seat 1: a client (`protocol.client.play_match`) whose decisions come from the page.

`Table` is the person's seat as the page sees it: the last state the dealer sent, whether an
action is awaited, the hands' results and the running total. `Table.submit` checks a click against
the rules before anything moves: out of turn, a fold when checking is free, or a raise out of the
legal range is a `PlayError` with a message for the page, and the state stays as it was. The
HTTP server (`serve`) has three routes: `GET /` (the page, `adaptive.play_page`), `GET /state`
(`Table.view` as JSON) and `POST /action` (`{"action": "fold" | "call" | "raise", "to": chips}`).
"""

from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from gambler.errors import GamblerError
from gambler.evaluator.cards import card_text
from gambler.protocol.betting import (CALL_ACTION, FOLD, FOLD_ACTION, RAISE, Action,
                                      BettingState, raise_to)
from gambler.protocol.client import MatchEvents
from gambler.protocol.matchstate import MatchState

ROUND_NAMES = ("preflop", "flop", "turn", "river")


class PlayError(GamblerError):
    """A click the rules do not allow now; the page shows its message."""


@dataclass
class HandResult:
    hand: int
    position: int
    chips: float                 # the person's
    betting: str
    your_cards: list[str]
    opponent_cards: list[str]    # [] unless shown
    board: list[str]


@dataclass
class Table:
    """The person's seat, shared by the seat's thread and the HTTP server's threads."""

    opponent: str
    hands: int
    big_blind: int
    log_path: str = ""
    status: str = "waiting"      # waiting (for the bot), playing, over, failed
    message: str = ""            # the last error or notice for the page
    state: MatchState | None = None
    awaiting: bool = False       # the dealer waits for the person's action on `state`
    results: list[HandResult] = field(default_factory=list)
    total: float = 0.0
    events: MatchEvents | None = None  # the seat's: its last state is shown while the bot thinks
    actions: "queue.Queue[Action]" = field(default_factory=queue.Queue)
    lock: threading.Lock = field(default_factory=threading.Lock)

    # --- the seat's side ------------------------------------------------------------------------

    def on_first_state(self, state: MatchState) -> None:
        with self.lock:
            self.status = "playing"
            self.state = state


    def on_hand_end(self, state: MatchState) -> None:
        with self.lock:
            self.state = state
            position = state.position
            chips = state.betting.payoffs(state.hole_cards, state.board)[position] \
                if _payable(state) else 0.0
            self.total += chips
            self.results.append(HandResult(
                state.hand, position, chips, state.betting.betting_string(),
                [card_text(c) for c in state.hole_cards[position]],
                [card_text(c) for c in state.hole_cards[1 - position]],
                [card_text(c) for c in state.board]))

    def decide(self, state: MatchState) -> Action:
        """The seat's `decide`: wait for the page's checked action."""
        with self.lock:
            self.state = state
            self.awaiting = True
        return self.actions.get()

    def finish(self, status: str, message: str) -> None:
        with self.lock:
            self.status = status
            self.message = message
            self.awaiting = False

    # --- the page's side ------------------------------------------------------------------------

    def submit(self, kind: str, to: int | None = None) -> Action:
        """The person's click, checked: the action sent to the dealer, or `PlayError`."""
        with self.lock:
            if self.status == "over":
                raise PlayError("the match is over: no more actions")
            if not self.awaiting or self.state is None:
                raise PlayError("it is not your turn: wait for the bot")
            betting = self.state.betting
            legal = betting.legal_actions()
            if kind == "fold":
                if not legal.can_fold:
                    raise PlayError("nothing to call: check instead of folding")
                action = FOLD_ACTION
            elif kind == "call":
                action = CALL_ACTION
            elif kind == "raise":
                if not legal.can_raise:
                    raise PlayError("no raise is legal now: call or fold")
                if to is None or not legal.min_raise_to <= to <= legal.max_raise_to:
                    raise PlayError(f"raise to {to if to is not None else '?'}: a raise is to "
                                    f"{legal.min_raise_to:,} through {legal.max_raise_to:,} chips")
                action = raise_to(to)
            else:
                raise PlayError(f"unknown action {kind!r}: fold, call or raise")
            self.awaiting = False
            self.message = ""
            self.actions.put(action)
            return action

    def view(self) -> dict:
        """What the page shows (JSON)."""
        with self.lock:
            view = {"status": self.status, "message": self.message, "opponent": self.opponent,
                    "hands": self.hands, "hands_played": len(self.results),
                    "total": self.total, "total_bb": self.total / self.big_blind,
                    "log": self.log_path, "your_turn": self.awaiting,
                    "last_hand": vars(self.results[-1]) if self.results else None}
            state = self.state
            if not self.awaiting and self.events is not None and self.events.last_state:
                state = self.events.last_state
            if state is not None:
                view.update(_state_view(state, self.opponent))
                if self.awaiting:
                    legal = state.betting.legal_actions()
                    owed = legal.call_to - state.betting.spent[state.position]
                    view["legal"] = {"fold": legal.can_fold, "call": owed,
                                     "raise_min": legal.min_raise_to,
                                     "raise_max": legal.max_raise_to}
            return view


def _payable(state: MatchState) -> bool:
    """Whether the final state shows what the payoffs need (every hand at a showdown)."""
    betting = state.betting
    return any(betting.folded) or all(state.hole_cards)


def _state_view(state: MatchState, opponent: str) -> dict:
    betting = state.betting
    game = betting.game
    me, other = state.position, 1 - state.position
    words = []
    replay = BettingState.start(game)
    for round_, (actions, actors) in enumerate(zip(betting.actions, betting.actors)):
        for action, actor in zip(actions, actors):
            owed = replay.max_spent - replay.spent[actor]
            words.append(f"{ROUND_NAMES[round_]}: "
                         f"{'you' if actor == me else opponent} "
                         f"{_describe(action, owed, replay.spent[actor], actor == me)}")
            replay = replay.apply(action)
    return {
        "hand": state.hand, "position": me,
        "button": me == game.first_player[0],  # heads-up: the button acts first preflop
        "round": ROUND_NAMES[betting.round], "finished": betting.finished,
        "your_cards": [card_text(c) for c in state.hole_cards[me]],
        "opponent_cards": [card_text(c) for c in state.hole_cards[other]],
        "board": [card_text(c) for c in state.board],
        "pot": sum(betting.spent),
        "your_stack": game.stacks[me] - betting.spent[me],
        "opponent_stack": game.stacks[other] - betting.spent[other],
        "your_bet": betting.spent[me], "opponent_bet": betting.spent[other],
        "betting": betting.betting_string(), "history": words,
    }


def _describe(action: Action, owed: int, spent: int, you: bool) -> str:
    """`folds`, `checks`, `calls 200`, `raises to 600` (without the s for "you")."""
    s = "" if you else "s"
    if action.kind == FOLD:
        return f"fold{s}"
    if action.kind == RAISE:
        return f"raise{s} to {action.raise_to:,}"
    return f"call{s} {owed:,}" if owed else f"check{s}"


# --- the HTTP server ----------------------------------------------------------------------------

def serve(table: Table, page: str, port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1:`port` (0: any free port) for `table`; call serve_forever."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet: the terminal is the player's
            pass

        def _send(self, status: int, body: str, kind: str = "application/json") -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/":
                self._send(200, page, "text/html")
            elif self.path == "/favicon.ico":
                self._send(204, "", "image/x-icon")
            elif self.path == "/state":
                self._send(200, json.dumps(table.view()))
            else:
                self._send(404, json.dumps({"error": f"no page {self.path}"}))

        def do_POST(self) -> None:
            if self.path != "/action":
                self._send(404, json.dumps({"error": f"no page {self.path}"}))
                return
            try:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                to = body.get("to")
                if to is not None:
                    to = int(to)
                action = table.submit(str(body.get("action", "")), to)
            except (ValueError, TypeError, AttributeError):
                with table.lock:
                    table.message = "a raise needs a whole number of chips"
                self._send(400, json.dumps({"error": table.message}))
                return
            except PlayError as error:
                with table.lock:
                    table.message = str(error)
                self._send(409, json.dumps({"error": str(error)}))
                return
            self._send(200, json.dumps({"sent": action.encode()}))

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)
