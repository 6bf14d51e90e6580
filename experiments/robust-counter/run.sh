#!/bin/sh
# Guarded counters (session 30): the shipped default with model: guards: [default-v2] and a
# guard_weight of 0.5 (guard50.yaml) or 0.75 (guard75.yaml), against default, on the seeds the
# budget arms were chosen on (docs/experiments.md, "What the counters' LBR cost is made of"),
# one job at a time, each result written to results/ as it ends (one already there is not run
# again; session 30 ran the LBR rows only):
#   LBR FCMQT x4, deal seed 21, 20,000 hands (default's: per-hand-cap/results/lbr21-default-FCMQT.json);
#   against session 27's exploiter of the member, 6 matches of 3,000 hands from seed 1400;
#   against default-v2 and price-aware, 12 matches from seed 1300.
# ARMS=FOLDER reads the arms from another folder and writes to its results/ (exploration/run.sh).
# Usage: experiments/robust-counter/run.sh [ARM...]   (default: guard50 guard75)
set -e
here=$(cd "${ARMS:-$(dirname "$0")}" && pwd)
out=$here/results
arms=${*:-guard50 guard75}
for arm in $arms; do
  file=$out/lbr21-$arm-FCMQT.json
  [ -s "$file" ] || { gambler-lbr "$here/$arm.yaml" --actions FCMQT,FCMQT,FCMQT,FCMQT --hands 20000 \
    --seed 21 --workers 1 --json > "$file.part" && mv "$file.part" "$file"; }
done
list=default
for arm in $arms; do list=$list,$here/$arm.yaml; done
experiments=$(cd "$(dirname "$0")/.." && pwd)
budget=$experiments/range-defence/budget
[ -s "$out/arms-x102.json" ] || python "$budget/arms.py" $list \
  "$experiments/exploit/default-static-s27-seed102.yaml" 1400 6 "$out/arms-x102.json" > "$out/arms-x102.txt"
[ -s "$out/arms-1300.json" ] || python "$budget/arms.py" $list default-v2,price-aware 1300 12 \
  "$out/arms-1300.json" > "$out/arms-1300.txt"
