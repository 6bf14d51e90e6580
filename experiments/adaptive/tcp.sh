#!/bin/sh
# The adaptive portfolio through real TCP: gambler-match --engine dealer (gambler-dealer
# --duplicate and two gambler processes), one 3,000-hand match per opponent and seed, each
# result written as it arrives. Summarise with experiments/adaptive/tcp_summary.py OUT_DIR.
# Usage: [PORTFOLIO=FILE] experiments/adaptive/tcp.sh OUT_DIR FIRST_SEED MATCHES [OPPONENT...]
# (PORTFOLIO: default the shipped adaptive.) A file that exists already is not played again, so
# an interrupted run resumes.
set -e
portfolio=${PORTFOLIO:-adaptive}
out=$1; first=$2; matches=$3; shift 3
mkdir -p "$out"
opponents=${*:-"seed handmade default-v1 default-v2 price-aware call raise allin random catcher shover prober sizer"}
for opponent in $opponents; do
    seed=$first
    while [ "$seed" -lt $((first + matches)) ]; do
        name=$(basename "$opponent" .yaml)
        if [ ! -s "$out/$name-$seed.json" ]; then
            gambler-match "$portfolio" "$opponent" --engine dealer --hands 3000 --seed "$seed" \
                --json > "$out/$name-$seed.json.part" && mv "$out/$name-$seed.json.part" \
                "$out/$name-$seed.json"
        fi
        seed=$((seed + 1))
    done
done
