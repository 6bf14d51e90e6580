#!/bin/sh
# The exploiter v3-pass1-03 (configs/exploiters/), which the adj300 arm only tied on match seed 9
# (+95.0 ± 114.1; the default of session 30 +4,128.7), against the arm, the default before it
# (../end-reraise/s30/default-er95.yaml) and the member alone on match seeds 10-15, 10,000 hands
# each (`gambler-match ARM v3-pass1-03 --hands 10000 --seed S`), one job at a time, each written
# to results/ as it ends (one already there is not run again).
# Usage: experiments/adjusted-s31/pass1-03.sh [SEED...]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
for seed in ${*:-10 11 12 13 14 15}; do
  for arm in "$here/adj300.yaml" "$here/../end-reraise/s30/default-er95.yaml" default-static; do
    file=$out/x$seed-$(basename "$arm" .yaml)-v3-pass1-03.json
    [ -s "$file" ] || { gambler-match "$arm" v3-pass1-03 --hands 10000 --seed $seed --json \
      > "$file.part" && mv "$file.part" "$file"; }
  done
done
