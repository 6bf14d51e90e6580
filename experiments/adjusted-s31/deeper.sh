#!/bin/sh
# Deeper adjusted bars (session 31, the choice stage only): adj350.yaml and adj400.yaml (bars at
# 150 and 200 big blinds down) against LBR FCMQT x4 on deal seed 21 (JOB=lbr; the session-30
# default's figure is results/lbr21-default-er95-FCMQT.json) and against the two exploiters only
# the counters beat (JOB=x): search-default-static-seed102 on match seeds 16-19 (20,000 hands)
# and v3-pass1-03 on match seeds 9, 12 and 13 (10,000 hands), where adj300's counters were shut
# out or nearly. JOB=held: adj400 against LBR FCMQT x4 on the held-out deal seeds 22-34, 18 and
# 19 (after its choice-stage figures; compare.py adj400 pairs them). One job at a time, each written to results/ as it ends (one already there is
# not run again).
# Usage: JOB=lbr|x|held experiments/adjusted-s31/deeper.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
match() {  # ARM OPPONENT SEED HANDS
  file=$out/x$3-$1-$2.json
  [ -s "$file" ] || { gambler-match "$here/$1.yaml" $2 --hands $4 --seed $3 --json \
    > "$file.part" && mv "$file.part" "$file"; }
}
if [ "$JOB" = held ]; then
  for seed in 22 23 24 25 26 27 28 29 30 31 32 33 34 18 19; do
    file=$out/lbr$seed-adj400-FCMQT.json
    [ -s "$file" ] || { gambler-lbr "$here/adj400.yaml" --actions FCMQT,FCMQT,FCMQT,FCMQT \
      --hands 20000 --seed $seed --workers 1 --json > "$file.part" && mv "$file.part" "$file"; }
  done
elif [ "$JOB" = lbr ]; then
  for arm in adj350 adj400; do
    file=$out/lbr21-$arm-FCMQT.json
    [ -s "$file" ] || { gambler-lbr "$here/$arm.yaml" --actions FCMQT,FCMQT,FCMQT,FCMQT \
      --hands 20000 --seed 21 --workers 1 --json > "$file.part" && mv "$file.part" "$file"; }
  done
else
  for arm in adj350 adj400; do
    for seed in 9 12 13; do match $arm v3-pass1-03 $seed 10000; done
  done
  for arm in adj350 adj400; do
    for seed in 16 17 18 19; do match $arm search-default-static-seed102 $seed 20000; done
  done
fi
