#!/bin/sh
# Exp3's exploration floor (session 30): the shipped default with exploration 0.005 (x005.yaml),
# with learning rate 0.02 too (x005-eta02.yaml), or exploration 0.002 and learning rate 0.02
# (x002-eta02.yaml), against default, on the seeds the budget arms were chosen on
# (docs/experiments.md, "Exp3's floor"), one job at a time, each result written to results/ as it
# ends (one already there is not run again):
#   LBR FCMQT x4, deal seed 21, 20,000 hands (default's: per-hand-cap/results/lbr21-default-FCMQT.json);
#   against session 27's exploiter of the member, 6 matches of 3,000 hands from seed 1400;
#   against default-v2 and price-aware, 12 matches from seed 1300.
# Usage: experiments/exploration/run.sh [ARM...]   (default: x005 x005-eta02)
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
arms=${*:-x005 x005-eta02}
for arm in $arms; do
  file=$out/lbr21-$arm-FCMQT.json
  [ -s "$file" ] || { gambler-lbr "$here/$arm.yaml" --actions FCMQT,FCMQT,FCMQT,FCMQT --hands 20000 \
    --seed 21 --workers 1 --json > "$file.part" && mv "$file.part" "$file"; }
done
list=default
for arm in $arms; do list=$list,$here/$arm.yaml; done
budget=$here/../range-defence/budget
[ -s "$out/arms-x102.json" ] || python "$budget/arms.py" $list \
  "$here/../exploit/default-static-s27-seed102.yaml" 1400 6 "$out/arms-x102.json" > "$out/arms-x102.txt"
[ -s "$out/arms-1300.json" ] || python "$budget/arms.py" $list default-v2,price-aware 1300 12 \
  "$out/arms-1300.json" > "$out/arms-1300.txt"
