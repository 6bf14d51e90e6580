#!/bin/sh
# The exploiter session 27's search found against the member (configs/exploiters/
# search-default-static-seed102.yaml), which only the counters beat, against the default before
# (experiments/slow-play/p-sp-ftr100-nb.yaml) and the end_reraise arm on match seeds 14-19,
# 20,000 hands each (`gambler-match ARM search-default-static-seed102 --hands 20000 --seed S`),
# one job at a time, each written to results/ as it ends (one already there is not run again).
# Usage: experiments/end-reraise/s30/x102.sh [SEED...]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
root=$here/../../..
for seed in ${*:-14 15 16 17 18 19}; do
  for arm in "$root/experiments/slow-play/p-sp-ftr100-nb.yaml" "$here/default-er95.yaml"; do
    file=$out/x$seed-$(basename "$arm" .yaml)-search-default-static-seed102.json
    [ -s "$file" ] || { gambler-match "$arm" search-default-static-seed102 --hands 20000 \
      --seed $seed --json > "$file.part" && mv "$file.part" "$file"; }
  done
done
