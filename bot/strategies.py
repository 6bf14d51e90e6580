"""Strategies: something that turns a `MatchState` into an action.

* `ProfileStrategy`: the four-mode automaton with a parameter profile; v comes from the evaluator
  (exact by default, Monte Carlo with `samples`), once per betting round.
* Baselines, usable wherever a profile is accepted, by name: `call` (always check/call), `raise`
  (the minimum raise when legal, else call), `allin` (all in when legal, else call) and `random`
  (the ACPC example player's mix: fold 0.06, call 0.47, raise 0.47 with a uniform size, the
  probabilities of illegal actions dropped and the rest renormalised; seeded).
* `ExploiterStrategy`: the rule-based exploiters of `bot.exploiters`, by name (`catcher`,
  `shover`, `prober`, `sizer` and the others in `configs/exploiters/`) or by the path of a file
  that says `kind: exploiter`; v as for a profile.
* A portfolio (`kind: portfolio`, `bot.portfolio`): members drawn hand by hand by Exp3; a switch
  (`kind: switch`, `bot.switch`): one strategy, then another from a hand number.
* A blueprint (`kind: blueprint`, `bot.blueprint`): a strategy computed by `gambler-solve`.

`load_strategy("seed")`, `load_strategy("configs/params/mine.yaml")`, `load_strategy("random")`,
`load_strategy("shover")`; `resolve_strategy` gives what the engine encodes (a name, an
`Exploiter` or a `Profile`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from gambler.bot.automaton import (RoundPlan, choose_action, decision_fields, needs_percentile,
                                   plan_for_state)
from gambler.bot.chart import (CALL, FOLD, KIND_OF_LETTER, check_game, draw_action, follow,
                               real_action)
from gambler.bot.exploiters import (Exploiter, explain_action, exploiter_action,
                                    exploiter_names_text, load_exploiter,
                                    shipped_exploiter_names)
from gambler.bot.params import (Profile, ProfileError, file_kind, load_profile,
                                 shipped_profile_names)
from gambler.evaluator import win_rate
from gambler.evaluator.preflop import class_index, class_name
from gambler import MAX_SEED
from gambler.protocol.betting import CALL_ACTION, FOLD_ACTION, Action, raise_to
from gambler.protocol.matchstate import MatchState

BASELINES = ("call", "raise", "allin", "random")
EXAMPLE_PLAYER_MIX = (0.06, 0.47, 0.47)  # fold, call, raise


class CallStrategy:
    name = "call"

    def act(self, state: MatchState) -> Action:
        return CALL_ACTION


class MinRaiseStrategy:
    name = "raise"

    def act(self, state: MatchState) -> Action:
        legal = state.betting.legal_actions()
        return raise_to(legal.min_raise_to) if legal.can_raise else CALL_ACTION


class AllInStrategy:
    name = "allin"

    def act(self, state: MatchState) -> Action:
        legal = state.betting.legal_actions()
        return raise_to(legal.max_raise_to) if legal.can_raise else CALL_ACTION


class RandomStrategy:
    """The ACPC example player's random mix, from a seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, state: MatchState) -> Action:
        legal = state.betting.legal_actions()
        fold, call, raise_ = EXAMPLE_PLAYER_MIX
        weights = (fold if legal.can_fold else 0.0, call, raise_ if legal.can_raise else 0.0)
        roll = self.rng.random() * sum(weights)
        if roll < weights[0]:
            return FOLD_ACTION
        if roll < weights[0] + weights[1]:
            return CALL_ACTION
        return raise_to(self.rng.randint(legal.min_raise_to, legal.max_raise_to))


def betting_fields(state: MatchState) -> dict[str, object]:
    """The pot (both totals), what the player to act owes and its legal raise-to range."""
    betting = state.betting
    legal = betting.legal_actions()
    return {"pot": sum(betting.spent),
            "to_call": betting.max_spent - betting.spent[betting.current_player],
            "raise_range": (legal.min_raise_to, legal.max_raise_to) if legal.can_raise else None}


def act_and_explain(strategy, state: MatchState) -> tuple[Action, dict[str, object]]:
    """Any strategy's action and the fields of its decision line (a baseline: the betting)."""
    explain = getattr(strategy, "act_and_explain", None)
    if explain is not None:
        return explain(state)
    action = strategy.act(state)
    return action, {**betting_fields(state), "action": str(action)}


def exact_win_rate(hole, board) -> float:
    return win_rate(hole, board).v


class RoundWinRate:
    """v of our cards, computed at our first decision of each round and kept for the round:
    `win_rate(hole, board, hand, round)` gives it (exact by default)."""

    def __init__(self, win_rate: Callable[..., float] | None = None):
        self.win_rate = win_rate or (lambda hole, board, hand, round_: exact_win_rate(hole, board))
        self._key: tuple | None = None
        self._v = 0.0

    def round_v(self, state: MatchState) -> tuple[float, bool]:
        """(v for this round, whether it was computed just now)."""
        key = (state.hand, state.betting.round, state.position, state.our_hole)
        fresh = key != self._key
        if fresh:
            self._v = self.win_rate(state.our_hole, state.board, state.hand, state.betting.round)
            self._key = key
        return self._v, fresh


class ProfileStrategy(RoundWinRate):
    """The automaton playing `profile`; mixed play draws from the stream of `seed`."""

    def __init__(self, profile: Profile, win_rate: Callable[..., float] | None = None,
                 seed: int = 0):
        super().__init__(win_rate)
        self.profile = profile
        self.name = profile.name or "profile"
        self.seed = seed
        self._plan: RoundPlan | None = None
        self._preflop_v = None  # holding_preflop_v(), loaded at the first range-aware plan
        self.plans_made = 0
        self.range_plans_made = 0  # plans whose v was range-aware
        self._chart_checked = False  # the chart's game checked against the match's
        self._own_range = None  # `bot.own_range.OwnRange`, made at the first range defence

    def plan_for(self, state: MatchState) -> RoundPlan:
        """The round's plan, made at the first decision of the round and then kept."""
        v, fresh = self.round_v(state)
        if fresh:
            round_ = state.betting.round
            params = self.profile.rounds[round_]
            plain_v = None
            ranged = self.range_aware_v(state)
            if ranged is not None:
                plain_v, v = v, ranged
                self.range_plans_made += 1
            draw = 1.0
            if params.mixing_probability(v) > 0:
                from gambler.evaluator.rng import mixing_uniform  # numba, only for mixed profiles
                draw = mixing_uniform(self.seed, state.hand, round_, state.position)
            self._plan = replace(plan_for_state(params, v, state.betting, draw), plain_v=plain_v)
            self.plans_made += 1
        return self._plan

    def range_aware_v(self, state: MatchState) -> float | None:
        """v against the opponent's range narrowed by its raises (`evaluator.narrowing`), or None
        when the plain v stands: when no round narrows (`narrowing_rounds`: before the flop, or
        the opponent raised in no round whose `narrow` is below 1), or when nothing of the range
        is left once our cards are removed. Called at the first decision of the round."""
        if not self.profile.range_aware:
            return None
        from gambler.evaluator import narrowing
        keep = self.profile.keep
        narrowing_mask = narrowing.narrowing_rounds(
            narrowing.raised_rounds(state.betting, 1 - state.position), keep, state.betting.round)
        if not narrowing_mask:
            return None
        import numpy as np

        from gambler.evaluator.cards import as_cards
        from gambler.evaluator.tables import load_tables
        if self._preflop_v is None:
            self._preflop_v = narrowing.holding_preflop_v()
        v = narrowing.range_aware_v(load_tables(), as_cards(state.our_hole, count=2),
                                    as_cards(state.board, count=(3, 4, 5)), self._preflop_v,
                                    narrowing_mask, np.array(keep, dtype=np.float64))
        return None if v != v else float(v)  # NaN: the range is empty

    def chart_decision(self, state: MatchState) -> tuple[Action, dict[str, object]] | None:
        """The preflop chart's action and why (the node, the class and the action's probability
        there), or None: no chart, not the first round, or the round has left the chart's tree
        (`bot.chart`: the automaton decides). Mixed classes draw from `chart_uniform` (the seed,
        the hand, the actions so far in the round, the position)."""
        chart = self.profile.preflop_chart
        betting = state.betting
        if chart is None or betting.round != 0:
            return None
        if not self._chart_checked:
            game = betting.game
            check_game(chart, game.stacks, game.blinds, game.first_player[0])
            self._chart_checked = True
        played = [(KIND_OF_LETTER[action.kind], action.raise_to)
                  for action in betting.actions[0]]
        node = follow(chart, played)
        if node < 0:
            return None
        class_ = class_index(*state.our_hole)
        column = chart.strategy[node][:, class_]
        uniform = 0.0
        if column.max() < 1.0:
            from gambler.evaluator.rng import chart_uniform
            uniform = chart_uniform(self.seed, state.hand, len(played), state.position)
        k = draw_action(chart, node, class_, uniform)
        player = betting.current_player
        legal = betting.legal_actions()
        low, high = (legal.min_raise_to, legal.max_raise_to) if legal.can_raise else (-1, -1)
        bet = betting.max_spent
        kind, amount = real_action(chart.nodes[node].actions[k], bet, sum(betting.spent),
                                   bet - betting.spent[player], low, high)
        action = FOLD_ACTION if kind == FOLD else CALL_ACTION if kind == CALL else raise_to(amount)
        path = chart.nodes[node].path.replace(" ", ",")  # one word on a decision line
        return action, {"chart": path, "class": class_name(class_),
                        "p": float(column[k]), **betting_fields(state), "action": str(action)}

    def percentile(self, plan: RoundPlan, state: MatchState) -> float | None:
        """The holding's percentile in the bot's own range when it decides (range defence with a
        bet owed, range bets with nothing owed: `bot.own_range`), else None."""
        if not needs_percentile(plan, state.betting):
            return None
        if self._own_range is None:
            from gambler.bot.own_range import OwnRange
            self._own_range = OwnRange(self.profile)
        return self._own_range.percentile(state)

    def act(self, state: MatchState) -> Action:
        charted = self.chart_decision(state)
        if charted is not None:
            return charted[0]
        plan = self.plan_for(state)
        return choose_action(plan, state.betting, self.percentile(plan, state))

    def act_and_explain(self, state: MatchState) -> tuple[Action, dict[str, object]]:
        """The action and why: the chart's (`chart_decision`) if it has one, else the
        automaton's (`bot.automaton.decision_fields`)."""
        charted = self.chart_decision(state)
        if charted is not None:
            return charted
        plan = self.plan_for(state)
        percentile = self.percentile(plan, state)
        action = choose_action(plan, state.betting, percentile)
        return action, decision_fields(plan, state.betting, action, percentile)


class ExploiterStrategy(RoundWinRate):
    """An exploiter's rules (`bot.exploiters`), deciding from v and the betting."""

    def __init__(self, rules: Exploiter, win_rate: Callable[..., float] | None = None):
        super().__init__(win_rate)
        self.rules = rules
        self.name = rules.name or "exploiter"

    def act(self, state: MatchState) -> Action:
        return exploiter_action(self.rules, self.round_v(state)[0], state.betting)

    def act_and_explain(self, state: MatchState) -> tuple[Action, dict[str, object]]:
        """The action, with v, the pot, what is owed, the legal raise-to range and the rule that
        chose it."""
        v = self.round_v(state)[0]
        action, rule = explain_action(self.rules, v, state.betting)
        return action, {"v": v, **betting_fields(state), "rule": rule, "action": str(action)}


def sampled_win_rate(samples: int, seed: int) -> Callable[..., float]:
    """Monte Carlo v with `samples` deals, seeded by (seed, hand, round): reproducible."""
    def rate(hole, board, hand, round_):
        stream = (seed * 1_000_003 + hand * 4 + round_) % (MAX_SEED + 1)
        return win_rate(hole, board, samples=samples, seed=stream).v
    return rate


def resolve_strategy(spec: str):
    """What a strategy name or path stands for: a baseline's name, an `Exploiter` (a shipped
    exploiter's name, or a file that says `kind: exploiter`), a `bot.portfolio.Portfolio` (a file
    or shipped profile that says `kind: portfolio`), a `bot.switch.Switch` (`kind: switch`), a
    `bot.blueprint.Blueprint` (`kind: blueprint`, or the name of an installed one), a
    `bot.resolve.Resolve` (`kind: resolve`) or a `Profile`.
    A name that is none of these is a `ProfileError` listing what exists."""
    if spec in BASELINES:
        return spec
    if spec in shipped_exploiter_names():
        return load_exploiter(spec)
    kind = file_kind(spec)  # the file is read once to know what it is
    if kind == "exploiter":
        return load_exploiter(spec)
    if kind == "portfolio":
        from gambler.bot.portfolio import load_portfolio
        return load_portfolio(spec)
    if kind == "switch":
        from gambler.bot.switch import load_switch
        return load_switch(spec)
    if kind == "blueprint":
        from gambler.bot.blueprint import load_blueprint
        return load_blueprint(spec)
    if kind == "resolve":
        from gambler.bot.resolve import load_resolve
        return load_resolve(spec)
    try:
        return load_profile(spec)
    except ProfileError as error:
        if str(error).startswith("no profile file"):
            from gambler.bot.blueprint import (installed_blueprint, installed_blueprint_names,
                                               load_blueprint, missing_blueprint_hint)

            installed = installed_blueprint(str(spec))
            if installed is not None:
                return load_blueprint(installed)
            hint = missing_blueprint_hint(str(spec))
            if hint:
                raise ProfileError(hint) from None
            raise ProfileError(
                f"no profile file {spec!r} (shipped profiles: "
                f"{', '.join(shipped_profile_names())}; baselines: {', '.join(BASELINES)}; "
                f"exploiters: {exploiter_names_text()}; installed blueprints: "
                f"{', '.join(installed_blueprint_names()) or 'none'})") from None
        raise


def shared_win_rate(win_rate: Callable[..., float] | None = None) -> Callable[..., float]:
    """`win_rate` (exact by default) remembering its answers for the current hand, so that
    strategies that ask for the same cards and board (a portfolio's members: the one that plays,
    then the others asked at the hand's end what they would have done) compute each v once."""
    base = win_rate or (lambda hole, board, hand, round_: exact_win_rate(hole, board))
    known: dict[tuple, float] = {}
    current = [None]  # the hand the answers are for

    def rate(hole, board, hand, round_):
        if hand != current[0]:
            known.clear()
            current[0] = hand
        key = (tuple(hole), tuple(board), round_)
        if key not in known:
            known[key] = base(hole, board, hand, round_)
        return known[key]
    return rate


def member_strategy(resolved, win_rate: Callable[..., float] | None = None, seed: int = 0):
    """The strategy object for what `resolve_strategy` gave (not a portfolio): a baseline's
    name, an `Exploiter` or a `Profile`."""
    if isinstance(resolved, str):
        baselines = {"call": CallStrategy, "raise": MinRaiseStrategy, "allin": AllInStrategy}
        return RandomStrategy(seed) if resolved == "random" else baselines[resolved]()
    if isinstance(resolved, Exploiter):
        return ExploiterStrategy(resolved, win_rate)
    from gambler.bot.blueprint import Blueprint, BlueprintStrategy
    from gambler.bot.resolve import Resolve, ResolveStrategy

    if isinstance(resolved, Blueprint):
        return BlueprintStrategy(resolved, seed)
    if isinstance(resolved, Resolve):
        return ResolveStrategy(resolved, seed)
    return ProfileStrategy(resolved, win_rate, seed)


def load_strategy(spec: str, seed: int = 0, samples: int | None = None, game=None,
                  refresher=None):
    """A baseline by name, an exploiter, a portfolio or the automaton with a profile (a path or
    a shipped name). A portfolio needs the `game` (its big blind and stack; default: the
    standard no-limit game); one with a model member also `refresher(game, portfolio)`, which
    gives what computes its counters (`gambler.adaptive.live.refresher_for`)."""
    resolved = resolve_strategy(spec)
    rate = sampled_win_rate(samples, seed) if samples else None
    from gambler.bot.portfolio import Portfolio, PortfolioStrategy

    if isinstance(resolved, Portfolio):
        if game is None:
            from gambler.protocol.gamedef import load_game
            game = load_game()
        return PortfolioStrategy(resolved, game.big_blind, min(game.stacks), rate, seed,
                                 refresher(game, resolved) if refresher is not None
                                 and resolved.model is not None else None)
    from gambler.bot.switch import Switch, SwitchStrategy

    if isinstance(resolved, Switch):
        return SwitchStrategy(resolved, member_strategy(resolved.first, rate, seed),
                              member_strategy(resolved.then, rate, seed))
    return member_strategy(resolved, rate, seed)
