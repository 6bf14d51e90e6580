"""Mixed play's draws: one uniform per (seed, hand, round, position) from
`evaluator.rng.mixing_uniform`, read alike by the TCP bot (`bot.strategies.ProfileStrategy`) and
the engine (`training.engine.is_mixed`); a round's plan is the mixed one (slow play in modes 3
and 4, a bluff in mode 1) exactly when that draw is below the profile's probability.

The engine and bot tests play a profile built so that every mixed plan shows in the betting:
v = 0 in every round; preflop it calls anything (mode 2); on the flop and river it gives up
(mode 1) and bluffs with probability 0.3 and 0.1; on the turn it bets to the end (mode 4) and
slow-plays (checks) with probability 0.25. Its opponent, `call`, never bets, so the profile never
faces a bet after the preflop: it raises on the flop and river exactly when it bluffs, and checks
on the turn exactly when it slow-plays.
"""

import math

import numpy as np
import pytest

from acpc_support import NOLIMIT
from gambler.bot.automaton import plan_round
from gambler.bot.params import Profile, RoundParams
from gambler.bot.strategies import CallStrategy, ProfileStrategy
from gambler.evaluator.rng import mixing_uniform
from gambler.protocol import BettingState, load_game
from gambler.protocol.betting import Action
from gambler.protocol.matchstate import MatchState
from gambler.training.engine import (CALL, PROFILE, RAISE_CODE, encode_rules, play_hand,
                                     profile_vector)

NL = load_game(NOLIMIT)
SEED = 12345
HANDS = 2000
BLUFF_FLOP, SLOW_PLAY_TURN, BLUFF_RIVER = 0.3, 0.25, 0.1
HOLES = ((0, 1), (2, 3))
BOARD = (4, 5, 6, 7, 8)


def mixer(flop_bluff: float = BLUFF_FLOP) -> Profile:
    """The profile of the module docstring (its flop bluff probability may be changed)."""
    zeros = (0.0, 0.0, 0.0, 0.0)
    give_up = dict(levels="pot", bluff_size=0.5, mixing=True)
    return Profile((
        RoundParams((-1.0, 0.5, 0.9), (20000.0, 0.0, 0.0, 0.0), zeros),
        RoundParams((0.5, 0.6, 0.7), zeros, zeros, bluff=flop_bluff, **give_up),
        RoundParams((-0.5, -0.4, -0.3), zeros, (1.0, 0.0, 0.0, 0.0), slow_play=SLOW_PLAY_TURN,
                    **give_up),
        RoundParams((0.5, 0.6, 0.7), zeros, zeros, bluff=BLUFF_RIVER, **give_up),
    ), name="mixer", version=2)


def draws(seed: int, hands: int) -> np.ndarray:
    """float64[hands, 4 (round), 2 (position)]: the mixing draws of hands 0 .. hands - 1."""
    return np.array([[[mixing_uniform(seed, hand, round_, position) for position in range(2)]
                      for round_ in range(4)] for hand in range(hands)])


def engine_actions(profile: Profile, position: int, hand: int, seed: int = SEED) -> list:
    """(round, code, raise-to) of each action of hand `hand` in the engine, `profile` at
    `position` against `call`, v = 0 throughout, mixed play drawn from (`seed`, `hand`)."""
    kinds = np.array([PROFILE, CALL] if position == 0 else [CALL, PROFILE])
    numbers = [profile_vector(profile), np.zeros_like(profile_vector(profile))]
    params = np.array(numbers if position == 0 else numbers[::-1])
    trace = np.full((64, 3), -1, dtype=np.int64)
    play_hand(encode_rules(NL), kinds, params, np.zeros((2, 4)), 0, np.uint64(1), trace, seed,
              hand)
    return [tuple(int(x) for x in row) for row in trace if row[0] >= 0]


def mixed_rounds(actions: list) -> np.ndarray:
    """bool[3]: whether the profile's flop, turn and river plans were the mixed ones (the
    module docstring: a raise on the flop or river, none on the turn)."""
    raised = [any(round_ == r and code == RAISE_CODE for round_, code, _ in actions)
              for r in (1, 2, 3)]
    return np.array([raised[0], not raised[1], raised[2]])


def test_each_round_and_position_of_a_hand_draws_from_its_own_stream():
    u = draws(SEED, HANDS).reshape(HANDS, 8)
    assert ((0.0 <= u) & (u < 1.0)).all()
    assert (np.diff(np.sort(u, axis=1), axis=1) > 0).all()  # eight different draws every hand
    # Uniform, and the eight streams (and the next hand's, and another seed's) uncorrelated:
    # 4 standard errors.
    assert np.abs(u.mean(axis=0) - 0.5).max() < 4 * math.sqrt(1 / 12 / HANDS)
    bound = 4 / math.sqrt(HANDS)
    correlations = np.corrcoef(u.T)
    assert np.abs(correlations - np.eye(8)).max() < bound
    for column in range(8):
        assert abs(np.corrcoef(u[:-1, column], u[1:, column])[0, 1]) < bound
    other = draws(SEED + 1, HANDS).reshape(HANDS, 8)
    assert np.abs(np.corrcoef(u.T, other.T)[:8, 8:]).max() < bound
    assert mixing_uniform(SEED, 17, 2, 1) == u[17, 2 * 2 + 1]  # a draw is a function of its key


@pytest.mark.parametrize("position", [0, 1])
def test_the_engine_mixes_exactly_when_the_rounds_draw_is_below_the_probability(position):
    mixed = np.array([mixed_rounds(engine_actions(mixer(), position, hand))
                      for hand in range(HANDS)])
    probabilities = np.array([BLUFF_FLOP, SLOW_PLAY_TURN, BLUFF_RIVER])
    assert (mixed == (draws(SEED, HANDS)[:, 1:, position] < probabilities)).all()
    # So the frequencies are the probabilities, within a binomial 4 standard errors.
    for count, p in zip(mixed.sum(axis=0), probabilities):
        assert abs(count - HANDS * p) < 4 * math.sqrt(HANDS * p * (1 - p))


def test_a_draw_equal_to_the_probability_is_not_mixed_play():
    # The draw is in [0, 1): mixed play when u < p, so p = u is the first p that does not mix.
    hand, position = 5, 0
    u = mixing_uniform(SEED, hand, 1, position)
    at, above = mixer(flop_bluff=u), mixer(flop_bluff=float(np.nextafter(u, 1.0)))
    assert not mixed_rounds(engine_actions(at, position, hand))[0]
    assert mixed_rounds(engine_actions(above, position, hand))[0]
    flop = at.rounds[1]
    assert plan_round(flop, 0.0, 100, 200, draw=u).bluff_to is None
    assert plan_round(flop, 0.0, 100, 200, draw=float(np.nextafter(u, 0.0))).bluff_to == 200
    turn = at.rounds[2]  # slow play likewise
    assert not plan_round(turn, 0.0, 100, 200, draw=SLOW_PLAY_TURN).slow
    assert plan_round(turn, 0.0, 100, 200, draw=float(np.nextafter(SLOW_PLAY_TURN, 0.0))).slow


def bot_hand(profile: Profile, position: int, hand: int, seed: int = SEED) -> BettingState:
    """Hand `hand` played by the TCP bot's strategies: `profile` (mixed play drawn from `seed`)
    at `position` against `call`, v = 0 throughout."""
    bot = ProfileStrategy(profile, win_rate=lambda hole, board, hand_, round_: 0.0, seed=seed)
    strategies = [bot, CallStrategy()] if position == 0 else [CallStrategy(), bot]
    state = BettingState.start(NL)
    while not state.finished:
        player = state.current_player
        view = MatchState(player, hand, state,
                          tuple(HOLES[p] if p == player else () for p in range(2)),
                          BOARD[:state.board_cards_visible])
        state = state.apply(strategies[player].act(view))
    return state


@pytest.mark.parametrize("position", [0, 1])
def test_the_tcp_bot_mixes_on_the_same_draws_as_the_engine(position):
    for hand in range(150):
        actions = engine_actions(mixer(), position, hand)
        replay = BettingState.start(NL)
        for _, code, amount in actions:
            replay = replay.apply(Action("f") if code == 0 else Action("c") if code == 1 else
                                  Action("r", amount))
        assert bot_hand(mixer(), position, hand).betting_string() == replay.betting_string(), hand
