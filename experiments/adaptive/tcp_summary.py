"""Mean and 95% interval over the matches of experiments/adaptive/tcp.sh, per opponent
(all-in adjusted mbb/hand): python experiments/adaptive/tcp_summary.py OUT_DIR."""

import json
import math
import sys
from collections import defaultdict
from pathlib import Path

results = defaultdict(list)
for path in sorted(Path(sys.argv[1]).glob("*.json")):
    if path.stat().st_size:
        match = json.loads(path.read_text())
        results[match["b"]].append(match["mbb_per_hand_allin_adjusted"])
for opponent, values in results.items():
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) \
        if len(values) > 1 else float("nan")
    print(f"| `{opponent}` | {mean:+,.0f} ± {1.959964 * spread / math.sqrt(len(values)):,.0f} "
          f"| {len(values)} matches |")
