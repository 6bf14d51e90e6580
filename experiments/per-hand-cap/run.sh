#!/bin/sh
# The per-hand cap (session 29; not landed): `budget: capped`, the model's own account with each
# hand capped at what the account and the allowance leave (cap.patch: the engine, LBR and the TCP
# bot, hand for hand in tests/test_model_member.py). This applies the patch in a worktree of HEAD
# at $WORK (default /tmp/cap), installs it into a virtual environment beside it (the system's
# packages reused), and measures the arms it adds (experiments/per-hand-cap/cap50.yaml and
# cap100.yaml there) against `default`, writing to results/:
#   LBR FCMQT x4 on deal seed 21, 20,000 hands (the seed the budget arms of session 22 were chosen on);
#   against default-v2 and price-aware, 12 matches of 3,000 hands from seed 1300 (arms.py);
#   against the exploiter session 27's search found for the member, 6 matches from seed 1400.
# Usage: experiments/per-hand-cap/run.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-/tmp/cap}
venv=$work-venv
[ -d "$work" ] || { git -C "$here" worktree add --detach "$work" HEAD && git -C "$work" apply "$here/cap.patch"; }
[ -x "$venv/bin/python" ] || { python -m venv --system-site-packages "$venv" && "$venv/bin/pip" install -q --no-deps -e "$work"; }
out=$here/results
cd "$work"
for arm in default experiments/per-hand-cap/cap50.yaml experiments/per-hand-cap/cap100.yaml; do
  name=$(basename "$arm" .yaml)
  file=$out/lbr21-$name-FCMQT.json
  [ -s "$file" ] || { "$venv/bin/gambler-lbr" "$arm" --actions FCMQT,FCMQT,FCMQT,FCMQT --hands 20000 \
    --seed 21 --workers 1 --json > "$file.part" && mv "$file.part" "$file"; }
done
arms=default,experiments/per-hand-cap/cap50.yaml
[ -s "$out/arms-1300.json" ] || "$venv/bin/python" experiments/range-defence/budget/arms.py $arms \
  default-v2,price-aware 1300 12 "$out/arms-1300.json" > "$out/arms-1300.txt"
[ -s "$out/arms-x102.json" ] || "$venv/bin/python" experiments/range-defence/budget/arms.py \
  $arms,experiments/per-hand-cap/cap100.yaml experiments/exploit/default-static-s27-seed102.yaml \
  1400 6 "$out/arms-x102.json" > "$out/arms-x102.txt"
