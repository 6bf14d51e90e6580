#!/bin/sh
# The shipped default (the portfolio) and its member alone against LBR on deal seeds 23 and 24,
# which no session had used: FCMQT x4 (the worst setting on every seed measured since session
# 26) unless other settings are named, 20,000 hands each, written to results/ as each ends
# (fresh-s27/lbr19.sh plays them). With lbr22.sh's seed 22 and session 27's seed 19, pooled by
# pooled.py.
# Usage: experiments/fresh-s28/seeds23-24.sh [SETTING...]
set -e
here=$(dirname "$0")
for seed in 23 24; do
  "$here/../fresh-s27/lbr19.sh" $seed "$here/results" ${*:-FCMQT}
done
