"""gambler: a heads-up no-limit hold'em bot for the ACPC protocol, with the tools to tune it.

Everything installs under this one name: `gambler.protocol`, `gambler.evaluator`, `gambler.bot`,
`gambler.training`, `gambler.games` and the shipped files in `gambler.configs` (in the repository
they are the top-level folders of those names, mapped by pyproject.toml's `package-dir`). This
module holds what they all share and nothing else: the version, the base error type, the numba
set-up (`gambler.jit`) and the command-line plumbing (`gambler.cli`).
"""

__version__ = "1.6.0"

#: Seeds are 63-bit everywhere (kernels carry them as int64): 0..MAX_SEED.
MAX_SEED = 2**63 - 1
