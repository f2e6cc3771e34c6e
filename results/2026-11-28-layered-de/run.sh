#!/bin/sh
# Double Easthaven deals believed lost, by the layered search:
#   run.sh SEED [MEM] [TIMEOUT]
DEMON=${DEMON:-/tmp/demon-368a6b8}
SEED=$1
MEM=${2:-14G}
TIMEOUT=${3:-3600}
cd "$(dirname "$0")"
/usr/bin/time -v "$DEMON" solve double-easthaven "$SEED" --layered --max-memory "$MEM" \
  --timeout "$TIMEOUT" --format json > "de-$SEED.json" 2> "de-$SEED.log"
