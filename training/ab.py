"""A paired A/B of two profiles: A - B against each opponent on the same deals, and in what a
local best response wins against each on the same LBR deals.

    python -m gambler.training.ab experiments/v2-ingredients/pass1-full.yaml experiments/v2-ingredients/pass1-price-off.yaml
    python -m gambler.training.ab default A.yaml --seed 7 --hands 100000 --lbr-seed 1 --lbr-hands 20000

Both profiles play the same duplicate deals against each opponent, so the difference is taken
deal by deal (all-in adjusted chips) and its interval is that of the per-deal differences, far
narrower than the two separate intervals would suggest. LBR plays both on the same deals too.
Prints one line per opponent, then LBR; `--json` gives {"a", "b", "seed", "hands", "lbr_seed",
"lbr_hands", "opponents": {name: {"mbb_per_hand", "ci95_mbb"}}, "lbr": {"a", "b",
"difference"}}.
"""

from __future__ import annotations

import argparse
import json
import sys

from gambler.training.search import OPPONENTS  # the fixed opponents: profiles, exploiters, baselines
from gambler.training.search import seed_argument

#: The engine's seed for mixed play and the random baseline (gambler-match uses the deal seed
#: instead, so rows of mixed profiles or `random` differ from its differences by that luck).
ENGINE_SEED = 1


def paired_ab(a_spec: str, b_spec: str, opponents=OPPONENTS, seed: int = 7,
              hands: int = 100000, lbr_seed: int = 1, lbr_hands: int = 20000) -> dict:
    """The A/B's numbers (the module docstring's JSON)."""
    from gambler.protocol import load_game
    from gambler.training.deals import cached_deal_set
    from gambler.training.engine import encode_rules, encode_strategy
    from gambler.training.evaluate import Backend, score_pairs
    from gambler.training.lbr import run_lbr
    from gambler.training.match_cli import resolve

    game = load_game()
    a, b = resolve(a_spec), resolve(b_spec)
    deals, path = cached_deal_set(seed, 0, (hands + 1) // 2)
    result = {"a": a_spec, "b": b_spec, "seed": seed, "hands": 2 * len(deals),
              "lbr_seed": lbr_seed, "lbr_hands": lbr_hands, "opponents": {}}
    encoded = [encode_strategy(resolve(name)) for name in opponents]
    pairs = [(*encode_strategy(first), *opponent) for first in (a, b) for opponent in encoded]
    chips = Backend().run(deals, str(path), encode_rules(game), pairs, ENGINE_SEED)
    count = len(encoded)
    for name, with_a, with_b in zip(opponents, chips[:count], chips[count:]):
        score = score_pairs(with_a.adjusted - with_b.adjusted, game.big_blind)
        result["opponents"][name] = {"mbb_per_hand": score.mbb_per_hand,
                                     "ci95_mbb": score.ci95_mbb}
    if lbr_hands:
        against_a = run_lbr(a, game, lbr_hands, lbr_seed)
        against_b = run_lbr(b, game, lbr_hands, lbr_seed)
        difference = score_pairs(against_a.chips.sum(axis=1) - against_b.chips.sum(axis=1),
                                 game.big_blind)
        result["lbr"] = {"a": against_a.score.mbb_per_hand, "b": against_b.score.mbb_per_hand,
                         "difference": {"mbb_per_hand": difference.mbb_per_hand,
                                        "ci95_mbb": difference.ci95_mbb}}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--seed", type=seed_argument, default=7, help="deal seed (default 7)")
    parser.add_argument("--hands", type=int, default=100000, help="hands (default 100,000)")
    parser.add_argument("--lbr-seed", type=seed_argument, default=1,
                        help="LBR deal seed (default 1)")
    parser.add_argument("--lbr-hands", type=int, default=20000,
                        help="LBR hands (default 20,000; 0: no LBR)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    options = parser.parse_args(argv)
    result = paired_ab(options.a, options.b, seed=options.seed, hands=options.hands,
                       lbr_seed=options.lbr_seed, lbr_hands=options.lbr_hands)
    if options.json:
        print(json.dumps(result))
        return 0
    print(f"A = {options.a}, B = {options.b}: A - B in mbb/hand (95% CI), all-in adjusted, "
          f"{result['hands']:,} hands of deal seed {options.seed}")
    for name, score in result["opponents"].items():
        print(f"  vs {name:11s} {score['mbb_per_hand']:+10.1f} ± {score['ci95_mbb']:.1f}")
    if "lbr" in result:
        lbr = result["lbr"]
        print(f"  LBR wins      {lbr['difference']['mbb_per_hand']:+10.1f} ± "
              f"{lbr['difference']['ci95_mbb']:.1f} more against A (A {lbr['a']:+.1f}, "
              f"B {lbr['b']:+.1f}; {options.lbr_hands:,} hands of LBR seed {options.lbr_seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
