#!/bin/sh
# end_reraise on the session-26 member (session 30): default-static with end_reraise 0.95
# (static-s26-er95.yaml) or 0.9 (static-s26-er90.yaml) on the flop, turn and river, against
# default-static itself: LBR on deal seed 21 (the seed the arms are chosen on) at FCMQT x4, the
# chosen arm (ARM, default static-s26-er95) on deal seeds 30-34 at FCMQT x4 (held out:
# fresh-s30/ has default-static's), then seed 21 at the six settings of the suite that raise
# before the flop. 20,000 hands each,
# one job at a time, each written to results/ as it ends (one already there is not run again).
# Usage: experiments/end-reraise/s30/run.sh [ARM]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$here/results
mkdir -p "$out"
lbr() {  # PROFILE NAME SEED SETS
  file=$out/lbr$3-$2-$4.json
  [ -s "$file" ] || { gambler-lbr "$1" --actions $4,$4,$4,$4 --hands 20000 --seed $3 --workers 1 \
    --json > "$file.part" && mv "$file.part" "$file"; }
}
arm=${1:-static-s26-er95}
member=$here/../../slow-play/sp-ftr100-nb.yaml  # default-static of sessions 26-29, by its file
lbr "$member" default-static 21 FCMQT
lbr "$here/$arm.yaml" $arm 21 FCMQT
for seed in 30 31 32 33 34; do
  lbr "$here/$arm.yaml" $arm $seed FCMQT
done
for sets in FCMQT FCPA FCHPA FCMA FCODXA FCMQHTPODXA; do
  lbr "$member" default-static 21 $sets
  lbr "$here/static-s26-er95.yaml" static-s26-er95 21 $sets
  lbr "$here/static-s26-er90.yaml" static-s26-er90 21 $sets
done
