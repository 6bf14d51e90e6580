"""Betting rules: the ACPC server's, checked spot by spot and by random play (hypothesis)."""

import pytest
from hypothesis import given, settings, strategies as st

from acpc_support import ACPC_GAMES, LIMIT, NOLIMIT
from gambler.protocol import (CALL_ACTION, FOLD_ACTION, BettingState, IllegalActionError, load_game,
                      parse_betting, parse_game, raise_to)
from gambler.protocol.betting import Action
from gambler.protocol.deal import MersenneTwister, deal_hand

NL = load_game(NOLIMIT)
FL = load_game(LIMIT)


def play(game, betting: str) -> BettingState:
    return parse_betting(game, betting)


def test_start_of_a_no_limit_hand():
    state = BettingState.start(NL)
    assert state.spent == (100, 50) and state.current_player == 1  # the small blind acts first
    legal = state.legal_actions()
    assert (legal.can_fold, legal.call_to, legal.min_raise_to, legal.max_raise_to) == \
        (True, 100, 200, 20000)


def test_limp_gives_the_big_blind_its_option_and_no_fold():
    state = play(NL, "c")
    assert state.round == 0 and state.current_player == 0
    legal = state.legal_actions()
    assert not legal.can_fold and legal.call_to == 100 and legal.min_raise_to == 200
    with pytest.raises(IllegalActionError, match="fold is not legal when checking is free"):
        state.apply(FOLD_ACTION)
    flop = state.apply(CALL_ACTION)
    assert flop.round == 1 and flop.betting_string() == "cc/" and flop.current_player == 0
    assert flop.legal_actions().min_raise_to == 200  # max spent 100 + big blind


def test_minimum_raise_follows_the_last_raise_size():
    state = play(NL, "r300")  # raise from 100 to 300: by 200
    assert state.legal_actions().min_raise_to == 500
    state = play(NL, "r300r1000")  # by 700
    assert state.legal_actions().min_raise_to == 1700
    state = play(NL, "r300r1000c/r1200")  # new round: 1000 + 100 = 1100 minimum; raised by 200
    assert state.legal_actions().min_raise_to == 1400


def test_short_stacks_may_only_go_all_in():
    state = play(NL, "r300r10500")  # a re-raise to 10,500 makes the minimum 20,700 > 20,000
    legal = state.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (20000, 20000)
    all_in = state.apply(raise_to(20000))
    legal = all_in.legal_actions()
    assert legal.can_fold and not legal.can_raise  # no raise against an all-in opponent
    called = all_in.apply(CALL_ACTION)
    assert called.finished and called.betting_string() == "r300r10500r20000c///"
    assert called.round == 3 and called.board_cards_visible == 5


def test_raises_outside_the_range_are_illegal_but_repairable():
    state = BettingState.start(NL)
    with pytest.raises(IllegalActionError, match="outside the legal range 200..20000"):
        state.apply(raise_to(150))
    assert state.repair(raise_to(150)) == (raise_to(200), "raise of 150 increased to 200")
    assert state.repair(raise_to(99999)) == (raise_to(20000), "raise of 99999 decreased to 20000")
    checked = play(NL, "c")
    assert checked.repair(FOLD_ACTION) == (CALL_ACTION, "invalid action, changed to call")
    all_in = play(NL, "r20000")
    assert all_in.repair(raise_to(20000)) == (CALL_ACTION, "invalid action, changed to call")


def test_limit_raises_and_the_cap():
    state = BettingState.start(FL)
    assert state.legal_actions().min_raise_to == 20  # 10 + raise size 10
    capped = play(FL, "rrr")  # three raises preflop: the cap
    assert not capped.legal_actions().can_raise and capped.spent == (30, 40)
    turn = play(FL, "rc/cc/r")  # the big blind bets the turn: 20 more
    assert turn.spent == (40, 20) and turn.legal_actions().min_raise_to == 60
    with pytest.raises(IllegalActionError, match="a limit raise goes to 30"):
        play(FL, "r").apply(raise_to(35))


def test_fold_ends_the_hand_and_pays_the_pot():
    state = play(NL, "r300f")  # the small blind raises, the big blind folds its 100
    assert state.finished and state.payoffs() == (-100.0, 100.0)
    assert play(NL, "f").payoffs() == (50.0, -50.0)


def test_showdown_payoffs_and_split():
    # Position 0 holds aces, position 1 kings; board 2c 7d 9h Js 3c.
    holes = ((51, 50), (47, 46))
    board = (0, 21, 30, 39, 4)
    assert play(NL, "cc/cc/cc/cc").payoffs(holes, board) == (100.0, -100.0)
    assert play(NL, "r20000c///").payoffs(holes, board) == (20000.0, -20000.0)
    royal = (51, 47, 43, 39, 35)  # As Ks Qs Js Ts: the board plays, the pot splits
    assert play(NL, "r300c/cc/cc/cc").payoffs(((0, 1), (4, 5)), royal) == (0.0, 0.0)


SIDE_POT_GAME = parse_game("""GAMEDEF
nolimit
numPlayers = 3
numRounds = 1
stack = 100 300 300
blind = 0 10 20
firstPlayer = 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 5
END GAMEDEF
""", "side-pot.game")


def test_side_pots_go_to_the_best_hand_that_paid_in():
    # Position 0 (stack 100) goes all in; 1 and 2 play on to 300 each.
    state = parse_betting(SIDE_POT_GAME, "r100r300c")
    assert state.finished and state.spent == (100, 300, 300)
    board = (0, 5, 26, 31, 48)             # 2c 3d 8h 9s Ac
    aces, kings, queens = (51, 50), (47, 46), (43, 42)
    # The short stack has the best hand: it wins the main pot (3 x 100), kings win the side pot.
    assert state.payoffs((aces, kings, queens), board) == (200.0, 100.0, -300.0)
    # The short stack has the worst hand: the best of the others takes everything.
    assert state.payoffs((queens, aces, kings), board) == (-100.0, 400.0, -300.0)


@st.composite
def random_hands(draw, game):
    """A random legal action sequence to the end of the hand."""
    state = BettingState.start(game)
    while not state.finished:
        legal = state.legal_actions()
        choices = ["c"] + (["f"] if legal.can_fold else []) + (["r"] if legal.can_raise else [])
        kind = draw(st.sampled_from(choices))
        if kind == "r":
            size = draw(st.integers(legal.min_raise_to, legal.max_raise_to))
            action = raise_to(size)
        else:
            action = Action(kind)
        state = state.apply(action)
    return state


GAMES = [NL, FL] + [load_game(path) for path in sorted(ACPC_GAMES.glob("*3p*.game"))] + \
    [SIDE_POT_GAME]


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.source.split("/")[-1])
@settings(max_examples=150, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_the_invariants(game, data, seed):
    state = data.draw(random_hands(game))
    assert all(0 <= spent <= stack for spent, stack in zip(state.spent, game.stacks))
    assert state.max_spent == max(state.spent)
    assert parse_betting(game, state.betting_string()) == state  # the string replays the hand
    deal = deal_hand(game, MersenneTwister(seed))
    payoffs = state.payoffs(deal.hole_cards, deal.board)
    assert sum(payoffs) == 0  # chips are conserved
    for position, value in enumerate(payoffs):
        assert -state.spent[position] <= value <= sum(state.spent) - state.spent[position]
        if state.folded[position]:
            assert value == -state.spent[position]
