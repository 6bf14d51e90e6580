"""The ACPC protocol: game definitions, betting rules, the MATCHSTATE codec, a client and a dealer.

    gamedef (.game files) ─► betting (pure rules) ◄─ matchstate (codec) ◄── client.py / dealer.py

Everything here agrees with the ACPC server's `game.c` and `dealer.c` to the chip; the tests
replay the real dealer's transcripts and logs in `tests/data/acpc/`. Errors: `ProtocolError` for
bad input (a line, an action, a game file), `MatchError` for a connection or match that cannot go
on; both derive from `gambler.errors.GamblerError`.
"""

from gambler.protocol.betting import (CALL, CALL_ACTION, FOLD, FOLD_ACTION, RAISE, Action,
                                      BettingState, LegalActions, parse_betting, raise_to)
from gambler.protocol.errors import (GameDefinitionError, IllegalActionError, MatchError,
                                     ProtocolError)
from gambler.protocol.gamedef import DEFAULT_GAME, Game, load_game, parse_game
from gambler.protocol.matchstate import MatchState, parse_matchstate

__all__ = ["Action", "BettingState", "LegalActions", "parse_betting", "raise_to", "FOLD", "CALL",
           "RAISE", "FOLD_ACTION", "CALL_ACTION", "Game", "load_game", "parse_game",
           "DEFAULT_GAME", "MatchState", "parse_matchstate", "ProtocolError",
           "GameDefinitionError", "IllegalActionError", "MatchError"]
