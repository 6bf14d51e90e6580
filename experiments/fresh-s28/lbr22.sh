#!/bin/sh
# The shipped default (the portfolio) and its member alone against LBR on deal seed 22, which no
# session has used: the six settings of the suite that raise before the flop, 20,000 hands each
# (the portfolio in matches of 3,000 hands). One job at a time beside other work; each figure is
# written to results/ as it ends, and a figure already there is not run again.
# Usage: experiments/fresh-s28/lbr22.sh
set -e
out=$(dirname "$0")/results
mkdir -p "$out"
for sets in FCMQT FCPA FCHPA FCMA FCODXA FCMQHTPODXA; do
  for profile in default default-static; do
    file=$out/lbr22-$profile-$sets.json
    [ -s "$file" ] && continue
    gambler-lbr $profile --actions $sets,$sets,$sets,$sets --hands 20000 --seed 22 --workers 1 --json > "$file.part" && mv "$file.part" "$file"
  done
done
