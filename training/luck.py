"""The all-in adjustment: results with the luck of the run-out taken out, for any ACPC log.

A hand whose chips all went in before the river (the betting closed with fewer than two players
able to act and board cards still to come) is scored by each player's exact equity at that moment
instead of by the cards that fell: with stake s = the smaller of the two totals and e position
0's equity (wins + ties / 2, over every way the board can be completed, `evaluator.matchups`),
position 0 gets (2e - 1) s and position 1 the opposite. Every other hand keeps its result.

It is unbiased: given the cards and the betting up to the all-in, the run-out's expected result
is exactly (2e - 1) s, so the adjusted mean estimates the same thing as the raw mean, with the
run-out's variance removed (the tests check the two means agree over many deals). The fast
engine applies the same rule from the equities its deal sets carry
(`training.engine.adjusted_payoff_of`).
"""

from __future__ import annotations

from gambler.protocol.betting import allin_round
from gambler.protocol.logs import LoggedHand, LogError


def adjusted_values(hand: LoggedHand) -> tuple[float, ...]:
    """Each position's chips with an all-in before the river scored by its equity then."""
    round_ = allin_round(hand.betting)
    if round_ is None:
        return hand.values
    if len(hand.values) != 2:
        raise LogError(f"{hand.where or f'hand {hand.hand}'}: the all-in adjustment is for "
                       f"heads-up hands, this one has {len(hand.values)} players")
    from gambler.evaluator.matchups import allin_equity

    visible = hand.betting.game.board_cards_through(round_)
    equity = allin_equity(hand.hole_cards[0], hand.hole_cards[1], hand.board[:visible])
    stake = min(hand.betting.spent)
    value = (2.0 * equity - 1.0) * stake
    return value, -value
