#!/bin/sh
# The shipped default (and its member alone) against the exploiters its member alone does not
# beat (match seed 9: shover, catcher, sizer, the seed-82 and seed-102 searches), each over
# ten matches of 10,000 hands, match seeds 50-59 (which no session had used): the mean with a
# 95% t interval over the matches, and how many the default lost (`gambler-match --matches`).
# A result already in results/ is not run again.
# Usage: experiments/matches-s33/run.sh [PROFILE] [EXPLOITER...]
set -e
here=$(cd "$(dirname "$0")" && pwd)
profile=${1:-default}
[ $# -gt 0 ] && shift
exploiters=${*:-shover catcher sizer search-default-static-seed82 search-default-static-seed102}
for exploiter in $exploiters; do
  file=$here/results/$(basename "$profile" .yaml)-$(basename "$exploiter" .yaml)-seeds50-59.json
  [ -s "$file" ] || { gambler-match "$profile" "$exploiter" --hands 10000 --seed 50 \
    --matches 10 --json > "$file.part" && mv "$file.part" "$file"; }
done
