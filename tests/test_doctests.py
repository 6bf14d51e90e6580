"""The examples in the evaluator's docstrings are true."""

import doctest

import pytest

from gambler.evaluator import cards, hand_rank, ranges, rates


@pytest.mark.parametrize("module", [cards, hand_rank, rates, ranges])
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
