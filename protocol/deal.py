"""Dealing cards exactly as the ACPC dealer does, so that the same seed deals the same cards.

The ACPC server seeds a 32-bit Mersenne Twister (MT19937, `init_genrand(seed)`) once per match.
For each hand it builds the deck suit by suit (`c d h s`, the last `numSuits` of them), rank by
rank within a suit (the top `numRanks` ranks), then deals each position's hole cards in position
order and the board cards round by round, each card chosen as `genrand_int32() % cards_left` and
replaced in the deck by the last card. Reproducing this bit for bit means `gambler-dealer` and the
ACPC `dealer` deal identical hands for the same game and seed (the tests check it against the
real dealer's logs).
"""

from __future__ import annotations

from dataclasses import dataclass

from gambler.protocol.gamedef import MAX_RANKS, MAX_SUITS, Game

_N = 624
_M = 397
_MASK32 = 0xFFFFFFFF


class MersenneTwister:
    """MT19937 (Matsumoto and Nishimura, 1998) with the reference `init_genrand` seeding.

    Python's `random` module uses the same generator but seeds it differently, so it cannot
    stand in for the server's.
    """

    def __init__(self, seed: int):
        state = [seed & _MASK32]
        for i in range(1, _N):
            previous = state[-1]
            state.append((1812433253 * (previous ^ (previous >> 30)) + i) & _MASK32)
        self._state = state
        self._index = _N

    def _twist(self) -> None:
        state = self._state
        for k in range(_N):
            y = (state[k] & 0x80000000) | (state[(k + 1) % _N] & 0x7FFFFFFF)
            state[k] = state[(k + _M) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self._index = 0

    def next_uint32(self) -> int:
        """The next output, like `genrand_int32`."""
        if self._index >= _N:
            self._twist()
        y = self._state[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one hand: hole cards by position, and the whole board in dealing order."""

    hole_cards: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]


def deal_hand(game: Game, rng: MersenneTwister) -> Deal:
    """The next hand's cards, drawn from `rng` as the ACPC dealer draws them."""
    deck = [rank * MAX_SUITS + suit for suit in range(MAX_SUITS - game.num_suits, MAX_SUITS)
            for rank in range(MAX_RANKS - game.num_ranks, MAX_RANKS)]
    left = len(deck)

    def draw() -> int:
        nonlocal left
        index = rng.next_uint32() % left
        card = deck[index]
        deck[index] = deck[left - 1]
        left -= 1
        return card

    holes = tuple(tuple(draw() for _ in range(game.num_hole_cards))
                  for _ in range(game.num_players))
    board = tuple(draw() for _ in range(sum(game.num_board_cards)))
    return Deal(holes, board)
