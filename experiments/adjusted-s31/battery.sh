#!/bin/sh
# The rest of issue 19's table for an arm (default adj300.yaml), on seeds nothing chose it on.
# PART=a: LBR FCMQT x4 on deal seeds 18 and 19 (22-34: run.sh), the pool and the baselines (20
# matches of 3,000 hands from seed 1400), LBR at FCMA, FCODXA and every size on deal seed 18 and
# at FCPA and FCHPA on 18 and 19, `seed` through the real dealer on seed 13. PART=b: every shipped
# exploiter on match seed 9 (10,000 hands; 20,000 for the four closest;
# search-default-static-seed102 on 14: run.sh plays it on 14-19). PART=c: LBR at FCPA, FCHPA,
# FCMA, FCODXA and every size on deal seeds 22, 23 and 24 (with 18 and 19, the five seeds the
# default of session 30's other settings were pooled over). Each part one job at a time
# (the two may run side by side), each written to results/ as it ends (one already there is not
# run again). The session-30 default's figures on the same seeds: ../end-reraise/s30/results/ (as
# default-er95) and ../slow-play/eval/.
# ARMS=FOLDER reads the arm from another folder and writes to its results/ (guarded-s32/battery.sh).
# Usage: PART=a|b|c experiments/adjusted-s31/battery.sh [ARM]
set -e
here=$(cd "${ARMS:-$(dirname "$0")}" && pwd)
tag=${1:-adj300}
arm=$here/$tag.yaml
out=$here/results
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
cd "$root"
lbr() {  # SEED SETTING
  echo "gambler-lbr $arm --actions $2,$2,$2,$2 --hands 20000 --seed $1 --workers 1 --json > $out/lbr$1-$tag-$2.json"
}
{
  if [ "$PART" = c ]; then
    for seed in 22 23 24; do
      for sets in FCPA FCHPA FCMA FCODXA FCMQHTPODXA; do lbr $seed $sets; done
    done
  elif [ "$PART" = b ]; then
    experiments/slow-play/exploiter_jobs.sh "$arm" $tag "$out" v3-pass2-00 \
      search-adaptive-plain-seed91 prober catcher | grep -v seed102
  else
    lbr 18 FCMQT; lbr 19 FCMQT
    echo "python experiments/adaptive/sweep.py $arm --matches 20 --seed 1400 --opponents default-v2,price-aware,seed,handmade,default-v1 --json $out/pool1400-$tag.json > $out/pool1400-$tag.txt"
    echo "python experiments/adaptive/sweep.py $arm --matches 20 --seed 1400 --opponents call,raise,allin,random --json $out/pool1400-$tag-baselines.json > $out/pool1400-$tag-baselines.txt"
    lbr 18 FCMA; lbr 18 FCODXA; lbr 18 FCMQHTPODXA; lbr 18 FCPA; lbr 18 FCHPA; lbr 19 FCPA; lbr 19 FCHPA
    echo "gambler-match $arm seed --engine dealer --hands 10000 --seed 13 --json > $out/dealer13-$tag-seed.json"
  fi
} | "$root/experiments/slow-play/pending.sh" | xargs -P 1 -I CMD sh -c CMD
