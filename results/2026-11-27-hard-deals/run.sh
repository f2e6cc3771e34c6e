#!/bin/sh
# Three hard deals with 0ea0f60's defaults, one at a time.
# Run from the repository root: DEMON=target/release/demon results/2026-11-27-hard-deals/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-27-hard-deals
/usr/bin/time -v -o $D/superior-664.time $DEMON solve superior-canfield 664 \
    --max-memory 6G --forget-when-full --format json > $D/superior-664.json
/usr/bin/time -v -o $D/canfield-any-500.time $DEMON solve canfield 500 --group-moves any \
    --max-memory 8G --format json > $D/canfield-any-500.json
/usr/bin/time -v -o $D/superior-339.time $DEMON solve superior-canfield 339 \
    --max-memory 8G --forget-when-full --max-nodes 300M --format json > $D/superior-339.json
