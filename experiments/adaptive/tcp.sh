#!/bin/sh
# The adaptive portfolio through real TCP: gambler-match --engine dealer (gambler-dealer
# --duplicate and two gambler processes), one 3,000-hand match per opponent and seed, each
# result written as it arrives. Summarise with experiments/adaptive/tcp_summary.py OUT_DIR.
# Usage: experiments/adaptive/tcp.sh OUT_DIR FIRST_SEED MATCHES [OPPONENT...]
set -e
out=$1; first=$2; matches=$3; shift 3
mkdir -p "$out"
opponents=${*:-"seed handmade default-v1 default price-aware call raise allin random catcher shover prober sizer"}
for opponent in $opponents; do
    seed=$first
    while [ "$seed" -lt $((first + matches)) ]; do
        gambler-match adaptive "$opponent" --engine dealer --hands 3000 --seed "$seed" --json \
            > "$out/$opponent-$seed.json"
        seed=$((seed + 1))
    done
done
