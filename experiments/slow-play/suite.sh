#!/bin/sh
# Each arm against LBR's standard suite on deal seed SEED, 20,000 hands a setting.
# Usage: experiments/slow-play/suite.sh SEED ARM...
set -e
seed=$1; shift
out=$(dirname "$0")/results
mkdir -p "$out"
for arm in "$@"; do
  file="$out/suite$seed-$(basename "$arm" .yaml).json"
  [ -s "$file" ] && continue
  gambler-lbr "$arm" --suite --hands 20000 --seed "$seed" --workers 1 --json > "$file"
done
