"""Kuhn poker and Leduc hold'em as game trees (`games.tree.GameTree`), with OpenSpiel's rules.

Kuhn poker (Kuhn 1950): cards J, Q, K (0, 1, 2); both ante 1; player 0 passes or bets 1; player 1
answers; a bet faced is called or folded. Information sets are named by the card and the history
of `p` (pass/check/fold) and `b` (bet/call): `"1pb"` is player 0 holding the queen after passing
and facing a bet (`kuhn_infoset_label` writes it `"Qpb"` for people). Game value for player 0:
-1/18.

Leduc hold'em (Southey et al. 2005, as OpenSpiel's `leduc_poker`): six cards J J Q Q K K (0..5:
J1 J2 Q1 Q2 K1 K2, suits distinguished as in OpenSpiel's information sets); both ante 1; one
private card each; a betting round with raises of 2, one public card, a round with raises of 4;
at most two raises per round; fold only when facing a bet; player 0 acts first in both rounds; a
pair with the public card wins, otherwise the higher card, equal ranks split.
"""

from __future__ import annotations

from gambler.games.errors import GameError
from gambler.games.tree import GameTree, TreeBuilder

KUHN_CARDS = "JQK"   # card 0, 1, 2
GAMES = ("kuhn", "leduc")


def poker_tree(name: str) -> GameTree:
    """The tree of `name`, one of GAMES."""
    if name == "kuhn":
        return kuhn_tree()
    if name == "leduc":
        return leduc_tree()
    raise GameError(f"unknown game {name!r} (one of {', '.join(GAMES)})")


def kuhn_infoset_label(key: str) -> str:
    """A Kuhn information set as people write it: the card as J, Q or K, then the history
    (`"1pb"` -> `"Qpb"`). The trees and the JSON keep the card's number."""
    card, history = key[:1], key[1:]
    if card not in ("0", "1", "2") or history not in ("", "p", "b", "pb"):
        raise GameError(f"{key!r} is not a Kuhn information set (a card 0, 1 or 2, then '', "
                        "'p', 'b' or 'pb')")
    return KUHN_CARDS[int(card)] + history


def kuhn_tree() -> GameTree:
    builder = TreeBuilder()
    root = builder.chance(-1, 0, 1.0)
    for first in range(3):
        dealt = builder.chance(root, first, 1 / 3)
        for index, second in enumerate(card for card in range(3) if card != first):
            cards = (first, second)
            _kuhn_betting(builder, cards, dealt, index, 1 / 2, "")
    return builder.build()


def _kuhn_betting(builder: TreeBuilder, cards, parent, edge, edge_prob, history):
    """Decision nodes after `history` (of p and b)."""
    ends = {"pp": ("showdown", 1), "bp": ("fold", 0), "bb": ("showdown", 2),
            "pbp": ("fold", 1), "pbb": ("showdown", 2)}
    if history in ends:
        how, stake = ends[history]
        if how == "showdown":
            utility = stake if cards[0] > cards[1] else -stake
        else:  # the player who folded is the one who did not bet last
            folder = len(history) - 1
            utility = 1 if folder % 2 == 1 else -1
        builder.terminal(parent, edge, edge_prob, utility)
        return
    player = len(history) % 2
    node = builder.decision(parent, edge, edge_prob, player, f"{cards[player]}{history}",
                            ("p", "b"), len(history[player::2]))
    for action_index, action in enumerate("pb"):
        _kuhn_betting(builder, cards, node, action_index, 1.0, history + action)


# --- Leduc ---------------------------------------------------------------------------------------

LEDUC_RAISE = (2, 4)
LEDUC_MAX_RAISES = 2
LEDUC_CARD_NAMES = ("J1", "J2", "Q1", "Q2", "K1", "K2")


def _leduc_rank(private: int, public: int) -> int:
    """OpenSpiel's RankHand: a pair beats any high card; else (high rank, low rank)."""
    if private // 2 == public // 2:
        return 36 + private // 2
    high, low = max(private // 2, public // 2), min(private // 2, public // 2)
    return high * 6 + low


def leduc_tree() -> GameTree:
    builder = TreeBuilder()
    root = builder.chance(-1, 0, 1.0)
    for first in range(6):
        dealt_first = builder.chance(root, first, 1 / 6)
        for second_index, second in enumerate(card for card in range(6) if card != first):
            dealt = builder.chance(dealt_first, second_index, 1 / 5)
            state = _LeducState(cards=(first, second))
            _leduc_node(builder, state, dealt, 0, 1.0, top=True)
    return builder.build()


class _LeducState:
    """The betting so far: contributions, raises and calls this round, both rounds' actions."""

    def __init__(self, cards, public=-1, round_=0, spent=(1, 1), raises=0, calls=0,
                 history=("", ""), folded=-1, player=0, depth=(0, 0)):
        self.cards, self.public, self.round, self.spent = cards, public, round_, spent
        self.raises, self.calls, self.history, self.folded = raises, calls, history, folded
        self.player, self.depth = player, depth

    def key(self) -> str:
        card = LEDUC_CARD_NAMES[self.cards[self.player]]
        public = LEDUC_CARD_NAMES[self.public] if self.public >= 0 else ""
        return f"{card}:{public}:{self.history[0]}/{self.history[1]}"


def _leduc_node(builder, state: _LeducState, parent, edge, edge_prob, top=False):
    if state.folded >= 0:  # the other player takes the pot
        winner = 1 - state.folded
        utility = state.spent[1] if winner == 0 else -state.spent[0]
        builder.terminal(parent, edge, edge_prob, utility)
        return
    actions = (["f"] if state.spent[state.player] < max(state.spent) else []) + ["c"] + \
        (["r"] if state.raises < LEDUC_MAX_RAISES else [])
    node = builder.decision(parent, edge, edge_prob, state.player, state.key(), tuple(actions),
                            state.depth[state.player])
    for index, action in enumerate(actions):
        _leduc_after(builder, state, action, node, index)


def _leduc_after(builder, state: _LeducState, action: str, parent, edge):
    player = state.player
    spent = list(state.spent)
    history = list(state.history)
    history[state.round] += action
    depth = list(state.depth)
    depth[player] += 1
    raises, calls, folded = state.raises, state.calls, -1
    if action == "f":
        folded = player
    elif action == "c":
        spent[player] = max(spent)
        calls += 1
    else:
        spent[player] = max(spent) + LEDUC_RAISE[state.round]
        raises += 1
        calls = 0
    after = _LeducState(state.cards, state.public, state.round, tuple(spent), raises, calls,
                        tuple(history), folded, 1 - player, tuple(depth))
    round_over = folded < 0 and ((raises == 0 and calls == 2) or (raises > 0 and calls == 1))
    if not round_over:
        _leduc_node(builder, after, parent, edge, 1.0)
        return
    if state.round == 1:  # showdown
        ranks = [_leduc_rank(card, state.public) for card in state.cards]
        if ranks[0] == ranks[1]:
            utility = 0.0
        else:
            utility = spent[1] if ranks[0] > ranks[1] else -spent[0]
        builder.terminal(parent, edge, 1.0, utility)
        return
    dealing = builder.chance(parent, edge, 1.0)
    remaining = [card for card in range(6) if card not in state.cards]
    for index, public in enumerate(remaining):
        next_round = _LeducState(state.cards, public, 1, tuple(spent), 0, 0, tuple(history),
                                 -1, 0, tuple(depth))
        _leduc_node(builder, next_round, dealing, index, 1 / len(remaining))
