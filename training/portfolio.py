"""A portfolio's match in the fast engine: Exp3 over its members, hand after hand.

`bot.portfolio` has the rule and the estimate; this module plays them at engine speed, with the
same draws (`evaluator.rng.portfolio_uniform`), the same all-in adjusted rewards and the same
floating-point order, so that a seeded match gives the TCP bot's members, probabilities and
estimates hand for hand (tests). A match cannot be split over threads: each hand's draw depends
on every hand before it.

A match is played as `gambler-dealer` plays it: the portfolio (in seat `seat`) has position
(h + seat) % 2 in hand h, the positions rotating every hand; in a duplicate match hand 2k + 1
repeats the cards of hand 2k (deal k of the deal set), so each seat plays each deal once from
each position, otherwise hand h plays deal h. Hand number `first_hand + h` seeds the draw and
every member's mixed play. Whether a member other than the one drawn agrees with the hand is
found by replaying the hand with it in the drawn one's place (the same generator state for a
random opponent): the replay's actions equal the hand's exactly when the member takes the
actions taken at each of the portfolio's decisions.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from gambler.evaluator.rng import portfolio_uniform, stream_seed
from gambler.jit import helper, njit
from gambler.training.engine import (HAND_STATE_SIZE, MAX_ACTIONS, DealArrays, EngineError,
                                     _play_ranged, _range_context, adjusted_payoff_of,
                                     encode_strategy, is_range_aware, payoff_of)

_TRACE_ROWS = 4 * MAX_ACTIONS  # every action a hand can have


class PortfolioMatch(NamedTuple):
    """What a portfolio's match recorded, hand h in row h."""

    chips: np.ndarray          # float64[hands]: the portfolio's chips, raw
    adjusted: np.ndarray       # float64[hands]: the same, all-in adjusted
    chosen: np.ndarray         # int64[hands]: the member that played
    probabilities: np.ndarray  # float64[hands, K]: the probabilities it was drawn with
    agreed: np.ndarray         # bool[hands, K]: the members that agreed with the hand
    gains: np.ndarray          # float64[K]: the estimates after the last hand
    weights: np.ndarray        # float64[K]: Exp3's weights after the last hand
    traces: np.ndarray         # int64[hands, rows, 3]: each hand's actions (round, code,
                               # raise-to; -1 after the last), if asked for (else [0, rows, 3])


@helper
def exp3_probabilities(weights, exploration, out):
    """`bot.portfolio.Exp3.probabilities`, in its order of operations."""
    floor = exploration / weights.shape[0]
    for k in range(weights.shape[0]):
        out[k] = (1.0 - exploration) * weights[k] + floor


@helper
def exp3_weights(weights, estimates, learning_rate, share, work):
    """`bot.portfolio.Exp3.update`'s new weights, in its order of operations (`work`: scratch)."""
    members = weights.shape[0]
    for k in range(members):
        work[k] = math.log(weights[k]) + learning_rate * estimates[k]
    top = work[0]
    for k in range(1, members):
        if work[k] > top:
            top = work[k]
    total = 0.0
    for k in range(members):
        work[k] = math.exp(work[k] - top)
        total += work[k]
    mix = share / members
    for k in range(members):
        weights[k] = (1.0 - share) * work[k] / total + mix


@helper
def exp3_choose(probabilities, uniform):
    """`bot.portfolio.Exp3.choose`."""
    cumulative = 0.0
    for k in range(probabilities.shape[0]):
        cumulative += probabilities[k]
        if uniform < cumulative:
            return k
    return probabilities.shape[0] - 1


@helper
def _play_member(rules, kinds, params, member_params, opponent_params, position, v, rng_state,
                 seed, hand_number, trace, hand, ranged, holes, board, tables, preflop_v):
    """One hand with `member_params` at `position` and the opponent at the other; `kinds` and
    `ranged` are already set by position. Returns the generator state after the hand."""
    params[position] = member_params
    params[1 - position] = opponent_params
    trace[:] = -1
    no_cache = np.empty((0, 16))
    return _play_ranged(rules, kinds, params, v, rng_state, seed, hand_number, trace, hand,
                        ranged, holes, board, tables, preflop_v, np.zeros(2),
                        (no_cache, no_cache))


@helper
def _portfolio_match(rules, member_kinds, member_params, opponent_kind, opponent_params, deals,
                     seed, first_hand, seat, duplicate, exploration, learning_rate, tracking,
                     big_blind, chips, adjusted, chosen, probabilities, agreed, gains, weights,
                     traces, tables, preflop_v):
    members = member_kinds.shape[0]
    estimates = np.empty(members, dtype=np.float64)
    work = np.empty(members, dtype=np.float64)
    hand = np.empty(HAND_STATE_SIZE, dtype=np.int64)
    replay = np.empty(HAND_STATE_SIZE, dtype=np.int64)
    trace = np.empty((_TRACE_ROWS, 3), dtype=np.int64)
    other = np.empty((_TRACE_ROWS, 3), dtype=np.int64)
    kinds = np.empty(2, dtype=np.int64)
    params = np.empty((2, member_params.shape[1]), dtype=np.float64)
    ranged = np.zeros(2, dtype=np.bool_)
    member_ranged = np.zeros(members, dtype=np.bool_)
    for k in range(members):
        member_ranged[k] = is_range_aware(member_kinds[k], member_params[k])
    opponent_ranged = is_range_aware(opponent_kind, opponent_params)
    has_cards = deals.holes.shape[0] > 0
    empty_holes = np.zeros((2, 2), dtype=np.uint8)
    empty_board = np.zeros(5, dtype=np.uint8)
    p = np.empty(members, dtype=np.float64)
    for h in range(chips.shape[0]):
        deal = h // 2 if duplicate else h
        hand_number = first_hand + h
        position = (h + seat) % 2
        exp3_probabilities(weights, exploration, p)
        probabilities[h] = p
        pick = exp3_choose(p, portfolio_uniform(seed, hand_number))
        chosen[h] = pick
        holes = deals.holes[deal] if has_cards else empty_holes
        board = deals.boards[deal] if has_cards else empty_board
        rng_start = stream_seed(seed, hand_number)
        kinds[position] = member_kinds[pick]
        kinds[1 - position] = opponent_kind
        ranged[position] = member_ranged[pick]
        ranged[1 - position] = opponent_ranged
        _play_member(rules, kinds, params, member_params[pick], opponent_params, position,
                     deals.v[deal], rng_start, seed, hand_number, trace, hand, ranged, holes, board,
                     tables, preflop_v)
        if traces.shape[0] > 0:
            traces[h] = trace
        sign = 1.0 if position == 0 else -1.0
        chips[h] = sign * payoff_of(hand, deals.outcomes[deal])
        adjusted[h] = sign * adjusted_payoff_of(hand, deals.outcomes[deal],
                                               deals.allin_equity[deal])
        share = 0.0
        for k in range(members):
            if k == pick:
                agreed[h, k] = True
            else:
                kinds[position] = member_kinds[k]
                ranged[position] = member_ranged[k]
                _play_member(rules, kinds, params, member_params[k], opponent_params,
                             position, deals.v[deal], rng_start, seed, hand_number, other,
                             replay, ranged, holes, board, tables, preflop_v)
                agreed[h, k] = (other == trace).all()
            if agreed[h, k]:
                share += p[k]
        reward = adjusted[h] / big_blind
        for k in range(members):
            estimates[k] = reward / share if agreed[h, k] else 0.0
            gains[k] += estimates[k]
        exp3_weights(weights, estimates, learning_rate, tracking, work)


@njit
def _match_kernel(rules, member_kinds, member_params, opponent_kind, opponent_params, deals,
                  seed, first_hand, seat, duplicate, exploration, learning_rate, tracking,
                  big_blind, chips, adjusted, chosen, probabilities, agreed, gains, weights,
                  traces, tables, preflop_v):
    _portfolio_match(rules, member_kinds, member_params, opponent_kind, opponent_params, deals,
                     seed, first_hand, seat, duplicate, exploration, learning_rate, tracking,
                     big_blind, chips, adjusted, chosen, probabilities, agreed, gains, weights,
                     traces, tables, preflop_v)


def encode_portfolio(portfolio) -> tuple[np.ndarray, np.ndarray]:
    """(kinds int64[K], params float64[K, n]): the members as the engine reads them."""
    encoded = [encode_strategy(member) for member in portfolio.strategies]
    return (np.array([kind for kind, _ in encoded], dtype=np.int64),
            np.stack([vector for _, vector in encoded]))


def play_portfolio(rules, portfolio, opponent, deal_set, seed: int, big_blind: int,
                   stack: int, seat: int = 0, duplicate: bool = True, first_hand: int = 0,
                   start=None, traces: bool = False) -> PortfolioMatch:
    """A portfolio (`bot.portfolio.Portfolio`) in seat `seat` against `opponent` (what
    `encode_strategy` takes) over `deal_set` (a `training.deals.DealSet`): one match of twice
    as many hands as deals (`duplicate`) or as many, as the module docstring says. `start`: a
    match whose estimates and weights this one continues (default: from scratch); a
    `bot.switch.Switch` opponent is played in two parts, the second continuing the first. With
    `traces`, each hand's actions are kept (`hand_states` reads them back)."""
    from gambler.bot.switch import Switch

    if isinstance(opponent, Switch):
        return _play_switch(rules, portfolio, opponent, deal_set, seed, big_blind, stack, seat,
                            duplicate, first_hand, traces)
    member_kinds, member_params = encode_portfolio(portfolio)
    opponent_kind, opponent_params = encode_strategy(opponent)
    strategies = [(kind, params) for kind, params in zip(member_kinds, member_params)]
    holes, boards, tables, preflop_v = _range_context(
        strategies + [(opponent_kind, opponent_params)],
        getattr(deal_set, "holes", None), getattr(deal_set, "boards", None), None)
    deals = DealArrays(deal_set.v, deal_set.outcomes, deal_set.allin_equity, holes, boards)
    hands = deal_set.v.shape[0] * (2 if duplicate else 1)
    members = member_kinds.shape[0]
    match = PortfolioMatch(np.zeros(hands), np.zeros(hands), np.zeros(hands, dtype=np.int64),
                           np.zeros((hands, members)), np.zeros((hands, members), dtype=np.bool_),
                           np.zeros(members) if start is None else start.gains.copy(),
                           np.full(members, 1.0 / members) if start is None
                           else start.weights.copy(),
                           np.full((hands if traces else 0, _TRACE_ROWS, 3), -1,
                                   dtype=np.int64))
    _match_kernel(rules, member_kinds, member_params, opponent_kind, opponent_params, deals, seed,
                  first_hand, seat, duplicate, portfolio.exploration,
                  portfolio.rate_for(stack / big_blind), portfolio.share, float(big_blind),
                  *match, tables, preflop_v)
    return match


def _play_switch(rules, portfolio, switch, deal_set, seed, big_blind, stack, seat, duplicate,
                 first_hand, traces) -> PortfolioMatch:
    """`play_portfolio` against a switch: the hands before `switch.at` against `first`, the rest
    against `then`, from the estimates the first part ended with."""
    per_deal = 2 if duplicate else 1
    hands = deal_set.v.shape[0] * per_deal
    split = min(max(switch.at - first_hand, 0), hands)
    if split % per_deal:
        raise EngineError(f"a duplicate match switches between the two hands of a deal (hand "
                          f"{switch.at:,}): use an even hand number")
    parts = []
    previous = None
    for opponent, start, stop in ((switch.first, 0, split), (switch.then, split, hands)):
        if stop > start:
            part = play_portfolio(rules, portfolio, opponent,
                                  deal_set.slice(start // per_deal, stop // per_deal), seed,
                                  big_blind, stack, seat=(seat + start) % 2, duplicate=duplicate,
                                  first_hand=first_hand + start, start=previous,
                                  traces=traces)
            previous = part
            parts.append(part)
    return PortfolioMatch(*(np.concatenate([getattr(part, name) for part in parts])
                            for name in PortfolioMatch._fields[:-3]), previous.gains,
                          previous.weights, np.concatenate([part.traces for part in parts]))


def hand_states(match: PortfolioMatch, deal_set, game, seat: int = 0, duplicate: bool = True,
                first_hand: int = 0) -> list:
    """The final state of each hand of a match played with `traces`, as the dealer sends it to
    the portfolio (`protocol.matchstate.MatchState`: its position, the whole betting, its own
    cards and the opponent's only after a showdown): what `bot.opponent.OpponentStats` counts."""
    from gambler.protocol.betting import Action, BettingState
    from gambler.protocol.matchstate import MatchState
    from gambler.training.engine import CALL_CODE, FOLD_CODE

    states = []
    for h, trace in enumerate(match.traces):
        deal = h // 2 if duplicate else h
        position = (h + seat) % 2
        betting = BettingState.start(game)
        for _, code, amount in trace[trace[:, 0] >= 0]:
            betting = betting.apply(Action("f") if code == FOLD_CODE else Action("c")
                                    if code == CALL_CODE else Action("r", int(amount)))
        holes = tuple(tuple(int(card) for card in deal_set.holes[deal, p]) for p in range(2))
        shown = tuple(holes[p] if p == position or not any(betting.folded) else ()
                      for p in range(2))
        board = tuple(int(card) for card in deal_set.boards[deal])
        states.append(MatchState(position, first_hand + h, betting, shown,
                                 board[:betting.board_cards_visible]))
    return states
