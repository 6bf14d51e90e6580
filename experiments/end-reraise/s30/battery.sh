#!/bin/sh
# The rest of issue 19's table for the end_reraise default (default-er95.yaml), on seeds nothing
# chose it on: every shipped exploiter on match seed 9 (10,000 hands; 20,000 for the four
# closest; session 27's search-default-static-seed102 on seed 14: slow-play/exploiter_jobs.sh),
# the pool and the baselines, 20 matches of 3,000 hands from seed 1400, and `seed` through the
# real dealer on seed 13, one job at a time (LBR: portfolio.sh). A file already in results/ is
# not run again. default's figures on the same seeds: experiments/slow-play/eval/.
# Usage: experiments/end-reraise/s30/battery.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
arm=$here/default-er95.yaml
out=$here/results
tag=default-er95
root=$here/../../..
mkdir -p "$out"
cd "$root"
{
  experiments/slow-play/exploiter_jobs.sh "$arm" $tag "$out" v3-pass2-00 search-adaptive-plain-seed91 prober catcher
  echo "python experiments/adaptive/sweep.py $arm --matches 20 --seed 1400 --opponents default-v2,price-aware,seed,handmade,default-v1 --json $out/pool1400-$tag.json > $out/pool1400-$tag.txt"
  echo "python experiments/adaptive/sweep.py $arm --matches 20 --seed 1400 --opponents call,raise,allin,random --json $out/pool1400-$tag-baselines.json > $out/pool1400-$tag-baselines.txt"
  echo "gambler-match $arm seed --engine dealer --hands 10000 --seed 13 --json > $out/dealer13-$tag-seed.json"
} | experiments/slow-play/pending.sh | xargs -P 1 -I CMD sh -c CMD
