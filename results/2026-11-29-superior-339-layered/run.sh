#!/bin/sh
# Superior Canfield 339 (unknown at every depth-first limit tried, up to
# 2.13 G nodes) with the layered search, saved in ck/ (run again to go on),
# one core at nice 5. DEMON=, TIMEOUT=, MEM= (default 9G), EXTRA= change
# the build, the sitting's time limit, the memory and the options.
DEMON=${DEMON:-/tmp/demon-6066780}
SEED=${SEED:-339}
TIMEOUT=${TIMEOUT:-7200}
MEM=${MEM:-9G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" solve superior-canfield "$SEED" --layered $EXTRA \
  --max-memory "$MEM" --timeout "$TIMEOUT" --checkpoint "${CK:-ck}" --format json > "superior-$SEED-$(date +%H%M).json" 2> "superior-$SEED-$(date +%H%M).log"
