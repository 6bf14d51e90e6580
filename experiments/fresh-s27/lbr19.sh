#!/bin/sh
# The shipped default (the portfolio) and its member alone against LBR on deal seed 19, which no
# session had used: the six settings of the suite that raise before the flop, 20,000 hands each
# (the portfolio in matches of 3,000 hands). One job at a time beside other work; each figure is
# written to results/ as it ends, and a figure already there is not run again.
# Usage: experiments/fresh-s27/lbr19.sh [SEED [OUT [SETTING...]]]
#   another deal seed, results folder or list of settings (fresh-s28/lbr22.sh, seeds23-24.sh,
#   fresh-s29/seeds25-29.sh); PROFILES="default" plays only the profiles named (session 29)
set -e
seed=${1:-19}
out=${2:-$(dirname "$0")/results}
[ $# -gt 2 ] && shift 2 && settings="$*"
mkdir -p "$out"
for sets in ${settings:-FCMQT FCPA FCHPA FCMA FCODXA FCMQHTPODXA}; do
  for profile in ${PROFILES:-default default-static}; do
    file=$out/lbr$seed-$profile-$sets.json
    [ -s "$file" ] && continue
    gambler-lbr $profile --actions $sets,$sets,$sets,$sets --hands 20000 --seed $seed --workers 1 --json > "$file.part" && mv "$file.part" "$file"
  done
done
