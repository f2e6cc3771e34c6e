#!/bin/sh
# Chameleon 93 (unknown at 800 M nodes, 4 GiB, depth first) with the layered search,
# saved in ck/ (run again to continue), one core at nice 5.
# DEMON=, TIMEOUT=, MEM= (default 10G), EXTRA= (more options, e.g. --no-log) and
# CK= (the save directory, default ck) change the build, the sitting's time
# limit, the memory, the options and the directory.
DEMON=${DEMON:-/tmp/demon-f6be533}
SEED=${SEED:-93}
TIMEOUT=${TIMEOUT:-5700}
MEM=${MEM:-10G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" solve chameleon "$SEED" --layered $EXTRA \
  --max-memory "$MEM" --timeout "$TIMEOUT" --checkpoint "${CK:-ck}" --format json > "chameleon-$SEED-$(date +%H%M).json" 2> "chameleon-$SEED-$(date +%H%M).log"
