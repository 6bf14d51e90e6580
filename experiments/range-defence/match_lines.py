"""Where one profile wins or loses against another: the hands of a fast-engine match grouped by
the whole preflop line (who raised to what, in big blinds), with what A won in each, the lines
that cost A most first. `lines.py` does the same against LBR.

Usage: python experiments/range-defence/match_lines.py A B [--deals 1000] [--seed 7] [--top 25]

Each deal is played twice (A in each position), as `gambler-match A B --seed SEED` plays the
first `--deals` deals (the same hand numbers, mixed-play draws and, for a random player, streams;
chips as the cards fell). A line reads `A` or `B`, then f, c or r and the raise-to in big blinds,
in order; "post" marks the hands that saw a flop.
"""

import argparse
import collections

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.evaluator.rng import stream_seed
from gambler.protocol.gamedef import load_game
from gambler.training.deals import cached_deal_set, cached_holding_rates
from gambler.training.engine import encode_rules, encode_strategy, play_hand
from lines import preflop_line  # this folder's lines.py (the script's folder is on sys.path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=1000, help="at most 1,000 (one chunk)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--top", type=int, default=25, help="lines shown at each end")
    options = parser.parse_args()
    game = load_game()
    count = min(options.deals, 1000)
    deals, _ = cached_deal_set(options.seed, 0, count)
    holding_v = cached_holding_rates(options.seed, 0, count)
    players = [encode_strategy(resolve_strategy(name)) for name in (options.a, options.b)]
    rules, big_blind = encode_rules(game), game.big_blind
    lines = collections.defaultdict(lambda: [0, 0.0])
    for i in range(count):
        for order in range(2):  # order 0: A at position 0; order 1: A at position 1
            seats = players if order == 0 else players[::-1]
            kinds = np.array([kind for kind, _ in seats], dtype=np.int64)
            trace = np.full((64, 3), -1, dtype=np.int64)
            hand_number = 2 * i + order
            stream = np.uint64(stream_seed(options.seed, hand_number)).view(np.int64)
            payoff, _ = play_hand(rules, kinds, [params for _, params in seats], deals.v[i],
                                  deals.outcomes[i], stream,
                                  trace, options.seed, hand_number, deals.holes[i],
                                  deals.boards[i], holding_v=holding_v[i])
            chips = payoff if order == 0 else -payoff
            entry = lines[preflop_line(trace, order, "AB", big_blind)]
            entry[0] += 1
            entry[1] += chips
    hands = sum(number for number, _ in lines.values())
    total = sum(chips for _, chips in lines.values())
    print(f"{options.a} against {options.b}, {hands:,} hands of seed {options.seed}: "
          f"{1000 * total / hands / big_blind:+,.1f} mbb/hand to A")
    print("   hands   share  of A's mbb/hand  A's bb each  the preflop line")
    ordered = sorted(lines.items(), key=lambda item: item[1][1])
    shown = ordered if len(ordered) <= 2 * options.top else (ordered[:options.top]
                                                             + ordered[-options.top:])
    for line, (number, chips) in shown:
        print(f"{number:8,d} {number / hands:6.1%} {1000 * chips / hands / big_blind:+16,.1f} "
              f"{chips / number / big_blind:+12.2f}  {line}")


if __name__ == "__main__":
    main()
