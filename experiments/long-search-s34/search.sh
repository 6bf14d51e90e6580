#!/bin/sh
# A longer fresh exploiter search against a learning portfolio than the standard budget allows:
# GENERATIONS generations (default 10, about 160 members, each one 1,500-deal match against the
# portfolio learning from scratch), search seed SEED (default 111, which no search had used),
# then its exploiter against the profile over ten matches of 10,000 hands, match seeds 50-59
# (../matches-s33/run.sh). Generations, not minutes, bound it, so the same command repeats the
# same search on a busy machine. A result already in results/ is not run again.
# Usage: [SEED=N] [GENERATIONS=G] experiments/long-search-s34/search.sh [PROFILE]
set -e
here=$(cd "$(dirname "$0")" && pwd)
profile=${1:-default}
seed=${SEED:-111}
generations=${GENERATIONS:-10}
name=exploit-$(basename "$profile" .yaml)-seed$seed-g$generations
found=$here/results/$name.yaml
[ -s "$here/results/$name.json" ] || {
  gambler-exploit "$profile" --seed "$seed" --generations "$generations" --workers 2 --json \
    --out "$found" > "$here/results/$name.json.part"
  mv "$here/results/$name.json.part" "$here/results/$name.json"
}
"$here/../matches-s33/run.sh" "$profile" "$found"
