#!/bin/sh
# A range-defence profile against the pool on the fast engine (20,000 hands, seed 7, as
# experiments/preflop/battery.sh), each written to eval/NAME/match-OPPONENT.json as it arrives.
# Usage: experiments/range-defence/matches.sh PROFILE...
set -e
here=$(dirname "$0")
for profile in "$@"; do
    name=$(basename "$profile" .yaml)
    mkdir -p "$here/eval/$name"
    for opponent in seed handmade default-v1 default-v2 price-aware call raise allin random \
            catcher prober shover sizer; do
        gambler-match "$profile" "$opponent" --hands 20000 --seed 7 --json \
            > "$here/eval/$name/match-$opponent.tmp"
        mv "$here/eval/$name/match-$opponent.tmp" "$here/eval/$name/match-$opponent.json"
    done
done
