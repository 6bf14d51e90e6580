#!/bin/sh
# A fresh exploiter search against an arm (default a250c2.yaml, the default shipped in session
# 35) at the standard budget (8 minutes on two cores), search seed SEED (default 112, which no
# search had used); then its exploiter against the arm, the default before it
# (../matches-s33/counted50.yaml) and the member alone on 20,000 hands of match seed MATCH
# (default 80, which no session had used). Each result is written to results/ as it ends (one
# already there is not run again).
# Usage: [SEED=N MATCH=M] experiments/chances-s35/search.sh [ARM]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
tag=${1:-a250c2}
seed=${SEED:-112}
match=${MATCH:-80}
found=$out/exploit-$tag-seed$seed.yaml
[ -s "$out/exploit-$tag-seed$seed.json" ] || {
  gambler-exploit "$here/$tag.yaml" --seed $seed --minutes 8 --workers 2 --json \
    --out "$found" > "$out/exploit-$tag-seed$seed.json.part"
  mv "$out/exploit-$tag-seed$seed.json.part" "$out/exploit-$tag-seed$seed.json"
}
for profile in "$here/$tag.yaml" "$here/../matches-s33/counted50.yaml" default-static; do
  file=$out/x$match-$(basename "$profile" .yaml)-seed$seed.json
  [ -s "$file" ] || { gambler-match "$profile" "$found" --hands 20000 --seed $match \
    --json > "$file.part" && mv "$file.part" "$file"; }
done
