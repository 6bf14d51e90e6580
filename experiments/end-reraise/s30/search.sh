#!/bin/sh
# A fresh exploiter search against the end_reraise default (default-er95.yaml) at the standard
# budget (8 minutes on two cores), seed 106, which no search had used; then its exploiter against
# the arm and its member on 20,000 hands of match seed 27, which no session had used. Each result
# is written to results/ as it ends (one already there is not run again).
# Usage: experiments/end-reraise/s30/search.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
found=$out/exploit-default-er95-seed106.yaml
[ -s "$out/exploit-default-er95-seed106.json" ] || {
  gambler-exploit "$here/default-er95.yaml" --seed 106 --minutes 8 --workers 2 --json \
    --out "$found" > "$out/exploit-default-er95-seed106.json.part"
  mv "$out/exploit-default-er95-seed106.json.part" "$out/exploit-default-er95-seed106.json"
}
for profile in default-er95 static-s26-er95; do
  file=$out/x27-$profile-seed106.json
  [ -s "$file" ] || { gambler-match "$here/$profile.yaml" "$found" --hands 20000 --seed 27 \
    --json > "$file.part" && mv "$file.part" "$file"; }
done
