"""The small blind's flops against LBR's lead: the hands where the bot (small blind) limped, LBR
(big blind) raised, the bot called and LBR bet the flop first. Counts by the bet's size (to the
nearest quarter pot) and the bot's answer, and the classes it folded.

Usage: python experiments/price-floor/donk_folds.py PROFILE [ACTIONS [DEALS [SEED]]]
"""

import collections
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "realisation"))
sys.path.insert(0, str(HERE.parent / "range-defence"))
from lines import full_line  # noqa: E402
from postflop import lbr_chunks  # noqa: E402

from gambler.evaluator.preflop import class_indices, class_name  # noqa: E402

LEAD = re.compile(r"^Bc Lr([0-9.]+) Bc \| Lr([0-9.]+) B(.)")


def main(profile: str, actions: str = "FCMQT,FCMQT,FCMQT,FCMQT", deals: int = 2000,
         seed: int = 21) -> None:
    answers, folded = collections.Counter(), collections.Counter()
    for deal_set, _, _, traces in lbr_chunks(profile, actions, seed, deals):
        classes = class_indices(deal_set.holes.reshape(-1, 2)).reshape(len(deal_set), 2)
        for i in range(len(deal_set)):
            match = LEAD.match(full_line(traces[i, 0], 0, "LB", 100))  # LBR the big blind
            if not match:
                continue
            stake, bet, answer = float(match.group(1)), float(match.group(2)), match.group(3)
            pots = round((bet - stake) / (2 * stake) * 4) / 4
            answers[(pots, answer)] += 1
            if answer == "f":
                folded[class_name(int(classes[i, 1]))] += 1
    print(f"{profile} as the small blind, LBR at {actions} leading the flop after raising its "
          f"limp ({deals:,} deals of seed {seed}): {sum(answers.values())} flops")
    for (pots, answer), count in sorted(answers.items()):
        print(f"  a bet of {pots:g} pots, the bot {dict(f='folds', c='calls', r='raises')[answer]}:"
              f" {count}")
    print("  folded:", ", ".join(f"{name} {count}" for name, count in folded.most_common()))


if __name__ == "__main__":
    main(sys.argv[1], *(sys.argv[2:3]), *(int(word) for word in sys.argv[3:5]))
