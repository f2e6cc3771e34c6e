#!/bin/sh
# Superior Canfield 339 by the depth-first search alone (the default
# for Superior Canfield: no rollouts or probes), forgetting when the
# table is full, saved with --checkpoint so that a later sitting goes on
# where this one stopped (run the same command again).
#   DEMON=/tmp/demon-HASH TIMEOUT=SECS ./run.sh
DEMON=${DEMON:-/tmp/demon-HEAD}
SEED=${SEED:-339}
MEM=${MEM:-16G}
TIMEOUT=${TIMEOUT:-3600}
CK=${CK:-/work/main/target/ck/superior-$SEED.ck}
cd "$(dirname "$0")"
STAMP=$(date -u +%H%M)
/usr/bin/time -v nice -n 5 "$DEMON" solve superior-canfield "$SEED" \
  --max-memory "$MEM" --forget-when-full --timeout "$TIMEOUT" \
  --checkpoint "$CK" --log-every 600 --format json \
  > superior-$SEED-$STAMP.json 2> superior-$SEED-$STAMP.log
echo "exit $?" >> superior-$SEED-$STAMP.log
