#!/bin/sh
# The shipped default with the end_reraise member (default-er95.yaml) against LBR on the deal
# seeds nothing chose it on: FCMQT x4 (the worst setting of every seed since session 26) on seeds
# 30-34 first, then 18, 19 and 22-29 (SEEDS="..." for others), the settings named (default
# FCMQT), 20,000 hands each, one job at a time, each written to results/ as it ends (one already
# there is not run again). default's own figures on the same deals: fresh-s30/results/ (30-34),
# fresh-s29/, fresh-s28/, fresh-s27/ and slow-play/eval/ (18, as p-sp-ftr100-nb).
# Usage: [SEEDS="..."] experiments/end-reraise/s30/portfolio.sh [SETTING...]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
mkdir -p "$out"
for sets in ${*:-FCMQT}; do
  for seed in ${SEEDS:-30 31 32 33 34 18 19 22 23 24 25 26 27 28 29}; do
    file=$out/lbr$seed-default-er95-$sets.json
    [ -s "$file" ] || { gambler-lbr "$here/default-er95.yaml" --actions $sets,$sets,$sets,$sets \
      --hands 20000 --seed $seed --workers 1 --json > "$file.part" && mv "$file.part" "$file"; }
  done
done
