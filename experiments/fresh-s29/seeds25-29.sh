#!/bin/sh
# The shipped default (the portfolio) against LBR on deal seeds 25 to 29, which no session had
# used for LBR: FCMQT x4 (the worst setting pooled over seeds 18-24) on every seed first, then the
# other settings named, 20,000 hands each, written to results/ as each ends (fresh-s27/lbr19.sh
# plays them; a figure already there is not run again). Pooled with seeds 18-24 by
# fresh-s28/pooled.py. PROFILES=default-static plays the member alone instead (member.sh).
# SEEDS="..." and OUT=FOLDER play other seeds into another folder (fresh-s30/seeds30-34.sh).
# Usage: experiments/fresh-s29/seeds25-29.sh [SETTING...]
set -e
here=$(dirname "$0")
for sets in ${*:-FCMQT}; do
  for seed in ${SEEDS:-25 26 27 28 29}; do
    PROFILES=${PROFILES:-default} "$here/../fresh-s27/lbr19.sh" $seed "${OUT:-$here/results}" $sets
  done
done
