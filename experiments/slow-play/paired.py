"""Two profiles against LBR on the same deals, paired deal by deal: what LBR wins against each
and the difference (B less A) with its 95% interval over deals, per setting. The same deals
make most of the luck common to both, so the difference is far tighter than either figure.

    python experiments/slow-play/paired.py SEED HANDS A B [SETS...]   (default: the six
        settings of the suite that raise preflop)
"""

import sys

from gambler.bot.strategies import resolve_strategy
from gambler.protocol.gamedef import load_game
from gambler.training.evaluate import score_pairs
from gambler.training.lbr import LbrDeals, run_lbr

RAISING = ("FCPA", "FCHPA", "FCMA", "FCMQT", "FCODXA", "FCMQHTPODXA")


def main(seed: int, hands: int, a: str, b: str, sets: list[str]) -> None:
    game = load_game()
    deals = LbrDeals(seed, hands, keep=True)
    first, second = resolve_strategy(a), resolve_strategy(b)
    print(f"LBR deal seed {seed}, {hands:,} hands a setting; B less A, paired by deal")
    print(f"| LBR's actions | A: `{a}` | B: `{b}` | B − A |")
    print("|---|---|---|---|")
    for letters in sets or RAISING:
        actions = ",".join([letters] * game.num_rounds)
        ra = run_lbr(first, game, hands, seed, actions, deals=deals)
        rb = run_lbr(second, game, hands, seed, actions, deals=deals)
        sa, sb = ra.score, rb.score
        gap = score_pairs(rb.chips.sum(axis=1) - ra.chips.sum(axis=1), game.big_blind)
        print(f"| {letters} ×4 | {sa.mbb_per_hand:+,.0f} ± {sa.ci95_mbb:,.0f} | "
              f"{sb.mbb_per_hand:+,.0f} ± {sb.ci95_mbb:,.0f} | "
              f"{gap.mbb_per_hand:+,.0f} ± {gap.ci95_mbb:,.0f} |", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:])
