#!/bin/sh
# Chameleon 93 (unknown at 800 M nodes, 4 GiB, depth first) with the layered search,
# saved in ck/ (run again to continue): 10 GiB, one core at nice 5.
# DEMON= and TIMEOUT= change the build and the sitting's time limit.
DEMON=${DEMON:-/tmp/demon-f6be533}
SEED=${SEED:-93}
TIMEOUT=${TIMEOUT:-5700}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" solve chameleon "$SEED" --layered \
  --max-memory 10G --timeout "$TIMEOUT" --checkpoint ck --format json > "chameleon-$SEED-$(date +%H%M).json" 2> "chameleon-$SEED-$(date +%H%M).log"
