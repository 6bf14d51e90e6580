#!/bin/sh
# The member alone (`default-static`) against LBR on deal seeds 25 to 29 at the settings named
# (default FCMQT x4), 20,000 hands each: beside seeds25-29.sh's `default`, what the counters add.
# Usage: experiments/fresh-s29/member.sh [SETTING...]
set -e
here=$(dirname "$0")
for sets in ${*:-FCMQT}; do
  for seed in 25 26 27 28 29; do
    PROFILES=default-static "$here/../fresh-s27/lbr19.sh" $seed "$here/results" $sets
  done
done
