#!/bin/sh
# A fresh exploiter search against the shipped `default` at the standard budget (8 minutes on two
# cores, the sizes gambler-exploit takes against a learning portfolio), on seed 104, which no
# search had used; then its exploiter against `default` and against the member alone on 20,000
# hands of match seed 25, which no session had used. Each result is written to results/ as it
# ends, and one already there is not run again.
# Usage: experiments/fresh-s28/search.sh [SEED MATCH_SEED OUT]
#   another search seed, match seed and results folder (fresh-s29/search.sh: 105, 26)
set -e
seed=${1:-104}
match=${2:-25}
out=${3:-$(dirname "$0")/results}
found=$out/exploit-default-seed$seed.yaml
[ -s "$out/exploit-default-seed$seed.json" ] || {
  gambler-exploit default --seed $seed --minutes 8 --workers 2 --json --out "$found" \
    > "$out/exploit-default-seed$seed.json.part"
  mv "$out/exploit-default-seed$seed.json.part" "$out/exploit-default-seed$seed.json"
}
for profile in default default-static; do
  file=$out/x$match-$profile-seed$seed.json
  [ -s "$file" ] && continue
  gambler-match $profile "$found" --hands 20000 --seed $match --json > "$file.part" && mv "$file.part" "$file"
done
