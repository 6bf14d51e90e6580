"""What each of a portfolio's counters played and won in one match, as `gambler-match PORTFOLIO
OPPONENT --hands HANDS --seed SEED` plays it (the portfolio in seat 0), and the betting of the
hands named (their index in the match).

    python experiments/guarded-s32/counters.py PORTFOLIO OPPONENT HANDS SEED [HAND,HAND...]
"""

import sys

import numpy as np

from gambler.protocol.gamedef import load_game
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.match_cli import resolve
from gambler.training.portfolio import hand_states, play_portfolio


def main(portfolio: str, opponent: str, hands: str, seed: str, shown: str = "") -> None:
    game = load_game()
    hands, seed = int(hands), int(seed)
    chosen = resolve(portfolio)
    deals, _ = cached_deal_set(seed, 0, (hands + 1) // 2)
    match = play_portfolio(encode_rules(game), chosen, resolve(opponent), deals, seed,
                           game.big_blind, min(game.stacks), seat=0, game=game, traces=True)
    big_blind, every = game.big_blind, chosen.model.every
    played = match.chosen == chosen.model_slot
    print(f"{portfolio} against {opponent}, {hands:,} hands of seed {seed}: "
          f"{match.adjusted.sum() / big_blind / hands * 1000:+,.1f} mbb/hand all-in adjusted; "
          f"the model played {played.sum():,} hands")
    account = 0.0
    for counter in range(1, hands // every + 1):
        part = slice(counter * every, min((counter + 1) * every, hands))
        mine = played[part]
        if mine.any():
            raw = match.chips[part][mine].sum() / big_blind
            adjusted = match.adjusted[part][mine].sum() / big_blind
            account += adjusted
            print(f"counter {counter}: {mine.sum()} hands, {raw:+,.1f} big blinds, all-in adjusted "
                  f"{adjusted:+,.1f}; its account {account:+,.1f}")
    for hand in (int(text) for text in shown.split(",") if text):
        state = hand_states(match, deals, game, 0, True, 0, hands=range(hand, hand + 1))[0]
        deal = hand // 2
        print(f"hand {hand}: {match.chips[hand] / big_blind:+,.1f} big blinds, played by "
              f"{'the model' if played[hand] else 'a member'}: {state.encode()}; each "
              f"position's v by round {np.round(deals.v[deal], 2).tolist()}")


if __name__ == "__main__":
    main(*sys.argv[1:])
