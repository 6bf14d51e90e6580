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
import sys
import time
from pathlib import Path

import numpy as np

from gambler.evaluator.preflop import class_indices
from gambler.protocol.gamedef import load_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from postflop import lbr_chunks  # noqa: E402


def stake_at_flop(rows, big_blind: int) -> int:
    """Each player's chips in when the first round closed with a call (the last raise-to before
    the flop, or the big blind), or 0 if the hand never saw a flop (`rows`: the hand's actions
    as (round, code, raise-to), -1 rows after the last)."""
    stake = big_blind
    for round_, code, amount in rows:
        if round_ < 0:
            return 0
        if round_ > 0:
            return stake
        if code == 2:
            stake = int(amount)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile")
    parser.add_argument("actions", help="action sets, ';' between settings")
    parser.add_argument("--deals", type=int, default=1000, help="deals, in chunks of 1,000")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    game = load_game()
    stack, big_blind = game.stacks[0], game.big_blind
    count_ = np.zeros((2, 169))
    sums = np.zeros((2, 169))
    squares = np.zeros((2, 169))
    lbr_won, hands, started = 0, 0, time.perf_counter()
    for actions in options.actions.split(";"):
        for deal_set, payoffs, _, traces in lbr_chunks(options.profile, actions, options.seed,
                                                       options.deals):
            count = len(deal_set)
            classes = class_indices(deal_set.holes.reshape(-1, 2)).reshape(count, 2)
            hands += 2 * count
            lbr_won += int(payoffs[:, 0].sum() - payoffs[:, 1].sum())
            for i in range(count):
                for lbr in range(2):
                    stake = stake_at_flop(traces[i, lbr], big_blind)
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
        print(f"{actions}: {hands:,} hands so far, {time.perf_counter() - started:.0f} s, "
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
