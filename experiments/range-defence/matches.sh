#!/bin/sh
# A range-defence profile against the pool on the fast engine (20,000 hands, seed 7, as
# experiments/preflop/battery.sh), each written to eval/NAME/match-OPPONENT.json as it arrives.
# Usage: experiments/range-defence/matches.sh PROFILE...
# (SEED, HANDS and OUT, a folder for one profile's files, change the defaults: validate.sh.)
set -e
here=$(dirname "$0")
for profile in "$@"; do
    out=${OUT:-$here/eval/$(basename "$profile" .yaml)}
    mkdir -p "$out"
    for opponent in seed handmade default-v1 default-v2 price-aware call raise allin random \
            catcher prober shover sizer; do
        gambler-match "$profile" "$opponent" --hands "${HANDS:-20000}" --seed "${SEED:-7}" \
            --json > "$out/match-$opponent.tmp"
        mv "$out/match-$opponent.tmp" "$out/match-$opponent.json"
    done
done
