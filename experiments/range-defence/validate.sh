#!/bin/sh
# A candidate chosen on the seeds of suite.sh, matches.sh and exploiters.sh (LBR 11, matches 7),
# measured again on seeds that no arm here was chosen on: the LBR suite on deal seed 12 (20,000
# hands a setting), 100,000-hand matches of seed 8 against the pool and 20,000-hand matches of
# seed 8 against every searched exploiter, written to eval/NAME/fresh/ as they arrive.
# Usage: experiments/range-defence/validate.sh PROFILE
set -e
here=$(dirname "$0")
name=$(basename "$1" .yaml)
out="$here/eval/$name/fresh"
mkdir -p "$out"
gambler-lbr "$1" --suite --hands 20000 --seed 12 --json > "$out/lbr-suite.tmp"
mv "$out/lbr-suite.tmp" "$out/lbr-suite.json"
for opponent in seed handmade default-v1 default-v2 price-aware call raise allin random catcher \
        prober shover sizer; do
    gambler-match "$1" "$opponent" --hands 100000 --seed 8 --json > "$out/match-$opponent.tmp"
    mv "$out/match-$opponent.tmp" "$out/match-$opponent.json"
done
for exploiter in experiments/exploit/*.yaml experiments/default-v3/pass*-found/*.yaml; do
    tag=$(echo "$exploiter" | sed 's|experiments/||; s|/|-|g; s|.yaml$||')
    gambler-match "$1" "$exploiter" --hands 20000 --seed 8 --json > "$out/vs-$tag.json"
done
