#!/bin/sh
# The shipped default against LBR FCMQT x4 (its worst setting on every seed since session 26) on
# deal seeds 30 to 34, which no session had used for LBR, 20,000 hands each, one job at a time,
# each figure written to results/ as it ends (fresh-s27/lbr19.sh plays them; a figure already
# there is not run again). PROFILES=... plays other shipped names instead.
# Usage: experiments/fresh-s30/seeds30-34.sh [SETTING...]
set -e
here=$(dirname "$0")
for sets in ${*:-FCMQT}; do
  for seed in 30 31 32 33 34; do
    PROFILES=${PROFILES:-default} "$here/../fresh-s27/lbr19.sh" $seed "$here/results" $sets
  done
done
