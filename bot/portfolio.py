"""Portfolios: several strategies in one bot, and an online rule that picks one for each hand.

A portfolio file says `kind: portfolio` and lists its members, each a name or path that names a
profile, an exploiter or a deterministic baseline (`call`, `raise`, `allin`):

    kind: portfolio
    name: adaptive
    members: [default, price-aware, catcher]
    exploration: 0.05        # gamma, in (0, 1]
    learning_rate: 0.01      # eta, per big blind; `auto`: gamma / (K R), the guarantee's
    share: 0.001             # alpha, in [0, 1): Exp3.S's share, to follow an opponent that
                             # changes (default 0: plain Exp3)

**The rule: Exp3** (Auer, Cesa-Bianchi, Freund and Schapire, "The nonstochastic multiarmed bandit
problem", 2002). Before hand t the bot holds an estimate S_k of member k's winnings so far (big
blinds) and plays member k with probability

    p_k = (1 - gamma) w_k + gamma / K,   w_k = exp(eta S_k) / sum_j exp(eta S_j),

drawing J with one uniform of the seeded stream `evaluator.rng.portfolio_uniform(seed, t)` (the
first k whose cumulative probability exceeds it), so a match replays exactly.

**Tracking** (Exp3.S, the same paper's section 8; Herbster and Warmuth's fixed share): with a
share alpha > 0 the weights are, after each hand's update, w_k <- (1 - alpha) w_k + alpha / K, so
no member's weight falls below alpha / K and a member that becomes the best after an opponent
changes its play overtakes in about ln(K / alpha) / eta big blinds of estimated advantage, instead
of having to make up everything the other earned before. Its guarantee is against the best
sequence of members with a given number of switches.

**The estimate.** After the hand, with r its all-in adjusted result (`hand_reward`: an all-in
before the river scored by the exact equity of the cards shown, which is unbiased for the raw
chips and removes the run-out's variance), the bot asks every member what it would have done at
each of its decisions of the hand. The members that agree with every action taken, C (J among
them), would have played the hand exactly as it went, whatever the opponent is, so the hand is
a sample of each of them. Each k in C gains r / P(C), P(C) = sum of p_j over C; the others gain
nothing. Over J's draw the estimate is unbiased for what member k would have won on the hand
(the members that agree with k are drawn with probability P(C), and then k's hand is the one
played); with C = {J} alone it is Exp3's r / p_J. Members that agree often share their samples,
so the noise in S_a - S_b comes only from the hands on which a and b differ.

**The guarantee.** The estimates satisfy sum_k p_k x_k = r (the realised reward) and, with
|r| <= R big blinds a hand (R: the stack), E[sum_k p_k x_k^2] <= K R^2. If eta R K / gamma <= 1
(P(C) >= gamma / K keeps every eta x_k <= 1), Exp3's potential argument (with e^x <= 1 + x +
(e - 2) x^2 for x <= 1, which holds for negative x too) gives, over T hands and against the
best member in hindsight,

    G_max - E[G] <= gamma (G_max - mean_k G_k) + ln K / eta + (e - 2) eta T K R^2,

G_k being member k's winnings had it played every hand. `learning_rate: auto` takes the
largest eta with the guarantee, gamma / (K R). At no-limit's chip range that bound is loose
(for K = 4, gamma = 0.05 and 200 big blinds, ln K / eta is 22,000 big blinds): a larger rate
learns in the hands a match has, and gives up the worst-case bound; `gambler --params FILE`
says which a file uses (`Portfolio.describe`). (With a share, the bound above is Exp3's, alpha =
0; Exp3.S's is against the best sequence of members with a given number of switches.)

`PortfolioStrategy` plays a portfolio over TCP; `training.portfolio` plays it in the fast engine
with the same draws, the same estimates and the same floating-point order, hand for hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from gambler.bot.params import ProfileError, file_kind, find_profile_file, kind_document
from gambler.errors import read_text
from gambler.protocol.betting import Action, allin_round
from gambler.protocol.matchstate import MatchState

_KEYS = ("kind", "name", "description", "provenance", "members", "exploration", "learning_rate",
         "share")


@dataclass(frozen=True)
class Portfolio:
    """Members (as written, and resolved: a `Profile`, an `Exploiter` or a baseline's name) and
    Exp3's two numbers. `learning_rate` None means `auto` (`rate_for`)."""

    members: tuple[str, ...]
    strategies: tuple[object, ...]
    exploration: float = 0.05
    learning_rate: float | None = None
    share: float = 0.0
    name: str = ""
    description: str = ""
    provenance: str = ""

    def guaranteed_rate(self, stack_big_blinds: float) -> float:
        """gamma / (K R): the largest eta with Exp3's guarantee (module docstring)."""
        return self.exploration / (len(self.members) * stack_big_blinds)

    def rate_for(self, stack_big_blinds: float) -> float:
        """eta: the file's, or with `auto` the guaranteed one."""
        if self.learning_rate is not None:
            return self.learning_rate
        return self.guaranteed_rate(stack_big_blinds)

    def guaranteed(self, stack_big_blinds: float) -> bool:
        """Whether eta R K / gamma <= 1: the regret bound of the module docstring holds."""
        return self.rate_for(stack_big_blinds) <= \
            self.guaranteed_rate(stack_big_blinds) * (1 + 1e-12)

    def describe(self, stack_big_blinds: float) -> str:
        """One line on the rule: members, gamma, eta and whether the regret bound holds.

        >>> Portfolio(("a", "b"), ("call", "raise"), 0.02, 0.005, 0.001).describe(200.0)
        'Exp3.S over 2 members (a, b): exploration 0.02, learning rate 0.005 per big blind (above 5e-05, the largest with the regret bound: none), share 0.001'
        """
        rate = self.rate_for(stack_big_blinds)
        bound = ("the regret bound holds" if self.guaranteed(stack_big_blinds) else
                 f"above {self.guaranteed_rate(stack_big_blinds):.3g}, the largest with the "
                 "regret bound: none")
        rule = "Exp3.S" if self.share else "Exp3"
        share = f", share {self.share:g}" if self.share else ""
        return (f"{rule} over {len(self.members)} members ({', '.join(self.members)}): "
                f"exploration {self.exploration:g}, learning rate {rate:.3g} per big blind "
                f"({bound}){share}")


class Exp3:
    """Exp3's state for K members: the estimated winnings `gains` (big blinds), the weights
    exp(eta S_k) normalised (with a `share`, Exp3.S's: mixed with the uniform after each hand)
    and the rule (module docstring). Pure: the caller draws the uniform and says who agreed.

    >>> rule = Exp3(2, exploration=0.1, learning_rate=0.5)
    >>> rule.probabilities()
    [0.5, 0.5]
    >>> rule.choose(0.7)
    1
    >>> rule.update(2.0, [False, True])  # member 1 played alone: gains 2 / 0.5
    [0.0, 4.0]
    >>> [round(p, 6) for p in rule.probabilities()]  # 0.9 e^-2 / (1 + e^-2) + 0.05, ...
    [0.157283, 0.842717]
    """

    def __init__(self, members: int, exploration: float, learning_rate: float,
                 share: float = 0.0):
        self.exploration = exploration
        self.learning_rate = learning_rate
        self.share = share
        self.gains = [0.0] * members
        self.weights = [1.0 / members] * members  # exp(eta S) normalised, the share mixed in

    def probabilities(self) -> list[float]:
        floor = self.exploration / len(self.weights)
        return [(1.0 - self.exploration) * weight + floor for weight in self.weights]

    def choose(self, uniform: float, probabilities: list[float] | None = None) -> int:
        """The member for a draw in [0, 1): the first whose cumulative probability exceeds it
        (the last if rounding leaves the sum short of the draw)."""
        probabilities = self.probabilities() if probabilities is None else probabilities
        cumulative = 0.0
        for member, probability in enumerate(probabilities):
            cumulative += probability
            if uniform < cumulative:
                return member
        return len(probabilities) - 1

    def update(self, reward: float, agreed: list[bool],
               probabilities: list[float] | None = None) -> list[float]:
        """Add the hand's estimates (reward / P(C) to each member that agreed, 0 to the rest;
        `probabilities`: those the hand was drawn with) and return them."""
        probabilities = self.probabilities() if probabilities is None else probabilities
        share = 0.0
        for member, probability in enumerate(probabilities):
            if agreed[member]:
                share += probability
        estimates = [reward / share if agreed[member] else 0.0
                     for member in range(len(self.gains))]
        for member, estimate in enumerate(estimates):
            self.gains[member] += estimate
        logs = [math.log(weight) + self.learning_rate * estimate
                for weight, estimate in zip(self.weights, estimates)]
        top = max(logs)
        powers = [math.exp(value - top) for value in logs]
        total = 0.0
        for power in powers:
            total += power
        mix = self.share / len(powers)
        self.weights = [(1.0 - self.share) * power / total + mix for power in powers]
        return estimates


def hand_reward(state: MatchState) -> float:
    """Our chips in a finished hand, all-in adjusted (an all-in before the last round scored by
    (2 e - 1) x the stake, e our exact equity with the board then, `evaluator.matchups.
    allin_equity`), as the fast engine scores it. A `ProtocolError` if a showdown's cards are
    missing."""
    betting = state.betting
    round_ = allin_round(betting)
    if round_ is None:
        return state.payoffs()[state.position]
    from gambler.evaluator.matchups import allin_equity

    holes = state.hole_cards
    if len(holes) != 2 or any(len(cards) != 2 for cards in holes):
        return state.payoffs()[state.position]  # raises: the showdown needs both hands
    visible = state.game.board_cards_through(round_)
    value = (2.0 * allin_equity(holes[0], holes[1], state.board[:visible]) - 1.0) \
        * min(betting.spent)
    return value if state.position == 0 else -value


def load_portfolio(name: str | Path) -> Portfolio:
    """A portfolio by path or shipped name (`configs/params/`); `ProfileError` naming the file
    and the field for anything wrong, its members included."""
    path = find_profile_file(name)
    return parse_portfolio(read_text(path, ProfileError), source=str(name))


def parse_portfolio(text: str, source: str = "<portfolio>") -> Portfolio:
    document = kind_document(text, source, "portfolio", _KEYS)
    members = document.get("members")
    if not isinstance(members, list) or len(members) < 2 or \
            not all(isinstance(member, str) for member in members):
        raise ProfileError(f"{source}: members: a list of at least two names or paths")
    from gambler.bot.strategies import resolve_strategy

    strategies = []
    for index, member in enumerate(members):
        where = f"{source}: members[{index}] ({member})"
        if member == "random":
            raise ProfileError(f"{where}: a member must be deterministic (not random): the "
                               f"estimates ask each member what it would have done")
        if file_kind(member) in ("portfolio", "switch"):
            raise ProfileError(f"{where}: a member must be a single strategy, not a "
                               f"{file_kind(member)}")
        try:
            strategies.append(resolve_strategy(member))
        except ProfileError as error:
            raise ProfileError(f"{where}: {error}") from None
    exploration = _number(document.get("exploration", 0.05), f"{source}: exploration")
    if not 0 < exploration <= 1:
        raise ProfileError(f"{source}: exploration: {exploration} is not in (0, 1]")
    rate = document.get("learning_rate", "auto")
    learning_rate = None if rate == "auto" else _number(rate, f"{source}: learning_rate")
    if learning_rate is not None and learning_rate <= 0:
        raise ProfileError(f"{source}: learning_rate: {learning_rate} is not above 0 (or auto)")
    share = _number(document.get("share", 0.0), f"{source}: share")
    if not 0 <= share < 1:
        raise ProfileError(f"{source}: share: {share} is not in [0, 1)")
    text_fields = {}
    for key in ("name", "description", "provenance"):
        value = document.get(key, "")
        if not isinstance(value, str):
            raise ProfileError(f"{source}: {key}: text expected")
        text_fields[key] = value
    return Portfolio(tuple(members), tuple(strategies), exploration, learning_rate, share,
                     **text_fields)


def _number(value, where: str) -> float:
    """A finite number; also text that reads as one (YAML 1.1 reads `1e-9`, without a dot, as
    text)."""
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            pass
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ProfileError(f"{where}: a number expected, got {value!r}")
    return float(value)


class PortfolioStrategy:
    """A portfolio at the table: one member plays each hand (Exp3's draw); when the hand ends
    (`hand_ended`, from `bot.player.Player`), every member is asked what it would have done at
    each of our decisions, and the estimates are updated."""

    def __init__(self, portfolio: Portfolio, big_blind: int, stack: int, win_rate=None,
                 seed: int = 0):
        from gambler.bot.strategies import member_strategy, shared_win_rate

        self.portfolio = portfolio
        self.name = portfolio.name or "portfolio"
        self.big_blind = big_blind
        self.seed = seed
        rate = shared_win_rate(win_rate)
        self.members = [member_strategy(spec, rate, seed) for spec in portfolio.strategies]
        self.names = [getattr(member, "name", spec) or spec
                      for member, spec in zip(self.members, portfolio.members)]
        self.rule = Exp3(len(self.members), portfolio.exploration,
                         portfolio.rate_for(stack / big_blind), portfolio.share)
        self.hand: int | None = None
        self.chosen = 0
        self.probabilities: list[float] = []
        self.decisions: list[tuple[MatchState, Action]] = []
        self.history: list[tuple[int, int, float, list[float]]] = []  # hand, member, reward, p

    def _start(self, hand: int) -> None:
        from gambler.evaluator.rng import portfolio_uniform

        self.hand = hand
        self.probabilities = self.rule.probabilities()
        self.chosen = self.rule.choose(portfolio_uniform(self.seed, hand), self.probabilities)
        self.decisions = []

    def act(self, state: MatchState) -> Action:
        return self.act_and_explain(state, explain=False)[0]

    def act_and_explain(self, state: MatchState,
                        explain: bool = True) -> tuple[Action, dict[str, object]]:
        """The drawn member's action (recorded for the hand's estimate) and, with `explain`,
        its decision fields after `member=NAME` and its probability."""
        from gambler.bot.strategies import act_and_explain

        if state.hand != self.hand:
            self._start(state.hand)
        member = self.members[self.chosen]
        if explain:
            action, fields = act_and_explain(member, state)
            fields = {"member": self.names[self.chosen], "p": self.probabilities[self.chosen],
                      **fields}
        else:
            action, fields = member.act(state), {}
        self.decisions.append((state, action))
        return action, fields

    def hand_ended(self, state: MatchState) -> None:
        """Update Exp3 with the finished hand (`state`: its final state)."""
        if state.hand != self.hand:  # we never acted: every member agrees
            self._start(state.hand)
        reward = hand_reward(state) / self.big_blind
        agreed = [member == self.chosen or all(strategy.act(seen) == action
                                               for seen, action in self.decisions)
                  for member, strategy in enumerate(self.members)]
        self.rule.update(reward, agreed, self.probabilities)
        self.history.append((state.hand, self.chosen, reward, self.probabilities))

    def adaptation_header(self) -> str:
        """The log's comment line that names the members, in the order of `adapt` lines."""
        return f"# portfolio {self.name}: members {' '.join(self.names)}"

    def adaptation_line(self) -> str:
        """`adapt HAND member=NAME p=P1/P2/...` for the hand just ended: who played it, and the
        probabilities it was drawn with (`protocol.logs` skips these lines; `gambler-report`
        plots them)."""
        hand, chosen, _, probabilities = self.history[-1]
        return (f"adapt {hand} member={self.names[chosen]} "
                f"p={'/'.join(f'{p:.6f}' for p in probabilities)}")
