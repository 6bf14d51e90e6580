#!/bin/sh
# The shipped default (the portfolio) and its member alone against LBR at FCMQT x4, the worst
# setting on every seat measured since session 26, on deal seeds 23 and 24, which no session had
# used: 20,000 hands each, written to results/ as each ends (a figure already there is not run
# again). With lbr22.sh's seed 22 and session 27's seed 19, pooled by pooled.py.
# Usage: experiments/fresh-s28/fcmqt.sh
set -e
out=$(dirname "$0")/results
mkdir -p "$out"
for seed in 23 24; do
  for profile in default default-static; do
    file=$out/lbr$seed-$profile-FCMQT.json
    [ -s "$file" ] && continue
    gambler-lbr $profile --actions FCMQT,FCMQT,FCMQT,FCMQT --hands 20000 --seed $seed --workers 1 --json > "$file.part" && mv "$file.part" "$file"
  done
done
