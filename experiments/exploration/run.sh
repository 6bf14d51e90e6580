#!/bin/sh
# Exp3's exploration floor (session 30): the shipped default with exploration 0.005 (x005.yaml),
# with learning rate 0.02 too (x005-eta02.yaml), against default, on the seeds the budget arms
# were chosen on (docs/experiments.md, "What the counters' LBR cost is made of"), one job at a
# time, each result written to results/ as it ends (one already there is not run again;
# session 30 ran the LBR rows only):
#   LBR FCMQT x4, deal seed 21, 20,000 hands (default's: per-hand-cap/results/lbr21-default-FCMQT.json);
#   against session 27's exploiter of the member, 6 matches of 3,000 hands from seed 1400;
#   against default-v2 and price-aware, 12 matches from seed 1300.
# (robust-counter/run.sh plays them.)
# Usage: experiments/exploration/run.sh [ARM...]   (default: x005 x005-eta02)
[ $# -gt 0 ] || set -- x005 x005-eta02
ARMS=$(dirname "$0") exec "$(dirname "$0")/../robust-counter/run.sh" "$@"
