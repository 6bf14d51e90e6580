#!/bin/sh
# A battery's job filter: reads one shell job a line, each ending in "> FILE ..." (its output),
# and prints those whose FILE is missing or empty, so a battery run again skips what it has.
# Usage: ... | experiments/slow-play/pending.sh | xargs -P N -I CMD sh -c CMD
while read -r job; do
  file=$(echo "$job" | sed 's/.*> //; s/ .*//')
  [ -s "$file" ] || echo "$job"
done
