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
    estimator: folds         # `agreement` (the default) or `folds`: the estimate below

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

**Revealed folds** (`estimator: folds`). A member whose first difference from the hand as played
is a fold would have lost exactly what the bot had put in at that decision, whatever the
opponent holds: its result is revealed by every draw whose hand reaches that decision, not only
by the draws that play the whole hand as it went. So member k's result is revealed at a point:
its fold (the decision where it folds, when it agrees with every decision before), or the whole
hand (when it agrees with every decision; at the bot's last decision if that one folded). With
d_j the first of the bot's decisions at which member j differs from the hand (n, the number of
decisions, if none; -1 for a slot that could not be drawn), k gains value_k / R_k, R_k = sum of
p_j over the j with d_j >= k's point (the members whose own hand reaches it, k among them), and
nothing where no value is revealed. Over J's draw k's value is revealed exactly when the drawn
member's hand reaches k's point, with probability R_k, so the estimate is unbiased; it is the
agreement estimate for members that agree throughout, and for a member that folds where the
hand went on it replaces a sample of the noisy hand (r / P(C), or nothing) by the chips it
would have lost. R_k >= p_k >= gamma / K as before, so the guarantee's conditions hold; the
identity sum_k p_k x_k = r does not.

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

**The model member** (optional, `model:` in the file):

    model:
      every: 500         # a new counter takes over the model's slot at hands 500, 1000, ...
      lag: 100           # ... fitted on the hands before 400, 900, ... (computed meanwhile)
      deals: 2000        # the counter search's deals (seeded by `seed`), steps, population
      steps: 10
      population: 16
      seed: 601
      calibrate: 0       # rounds of calibrating the fitted model (0, the default: none)
      window: 0          # fitted on the last `window` hands only (0, the default: all of them)
      allowance: 0       # big blinds it may lose beyond what the bot has won (default 0)
      budget: match      # whose chips the bar counts: the match's or the model's (below)
      account: raw       # how it counts a hand: its chips, or all-in adjusted (below)
      counted_loss: 0    # the most one hand counts against that account, in big blinds
                         # (default 0: all of it; below)
      chances: 1         # how many times the account may start from zero (default 1: once)
      lead: 1            # its first weight, as a multiple of the best member's (default 1;
                         # any number above 0: below 1 the counter starts behind the member)
      prior: 4           # pseudo-counts of the fit's prior in each situation (default 4)
      starts: [default, price-aware]  # the counter search's starting profiles (default:
                                      # the members' profiles)
      margin: 0          # mbb/hand another start must win beyond the first to be climbed from
      guards: [default-v2]  # sound strategies the counter must also hold against (default: none)
      guard_weight: 0.5  # w: the share of the counter's score they make (needs guards)

adds a slot named `model` after the members (with a model one member is enough: Exp3 then
draws between it and the counter). Until hand `every` it is empty (probability 0).
At hand k x every it holds the counter-strategy to the opponent as counted over the hands
before k x every - lag (`bot.opponent.OpponentStats`, fitted by `bot.opponent.fit_exploiter`,
calibrated `calibrate` times against the first start by `training.counter.
calibrated_model`, the counter searched from the `starts` (the members' profiles if none) by
`training.counter.refresh_counter`; with a
`window`, only the last `window` of those hands, so that a counter follows an opponent that
changes); the bot starts computing it after hand k x every - lag - 1 ends, off the decision
path, and the counter
takes effect at hand k x every exactly, the bot waiting for it there if it is late, so a seeded
match replays exactly (over TCP the wait is bounded, `REFRESH_WAIT_SECONDS`: a search that a
starved processor has not finished by then is given up, the one case where the TCP bot and the
engine part, and the log says so). At the first hand the model can be drawn (a counter
installed and the budget below open), its slot is levelled with the best member (its weight set
to the largest of the others', times `lead`, then all renormalised): the budget, not its weight, bounds what
it can lose, and a lead above 1 says that a counter fitted to this opponent is expected to beat
members that were not (each exp(eta S) ratio of `lead` is ln(lead) / eta big blinds of
estimated winnings, 277 for a lead of 4 at eta 0.005); a lead below 1 says the opposite, that a
counter must first show in the match that it wins more than the member (a lead of 1/4 starts it
277 big blinds of estimated winnings behind).
From then on Exp3 rules it like a member; later counters, fitted to more of the same opponent,
inherit the slot's weight, so a model that has lost keeps its low weight (a share lets it
climb back). The members' rules do not change.

**Guards** (a robust counter): a counter fitted to a model wins where the model is wrong too,
and an opponent that answers what it faces (LBR, told which member plays) finds those places at
once. With `guards` and a `guard_weight` w the search scores each candidate by
(1 - w) x its winnings against the model + w x their mean against the guards (each in mbb/hand
on the same deals, all-in adjusted), so it keeps the model's exploitable leaks only where they
do not open leaks that sound play punishes: the idea of Johanson, Zinkevich and Bowling's
restricted Nash response (2008, "Computing robust counter-strategies"), where the counter meets
the model with probability p and a best response to itself otherwise, with fixed sound
strategies standing in for that best response. A guard is any single strategy the engine plays
without the holdings' v (a profile without range defence, an exploiter, a baseline).

**The budget** (Ganzfried and Sandholm's "risk what you have won", 2015, with each hand's worst
case): the model plays a hand only if the bot's chips so far in the match (raw, every hand)
are at least R, the stack, the most one hand can lose. Otherwise its probability is 0, the
others' are scaled up to sum to 1, and it gains nothing from the hand (it could not have been
drawn: crediting it wherever its play coincides with a member's would bias its estimate upward,
since it would never pay for the hands where it differs). So after every hand the model plays
the bot is still at least even, and the model's losses over the match never exceed what the
members won before them: the bot risks what it has won and never its own stack (Ganzfried and
Sandholm bound the expected loss by the winnings; this bounds the realised loss hand by hand).
Against an opponent the members do not beat by a stack, the model never plays. With an
`allowance` of A big blinds the bar is a stack less A: the bot may then end a model hand up to
A behind, and the model's losses never exceed the members' winnings plus A.

**The model's own account** (`budget: model`). The same bar, for the chips of the hands the
model itself played (raw) instead of the whole match's: the model plays a hand only if its own
hands so far have won at least a stack less A, so over the match its hands lose at most A big
blinds net, what they won themselves plus A, whatever the members did. Against an opponent that
beats both members (an exploiter searched against them), the match's bar keeps the counter out
for good, though it is the one slot that might win; this one does not charge the model for the
members' losses, and still bounds what it can lose, hand by hand.

**An account without the run-outs' luck** (`account: adjusted`; default `raw`). Either bar may
count each hand all-in adjusted instead of in raw chips: an all-in before the river scores
(2 e - 1) x the stake, e the bot's exact equity with the board then (`hand_reward`, what Exp3
is told), so a counter that gets its stack in ahead and loses the run-out is charged what the
all-in was worth, not the stack. Against a fixed opponent a counter's early all-ins decide most
of the raw account's swings, and a raw bar stops a counter that wins on bad luck; against an
opponent that answers the counter at once (a best response), the stacks it wins are won with
the best hand, and both accounts fall alike. The bound is then on the adjusted account: the
realised chips may fall further behind by the run-outs' luck, which is zero in expectation.

**A hand's loss counted up to a limit** (`counted_loss: C`, big blinds; default 0, no limit).
The account counts each hand at no less than -C: a hand that loses more (a stack lost with a
strong hand to a stronger one, which neither account can tell from a mistake) counts as -C. A
fresh counter then survives one such hand before its own hands have won a stack's cushion,
where one lost stack would take it below the bar. The bound moves with it: the account, not the
chips, stays above the bar, and the chips may fall behind it by up to a stack less C on each
hand counted at -C.

**More than one chance** (`chances: N`; default 1). With the bar as above, a counter that falls
below it shuts the model out for the rest of the match, though the next counter, fitted on the
hands the fallen one played, may be the one that wins: against an opponent whose answers to bets
the members never provoke (one that moves all in over small bets, when the members never bet
first), the first counter bets into answers it has not seen and pays for them, and the second
has seen them. With N chances, a counter that takes the slot while the account stands below the
bar starts the account again from zero (the bar moves to the account then plus the threshold),
at most N - 1 times in a match. Exp3's weight is not touched: the slot keeps what its losses
earned it. The bound is N times the one above: what the model's hands lose over the match,
counted, stays within N times (the allowance less a stack, plus one hand's counted loss).

`PortfolioStrategy` plays a portfolio over TCP; `training.portfolio` plays it in the fast engine
with the same draws, the same estimates and the same floating-point order, hand for hand.
"""

from __future__ import annotations

import collections
import concurrent.futures
import copy
import math
from dataclasses import dataclass
from pathlib import Path

from gambler.bot.opponent import PRIOR
from gambler.bot.params import ProfileError, file_kind, find_profile_file, kind_document
from gambler.errors import read_text
from gambler.protocol.betting import Action, allin_round
from gambler.protocol.matchstate import MatchState

_KEYS = ("kind", "name", "description", "provenance", "members", "exploration", "learning_rate",
         "share", "estimator", "model")

#: Whose chips the model's budget counts (module docstring, "The budget" and "The model's
#: own account").
BUDGETS = ("match", "model")

#: How the model's budget counts a hand (module docstring, "An account without the run-outs'
#: luck").
ACCOUNTS = ("raw", "adjusted")

#: The estimators a portfolio file may name (module docstring, "The estimate", "Revealed folds").
ESTIMATORS = ("agreement", "folds")

#: The name of the model member's slot (after the members).
MODEL_SLOT_NAME = "model"

#: The longest the TCP bot waits at a refresh hand for its counter (seconds): a search takes
#: about a second; one starved of the processor for longer is given up (the slot keeps what it
#: had, and the log says so) rather than let the dealer's response timeout end the match.
REFRESH_WAIT_SECONDS = 60.0


@dataclass(frozen=True)
class Model:
    """The model member's schedule and its counter search (module docstring)."""

    every: int = 500
    lag: int = 100
    deals: int = 2000
    steps: int = 10
    population: int = 16
    seed: int = 601
    calibrate: int = 0  # calibration rounds of the fitted model (`training.counter`)
    window: int = 0  # fit on the last `window` hands before the cut only (0: every hand)
    allowance: int = 0  # big blinds the model may lose beyond what the bot has won
    lead: float = 1  # the model's first weight: `lead` times the best member's (above 0)
    prior: int = PRIOR  # the fit's pseudo-counts toward a sound defence
    budget: str = "match"  # whose chips the bar is for: the match's, or the model's own hands'
    account: str = "raw"  # how the bar counts a hand: its chips, or all-in adjusted
    counted_loss: int = 0  # big blinds: a hand counts at no less than minus this (0: in full)
    chances: int = 1  # how many times the account may start from zero (module docstring)
    starts: tuple[str, ...] = ()  # the profiles the counter search starts from (): the members'
    start_profiles: tuple = ()  # ... resolved when the file is read (`bot.params.Profile`s)
    margin: int = 0  # mbb/hand another start must win beyond the first (`training.counter`)
    guards: tuple[str, ...] = ()  # sound strategies the counter's score also plays (names)
    guard_strategies: tuple = ()  # ... resolved when the file is read
    guard_weight: float = 0.0  # w: the guards' share of the counter's score (needs guards)

    def threshold(self, stack: int, big_blind: int) -> int:
        """The chips the bot must be ahead for the model to play a hand: a stack, less the
        allowance."""
        return stack - self.allowance * big_blind

    def counted(self, chips: float, big_blind: int) -> float:
        """What a hand of `chips` adds to the account: the chips, but no less than -counted_loss
        big blinds (module docstring, "A hand's loss counted up to a limit").

        >>> Model(counted_loss=100).counted(-20000, 100), Model().counted(-20000, 100)
        (-10000, -20000)
        """
        return max(chips, -self.counted_loss * big_blind) if self.counted_loss else chips

    def counted_floor(self, big_blind: int) -> float:
        """The least a hand adds to the account, in chips (-inf: no limit), for the engine."""
        return float(-self.counted_loss * big_blind) if self.counted_loss else -math.inf

    def renewed_bar(self, account: float, bar: float, renewals: int, stack: int,
                    big_blind: int) -> tuple[float, int]:
        """(the bar, renewals made) for a counter that takes the slot with the account at
        `account`: below `bar`, and with a chance left (`renewals` < chances - 1), the account
        starts again from zero, so the bar moves to the account plus the threshold (module
        docstring, "More than one chance"); otherwise both stay.

        >>> Model(allowance=300, chances=2).renewed_bar(-12000.0, -10000.0, 0, 20000, 100)
        (-22000.0, 1)
        >>> Model(allowance=300, chances=2).renewed_bar(-12000.0, -22000.0, 1, 20000, 100)
        (-22000.0, 1)
        >>> Model(allowance=300).renewed_bar(-12000.0, -10000.0, 0, 20000, 100)
        (-10000.0, 0)
        """
        if account < bar and renewals < self.chances - 1:
            return account + self.threshold(stack, big_blind), renewals + 1
        return bar, renewals

    def budget_phrase(self) -> str:
        """The budget in words (`Portfolio.describe`).

        >>> Model(allowance=250, budget="model").budget_phrase()
        'its own hands stand at a stack less 250 big blinds or more'
        >>> Model(allowance=200, budget="model", account="adjusted").budget_phrase()
        'its own hands stand at a stack less 200 big blinds or more, all-in adjusted'
        """
        account = "the match" if self.budget == "match" else "its own hands"
        counted = ", all-in adjusted" if self.account == "adjusted" else ""
        if self.counted_loss:
            counted += f", a hand's loss counted up to {self.counted_loss:,} big blinds"
        if self.chances > 1:
            counted += f", {self.chances} chances (the account starts from zero again at a " \
                       "counter after a fall)"
        if self.allowance == 0:
            return f"{account} {'is' if self.budget == 'match' else 'are'} a stack ahead{counted}"
        return f"{account} stand{'s' if self.budget == 'match' else ''} at a stack less " \
               f"{self.allowance:,} big blinds or more{counted}"

    def fit_phrase(self) -> str:
        """Which hands the model is fitted on, in words (`Portfolio.describe`).

        >>> Model(window=500, calibrate=3).fit_phrase()
        'fitted on the last 500 hands up to 100 hands before, calibrated 3 times'
        """
        hands = f"on the last {self.window:,} hands " if self.window else ""
        times = f"{self.calibrate} time{'s' if self.calibrate > 1 else ''}"
        calibrated = f", calibrated {times}" if self.calibrate else ""
        return f"fitted {hands}up to {self.lag:,} hands before{calibrated}"

    def guard_phrase(self) -> str:
        """The guards in words, to follow `fit_phrase` (`Portfolio.describe`; empty without).

        >>> Model(guards=("default-v2",), guard_weight=0.5).guard_phrase()
        '; each counter scored 50% by what it wins against default-v2'
        """
        if not self.guards:
            return ""
        return (f"; each counter scored {self.guard_weight:.0%} by what it wins against "
                f"{', '.join(self.guards)}")

    def refresh_at(self, refresh: int) -> int:
        """The hand number at which counter `refresh` (1, 2, ...) takes effect."""
        return refresh * self.every

    def fitted_before(self, refresh: int) -> int:
        """Counter `refresh` is fitted on the hands numbered below this."""
        return refresh * self.every - self.lag

    def fitted_from(self, refresh: int) -> int:
        """... and from this one on (0 without a window)."""
        return max(self.fitted_before(refresh) - self.window, 0) if self.window else 0


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
    model: Model | None = None
    estimator: str = "agreement"  # or "folds" (module docstring)

    @property
    def slots(self) -> tuple[str, ...]:
        """What Exp3 chooses among: the members, then `model` if the file has one."""
        return self.members + ((MODEL_SLOT_NAME,) if self.model is not None else ())

    @property
    def model_slot(self) -> int:
        """The model's slot (-1: none)."""
        return len(self.members) if self.model is not None else -1

    def guaranteed_rate(self, stack_big_blinds: float) -> float:
        """gamma / (K R): the largest eta with Exp3's guarantee (module docstring)."""
        return self.exploration / (len(self.slots) * stack_big_blinds)

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
        model = self.model
        counter = (f"; a model member refreshed every {model.every:,} hands "
                   f"({model.fit_phrase()}{model.guard_phrase()}), playing only while "
                   f"{model.budget_phrase()}"
                   if model is not None else "")
        count = len(self.members)
        return (f"{rule} over {count} member{'s' if count > 1 else ''} "
                f"({', '.join(self.members)}{' and the model' if model is not None else ''}): "
                f"exploration {self.exploration:g}, learning rate {rate:.3g} per big blind "
                f"({bound}){share}{counter}")


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

    def probabilities(self, excluded: int = -1) -> list[float]:
        """The draw's probabilities; with `excluded` (a slot, -1 for none) that slot's is 0 and
        the others' are divided by 1 minus what it had."""
        floor = self.exploration / len(self.weights)
        probabilities = [(1.0 - self.exploration) * weight + floor for weight in self.weights]
        if excluded >= 0:
            removed = probabilities[excluded]
            probabilities = [0.0 if slot == excluded else probability / (1.0 - removed)
                             for slot, probability in enumerate(probabilities)]
        return probabilities

    def level(self, slot: int, lead: float = 1.0) -> None:
        """Give `slot` `lead` times the largest of the other weights and renormalise (a new
        model member starts level with the best member, or ahead of it)."""
        self.weights = level_weights(self.weights, slot, lead)

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
        return self.credit(estimates)

    def credit(self, estimates: list[float]) -> list[float]:
        """Add the hand's estimates (one per member, from either estimator) to the gains, move
        the weights, and return the estimates."""
        for member, estimate in enumerate(estimates):
            self.gains[member] += estimate
        logs = [(math.log(weight) if weight > 0.0 else -math.inf)  # underflowed: as numba
                + self.learning_rate * estimate
                for weight, estimate in zip(self.weights, estimates)]
        top = max(logs)
        powers = [math.exp(value - top) for value in logs]
        total = 0.0
        for power in powers:
            total += power
        mix = self.share / len(powers)
        self.weights = [(1.0 - self.share) * power / total + mix for power in powers]
        return estimates


def revealed_estimates(reached: list[int], revealed: list[tuple[int, float] | None],
                       probabilities: list[float]) -> list[float]:
    """The folds estimator (module docstring, "Revealed folds"): member k's value_k / R_k, R_k
    the sum of p_j over the members j with reached[j] >= k's point (summed in slot order, as
    the fast engine sums them), 0 where nothing is revealed. `reached[j]`: the first of the
    bot's decisions at which member j differs from the hand (n if none, -1 for a slot that
    could not be drawn); `revealed[k]`: (point, value in big blinds) or None.

    >>> revealed_estimates([2, 1, 0], [(2, 3.0), (1, -0.5), None], [0.5, 0.25, 0.25])
    [6.0, -0.6666666666666666, 0.0]
    """
    estimates = []
    for reveal in revealed:
        if reveal is None:
            estimates.append(0.0)
            continue
        point, value = reveal
        chance = 0.0
        for reach, probability in zip(reached, probabilities):
            if reach >= point:
                chance += probability
        estimates.append(value / chance)
    return estimates


def level_weights(weights, slot: int, lead: float = 1.0) -> list[float]:
    """`Exp3.level` on a list of weights (the fast engine calls it too, for the same floats)."""
    weights = [float(weight) for weight in weights]
    weights[slot] = lead * max(weight for other, weight in enumerate(weights) if other != slot)
    total = 0.0
    for weight in weights:
        total += weight
    return [weight / total for weight in weights]


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
    fewest = 1 if document.get("model") is not None else 2
    if not isinstance(members, list) or len(members) < fewest or \
            not all(isinstance(member, str) for member in members):
        raise ProfileError(f"{source}: members: a list of at least two names or paths (or one, "
                           f"with a model member)")
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
    estimator = document.get("estimator", "agreement")
    if estimator not in ESTIMATORS:
        raise ProfileError(f"{source}: estimator: {estimator!r} is not one of "
                           f"{', '.join(ESTIMATORS)}")
    text_fields = {}
    for key in ("name", "description", "provenance"):
        value = document.get(key, "")
        if not isinstance(value, str):
            raise ProfileError(f"{source}: {key}: text expected")
        text_fields[key] = value
    model = None
    if document.get("model") is not None:
        model = _parse_model(document["model"], f"{source}: model")
        from gambler.bot.params import Profile

        if not model.starts and not any(isinstance(strategy, Profile)
                                        for strategy in strategies):
            raise ProfileError(f"{source}: model: the counter search starts from the members' "
                               f"profiles: list at least one profile among the members (or "
                               f"name them in model: starts)")
    return Portfolio(tuple(members), tuple(strategies), exploration, learning_rate, share,
                     model=model, estimator=estimator, **text_fields)


def _parse_model(value, where: str) -> Model:
    """The `model:` mapping (`true`: every default)."""
    if value is True:
        return Model()
    if not isinstance(value, dict):
        raise ProfileError(f"{where}: a mapping of every, lag, deals, steps, population, seed "
                           f"(or true for the defaults)")
    fields = [field for field in Model.__dataclass_fields__
              if field not in ("start_profiles", "guard_strategies")]
    unknown = sorted(str(key) for key in value if key not in fields)
    if unknown:
        raise ProfileError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(fields)})")
    numbers = {}
    for key, given in value.items():
        if key == "starts":
            numbers["start_profiles"] = _parse_starts(given, f"{where}: starts")
            numbers[key] = tuple(given)  # a list of names: _parse_starts checked it
            continue
        if key == "guards":
            numbers["guard_strategies"] = _parse_guards(given, f"{where}: guards")
            numbers[key] = tuple(given)  # a list of names: _parse_guards checked it
            continue
        if key == "guard_weight":
            weight = _number(given, f"{where}: guard_weight")
            if not 0.0 <= weight < 1.0:
                raise ProfileError(f"{where}: guard_weight: {given} is not in [0, 1) (the "
                                   "guards' share of the counter's score; the model keeps "
                                   "the rest)")
            numbers[key] = weight
            continue
        if key in ("budget", "account"):
            choices = BUDGETS if key == "budget" else ACCOUNTS
            if given not in choices:
                raise ProfileError(f"{where}: {key}: {given!r} is not one of "
                                   f"{', '.join(choices)}")
            numbers[key] = given
            continue
        if key == "lead":
            lead = _number(given, f"{where}: lead")
            if lead <= 0:
                raise ProfileError(f"{where}: lead: {given} is not above 0")
            numbers[key] = lead
            continue
        if isinstance(given, bool) or not isinstance(given, int):
            raise ProfileError(f"{where}: {key}: a whole number expected, got {given!r}")
        smallest = 0 if key in ("lag", "steps", "seed", "calibrate", "window", "allowance",
                                "prior", "margin", "counted_loss") else 1
        if given < smallest:
            raise ProfileError(f"{where}: {key}: {given} is below {smallest}")
        numbers[key] = given
    model = Model(**numbers)
    if model.lag >= model.every:
        raise ProfileError(f"{where}: lag: {model.lag} is not below every ({model.every}): "
                           "each counter is fitted on hands before the previous one's")
    if bool(model.guards) != (model.guard_weight > 0.0):
        given = "guards without a guard_weight" if model.guards else "a guard_weight without guards"
        raise ProfileError(f"{where}: {given}: name the guards and their share of the counter's "
                           "score together (guards: [default-v2], guard_weight: 0.5)")
    return model


def _parse_guards(value, where: str) -> tuple:
    """`model: guards`: a list of at least one strategy the engine plays alone without the
    holdings' v (a profile without range defence, an exploiter or a baseline), resolved."""
    from gambler.bot.exploiters import Exploiter
    from gambler.bot.params import Profile

    def check(strategy):
        if isinstance(strategy, Profile) and strategy.uses_own_range:
            return ("a profile with range defence or range bets cannot guard (the counter "
                    "search's deals carry no holdings' v): name one without")
        if not isinstance(strategy, (Profile, Exploiter, str)):
            return f"a guard is one strategy, not a {type(strategy).__name__.lower()}"
        return None

    return _resolved_names(value, where, "a list of at least one profile, exploiter or baseline",
                           check)


def _parse_starts(value, where: str) -> tuple:
    """`model: starts`: a list of at least one automaton profile (name or path), resolved."""
    from gambler.bot.params import Profile

    def check(strategy):
        if isinstance(strategy, Profile):
            return None
        kind = "baseline" if isinstance(strategy, str) else type(strategy).__name__.lower()
        article = "an" if kind[0] in "aeiou" else "a"
        return f"the counter search starts from automaton profiles, not {article} {kind}"

    return _resolved_names(value, where, "a list of at least one profile name or path", check)


def _resolved_names(value, where: str, expected: str, check) -> tuple:
    """A non-empty list of strategy names or paths, each resolved (`resolve_strategy`) and
    refused with `check(strategy)`'s reason when it gives one; errors name the entry."""
    from gambler.bot.strategies import resolve_strategy

    if not isinstance(value, list) or not value or \
            not all(isinstance(name, str) for name in value):
        raise ProfileError(f"{where}: {expected}")
    strategies = []
    for index, name in enumerate(value):
        try:
            strategy = resolve_strategy(name)
        except ProfileError as error:
            raise ProfileError(f"{where}[{index}] ({name}): {error}") from None
        reason = check(strategy)
        if reason:
            raise ProfileError(f"{where}[{index}] ({name}): {reason}")
        strategies.append(strategy)
    return tuple(strategies)


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
    each of our decisions, and the estimates are updated.

    With a model member, `refresher(portfolio, stats, refresh)` computes counter `refresh` from
    a copy of the opponent's counts and returns a future (its `result()`: an object with the
    counter `profile` and `mbb_per_hand`, what it wins against the model): `training.counter.
    refresh_counter` does the work, which `bot` cannot import; `gambler.adaptive` runs it in a
    process of its own."""

    def __init__(self, portfolio: Portfolio, big_blind: int, stack: int, win_rate=None,
                 seed: int = 0, refresher=None, refresh_wait: float = REFRESH_WAIT_SECONDS):
        from gambler.bot.strategies import member_strategy, shared_win_rate

        if portfolio.model is not None and refresher is None:
            raise ProfileError(f"{portfolio.name or 'portfolio'}: its model member's counter is "
                               "searched by the training engine: play it with `gambler` (the "
                               "gambler.adaptive layer), `gambler-match` or the fast engine")
        self.portfolio = portfolio
        self.name = portfolio.name or "portfolio"
        self.big_blind = big_blind
        self.stack = stack
        self.seed = seed
        self.rate = shared_win_rate(win_rate)
        self.members = [member_strategy(spec, self.rate, seed) for spec in portfolio.strategies]
        self.names = [getattr(member, "name", spec) or spec
                      for member, spec in zip(self.members, portfolio.members)]
        self.rule = Exp3(len(portfolio.slots), portfolio.exploration,
                         portfolio.rate_for(stack / big_blind), portfolio.share)
        self.hand: int | None = None
        self.chosen = 0
        self.excluded = -1  # the slot that could not be drawn this hand (-1: none)
        self.probabilities: list[float] = []
        self.decisions: list[tuple[MatchState, Action]] = []
        self.history: list[tuple[int, int, float, list[float]]] = []  # hand, member, reward, p
        self.balance = 0  # our chips so far: the model's budget (`budget: match`) ...
        self.model_balance = 0  # ... or the chips of the hands the model played (`model`)
        self.bar = (portfolio.model.threshold(stack, big_blind)  # the account's bar ...
                    if portfolio.model is not None else 0)
        self.renewals = 0  # ... and how many times it was moved ("More than one chance")
        self.refresher = refresher
        self.refresh_wait = refresh_wait
        self.counter = None  # the model member's strategy, once there is one
        self.refreshes = 0   # counters installed
        self.levelled = False  # whether the model's slot was levelled with the best member
        self.submitted: dict[int, object] = {}  # refresh -> its future
        self.notes: list[str] = []  # log comment lines for the hand that is ending
        if portfolio.model is not None:
            from gambler.bot.opponent import OpponentStats
            self.names.append(MODEL_SLOT_NAME)
            self.stats = OpponentStats()
            # with a window, the final states of its last hands (the counts are made from them
            # when a counter is due); without, the counts are kept hand by hand
            self.recent = collections.deque(maxlen=portfolio.model.window or None)

    def _start(self, hand: int) -> None:
        from gambler.evaluator.rng import portfolio_uniform

        self.hand = hand
        model = self.portfolio.model
        excluded = -1
        if model is not None:
            while hand >= model.refresh_at(self.refreshes + 1):
                self._install(self.refreshes + 1)
            if self.counter is None or self._account() < self.bar:
                excluded = self.portfolio.model_slot
            elif not self.levelled:  # the first hand the model can be drawn
                self.rule.level(self.portfolio.model_slot, float(model.lead))
                self.levelled = True
        self.excluded = excluded
        self.probabilities = self.rule.probabilities(excluded)
        self.chosen = self.rule.choose(portfolio_uniform(self.seed, hand), self.probabilities)
        self.decisions = []

    def _account(self) -> float:
        """What the model's bar counts: the model's own hands or the match's."""
        model = self.portfolio.model
        return self.model_balance if model.budget == "model" else self.balance

    def _install(self, refresh: int) -> None:
        """Counter `refresh` takes the model's slot (waiting for it if it is not ready)."""
        from gambler.bot.strategies import member_strategy

        if refresh not in self.submitted:  # its hands were never seen (a match joined late)
            self._submit(refresh)
        model = self.portfolio.model
        try:
            found = self.submitted.pop(refresh).result(timeout=self.refresh_wait)
        except concurrent.futures.TimeoutError:  # a starved worker: answer the dealer in time
            self.refreshes = refresh
            self.notes.append(f"# model {refresh} from hand {model.refresh_at(refresh)}: the "
                              f"counter search was not done after {self.refresh_wait:g} s; the "
                              "slot keeps what it had")
            return
        except Exception as error:  # the worker died (out of memory, killed): play on without
            self.refreshes = refresh
            self.notes.append(f"# model {refresh} from hand {model.refresh_at(refresh)}: the "
                              f"counter search failed ({type(error).__name__}: {error}); the "
                              "slot keeps what it had")
            return
        self.counter = member_strategy(found.profile, self.rate, self.seed)
        self.refreshes = refresh
        self.notes.append(f"# model {refresh} from hand {model.refresh_at(refresh)}: fitted on "
                          f"hands {model.fitted_from(refresh)} to "
                          f"{model.fitted_before(refresh) - 1}, its counter wins "
                          f"{found.mbb_per_hand:+,.0f} mbb/hand against the model")
        # a new counter may start the account again (a counter given up above moves nothing)
        renewals = self.renewals
        self.bar, self.renewals = model.renewed_bar(self._account(), self.bar, self.renewals,
                                                    self.stack, self.big_blind)
        if self.renewals > renewals:
            fallen = self._account() / self.big_blind
            self.notes.append(f"# model {refresh}: its account, {fallen:+,.1f} big blinds, "
                              f"starts again from zero (chance {self.renewals + 1} of "
                              f"{model.chances})")

    def _submit(self, refresh: int) -> None:
        model = self.portfolio.model
        if model.window:
            from gambler.bot.opponent import OpponentStats

            stats = OpponentStats()
            for state in self.recent:
                if model.fitted_from(refresh) <= state.hand < model.fitted_before(refresh):
                    stats.observe(state)
        else:
            stats = copy.deepcopy(self.stats)
        self.submitted[refresh] = self.refresher(self.portfolio, stats,
                                                 refresh)

    def close(self) -> None:
        """Stop the refresher's work (the match is over)."""
        close = getattr(self.refresher, "close", None)
        if close is not None:
            close()

    def _strategy(self, slot: int):
        return self.counter if slot == self.portfolio.model_slot else self.members[slot]

    def act(self, state: MatchState) -> Action:
        return self.act_and_explain(state, explain=False)[0]

    def act_and_explain(self, state: MatchState,
                        explain: bool = True) -> tuple[Action, dict[str, object]]:
        """The drawn member's action (recorded for the hand's estimate) and, with `explain`,
        its decision fields after `member=NAME` and its probability."""
        from gambler.bot.strategies import act_and_explain

        if state.hand != self.hand:
            self._start(state.hand)
        member = self._strategy(self.chosen)
        if explain:
            action, fields = act_and_explain(member, state)
            fields = {"member": self.names[self.chosen], "p": self.probabilities[self.chosen],
                      **fields}
        else:
            action, fields = member.act(state), {}
        self.decisions.append((state, action))
        return action, fields

    def hand_ended(self, state: MatchState) -> None:
        """Update Exp3 with the finished hand (`state`: its final state); with a model, count
        the opponent's play and start the next counter when its hands are all in."""
        if state.hand != self.hand:  # we never acted: every member agrees
            self._start(state.hand)
        value = hand_reward(state)
        reward = value / self.big_blind
        reached, revealed = self._reveals(reward)
        if self.portfolio.estimator == "folds":
            self.rule.credit(revealed_estimates(reached, revealed, self.probabilities))
        else:  # the members that agree with every decision: those that reached the hand's end
            count = len(self.decisions)
            self.rule.update(reward, [first == count for first in reached], self.probabilities)
        self.history.append((state.hand, self.chosen, reward, self.probabilities))
        model = self.portfolio.model
        adjusted = model is not None and model.account == "adjusted"
        chips = value if adjusted else state.payoffs()[state.position]
        if model is not None:
            chips = model.counted(chips, self.big_blind)
        self.balance += chips
        if self.chosen == self.portfolio.model_slot:
            self.model_balance += chips
        if model is not None:
            if model.window:
                self.recent.append(state)
            else:
                self.stats.observe(state)
            upcoming = self.refreshes + len(self.submitted) + 1
            if state.hand + 1 >= model.fitted_before(upcoming):
                self._submit(upcoming)

    def _reveals(self, reward: float) -> tuple[list[int], list[tuple[int, float] | None]]:
        """(reached, revealed) of `revealed_estimates` for the hand that ended: each slot's first
        decision that differs from the hand, and where its result is revealed and what it is."""
        count = len(self.decisions)
        folded_last = count > 0 and self.decisions[-1][1].kind == "f"
        reached: list[int] = []
        revealed: list[tuple[int, float] | None] = []
        for slot in range(len(self.names)):
            if slot == self.excluded:
                reached.append(-1)
                revealed.append(None)
                continue
            first, theirs = count, None
            if slot != self.chosen:
                strategy = self._strategy(slot)
                for index, (seen, action) in enumerate(self.decisions):
                    theirs = strategy.act(seen)
                    if theirs != action:
                        first = index
                        break
            reached.append(first)
            if first == count:
                revealed.append((count - 1 if folded_last else count, reward))
            elif theirs.kind == "f":  # it folds where the hand went on: it loses what was in
                seen = self.decisions[first][0]
                revealed.append((first, -seen.betting.spent[seen.position] / self.big_blind))
            else:
                revealed.append(None)
        return reached, revealed

    def adaptation_header(self) -> str:
        """The log's comment line that names the members, in the order of `adapt` lines."""
        return f"# portfolio {self.name}: members {' '.join(self.names)}"

    def adaptation_line(self) -> str:
        """`adapt HAND member=NAME p=P1/P2/...` for the hand just ended: who played it, and the
        probabilities it was drawn with (`protocol.logs` skips these lines; `gambler-report`
        plots them); before it, a comment line for each counter that took effect in the hand."""
        hand, chosen, _, probabilities = self.history[-1]
        notes, self.notes = self.notes, []
        return "".join(f"{note}\n" for note in notes) + (
            f"adapt {hand} member={self.names[chosen]} "
            f"p={'/'.join(f'{p:.6f}' for p in probabilities)}")
