#!/bin/sh
# More than one chance (`chances: N`) against an exploiter over ten matches of 10,000 hands,
# match seeds SEED .. SEED+9 (default 60: where session 34 found the shipped default losing 7 of
# 10 to sizer): the mean with a 95% t interval over the matches and how many each lost
# (`gambler-match --matches`). Arms: chances2 and chances3 here (the shipped file of session 34
# is ../matches-s33/counted50.yaml, its seeds-60 result in ../counted-s34/results). A result
# already in results/ is not run again.
# Usage: [SEED=N] [HANDS=H] [ARMS="chances2 chances3"] experiments/chances-s35/held.sh [EXPLOITER...]
set -e
here=$(cd "$(dirname "$0")" && pwd)
seed=${SEED:-60}
hands=${HANDS:-10000}
for exploiter in ${*:-sizer}; do
  for arm in ${ARMS:-chances2 chances3}; do
    file=$here/results/$(basename $arm)-$(basename "$exploiter" .yaml)-$hands-seeds$seed.json
    [ -s "$file" ] || { gambler-match "$here/$arm.yaml" "$exploiter" --hands "$hands" \
      --seed "$seed" --matches 10 --json > "$file.part" && mv "$file.part" "$file"; }
  done
done
