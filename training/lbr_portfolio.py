"""LBR against a portfolio: a local best response told which member plays each hand.

`training.lbr` plays LBR against a fixed strategy. A portfolio (`bot.portfolio`) is not one: it
draws a member for each hand by Exp3 and, with a model member, installs a counter-strategy fitted
to its opponent every `every` hands. Against it LBR plays as against a fixed strategy, hand by
hand, and is told more than a real opponent could know: **which member was drawn for the hand**.
It then plays its one-step best response (`training.lbr`, steps 1-4) against that member's range
alone, where an LBR that knew only the rule would face the mixture of the members' ranges,
weighted by the probabilities of the draw. The portfolio's randomness therefore hides nothing
from it, and what it wins is what a local best response wins against whatever the portfolio
learns to play against it; the counters are fitted to LBR's own play (its actions counted by
`bot.opponent.OpponentStats` from the hands as the dealer would show them).

A measurement is a run of matches of `PORTFOLIO_MATCH_DEALS` duplicate deals (3,000 hands),
the portfolio learning from scratch in each, as `gambler-match` meets a portfolio
(`training.portfolio.chips_against`): match k plays deals k x 1,500 ... of the deal seed, with
`seed + k` for the portfolio's draws (`evaluator.rng.portfolio_uniform`) and its members' mixed
play. Hand h of a match plays deal h // 2, the portfolio at position h % 2 and LBR at the other;
the draw, the estimates (either estimator), the budget of the model member and its levelling
follow `training.portfolio._portfolio_match` step for step, LBR playing every member's replay
(a member agrees with the hand when LBR, told that member, would have seen the same actions).
A member's mixed play is drawn as `training.lbr` draws it (hand number 2 x deal + LBR's
position), not as the portfolio's own match numbers its hands: the play is the same rule with
other dice.

Matches are independent, so `workers` processes play them side by side; each match is
sequential (every hand's draw depends on the hands before).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from gambler.evaluator.rng import portfolio_uniform
from gambler.training.engine import FOLD_CODE
from gambler.training.evaluate import Score, score_matches
from gambler.training.lbr import (LbrDeals, LbrResult, deal_arrays, lbr_hand, lbr_tables,
                                  parse_action_sets)
from gambler.training.portfolio import _TRACE_ROWS, PORTFOLIO_MATCH_DEALS


class PortfolioLbrMatch(NamedTuple):
    """One match of LBR against a portfolio, deal d of the match in row d."""

    chips: np.ndarray     # int64[deals, 2]: LBR's chips at position 0 and at position 1
    adjusted: np.ndarray  # float64[deals, 2]: the same, all-in adjusted
    lines: np.ndarray     # int64[deals, 2, 4]: LBR's first bet or raise (`training.lbr`)
    chosen: np.ndarray    # int64[hands]: the slot that played hand h
    model_hands: int      # hands the model's slot played


class _Context(NamedTuple):
    """What every hand of a measurement reads, loaded once per process."""

    rules: np.ndarray
    tables: object
    lookups: object
    action_sets: np.ndarray


def _context(game, actions) -> _Context:
    from gambler.evaluator.tables import load_tables
    from gambler.training.engine import encode_rules

    return _Context(encode_rules(game), load_tables(), lbr_tables(),
                    parse_action_sets(actions, game.num_rounds))


def play_lbr_match(portfolio, game, deals: LbrDeals, first: int, count: int, seed: int,
                   actions, context: _Context | None = None, refresh=None) -> PortfolioLbrMatch:
    """LBR (told the member drawn) against `portfolio` over deals first .. first + count - 1
    of `deals`, both seats of each, the portfolio learning from scratch with `seed` (module
    docstring). `refresh(game, portfolio, stats, k)` finds counter k (default
    `training.counter.refresh_counter`)."""
    from gambler.bot.opponent import OpponentStats
    from gambler.bot.portfolio import Exp3, revealed_estimates
    from gambler.training.deals import HOLDINGS_CHUNK, cached_holding_rates
    from gambler.training.engine import check_chart, encode_strategy
    from gambler.training.portfolio import hand_states

    context = context or _context(game, actions)
    if refresh is None:
        from gambler.training.counter import refresh_counter as refresh
    encoded = [encode_strategy(member) for member in portfolio.strategies]
    model = portfolio.model
    if model is not None:
        encoded.append(encoded[0])  # the model's slot before its first counter: never drawn
    for kind, params in encoded:
        check_chart(kind, params, context.rules)
    slots = len(encoded)
    model_slot = portfolio.model_slot
    hands = 2 * count
    rule = Exp3(slots, portfolio.exploration, portfolio.rate_for(min(game.stacks) /
                                                                  game.big_blind),
                portfolio.share)
    risk = float(model.threshold(min(game.stacks), game.big_blind)) if model else 0.0
    own_account = model is not None and model.budget == "model"
    adjusted_account = model is not None and model.account == "adjusted"
    big_blind = float(game.big_blind)
    chips = np.zeros((count, 2), dtype=np.int64)
    adjusted = np.zeros((count, 2), dtype=np.float64)
    lines = np.zeros((count, 2, 4), dtype=np.int64)
    chosen = np.zeros(hands, dtype=np.int64)
    traces = np.full((hands, _TRACE_ROWS, 3), -1, dtype=np.int64)
    other = np.empty((_TRACE_ROWS, 3), dtype=np.int64)
    spare_line = np.empty(4, dtype=np.int64)
    no_ranges = np.empty((0, 3), dtype=np.int64)
    refreshes = {}
    if model is not None:
        index = 1
        while model.refresh_at(index) < hands:
            refreshes[model.refresh_at(index)] = index
            index += 1
    stats, observed, model_ready, levelled = OpponentStats(), 0, False, False
    account = 0.0
    renewals = 0  # times the bar moved (`bot.portfolio`, "More than one chance")
    holdings = {}  # chunk start -> (its deals as DealArrays, its holdings' v)

    def deal_of(number):
        start = number - number % HOLDINGS_CHUNK
        if start not in holdings:
            holdings.clear()  # a match reads its chunks in order: keep one
            size = min(HOLDINGS_CHUNK, deals.count - start)
            holdings[start] = (deal_arrays(deals.deals.slice(start, start + size)),
                               cached_holding_rates(deals.seed, start, size))
        arrays, holding_v = holdings[start]
        return arrays, holding_v, number - start, start

    for h in range(hands):
        if h in refreshes:
            k = refreshes[h]
            fitted = min(max(model.fitted_before(k), 0), hands)
            if model.window:
                stats = OpponentStats()
                observed = min(max(model.fitted_from(k), 0), fitted)
            states = hand_states(_Traces(traces), _MatchDeals(deals, first), game,
                                 hands=range(observed, fitted))
            for state in states:
                stats.observe(state)
            observed = max(observed, fitted)
            found = refresh(game, portfolio, stats, k)
            encoded[model_slot] = encode_strategy(found.profile)
            model_ready = True
            risk, renewals = model.renewed_bar(account, risk, renewals, min(game.stacks),
                                               game.big_blind)
        deal, position = h // 2, h % 2
        lbr = 1 - position
        excluded = -1
        if model is not None and (not model_ready or account < risk):
            excluded = model_slot
        elif model is not None and not levelled:
            rule.level(model_slot, model.lead)
            levelled = True
        probabilities = rule.probabilities(excluded)
        pick = rule.choose(portfolio_uniform(seed, h), probabilities)
        chosen[h] = pick
        arrays, holding_v, i, start = deal_of(first + deal)
        kind, params = encoded[pick]
        trace = traces[h]
        raw, allin, folded = lbr_hand(context.rules, lbr, kind, params, arrays, holding_v, i,
                                      start, seed, context.tables, context.lookups,
                                      context.action_sets, trace, no_ranges, lines[deal, lbr])
        sign = 1 if lbr == 0 else -1
        chips[deal, lbr] = sign * raw
        adjusted[deal, lbr] = sign * allin
        ours_raw, reward = -sign * raw, -sign * allin / big_blind
        rows = int((trace[:, 0] >= 0).sum())
        whole = rows - 1 if folded == position else _TRACE_ROWS
        agreed, reached, revealed = [], [], []
        for slot in range(slots):
            if slot == pick:
                agreed.append(True)
                reached.append(_TRACE_ROWS)
                revealed.append((whole, reward))
                continue
            if slot == excluded:
                agreed.append(False)
                reached.append(-1)
                revealed.append(None)
                continue
            kind, params = encoded[slot]
            other[:] = -1
            replay_raw, _, _ = lbr_hand(context.rules, lbr, kind, params, arrays, holding_v, i,
                                        start, seed, context.tables, context.lookups,
                                        context.action_sets, other, no_ranges, spare_line)
            same = bool((other == trace).all())
            agreed.append(same)
            if same:
                reached.append(_TRACE_ROWS)
                revealed.append((whole, reward))
                continue
            differs = int(np.argmax((other != trace).any(axis=1)))
            reached.append(differs)
            revealed.append((differs, -sign * replay_raw / big_blind)
                            if other[differs, 1] == FOLD_CODE else None)
        if portfolio.estimator == "folds":
            rule.credit(revealed_estimates(reached, revealed, probabilities))
        else:
            rule.update(reward, agreed, probabilities)
        if not own_account or pick == model_slot:
            account += model.counted(-sign * allin if adjusted_account else ours_raw,
                                     game.big_blind) if model is not None else ours_raw
    return PortfolioLbrMatch(chips, adjusted, lines, chosen,
                             int((chosen == model_slot).sum()) if model is not None else 0)


class _Traces(NamedTuple):
    """The one field of a `training.portfolio.PortfolioMatch` that `hand_states` reads."""

    traces: np.ndarray


class _MatchDeals:
    """A match's deals (from `first` of an `LbrDeals`) as `hand_states` reads a deal set."""

    def __init__(self, deals: LbrDeals, first: int):
        self.holes = deals.deals.holes[first:]
        self.boards = deals.deals.boards[first:]


@dataclass(frozen=True)
class MatchesLbrResult(LbrResult):
    """An `LbrResult` whose deals were played as consecutive matches of `match_deals` deals
    against a bot that learns within each: its intervals are over the matches
    (`training.evaluate.score_matches`), the means over every deal as before."""

    match_deals: int = PORTFOLIO_MATCH_DEALS

    @property
    def score(self) -> Score:
        return score_matches(self.chips.sum(axis=1), self.big_blind, self.match_deals)

    @property
    def adjusted_score(self) -> Score:
        return score_matches(self.adjusted.sum(axis=1), self.big_blind, self.match_deals)

    def position_score(self, position: int) -> Score:
        return score_matches(2 * self.chips[:, position], self.big_blind, self.match_deals)

    def match_means(self) -> list[float]:
        """LBR's mbb/hand in each match, as the cards fell."""
        pairs = self.chips.sum(axis=1)
        return [float(pairs[start:start + self.match_deals].mean() * 500.0 / self.big_blind)
                for start in range(0, len(pairs), self.match_deals)]


class PortfolioLbrResult(NamedTuple):
    """LBR against a portfolio over several matches: the result of all their hands (intervals
    over the matches), and how often the model's slot played."""

    result: LbrResult
    model_share: float  # of the hands, those the model's slot played
    matches: int


def _match_job(arguments):
    """One match in a worker process (`run_lbr_portfolio`)."""
    portfolio_name, game_file, deal_seed, hands, first, count, seed, actions = arguments
    from gambler.bot.portfolio import load_portfolio
    from gambler.protocol.gamedef import load_game

    deals = LbrDeals(deal_seed, hands)
    return play_lbr_match(load_portfolio(portfolio_name), load_game(game_file), deals, first,
                          count, seed, actions)


def run_lbr_portfolio(portfolio_name, game_file, hands: int = 20000, seed: int = 1,
                      actions="C,C,FCPA,FCPA", workers: int = 1,
                      progress=None) -> PortfolioLbrResult:
    """LBR (told the member drawn) against the portfolio file or shipped name `portfolio_name`
    on the duplicate deals of `seed` (`hands` rounded up to whole deals), in matches of
    `PORTFOLIO_MATCH_DEALS` deals (module docstring), `workers` processes at a time.
    `progress(deals)` is told as matches finish."""
    from gambler.protocol.gamedef import load_game

    game = load_game(game_file)
    parse_action_sets(actions, game.num_rounds)  # bad sets fail before any work
    deals = LbrDeals(seed, hands)  # computes and caches the deals (and not their holdings)
    jobs = [(str(portfolio_name), str(game_file), seed, hands, first,
             min(PORTFOLIO_MATCH_DEALS, deals.count - first), seed + index, actions)
            for index, first in enumerate(range(0, deals.count, PORTFOLIO_MATCH_DEALS))]
    if workers > 1 and len(jobs) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(min(workers, len(jobs)),
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            matches = []
            for match, job in zip(pool.map(_match_job, jobs), jobs):
                matches.append(match)
                if progress is not None:
                    progress(job[5])
    else:
        from gambler.bot.portfolio import load_portfolio

        portfolio = load_portfolio(portfolio_name)
        context = _context(game, actions)
        matches = []
        for job in jobs:
            matches.append(play_lbr_match(portfolio, game, deals, job[4], job[5], job[6],
                                          actions, context))
            if progress is not None:
                progress(job[5])
    result = MatchesLbrResult(np.concatenate([match.chips for match in matches]),
                              np.concatenate([match.adjusted for match in matches]),
                              game.big_blind, np.concatenate([match.lines for match in matches]))
    played = sum(match.model_hands for match in matches)
    return PortfolioLbrResult(result, played / (2 * deals.count), len(matches))
