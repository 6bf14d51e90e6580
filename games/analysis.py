"""Reading a solved policy: by information set, and Kuhn poker's against its known equilibria.

Kuhn (1950) found every equilibrium of his game; in OpenSpiel's form (player 0 acts first, both
ante 1, one bet of 1) they make a one-parameter family, alpha in [0, 1/3]:

1. player 0 bets the jack with probability alpha (a bluff), never bets the queen, bets the king
   with probability 3 alpha;
2. after checking and facing a bet, player 0 folds the jack, calls with the queen with
   probability alpha + 1/3, always calls with the king;
3. player 1 calls a bet with the queen with probability 1/3 (never with the jack, always with the
   king), and after a check bets the jack with probability 1/3 (a bluff), never the queen, always
   the king.

`kuhn_family` reads alpha from a policy and measures how far the policy is from the member of
the family with that alpha; the game value is -1/18 for player 0 in every member.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from gambler.games.errors import GameError
from gambler.games.tree import GameTree


def policy_table(tree: GameTree, policy: np.ndarray, digits: int = 6) -> dict[str, list[float]]:
    """`{information set name: [probability of each action]}` rounded to `digits`, the shorter
    names (earlier in the game) first, then in name order."""
    if policy.shape[0] != tree.infosets:
        raise GameError(f"a policy of {policy.shape[0]:,} rows for {tree.infosets:,} "
                        "information sets")
    table = {name: [round(float(p), digits) for p in policy[index, :tree.infoset_actions[index]]]
             for index, name in enumerate(tree.infoset_names)}
    return dict(sorted(table.items(), key=lambda item: (len(item[0]), item[0])))


@dataclass(frozen=True)
class KuhnFamily:
    """A Kuhn policy's bet and call probabilities that the equilibrium family pins down."""
    alpha: float               # player 0 bets the jack
    king_bet: float            # player 0 bets the king (3 alpha in the family)
    queen_call: float          # player 0 calls with the queen after check, bet (alpha + 1/3)
    second_queen_call: float   # player 1 calls a bet with the queen (1/3)
    second_jack_bluff: float   # player 1 bets the jack after a check (1/3)

    @property
    def distance(self) -> float:
        """The largest gap between these probabilities and the family's member with this alpha
        (alpha itself: its distance from [0, 1/3]); 0 for an equilibrium."""
        return max(max(0.0, -self.alpha, self.alpha - 1 / 3),
                   abs(self.king_bet - 3 * self.alpha),
                   abs(self.queen_call - (self.alpha + 1 / 3)),
                   abs(self.second_queen_call - 1 / 3),
                   abs(self.second_jack_bluff - 1 / 3))


def kuhn_family(policy: Mapping[str, Sequence[float]]) -> KuhnFamily:
    """The family's probabilities from a Kuhn policy keyed by information set (`"1pb"`: card 0,
    1 or 2, then the history) with values [p_pass, p_bet], as `policy_table` gives them."""
    needed = ("0", "2", "1pb", "1b", "0p")
    missing = [key for key in needed if key not in policy]
    if missing:
        raise GameError(f"not a Kuhn policy: no information set {missing[0]!r}")

    def bet(key: str) -> float:
        values = policy[key]
        if len(values) != 2:
            raise GameError(f"information set {key!r}: {len(values)} probabilities, Kuhn has 2 "
                            "actions")
        return float(values[1])

    return KuhnFamily(bet("0"), bet("2"), bet("1pb"), bet("1b"), bet("0p"))
