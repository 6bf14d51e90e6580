#!/bin/sh
# A fresh exploiter search against the shipped `default` at the standard budget (8 minutes on two
# cores, the sizes gambler-exploit takes against a learning portfolio), on seed 104, which no
# search had used; then its exploiter against `default` and against the member alone on 20,000
# hands of match seed 25, which no session had used. Each result is written to results/ as it
# ends, and one already there is not run again.
# Usage: experiments/fresh-s28/search.sh
set -e
out=$(dirname "$0")/results
found=$out/exploit-default-seed104.yaml
[ -s "$out/exploit-default-seed104.json" ] || {
  gambler-exploit default --seed 104 --minutes 8 --workers 2 --json --out "$found" \
    > "$out/exploit-default-seed104.json.part"
  mv "$out/exploit-default-seed104.json.part" "$out/exploit-default-seed104.json"
}
for profile in default default-static; do
  file=$out/x25-$profile-seed104.json
  [ -s "$file" ] && continue
  gambler-match $profile "$found" --hands 20000 --seed 25 --json > "$file.part" && mv "$file.part" "$file"
done
