#!/bin/sh
# A fresh exploiter search against the shipped `default` at the standard budget, with session 29's
# time limit (checked between members, the generation it runs out in dropped): seed 105, which no
# search had used; then its exploiter against `default` and against the member alone on 20,000
# hands of match seed 26, which no match had used. Each result is written to results/ as it ends,
# and one already there is not run again. (fresh-s28/search.sh: seed 104, match seed 25.)
# Usage: experiments/fresh-s29/search.sh
set -e
out=$(dirname "$0")/results
found=$out/exploit-default-seed105.yaml
[ -s "$out/exploit-default-seed105.json" ] || {
  /usr/bin/time -f "%e s wall" gambler-exploit default --seed 105 --minutes 8 --workers 2 --json \
    --out "$found" > "$out/exploit-default-seed105.json.part" 2> "$out/exploit-default-seed105.log"
  mv "$out/exploit-default-seed105.json.part" "$out/exploit-default-seed105.json"
}
for profile in default default-static; do
  file=$out/x26-$profile-seed105.json
  [ -s "$file" ] && continue
  gambler-match $profile "$found" --hands 20000 --seed 26 --json > "$file.part" && mv "$file.part" "$file"
done
