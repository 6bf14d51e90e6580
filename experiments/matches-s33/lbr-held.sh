#!/bin/sh
# LBR FCMQT x4 against an arm (default counted100) on held-out deal seeds (default 18 19 22 23
# 24; 20,000 hands each), to pair with the shipped default's figures on the same deals
# (experiments/guarded-s32/results/lbr$SEED-g50-FCMQT.json). A result already in results/ is
# not run again.
# Usage: [SEEDS="18 19"] experiments/matches-s33/lbr-held.sh [ARM]
set -e
here=$(cd "$(dirname "$0")" && pwd)
arm=${1:-counted100}
for seed in ${SEEDS:-18 19 22 23 24}; do
  file=$here/results/lbr$seed-$arm-FCMQT.json
  [ -s "$file" ] || { gambler-lbr "$here/$arm.yaml" --actions FCMQT,FCMQT,FCMQT,FCMQT \
    --hands 20000 --seed $seed --workers 1 --json > "$file.part" && mv "$file.part" "$file"; }
done
