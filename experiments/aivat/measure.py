"""AIVAT against the plain and all-in adjusted results, on real-dealer matches.

    python experiments/aivat/measure.py blueprint default --hands 3000 --seed 2200 --pieces 4
    python experiments/aivat/measure.py blueprint blueprint --hands 50000 --seed 2300 --pieces 4

Plays PIECES duplicate matches (`gambler-dealer --duplicate`, seeds SEED, SEED + 1, ...) of
HANDS hands each between KNOWN (player a, whose strategy AIVAT knows: a blueprint or a fixed
profile) and OPPONENT (b, whose strategy it does not use), two at a time, and keeps each dealer log under runs/aivat/ (a piece whose
log exists is not played again: the run resumes). Then scores a's hands by AIVAT
(`training.aivat_holdem`) and prints, per duplicate deal (both seats): the mean with its 95%
interval and the standard deviation per hand of the plain, all-in adjusted and AIVAT results,
the hands each needs for a +-100 mbb/hand interval, and AIVAT - plain with its interval (zero in
expectation: the unbiasedness check).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np

from gambler.bot.strategies import resolve_strategy
from gambler.cli import child_command
from gambler.protocol.gamedef import DEFAULT_GAME, load_game
from gambler.protocol.logs import read_log
from gambler.training.aivat_holdem import score_hands
from gambler.training.luck import adjusted_values


def play(known: str, opponent: str, hands: int, seed: int, folder: Path) -> Path:
    """One dealer match into folder/match-SEED.log (kept: not played again)."""
    match = folder / f"match-{seed}"
    log = match.with_suffix(".log")
    if log.exists():
        return log
    dealer = subprocess.Popen([*child_command("gambler.protocol.dealer_cli"), str(match),
                               DEFAULT_GAME, str(hands), str(seed), "a", "b", "--duplicate",
                               "-q"], stdout=subprocess.PIPE, text=True)
    ports = dealer.stdout.readline().split()
    bots = [subprocess.Popen([*child_command("gambler.adaptive.cli"), "127.0.0.1", port,
                              "--params", spec, "--quiet"])
            for port, spec in zip(ports, (known, opponent))]
    for process in (*bots, dealer):
        if process.wait() != 0:
            raise SystemExit(f"match {seed} failed")
    return log


def per_deal(values: np.ndarray) -> np.ndarray:
    return values.reshape(-1, 2).sum(axis=1)


def summary(name: str, deals: np.ndarray, big_blind: int) -> dict:
    scale = 1000.0 / big_blind / 2
    sd = float(deals.std(ddof=1)) * scale
    return {"figure": name, "mbb_per_hand": float(deals.mean()) * scale,
            "ci95_mbb": 1.96 * sd / math.sqrt(len(deals)), "sd_mbb_per_hand": sd,
            "hands_for_ci100": math.ceil((1.96 * sd / 100) ** 2 * 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("known")
    parser.add_argument("opponent")
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=2200)
    parser.add_argument("--pieces", type=int, default=2)
    parser.add_argument("--out", default="runs/aivat")
    args = parser.parse_args()
    folder = Path(args.out) / f"{args.known}-{args.opponent}"
    folder.mkdir(parents=True, exist_ok=True)
    seeds = list(range(args.seed, args.seed + args.pieces))
    logs = []
    for start in range(0, len(seeds), 2):  # two matches at a time, one per core
        batch = seeds[start:start + 2]
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(len(batch)) as pool:
            logs += list(pool.map(lambda s: play(args.known, args.opponent, args.hands, s,
                                                 folder), batch))
    game = load_game(DEFAULT_GAME)
    strategy = resolve_strategy(args.known)
    plain, adjusted, aivat = [], [], []
    for log in logs:
        scores_file = log.with_suffix(".aivat.npy")
        hands = read_log(game, str(log))
        if scores_file.exists():
            estimates = np.load(scores_file)
        else:
            estimates = score_hands(strategy, hands, "a").estimates
            np.save(scores_file, estimates)
        plain.append(per_deal(np.array([hand.value_of("a") for hand in hands])))
        adjusted.append(per_deal(np.array([adjusted_values(hand)[hand.names.index("a")]
                                           for hand in hands])))
        aivat.append(per_deal(estimates))
    plain, adjusted, aivat = (np.concatenate(x) for x in (plain, adjusted, aivat))
    rows = [summary("plain", plain, game.big_blind),
            summary("all-in adjusted", adjusted, game.big_blind),
            summary("AIVAT", aivat, game.big_blind),
            summary("AIVAT - plain", aivat - plain, game.big_blind)]
    result = {"known": args.known, "opponent": args.opponent,
              "hands": 2 * len(plain), "seeds": seeds, "rows": rows}
    print(json.dumps(result), file=sys.stderr)
    print(f"{args.known} (a, AIVAT knows it) vs {args.opponent}: {2 * len(plain):,} hands, "
          f"seeds {seeds[0]}-{seeds[-1]}")
    for row in rows:
        print(f"  {row['figure']:16} {row['mbb_per_hand']:+9.1f} ± {row['ci95_mbb']:7.1f} "
              f"mbb/hand, sd {row['sd_mbb_per_hand']:8.0f} a hand, "
              f"{row['hands_for_ci100']:>9,} hands for ±100")


if __name__ == "__main__":
    main()
