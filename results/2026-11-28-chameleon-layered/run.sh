#!/bin/sh
# Chameleon 16 (unknown at 18 GiB by the depth-first search) with the layered
# search (--layered): 16 GiB, 100 minutes, one core. SEED=93 ./run.sh for another.
DEMON=${DEMON:-/tmp/demon-4fc3c0e}
SEED=${SEED:-16}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" solve chameleon "$SEED" --layered \
  --max-memory 16G --timeout 6000 --format json > "chameleon-$SEED.json" 2> "chameleon-$SEED.log"
