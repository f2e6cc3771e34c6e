#!/bin/sh
# Superior Canfield 766 (unknown at every depth-first limit tried, up to
# 1.74 G nodes and 354 M positions stored) with the layered search, saved
# in CK (default /work/runs/sup766, outside the repository: tens of GB);
# run again to go on from the save. One process at nice 5. DEMON=,
# TIMEOUT=, MEM= (default 12G), EXTRA= change the build, the sitting's
# time limit, the memory and the options.
DEMON=${DEMON:-/tmp/demon-HEAD}
SEED=${SEED:-766}
TIMEOUT=${TIMEOUT:-36000}
MEM=${MEM:-12G}
CK=${CK:-/work/runs/sup766}
cd "$(dirname "$0")"
T=$(date +%m%d-%H%M)
/usr/bin/time -v nice -n 5 "$DEMON" solve superior-canfield "$SEED" --layered $EXTRA \
  --max-memory "$MEM" --timeout "$TIMEOUT" --checkpoint "$CK" --format json \
  > "superior-$SEED-$T.json" 2> "superior-$SEED-$T.log"
