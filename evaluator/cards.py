"""Cards as text and as integer codes: the only place card input is validated.

A card is written as in the ACPC protocol and in treys: a rank from `23456789TJQKA` followed by a
suit from `cdhs` (`As`, `Td`, `2c`). Its integer code is `rank * 4 + suit` with ranks 2..A = 0..12
and suits c, d, h, s = 0..3, the order the ACPC server uses, so `2c` = 0, `2d` = 1, `As` = 51.

Everything that reaches a numba kernel has passed through `parse_cards` or `validate_codes`;
kernels never check their input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from gambler.errors import GamblerError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52
BOARD_SIZES = (0, 3, 4, 5)  # a hold'em board: preflop, flop, turn, river

# Every accepted spelling of every card: rank and suit in either case.
_CODE_OF = {rank_text + suit_text: rank * 4 + suit
            for rank, rank_char in enumerate(RANKS) for rank_text in {rank_char, rank_char.lower()}
            for suit, suit_char in enumerate(SUITS) for suit_text in {suit_char, suit_char.upper()}}
_CARD_FORMAT = "a card is a rank from 23456789TJQKA and a suit from cdhs, e.g. 'As' or 'Td'"
_SEPARATORS = re.compile(r"[\s,]+")


class CardError(GamblerError, ValueError):
    """Bad input to the evaluator: a card string or card code that is malformed, repeated, or the
    wrong number of cards, or a sample count or seed it cannot use. A `ValueError` too."""


def card_code(text: str) -> int:
    """The code of one two-character card such as `As` (rank case-insensitive, suit too)."""
    code = _CODE_OF.get(text)
    if code is None:
        raise CardError(f"bad card {text!r}: {_CARD_FORMAT}")
    return code


def card_text(code: int) -> str:
    """The two-character name of a card code (`51` -> `As`)."""
    return RANKS[code // 4] + SUITS[code % 4]


def format_cards(codes: Iterable[int]) -> str:
    """Card codes as one string, the ACPC way: `AsKc`."""
    return "".join(card_text(int(code)) for code in codes)


def _tokens(text: str) -> list[str]:
    tokens = []
    for chunk in _SEPARATORS.split(text.strip()):
        if not chunk:
            continue
        if "10" in chunk:
            raise CardError(f"bad card '10' in {text!r}: write a ten as T ({_CARD_FORMAT})")
        if len(chunk) % 2:
            # Name the piece that does not pair up: the first bad two-character token, or the tail.
            for start in range(0, len(chunk) - 1, 2):
                card_code(chunk[start:start + 2])
            raise CardError(f"bad card {chunk[-1]!r} in {text!r}: {_CARD_FORMAT}")
        tokens.extend(chunk[i:i + 2] for i in range(0, len(chunk), 2))
    return tokens


def parse_cards(text: str, count: int | Iterable[int] | None = None) -> np.ndarray:
    """Cards from text (`"AsKc"`, `"As Kc"` or `"As,Kc"`) as a uint8 array of codes.

    `count` is the number of cards required (an int, or the allowed numbers); a wrong count, a
    malformed token or a repeated card raises `CardError` (a `ValueError`) naming the token.

    >>> parse_cards("AsKc").tolist()
    [51, 44]
    >>> parse_cards("")
    array([], dtype=uint8)
    """
    if not isinstance(text, str):
        raise CardError(f"cards must be a string such as 'AsKc', not {type(text).__name__}")
    try:  # the common case, compact text such as "AsKc", without the tokenizer
        codes = [_CODE_OF[text[i:i + 2]] for i in range(0, len(text), 2)]
    except KeyError:
        codes = [card_code(token) for token in _tokens(text)]
    return _checked(codes, count, repr(text))


def validate_codes(codes: Iterable[int], count: int | Iterable[int] | None = None,
                   what: str = "cards") -> np.ndarray:
    """Card codes checked to be integers in 0..51, distinct, and `count` of them (if given)."""
    values = []
    for code in codes:
        if isinstance(code, (bool, np.bool_)) or not isinstance(code, (int, np.integer)):
            raise CardError(f"bad card code {code!r} in {what}: codes are integers 0..51")
        if not 0 <= code < DECK_SIZE:
            raise CardError(f"bad card code {int(code)} in {what}: codes are integers 0..51")
        values.append(int(code))
    return _checked(values, count, what)


def _checked(values: list[int], count, what: str) -> np.ndarray:
    """Valid codes as an array, once they are known to be distinct and as many as required."""
    if len(set(values)) != len(values):
        seen: set[int] = set()
        for code in values:
            if code in seen:
                raise CardError(f"card {card_text(code)} appears twice in {what}")
            seen.add(code)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(values) not in allowed:
            wanted = " or ".join(map(str, allowed))
            raise CardError(f"{what} has {len(values)} cards, expected {wanted}")
    return np.array(values, dtype=np.uint8)


def as_cards(cards: str | Iterable[int] | np.ndarray, count: int | Iterable[int] | None = None,
             what: str = "cards") -> np.ndarray:
    """Either a card string or a sequence of codes, validated, as a uint8 array."""
    if isinstance(cards, str):
        return parse_cards(cards, count=count)
    if isinstance(cards, np.ndarray):
        if cards.dtype == np.uint8 and cards.ndim == 1:
            _checked_list(cards.tolist(), count, what)  # already codes: range-check and keep
            return cards
        cards = cards.tolist()
    return validate_codes(cards, count=count, what=what)


def _checked_list(values: list[int], count, what: str) -> None:
    for code in values:
        if code >= DECK_SIZE:
            raise CardError(f"bad card code {code} in {what}: codes are integers 0..51")
    _checked(values, count, what)
