"""What a match log says about each player: results with their confidence, and how they played.

Input: the hands of one or more match logs of one game (`protocol.logs.read_log`: the
dealer's ACPC logs or the bot's own `gambler --log` file), heads-up. For each player
(by name):

* **Result**: hands, chips, mbb/hand (milli-big-blinds) with a 95% interval, 1.96 standard
  errors of the mean over *units*: single hands, or duplicate deals when the logs are a
  duplicate pair (every hand number dealt the same cards in each log, or consecutive hands
  repeating the cards as `gambler-dealer --duplicate` does), where a unit is the sum of the
  player's chips over the deal's hands. The all-in adjusted result (`training.luck`: an all-in
  before the river scored by its equity) and the run-outs' luck (raw - adjusted), the same way.
* **By position**: the result in each position (named by its blind).
* **Showdown / no showdown**: the chips of hands that reached a showdown and of hands that ended
  in a fold, each in mbb per hand over all the player's hands (so they sum to the result).
* **By street of the hand's end** (the round of the fold, or the showdown), per hand over all
  hands; **actions**: folds, checks/calls and bets/raises per round; the per-hand series (raw and
  adjusted) that the HTML page plots.
* **AIVAT** (`--aivat NAME=PROFILE`, for a player whose strategy is a blueprint: `training.
  aivat_holdem`): the result with the luck of the cards and of the player's own dice taken
  out, unbiased; and the standard deviation per hand of the plain, all-in adjusted and AIVAT
  results, with the hands each needs for a 95% interval of +-100 mbb/hand.
* **Style**: VPIP, the share of hands where the player put chips in voluntarily before the flop
  (a call of something owed or a raise; the big blind's free check does not count); PFR, the
  share where it raised before the flop; aggression, (bets + raises) / calls of something owed,
  over every round; fold to a bet, folds / times it faced a bet (something owed), every round.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field, replace

from gambler.protocol.betting import BettingState, CALL, FOLD, RAISE
from gambler.protocol.logs import LoggedHand, LogError


@dataclass(frozen=True)
class Estimate:
    """A mean in mbb/hand with its 95% half-width, over `units` units."""

    mbb_per_hand: float
    ci95_mbb: float
    units: int

    def as_dict(self) -> dict:
        return {"mbb_per_hand": self.mbb_per_hand, "ci95_mbb": self.ci95_mbb,
                "units": self.units}

    def __str__(self) -> str:
        return f"{self.mbb_per_hand:+,.1f} ± {self.ci95_mbb:,.1f}"


def estimate(unit_chips: list[float], hands_per_unit: float, big_blind: int) -> Estimate:
    """mbb/hand of chips summed per unit (each of `hands_per_unit` hands), with 1.96 standard
    errors of the unit mean (0 with fewer than two units)."""
    n = len(unit_chips)
    if n == 0:
        return Estimate(0.0, 0.0, 0)
    mean = sum(unit_chips) / n
    variance = sum((x - mean) ** 2 for x in unit_chips) / (n - 1) if n > 1 else 0.0
    scale = 1000.0 / big_blind / hands_per_unit
    return Estimate(mean * scale, 1.96 * math.sqrt(variance / n) * scale, n)


@dataclass
class Style:
    """Counts behind VPIP, PFR, aggression and fold to a bet."""

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    aggressive: int = 0   # bets and raises
    calls: int = 0        # calls of something owed
    faced: int = 0        # decisions facing a bet
    folds: int = 0

    def as_dict(self) -> dict:
        return {"vpip": self.vpip / self.hands if self.hands else 0.0,
                "pfr": self.pfr / self.hands if self.hands else 0.0,
                "aggression": self.aggressive / self.calls if self.calls else None,
                "fold_to_bet": self.folds / self.faced if self.faced else None,
                "counts": {"hands": self.hands, "vpip": self.vpip, "pfr": self.pfr,
                           "bets_and_raises": self.aggressive, "calls": self.calls,
                           "faced_a_bet": self.faced, "folds": self.folds}}


def style_of(hand: LoggedHand, position: int, style: Style) -> None:
    """Add one hand's decisions of `position` to `style` (replaying the betting)."""
    state = BettingState.start(hand.betting.game)
    voluntary = raised_preflop = False
    for round_actions in hand.betting.actions:
        for action in round_actions:
            player = state.current_player
            if player == position:
                owed = state.max_spent > state.spent[player]
                if owed:
                    style.faced += 1
                if action.kind == FOLD:
                    style.folds += 1
                elif action.kind == CALL and owed:
                    style.calls += 1
                    voluntary |= state.round == 0
                elif action.kind == RAISE:
                    style.aggressive += 1
                    if state.round == 0:
                        voluntary = raised_preflop = True
            state = state.apply(action)
    style.hands += 1
    style.vpip += voluntary
    style.pfr += raised_preflop


def duplicate_units(hands: list[list[LoggedHand]]) -> list[list[LoggedHand]] | None:
    """The hands grouped by deal if the logs are duplicate, else None: several logs of the same
    length whose hands of one number share the cards, or one log whose hands 2k and 2k + 1 do
    (cards compared as each seat's hole and the board, whatever the seats' names)."""
    def same_deal(a: LoggedHand, b: LoggedHand) -> bool:
        """The same holes (in either seat order) and boards that agree as far as both go (a
        hand that ended early shows fewer board cards)."""
        shown = min(len(a.board), len(b.board))
        return (sorted(a.hole_cards) == sorted(b.hole_cards)
                and a.board[:shown] == b.board[:shown])

    if len(hands) > 1 and len({len(log) for log in hands}) == 1:
        deals = [list(deal) for deal in zip(*hands)]
        if all(same_deal(deal[0], hand) for deal in deals for hand in deal[1:]):
            return deals
        return None
    if len(hands) == 1 and len(hands[0]) % 2 == 0 and hands[0]:
        log = hands[0]
        pairs = [log[i:i + 2] for i in range(0, len(log), 2)]
        if all(same_deal(a, b) for a, b in pairs):
            return pairs
    return None


STREETS = ("preflop", "flop", "turn", "river", "showdown")


def street_of_end(hand: LoggedHand) -> str:
    """Where the hand ended: the round of the fold, or "showdown" (all-ins included)."""
    return STREETS[hand.betting.round] if any(hand.betting.folded) else "showdown"


def action_counts(hand: LoggedHand, position: int, counts: list[list[int]]) -> None:
    """Add the player's folds, checks/calls and bets/raises of each round to counts[round]."""
    column = {FOLD: 0, CALL: 1, RAISE: 2}
    for round_, (actions, actors) in enumerate(zip(hand.betting.actions, hand.betting.actors)):
        for action, actor in zip(actions, actors):
            if actor == position:
                counts[round_][column[action.kind]] += 1


@dataclass(frozen=True)
class Spread:
    """The standard deviation of a result, in mbb per hand (of the per-unit chips divided by the
    hands in a unit), and the hands a 95% interval of +-100 mbb/hand needs at that spread."""

    sd_mbb: float
    hands_for_100: int

    def as_dict(self) -> dict:
        return {"sd_mbb_per_hand": self.sd_mbb, "hands_for_ci100": self.hands_for_100}


def spread(unit_chips: list[float], hands_per_unit: float, big_blind: int) -> Spread:
    n = len(unit_chips)
    mean = sum(unit_chips) / n if n else 0.0
    variance = sum((x - mean) ** 2 for x in unit_chips) / (n - 1) if n > 1 else 0.0
    sd = math.sqrt(variance) * 1000.0 / big_blind / hands_per_unit
    return Spread(sd, math.ceil((1.96 * sd / 100.0) ** 2 * hands_per_unit))


@dataclass(frozen=True)
class Aivat:
    """AIVAT's result for a player whose strategy is known (`training.aivat_holdem`), beside
    the spreads of the plain and all-in adjusted results over the same units."""

    profile: str
    result: Estimate
    spreads: dict[str, Spread]  # "plain", "allin_adjusted", "aivat"

    def as_dict(self) -> dict:
        return {"profile": self.profile, "result": self.result.as_dict(),
                "spread": {name: value.as_dict() for name, value in self.spreads.items()}}


@dataclass
class PlayerReport:
    name: str
    hands: int = 0
    chips: float = 0.0
    result: Estimate | None = None
    adjusted: Estimate | None = None
    luck: Estimate | None = None
    by_position: dict[str, Estimate] = field(default_factory=dict)
    showdown_mbb: float = 0.0
    no_showdown_mbb: float = 0.0
    style: Style = field(default_factory=Style)
    series: list[tuple[float, float]] = field(default_factory=list)  # (raw, adjusted) per hand
    by_street: dict[str, float] = field(default_factory=dict)       # mbb/hand, summing to result
    actions: list[list[int]] = field(default_factory=list)          # [fold, call, raise] a round
    aivat: Aivat | None = None                                       # where its strategy is known

    def as_dict(self) -> dict:
        return {"name": self.name, "hands": self.hands, "chips": self.chips,
                "result": self.result.as_dict(), "allin_adjusted": self.adjusted.as_dict(),
                "allin_luck": self.luck.as_dict(),
                "by_position": {label: value.as_dict()
                                for label, value in self.by_position.items()},
                "showdown_mbb_per_hand": self.showdown_mbb,
                "no_showdown_mbb_per_hand": self.no_showdown_mbb,
                "by_street_of_end": self.by_street,
                "actions": {name: dict(zip(("fold", "call", "raise"), counts))
                            for name, counts in zip(STREETS, self.actions)},
                "style": self.style.as_dict(),
                **({"aivat": self.aivat.as_dict()} if self.aivat is not None else {})}


def position_label(game, position: int) -> str:
    blind = game.blinds[position]
    if blind == max(game.blinds):
        return "big blind"
    return "small blind" if blind else f"position {position}"


def build_report(logs: list[list[LoggedHand]], aivat: dict[str, tuple[str, dict]] | None = None
                 ) -> tuple[list[PlayerReport], bool]:
    """Each player's report (in order of first appearance), and whether the hands were scored
    as duplicate deals. `aivat` maps a player's name to (its profile, {id(hand): AIVAT's
    estimate of its chips}) for the players whose strategy is known."""
    from gambler.training.luck import adjusted_values

    all_hands = [hand for log in logs for hand in log]
    if not all_hands:
        return [], False
    game = all_hands[0].betting.game
    if game.num_players != 2:
        raise LogError(f"{all_hands[0].where}: gambler-report reads heads-up logs, this one has "
                       f"{game.num_players} players")
    rules = replace(game, source="")  # the same rules, wherever each log's game was read from
    other = next((hand for hand in all_hands
                  if hand.betting.game is not game
                  and replace(hand.betting.game, source="") != rules), None)
    if other is not None:
        raise LogError(f"{other.where}: a hand of another game than {all_hands[0].where}'s: "
                       "report logs of one game at a time")
    big_blind = max(game.blinds)
    units = duplicate_units(logs)
    duplicate = units is not None
    if units is None:
        units = [[hand] for hand in all_hands]
    names: list[str] = []
    for hand in all_hands:
        for name in hand.names:
            if name not in names:
                names.append(name)
    reports = []
    adjusted_of = {id(hand): adjusted_values(hand) for hand in all_hands}
    for name in names:
        report = PlayerReport(name)
        raw_units, adjusted_units, aivat_units = [], [], []
        profile, estimates = (aivat or {}).get(name, (None, None))
        by_position: dict[int, list[float]] = defaultdict(list)
        showdown = no_showdown = 0.0
        street_chips = dict.fromkeys(STREETS, 0.0)
        report.actions = [[0, 0, 0] for _ in range(game.num_rounds)]
        for unit in units:
            mine = [hand for hand in unit if name in hand.names]
            if not mine:
                continue
            raw_units.append(sum(hand.value_of(name) for hand in mine))
            adjusted_units.append(sum(adjusted_of[id(hand)][hand.names.index(name)]
                                      for hand in mine))
            if estimates is not None:
                aivat_units.append(sum(estimates[id(hand)] for hand in mine))
            for hand in mine:
                position = hand.names.index(name)
                value = hand.values[position]
                by_position[position].append(value)
                if any(hand.betting.folded):
                    no_showdown += value
                else:
                    showdown += value
                street_chips[street_of_end(hand)] += value
                report.series.append((value, adjusted_of[id(hand)][position]))
                action_counts(hand, position, report.actions)
                style_of(hand, position, report.style)
        hands_per_unit = report.style.hands / len(raw_units)
        report.hands = report.style.hands
        report.chips = sum(raw_units)
        report.result = estimate(raw_units, hands_per_unit, big_blind)
        report.adjusted = estimate(adjusted_units, hands_per_unit, big_blind)
        report.luck = estimate([r - a for r, a in zip(raw_units, adjusted_units)],
                               hands_per_unit, big_blind)
        if estimates is not None:
            report.aivat = Aivat(profile, estimate(aivat_units, hands_per_unit, big_blind), {
                label: spread(units_, hands_per_unit, big_blind)
                for label, units_ in (("plain", raw_units), ("allin_adjusted", adjusted_units),
                                      ("aivat", aivat_units))})
        report.by_position = {position_label(game, position): estimate(values, 1, big_blind)
                              for position, values in sorted(by_position.items())}
        scale = 1000.0 / big_blind / report.hands
        report.showdown_mbb = showdown * scale
        report.no_showdown_mbb = no_showdown * scale
        report.by_street = {street: chips * scale for street, chips in street_chips.items()}
        reports.append(report)
    return reports, duplicate


@dataclass(frozen=True)
class Adaptation:
    """A portfolio's choices over a match, from the bot's own log (`adapt` lines): per hand the
    member that played and the probabilities it was drawn with, members in the header's order."""

    portfolio: str
    members: tuple[str, ...]
    hands: tuple[int, ...]
    chosen: tuple[int, ...]
    probabilities: tuple[tuple[float, ...], ...]

    def shares(self) -> dict[str, float]:
        """The share of hands each member played."""
        count = len(self.chosen) or 1
        return {name: sum(1 for k in self.chosen if k == index) / count
                for index, name in enumerate(self.members)}

    def as_dict(self) -> dict:
        return {"portfolio": self.portfolio, "members": list(self.members),
                "hands": list(self.hands), "chosen": list(self.chosen),
                "probabilities": [list(row) for row in self.probabilities],
                "shares": self.shares()}


def read_adaptation(lines, source: str = "<log>") -> Adaptation | None:
    """The `adapt` lines of a bot's log (`bot.player`), or None if it has none (not a
    portfolio's log). A line that does not read is a `LogError` naming the line."""
    portfolio, members = "", None
    hands, chosen, probabilities = [], [], []
    for number, line in enumerate(lines, start=1):
        if line.startswith("# portfolio ") and ": members " in line:
            head, _, names = line[len("# portfolio "):].partition(": members ")
            portfolio, members = head.strip(), tuple(names.split())
        elif line.startswith("adapt "):
            where = f"{source}:{number}"
            fields = line.split()
            if members is None:
                raise LogError(f"{where}: an adapt line before the portfolio's header")
            try:
                hand = int(fields[1])
                member = fields[2].removeprefix("member=")
                row = tuple(float(p) for p in fields[3].removeprefix("p=").split("/"))
            except (IndexError, ValueError):
                raise LogError(f"{where}: not an adapt line: {line.strip()[:60]!r}") from None
            if member not in members or len(row) != len(members):
                raise LogError(f"{where}: member {member!r} or {len(row)} probabilities do not "
                               f"match the header's members ({' '.join(members)})")
            hands.append(hand)
            chosen.append(members.index(member))
            probabilities.append(row)
    if members is None:
        return None
    return Adaptation(portfolio, members, tuple(hands), tuple(chosen), tuple(probabilities))
