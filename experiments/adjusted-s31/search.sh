#!/bin/sh
# A fresh exploiter search against an arm (ARM, default adj300.yaml) at the standard budget (8
# minutes on two cores), seed 107, which no search had used; then its exploiter against the arm,
# the default of session 30 (as ../end-reraise/s30/default-er95.yaml) and the member alone on 20,000
# hands of match seed 28, which no session had used. Each result is written to results/ as it
# ends (one already there is not run again).
# Usage: experiments/adjusted-s31/search.sh [ARM]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
tag=${1:-adj300}
found=$out/exploit-$tag-seed107.yaml
[ -s "$out/exploit-$tag-seed107.json" ] || {
  gambler-exploit "$here/$tag.yaml" --seed 107 --minutes 8 --workers 2 --json \
    --out "$found" > "$out/exploit-$tag-seed107.json.part"
  mv "$out/exploit-$tag-seed107.json.part" "$out/exploit-$tag-seed107.json"
}
for profile in "$here/$tag.yaml" "$here/../end-reraise/s30/default-er95.yaml" default-static; do
  file=$out/x28-$(basename "$profile" .yaml)-seed107.json
  [ -s "$file" ] || { gambler-match "$profile" "$found" --hands 20000 --seed 28 \
    --json > "$file.part" && mv "$file.part" "$file"; }
done
