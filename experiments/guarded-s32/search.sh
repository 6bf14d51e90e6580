#!/bin/sh
# A fresh exploiter search against an arm (ARM, default g50.yaml) at the standard budget (8
# minutes on two cores), seed SEED (default 108, which no search had used); then its exploiter
# against the arm, the shipped default of session 31 (as ../adjusted-s31/adj300.yaml) and the
# member alone on 20,000 hands of match seed MATCH (default 29, which no session had used). Each
# result is written to results/ as it ends (one already there is not run again).
# ARMS=FOLDER reads the arm from another folder and writes to its results/, BEFORE=FILE plays
# another file in place of the session-31 default (../chances-s35/search.sh).
# Usage: [SEED=N MATCH=M ARMS=FOLDER BEFORE=FILE] experiments/guarded-s32/search.sh [ARM]
set -e
script=$(cd "$(dirname "$0")" && pwd)
here=$(cd "${ARMS:-$script}" && pwd)
before=${BEFORE:-$script/../adjusted-s31/adj300.yaml}
out=$here/results
tag=${1:-g50}
seed=${SEED:-108}
match=${MATCH:-29}
found=$out/exploit-$tag-seed$seed.yaml
[ -s "$out/exploit-$tag-seed$seed.json" ] || {
  gambler-exploit "$here/$tag.yaml" --seed $seed --minutes 8 --workers 2 --json \
    --out "$found" > "$out/exploit-$tag-seed$seed.json.part"
  mv "$out/exploit-$tag-seed$seed.json.part" "$out/exploit-$tag-seed$seed.json"
}
for profile in "$here/$tag.yaml" "$before" default-static; do
  file=$out/x$match-$(basename "$profile" .yaml)-seed$seed.json
  [ -s "$file" ] || { gambler-match "$profile" "$found" --hands 20000 --seed $match \
    --json > "$file.part" && mv "$file.part" "$file"; }
done
