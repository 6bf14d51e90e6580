"""A scan of range defence's a and range bets' (value, size) on a start profile: LBR at a few
settings on deal seed 21 (the scan's own; the suites in eval/ use seed 11), one JSON line per
(variant, setting) appended to the output as it arrives, so an interrupted scan keeps its rows.

    python experiments/range-defence/scan.py START OUT.jsonl --hands 6000 \
        --defence 0.6,0.8,1.3,1.6 [--bet 0.2:0.5,0.3:1.0] [--rounds flop,turn,river] \
        [--settings FCPA,FCPA,FCPA,FCPA/FCHPA,FCHPA,FCHPA,FCHPA] [--keep z,0.7]

Each variant sets `range_defence: a` (and `range_bet: [value, size]` when --bet is given, and
`range_defence_keep: k` when --keep is given, `z` meaning each round's own z) in the rounds
named, on the start profile's numbers; `version` becomes 5.
"""

import argparse
import json
from dataclasses import replace

from gambler.bot.params import ROUNDS, load_profile
from gambler.protocol.gamedef import load_game
from gambler.training.lbr import LbrDeals, run_lbr

SETTINGS = ("C,C,FCPA,FCPA", "C,FCPA,FCPA,FCPA", "FCMA,FCMA,FCMA,FCMA",
            "FCMQT,FCMQT,FCMQT,FCMQT", "FCODXA,FCODXA,FCODXA,FCODXA")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("start")
    parser.add_argument("out")
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--defence", default="1.0")
    parser.add_argument("--bet", default="")
    parser.add_argument("--rounds", default="flop,turn,river")
    parser.add_argument("--keep", default="", help="range_defence_keep values; z: the round's z")
    parser.add_argument("--settings", default="/".join(SETTINGS),
                        help="LBR settings separated by '/' (default: the five above)")
    arguments = parser.parse_args()
    start = load_profile(arguments.start)
    rounds = [ROUNDS.index(name) for name in arguments.rounds.split(",")]
    bets = [tuple(map(float, pair.split(":"))) for pair in arguments.bet.split(",") if pair] \
        or [None]
    game = load_game()
    deals = LbrDeals(arguments.seed, arguments.hands, keep=True)
    keeps = [keep for keep in arguments.keep.split(",") if keep] or [None]
    for defence, bet, keep in ((d, b, k) for d in map(float, arguments.defence.split(","))
                               for b in bets for k in keeps):
        numbers = list(start.rounds)
        for r in rounds:
            numbers[r] = replace(numbers[r], range_defence=defence,
                                 range_bet=bet if bet is not None else numbers[r].range_bet)
            if keep is not None:
                numbers[r] = replace(numbers[r], range_defence_keep=(
                    numbers[r].thresholds[2] if keep == "z" else float(keep)))
        profile = replace(start, rounds=tuple(numbers), version=5)
        for actions in arguments.settings.split("/"):
            result = run_lbr(profile, game, arguments.hands, arguments.seed, actions,
                             deals=deals)
            score = result.score
            row = {"start": arguments.start, "defence": defence, "bet": bet, "keep": keep,
                   "rounds": arguments.rounds, "actions": actions, "seed": arguments.seed,
                   "hands": score.hands, "mbb_per_hand": round(score.mbb_per_hand, 1),
                   "ci95_mbb": round(score.ci95_mbb, 1)}
            with open(arguments.out, "a") as out:
                out.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
