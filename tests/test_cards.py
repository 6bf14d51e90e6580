import numpy as np
import pytest
from hypothesis import given, strategies as st

from gambler.evaluator.cards import CardError, card_text, format_cards, parse_cards, validate_codes


def test_codes_follow_the_acpc_order():
    assert parse_cards("2c2d2h2s3c").tolist() == [0, 1, 2, 3, 4]
    assert parse_cards("AsKc").tolist() == [51, 44]
    assert parse_cards("Td").tolist() == [8 * 4 + 1]
    assert [card_text(code) for code in (0, 3, 51)] == ["2c", "2s", "As"]


def test_parse_accepts_separators_and_any_case():
    assert parse_cards("As Kc,qh").tolist() == parse_cards("AsKcQh").tolist()
    assert parse_cards("").dtype == np.uint8


@pytest.mark.parametrize("text, token", [
    ("10hAs", "'10'"), ("AsXc", "'Xc'"), ("Asz", "'z'"), ("AsKx", "'Kx'"), ("A", "'A'"),
])
def test_bad_tokens_are_named(text, token):
    with pytest.raises(CardError, match=token):
        parse_cards(text)


def test_duplicates_and_counts_are_refused():
    with pytest.raises(CardError, match="As appears twice"):
        parse_cards("AsKcAs")
    with pytest.raises(CardError, match="has 3 cards, expected 2"):
        parse_cards("AsKcQh", count=2)
    with pytest.raises(CardError, match="expected 0 or 3"):
        parse_cards("AsKc", count=(0, 3))
    with pytest.raises(ValueError):  # CardError is a ValueError
        parse_cards("Ks Ks")


def test_codes_are_validated():
    assert validate_codes([0, 51]).tolist() == [0, 51]
    for bad in ([52], [-1], [1.5], [True]):
        with pytest.raises(CardError, match="bad card code"):
            validate_codes(bad)


@given(st.permutations(range(52)), st.integers(0, 52))
def test_format_and_parse_round_trip(deck, count):
    codes = deck[:count]
    assert parse_cards(format_cards(codes)).tolist() == list(codes)


def test_card_errors_are_the_layers_gambler_error():
    """The CLIs print any GamblerError as one line; callers that catch ValueError still work."""
    from gambler.errors import GamblerError

    with pytest.raises(GamblerError, match="bad card 'Kx'"):
        parse_cards("As Kx")
    assert issubclass(CardError, ValueError)
