"""The protocol layer's error types.

`ProtocolError` is the one exception the protocol layer raises on bad input: a malformed
MATCHSTATE line, an action that is not legal, a game definition that cannot be played. Its
subclasses say which, and every message names the offending part (the file and line, the field,
the token).
"""

from gambler.errors import GamblerError


class ProtocolError(GamblerError, ValueError):
    """Bad protocol input: a line, an action or a game definition."""


class GameDefinitionError(ProtocolError):
    """A `.game` file that does not define a game the ACPC server would accept."""


class IllegalActionError(ProtocolError):
    """An action that is not legal in the state it is applied to."""


class UnreadableStateError(ProtocolError):
    """A MATCHSTATE line from the dealer that does not parse under our game: we cannot tell
    whether it is our turn, so playing on could leave the dealer waiting for us."""
