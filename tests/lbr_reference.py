"""A slow, plain-Python local best response: the oracle the numba one (`training.lbr`) is checked
against, hand by hand.

Nothing here is shared with the fast implementation but the inputs: the rules are the protocol's
`BettingState`, the bot is `bot.automaton` (or a baseline's rule) replayed with each holding to
build its range, LBR's equities come from `evaluator.rank_hands` over every completion of the
board (or the matchup table before the flop), and the one-step values are plain arithmetic.
The bot's v of each holding comes from the holdings tables, which `tests/test_matchups.py` checks
bit for bit against `evaluator.win_rate`. A profile's preflop chart is read with `bot.chart`'s
Python functions (`follow`, `real_action`, `draw_action`, the chart's `strategy` tables) and the
classes of `evaluator.preflop.class_index`, never the packed arrays the engine plays. A profile
with range defence or range bets (version 5) decides by each holding's percentile in its own
range, which the reference keeps as a second `Range` over every holding (LBR's cards not
removed) and ranks in plain Python (`own_percentiles`), never with `bot.own_range`.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from gambler.bot import chart as charts
from gambler.bot.automaton import choose_action, plan_for_state
from gambler.bot.exploiters import Exploiter, exploiter_action
from gambler.bot.params import Profile, range_bets_at
from gambler.evaluator import rank_hands
from gambler.evaluator.holdings import holding_index
from gambler.evaluator.matchups import matchup
from gambler.evaluator.preflop import class_index
from gambler.evaluator.rng import chart_uniform, mixing_uniform
from gambler.protocol.betting import CALL_ACTION, FOLD, FOLD_ACTION, RAISE, BettingState, raise_to

LETTERS = "FCMQHTPODXA"
CHART_KIND = {FOLD: charts.FOLD, CALL_ACTION.kind: charts.CALL, RAISE: charts.RAISE}
# LBR's raise sizes by letter, smallest first: a share of the pot after LBR's call, or the
# lowest ("min") or highest ("max") legal raise-to.
RAISE_LETTERS = {"M": "min", "Q": Fraction(1, 4), "H": Fraction(1, 2), "T": Fraction(3, 4),
                 "P": Fraction(1), "O": Fraction(3, 2), "D": Fraction(2), "X": Fraction(3),
                 "A": "max"}


def raise_target(letter: str, state: BettingState) -> int:
    """The raise-to of one of LBR's sizes for the player to act in `state` (which must be able
    to raise): call, then raise by the share of the pot after the call (rounded down), moved
    into the legal range."""
    legal = state.legal_actions()
    share = RAISE_LETTERS[letter]
    if share == "min":
        return legal.min_raise_to
    if share == "max":
        return legal.max_raise_to
    bet = state.max_spent
    pot_after_call = sum(state.spent) + bet - state.spent[state.current_player]
    return legal.clamp(bet + math.floor(share * pot_after_call))


def baseline_action(name: str, state: BettingState):
    legal = state.legal_actions()
    if name == "call" or not legal.can_raise:
        return CALL_ACTION
    return raise_to(legal.min_raise_to if name == "raise" else legal.max_raise_to)


class ReferenceBot:
    """The bot's action for any holding: a profile's automaton, an exploiter's rules or a fixed
    baseline. A range-aware profile's v comes from `evaluator.narrowing.range_aware_v` (the one
    hand kernel, which `tests/test_narrowing.py` checks against treys), with the narrowing read
    from the betting before the bot's first action of the round; it needs the deal's `board`.
    A profile with a preflop chart plays the first round from it while the round's actions stay
    in the chart's tree (`chart_node`)."""

    def __init__(self, strategy, preflop_v: np.ndarray, holding_v: np.ndarray, board=None):
        self.strategy = strategy
        self.preflop_v = preflop_v   # [1326]
        self.holding_v = holding_v   # [3, 1326]: flop, turn, river
        self.board = board
        self._ranged: dict = {}
        self.chart = strategy.preflop_chart if isinstance(strategy, Profile) else None

    def chart_node(self, state: BettingState) -> int:
        """The chart's node for the player to act in `state`, or -1: no chart, not the first
        round, or the round's actions have left the chart's tree (the automaton decides)."""
        if self.chart is None or state.round != 0:
            return -1
        return charts.follow(self.chart, [(CHART_KIND[action.kind], action.raise_to)
                                          for action in state.actions[0]])

    def chart_real_actions(self, state: BettingState, node: int) -> list:
        """Each chart action of `node` as the real action it becomes in `state`: (kind,
        raise-to), kinds as `bot.chart` counts them, raise-to 0 unless a raise."""
        legal = state.legal_actions()
        low, high = (legal.min_raise_to, legal.max_raise_to) if legal.can_raise else (-1, -1)
        bet = state.max_spent
        to_call = bet - state.spent[state.current_player]
        return [charts.real_action(action, bet, sum(state.spent), to_call, low, high)
                for action in self.chart.nodes[node].actions]

    def chart_shares(self, state: BettingState, node: int, action) -> np.ndarray:
        """float64[169]: each class's probability of taking the real `action` at `node` (every
        chart action that becomes it in `state` counts)."""
        seen = (CHART_KIND[action.kind], action.raise_to if action.kind == RAISE else 0)
        shares = np.zeros(charts.CLASS_COUNT)
        for k, real in enumerate(self.chart_real_actions(state, node)):
            if (real[0], real[1] if real[0] == charts.RAISE else 0) == seen:
                shares = shares + self.chart.strategy[node][k]
        return shares

    def chart_action(self, holding, state: BettingState, node: int, seed: int,
                     hand_number: int):
        """The bot's action from the chart with `holding`: its class's action at `node`, a mixed
        class drawing from `chart_uniform` (seed, hand, actions so far in the round, position)."""
        class_ = class_index(*holding)
        uniform = 0.0
        if self.chart.strategy[node][:, class_].max() < 1.0:
            uniform = chart_uniform(seed, hand_number, len(state.actions[0]),
                                    state.current_player)
        k = charts.draw_action(self.chart, node, class_, uniform)
        kind, amount = self.chart_real_actions(state, node)[k]
        return FOLD_ACTION if kind == charts.FOLD else CALL_ACTION if kind == charts.CALL \
            else raise_to(amount)

    def v(self, holding, round_: int) -> float:
        index = holding_index(*holding)
        return float(self.preflop_v[index] if round_ == 0 else self.holding_v[round_ - 1, index])

    def plan_v(self, holding, state: BettingState) -> float:
        """v for the plan of the round with `holding`, the bot being the player to act."""
        round_ = state.round
        plain = self.v(holding, round_)
        if not isinstance(self.strategy, Profile) or not self.strategy.range_aware or round_ == 0:
            return plain
        bot = state.current_player
        mask = 0
        for r in range(round_ + 1):
            actions, actors = state.actions[r], state.actors[r]
            stop = len(actions)
            if r == round_:  # only what came before the bot's first action of the round
                stop = next((k for k, actor in enumerate(actors) if actor == bot), stop)
            if any(actions[k].kind == RAISE and actors[k] != bot for k in range(stop)):
                mask |= 1 << r
        mask &= sum(1 << r for r, fraction in enumerate(self.strategy.keep) if fraction < 1)
        if not mask:
            return plain
        key = (holding, round_, mask)
        if key not in self._ranged:
            from gambler.evaluator.narrowing import range_aware_v
            from gambler.evaluator.tables import load_tables
            v = range_aware_v(load_tables(), np.array(holding, dtype=np.uint8),
                              np.array(self.board[:2 + round_], dtype=np.uint8), self.preflop_v,
                              mask, np.array(self.strategy.keep))
            self._ranged[key] = plain if np.isnan(v) else float(v)
        return self._ranged[key]

    def chance(self, holding, round_: int, state: BettingState | None = None) -> float:
        """The probability that the round's plan with this holding is the mixed one (at the
        bot's turn in `state` if given: a range-aware plan depends on the betting)."""
        if not isinstance(self.strategy, Profile):
            return 0.0
        v = self.v(holding, round_) if state is None else self.plan_v(holding, state)
        return self.strategy.rounds[round_].mixing_probability(v)

    def action(self, holding, state: BettingState, mixed: bool = False, draw=None,
               percentile=None):
        """The action with `holding`: in the round's mixed plan or not (or with a given draw);
        `percentile`: its place in the bot's own range, for range defence."""
        if isinstance(self.strategy, str):
            return baseline_action(self.strategy, state)
        if isinstance(self.strategy, Exploiter):
            return exploiter_action(self.strategy, self.v(holding, state.round), state)
        if draw is None:
            draw = 0.0 if mixed else 1.0
        plan = plan_for_state(self.strategy.rounds[state.round], self.plan_v(holding, state),
                              state, draw)
        return choose_action(plan, state, percentile)


def equities_against(hole, holdings: list, board) -> dict:
    """LBR's equity against each holding over every completion of `board` (brute force: every
    seven-card hand valued by `rank_hands`; before the flop, the matchup table)."""
    if not board:
        return {holding: matchup(hole, holding).equity for holding in holdings}
    rest = sorted(set(range(52)) - set(hole) - set(board))
    completions = np.array(list(itertools.combinations(rest, 5 - len(board))),
                           dtype=np.uint8).reshape(-1, 5 - len(board)) if len(board) < 5 \
        else np.zeros((1, 0), dtype=np.uint8)
    count = completions.shape[0]
    known = np.array(list(board), dtype=np.uint8)
    ours = rank_hands(np.concatenate([np.tile(np.array(hole, dtype=np.uint8), (count, 1)),
                                      np.tile(known, (count, 1)), completions], axis=1))
    pairs = np.array(holdings, dtype=np.uint8)
    meets = (completions[None, :, :, None] == pairs[:, None, None, :]).any(axis=(2, 3))
    rows, columns = np.nonzero(~meets)
    theirs = rank_hands(np.concatenate([pairs[rows], np.tile(known, (rows.size, 1)),
                                        completions[columns]], axis=1))
    score = (ours[columns] > theirs) + 0.5 * (ours[columns] == theirs)
    totals = np.bincount(rows, weights=score, minlength=len(holdings))
    seen = np.bincount(rows, minlength=len(holdings))
    return {holding: float(totals[k] / seen[k]) for k, holding in enumerate(holdings)}


class Range:
    """The bot's range: per holding, its weight from earlier rounds, this round's chance of the
    mixed plan, and whether each plan still explains this round's actions."""

    def __init__(self, bot: ReferenceBot, holdings: list):
        self.bot = bot
        self.entries = {holding: [1.0, 0.0, True, False] for holding in holdings}

    def mass(self, holding) -> float:
        weight, chance, plain, mixed = self.entries[holding]
        return weight * ((1 - chance) * plain + chance * mixed)

    def start_round(self, round_: int, board_now) -> None:
        for holding, entry in list(self.entries.items()):
            if set(holding) & set(board_now):
                del self.entries[holding]
                continue
            chance = self.bot.chance(holding, round_)
            self.entries[holding] = [entry[0], chance, True, chance > 0]

    def close_round(self) -> None:
        for holding, entry in self.entries.items():
            entry[0] = self.mass(holding)

    def narrow(self, state: BettingState, action, percentiles=None) -> None:
        node = self.bot.chart_node(state)
        if node >= 0:  # the chart: each holding weighed by its class's share of the action
            shares = self.bot.chart_shares(state, node, action)
            for holding, entry in self.entries.items():
                entry[0] *= shares[class_index(*holding)]
            return
        if first_action_of_round(state):  # the bot plans now: its chance of the mixed plan
            for holding, entry in self.entries.items():
                chance = self.bot.chance(holding, state.round, state)
                entry[1:] = [chance, True, chance > 0]
        for holding, entry in self.entries.items():
            percentile = percentiles[holding] if percentiles is not None else None
            entry[2] = entry[2] and self.bot.action(holding, state, False, None,
                                                    percentile) == action
            entry[3] = entry[3] and self.bot.action(holding, state, True, None,
                                                    percentile) == action

    def live(self) -> list:
        return [holding for holding in self.entries if self.mass(holding) > 0]

    def fold_mass(self, holding, after: BettingState, percentiles=None) -> float:
        node = self.bot.chart_node(after)
        if node >= 0:  # the chart answers: the class's share of folding
            return self.mass(holding) * self.bot.chart_shares(after, node, FOLD_ACTION)[
                class_index(*holding)]
        weight, chance, plain, mixed = self.entries[holding]
        if first_action_of_round(after):  # the bot answers with the round's plan, made now
            chance = self.bot.chance(holding, after.round, after)
            mixed = chance > 0
        folded = 0.0
        for ok, variant, share in ((plain, False, 1 - chance), (mixed, True, chance)):
            percentile = percentiles[holding] if percentiles is not None else None
            if ok and share > 0 and self.bot.action(holding, after, variant, None,
                                                    percentile).kind == FOLD:
                folded += weight * share
        return folded


def own_percentiles(own: Range, round_: int) -> dict:
    """Each holding's percentile in the bot's own range `own`: the mass of the holdings with a
    smaller v this round plus half the mass with the same v, over the whole mass; summed in
    ascending (v, holding index) order, the order the rule fixes."""
    bot = own.bot
    ranked = sorted(own.entries, key=lambda holding: (bot.v(holding, round_),
                                                      holding_index(*holding)))
    total = 0.0
    for holding in ranked:
        total += own.mass(holding)
    percentiles = {}
    below = 0.0
    start = 0
    while start < len(ranked):
        v = bot.v(ranked[start], round_)
        stop = start
        group = 0.0
        while stop < len(ranked) and bot.v(ranked[stop], round_) == v:
            group += own.mass(ranked[stop])
            stop += 1
        for holding in ranked[start:stop]:
            percentiles[holding] = (below + 0.5 * group) / total
        below += group
        start = stop
    return percentiles


def defends_by_range(bot: ReferenceBot, state: BettingState) -> bool:
    """Whether the bot, to act in `state`, decides by its percentile in its own range: a profile
    whose round has range defence with a bet owed, or range bets with nothing owed, and no chart
    deciding."""
    if not isinstance(bot.strategy, Profile) or bot.chart_node(state) >= 0:
        return False
    round_params = bot.strategy.rounds[state.round]
    if state.spent[state.current_player] < state.max_spent:
        return round_params.range_defence is not None
    return range_bets_at(round_params.range_bet, round_params.range_bet_position,
                         state.current_player)


def first_action_of_round(state: BettingState) -> bool:
    """Whether the player to act has not acted yet in this round."""
    return state.current_player not in state.actors[state.round]


def one_step_values(state: BettingState, lbr: int, letters: str, bot: ReferenceBot, hole,
                    board_now, range_: Range, own: Range | None = None
                    ) -> list[tuple[float, object]]:
    """(value, action) of every action LBR considers, in the order ties are broken (`own`: the
    bot's own range, with range defence)."""
    holdings = range_.live()
    masses = {holding: range_.mass(holding) for holding in holdings}
    total = sum(masses.values())
    equities = equities_against(hole, holdings, board_now)
    wp = sum(masses[holding] * equities[holding] for holding in holdings) / total
    bet = state.max_spent
    to_call = bet - state.spent[lbr]
    pot = sum(state.spent)
    values = [(wp * pot - (1 - wp) * to_call, CALL_ACTION)]
    if "F" in letters and to_call > 0:
        values.append((0.0, FOLD_ACTION))
    legal = state.legal_actions()
    if not legal.can_raise:
        return values
    previous = None
    for letter in RAISE_LETTERS:
        if letter not in letters:
            continue
        target = raise_target(letter, state)
        if target == previous:
            continue
        previous = target
        after = state.apply(raise_to(target))
        percentiles = own_percentiles(own, state.round) if own is not None \
            and defends_by_range(bot, after) else None
        folds = {holding: range_.fold_mass(holding, after, percentiles) for holding in holdings}
        fold_share = sum(folds.values()) / total
        continuing = total - sum(folds.values())
        continuing_equity = (sum((masses[h] - folds[h]) * equities[h] for h in holdings)
                             / continuing if continuing > 0 else 0.0)
        extra = target - bet
        values.append((fold_share * pot + (1 - fold_share) * (
            continuing_equity * (pot + extra) - (1 - continuing_equity) * (to_call + extra)),
            raise_to(target)))
    return values


def reference_lbr_hand(game, lbr: int, bot: ReferenceBot, holes, board, action_sets: list[str],
                       seed: int = 0, hand_number: int = 0):
    """One hand of LBR at position `lbr`: (actions as (round, kind, raise-to), LBR's chips, the
    bot's range before each of LBR's decisions as (holdings, sum of their indices, total weight
    x 10^6)). The bot's mixed play draws from (seed, hand_number)."""
    state = BettingState.start(game)
    hole = tuple(int(card) for card in holes[lbr])
    bot_hole = tuple(sorted(int(card) for card in holes[1 - lbr]))
    every = [pair for pair in itertools.combinations(range(52), 2)]
    range_ = Range(bot, [pair for pair in every if not set(pair) & set(hole)])
    range_.start_round(0, ())
    own = None  # with range defence: the bot's range as it sees it (LBR's cards not removed)
    if isinstance(bot.strategy, Profile) and bot.strategy.uses_own_range:
        own = Range(bot, every)
        own.start_round(0, ())
    actions = []
    sizes = []
    dealt = 0
    while not state.finished:
        round_ = state.round
        board_now = tuple(int(card) for card in board[:state.board_cards_visible])
        if round_ != dealt:
            range_.close_round()
            range_.start_round(round_, board_now)
            if own is not None:
                own.close_round()
                own.start_round(round_, board_now)
            dealt = round_
        assert range_.mass(bot_hole) > 0  # the range always holds the bot's cards
        if state.current_player != lbr:
            node = bot.chart_node(state)
            if node >= 0:
                action = bot.chart_action(bot_hole, state, node, seed, hand_number)
            percentiles = own_percentiles(own, round_) if own is not None \
                and defends_by_range(bot, state) else None
            if node < 0:
                draw = 1.0
                if bot.chance(bot_hole, round_, state) > 0:
                    draw = mixing_uniform(seed, hand_number, round_, 1 - lbr)
                action = bot.action(bot_hole, state, draw=draw, percentile=None
                                    if percentiles is None else percentiles[bot_hole])
            if not isinstance(bot.strategy, str):
                range_.narrow(state, action, percentiles)
            if own is not None:
                own.narrow(state, action, percentiles)
        elif action_sets[round_] == "C":
            action = CALL_ACTION
        else:
            live = range_.live()
            sizes.append((len(live), sum(holding_index(*pair) for pair in live),
                          round(sum(range_.mass(pair) for pair in live) * 1e6)))
            values = one_step_values(state, lbr, action_sets[round_], bot, hole, board_now,
                                     range_, own)
            best_value, action = values[0]
            for value, candidate in values[1:]:
                if value > best_value:
                    best_value, action = value, candidate
        actions.append((round_, action.kind, action.raise_to if action.kind == RAISE else 0))
        state = state.apply(action)
    payoffs = state.payoffs([tuple(holes[0]), tuple(holes[1])], tuple(board))
    return actions, payoffs[lbr], sizes
