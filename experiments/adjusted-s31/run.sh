#!/bin/sh
# Session 31: the default of session 30 with an all-in adjusted model account and a smaller allowance
# (adj300.yaml, adj200.yaml). JOB=x: against the seed-102 exploiter (configs/exploiters/
# search-default-static-seed102.yaml), 20,000 hands a match (`gambler-match ARM
# search-default-static-seed102 --hands 20000 --seed S`), the default of session 30 (as
# ../end-reraise/s30/default-er95.yaml, the same bot) and the arms on match seeds 16-19 (choice),
# then the arms on 14 and 15 (the seeds of strength.md's row). JOB=lbr: LBR FCMQT x4, 20,000 hands,
# deal seed 21 (choice; the default of session 30 too, as default-er95), then the arms on
# the held-out deal seeds 22-34 (the default's are in ../end-reraise/s30/results/ and
# ../fresh-s30/). One job at a time, each written to results/ as it ends (one already there is not
# run again). ARMS="..." restricts the arms.
# Usage: JOB=x|lbr experiments/adjusted-s31/run.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
mkdir -p "$out"
arms=${ARMS:-adj300 adj200}
x102() {  # FILE NAME SEED
  file=$out/x$3-$2-search-default-static-seed102.json
  [ -s "$file" ] || { gambler-match "$1" search-default-static-seed102 --hands 20000 --seed $3 \
    --json > "$file.part" && mv "$file.part" "$file"; }
}
lbr() {  # FILE NAME SEED
  file=$out/lbr$3-$2-FCMQT.json
  [ -s "$file" ] || { gambler-lbr "$1" --actions FCMQT,FCMQT,FCMQT,FCMQT --hands 20000 --seed $3 \
    --workers 1 --json > "$file.part" && mv "$file.part" "$file"; }
}
if [ "$JOB" = x ]; then
  for seed in 16 17 18 19; do
    x102 "$here/../end-reraise/s30/default-er95.yaml" default-er95 $seed
    for arm in $arms; do x102 "$here/$arm.yaml" $arm $seed; done
  done
  for seed in 14 15; do
    for arm in $arms; do x102 "$here/$arm.yaml" $arm $seed; done
  done
else
  lbr "$here/../end-reraise/s30/default-er95.yaml" default-er95 21
  for arm in $arms; do lbr "$here/$arm.yaml" $arm 21; done
  for arm in $arms; do
    for seed in 22 23 24 25 26 27 28 29 30 31 32 33 34; do lbr "$here/$arm.yaml" $arm $seed; done
  done
fi
