#!/bin/sh
# A fresh exploiter search against the shipped default at the standard budget (8 minutes on two
# cores), seed SEED (default 110, which no search had used), then its exploiter against the
# default over ten matches of 10,000 hands, match seeds 50-59 (run.sh). A result already in
# results/ is not run again.
# Usage: [SEED=N] experiments/matches-s33/search.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
seed=${SEED:-110}
found=$here/results/exploit-default-seed$seed.yaml
[ -s "$here/results/exploit-default-seed$seed.json" ] || {
  gambler-exploit default --seed "$seed" --minutes 8 --workers 2 --json --out "$found" \
    > "$here/results/exploit-default-seed$seed.json.part"
  mv "$here/results/exploit-default-seed$seed.json.part" "$here/results/exploit-default-seed$seed.json"
}
"$here/run.sh" default "$found"
