#!/bin/sh
# Slow play behind default-static: each arm against LBR at the raising settings where LBR wins
# most, on deal seed 21 (the seed the member's keys were chosen on), 20,000 hands a setting.
# Usage: experiments/slow-play/scan.sh [SEED] ARM...   (ARM: a profile path or name)
set -e
seed=$1; shift
out=$(dirname "$0")/results
mkdir -p "$out"
for arm in "$@"; do
  tag=$(basename "$arm" .yaml)
  for sets in FCHPA FCPA FCMQT; do
    file="$out/lbr$seed-$tag-$sets.json"
    [ -s "$file" ] && continue
    gambler-lbr "$arm" --actions $sets,$sets,$sets,$sets --hands 20000 --seed "$seed" --workers 1 --json > "$file"
  done
done
