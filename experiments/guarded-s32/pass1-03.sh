#!/bin/sh
# v3-pass1-03 against the guarded default (g50.yaml) on the match seeds 10, 11, 14 and 15 that
# session 31 played (../adjusted-s31/pass1-03.sh; 9, 12 and 13 are run.sh's), 10,000 hands each
# (`gambler-match ARM v3-pass1-03 --hands 10000 --seed S`), one job at a time, each written to
# results/ as it ends (one already there is not run again).
# Usage: experiments/guarded-s32/pass1-03.sh [SEED...]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
for seed in ${*:-10 11 14 15}; do
  file=$out/x$seed-g50-v3-pass1-03.json
  [ -s "$file" ] || { gambler-match "$here/g50.yaml" v3-pass1-03 --hands 10000 --seed $seed --json \
    > "$file.part" && mv "$file.part" "$file"; }
done
