#!/bin/sh
# Superior Canfield seed 339 (unknown at every limit tried so far), with
# 4a29d7d: two threads sharing one table without a lock (--threads 2),
# 18 GiB, 45 minutes, defaults otherwise (rollouts off, as for every
# one-deck game with unlimited redeals). A crew does not forget, so the
# table must hold every position it meets.
# Run from the repository root: DEMON=target/release/demon results/2026-11-27-superior-339-threads-45min/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-27-superior-339-threads-45min
/usr/bin/time -v -o $D/superior-339.time $DEMON solve superior-canfield 339 \
    --threads 2 --max-memory 18G --timeout 2700 --format json > $D/superior-339.json
