"""Monte Carlo CFR for heads-up poker games on an abstraction (`gambler-solve`).

* `solver.betting`: the betting abstraction and its tree of flat arrays.
* `solver.deals`: chance in the abstract game: the deals and each player's bucket per round.
* `solver.mccfr`: the numba kernels: external-sampling MCCFR with discounting, and the exact
  best response on a finite deal distribution.
"""
