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
actions taken at each of the portfolio's decisions. A hand in which a member or the opponent has
range defence (version 5) is played by `training.defended`'s loop, which keeps that player's own
range through the hand, as the TCP bot does.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from gambler.bot.chart import CLASS_COUNT
from gambler.evaluator.holdings import HOLDINGS
from gambler.evaluator.rng import portfolio_uniform, stream_seed
from gambler.jit import helper, njit
from gambler.training.defended import _play_defended, ranked_preflop
from gambler.training.engine import (FOLD_CODE, FOLDED, HAND_STATE_SIZE, MAX_ACTIONS,
                                     DealArrays, EngineError, _padded,
                                     _play_ranged, _range_context, adjusted_payoff_of,
                                     encode_strategy, is_range_aware, payoff_of, stack_vectors,
                                     uses_own_range)

_TRACE_ROWS = 4 * MAX_ACTIONS  # every action a hand can have

#: A portfolio met as an opponent (an exploiter search, a training pool) plays matches of 1,500
#: deals, 3,000 hands, as `gambler-match` plays one, learning from scratch in each.
PORTFOLIO_MATCH_DEALS = 1500


class Holdings(NamedTuple):
    """What a hand with range defence needs besides the deal (`training.defended`): every
    holding's v on each deal's board and the holdings' tables (empty arrays when no strategy of
    the match has range defence)."""

    holding_v: np.ndarray      # float64[deals, 3, 1326]: `defended.deal_set_holding_rates`
    preflop_v: np.ndarray      # float64[1326]      } `defended.holdings_tables`
    holding_cards: np.ndarray  # int64[1326, 2]     }
    holding_class: np.ndarray  # int64[1326]        }


def no_holdings() -> Holdings:
    """`Holdings` for a match in which no strategy has range defence."""
    return Holdings(np.zeros((0, 3, HOLDINGS)), np.zeros(0), np.zeros((0, 2), dtype=np.int64),
                    np.zeros(0, dtype=np.int64))


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
    estimates: np.ndarray | None = None  # float64[hands, K]: what each slot gained from hand h


@helper
def exp3_probabilities(weights, exploration, excluded, out):
    """`bot.portfolio.Exp3.probabilities`, in its order of operations."""
    floor = exploration / weights.shape[0]
    for k in range(weights.shape[0]):
        out[k] = (1.0 - exploration) * weights[k] + floor
    if excluded >= 0:
        removed = out[excluded]
        for k in range(weights.shape[0]):
            out[k] = 0.0 if k == excluded else out[k] / (1.0 - removed)


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
def level_weights(weights, slot, lead):
    """`bot.portfolio.level_weights`, in place, in its order of operations."""
    top = -1.0
    for k in range(weights.shape[0]):
        if k != slot and weights[k] > top:
            top = weights[k]
    weights[slot] = lead * top
    total = 0.0
    for k in range(weights.shape[0]):
        total += weights[k]
    for k in range(weights.shape[0]):
        weights[k] = weights[k] / total


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
                 seed, hand_number, trace, hand, ranged, holes, board, tables, preflop_v,
                 defended, holding_v, holdings, own, percentiles, shares, keys, order):
    """One hand with `member_params` at `position` and the opponent at the other; `kinds`,
    `ranged` and `defended` are already set by position. A hand in which a player has range
    defence (`defended`) is `training.defended`'s (`_play_defended`: `holding_v` the deal's
    holdings' v, `holdings` the `Holdings` tables, `own` .. `order` its work space). Returns
    the generator state after the hand."""
    params[position] = member_params
    params[1 - position] = opponent_params
    trace[:] = -1
    if defended[0] or defended[1]:
        return _play_defended(rules, kinds, params, v, rng_state, seed, hand_number, trace, hand,
                              defended, holes, board, holding_v, holdings.preflop_v,
                              holdings.holding_cards, holdings.holding_class, own, percentiles,
                              shares, keys, order)
    no_cache = np.empty((0, 16))
    return _play_ranged(rules, kinds, params, v, rng_state, seed, hand_number, trace, hand,
                        ranged, holes, board, tables, preflop_v, np.zeros(2),
                        (no_cache, no_cache))


@helper
def _portfolio_match(rules, member_kinds, member_params, opponent_kind, opponent_params, deals,
                     seed, first_hand, seat, duplicate, exploration, learning_rate, tracking,
                     big_blind, reveal_folds, model_slot, model_ready, risk, own_account,
                     adjusted_account, counted_floor, lead, levelled, account, start, stop, chips,
                     adjusted, chosen, probabilities, agreed, gains, weights, traces, estimates,
                     tables, preflop_v, holdings):
    """Hands start .. stop - 1 of the match (the arrays hold all of it); `model_slot` (-1:
    none) is drawn, and credited, only if `model_ready` and the chips of the hands before are at
    least `risk` (with `own_account`, the chips of the hands before that the model played:
    `bot.portfolio`, "The model's own account"; with `adjusted_account`, each of them all-in
    adjusted: "An account without the run-outs' luck"; each hand counted at no less than
    `counted_floor` chips: "A hand's loss counted up to a limit"); the first time it can be, it is
    levelled (its weight `lead` times the best member's; `levelled[0]` then True). `account[0]`
    holds those chips over the hands before `start` (left there by the call before) and, on
    return, over the hands before `stop`. With `reveal_folds` the estimates are the folds
    estimator's (`bot.portfolio.revealed_estimates`), else the agreement estimator's.
    `holdings`: the deals' holdings for hands with range defence (`Holdings`)."""
    members = member_kinds.shape[0]
    estimate = np.empty(members, dtype=np.float64)
    reached = np.empty(members, dtype=np.int64)   # each slot's first differing row
    point = np.empty(members, dtype=np.int64)     # the row its result is revealed at
    value = np.empty(members, dtype=np.float64)   # ... and the result (big blinds)
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
    defended = np.zeros(2, dtype=np.bool_)
    member_defended = np.zeros(members, dtype=np.bool_)
    opponent_defended = uses_own_range(opponent_kind, opponent_params)
    for k in range(members):
        member_defended[k] = uses_own_range(member_kinds[k], member_params[k])
    any_defended = holdings.holding_v.shape[0] > 0  # `_holdings_for`: some player defends
    own = np.zeros((2, 4, HOLDINGS), dtype=np.float64)
    percentiles = np.zeros(HOLDINGS, dtype=np.float64)
    shares = np.zeros(CLASS_COUNT, dtype=np.float64)
    keys = np.zeros((2, HOLDINGS), dtype=np.float64)
    order = np.zeros((2, HOLDINGS), dtype=np.int64)
    if any_defended:
        keys, order = ranked_preflop(holdings.preflop_v)
    no_holding_v = np.zeros((3, HOLDINGS), dtype=np.float64)
    has_cards = deals.holes.shape[0] > 0
    empty_holes = np.zeros((2, 2), dtype=np.uint8)
    empty_board = np.zeros(5, dtype=np.uint8)
    p = np.empty(members, dtype=np.float64)
    for h in range(start, stop):
        deal = h // 2 if duplicate else h
        hand_number = first_hand + h
        position = (h + seat) % 2
        excluded = -1
        if model_slot >= 0 and (not model_ready or account[0] < risk):
            excluded = model_slot
        elif model_slot >= 0 and not levelled[0]:
            level_weights(weights, model_slot, lead)
            levelled[0] = True
        exp3_probabilities(weights, exploration, excluded, p)
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
        defended[position] = member_defended[pick]
        defended[1 - position] = opponent_defended
        holding_v = holdings.holding_v[deal] if any_defended else no_holding_v
        _play_member(rules, kinds, params, member_params[pick], opponent_params, position,
                     deals.v[deal], rng_start, seed, hand_number, trace, hand, ranged, holes, board,
                     tables, preflop_v, defended, holding_v, holdings, own, percentiles, shares,
                     keys, order)
        if traces.shape[0] > 0:
            traces[h] = trace
        sign = 1.0 if position == 0 else -1.0
        chips[h] = sign * payoff_of(hand, deals.outcomes[deal])
        adjusted[h] = sign * adjusted_payoff_of(hand, deals.outcomes[deal],
                                               deals.allin_equity[deal])
        reward = adjusted[h] / big_blind
        rows = 0  # the hand's actions; the last is our fold when hand[FOLDED] is our position
        while rows < _TRACE_ROWS and trace[rows, 0] >= 0:
            rows += 1
        whole = rows - 1 if hand[FOLDED] == position else _TRACE_ROWS
        share = 0.0
        for k in range(members):
            reached[k], point[k], value[k] = _TRACE_ROWS, whole, reward
            if k == pick:
                agreed[h, k] = True
            elif k == excluded:  # could not be drawn: learns nothing (bot.portfolio)
                agreed[h, k] = False
                reached[k], point[k] = -1, _TRACE_ROWS + 1
            else:
                kinds[position] = member_kinds[k]
                ranged[position] = member_ranged[k]
                defended[position] = member_defended[k]
                _play_member(rules, kinds, params, member_params[k], opponent_params,
                             position, deals.v[deal], rng_start, seed, hand_number, other,
                             replay, ranged, holes, board, tables, preflop_v, defended,
                             holding_v, holdings, own, percentiles, shares, keys, order)
                agreed[h, k] = (other == trace).all()
                if not agreed[h, k]:
                    first = 0
                    while (other[first] == trace[first]).all():
                        first += 1
                    reached[k], point[k] = first, _TRACE_ROWS + 1
                    if other[first, 1] == FOLD_CODE:  # it folds where the hand went on
                        point[k] = first
                        value[k] = sign * payoff_of(replay, deals.outcomes[deal]) / big_blind
            if agreed[h, k]:
                share += p[k]
        for k in range(members):
            if not reveal_folds:
                estimate[k] = reward / share if agreed[h, k] else 0.0
            elif point[k] > _TRACE_ROWS:  # nothing revealed
                estimate[k] = 0.0
            else:
                chance = 0.0
                for j in range(members):
                    if reached[j] >= point[k]:
                        chance += p[j]
                estimate[k] = value[k] / chance
            gains[k] += estimate[k]
            estimates[h, k] = estimate[k]
        exp3_weights(weights, estimate, learning_rate, tracking, work)
        if not own_account or pick == model_slot:  # the chips the budget counts
            account[0] += max(adjusted[h] if adjusted_account else chips[h], counted_floor)


@njit
def _match_kernel(rules, member_kinds, member_params, opponent_kind, opponent_params, deals,
                  seed, first_hand, seat, duplicate, exploration, learning_rate, tracking,
                  big_blind, reveal_folds, model_slot, model_ready, risk, own_account,
                  adjusted_account, counted_floor, lead, levelled, account, start, stop, chips,
                  adjusted, chosen, probabilities, agreed, gains, weights, traces, estimates,
                  tables, preflop_v, holdings):
    _portfolio_match(rules, member_kinds, member_params, opponent_kind, opponent_params, deals,
                     seed, first_hand, seat, duplicate, exploration, learning_rate, tracking,
                     big_blind, reveal_folds, model_slot, model_ready, risk, own_account,
                     adjusted_account, counted_floor, lead, levelled, account, start, stop, chips,
                     adjusted, chosen, probabilities, agreed, gains, weights, traces, estimates,
                     tables, preflop_v, holdings)


def encode_portfolio(portfolio) -> tuple[np.ndarray, np.ndarray]:
    """(kinds int64[K], params float64[K, n]): the slots as the engine reads them (a model's
    slot, before its first counter, as a copy of the first member: never played)."""
    encoded = [encode_strategy(member) for member in portfolio.strategies]
    if portfolio.model is not None:
        encoded.append(encoded[0])
    return (np.array([kind for kind, _ in encoded], dtype=np.int64),
            stack_vectors([vector for _, vector in encoded]))


def _holdings_for(strategies, deal_set) -> Holdings:
    """The `Holdings` of `deal_set` (a `training.deals.DealSet`) when one of `strategies` (kind,
    params) has range defence, else empty ones. A hand with range defence is
    `training.defended`'s, which does not narrow an opponent's range: a match of both kinds
    is refused (`EngineError`)."""
    if not any(uses_own_range(kind, np.asarray(params)) for kind, params in strategies):
        return no_holdings()
    if any(is_range_aware(kind, np.asarray(params)) for kind, params in strategies):
        raise EngineError("a portfolio's match on the fast engine does not play range defence "
                          "(version 5) and range-aware v (narrow < 1) together: play it with "
                          "--engine dealer")
    if getattr(deal_set, "holes", None) is None or getattr(deal_set, "boards", None) is None:
        raise EngineError("range defence needs the deals' cards: a deal set made with them")
    from gambler.training.defended import deal_set_holding_rates, holdings_tables

    holding_v = deal_set_holding_rates(deal_set.seed, deal_set.first_deal, len(deal_set))
    return Holdings(holding_v, *holdings_tables())


def play_portfolio(rules, portfolio, opponent, deal_set, seed: int, big_blind: int,
                   stack: int, seat: int = 0, duplicate: bool = True, first_hand: int = 0,
                   start=None, traces: bool = False, game=None,
                   refresh=None) -> PortfolioMatch:
    """A portfolio (`bot.portfolio.Portfolio`) in seat `seat` against `opponent` (what
    `encode_strategy` takes, or a `bot.switch.Switch`) over `deal_set` (a `training.deals.
    DealSet`): one match of twice as many hands as deals (`duplicate`) or as many, as the module
    docstring says. `start`: a match whose estimates and weights this one continues (default:
    from scratch). With `traces`, each hand's actions are kept (`hand_states` reads them back).

    The match is played in parts, each one kernel call: a switch changes the opponent at its
    hand; a model member's counter k takes the slot at hand k x every (`bot.portfolio`), found by
    `refresh(game, portfolio, stats, k)` (default `training.counter.refresh_counter`) from the
    opponent's counts over the hands before k x every - lag (the last `window` of them, with a
    window), which the engine reads back from its traces as the TCP bot sees them (`game`:
    default the standard no-limit game)."""
    from gambler.bot.switch import Switch

    first, then, at = ((opponent.first, opponent.then, opponent.at)
                       if isinstance(opponent, Switch) else (opponent, opponent, None))
    per_deal = 2 if duplicate else 1
    hands = deal_set.v.shape[0] * per_deal
    cuts = {0, hands}
    split = hands
    if at is not None:
        split = min(max(at - first_hand, 0), hands)
        if split % per_deal:
            raise EngineError(f"a duplicate match switches between the two hands of a deal "
                              f"(hand {at:,}): use an even hand number")
        cuts.add(split)
    model = portfolio.model
    refreshes = {}  # hand index -> the counter that takes effect there
    if model is not None:
        refresh_index = max(first_hand // model.every, 0) + 1
        while model.refresh_at(refresh_index) - first_hand < hands:
            refreshes[model.refresh_at(refresh_index) - first_hand] = refresh_index
            refresh_index += 1
        cuts.update(refreshes)
    member_kinds, member_params = encode_portfolio(portfolio)
    opponents = [encode_strategy(first), encode_strategy(then)]
    # One width for every vector the kernel seats (a chart makes a profile's longer), the model's
    # counters included: each is climbed from a start and keeps its chart, so its length.
    starts = [encode_strategy(profile) for profile in
              (model.start_profiles if model is not None else ())]
    width = max(vector.shape[-1] for vector in
                [member_params, *(vector for _, vector in opponents + starts)])
    member_params = _padded(member_params, width)
    opponents = [(kind, _padded(np.asarray(vector, dtype=np.float64), width))
                 for kind, vector in opponents]
    strategies = [(kind, params) for kind, params in zip(member_kinds, member_params)]
    holdings = _holdings_for(strategies + opponents + starts, deal_set)  # counters: as starts
    holes, boards, tables, preflop_v = _range_context(
        strategies + opponents, getattr(deal_set, "holes", None),
        getattr(deal_set, "boards", None), None)
    deals = DealArrays(deal_set.v, deal_set.outcomes, deal_set.allin_equity, holes, boards)
    slots = member_kinds.shape[0]
    keep = traces or model is not None
    match = PortfolioMatch(np.zeros(hands), np.zeros(hands), np.zeros(hands, dtype=np.int64),
                           np.zeros((hands, slots)), np.zeros((hands, slots), dtype=np.bool_),
                           np.zeros(slots) if start is None else start.gains.copy(),
                           np.full(slots, 1.0 / slots) if start is None
                           else start.weights.copy(),
                           np.full((hands if keep else 0, _TRACE_ROWS, 3), -1, dtype=np.int64),
                           np.zeros((hands, slots)))
    rate = portfolio.rate_for(stack / big_blind)
    model_ready = False
    levelled = np.zeros(1, dtype=np.bool_)
    account = np.zeros(1)  # the model's account over the hands played so far (the kernel's)
    if model is not None:
        from gambler.bot.opponent import OpponentStats

        if game is None:
            from gambler.protocol.gamedef import load_game
            game = load_game()
        if refresh is None:
            from gambler.training.counter import refresh_counter as refresh
        stats, observed = OpponentStats(), 0
    bar = float(model.threshold(stack, big_blind) if model is not None else stack)
    renewals = 0  # times the bar moved (`bot.portfolio`, "More than one chance")
    bounds = sorted(cuts)
    for begin, end in zip(bounds, bounds[1:]):
        if begin in refreshes:
            index = refreshes[begin]
            fitted = min(max(model.fitted_before(index) - first_hand, 0), hands)
            if model.window:  # the window's hands alone, counted afresh
                stats = OpponentStats()
                observed = min(max(model.fitted_from(index) - first_hand, 0), fitted)
            for state in hand_states(match, deal_set, game, seat, duplicate, first_hand,
                                     hands=range(observed, fitted)):
                stats.observe(state)
            observed = max(observed, fitted)
            found = refresh(game, portfolio, stats, index)
            kind, vector = encode_strategy(found.profile)
            member_kinds[-1], member_params[-1] = kind, _padded(vector, width)
            model_ready = True
            bar, renewals = model.renewed_bar(float(account[0]), bar, renewals, stack,
                                              big_blind)
        opponent_kind, opponent_params = opponents[0 if begin < split else 1]
        _match_kernel(rules, member_kinds, member_params, opponent_kind, opponent_params, deals,
                      seed, first_hand, seat, duplicate, portfolio.exploration, rate,
                      portfolio.share, float(big_blind), portfolio.estimator == "folds",
                      portfolio.model_slot, model_ready, bar,
                      model is not None and model.budget == "model",
                      model is not None and model.account == "adjusted",
                      model.counted_floor(big_blind) if model is not None else -np.inf,
                      float(model.lead if model is not None else 1), levelled, account,
                      begin, end,
                      *match, tables, preflop_v, holdings)
    if keep and not traces:
        match = match._replace(traces=match.traces[:0])
    return match


def chips_against(rules, strategy, portfolio, deal_set, seed: int, game):
    """`strategy`'s `training.evaluate.Chips` per deal against `portfolio` on `deal_set`, as a
    fixed opponent meets a learning one: consecutive matches of `PORTFOLIO_MATCH_DEALS` deals
    (match k with seed `seed + k`), the portfolio learning from scratch in each (its model
    member's counters included); each deal's two hands, positions swapped, summed."""
    from gambler.training.evaluate import Chips

    raw, adjusted = [], []
    count = deal_set.v.shape[0]
    for index, start in enumerate(range(0, count, PORTFOLIO_MATCH_DEALS)):
        part = deal_set.slice(start, min(start + PORTFOLIO_MATCH_DEALS, count))
        match = play_portfolio(rules, portfolio, strategy, part, seed + index, game.big_blind,
                               min(game.stacks), game=game)
        raw.append(-match.chips.reshape(-1, 2).sum(axis=1))
        adjusted.append(-match.adjusted.reshape(-1, 2).sum(axis=1))
    return Chips(np.concatenate(raw).astype(np.int64), np.concatenate(adjusted))


def hand_states(match: PortfolioMatch, deal_set, game, seat: int = 0, duplicate: bool = True,
                first_hand: int = 0, hands: range | None = None) -> list:
    """The final state of each hand of a match played with `traces` (or of `hands`, a range of
    its hand indices), as the dealer sends it to the portfolio (`protocol.matchstate.MatchState`:
    its position, the whole betting, its own cards and the opponent's only after a showdown):
    what `bot.opponent.OpponentStats` counts."""
    from gambler.protocol.betting import Action, BettingState
    from gambler.protocol.matchstate import MatchState
    from gambler.training.engine import CALL_CODE, FOLD_CODE

    states = []
    for h in range(match.traces.shape[0]) if hands is None else hands:
        trace = match.traces[h]
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
