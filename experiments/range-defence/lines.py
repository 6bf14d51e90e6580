"""Where LBR wins before the flop: LBR's hands against a profile grouped by the whole preflop
line (who raised to what, in big blinds), with what LBR won in each, the lines that won it most
first. `gambler-lbr --breakdown` groups by LBR's first bet only; this shows what followed it.

Usage: python experiments/range-defence/lines.py PROFILE ACTIONS [--deals 1000] [--seed 11]
           [--full [--prefix LINE] [--grep REGEX] [--depth N]]

Each deal is played twice (LBR in each position) by the fast LBR (`training.lbr.lbr_hand`), as
`gambler-lbr PROFILE --actions ACTIONS --seed SEED` plays the first `--deals` deals. A line reads
`L` (LBR) or `B` (the bot), then f, c or r and the raise-to in big blinds, in order; "post" marks
the hands that saw a flop. With `--full` the lines go on through every round (`|` between
rounds), cut to their first `--depth` words, and only those that start with `--prefix` and match
`--grep` are counted (the share of LBR's mbb/hand is still of all the hands played):

    python experiments/range-defence/lines.py default-static FCHPA,FCHPA,FCHPA,FCHPA --full \
        --prefix "Lr3 Bc |" --depth 7
"""

import argparse
import collections
import re

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.evaluator.tables import load_tables
from gambler.protocol.gamedef import load_game
from gambler.training.deals import HOLDINGS_CHUNK as CHUNK, cached_deal_set, cached_holding_rates
from gambler.training.engine import encode_rules, encode_strategy
from gambler.training.lbr import deal_arrays, lbr_hand, lbr_tables, parse_action_sets

KINDS = "fcr"


def full_line(trace, first: int, letters: str, big_blind: int) -> str:
    """A hand's line from its trace (round, action code, raise-to; -1 rows unused): each action as
    the actor's letter (`letters[0]` for position `first`, `letters[1]` for the other), f, c or r
    and the raise-to in big blinds, `|` between rounds (reverse blinds: the small blind, position
    1, acts first before the flop, the big blind after it)."""
    words, actor, last_round = [], 1, 0
    for round_, code, amount in trace:
        if round_ < 0:
            break
        if round_ != last_round:
            words.append("|")
            actor, last_round = 0, round_
        size = f"{amount / big_blind:g}" if KINDS[code] == "r" else ""
        words.append(f"{letters[0] if actor == first else letters[1]}{KINDS[code]}{size}")
        actor = 1 - actor
    return " ".join(words)


def preflop_line(trace, first: int, letters: str, big_blind: int) -> str:
    """`full_line` up to the flop, then " post" if the hand saw one."""
    preflop, flop, _ = full_line(trace, first, letters, big_blind).partition(" |")
    return preflop + (" post" if flop else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile")
    parser.add_argument("actions")
    parser.add_argument("--deals", type=int, default=1000, help="deals, in chunks of 1,000")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--full", action="store_true", help="the whole line, every round")
    parser.add_argument("--prefix", default="", help="with --full: lines that start so")
    parser.add_argument("--grep", default="", help="with --full: lines this regex finds")
    parser.add_argument("--depth", type=int, default=0, help="with --full: the first N words")
    options = parser.parse_args()
    game = load_game()
    kind, params = encode_strategy(resolve_strategy(options.profile))
    rules, tables, lookups = encode_rules(game), load_tables(), lbr_tables()
    sets = parse_action_sets(options.actions)
    big_blind = game.big_blind
    lines = collections.defaultdict(lambda: [0, 0.0])
    hands = 0
    for first in range(0, options.deals, CHUNK):
        count = min(CHUNK, options.deals - first)
        deal_set, _ = cached_deal_set(options.seed, first, count)
        holding_v = cached_holding_rates(options.seed, first, count)
        arrays = deal_arrays(deal_set)
        for i in range(count):
            for lbr in range(2):
                trace = np.full((64, 3), -1, dtype=np.int64)
                ranges = np.full((64, 3), -1, dtype=np.int64)
                payoff, _, _ = lbr_hand(rules, lbr, kind, params, arrays, holding_v, i, first,
                                        options.seed, tables, lookups, sets, trace, ranges,
                                        np.empty(4, dtype=np.int64))
                chips = payoff if lbr == 0 else -payoff
                hands += 1
                if options.full:
                    line = full_line(trace, lbr, "LB", big_blind)
                    if not line.startswith(options.prefix) \
                            or (options.grep and not re.search(options.grep, line)):
                        continue
                    line = " ".join(line.split()[:options.depth or None])
                else:
                    line = preflop_line(trace, lbr, "LB", big_blind)
                entry = lines[line]
                entry[0] += 1
                entry[1] += chips
    print(f"LBR against {options.profile} at {options.actions}, {hands:,} hands of seed "
          f"{options.seed}")
    if options.full:
        chosen = sum(count for count, _ in lines.values())
        won = sum(chips for _, chips in lines.values())
        print(f"{chosen:,} of them counted ({chosen / hands:.1%}): LBR's "
              f"{1000 * won / hands / big_blind:+,.1f} mbb/hand of all")
    print("   hands   share  of LBR's mbb/hand  LBR's bb each  the line")
    for line, (count, chips) in sorted(lines.items(), key=lambda item: -item[1][1]):
        print(f"{count:8,d} {count / hands:6.1%} {1000 * chips / hands / big_blind:+17,.1f} "
              f"{chips / count / big_blind:+14.2f}  {line}")


if __name__ == "__main__":
    main()
