#!/bin/sh
# The rest of issue 19's table for an arm of this folder (default g50.yaml), on seeds nothing
# chose it on: ../adjusted-s31/battery.sh (its parts a, b and c) with the arm read from here and
# the results written to results/ here. The session-31 default's figures on the same seeds are in
# ../adjusted-s31/results/ (as adj300).
# Usage: PART=a|b|c experiments/guarded-s32/battery.sh [ARM]
here=$(cd "$(dirname "$0")" && pwd)
ARMS=$here exec "$here/../adjusted-s31/battery.sh" "${1:-g50}"
