#!/bin/sh
# Guarded counters on the shipped default (session 32): g50.yaml and g75.yaml against the
# exploiters only the counters beat or that kill them (JOB=x: v3-pass1-03 on match seeds 9, 12
# and 13, 10,000 hands; search-default-static-seed102 on match seeds 16-19, 20,000 hands) and
# against LBR FCMQT x4 on deal seed 21 (JOB=lbr; the shipped default's figure is
# ../adjusted-s31/results/lbr21-adj300-FCMQT.json). JOB=held: LBR FCMQT x4 on the held-out deal
# seeds (ARM, default g75). One job at a time, each written to results/ as it ends (one already
# there is not run again).
# Usage: JOB=x|lbr|held [ARMS="g50 g75"] experiments/guarded-s32/run.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
match() {  # ARM OPPONENT SEED HANDS
  file=$out/x$3-$1-$2.json
  [ -s "$file" ] || { gambler-match "$here/$1.yaml" $2 --hands $4 --seed $3 --json \
    > "$file.part" && mv "$file.part" "$file"; }
}
lbr() {  # ARM SEED
  file=$out/lbr$2-$1-FCMQT.json
  [ -s "$file" ] || { gambler-lbr "$here/$1.yaml" --actions FCMQT,FCMQT,FCMQT,FCMQT \
    --hands 20000 --seed $2 --workers 1 --json > "$file.part" && mv "$file.part" "$file"; }
}
arms=${ARMS:-g50 g75}
if [ "$JOB" = lbr ]; then
  for arm in $arms; do lbr $arm 21; done
elif [ "$JOB" = held ]; then
  for seed in 22 23 24 25 26 27 28 29 30 31 32 33 34 18 19; do
    for arm in $arms; do lbr $arm $seed; done
  done
else
  for arm in $arms; do
    for seed in 9 12 13; do match $arm v3-pass1-03 $seed 10000; done
  done
  for arm in $arms; do
    for seed in 16 17 18 19; do match $arm search-default-static-seed102 $seed 20000; done
  done
fi
