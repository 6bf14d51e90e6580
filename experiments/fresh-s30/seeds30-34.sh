#!/bin/sh
# The shipped default against LBR FCMQT x4 (its worst setting on every seed since session 26) on
# deal seeds 30 to 34, which no session had used for LBR, 20,000 hands each, one job at a time,
# each figure written to results/ as it ends (fresh-s29/seeds25-29.sh plays them; a figure
# already there is not run again). PROFILES=default-static plays the member alone instead.
# Usage: experiments/fresh-s30/seeds30-34.sh [SETTING...]
here=$(dirname "$0")
SEEDS="30 31 32 33 34" OUT="$here/results" exec "$here/../fresh-s29/seeds25-29.sh" "$@"
