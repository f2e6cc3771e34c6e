#!/bin/sh
# Canfield (runs move in any part: --group-moves any) seed 500, the
# longest lost deal of that variant, with ec5fa0b (the stack bound backs
# off), 8 GiB, defaults; beside one other job (the winnability table).
# Run from the repository root: DEMON=target/release/demon results/2026-11-27-canfield-any-500-backoff/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-27-canfield-any-500-backoff
/usr/bin/time -v -o $D/canfield-any-500.time $DEMON solve canfield 500 --group-moves any \
    --max-memory 8G --format json > $D/canfield-any-500.json
