#!/bin/sh
# Decision time through real TCP with the model member's refreshes running: gambler-dealer
# --duplicate, `gambler --params PORTFOLIO` (its counters searched in a worker process) and
# `gambler --params OPPONENT`; prints the portfolio's summary line (latency p50, p99, the flop's
# p99 and the largest, which includes any wait for a late counter).
# Usage: experiments/adaptive/latency.sh PORTFOLIO OPPONENT HANDS SEED
set -e
portfolio=$1; opponent=$2; hands=$3; seed=$4
dir=$(mktemp -d)
(cd "$dir" && exec gambler-dealer m holdem.nolimit.2p.reverse_blinds.game "$hands" "$seed" \
    a b --duplicate -q) > "$dir/ports" &
dealer=$!
while [ ! -s "$dir/ports" ]; do sleep 0.1; done
set -- $(cat "$dir/ports")
gambler 127.0.0.1 "$1" --params "$portfolio" --quiet 2> "$dir/a.txt" &
first=$!
gambler 127.0.0.1 "$2" --params "$opponent" --quiet 2> "$dir/b.txt"
wait $first
wait $dealer
echo "$portfolio against $opponent, $hands hands, seed $seed:"
cat "$dir/a.txt"
rm -rf "$dir"
