#!/bin/sh
# LBR FCMQT x4 (20,000 hands per deal seed) against an arm of this folder (default chances2),
# to pair with the session-34 default's figures on the same deals
# (../matches-s33/results/lbr$SEED-counted50-FCMQT.json). Seed 21 chooses; 18, 19 and 22-34 are
# held out. A result already in results/ is not run again.
# Usage: [SEEDS="21"] experiments/chances-s35/lbr.sh [ARM]
set -e
here=$(cd "$(dirname "$0")" && pwd)
arm=${1:-chances2}
for seed in ${SEEDS:-21}; do
  file=$here/results/lbr$seed-$arm-FCMQT.json
  [ -s "$file" ] || { gambler-lbr "$here/$arm.yaml" --actions FCMQT,FCMQT,FCMQT,FCMQT \
    --hands 20000 --seed $seed --workers 1 --json > "$file.part" && mv "$file.part" "$file"; }
done
