#!/bin/sh
# Superior Canfield's lost deals of seeds 1-1,000 that take the depth-first
# search more than 100,000 nodes (../2026-11-27-superior-1-1000-30M), and
# 2218, solved by the layered search with tableau classes (the default)
# and without (--no-tableau-classes), 4 GiB each, one at a time.
# DEMON= names the binary (default target/release/demon).
DEMON=${DEMON:-target/release/demon}
OUT=$(dirname "$0")
echo "seed,classes,verdict,nodes,stored,merged,hits,rebuilds,seconds,peak_memory" > "$OUT/deals.csv"
for seed in 468 222 466 693 619 2218; do
  for classes in on off; do
    opt=""
    [ "$classes" = off ] && opt=--no-tableau-classes
    "$DEMON" solve superior-canfield "$seed" --layered $opt --max-memory 4G --format json > /tmp/lc.json
    python3 - "$seed" "$classes" >> "$OUT/deals.csv" <<'PY'
import json, sys
d = json.load(open("/tmp/lc.json")); s = d["stats"]
print(",".join(map(str, [sys.argv[1], sys.argv[2], d["verdict"], s["nodes"], s["positions_stored"],
      s["positions_merged"], s["table_hits"], s["table_rebuilds"], round(s["seconds"], 2), s["peak_memory_bytes"]])))
PY
  done
done
cat "$OUT/deals.csv"
