#!/bin/sh
# The arm counted100.yaml (the shipped default with counted_loss: 100) on the matches where the
# shipped default's counters died: shover on match seeds 30, 34 and 37 (20,000 hands), sizer on
# 52, 56 and 59 and the seed-102 exploiter on 58 (10,000 hands, as `--matches` played them);
# then LBR FCMQT x4 on deal seed 21 (the choice seed of sessions 30-32). A result already in
# results/ is not run again.
# Usage: experiments/matches-s33/counted.sh [ARM]
set -e
here=$(cd "$(dirname "$0")" && pwd)
arm=${1:-counted100}
out=$here/results
run() {  # FILE, then the command
  file=$1; shift
  [ -s "$file" ] || { "$@" > "$file.part" && mv "$file.part" "$file"; }
}
for seed in 30 34 37; do
  run "$out/x$seed-$arm-shover.json" gambler-match "$here/$arm.yaml" shover --hands 20000 \
    --seed $seed --json
done
for pair in sizer:52 sizer:56 sizer:59 search-default-static-seed102:58; do
  exploiter=${pair%:*}; seed=${pair#*:}
  run "$out/x$seed-$arm-$exploiter.json" gambler-match "$here/$arm.yaml" "$exploiter" \
    --hands 10000 --seed $seed --json
done
run "$out/lbr21-$arm-FCMQT.json" gambler-lbr "$here/$arm.yaml" --actions FCMQT,FCMQT,FCMQT,FCMQT \
  --hands 20000 --seed 21 --workers 2 --json
