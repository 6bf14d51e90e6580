"""Whether two opponents play alike: each against the same profiles on the same duplicate deals
(the fast engine), and whether every deal's chips agree.

    python experiments/matches-s33/same_play.py shover \
        experiments/guarded-s32/results/exploit-g50-seed109.yaml [DEALS] [SEED]

(the seed-109 search's exploiter is `shover` in other words: three facing rules that say the
same thing, one more preflop rule that does too.)
"""

import sys

import numpy as np

from gambler.protocol.gamedef import load_game
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules, encode_strategy
from gambler.training.evaluate import Backend
from gambler.training.match_cli import resolve

PROFILES = ("default-static", "default-v2", "price-aware", "seed")


def main(first: str, second: str, deals: str = "10000", seed: str = "30") -> None:
    game = load_game()
    deal_set, path = cached_deal_set(int(seed), 0, int(deals))
    backend = Backend(workers=1)
    for profile in PROFILES:
        chips = [backend.run(deal_set, str(path), encode_rules(game),
                             [(*encode_strategy(resolve(profile)),
                               *encode_strategy(resolve(opponent)))], int(seed))[0].raw
                 for opponent in (first, second)]
        same = np.array_equal(*chips)
        print(f"{profile} against each, {int(deals):,} deals of seed {seed}: "
              f"{'the same chips on every deal' if same else 'different'} "
              f"({chips[0].sum() / game.big_blind:+,.1f} and "
              f"{chips[1].sum() / game.big_blind:+,.1f} big blinds)")


if __name__ == "__main__":
    main(*sys.argv[1:])
