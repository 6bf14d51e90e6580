"""Where LBR wins before the flop: LBR's hands against a profile grouped by the whole preflop
line (who raised to what, in big blinds), with what LBR won in each, the lines that won it most
first. `gambler-lbr --breakdown` groups by LBR's first bet only; this shows what followed it.

Usage: python experiments/range-defence/lines.py PROFILE ACTIONS [--deals 1000] [--seed 11]

Each deal is played twice (LBR in each position) by the fast LBR (`training.lbr.lbr_hand`), as
`gambler-lbr PROFILE --actions ACTIONS --seed SEED` plays the first `--deals` deals. A line reads
`L` (LBR) or `B` (the bot), then f, c or r and the raise-to in big blinds, in order; "post" marks
the hands that saw a flop.
"""

import argparse
import collections

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.evaluator.tables import load_tables
from gambler.protocol.gamedef import load_game
from gambler.training.deals import cached_deal_set, cached_holding_rates
from gambler.training.engine import encode_rules, encode_strategy
from gambler.training.lbr import deal_arrays, lbr_hand, lbr_tables, parse_action_sets

KINDS = "fcr"


def preflop_line(trace, first: int, letters: str, big_blind: int) -> str:
    """A hand's preflop line from its trace (round, action code, raise-to; -1 rows unused): each
    action as the actor's letter (`letters[0]` for position `first`, `letters[1]` for the other),
    f, c or r and the raise-to in big blinds, then " post" if the hand saw a flop."""
    actor, words = 1, []  # reverse blinds: position 1 (the small blind) acts first
    for round_, code, amount in trace:
        if round_ != 0:
            continue
        size = f"{amount / big_blind:g}" if KINDS[code] == "r" else ""
        words.append(f"{letters[0] if actor == first else letters[1]}{KINDS[code]}{size}")
        actor = 1 - actor
    return " ".join(words) + (" post" if bool((trace[:, 0] > 0).any()) else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile")
    parser.add_argument("actions")
    parser.add_argument("--deals", type=int, default=1000, help="at most 1,000 (one chunk)")
    parser.add_argument("--seed", type=int, default=11)
    options = parser.parse_args()
    game = load_game()
    deal_set, _ = cached_deal_set(options.seed, 0, 1000)
    holding_v = cached_holding_rates(options.seed, 0, 1000)
    kind, params = encode_strategy(resolve_strategy(options.profile))
    rules, tables, lookups = encode_rules(game), load_tables(), lbr_tables()
    arrays, sets = deal_arrays(deal_set), parse_action_sets(options.actions)
    big_blind = game.big_blind
    lines = collections.defaultdict(lambda: [0, 0.0])
    for i in range(min(options.deals, 1000)):
        for lbr in range(2):
            trace = np.full((64, 3), -1, dtype=np.int64)
            ranges = np.full((64, 3), -1, dtype=np.int64)
            payoff, _, _ = lbr_hand(rules, lbr, kind, params, arrays, holding_v, i, 0,
                                    options.seed, tables, lookups, sets, trace, ranges,
                                    np.empty(4, dtype=np.int64))
            chips = payoff if lbr == 0 else -payoff
            entry = lines[preflop_line(trace, lbr, "LB", big_blind)]
            entry[0] += 1
            entry[1] += chips
    hands = sum(count for count, _ in lines.values())
    print(f"LBR against {options.profile} at {options.actions}, {hands:,} hands of seed "
          f"{options.seed}")
    print("   hands   share  of LBR's mbb/hand  LBR's bb each  the preflop line")
    for line, (count, chips) in sorted(lines.items(), key=lambda item: -item[1][1]):
        print(f"{count:8,d} {count / hands:6.1%} {1000 * chips / hands / big_blind:+17,.1f} "
              f"{chips / count / big_blind:+14.2f}  {line}")


if __name__ == "__main__":
    main()
