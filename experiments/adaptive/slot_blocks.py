"""Which slot plays, and what it wins, block by block of a portfolio's matches.

    python experiments/adaptive/slot_blocks.py OPPONENT FIRST_SEED LAST_SEED [PORTFOLIO]

Plays `gambler-match PORTFOLIO OPPONENT --hands 3000 --seed S` in the fast engine for S =
FIRST_SEED .. LAST_SEED - 1 (the deals and draws of `sweep.py`), prints each match's mbb/hand
(all-in adjusted), then per block of 500 hands each slot's share of the hands (averaged over
the matches) and what the hands it played won, pooled over the matches (mbb/hand, all-in
adjusted).
"""

from __future__ import annotations

import sys

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.portfolio import play_portfolio

BLOCK = 500


def main() -> None:
    opponent_name, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    game = load_game()
    rules = encode_rules(game)
    portfolio = resolve_strategy(sys.argv[4] if len(sys.argv) > 4 else "adaptive")
    opponent = resolve_strategy(opponent_name)
    seeds = range(first, last)
    blocks, slots = 3000 // BLOCK, len(portfolio.slots)
    share = np.zeros((blocks, slots))
    chips = np.zeros((blocks, slots))
    played = np.zeros((blocks, slots))
    totals = []
    for seed in seeds:
        deals, _ = cached_deal_set(seed, 0, 1500)
        match = play_portfolio(rules, portfolio, opponent, deals, seed, game.big_blind,
                               min(game.stacks), game=game)
        totals.append(match.adjusted.mean() * 1000 / game.big_blind)
        for block in range(blocks):
            hands = slice(BLOCK * block, BLOCK * (block + 1))
            for slot in range(slots):
                mask = match.chosen[hands] == slot
                share[block, slot] += mask.mean() / len(seeds)
                chips[block, slot] += match.adjusted[hands][mask].sum()
                played[block, slot] += mask.sum()
        print(seed, f"{totals[-1]:+.0f}", flush=True)
    print("mean", np.mean(totals), "slots:", ", ".join(portfolio.slots))
    for block in range(blocks):
        rates = 1000 * chips[block] / np.maximum(played[block], 1) / game.big_blind
        print(f"hands {BLOCK * block:>5}-: share " + " ".join(f"{x:.2f}" for x in share[block])
              + "  mbb/hand by slot " + " ".join(f"{x:+7.0f}" for x in rates))


if __name__ == "__main__":
    main()
