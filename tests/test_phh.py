"""Hand histories in the PHH format, checked by pokerkit (the format's reference implementation):
every hand gambler writes parses and replays there to the same chips, pokerkit's own conversion of
the real dealer's log gives the same actions, PHH that pokerkit wrote reads back as the same hands,
and ACPC -> PHH -> ACPC gives back the log's lines."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acpc_support import ACPC, NOLIMIT
from gambler.protocol.betting import CALL_ACTION, FOLD_ACTION, BettingState, raise_to
from gambler.protocol.gamedef import load_game
from gambler.protocol.logs import (LoggedHand, format_state_line, parse_log, read_log,
                                   read_log_lines)
from gambler.protocol.phh import (PhhError, hand_to_phh, hands_to_phhs, read_phh_text)

pokerkit = pytest.importorskip("pokerkit")

LOG = ACPC / "example-nolimit.log"
GAME = load_game(NOLIMIT)


def replayed(text: str) -> list:
    """pokerkit's hand histories of a `.phhs` text, each with its final state."""
    histories = list(pokerkit.HandHistory.loads_all(text))
    finals = []
    for history in histories:
        state = None
        for state in history:
            pass
        finals.append(state)
    return list(zip(histories, finals))


def assert_replays_to_its_chips(hands: list[LoggedHand], text: str) -> None:
    pairs = replayed(text)
    assert len(pairs) == len(hands)
    for hand, (history, state) in zip(hands, pairs):
        assert not state.status, hand.where  # the hand is over in pokerkit too
        assert list(state.payoffs) == [int(value) for value in hand.values], hand.where
        assert list(state.stacks) == history.finishing_stacks, hand.where
        assert history.players == list(hand.names) and history.hand == hand.hand


def test_every_hand_of_a_real_dealers_log_replays_in_pokerkit_to_its_chips():
    hands = read_log(None, LOG)
    assert len(hands) == 2000
    assert_replays_to_its_chips(hands, hands_to_phhs(hands))


def test_pokerkits_own_conversion_of_the_log_has_the_same_actions():
    # pokerkit mucks a beaten hand at the showdown ("p2 sm"); the log shows both, and so does
    # gambler's PHH. Every other action is the same.
    hands = read_log(None, LOG)
    ours = list(pokerkit.HandHistory.loads_all(hands_to_phhs(hands)))
    lines = "\n".join(line for line in read_log_lines(LOG) if line.startswith("STATE:"))
    game = pokerkit.NoLimitTexasHoldem((), True, 0, (50, 100), 100)
    theirs = list(pokerkit.HandHistory.from_acpc_protocol(game, 20000, lines))
    mucks = 0
    for hand, mine, other in zip(hands, ours, theirs):
        assert len(mine.actions) == len(other.actions), hand.where
        for action, expected in zip(mine.actions, other.actions):
            if expected in ("p1 sm", "p2 sm"):
                mucks += 1
                assert action.startswith(expected + " "), hand.where
            else:
                assert action == expected, hand.where
    assert mucks > 0


def test_phh_that_pokerkit_wrote_reads_as_the_logs_hands():
    hands = read_log(None, LOG)[:400]
    lines = "\n".join(format_state_line(hand) for hand in hands)
    game = pokerkit.NoLimitTexasHoldem((), True, 0, (50, 100), 100)
    text = pokerkit.HandHistory.dumps_all(
        pokerkit.HandHistory.from_acpc_protocol(game, 20000, lines))
    for hand, back in zip(hands, read_phh_text(text, "pokerkit.phhs"), strict=True):
        assert back.betting.betting_string() == hand.betting.betting_string()
        assert (back.board, back.values, back.names, back.hand) == \
            (hand.board, hand.values, hand.names, hand.hand)


def test_acpc_to_phh_to_acpc_gives_back_every_line_of_the_log():
    lines = [line for line in read_log_lines(LOG) if line.startswith("STATE:")]
    back = read_phh_text(hands_to_phhs(parse_log(GAME, lines)), "round-trip.phhs")
    assert [format_state_line(hand) for hand in back] == lines


def random_hand(data, number: int) -> LoggedHand:
    """A legal hand: uniform cards, each action drawn from the legal ones (raises anywhere in
    the legal range, all-ins included)."""
    deck = list(GAME.deck)
    random.Random(data.draw(st.integers(0, 2**32))).shuffle(deck)
    state = BettingState.start(GAME)
    while not state.finished:
        legal = state.legal_actions()
        choices = ["call"] + (["fold"] if legal.can_fold else []) + \
            (["raise", "all-in"] if legal.can_raise else [])
        choice = data.draw(st.sampled_from(choices))
        if choice == "fold":
            action = FOLD_ACTION
        elif choice == "call":
            action = CALL_ACTION
        elif choice == "all-in":
            action = raise_to(legal.max_raise_to)
        else:
            action = raise_to(data.draw(st.integers(legal.min_raise_to, legal.max_raise_to)))
        state = state.apply(action)
    holes = ((deck[0], deck[1]), (deck[2], deck[3]))
    board = tuple(deck[4:4 + GAME.board_cards_through(state.round)])
    return LoggedHand(number, state, holes, board, state.payoffs(holes, board), ("a", "b"),
                      f"random hand {number}")


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_legal_hands_replay_in_pokerkit_and_come_back(data):
    hands = [random_hand(data, number) for number in range(5)]
    text = hands_to_phhs(hands)
    assert_replays_to_its_chips(hands, text)
    back = read_phh_text(text)
    assert [format_state_line(hand) for hand in back] == [format_state_line(h) for h in hands]


def test_a_bots_log_writes_the_cards_it_never_saw_as_unknown():
    # The bot's own log from the dealer's: its cards, the other seat's only after a showdown.
    lines = []
    for hand in read_log(None, LOG)[:300]:
        position = hand.names.index("gambler")
        shown = not any(hand.betting.folded)
        holes = [cards if p == position or shown else () for p, cards in enumerate(hand.hole_cards)]
        cards = format_state_line(LoggedHand(hand.hand, hand.betting, tuple(holes), hand.board,
                                             hand.values, hand.names)).split(":")[3]
        lines.append(f"{hand.hand} {position} {cards} {hand.betting.betting_string()} "
                     f"{hand.values[position]:+g}")
    hands = parse_log(GAME, lines, "bot.log")
    text = hands_to_phhs(hands)
    folded = [hand for hand in hands if any(hand.betting.folded)]
    assert folded and all("????" in hand_to_phh(hand) for hand in folded)
    assert_replays_to_its_chips(hands, text)
    back = read_phh_text(text)
    assert [format_state_line(hand) for hand in back] == [format_state_line(h) for h in hands]


GOOD = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\nmin_bet = 100\n"
        "starting_stacks = [20000, 20000]\n"
        "actions = ['d dh p1 AsKs', 'd dh p2 2c2d', 'p2 cbr 300', 'p1 f']\n")


@pytest.mark.parametrize("edit, message", [
    (("'NT'", "'FT'"), "variant 'FT': gambler reads no-limit Texas hold'em ('NT')"),
    (("antes = [0, 0]", "antes = [5, 5]"), "antes [5, 5]: ACPC games have no antes"),
    (("'p1 f'", "'p2 cc'"), "actions[3] 'p2 cc': p1 is to act"),
    (("'p1 f'", "'p1 cbr 200'"), "actions[3] 'p1 cbr 200': raise to 200"),
    (("'p1 f'", "'p1 xx'"), "actions[3] 'p1 xx': not an action gambler reads"),
    (("AsKs", "AsXs"), "actions[0] 'd dh p1 AsXs': bad card 'Xs'"),
    (("2c2d", "AsKs"), "a card is dealt twice"),
    ((", 'p1 f'", ""), "the hand is not over after its actions"),
    (("'p1 f'", "'p1 f']\nfinishing_stacks = [20000, 20000"),
     "finishing_stacks [20000, 20000] are not the hand's: [19900, 20100]"),
    (("actions = [", "actions = 3 #"), "actions must be a list of strings"),
    (("min_bet = 100", "min_bet = 200"), "min_bet 200"),
])
def test_bad_phh_is_one_error_naming_the_hand_and_what_is_wrong(edit, message):
    assert len(read_phh_text(GOOD, "good.phh")) == 1
    text = "[7]\n" + GOOD.replace(*edit)
    with pytest.raises(PhhError) as caught:
        read_phh_text(text, "bad.phhs")
    assert str(caught.value).startswith("bad.phhs: hand [7]: ")
    assert message in str(caught.value)


def test_not_toml_is_one_error_naming_the_file():
    with pytest.raises(PhhError, match=r"^x\.phh: not TOML: "):
        read_phh_text("variant = 'NT\n", "x.phh")


def test_a_limit_log_is_refused_by_name():
    hands = read_log(None, ACPC / "example-limit.log")
    with pytest.raises(PhhError, match="PHH is written for heads-up no-limit hold'em"):
        hand_to_phh(hands[0])


def test_gambler_report_writes_phh_and_reads_it_back_to_the_same_report(tmp_path):
    import json
    import subprocess
    import sys

    def report(*argv):
        result = subprocess.run([sys.executable, "-m", "gambler.training.report_cli",
                                 *map(str, argv), "--json"], capture_output=True, text=True,
                                timeout=300)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    phhs, log = tmp_path / "match.phhs", tmp_path / "match.log"
    from_acpc = report(LOG, "--phh", phhs)
    from_phh = report(phhs, "--acpc", log)
    assert from_phh["players"] == from_acpc["players"] and from_phh["hands"] == 2000
    assert_replays_to_its_chips(read_log(None, LOG), phhs.read_text())
    assert log.read_text().splitlines() == [line for line in read_log_lines(LOG)
                                            if line.startswith("STATE:")]
