"""The root of every error gambler raises on bad input.

Each layer has one exception type of its own (`evaluator.CardError`, `protocol.ProtocolError`,
...), all derived from `GamblerError`, so that a command-line front end can turn any of them into
a one-line message and a non-zero exit while a genuine bug still shows its traceback.
"""


class GamblerError(Exception):
    """Bad input: a card, a file, a protocol line or an option that cannot be used as given."""
