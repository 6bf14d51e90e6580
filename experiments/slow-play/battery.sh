#!/bin/sh
# A portfolio arm (default: p-sp-ftr100-nb, the shipped default with the slow-play member)
# against issue 19's adversaries on seeds nothing chose: LBR deal seed 18 at the six settings
# that raise before the flop (with the profiles in $BESIDE, default `default`, on the same deals),
# every shipped exploiter on match seed 9 (10,000 hands; 20,000 for the four closest; session
# 27's search-default-static-seed102 on seed 14), the baselines on pool seeds 1400-1419 (the
# other pool rows: sweep.py, docs/experiments.md), `seed` through the dealer on seed 13. Two
# jobs at a time; a file already in OUT is not run again.
# Usage: [BESIDE="..."] experiments/slow-play/battery.sh [ARM [OUT]]
#   (session 27: BESIDE= experiments/slow-play/battery.sh experiments/chart-edges/p-ip30-75.yaml
#   experiments/chart-edges/eval)
set -e
arm=${1:-experiments/slow-play/p-sp-ftr100-nb.yaml}
out=${2:-$(dirname "$0")/eval}
beside=${BESIDE-default}
tag=$(basename "$arm" .yaml)
mkdir -p "$out"
close="v3-pass2-00 search-adaptive-plain-seed91 prober catcher"
{
  for sets in FCPA FCHPA FCMA FCMQT FCODXA FCMQHTPODXA; do
    for profile in $arm $beside; do
      echo "gambler-lbr $profile --actions $sets,$sets,$sets,$sets --hands 20000 --seed 18 --workers 1 --json > $out/lbr18-$(basename $profile .yaml)-$sets.json"
    done
  done
  "$(dirname "$0")/exploiter_jobs.sh" "$arm" "$tag" "$out" $close
  echo "python experiments/adaptive/sweep.py $arm --matches 20 --seed 1400 --opponents call,raise,allin,random --json $out/pool1400-$tag-baselines.json > $out/pool1400-$tag-baselines.txt"
  echo "gambler-match $arm seed --engine dealer --hands 10000 --seed 13 --json > $out/dealer13-$tag-seed.json"
} | "$(dirname "$0")/pending.sh" | xargs -P 2 -I CMD sh -c CMD
