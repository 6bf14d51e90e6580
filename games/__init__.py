"""The games lab: small game-theory solvers beside the poker bot, each checked against an exact
value or an independent computation. From the rest of gambler it uses only the shared error
root, the numba set-up, the evaluator's seeded random streams (MCCFR) and the CLI plumbing.

    tree.py (flat game trees) + poker_trees.py (Kuhn, Leduc) ─► cfr.py (CFR, CFR+, DCFR, MCCFR,
    exact best responses) ─► analysis.py (policies by information set, Kuhn's equilibrium family)
    bimatrix.py   Lemke-Howson on bimatrix games; Kuhn poker with loss-averse players
    onecard.py    one-card poker: a genetic algorithm, its exact solution by lp.py (simplex)
    regret.py     regret matching on zero-sum matrix games (rock-paper-scissors, files)
    nim.py        misère Nim: an optimal player and an evolution strategy
    cli.py        `gambler-games`, a thin front end: options in, library calls, lines out

Bad arguments raise `errors.GameError` (a `GamblerError` and a `ValueError`) naming the bad
value; a solver without an answer raises `errors.SolverError` (a `GamblerError` and an
`ArithmeticError`).
"""
