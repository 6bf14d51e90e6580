#!/bin/sh
# Range defence's measure: the LBR suite (20,000 hands a setting, deal seed 11, which no profile
# here was tuned on) for each profile named, written to eval/NAME/lbr-suite.json as it arrives.
# (Matches need the TCP bot: the fast engine does not play range defence yet.)
# Usage: experiments/range-defence/suite.sh PROFILE...
# Then:  python experiments/preflop/summary.py experiments/range-defence/eval/*/
set -e
here=$(dirname "$0")
for profile in "$@"; do
    name=$(basename "$profile" .yaml)
    mkdir -p "$here/eval/$name"
    gambler-lbr "$profile" --suite --hands 20000 --seed 11 --json > "$here/eval/$name/lbr-suite.tmp"
    mv "$here/eval/$name/lbr-suite.tmp" "$here/eval/$name/lbr-suite.json"
done
