"""gambler: a heads-up no-limit hold'em bot for the ACPC protocol, with the tools to tune it.

This package holds what every other package shares and nothing else: the version, the base
error type, the numba set-up (`gambler.jit`) and the command-line plumbing (`gambler.cli`).
The poker lives in the sibling packages `protocol`, `evaluator`, `bot`, `training` and `games`.
"""

__version__ = "0.1.0"

#: Seeds are 63-bit everywhere (kernels carry them as int64): 0..MAX_SEED.
MAX_SEED = 2**63 - 1
