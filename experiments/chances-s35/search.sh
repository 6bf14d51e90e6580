#!/bin/sh
# A fresh exploiter search against an arm (default a250c2.yaml, the default shipped in session
# 35) at the standard budget (8 minutes on two cores), search seed SEED (default 112, which no
# search had used); then its exploiter against the arm, the default before it
# (../matches-s33/counted50.yaml) and the member alone on 20,000 hands of match seed MATCH
# (default 80, which no session had used): ../guarded-s32/search.sh with this folder's arm.
# Each result is written to results/ as it ends (one already there is not run again).
# Usage: [SEED=N MATCH=M] experiments/chances-s35/search.sh [ARM]
here=$(cd "$(dirname "$0")" && pwd)
ARMS=$here BEFORE=$here/../matches-s33/counted50.yaml SEED=${SEED:-112} MATCH=${MATCH:-80} \
  exec "$here/../guarded-s32/search.sh" "${1:-a250c2}"
