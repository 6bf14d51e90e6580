"""The seed bot's four-mode automaton: a betting state and the win rate v in, a legal action out.

At its first decision in each betting round r the bot computes v = W - L, picks a mode from the
round's thresholds x <= y <= z, and fixes two chip levels for the round, both hand totals
truncated to integers: the call ceiling U = p_r(v) and the raise target T = q_r(v). It keeps
all three for the rest of the round (`plan_round` makes them, `choose_action` uses them).

"Facing a bet" means the bot has put in less than the opponent (heads-up: less than the largest
total). With O the opponent's total:

1. give up (v < x): facing a bet, fold; otherwise check.
2. wait and see (x <= v < y): facing a bet with O > U, fold; otherwise check or call.
3. raise to some amount (y <= v < z): facing a bet with O > U, fold; otherwise, if a raise is
   legal and the minimum raise-to is at most T, raise to T (capped at the stack); otherwise check
   or call.
4. bet to the end (v >= z): never fold. If a raise is legal, raise to T while O < T, else to 2 O,
   moved into the legal range; if no raise is legal, call.

Every choice is checked against `legal_actions`: a fold is only chosen when something is owed,
so it is always legal, and raise sizes are clamped into the legal range.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.params import RoundParams
from protocol.betting import CALL_ACTION, FOLD_ACTION, Action, BettingState, raise_to

GIVE_UP, WAIT_AND_SEE, RAISE_TO, BET_TO_END = range(4)
MODE_NAMES = ("give up", "wait and see", "raise to some amount", "bet to the end")


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """What the bot decided at its first action of a round."""

    mode: int           # GIVE_UP .. BET_TO_END
    v: float            # the win rate it was based on
    call_limit: int     # U: the largest opponent total it will call (modes 2, 3)
    raise_target: int   # T: the total it raises to (modes 3, 4)


def mode_for(thresholds: tuple[float, float, float], v: float) -> int:
    x, y, z = thresholds
    if v < x:
        return GIVE_UP
    if v < y:
        return WAIT_AND_SEE
    if v < z:
        return RAISE_TO
    return BET_TO_END


def plan_round(params: RoundParams, v: float) -> RoundPlan:
    return RoundPlan(mode_for(params.thresholds, v), v, params.call_limit(v),
                     params.raise_target(v))


def choose_action(plan: RoundPlan, betting: BettingState) -> Action:
    """The automaton's action for the player to act in `betting` (heads-up)."""
    player = betting.current_player
    legal = betting.legal_actions()
    opponent_to = betting.max_spent
    facing_bet = betting.spent[player] < opponent_to
    mode = plan.mode
    if mode == GIVE_UP:
        return FOLD_ACTION if facing_bet else CALL_ACTION
    if mode in (WAIT_AND_SEE, RAISE_TO) and facing_bet and opponent_to > plan.call_limit:
        return FOLD_ACTION
    if mode == WAIT_AND_SEE:
        return CALL_ACTION
    if mode == RAISE_TO:
        if legal.can_raise and legal.min_raise_to <= plan.raise_target:
            return raise_to(legal.clamp(plan.raise_target))
        return CALL_ACTION
    if not legal.can_raise:
        return CALL_ACTION
    target = plan.raise_target if opponent_to < plan.raise_target else 2 * opponent_to
    return raise_to(legal.clamp(target))
