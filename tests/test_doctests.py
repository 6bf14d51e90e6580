"""The examples in the evaluator's docstrings are true."""

import doctest

import pytest

import evaluator.cards
import evaluator.hand_rank
import evaluator.ranges
import evaluator.rates


@pytest.mark.parametrize("module", [evaluator.cards, evaluator.hand_rank, evaluator.rates,
                                    evaluator.ranges])
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
