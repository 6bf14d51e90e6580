#!/bin/sh
# counted_loss: 50 on matches nothing chose it on: the shipped default of session 32
# (../guarded-s32/g50.yaml) and the same with counted_loss: 50 (../matches-s33/counted50.yaml)
# against an exploiter (default sizer, which won 3 of the ten matches of seeds 50-59 from the
# session-32 default) over ten matches of 10,000 hands, match seeds SEED.. SEED+9 (default 60,
# which no session had used): the mean with a 95% t interval over the matches and how many each
# lost (`gambler-match --matches`). A result already in results/ is not run again.
# Usage: [SEED=N] [HANDS=H] experiments/counted-s34/held.sh [EXPLOITER...]
set -e
here=$(cd "$(dirname "$0")" && pwd)
seed=${SEED:-60}
hands=${HANDS:-10000}
for exploiter in ${*:-sizer}; do
  for arm in ../guarded-s32/g50 ../matches-s33/counted50; do
    file=$here/results/$(basename $arm)-$(basename "$exploiter" .yaml)-$hands-seeds$seed.json
    [ -s "$file" ] || { gambler-match "$here/$arm.yaml" "$exploiter" --hands "$hands" \
      --seed "$seed" --matches 10 --json > "$file.part" && mv "$file.part" "$file"; }
  done
done
