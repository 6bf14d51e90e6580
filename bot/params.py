"""Parameter profiles: the numbers that make one bot, loaded from YAML and validated.

Per betting round (preflop, flop, turn, river), version 1 (the seed bot's 44 numbers):

    thresholds: [x, y, z]        win-rate thresholds on v, ascending: the four modes
    call:  [a0, a1, a2, a3]      p(v) = a0 + a1 v + a2 v^2 + a3 v^3, the call ceiling (chips)
    raise: [b0, b1, b2, b3]      q(v) = b0 + b1 v + b2 v^2 + b3 v^3, the raise target (chips)

Chip levels are hand totals, the unit of `r<N>`. A file with `version: 2` at the top may also
give, per round (each optional; the default is version 1's behaviour):

    levels: pot                  `chips` (default): U = p(v) and T = q(v) are hand totals.
                                 `pot`: p and q count pots: U = S + p(v) P and T = S + q(v) P,
                                 with S the largest total and P the pot when the round began
    price: 0.05                  `off` (default): facing a bet in modes 2 and 3, fold when the
                                 opponent's total exceeds U. A number m: fold when the equity
                                 (1 + v) / 2 is below the price to_call / (pot + to_call) plus m
    slow_play: 0.2               a probability (default 0): a hand in mode 3 or 4 that could bet
                                 first checks instead, and raises if bet into (a check-raise)
    bluff: 0.1                   a probability (default 0): a hand in mode 1 that could bet first
    bluff_size: 0.5              bets S + bluff_size P (in pots, whatever `levels` says)
    narrow: 0.3                  a fraction in (0, 1] (default 1: off): when the opponent has
                                 raised in this round, from the flop on the bot's v is range-aware:
                                 W - L against the opponent's holdings narrowed to the strongest
                                 `narrow` of them by this round's strength, exactly, with card
                                 removal (`evaluator.narrowing` has the model)

A file with `version: 3` may also give, per round:

    defend: [d0, d1]             the defence line (default: none). Facing a bet that the mode
                                 would fold (give up; wait and see or raise to some amount when
                                 the bet is too dear), the bot calls instead when
                                 v >= d0 + d1 price, price = to_call / (pot + to_call) with pot
                                 both totals now: cheap bets are called wider than dear ones,
                                 whatever U says, and an overbet meets a call from every hand
                                 above the line (d0 >= 2: never, as version 2)

A file with `version: 4` may also name, at the top level:

    chart: preflop               a preflop chart (`bot.chart`; a shipped chart's name, or a path,
                                 relative to the profile's folder or the working directory): the
                                 first round is played from the chart while the round's actions
                                 stay in its tree, and by the preflop rules above once they leave
                                 it. The chart's stack and blinds must be the game's.

A file with `version: 5` may also give, per round:

    range_defence: 1.0           a number a >= 0 (default: none). Facing a bet, a hand the
                                 rules above would not raise with calls when its percentile in
                                 the bot's own range is at least min(1, a to_call / pot), and
                                 folds below it (pot: both totals now, the bet included). The own
                                 range is every holding weighed by the chance that, holding it,
                                 the bot would have played the hand so far as it did (its rules,
                                 mixed play and chart; the board's cards removed): what an
                                 opponent who knows the profile can infer (`bot.own_range`). The
                                 percentile ranks the holdings by v this round (ties count half).
                                 With a = 1 this is the minimum defence frequency: a pure bluff
                                 of the bet's size breaks even. Not with `narrow` in any round.
    range_defence_cap: 0.95      a fraction c in [0, 1] (default 1; needs range_defence): the
                                 largest share of its range the bot folds to any bet, so the
                                 share is min(c, a to_call / pot). Against shoves that are never
                                 bluffs the minimum defence folds nearly everything; a cap below
                                 1 keeps calling with the top 1 - c of the range.
    range_defence_from: 1.5      a size r >= 0 in pots (default 0; needs range_defence): range
                                 defence answers only bets of at least r pots, to_call >=
                                 r (pot - to_call); smaller ones meet the rules above.
    range_defence_keep: 0.85     a win rate k in [-1, 1] (default: none; needs range_defence): a
                                 holding with v >= k never folds to range defence, it calls
                                 where the percentile would fold it. Within a range that bet
                                 big, the minimum defence against a shove folds the bottom of
                                 the bot's own strongest hands; k at the round's z keeps "bet
                                 to the end" from ever folding, as its mode says.
    range_bet: [0.3, 1.0]        [value, size] (default: none). When nothing is owed, bet to the
                                 largest total + size pot (pot: both totals) with the top `value`
                                 of the own range (percentile >= 1 - value) and bluff with its
                                 bottom value size / (1 + size) (the share of bluffs that leaves a
                                 caller of that bet indifferent: size / (1 + 2 size) of the bets);
                                 check the rest. This replaces the modes' checks, bets and
                                 mixed play when nothing is owed.
    range_bet_position: 1        0 or 1 (default: both; needs range_bet): range bets only in
                                 that position (0: the big blind, who acts first after the
                                 flop; 1: the small blind, who acts last), the modes deciding
                                 in the other one: a bot that bets its range when checked to
                                 and never bets first out of position.
    range_raise: [0.1, 1.0]      [value, size] (default: none; needs range_defence). Facing the
                                 round's first bet, where range defence answers it, raise to
                                 the largest total + size pot (pot: both totals after calling)
                                 with the top `value` of the own range and bluff-raise with the
                                 value size / (1 + size) of it just below the folding share
                                 (the best of the hands that would fold); the rest calls or
                                 folds as range defence says. No raise where none is legal
                                 (the value calls, the bluffs fold).
    end_reraise: 0.95            a win rate w in [-1, 1] (default: none). "Bet to the end",
                                 facing a raise of its own bet or raise this round, re-raises
                                 only when v >= w and calls below it, a call that range
                                 defence answers as any other (with its keep at the round's z,
                                 never a fold). Its re-raise then no longer tells an opponent
                                 that raised it back to go on with every hand strong against a
                                 random holding, which is not strong against a range that
                                 raised twice.

Slow play and bluffs are drawn once per round from a seeded stream (`mixing_uniform`: the seed,
the hand number, the round and the position), so a match replays exactly.

Optional metadata at the top level: `name`, `description`, `provenance` (text) and `training`
(a mapping, free-form: seed, config, scores). Anything else, a missing round, a wrong count, a
non-number or descending thresholds is an error naming the file and the field
(`seed.yaml: flop.thresholds: ...`).

The fast engine packs a profile into its own vector (`training.engine.profile_vector`, the layout
named beside `STRIDE` there); training moves the numbers `tunable` lists (a version 1 profile's
44, plus each round's price margin if on).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import yaml

from gambler.errors import GamblerError, find_file, read_text, shipped_names

ROUNDS = ("preflop", "flop", "turn", "river")
SHIPPED_PROFILES = Path(__file__).resolve().parent.parent / "configs" / "params"
_ROUND_KEYS = ("thresholds", "call", "raise")
_V2_ROUND_KEYS = ("levels", "price", "slow_play", "bluff", "bluff_size", "narrow")
_V3_ROUND_KEYS = ("defend",)
_V5_ROUND_KEYS = ("range_defence", "range_defence_cap", "range_defence_from",
                  "range_defence_keep", "range_bet", "range_bet_position", "range_raise",
                  "end_reraise")
_MIXING_KEYS = ("slow_play", "bluff", "bluff_size")
LEVELS = ("chips", "pot")
_METADATA_TEXT = ("name", "description", "provenance")
_METADATA_MAP = ("training",)
VERSIONS = (1, 2, 3, 4, 5)
#: Numbers per round in the engine's vector: x y z, a0..a3, b0..b3, levels (0 chips, 1 pot),
#: price on (0/1), price margin, slow play, bluff, bluff size, narrow (1: off), the defence
#: line's d0 and d1 (d0 = `NO_DEFENCE`: none).
STRIDE = 20
#: The defence line's d0 when a round has none: v, in [-1, 1], never reaches it.
NO_DEFENCE = 2.0


class ProfileError(GamblerError, ValueError):
    """A parameter profile that cannot be used: the message names the file and field."""


def cubic(coefficients, v: float) -> float:
    """c0 + c1 v + c2 v^2 + c3 v^3, in the engine's order of operations."""
    c0, c1, c2, c3 = coefficients
    return c0 + c1 * v + c2 * v * v + c3 * v * v * v


@dataclass(frozen=True)
class RoundParams:
    """The parameters of one betting round."""

    thresholds: tuple[float, float, float]       # x <= y <= z: give up | wait | raise | bet
    call: tuple[float, float, float, float]      # coefficients of p(v), the call ceiling
    raise_: tuple[float, float, float, float]    # coefficients of q(v), the raise target
    levels: str = "chips"                        # "chips": U, T hand totals; "pot": in pots
    price_margin: float | None = None            # None: fold above U; m: fold below price + m
    slow_play: float = 0.0                       # P(a mode 3 or 4 hand checks first)
    bluff: float = 0.0                           # P(a mode 1 hand bets first)
    bluff_size: float = 0.5                      # the bluff, in pots
    mixing: bool = False                         # the file gives the three above: train them
    narrow: float = 1.0                          # the range kept when the opponent raises
    defend: tuple[float, float] | None = None    # (d0, d1): call a fold when v >= d0 + d1 price
    range_defence: float | None = None           # a: facing a bet, defend the top of the range
    range_bet: tuple[float, float] | None = None  # (value, size): bet the top and bottom of it
    range_bet_position: int | None = None        # 0 or 1: range bets in that position only
    range_defence_cap: float | None = None       # c: the largest share folded to any bet (None: 1)
    range_defence_from: float | None = None      # r: range defence answers bets from r pots
    range_defence_keep: float | None = None      # k: a holding with v >= k never folds to it
    range_raise: tuple[float, float] | None = None  # (value, size): raise the first bet, by range
    end_reraise: float | None = None             # w: bet to the end re-raises a re-raise from v = w

    def mixing_probability(self, v: float) -> float:
        """The chance that this round's plan for v is the mixed one (slow play or bluff)."""
        mode = _mode(self.thresholds, v)
        return self.slow_play if mode >= 2 else self.bluff if mode == 0 else 0.0

    def defends(self, v: float, to_call: int, pot: int) -> bool:
        """Whether a bet the mode would fold is called on the defence line (`defence_line`;
        never without a line)."""
        line = defence_line(self.defend, to_call, pot)
        return line is not None and v >= line

    def bluff_target(self, start: int, pot: int) -> int:
        return int(start + self.bluff_size * pot)

    def call_limit(self, v: float, start: int = 0, pot: int = 0) -> int:
        """U, truncated toward zero like the seed bot's (int) cast: p(v) chips, or
        start + p(v) pot with pot levels (start and pot: the largest total and the pot when the
        round began)."""
        return self._level(self.call, v, start, pot)

    def raise_target(self, v: float, start: int = 0, pot: int = 0) -> int:
        """T, as `call_limit` with q(v)."""
        return self._level(self.raise_, v, start, pot)

    def _level(self, coefficients, v: float, start: int, pot: int) -> int:
        if self.levels == "pot":
            return int(start + cubic(coefficients, v) * pot)
        return int(cubic(coefficients, v))  # int() truncates toward zero, as C's (int) does

    def as_vector(self) -> tuple[float, ...]:
        return (*self.thresholds, *self.call, *self.raise_)


def defence_line(defend: tuple[float, float] | None, to_call: int, pot: int) -> float | None:
    """The least v that calls a bet the mode would fold: d0 + d1 price, price = to_call /
    (pot + to_call), pot being both totals now (None without a line)."""
    if defend is None:
        return None
    d0, d1 = defend
    return d0 + d1 * (to_call / (pot + to_call))


def range_defence_share(a: float | None, to_call: int, pot: int,
                        cap: float | None = None) -> float | None:
    """The share of its own range the bot folds facing a bet (`range_defence`): min(c, a to_call
    / pot), pot being both totals now, the bet included, c the cap (`range_defence_cap`, None: 1)
    (None without range defence). With a = 1 and a bet of b into a pot P, b / (P + b): the
    minimum defence frequency's complement."""
    if a is None:
        return None
    return min(1.0 if cap is None else cap, a * to_call / pot)


def range_defence_answers(from_pots: float | None, to_call: int, pot: int) -> bool:
    """Whether range defence answers a bet (`range_defence_from`): one of at least r pots,
    to_call >= r (pot - to_call), pot being both totals now, the bet included (None: every
    bet)."""
    return from_pots is None or to_call >= from_pots * (pot - to_call)


def end_reraises(end_reraise: float | None, v: float) -> bool:
    """Whether "bet to the end", raised back after its own bet or raise this round, raises again
    (`end_reraise` w): v >= w, and always without a w."""
    return end_reraise is None or v >= end_reraise


def range_defence_keeps(keep: float | None, v: float) -> bool:
    """Whether range defence keeps a holding of win rate v from folding (`range_defence_keep`):
    v >= k (never without a k)."""
    return keep is not None and v >= keep


def range_bets_at(range_bet, range_bet_position: int | None, position: int) -> bool:
    """Whether range bets decide, with nothing owed, for the player in `position`: the round
    has them (`range_bet` not None) and they are not kept for the other position
    (`range_bet_position`)."""
    return range_bet is not None and range_bet_position in (None, position)


def range_bet_bluffs(value: float, size: float) -> float:
    """The share of its own range the bot bluffs with (`range_bet`): value size / (1 + size),
    so that bluffs are size / (1 + 2 size) of its bets, what a bet of size pots offers a
    caller (its price)."""
    return value * size / (1.0 + size)


def _mode(thresholds, v: float) -> int:
    """0 give up, 1 wait and see, 2 raise to some amount, 3 bet to the end."""
    x, y, z = thresholds
    return 0 if v < x else 1 if v < y else 2 if v < z else 3


@dataclass(frozen=True)
class Profile:
    """A whole bot: `rounds[r]` for r = 0 (preflop) .. 3 (river), and metadata."""

    rounds: tuple[RoundParams, RoundParams, RoundParams, RoundParams]
    name: str = ""
    description: str = ""
    provenance: str = ""
    training: dict = field(default_factory=dict, compare=False, hash=False)
    version: int = 1
    chart: str = ""        # version 4: the preflop chart, as the file names it ("": none)
    chart_path: str = field(default="", compare=False)  # where it was found (absolute)

    @cached_property
    def preflop_chart(self):
        """The `bot.chart.Chart` this profile plays preflop, or None (parsed once a process by
        `load_chart`, and kept here: the bot asks at every preflop decision)."""
        if not self.chart_path:
            return None
        from gambler.bot.chart import load_chart
        return load_chart(self.chart_path)

    def _chart_name(self, folder: Path | None) -> str:
        from gambler.bot.chart import SHIPPED_CHARTS

        path = Path(self.chart_path)
        if path.parent == SHIPPED_CHARTS.resolve():
            return path.stem
        return os.path.relpath(path, folder) if folder is not None else str(path)

    def as_vector(self) -> tuple[float, ...]:
        """The 44 numbers of version 1 in file order: per round x y z, a0..a3, b0..b3."""
        return tuple(value for round_params in self.rounds for value in round_params.as_vector())

    @cached_property
    def keep(self) -> tuple[float, ...]:
        """Per round, the fraction of the opponent's holdings kept when it raises (`narrow`).
        Cached: the profile is frozen, and the bot and LBR's reference ask at every decision."""
        return tuple(round_params.narrow for round_params in self.rounds)

    @cached_property
    def range_aware(self) -> bool:
        """Whether some round narrows the opponent's range (v is then range-aware)."""
        return any(fraction < 1.0 for fraction in self.keep)

    @cached_property
    def uses_own_range(self) -> bool:
        """Whether some round decides by the percentile in the bot's own range (range defence or
        range bets)."""
        return any(round_params.range_defence is not None or round_params.range_bet is not None
                   for round_params in self.rounds)

    @classmethod
    def from_vector(cls, values, **metadata) -> Profile:
        """A version 1 profile from its 44 numbers."""
        values = [float(value) for value in values]
        if len(values) != 44:
            raise ProfileError(f"a profile has 44 numbers, not {len(values)}")
        rounds = tuple(RoundParams(tuple(values[11 * r:11 * r + 3]),
                                   tuple(values[11 * r + 3:11 * r + 7]),
                                   tuple(values[11 * r + 7:11 * r + 11])) for r in range(4))
        profile = cls(rounds, **metadata)
        for r, round_params in enumerate(profile.rounds):
            _check_thresholds(round_params.thresholds, f"{ROUNDS[r]}.thresholds", "<vector>")
        return profile

    # --- what training moves ------------------------------------------------------------------

    def tunable(self) -> list[tuple[str, float, str]]:
        """(label, value, kind) of every number training may move, in file order: per round
        x y z (kind "threshold"), p's coefficients unless the round calls on price (then U is
        never used), q's coefficients (kinds c0..c3 for chip levels, p0..p3 for pot levels) and
        the price margin if on (kind "margin"), the mixed-play numbers if given (kinds
        "probability", "size"), the defence line if given (d0 kind "threshold", d1 kind
        "slope"), range defence if given (kind "defence"), its cap if given (kind
        "probability"), its least size if given (kind "size") and its keep if given (kind
        "threshold"), range bets and range raises if given (value kind "probability", size kind
        "size") and the re-raise of "bet to the end" if given (kind "threshold")."""
        entries = []
        for name, round_params in zip(ROUNDS, self.rounds):
            prefix = "p" if round_params.levels == "pot" else "c"
            for index, value in enumerate(round_params.thresholds):
                entries.append((f"{name}.thresholds[{index}]", value, "threshold"))
            on_price = round_params.price_margin is not None
            for key, values in (("call", round_params.call), ("raise", round_params.raise_)):
                if key == "call" and on_price:
                    continue
                for index, value in enumerate(values):
                    entries.append((f"{name}.{key}[{index}]", value, f"{prefix}{index}"))
            if on_price:
                entries.append((f"{name}.price", round_params.price_margin, "margin"))
            if round_params.mixing:
                entries.append((f"{name}.slow_play", round_params.slow_play, "probability"))
                entries.append((f"{name}.bluff", round_params.bluff, "probability"))
                entries.append((f"{name}.bluff_size", round_params.bluff_size, "size"))
            if round_params.defend is not None:
                entries.append((f"{name}.defend[0]", round_params.defend[0], "threshold"))
                entries.append((f"{name}.defend[1]", round_params.defend[1], "slope"))
            if round_params.range_defence is not None:
                entries.append((f"{name}.range_defence", round_params.range_defence, "defence"))
            if round_params.range_defence_cap is not None:
                entries.append((f"{name}.range_defence_cap", round_params.range_defence_cap,
                                "probability"))
            if round_params.range_defence_from is not None:
                entries.append((f"{name}.range_defence_from", round_params.range_defence_from,
                                "size"))
            if round_params.range_defence_keep is not None:
                entries.append((f"{name}.range_defence_keep", round_params.range_defence_keep,
                                "threshold"))
            if round_params.range_bet is not None:
                entries.append((f"{name}.range_bet[0]", round_params.range_bet[0], "probability"))
                entries.append((f"{name}.range_bet[1]", round_params.range_bet[1], "size"))
            if round_params.range_raise is not None:
                entries.append((f"{name}.range_raise[0]", round_params.range_raise[0],
                                "probability"))
                entries.append((f"{name}.range_raise[1]", round_params.range_raise[1], "size"))
            if round_params.end_reraise is not None:
                entries.append((f"{name}.end_reraise", round_params.end_reraise, "threshold"))
        return entries

    def with_tunable(self, values) -> Profile:
        """This profile with the numbers of `tunable` replaced by `values` (same order)."""
        values = [float(value) for value in values]
        expected = len(self.tunable())
        if len(values) != expected:
            raise ProfileError(f"this profile has {expected} tunable numbers, not {len(values)}")
        rounds = []
        position = 0
        for r, round_params in enumerate(self.rounds):
            thresholds = tuple(values[position:position + 3])
            position += 3
            margin = round_params.price_margin
            call = round_params.call
            if margin is None:
                call = tuple(values[position:position + 4])
                position += 4
            raise_ = tuple(values[position:position + 4])
            position += 4
            if margin is not None:
                margin = values[position]
                position += 1
            mixing = {}
            if round_params.mixing:
                mixing = dict(zip(_MIXING_KEYS, values[position:position + 3]))
                position += 3
            defend = round_params.defend
            if defend is not None:
                defend = tuple(values[position:position + 2])
                position += 2
            range_defence = round_params.range_defence
            if range_defence is not None:
                range_defence = values[position]
                position += 1
            range_defence_cap = round_params.range_defence_cap
            if range_defence_cap is not None:
                range_defence_cap = values[position]
                position += 1
            range_defence_from = round_params.range_defence_from
            if range_defence_from is not None:
                range_defence_from = values[position]
                position += 1
            range_defence_keep = round_params.range_defence_keep
            if range_defence_keep is not None:
                range_defence_keep = values[position]
                position += 1
            range_bet = round_params.range_bet
            if range_bet is not None:
                range_bet = tuple(values[position:position + 2])
                position += 2
            range_raise = round_params.range_raise
            if range_raise is not None:
                range_raise = tuple(values[position:position + 2])
                position += 2
            end_reraise = round_params.end_reraise
            if end_reraise is not None:
                end_reraise = values[position]
                position += 1
            _check_thresholds(thresholds, f"{ROUNDS[r]}.thresholds", "<vector>")
            rounds.append(replace(round_params, thresholds=thresholds, call=call, raise_=raise_,
                                  price_margin=margin, defend=defend,
                                  range_defence=range_defence,
                                  range_defence_cap=range_defence_cap,
                                  range_defence_from=range_defence_from,
                                  range_defence_keep=range_defence_keep, range_bet=range_bet,
                                  range_raise=range_raise, end_reraise=end_reraise,
                                  **mixing))
        return replace(self, rounds=tuple(rounds))

    def to_yaml(self, folder: Path | None = None) -> str:
        """The profile as its YAML file; a chart that is not a shipped one is named by its path
        relative to `folder` (where the file will be), or by its absolute path."""
        document: dict = {}
        if self.version != 1:
            document["version"] = self.version
        for key in _METADATA_TEXT:
            if getattr(self, key):
                document[key] = getattr(self, key)
        if self.chart:
            document["chart"] = self._chart_name(folder)
        if self.training:
            document["training"] = self.training
        for name, round_params in zip(ROUNDS, self.rounds):
            section = {"thresholds": list(round_params.thresholds),
                       "call": list(round_params.call),
                       "raise": list(round_params.raise_)}
            if self.version >= 2:
                section["levels"] = round_params.levels
                section["price"] = ("off" if round_params.price_margin is None
                                    else round_params.price_margin)
                if round_params.mixing:
                    for key in _MIXING_KEYS:
                        section[key] = getattr(round_params, key)
                if round_params.narrow < 1.0:
                    section["narrow"] = round_params.narrow
            if self.version >= 3 and round_params.defend is not None:
                section["defend"] = list(round_params.defend)
            if self.version >= 5 and round_params.range_defence is not None:
                section["range_defence"] = round_params.range_defence
            if self.version >= 5 and round_params.range_defence_cap is not None:
                section["range_defence_cap"] = round_params.range_defence_cap
            if self.version >= 5 and round_params.range_defence_from is not None:
                section["range_defence_from"] = round_params.range_defence_from
            if self.version >= 5 and round_params.range_defence_keep is not None:
                section["range_defence_keep"] = round_params.range_defence_keep
            if self.version >= 5 and round_params.range_bet is not None:
                section["range_bet"] = list(round_params.range_bet)
            if self.version >= 5 and round_params.range_bet_position is not None:
                section["range_bet_position"] = round_params.range_bet_position
            if self.version >= 5 and round_params.range_raise is not None:
                section["range_raise"] = list(round_params.range_raise)
            if self.version >= 5 and round_params.end_reraise is not None:
                section["end_reraise"] = round_params.end_reraise
            document[name] = section
        return yaml.safe_dump(document, sort_keys=False, default_flow_style=None, width=100)


class _StrictLoader(yaml.SafeLoader):
    """YAML without silently repeated keys."""


def _construct_mapping(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} appears twice", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_FastStrictLoader = _StrictLoader
if getattr(yaml, "__with_libyaml__", False):
    class _FastStrictLoader(yaml.CSafeLoader):  # noqa: F811
        """YAML without silently repeated keys, parsed by libyaml (a syntax error's line can be
        the next one, where libyaml notices it)."""

    _FastStrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                      _construct_mapping)


def _numbers(value, count: int, field_name: str, source: str) -> tuple[float, ...]:
    if not isinstance(value, list):
        raise ProfileError(f"{source}: {field_name}: expected a list of {count} numbers, "
                           f"found {type(value).__name__}")
    if len(value) != count:
        raise ProfileError(f"{source}: {field_name}: expected {count} numbers, found {len(value)}")
    numbers = []
    for index, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            raise ProfileError(f"{source}: {field_name}[{index}]: {item!r} is not a number")
        if not math.isfinite(item):
            raise ProfileError(f"{source}: {field_name}[{index}]: {item!r} is not finite")
        numbers.append(float(item))
    return tuple(numbers)


def _check_thresholds(thresholds, field_name: str, source: str) -> None:
    x, y, z = thresholds
    if not x <= y <= z:
        raise ProfileError(f"{source}: {field_name}: {list(thresholds)} must be ascending "
                           "(x <= y <= z)")


def strict_yaml(text: str, source: str, error: type[Exception], fast: bool = False):
    """The YAML document in `text` (no key may repeat), or `error` naming `source` and the line:
    "mine.yaml:3: not valid YAML: ...". `fast`: parsed by libyaml when installed (large files:
    a chart's 600 KB in a third of the time)."""
    try:
        return yaml.load(text, Loader=_FastStrictLoader if fast else _StrictLoader)
    except yaml.YAMLError as problem_error:
        mark = getattr(problem_error, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(problem_error, "problem", None) or str(problem_error)
        raise error(f"{source}{where}: not valid YAML: {problem}") from None


def parse_profile(text: str, source: str = "<profile>", folder: Path | None = None) -> Profile:
    """A profile from YAML text; `source` names it in error messages; a chart's relative path is
    looked for in `folder` (the profile's) first."""
    document = strict_yaml(text, source, ProfileError)
    if not isinstance(document, dict):
        raise ProfileError(f"{source}: expected a mapping with keys {', '.join(ROUNDS)}")
    version = document.get("version", 1)
    if isinstance(version, bool) or version not in VERSIONS:
        raise ProfileError(f"{source}: version: {version!r} is not a profile version "
                           f"({', '.join(map(str, VERSIONS))})")
    optional = _METADATA_TEXT + _METADATA_MAP + ("version",) + (("chart",) if version >= 4 else ())
    unknown = [key for key in document if key not in ROUNDS and key not in optional]
    if unknown:
        hint = " (chart needs version: 4)" if unknown[0] == "chart" else ""
        raise ProfileError(f"{source}: unknown key {unknown[0]!r} (expected {', '.join(ROUNDS)} "
                           f"and optional {', '.join(optional)}){hint}")
    round_keys = _ROUND_KEYS + (_V2_ROUND_KEYS if version >= 2 else ()) \
        + (_V3_ROUND_KEYS if version >= 3 else ()) + (_V5_ROUND_KEYS if version >= 5 else ())
    rounds = []
    for name in ROUNDS:
        if name not in document:
            raise ProfileError(f"{source}: round {name!r} is missing")
        section = document[name]
        if not isinstance(section, dict):
            raise ProfileError(f"{source}: {name}: expected a mapping with keys "
                               f"{', '.join(_ROUND_KEYS)}")
        for key in section:
            if key not in round_keys:
                hint = (" (levels and price need version: 2)" if key in _V2_ROUND_KEYS
                        else " (defend needs version: 3)" if key in _V3_ROUND_KEYS
                        else f" ({key} needs version: 5)" if key in _V5_ROUND_KEYS
                        else "")
                raise ProfileError(f"{source}: {name}: unknown key {key!r} "
                                   f"(expected {', '.join(round_keys)}){hint}")
        for key in _ROUND_KEYS:
            if key not in section:
                raise ProfileError(f"{source}: {name}.{key} is missing")
        thresholds = _numbers(section["thresholds"], 3, f"{name}.thresholds", source)
        _check_thresholds(thresholds, f"{name}.thresholds", source)
        mixing = {key: _fraction(section[key], f"{name}.{key}", source,
                                 10.0 if key == "bluff_size" else 1.0)
                  for key in _MIXING_KEYS if key in section}
        rounds.append(RoundParams(thresholds,
                                  _numbers(section["call"], 4, f"{name}.call", source),
                                  _numbers(section["raise"], 4, f"{name}.raise", source),
                                  _levels(section.get("levels", "chips"), name, source),
                                  _price(section.get("price", "off"), name, source),
                                  **mixing, mixing=bool(mixing),
                                  narrow=_narrow(section.get("narrow", 1.0), name, source),
                                  defend=(_numbers(section["defend"], 2, f"{name}.defend", source)
                                          if "defend" in section else None),
                                  range_defence=(_fraction(section["range_defence"],
                                                           f"{name}.range_defence", source, 10.0)
                                                 if "range_defence" in section else None),
                                  range_defence_cap=_beside_defence(section, "range_defence_cap",
                                                                    name, source, 1.0),
                                  range_defence_from=_beside_defence(
                                      section, "range_defence_from", name, source, 10.0),
                                  range_defence_keep=_beside_defence(
                                      section, "range_defence_keep", name, source, 1.0, -1.0),
                                  range_bet=(_range_bet(section["range_bet"], name, source)
                                             if "range_bet" in section else None),
                                  range_bet_position=_range_bet_position(section, name, source),
                                  range_raise=_range_raise(section, name, source),
                                  end_reraise=(_number_in(section["end_reraise"],
                                                          f"{name}.end_reraise", source, -1.0, 1.0)
                                               if "end_reraise" in section else None)))
    metadata = {}
    for key in _METADATA_TEXT:
        if key in document:
            if not isinstance(document[key], str):
                raise ProfileError(f"{source}: {key}: expected text")
            metadata[key] = document[key]
    if "training" in document:
        if not isinstance(document["training"], dict):
            raise ProfileError(f"{source}: training: expected a mapping")
        metadata["training"] = document["training"]
    if "chart" in document:
        metadata["chart"], metadata["chart_path"] = _chart(document["chart"], source, folder)
    defended = [name for name, round_params in zip(ROUNDS, rounds)
                if round_params.range_defence is not None or round_params.range_bet is not None]
    narrowed = [name for name, round_params in zip(ROUNDS, rounds) if round_params.narrow < 1.0]
    if defended and narrowed:
        raise ProfileError(f"{source}: {defended[0]}.range_defence and range_bet cannot be "
                           f"combined with {narrowed[0]}.narrow (a range-aware v)")
    return Profile(tuple(rounds), version=version, **metadata)


def _chart(value, source: str, folder: Path | None) -> tuple[str, str]:
    """(the chart as named, the path it was found at), once the chart has loaded."""
    from gambler.bot.chart import ChartError, find_chart_file, load_chart

    if not isinstance(value, str) or not value:
        raise ProfileError(f"{source}: chart: expected a chart's name or path")
    near = folder / value if folder is not None else None
    try:
        path = near if near is not None and near.is_file() else find_chart_file(value)
        load_chart(path)
    except ChartError as error:
        raise ProfileError(f"{source}: chart: {error}") from None
    return value, str(Path(path).resolve())


def _range_bet(value, name: str, source: str, key: str = "range_bet") -> tuple[float, float]:
    """[value, size]: a share of the range in [0, 1] and a bet in [0, 10] pots."""
    numbers = _numbers(value, 2, f"{name}.{key}", source)
    _fraction(numbers[0], f"{name}.{key}[0]", source, 1.0)
    _fraction(numbers[1], f"{name}.{key}[1]", source, 10.0)
    return numbers


def _range_bet_position(section: dict, name: str, source: str) -> int | None:
    """A round's `range_bet_position`: 0 or 1, only beside `range_bet`."""
    if "range_bet_position" not in section:
        return None
    if "range_bet" not in section:
        raise ProfileError(f"{source}: {name}.range_bet_position needs {name}.range_bet")
    value = section["range_bet_position"]
    if isinstance(value, bool) or value not in (0, 1):
        raise ProfileError(f"{source}: {name}.range_bet_position: expected 0 (the big blind) "
                           f"or 1 (the small blind), got {value!r}")
    return int(value)


def _range_raise(section: dict, name: str, source: str) -> tuple[float, float] | None:
    """A round's `range_raise` [value, size] (as `range_bet`'s), only beside `range_defence`."""
    if "range_raise" not in section:
        return None
    if "range_defence" not in section:
        raise ProfileError(f"{source}: {name}.range_raise needs {name}.range_defence")
    return _range_bet(section["range_raise"], name, source, "range_raise")


def _levels(value, name: str, source: str) -> str:
    if value not in LEVELS:
        raise ProfileError(f"{source}: {name}.levels: {value!r} is not one of "
                           f"{', '.join(LEVELS)}")
    return value


def _fraction(value, field_name: str, source: str, most: float) -> float:
    """A number in [0, most]: a probability (most 1) or a size in pots."""
    return _number_in(value, field_name, source, 0.0, most)


def _number_in(value, field_name: str, source: str, least: float, most: float) -> float:
    """A finite number in [least, most]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or not least <= value <= most:
        raise ProfileError(f"{source}: {field_name}: {value!r} must be a number in "
                           f"[{least:g}, {most:g}]")
    return float(value)


def _beside_defence(section: dict, key: str, name: str, source: str,
                    most: float, least: float = 0.0) -> float | None:
    """A round's `range_defence_cap` (a fraction, `most` 1), `range_defence_from` (pots, `most`
    10) or `range_defence_keep` (a win rate, `least` -1, `most` 1): a number in [least, most],
    only beside `range_defence`."""
    if key not in section:
        return None
    if "range_defence" not in section:
        raise ProfileError(f"{source}: {name}.{key} needs {name}.range_defence")
    return _number_in(section[key], f"{name}.{key}", source, least, most)


def _narrow(value, name: str, source: str) -> float:
    """The fraction of the opponent's holdings kept when it raises: a number in (0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or not 0.0 < value <= 1.0:
        raise ProfileError(f"{source}: {name}.narrow: {value!r} must be a fraction in (0, 1] "
                           "(1: the opponent's range is not narrowed)")
    return float(value)


def _price(value, name: str, source: str) -> float | None:
    """`off` (or false) is None; a number is the margin, within [-1, 1]."""
    if value == "off" or value is False:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or not -1.0 <= value <= 1.0:
        raise ProfileError(f"{source}: {name}.price: {value!r} must be off or a margin in "
                           "[-1, 1]")
    return float(value)


def shipped_profile_names() -> list[str]:
    return shipped_names(SHIPPED_PROFILES)


def find_profile_file(name: str | Path) -> Path:
    """A profile by path, or by the name of a shipped one (`seed`, `handmade`, `default`)."""
    return find_file(name, SHIPPED_PROFILES, ProfileError, "profile")


def file_kind(name: str | Path) -> str | None:
    """The `kind` a strategy file says (`exploiter`, `portfolio`, `switch`), read once, or None:
    no such file (a path, or a shipped profile's name), not a YAML mapping, or no `kind` (a
    profile)."""
    try:
        document = yaml.safe_load(find_profile_file(name).read_text())
    except (ProfileError, OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    return document.get("kind") if isinstance(document, dict) else None


def kind_document(text: str, source: str, kind: str, keys: tuple[str, ...]) -> dict:
    """The mapping of a file that must say `kind: KIND` and hold only `keys`; `ProfileError`
    naming the file otherwise."""
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ProfileError(f"{source}: not YAML: {error}") from None
    if not isinstance(document, dict) or document.get("kind") != kind:
        raise ProfileError(f"{source}: not a {kind} (kind: {kind})")
    for key in document:
        if key not in keys:
            raise ProfileError(f"{source}: unknown key {key!r} (a {kind} has: "
                               f"{', '.join(keys)})")
    return document


def load_profile(name: str | Path = "default-v2") -> Profile:
    """Read a profile from a path or a shipped name."""
    path = find_profile_file(name)
    text = read_text(path, ProfileError)
    return parse_profile(text, source=str(name), folder=path.parent)


def save_profile(profile: Profile, path: str | Path) -> None:
    """Write a profile atomically (a temporary file renamed over the target)."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(profile.to_yaml(target.resolve().parent))
    temporary.replace(target)
