"""A small, fast, explicitly seeded random number generator for kernels: SplitMix64.

numba's `np.random` keeps one hidden state per thread, which makes results depend on how rows are
spread over threads. Kernels here instead carry their own 64-bit state, seeded per row (or per
chunk) from the caller's seed with `stream_seed`, so a batch gives the same numbers with any
number of threads.

SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014,
constants as in Vigna's reference code) passes BigCrush; each draw is an add, three xor-shifts
and two multiplies. A draw in 0..n-1 uses Lemire's multiply-shift on the top 32 bits; for n <= 52
its bias is below 52 / 2**32, far under any Monte Carlo error here.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from gambler.jit import helper, njit

GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


@helper
def mix64(z):
    """SplitMix64's output function: a bijective scramble of a 64-bit word."""
    z = (z ^ (z >> uint64(30))) * _MIX_1
    z = (z ^ (z >> uint64(27))) * _MIX_2
    return z ^ (z >> uint64(31))


@njit
def stream_seed(seed, stream):
    """Starting state of stream number `stream` (a row, a chunk) under a user seed."""
    return mix64(uint64(seed) * GOLDEN_GAMMA + mix64(uint64(stream) + GOLDEN_GAMMA))


@njit
def mixing_uniform(seed, hand, round_, position):
    """A uniform draw in [0, 1) for one player's mixed strategy in one round of one hand: the
    same for the TCP bot and the fast engine, whatever else either draws."""
    state = stream_seed(seed, hand * 8 + round_ * 2 + position) + GOLDEN_GAMMA
    return (mix64(state) >> uint64(11)) * (1.0 / 9007199254740992.0)


#: Salt of the portfolio's stream, so that its draws and the members' mixed play never share one.
_PORTFOLIO_STREAM = np.uint64(0x706F7274666F6C69)  # "portfoli"


@njit
def portfolio_uniform(seed, hand):
    """A uniform draw in [0, 1) that picks a portfolio's member for one hand (`bot.portfolio`):
    the same for the TCP bot and the fast engine."""
    state = stream_seed(uint64(seed) ^ _PORTFOLIO_STREAM, hand) + GOLDEN_GAMMA
    return (mix64(state) >> uint64(11)) * (1.0 / 9007199254740992.0)


#: Salt of the preflop chart's stream (`bot.chart`), apart from mixed play's and the portfolio's.
_CHART_STREAM = np.uint64(0x6368617274706C79)  # "chartply"


@njit
def chart_uniform(seed, hand, decision, position):
    """A uniform draw in [0, 1) for one preflop chart decision: `decision` is the number of
    actions in the round before it (each of a player's decisions has its own). The same for the
    TCP bot and the fast engine."""
    state = stream_seed(uint64(seed) ^ _CHART_STREAM,
                        hand * 128 + decision * 2 + position) + GOLDEN_GAMMA
    return (mix64(state) >> uint64(11)) * (1.0 / 9007199254740992.0)
