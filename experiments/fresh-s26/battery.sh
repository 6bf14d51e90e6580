#!/bin/sh
# The shipped default against every adversary of issue 19's table, on seeds nothing has used
# (session 26): LBR deal seed 16, exploiter match seed 9, pool match seeds 1400-1419, the real
# dealer on seed 13. Jobs run two at a time (xargs -P 2); each figure is written to results/ as
# it ends. Against a portfolio an exploiter match of 20,000 hands takes about 6 minutes of a
# core (the model's counter searches), so the exploiters that the default beat by thousands in
# session 22 get 10,000 hands and the closest ones 20,000 (experiments/slow-play/exploiter_jobs.sh,
# which since session 27 adds the search against the member on match seed 14).
# Usage: experiments/fresh-s26/battery.sh [PROFILE]   (default: default)
# (SKIP=PATTERN leaves out the jobs whose command matches it: one already running.)
set -e
here=$(dirname "$0")
out=$here/results
profile=${1:-default}
tag=$(basename "$profile" .yaml)
mkdir -p "$out"
close="search-adaptive-plain-seed91 search-default-static-seed82 v3-pass2-00 v3-pass1-00"
{
  echo "gambler-lbr $profile --suite --hands 20000 --seed 16 --workers 1 --json > $out/lbr16-$tag-suite.json"
  experiments/slow-play/exploiter_jobs.sh "$profile" "$tag" "$out" $close | while read -r job; do
    [ -s "$(echo "$job" | sed 's/.*> //')" ] || echo "$job"  # a file already there is kept
  done
  echo "python experiments/adaptive/sweep.py $profile --matches 20 --seed 1400 --opponents default-v2,price-aware,seed,handmade,default-v1,call,raise,allin,random --json $out/pool1400-$tag.json > $out/pool1400-$tag.txt"
  echo "gambler-match $profile seed --engine dealer --hands 10000 --seed 13 --json > $out/dealer13-$tag-seed.json"
} | grep -v -e "${SKIP:-^$}" | xargs -P 2 -I CMD sh -c CMD
