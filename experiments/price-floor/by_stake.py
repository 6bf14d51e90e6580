"""The postflop shortfall against LBR by the stake at the flop: `experiments/realisation/measure.py`'s
quantity (the bot's chips less a check-down's, over the stake T, each player's chips in at the
flop) averaged per seat and per stake band instead of per class, to see whether a raised pot
costs less per stake than a single-raised one (the chart solver charges the same edge per stake).

Usage: python experiments/price-floor/by_stake.py PROFILE "ACTIONS[;ACTIONS...]" DEALS SEED
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "realisation"))
from measure import stake_at_flop  # noqa: E402
from postflop import lbr_chunks  # noqa: E402

BANDS = [100, 150, 250, 400, 700, 1500, 5000, 20000]  # upper ends, chips (big blind 100)


def main(profile: str, actions: str, deals: int, seed: int) -> None:
    totals = np.zeros((2, len(BANDS), 3))  # per seat and band: flops, stakes short, chips short
    for sets in actions.split(";"):
        for deal_set, payoffs, _, traces in lbr_chunks(profile, sets, seed, deals):
            for i in range(len(deal_set)):
                for lbr in range(2):
                    stake = stake_at_flop(traces[i, lbr], 100)
                    if stake == 0 or stake >= 20000:
                        continue
                    bot = 1 - lbr
                    sign = 1 if bot == 0 else -1
                    surplus = sign * (int(payoffs[i, lbr]) - int(deal_set.outcomes[i]) * stake)
                    band = next(k for k, top in enumerate(BANDS) if stake <= top)
                    totals[bot, band] += (1, -surplus / stake, -surplus / 100)
    for seat in range(2):
        print(("big blind", "small blind")[seat])
        low = 0
        for band, top in enumerate(BANDS):
            flops, stakes, big_blinds = totals[seat, band]
            if flops:
                print(f"  stake ({low / 100:g}, {top / 100:g}] BB: {int(flops):6d} flops, "
                      f"shortfall {stakes / flops:+.3f} stakes, {big_blinds / flops:+.2f} BB")
            low = top


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
