"""Could a control variate at the state where two members part cut the portfolio's noise? How
much of a hand's all-in adjusted result the bot could predict from what it knows at one of its
decisions: its cards' win rate v in the round and what it will have in after the action (c, big
blinds). For each member playing alone against each opponent (6,000 deals of seed 31, both
positions), every decision that does not fold is a row (its round, v, c, and the hand's result
r); per round, the root mean square of r, of r - v c (the all-in adjustment's own form, with the
random hand's equity), and of r less the least-squares fit of r on 1, v, c, v c, v^2 c, v c^2
(fitted on the same rows: an optimistic bound). A control variate Q makes the estimate
Q + (r - Q) / p, so its noise is that of r - Q.

Usage: python experiments/adaptive/control_variate.py OPPONENT...
"""

import sys

import numpy as np

from gambler.bot.portfolio import parse_portfolio
from gambler.bot.strategies import resolve_strategy
from gambler.protocol.betting import Action, BettingState
from gambler.protocol.gamedef import load_game
from gambler.training.deals import compute_deal_set
from gambler.training.engine import CALL_CODE, FOLD_CODE, encode_rules
from gambler.training.portfolio import play_portfolio

MEMBERS = ("default-v2", "price-aware")


def rows_of(match, deals, game):
    """(round, r, v, c) for every decision of the portfolio's that did not fold."""
    rows = []
    for h in range(match.traces.shape[0]):
        deal, position = h // 2, h % 2
        result = match.adjusted[h] / game.big_blind
        betting = BettingState.start(game)
        trace = match.traces[h]
        for _, code, amount in trace[trace[:, 0] >= 0]:
            if betting.current_player == position and code != FOLD_CODE:
                committed = max(betting.spent) if code == CALL_CODE else amount
                rows.append((betting.round, result, deals.v[deal, position, betting.round],
                             committed / game.big_blind))
            betting = betting.apply(Action("f") if code == FOLD_CODE else Action("c")
                                    if code == CALL_CODE else Action("r", int(amount)))
    return np.array(rows)


def main():
    game = load_game()
    rules = encode_rules(game)
    deals = compute_deal_set(seed=31, first_deal=0, count=6000)
    print(f"{'member':12s} {'opponent':10s} round   rows   rms r  rms r-vc  rms r-fit")
    for member in MEMBERS:
        alone = parse_portfolio(f"kind: portfolio\nmembers: [{member}, {member}]\n"
                                "exploration: 1\nlearning_rate: 1.0e-9\n")
        for name in sys.argv[1:]:
            match = play_portfolio(rules, alone, resolve_strategy(name), deals, 5,
                                   game.big_blind, min(game.stacks), traces=True)
            table = rows_of(match, deals, game)
            for round_ in range(4):
                part = table[table[:, 0] == round_]
                if not len(part):
                    continue
                r, v, c = part[:, 1], part[:, 2], part[:, 3]
                features = np.column_stack([np.ones_like(v), v, c, v * c, v * v * c, v * c * c])
                fit, *_ = np.linalg.lstsq(features, r, rcond=None)
                rms = [np.sqrt(np.mean(x ** 2)) for x in (r, r - v * c, r - features @ fit)]
                print(f"{member:12s} {name:10s} {round_:5d} {len(r):6d} {rms[0]:7.2f} "
                      f"{rms[1]:9.2f} {rms[2]:10.2f}")


if __name__ == "__main__":
    main()
