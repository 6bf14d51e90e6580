"""Where LBR wins after the flop: LBR's hands against a profile sorted into kinds of line (the
bot raised and was raised back, the bot folded, ...), and the bot's postflop folds by round and
by the size of the bet it folded to, with what LBR won in each.

Usage: python experiments/realisation/postflop.py PROFILE ACTIONS [--deals 10000] [--seed 21]

The deals are played as `gambler-lbr PROFILE --actions ACTIONS --seed SEED` plays them (both
seats, LBR's winnings as the cards fell), on all cores, keeping every hand's actions.
"""

import argparse
import collections
import re
import sys
from pathlib import Path

import numpy as np
from numba import prange

from gambler.bot.strategies import resolve_strategy
from gambler.evaluator.tables import load_tables
from gambler.jit import njit
from gambler.protocol.gamedef import load_game
from gambler.training.deals import HOLDINGS_CHUNK as CHUNK, cached_deal_set, cached_holding_rates
from gambler.training.engine import FOLDED, encode_rules, encode_strategy, payoff_of
from gambler.training.lbr import _lbr_play, _new_work, deal_arrays, lbr_tables, parse_action_sets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "range-defence"))
from lines import full_line  # noqa: E402

KINDS = [(name, re.compile(pattern)) for name, pattern in [
    ("the bot raised after the flop, LBR raised back", r"\|.*Br[0-9.]+ Lr"),
    ("the bot raised after the flop, LBR called or folded", r"\|.*Br[0-9.]+ L[cf]"),
    ("the bot called a river bet", r"\|.*\|.*\|.*Lr[0-9.]+ Bc$"),
    ("the bot folded after the flop", r"\|.*Bf$"),
    ("other hands that saw a flop", r"\|"),
    ("over before the flop", r".")]]


@njit(parallel=True)
def play(rules, kind, params, deals, holding_v, seed, first_deal, tables, lookups, sets,
         payoffs, folded, traces):
    """LBR on every deal in both seats: position 0's chips, who folded (-1: nobody) and the
    actions (`traces[i, lbr]`, rows of (round, code, raise-to), -1 after the last)."""
    for i in prange(deals.v.shape[0]):
        work = _new_work()
        ranges = np.full((64, 3), -1, dtype=np.int64)
        line = np.empty(4, dtype=np.int64)
        for lbr in range(2):
            _lbr_play(rules, lbr, kind, params, deals, holding_v, i, first_deal, seed, tables,
                      lookups, sets, traces[i, lbr], ranges, line, work)
            payoffs[i, lbr] = payoff_of(work.hand, deals.outcomes[i])
            folded[i, lbr] = work.hand[FOLDED]


def lbr_chunks(profile, actions: str, seed: int, deals: int):
    """LBR against `profile` (a name or path) at `actions` on deals 0 .. deals - 1 of `seed`, by
    chunks of 1,000: yields (the chunk's deal set, position 0's chips [n, lbr], who folded
    [n, lbr], the actions [n, lbr, 64, 3]), as `gambler-lbr` plays them."""
    kind, params = encode_strategy(resolve_strategy(profile))
    rules, tables, lookups = encode_rules(load_game()), load_tables(), lbr_tables()
    sets = parse_action_sets(actions)
    for first in range(0, deals, CHUNK):
        count = min(CHUNK, deals - first)
        deal_set, _ = cached_deal_set(seed, first, count)
        holding_v = cached_holding_rates(seed, first, count)
        payoffs = np.zeros((count, 2), dtype=np.int64)
        folded = np.zeros((count, 2), dtype=np.int64)
        traces = np.full((count, 2, 64, 3), -1, dtype=np.int64)
        play(rules, kind, params, deal_arrays(deal_set), holding_v, seed, first, tables,
             lookups, sets, payoffs, folded, traces)
        yield deal_set, payoffs, folded, traces


def lbr_hands(profile, actions: str, seed: int, deals: int, big_blind: int = 100):
    """Every hand of `lbr_chunks`, one at a time: (LBR's position, LBR's chips, the hand's line
    by `full_line` (LBR's letter L, the bot's B), its actions as rows of (round, code, raise-to),
    the position that folded or -1)."""
    for deal_set, payoffs, folded, traces in lbr_chunks(profile, actions, seed, deals):
        for i in range(len(deal_set)):
            for lbr in range(2):
                rows = traces[i, lbr]
                yield (lbr, int(payoffs[i, lbr]) * (1 if lbr == 0 else -1),
                       full_line(rows, lbr, "LB", big_blind), rows[rows[:, 0] >= 0],
                       int(folded[i, lbr]))


def fold_size(rows, stack: int) -> str:
    """The bet the bot folded to (the last row is its fold): "shove", or to_call in pots of the
    pot before the bet, to the nearest quarter (3 and more as 3)."""
    spent, actor, round_ = [100, 50], 1, 0
    for row_round, code, amount in rows[:-1]:
        if row_round != round_:
            round_, actor = row_round, 0
        if code == 2:
            spent[actor] = int(amount)
        elif code == 1:
            spent[actor] = max(spent)
        actor = 1 - actor
    if max(spent) >= stack:
        return "a shove"
    return f"{min(3.0, round(4 * (max(spent) - min(spent)) / (2 * min(spent))) / 4):.2f} pots"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile")
    parser.add_argument("actions")
    parser.add_argument("--deals", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=21)
    options = parser.parse_args()
    game = load_game()
    big_blind, stack = game.big_blind, game.stacks[0]
    kinds = collections.defaultdict(lambda: [0, 0])
    folds = collections.defaultdict(lambda: [0, 0])
    hands = 0
    for lbr, chips, line, rows, folder in lbr_hands(options.profile, options.actions,
                                                    options.seed, options.deals, big_blind):
        hands += 1
        name = next(name for name, pattern in KINDS if pattern.search(line))
        kinds[name][0] += 1
        kinds[name][1] += chips
        if folder == 1 - lbr and rows[-1][0] > 0:
            key = (int(rows[-1][0]), fold_size(rows, stack))
            folds[key][0] += 1
            folds[key][1] += chips
    total = sum(chips for _, chips in kinds.values())
    print(f"LBR against {options.profile} at {options.actions}, {hands:,} hands of seed "
          f"{options.seed}: {1000 * total / hands / big_blind:+,.0f} mbb/hand")
    print("   hands  of LBR's mbb/hand  LBR's bb each  the line")
    for name, _ in KINDS:
        count, chips = kinds[name]
        print(f"{count:8,d} {1000 * chips / hands / big_blind:+17,.1f} "
              f"{chips / max(count, 1) / big_blind:+14.2f}  {name}")
    print("\nthe bot's folds after the flop, by round and the bet folded to:")
    for (round_, size), (count, chips) in sorted(folds.items()):
        print(f"{count:8,d} {1000 * chips / hands / big_blind:+17,.1f} "
              f"{chips / count / big_blind:+14.2f}  {('flop', 'turn', 'river')[round_ - 1]}, "
              f"{size}")


if __name__ == "__main__":
    main()
