"""The seed bot's four-mode automaton: a betting state and the win rate v in, a legal action out.

At its first decision in each betting round r the bot computes v = W - L, picks a mode from the
round's thresholds x <= y <= z, and fixes two chip levels for the round, both hand totals
truncated to integers: the call ceiling U = p_r(v) and the raise target T = q_r(v) (with a
version 2 profile's pot levels, S + p_r(v) P and S + q_r(v) P, S and P the largest total and the
pot when the round began). It keeps all three for the rest of the round (`plan_round` makes
them, `choose_action` uses them).

"Facing a bet" means the bot has put in less than the opponent (heads-up: less than the largest
total). With O the opponent's total, "too dear" means O > U, or with a price margin m (version
2): the equity (1 + v) / 2 is below the price to_call / (pot + to_call) + m, pot being both
totals now:

1. give up (v < x): facing a bet, fold; otherwise check.
2. wait and see (x <= v < y): facing a bet that is too dear, fold; otherwise check or call.
3. raise to some amount (y <= v < z): facing a bet that is too dear, fold; otherwise, if a raise
   is legal and the minimum raise-to is at most T, raise to T (capped at the stack); otherwise
   check or call.
4. bet to the end (v >= z): never fold. If a raise is legal, raise to T while O < T, else to 2 O,
   moved into the legal range; if no raise is legal, call. With `end_reraise` w (version 5),
   a bet that raises the bot's own bet or raise this round (the bot's total is above the
   round's starting one) is raised again only when v >= w, and called below it (a call that
   range defence, where the round has it, answers as any other).

The defence line (version 3): wherever the rules above fold (modes 1 to 3), the bot calls
instead when v >= d0 + d1 price, price = to_call / (pot + to_call) (`RoundParams.defends`).

Range defence (version 5): facing a bet, wherever the rules above do not raise, the bot calls
when the percentile of its holding in its own range (`bot.own_range`) is at least
min(1, a to_call / pot), pot being both totals now, or when v is at least its keep k, and folds
below (`bot.params`). Range bets (version 5): when nothing is owed, the bot bets to the largest
total + size pot with the top `value` of its range and the bottom value size / (1 + size), and
checks the rest.

Mixed play (version 2): at the plan a uniform draw u decides the round's variant. With
u < slow_play, a hand in mode 3 or 4 checks when nothing is owed (and plays its mode when bet
into: a check-raise); with u < bluff, a hand in mode 1 bets to S + bluff_size P when nothing is
owed (and folds to a bet as usual).

Every choice is checked against `legal_actions`: a fold is only chosen when something is owed,
so it is always legal, and raise sizes are clamped into the legal range.
"""

from __future__ import annotations

from dataclasses import dataclass

from gambler.errors import GamblerError
from gambler.bot.params import (RoundParams, defence_line, end_reraises, range_bet_bluffs,
                                range_bets_at,
                                range_defence_answers, range_defence_keeps,
                                range_defence_share)
from gambler.protocol.betting import (CALL_ACTION, FOLD_ACTION, RAISE, Action, BettingState,
                                      raise_to)

GIVE_UP, WAIT_AND_SEE, RAISE_TO, BET_TO_END = range(4)
MODE_NAMES = ("give up", "wait and see", "raise to some amount", "bet to the end")
MODE_KEYS = ("give-up", "wait-and-see", "raise-to", "bet-to-end")  # one word each, for logs


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """What the bot decided at its first action of a round."""

    mode: int           # GIVE_UP .. BET_TO_END
    v: float            # the win rate it was based on
    call_limit: int     # U: the largest opponent total it will call (modes 2, 3)
    raise_target: int   # T: the total it raises to (modes 3, 4)
    price_margin: float | None = None  # if set, modes 2 and 3 call on price instead of U
    slow: bool = False                 # modes 3, 4: check when nothing is owed
    bluff_to: int | None = None        # mode 1: bet to this total when nothing is owed
    plain_v: float | None = None       # v against a random hand, when `v` is range-aware
    defend: tuple[float, float] | None = None  # (d0, d1): call a fold when v >= d0 + d1 price
    range_defence: float | None = None         # a: facing a bet, defend by own-range percentile
    range_bet: tuple[float, float] | None = None  # (value, size): nothing owed, bet by percentile
    range_bet_position: int | None = None      # 0 or 1: range bets in that position only
    range_defence_cap: float | None = None     # c: the largest share of the range folded (None: 1)
    range_defence_from: float | None = None    # r: range defence answers bets from r pots
    range_defence_keep: float | None = None    # k: a holding with v >= k never folds to it
    range_raise: tuple[float, float] | None = None  # (value, size): raise the first bet by range
    end_reraise: float | None = None           # w: bet to the end re-raises a re-raise from v = w


def mode_for(thresholds: tuple[float, float, float], v: float) -> int:
    x, y, z = thresholds
    if v < x:
        return GIVE_UP
    if v < y:
        return WAIT_AND_SEE
    if v < z:
        return RAISE_TO
    return BET_TO_END


def plan_round(params: RoundParams, v: float, start: int = 0, pot: int = 0,
               draw: float = 1.0) -> RoundPlan:
    """The round's plan; `start` and `pot` (the largest total and the pot when the round began)
    matter for pot levels and bluffs, `draw` (uniform in [0, 1); 1 means none) for mixed play."""
    mode = mode_for(params.thresholds, v)
    mixed = draw < params.mixing_probability(v)
    return RoundPlan(mode, v, params.call_limit(v, start, pot), params.raise_target(v, start, pot),
                     params.price_margin, slow=mixed and mode >= RAISE_TO,
                     bluff_to=params.bluff_target(start, pot) if mixed and mode == GIVE_UP
                     else None, defend=params.defend, range_defence=params.range_defence,
                     range_bet=params.range_bet, range_bet_position=params.range_bet_position,
                     range_defence_cap=params.range_defence_cap,
                     range_defence_from=params.range_defence_from,
                     range_defence_keep=params.range_defence_keep,
                     range_raise=params.range_raise, end_reraise=params.end_reraise)


def plan_for_state(params: RoundParams, v: float, betting: BettingState,
                   draw: float = 1.0) -> RoundPlan:
    """`plan_round` with the round's start read from the betting."""
    return plan_round(params, v, max(betting.round_start), sum(betting.round_start), draw)


def too_dear(plan: RoundPlan, betting: BettingState) -> bool:
    """Whether the bet the player to act faces is more than the plan will call (modes 2, 3)."""
    player = betting.current_player
    if plan.price_margin is None:
        return betting.max_spent > plan.call_limit
    to_call = betting.max_spent - betting.spent[player]
    pot = sum(betting.spent)
    return (1.0 + plan.v) / 2.0 < to_call / (pot + to_call) + plan.price_margin


def plan_defence_line(plan: RoundPlan, betting: BettingState) -> float | None:
    """`bot.params.defence_line` for the bet the player to act faces (None without a line)."""
    to_call = betting.max_spent - betting.spent[betting.current_player]
    return defence_line(plan.defend, to_call, sum(betting.spent))


def fold_or_defend(plan: RoundPlan, betting: BettingState) -> Action:
    """Fold, unless v reaches the defence line: then call."""
    line = plan_defence_line(plan, betting)
    return CALL_ACTION if line is not None and plan.v >= line else FOLD_ACTION


def defends_by_range(plan: RoundPlan, betting: BettingState) -> bool:
    """Whether this decision is taken by range defence: the plan has it and a bet is owed."""
    return plan.range_defence is not None \
        and betting.spent[betting.current_player] < betting.max_spent


def bets_by_range(plan: RoundPlan, betting: BettingState) -> bool:
    """Whether this decision is taken by range bets: the plan has them for the position to act
    (`range_bet_position`) and nothing is owed."""
    return range_bets_at(plan.range_bet, plan.range_bet_position, betting.current_player) \
        and betting.spent[betting.current_player] >= betting.max_spent


def needs_percentile(plan: RoundPlan, betting: BettingState) -> bool:
    """Whether the holding's percentile in the bot's own range decides here."""
    return defends_by_range(plan, betting) or bets_by_range(plan, betting)


def plan_range_share(plan: RoundPlan, betting: BettingState) -> float | None:
    """The share of its range the bot folds to the bet it faces (`range_defence_share`)."""
    to_call = betting.max_spent - betting.spent[betting.current_player]
    return range_defence_share(plan.range_defence, to_call, sum(betting.spent),
                               plan.range_defence_cap)


def range_answers(plan: RoundPlan, betting: BettingState) -> bool:
    """Whether range defence answers the bet owed: one of at least `range_defence_from` pots
    (`bot.params.range_defence_answers`); a smaller one meets the modes."""
    to_call = betting.max_spent - betting.spent[betting.current_player]
    return range_defence_answers(plan.range_defence_from, to_call, sum(betting.spent))


def choose_action(plan: RoundPlan, betting: BettingState,
                  percentile: float | None = None) -> Action:
    """The automaton's action for the player to act in `betting` (heads-up). A plan with range
    defence facing a bet, or with range bets when nothing is owed, needs the `percentile` of the
    holding in the bot's own range (NaN: the range has no mass, and the modes' action stands)."""
    action = mode_action(plan, betting)
    if not needs_percentile(plan, betting):
        return action
    if percentile is None:
        raise GamblerError("range defence and range bets need the holding's percentile in the "
                           "bot's own range (bot.own_range)")
    if percentile != percentile:
        return action
    if bets_by_range(plan, betting):
        value, size = plan.range_bet
        legal = betting.legal_actions()
        if legal.can_raise and (percentile >= 1.0 - value
                                or percentile < range_bet_bluffs(value, size)):
            return raise_to(legal.clamp(betting.max_spent + int(size * sum(betting.spent))))
        return CALL_ACTION
    if action.kind == RAISE or not range_answers(plan, betting):
        return action
    share = plan_range_share(plan, betting)
    if range_raises(plan, betting, percentile, share):
        to_call = betting.max_spent - betting.spent[betting.current_player]
        _, size = plan.range_raise
        return raise_to(betting.legal_actions().clamp(
            betting.max_spent + int(size * (sum(betting.spent) + to_call))))
    return CALL_ACTION if percentile >= share or range_defence_keeps(plan.range_defence_keep,
                                                                     plan.v) else FOLD_ACTION


def faces_range_raise(plan: RoundPlan, betting: BettingState) -> bool:
    """Whether the plan has range raises and the bet owed is the round's first."""
    return plan.range_raise is not None and betting.raises_this_round == 1


def range_raises(plan: RoundPlan, betting: BettingState, percentile: float,
                 share: float) -> bool:
    """Whether range raises (`range_raise`) raise the bet owed: facing the round's first bet,
    with a raise legal, the top `value` of the own range (percentile >= 1 - value) and its value
    size / (1 + size) just below the folding `share`."""
    if not faces_range_raise(plan, betting) or not betting.legal_actions().can_raise:
        return False
    value, size = plan.range_raise
    return percentile >= 1.0 - value \
        or share - range_bet_bluffs(value, size) <= percentile < share


def mode_action(plan: RoundPlan, betting: BettingState) -> Action:
    """The four modes' action (and the defence line's), before range defence and range bets."""
    player = betting.current_player
    legal = betting.legal_actions()
    opponent_to = betting.max_spent
    facing_bet = betting.spent[player] < opponent_to
    mode = plan.mode
    if mode == GIVE_UP:
        if facing_bet:
            return fold_or_defend(plan, betting)
        if plan.bluff_to is not None and legal.can_raise:
            return raise_to(legal.clamp(plan.bluff_to))
        return CALL_ACTION
    if plan.slow and not facing_bet:
        return CALL_ACTION
    if mode in (WAIT_AND_SEE, RAISE_TO) and facing_bet and too_dear(plan, betting):
        return fold_or_defend(plan, betting)
    if mode == WAIT_AND_SEE:
        return CALL_ACTION
    if mode == RAISE_TO:
        if legal.can_raise and legal.min_raise_to <= plan.raise_target:
            return raise_to(legal.clamp(plan.raise_target))
        return CALL_ACTION
    if not legal.can_raise:
        return CALL_ACTION
    if raised_back(betting) and not end_reraises(plan.end_reraise, plan.v):
        return CALL_ACTION  # raised back: a hand below w calls (`end_reraise`)
    target = plan.raise_target if opponent_to < plan.raise_target else 2 * opponent_to
    return raise_to(legal.clamp(target))


def raised_back(betting: BettingState) -> bool:
    """Whether the player to act owes a bet after it bet or raised this round: its total is
    below the largest and above the round's starting largest (where `end_reraise` decides)."""
    spent = betting.spent[betting.current_player]
    return max(betting.round_start) < spent < betting.max_spent


def decision_fields(plan: RoundPlan, betting: BettingState, action: Action,
                    percentile: float | None = None) -> dict[str, object]:
    """Why the automaton took `action` in `betting` under `plan`, as (name, value) pairs in the
    order a decision line shows them: v (and `v_range`, the range-aware v the plan used, when
    it used one) and the mode; U, or with price-aware calls the equity
    (1 + v) / 2, the price to_call / (pot + to_call) and the margin; T; the round's mixed
    variant if drawn (slow play, or the bluff's total); the pot (both totals), what is owed,
    the legal raise-to range (None when no raise is legal), the defence line d0 + d1 price
    when the profile has one and a bet is owed, the holding's percentile in the bot's own range
    where it decides (with range defence facing a bet: the share of the range that folds; with
    range bets: the percentiles from which it bets and below which it bluffs), `reraises_from_v`
    (w) when "bet to the end" has been raised back, and the action."""
    player = betting.current_player
    legal = betting.legal_actions()
    to_call = betting.max_spent - betting.spent[player]
    pot = sum(betting.spent)
    if plan.plain_v is None:
        fields: dict[str, object] = {"v": plan.v}
    else:
        fields = {"v": plan.plain_v, "v_range": plan.v}
    fields["mode"] = MODE_KEYS[plan.mode]
    if plan.price_margin is None:
        fields["U"] = plan.call_limit
    else:
        fields["equity"] = (1.0 + plan.v) / 2.0
        fields["price"] = to_call / (pot + to_call)
        fields["margin"] = plan.price_margin
    fields["T"] = plan.raise_target
    if plan.slow:
        fields["slow_play"] = True
    if plan.bluff_to is not None:
        fields["bluff_to"] = plan.bluff_to
    fields["pot"] = pot
    fields["to_call"] = to_call
    fields["raise_range"] = ((legal.min_raise_to, legal.max_raise_to) if legal.can_raise
                             else None)
    if to_call > 0 and plan.defend is not None:
        fields["defend_at"] = plan_defence_line(plan, betting)
    if plan.mode == BET_TO_END and plan.end_reraise is not None and raised_back(betting):
        fields["reraises_from_v"] = plan.end_reraise
    if defends_by_range(plan, betting) and percentile is not None:
        fields["percentile"] = percentile
        if range_answers(plan, betting):
            fields["folds_below"] = plan_range_share(plan, betting)
            if plan.range_defence_keep is not None:
                fields["keeps_from_v"] = plan.range_defence_keep
            if faces_range_raise(plan, betting):
                value, size = plan.range_raise
                fields["raises_from"] = 1.0 - value
                fields["bluff_raises_from"] = max(
                    0.0, fields["folds_below"] - range_bet_bluffs(value, size))
    if bets_by_range(plan, betting) and percentile is not None:
        value, size = plan.range_bet
        fields["percentile"] = percentile
        fields["bets_from"] = 1.0 - value
        fields["bluffs_below"] = range_bet_bluffs(value, size)
    fields["action"] = str(action)
    return fields


def format_fields(fields: dict[str, object]) -> str:
    """`name=value` pairs separated by spaces: v and fractions to 4 decimals, a raise range as
    `low..high` (`-` when no raise is legal)."""
    parts = []
    for name, value in fields.items():
        if name == "raise_range":
            text = "-" if value is None else f"{value[0]}..{value[1]}"
        elif name in ("v", "v_range", "defend_at", "keeps_from_v", "reraises_from_v"):
            text = f"{value:+.4f}"
        elif isinstance(value, bool):
            text = "yes" if value else "no"
        elif isinstance(value, float):
            text = f"{value:.4f}"
        else:
            text = str(value)
        parts.append(f"{name}={text}")
    return " ".join(parts)
