"""The MATCHSTATE codec against the real dealer's transcripts and logs, and under fuzzing."""

import pytest
from hypothesis import given, settings, strategies as st

from acpc_support import LIMIT, NOLIMIT, log_lines, transcript
from gambler.protocol import ProtocolError, load_game, parse_betting, parse_matchstate
from gambler.protocol.matchstate import parse_cards_field, parse_reply_action

GAMES = {"nolimit": load_game(NOLIMIT), "limit": load_game(LIMIT)}


@pytest.mark.parametrize("kind", ["nolimit", "limit"])
def test_every_dealer_line_parses_and_reencodes(kind):
    game = GAMES[kind]
    lines = [line for direction, _, line in transcript(kind) if direction == "TO"]
    assert len(lines) > 2000
    for line in lines:
        assert parse_matchstate(game, line).encode() == line


@pytest.mark.parametrize("kind", ["nolimit", "limit"])
def test_states_agree_with_what_happened_next(kind):
    """Whose turn, which actions are legal, when the hand ends: as the transcript shows."""
    game = GAMES[kind]
    rows = transcript(kind)
    answered = 0
    for index, (direction, seat, line) in enumerate(rows):
        if direction != "TO":
            continue
        state = parse_matchstate(game, line)
        # The next line involving this seat is either its answer or the next state sent to it.
        following = next(((at, d, text) for at, (d, s, text) in enumerate(rows[index + 1:],
                                                                           start=index + 1)
                          if s == seat), None)
        if state.is_our_turn:
            assert following is not None and following[1] == "FROM", line
            answer_at, _, answer = following
            echo, _, action_text = answer.rpartition(":")
            assert echo == line  # the player echoes the state verbatim
            action = state.betting.check_legal(parse_reply_action(game, action_text))
            after = state.betting.apply(action)
            # The next state the dealer sends anyone carries exactly this action.
            next_sent = next(text for d, s, text in rows[answer_at + 1:] if d == "TO")
            assert parse_matchstate(game, next_sent).betting == after
            answered += 1
        else:
            assert following is None or following[1] == "TO", line
        if state.finished:
            assert state.betting.current_player is None
    assert answered > 1000


@pytest.mark.parametrize("kind", ["nolimit", "limit"])
def test_every_logged_hand_pays_exactly_what_the_dealer_paid(kind):
    game = GAMES[kind]
    hands = 0
    for line in log_lines(kind):
        if not line.startswith("STATE:"):
            continue
        _, hand, betting, cards, values, names = line.split(":")
        state = parse_betting(game, betting)
        holes, board = parse_cards_field(game, state.round, cards, line)
        assert state.payoffs(holes, board) == tuple(float(v) for v in values.split("|")), line
        hands += 1
    assert hands == {"nolimit": 2000, "limit": 200}[kind]


@pytest.mark.parametrize("line, part", [
    ("MATCHSTATE:0:0::7s5s|", None),
    ("MATCHSTATE:2:0::7s5s|", "bad position '2'"),
    ("MATCHSTATE:0:x::7s5s|", "bad hand number 'x'"),
    ("MATCHSTATE:0:0:c:", "position 1"),
    ("MATCHSTATE:0:0:r50:7s5s|", "is illegal: raise to 50 is outside the legal range 200..20000"),
    ("MATCHSTATE:0:0:cc:7s5s|", "not in the dealer's form 'cc/'"),
    ("MATCHSTATE:0:0:cc/:7s5s|", "expected '/' before the board cards of round 1"),
    ("MATCHSTATE:0:0:cc/:7s5s|/AhKh", "round 1 needs 3 board cards, found 2"),
    ("MATCHSTATE:0:0:cc/:7s5s|/AhKh7s", "a card appears twice"),
    ("MATCHSTATE:0:0::7s5s|3c", "position 1 has 1 hole cards, expected 2"),
    ("MATCHSTATE:0:0::|7s5s", "the receiver's own hole cards are missing"),
    ("MATCHSTATE:0:0:q:7s5s|", "unexpected 'q'"),
    ("MATCHSTATE:0:0:f/c:7s5s|", "betting 'f/' is not in the dealer's form 'f'"),
    ("MATCHSTATE:0:0:fc:7s5s|", "action 'c' after the hand ended"),
    ("MATCHSTATE:0:0::7s5s|:c", "is not MATCHSTATE:<position>"),
    ("STATE:0:0::7s5s|", "is not MATCHSTATE:<position>"),
])
def test_malformed_lines_name_the_part(line, part):
    game = GAMES["nolimit"]
    if part is None:
        assert parse_matchstate(game, line).encode() == line
        return
    with pytest.raises(ProtocolError, match=part.replace("(", r"\(").replace(")", r"\)")):
        parse_matchstate(game, line)


def test_reply_actions_are_read_like_the_acpc_dealer():
    nolimit, limit = GAMES["nolimit"], GAMES["limit"]
    assert str(parse_reply_action(nolimit, "r300")) == "r300"
    assert parse_reply_action(nolimit, "k").kind == "c"
    assert parse_reply_action(nolimit, "B 500").raise_to == 500
    assert parse_reply_action(nolimit, "r") is None and parse_reply_action(nolimit, "") is None
    assert parse_reply_action(limit, "r").kind == "r" and parse_reply_action(nolimit, "x") is None


SAMPLE_LINES = [line for direction, _, line in transcript("nolimit") if direction == "TO"][::40]


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=80))
def test_fuzz_random_text_raises_only_protocol_errors(text):
    for game in GAMES.values():
        try:
            parse_matchstate(game, text)
        except ProtocolError:
            pass


BETTING_TOKENS = st.sampled_from(["c", "f", "r200", "r300", "r600", "r20000", "r150", "/", "r",
                                   "k", "cc", "r1200", "r0"])
HOLES = st.sampled_from(["", "AsKd", "2c3d", "AsKd", "2c3d", "AsAs", "Kd", "Qs8h", "1sKd",
                        "AsKdQs"])
OTHER_HOLES = st.sampled_from(["", "", "", "", "Qs8h", "2c"])
BOARDS = st.sampled_from(["", "/Jc7h5c", "/Jc7h5c/9h", "/Jc7h", "/Jc7h5c/9h/4d", "/Jc7h5c//4d",
                          "/Jc7h5c/9h/4d/6d", "Jc7h5c", "/Jc7h5c/9h/Jc"])
CARDS_FIELDS = st.builds(lambda ours, theirs, board, tail, first: (
    (ours + "|" + theirs if first else theirs + "|" + ours) + board + tail),
    HOLES, OTHER_HOLES, BOARDS, st.sampled_from(["", "", "", "|", ":", " "]), st.booleans())
BETTINGS = st.one_of(
    st.sampled_from(["", "c", "r300", "cc/", "r300c/", "cc/r400", "cc/cc/", "cr300c/cc/r900c/",
                     "r20000c///", "cc/cc/cc/cc"]),
    st.lists(BETTING_TOKENS, max_size=8).map("".join))
STATE_LINES = st.builds(
    lambda position, hand, betting, cards: f"MATCHSTATE:{position}:{hand}:{betting}:{cards}",
    st.sampled_from(["0", "1", "0", "1", "2", "-1", "x"]),
    st.sampled_from(["0", "7", "123", "", "1e3"]), BETTINGS, CARDS_FIELDS)


@settings(max_examples=600, deadline=None)
@given(STATE_LINES)
def test_fuzz_state_shaped_lines_are_parsed_exactly_or_refused(line):
    """Lines with the MATCHSTATE shape and random fields: a ProtocolError, or a state that
    encodes back to exactly the line (the dealer's own form)."""
    for game in GAMES.values():
        try:
            state = parse_matchstate(game, line)
        except ProtocolError:
            continue
        assert state.encode() == line


def test_state_shaped_fuzzing_reaches_the_parser():
    """The generator above is worth running: it reaches states past the preflop, which random
    text never does."""
    from hypothesis import find
    from hypothesis.errors import NoSuchExample

    def accepted(line):
        try:
            return parse_matchstate(GAMES["nolimit"], line).betting.round >= 1
        except ProtocolError:
            return False

    try:
        found = find(STATE_LINES, accepted, settings=settings(max_examples=3000, deadline=None,
                                                              derandomize=True, database=None))
    except NoSuchExample:
        found = None
    assert found is not None and parse_matchstate(GAMES["nolimit"], found).encode() == found


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(SAMPLE_LINES), st.integers(0, 200), st.integers(0, 3),
       st.text(alphabet="0123456789:|/rcfAKQJTs2hd-+ x", max_size=4))
def test_fuzz_mutated_dealer_lines_raise_only_protocol_errors(line, at, cut, insert):
    at %= len(line) + 1
    mutated = line[:at] + insert + line[at + cut:]
    try:
        state = parse_matchstate(GAMES["nolimit"], mutated)
    except ProtocolError:
        return
    assert state.encode() == mutated  # anything accepted is in the dealer's exact form
