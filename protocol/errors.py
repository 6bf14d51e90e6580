"""The protocol layer's error types.

`ProtocolError` is the exception the protocol layer raises on bad input: a malformed MATCHSTATE
line, an action that is not legal, a game definition that cannot be played. Its subclasses say
which, and every message names the offending part (the file and line, the field, the token).

`MatchError`, its sibling under `GamblerError`, is a connection or a match that cannot go on:
the other side closed the connection (`ConnectionClosed`), fell silent (`LineTimeout`), or the
dealer's match failed (`MatchFailed`: a timeout, a lost seat, a port in use). It is not a
`ValueError`: nothing in the input was malformed.
"""

from gambler.errors import GamblerError


class ProtocolError(GamblerError, ValueError):
    """Bad protocol input: a line, an action or a game definition."""


class GameDefinitionError(ProtocolError):
    """A `.game` file that does not define a game the ACPC server would accept."""


class IllegalActionError(ProtocolError):
    """An action that is not legal in the state it is applied to."""


class UnreadableStateError(ProtocolError):
    """MATCHSTATE lines from the dealer that do not parse under our game (its first state, or
    several in a row): we cannot tell whether it is our turn, so playing on could leave the
    dealer waiting for us."""


class NotADealerError(ProtocolError):
    """The other side's first line is neither a comment nor a MATCHSTATE line: it does not speak
    the ACPC protocol."""


class MatchError(GamblerError):
    """A connection or a match that cannot go on; the message says why."""


class ConnectionClosed(MatchError):
    """The other side closed the connection (end of stream)."""


class LineTimeout(MatchError):
    """No complete line arrived in time."""


class MatchFailed(MatchError):
    """The dealer's match cannot go on (timeout, disconnect, bad version, a port in use)."""
