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
SEED=8 HANDS=100000 OUT="$out" sh "$here/matches.sh" "$1"
SEED=8 OUT="$out" sh "$here/exploiters.sh" "$1"
