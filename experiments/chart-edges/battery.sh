#!/bin/sh
# The portfolio arm p-ip30-75 (the shipped default with range bets in position behind its
# member) against issue 19's adversaries on the seeds of docs/strength.md's "Issue 19's table":
# LBR deal seed 18 at the six settings that raise before the flop, every shipped exploiter on
# match seed 9 (10,000 hands; 20,000 for the four closest; the session-27 search's on seed 14),
# `seed` through the dealer on seed 13. Two jobs at a time; files in eval/, a file already
# there is not run again. (The pool: sweep.py, docs/experiments.md.)
set -e
out=$(dirname "$0")/eval
arm=experiments/chart-edges/p-ip30-75.yaml
tag=p-ip30-75
mkdir -p "$out"
close="v3-pass2-00 search-adaptive-plain-seed91 prober catcher"
{
  for sets in FCMQT FCPA FCHPA FCMA FCODXA FCMQHTPODXA; do
    echo "gambler-lbr $arm --actions $sets,$sets,$sets,$sets --hands 20000 --seed 18 --workers 1 --json > $out/lbr18-$tag-$sets.json"
  done
  echo "gambler-match $arm search-default-static-seed102 --hands 20000 --seed 14 --json > $out/x14-$tag-search-default-static-seed102.json"
  for exploiter in $close; do
    echo "gambler-match $arm $exploiter --hands 20000 --seed 9 --json > $out/x9-$tag-$exploiter.json"
  done
  for exploiter in $(ls configs/exploiters | sed 's/.yaml$//'); do
    case " $close search-default-static-seed102 " in *" $exploiter "*) continue ;; esac
    echo "gambler-match $arm $exploiter --hands 10000 --seed 9 --json > $out/x9-$tag-$exploiter.json"
  done
  echo "gambler-match $arm seed --engine dealer --hands 10000 --seed 13 --json > $out/dealer13-$tag-seed.json"
} | while read -r job; do
  file=$(echo "$job" | sed 's/.*> //; s/ .*//')
  [ -s "$file" ] || echo "$job"
done | xargs -P 2 -I CMD sh -c CMD
