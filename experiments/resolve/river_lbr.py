"""LBR at C,C,C,FCPA against the re-solving bot and its blueprint on the same deals, paired.

    python experiments/resolve/river_lbr.py --profile resolve --seed 36 --deals 400 \
        [--first 0] [--out runs/resolve/lbr-36-0.npz]

LBR checks or calls before the river and plays F, C, pot and all-in on it
(`training.lbr_resolve`); both bots are dealt the deals first .. first + deals - 1 of LBR's
duplicate deal set `seed`, both seats each. Prints LBR's mbb/hand against each, and against the
difference per deal (resolve - blueprint), with 95% intervals over deals. `--out` keeps the chips
(int64[deals, 2] each) so that pieces run apart can be pooled: `--pool FILE...`.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np


def interval(per_deal: np.ndarray, big_blind: int = 100) -> str:
    """mbb/hand ± the 95% interval, from chips per deal (two hands a deal)."""
    hands = per_deal / 2
    mean = 1000 * hands.mean() / big_blind
    half = 1000 * 1.96 * hands.std(ddof=1) / np.sqrt(len(hands)) / big_blind
    return f"{mean:+,.0f} ± {half:,.0f}"


def report(resolve_chips, blueprint_chips) -> None:
    a, b = resolve_chips.sum(axis=1), blueprint_chips.sum(axis=1)
    print(f"deals: {len(a):,} ({2 * len(a):,} hands)")
    print(f"LBR against resolve:    {interval(a)} mbb/hand")
    print(f"LBR against blueprint:  {interval(b)} mbb/hand")
    print(f"resolve - blueprint:    {interval(a - b)} mbb/hand (paired by deal)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="resolve")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--out")
    parser.add_argument("--pool", nargs="*")
    options = parser.parse_args()
    if options.pool:
        pieces = [np.load(path) for path in options.pool]
        report(np.concatenate([p["resolve"] for p in pieces]),
               np.concatenate([p["blueprint"] for p in pieces]))
        return

    from gambler.bot.resolve import ResolveStrategy, load_resolve
    from gambler.protocol.gamedef import load_game
    from gambler.training.deals import cached_deal_set
    from gambler.training.lbr_resolve import BlueprintRiver, run_river_lbr

    game = load_game()
    resolve = load_resolve(options.profile)
    deals, _ = cached_deal_set(options.seed, 0, options.first + options.deals)
    started = time.perf_counter()
    results = {}
    for name, make in (("blueprint", lambda s: BlueprintRiver(ResolveStrategy(resolve, s))),
                       ("resolve", lambda s: ResolveStrategy(resolve, s))):
        def progress(i, name=name):
            if (i + 1) % 25 == 0:
                print(f"{name}: {i + 1} deals, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
        results[name] = run_river_lbr(make, game, deals, options.seed, "FCPA", progress,
                                      first=options.first)
        if options.out:
            np.savez(options.out, **{k: v for k, v in results.items()})
    report(results["resolve"], results["blueprint"])


if __name__ == "__main__":
    main()
