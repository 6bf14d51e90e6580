"""LBR against a portfolio: what the portfolio's machinery costs LBR's hands.

    python benchmarks/bench_lbr_portfolio.py [--deals 500] [--actions FCPA,FCPA,FCPA,FCPA]
        [--repeats 3] [--seed 11]

On `--deals` duplicate deals of `--seed` (the first of a match), in one process after a warm-up,
the median of `--repeats` runs each:

* the peer, measured in the same run: the fixed-strategy LBR against `price-aware` alone
  (`training.lbr.run_lbr`, one thread), what LBR's hands cost by themselves;
* LBR told the member against the shipped `adaptive` (`training.lbr_portfolio.play_lbr_match`:
  the Exp3 draw, the other slot's replay once the model plays, the refreshes' counter searches
  at hands 500, 1,000, ...).
"""

from __future__ import annotations

import argparse

from machine import machine_line, median_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--actions", default="FCPA,FCPA,FCPA,FCPA")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    options = parser.parse_args()

    import numba

    from gambler.bot.portfolio import load_portfolio
    from gambler.bot.strategies import resolve_strategy
    from gambler.protocol.gamedef import load_game
    from gambler.training.lbr import LbrDeals, run_lbr
    from gambler.training.lbr_portfolio import _context, play_lbr_match

    game = load_game()
    hands = 2 * options.deals
    deals = LbrDeals(options.seed, hands, keep=True)
    member = resolve_strategy("price-aware")
    adaptive = load_portfolio("adaptive")
    context = _context(game, options.actions)

    def peer():
        run_lbr(member, game, hands, options.seed, options.actions, threads=1, deals=deals)

    def portfolio():
        play_lbr_match(adaptive, game, deals, 0, options.deals, options.seed, options.actions,
                       context)

    rows = [("LBR against `price-aware` alone (the peer)", median_seconds(peer, options.repeats)),
            ("LBR told the member against `adaptive`", median_seconds(portfolio,
                                                                       options.repeats))]
    print(machine_line() + f"; numba {numba.__version__}")
    print(f"{hands:,} hands ({options.deals:,} duplicate deals of seed {options.seed}), LBR's "
          f"actions {options.actions}, median of {options.repeats}")
    print()
    print("| what | seconds | ms a hand | ratio to the peer |")
    print("|---|---|---|---|")
    base = rows[0][1]
    for label, seconds in rows:
        print(f"| {label} | {seconds:.2f} | {1000 * seconds / hands:.2f} | "
              f"{seconds / base:,.1f}x |")


if __name__ == "__main__":
    main()
