#!/bin/sh
# A chart profile's quick measure, on deals no chart or profile was tuned on: the LBR suite
# (deal seed 11) and 20,000-hand fast-engine matches (seed 7) against the pool, each written as
# it arrives. (The exploiter search and the TCP match of experiments/default-v3/evaluate.sh come
# after, for a candidate that holds here; a third argument `exploit` adds the search: 8 minutes,
# deal seed 77.)
# Usage: experiments/preflop/battery.sh PROFILE OUT_DIR [exploit]
set -e
profile=$1; out=$2; search=${3:-}
mkdir -p "$out"
gambler-lbr "$profile" --suite --hands 20000 --seed 11 --json > "$out/lbr-suite.json"
for opponent in seed handmade default-v1 default-v2 price-aware call raise allin random catcher \
        prober shover sizer; do
    gambler-match "$profile" "$opponent" --hands 20000 --seed 7 --json > "$out/match-$opponent.json"
done
if [ "$search" = exploit ]; then
    gambler-exploit "$profile" --seed 77 --minutes 8 --out "$out/exploit-seed77.yaml" --json \
        > "$out/exploit-seed77.json"
fi
