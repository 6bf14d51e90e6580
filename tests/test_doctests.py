"""The examples in the docstrings are true (every module that has them)."""

import doctest

import pytest

from gambler.bot import portfolio
from gambler.evaluator import cards, hand_rank, matchups, ranges, rates
from gambler.training import anneal, evaluate, exploit_cli, plot


@pytest.mark.parametrize("module", [cards, hand_rank, matchups, rates, ranges, anneal, plot,
                                    exploit_cli, evaluate, portfolio])
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
