#!/bin/sh
# What docs/strength.md reports of a candidate default, on deals and seeds that no training pass
# read (training: deal seeds 1000-1104, LBR 3000-3200, searches 5000 on; here: LBR seed 11,
# a search of deal seed 77, matches of seed 7). Each result is written as it arrives.
# Usage: experiments/default-v3/evaluate.sh PROFILE OUT_DIR [EXPLOITER_FILE...]
set -e
profile=$1; out=$2; shift 2
mkdir -p "$out"
gambler-lbr "$profile" --suite --hands 20000 --seed 11 --json > "$out/lbr-suite.json"
gambler-exploit "$profile" --seed 77 --minutes 8 --out "$out/exploit-seed77.yaml" --json \
    > "$out/exploit-seed77.json"
for opponent in seed handmade default-v1 default-v2 price-aware call raise allin random catcher \
        prober shover sizer experiments/exploit/default-seed11.yaml "$@"; do
    # a file's name keeps its folder's (two runs both find a found-00.yaml)
    case $opponent in
        */*) name=$(basename "$(dirname "$opponent")")-$(basename "$opponent" .yaml) ;;
        *) name=$opponent ;;
    esac
    gambler-match "$profile" "$opponent" --hands 20000 --seed 7 --json > "$out/match-$name.json"
done
gambler-match "$profile" seed --engine dealer --hands 2000 --seed 7 --json > "$out/dealer-seed.json"
