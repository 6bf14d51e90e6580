#!/bin/sh
# A fresh exploiter search (8 minutes, deal seed 77: neither the scan nor any training here used
# it) against a range-defence profile, written to eval/NAME/exploit-seed77.{yaml,json}.
# Usage: experiments/range-defence/evaluate.sh PROFILE
set -e
here=$(dirname "$0")
name=$(basename "$1" .yaml)
mkdir -p "$here/eval/$name"
gambler-exploit "$1" --seed 77 --minutes 8 --out "$here/eval/$name/exploit-seed77.yaml" --json \
    > "$here/eval/$name/exploit-seed77.tmp"
mv "$here/eval/$name/exploit-seed77.tmp" "$here/eval/$name/exploit-seed77.json"
