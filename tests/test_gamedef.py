"""Game definitions: every standard file parses; errors name the file, line and key."""

import pytest

from acpc_support import ACPC_GAMES
from gambler.protocol import GameDefinitionError, load_game, parse_game
from gambler.protocol.gamedef import UNLIMITED_RAISES, UNLIMITED_STACK, find_game_file


def test_every_standard_game_parses():
    games = {path.name: load_game(path) for path in sorted(ACPC_GAMES.glob("*.game"))}
    assert len(games) == 5
    nolimit = games["holdem.nolimit.2p.reverse_blinds.game"]
    assert (nolimit.no_limit, nolimit.num_players, nolimit.num_rounds) == (True, 2, 4)
    assert (nolimit.stacks, nolimit.blinds, nolimit.big_blind) == ((20000, 20000), (100, 50), 100)
    assert nolimit.first_player == (1, 0, 0, 0) and nolimit.num_board_cards == (0, 3, 1, 1)
    assert nolimit.max_raises == (UNLIMITED_RAISES,) * 4 and nolimit.is_heads_up_holdem
    limit = games["holdem.limit.2p.reverse_blinds.game"]
    assert not limit.no_limit and limit.stacks == (UNLIMITED_STACK,) * 2
    assert limit.raise_sizes == (10, 10, 20, 20) and limit.max_raises == (3, 4, 4, 4)
    kuhn = games["kuhn.limit.3p.game"]
    assert (kuhn.num_players, kuhn.num_rounds, kuhn.num_ranks, kuhn.num_suits) == (3, 1, 4, 1)
    assert kuhn.stacks == (2, 2, 2) and kuhn.blinds == (1, 1, 1)
    assert kuhn.deck == (39, 43, 47, 51)  # the top four ranks (J Q K A) of the last suit
    three = games["holdem.nolimit.3p.game"]
    assert three.first_player == (2, 0, 0, 0) and not three.is_heads_up_holdem


def test_description_round_trips():
    for path in ACPC_GAMES.glob("*.game"):
        game = load_game(path)
        assert parse_game(game.describe(), source=game.source) == game


def test_shipped_games_are_found_by_name():
    assert find_game_file("holdem.nolimit.2p.reverse_blinds.game").is_file()
    assert load_game() == load_game("holdem.nolimit.2p.reverse_blinds.game")
    with pytest.raises(GameDefinitionError, match="no game file 'nosuch.game'.*shipped games"):
        load_game("nosuch.game")


GOOD = """GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 20000 20000
blind = 100 50
firstPlayer = 2 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""


def variant(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


@pytest.mark.parametrize("text, message", [
    (variant("numPlayers = 2", "numPlayers = x"), r"my.game:3: numPlayers: 'x' is not an integer"),
    (variant("numPlayers = 2\n", ""), r"my.game: numPlayers is missing"),
    (variant("numPlayers = 2", "numPlayers = 11"), r"my.game:3: numPlayers = 11 is outside 2..10"),
    (variant("stack = 20000 20000", "stack = 20000"), r"my.game:5: stack needs 2 values"),
    (variant("blind = 100 50", "blind = 30000 50"), r"my.game:6: blind of player 1 \(30000\)"),
    (variant("firstPlayer = 2 1 1 1", "firstPlayer = 3 1 1 1"), r"my.game:7: firstPlayer 3"),
    (variant("numRanks = 13", "numRanks = 14"), r"my.game:9: numRanks = 14 is outside"),
    (variant("numRanks = 13", "numRanks = 2"), r"too many hole and board cards"),
    (variant("numBoardCards = 0 3 1 1", "numBoardCards = 0 3 1"), r"numBoardCards needs 4"),
    (variant("nolimit", "nolimt"), r"my.game:2: unknown key 'nolimt'"),
    (variant("END GAMEDEF\n", ""), r"not closed by END GAMEDEF"),
    (variant("GAMEDEF\n", ""), r"my.game:1: expected GAMEDEF"),
    (variant("blind = 100 50", "blind = 100 -50"), r"my.game:6: blind: -50 is negative"),
    (variant("numRounds = 4", "numRounds = 4\nnumRounds = 3"), r"numRounds given twice"),
    (variant("nolimit", "limit"), r"my.game: raiseSize is missing"),
])
def test_errors_name_file_line_and_key(text, message):
    with pytest.raises(GameDefinitionError, match=message):
        parse_game(text, source="my.game")


def test_format_freedoms():
    relaxed = ("# a comment\n\ngamedef\nNOLIMIT\nnumplayers 2\nNUMROUNDS=4\nstack=20000 20000\n"
               "blind 100 50\nfirstplayer = 2 1 1 1\nnumsuits 4\nnumranks 13\nnumholecards 2\n"
               "numboardcards 0 3 1 1\nend gamedef\nignored after the end\n")
    assert parse_game(relaxed, "relaxed") == parse_game(GOOD, "relaxed")
