"""What the postflop costs each preflop class: against LBR, how much less than a check-down a
profile's holding class gets from the flop on, per seat.

Usage: python experiments/realisation/measure.py PROFILE ACTIONS[;ACTIONS...] --deals N --seed S
           --out FILE.json

For each deal (played twice, LBR in each seat, by the fast LBR as `gambler-lbr PROFILE --actions
ACTIONS --seed S` plays it) whose hand reaches the flop with chips behind, the bot's postflop
surplus is its chips minus what checking the hand down would have given it, the same stake T
(each player's chips in at the flop) times the showdown's outcome on this deal's board: 0 for a
hand checked down, and its mean over boards is what the chart's abstract game scores at the flop,
(2 equity - 1) T (training/preflop.py). Divided by T it is the realisation shortfall the chart
solver's postflop edge prices with one number per seat: here it is counted per seat (0 the big
blind, 1 the small blind) and per class (169, `evaluator.preflop`). Several action sets, `;`
between them, are pooled (the same deals under each).

The output JSON: {"seats": [{"count": [169], "shortfall": [169], "square": [169]} x 2], ...}:
per class the hands counted, the sum of -surplus / T and of its square.
"""

import argparse
import json
import time

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.evaluator.preflop import class_indices
from gambler.evaluator.tables import load_tables
from gambler.protocol.gamedef import load_game
from gambler.training.deals import HOLDINGS_CHUNK as CHUNK, cached_deal_set, cached_holding_rates
from gambler.training.engine import encode_rules, encode_strategy
from gambler.jit import njit
from gambler.training.engine import payoff_of
from gambler.training.lbr import _lbr_play, _new_work, deal_arrays, lbr_tables, parse_action_sets
from numba import prange


@njit
def stake_at_flop(trace, big_blind):
    """Each player's chips in when the first round closed with a call (the last raise-to before
    the flop, or the big blind), or 0 if the hand never saw a flop."""
    stake = big_blind
    for row in range(trace.shape[0]):
        if trace[row, 0] < 0:
            return 0
        if trace[row, 0] > 0:
            return stake
        if trace[row, 1] == 2:
            stake = trace[row, 2]
    return 0


@njit(parallel=True)
def play(rules, kind, params, deals, holding_v, seed, first_deal, tables, lookups, sets,
         big_blind, payoffs, stakes):
    """LBR on every deal in both seats: position 0's chips in `payoffs[i, lbr]` and the stake at
    the flop (`stake_at_flop`) in `stakes[i, lbr]`."""
    for i in prange(deals.v.shape[0]):
        work = _new_work()
        trace = np.full((64, 3), -1, dtype=np.int64)
        ranges = np.full((64, 3), -1, dtype=np.int64)
        line = np.empty(4, dtype=np.int64)
        for lbr in range(2):
            trace[:] = -1
            ranges[:] = -1
            _lbr_play(rules, lbr, kind, params, deals, holding_v, i, first_deal, seed, tables,
                      lookups, sets, trace, ranges, line, work)
            payoffs[i, lbr] = payoff_of(work.hand, deals.outcomes[i])
            stakes[i, lbr] = stake_at_flop(trace, big_blind)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile")
    parser.add_argument("actions", help="action sets, ';' between settings")
    parser.add_argument("--deals", type=int, default=1000, help="deals, in chunks of 1,000")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    game = load_game()
    stack = game.stacks[0]
    kind, params = encode_strategy(resolve_strategy(options.profile))
    rules, tables, lookups = encode_rules(game), load_tables(), lbr_tables()
    settings = [parse_action_sets(text) for text in options.actions.split(";")]
    big_blind = game.big_blind
    count_ = np.zeros((2, 169))
    sums = np.zeros((2, 169))
    squares = np.zeros((2, 169))
    lbr_won, hands, started = 0, 0, time.perf_counter()
    for first in range(0, options.deals, CHUNK):
        count = min(CHUNK, options.deals - first)
        deal_set, _ = cached_deal_set(options.seed, first, count)
        holding_v = cached_holding_rates(options.seed, first, count)
        arrays = deal_arrays(deal_set)
        classes = class_indices(deal_set.holes.reshape(-1, 2)).reshape(count, 2)
        for sets in settings:
            payoffs = np.zeros((count, 2), dtype=np.int64)
            stakes = np.zeros((count, 2), dtype=np.int64)
            play(rules, kind, params, arrays, holding_v, options.seed, first, tables, lookups,
                 sets, big_blind, payoffs, stakes)
            hands += 2 * count
            lbr_won += int(payoffs[:, 0].sum() - payoffs[:, 1].sum())
            for i in range(count):
                for lbr in range(2):
                    stake = int(stakes[i, lbr])
                    if stake == 0 or stake >= stack:
                        continue
                    bot = 1 - lbr
                    sign = 1 if bot == 0 else -1
                    surplus = sign * (int(payoffs[i, lbr]) - int(deal_set.outcomes[i]) * stake)
                    shortfall = -surplus / stake
                    cls = classes[i, bot]
                    count_[bot, cls] += 1
                    sums[bot, cls] += shortfall
                    squares[bot, cls] += shortfall * shortfall
        print(f"{first + count:,} deals, {hands:,} hands, {time.perf_counter() - started:.0f} s, "
              f"LBR {1000 * lbr_won / hands / big_blind:+.0f} mbb/hand", flush=True)
    for seat, name in enumerate(("big blind", "small blind")):
        n = count_[seat].sum()
        print(f"{name}: {n:,.0f} flops, mean shortfall {sums[seat].sum() / max(n, 1):.3f} stakes")
    with open(options.out, "w") as handle:
        json.dump({"profile": options.profile, "actions": options.actions,
                   "deals": options.deals, "seed": options.seed, "hands": hands,
                   "lbr_mbb": 1000 * lbr_won / hands / big_blind,
                   "seats": [{"count": count_[s].tolist(), "shortfall": sums[s].tolist(),
                              "square": squares[s].tolist()} for s in range(2)]}, handle)


if __name__ == "__main__":
    main()
