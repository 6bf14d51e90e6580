#!/bin/sh
# The member alone (`default-static`) against LBR on deal seeds 25 to 29 at the settings named
# (default FCMQT x4), 20,000 hands each: beside seeds25-29.sh's `default`, what the counters add.
# Usage: experiments/fresh-s29/member.sh [SETTING...]
PROFILES=default-static exec "$(dirname "$0")/seeds25-29.sh" "$@"
