#!/bin/sh
# Superior Canfield 339 and 766, unknown at every limit tried so far, with
# ec5fa0b's search (21aaf85 builds the same): 40 minutes each, side by side
# (one core each), 7 GiB each, forgetting explored positions when the
# table is full, defaults otherwise.
# Run from the repository root: DEMON=target/release/demon results/2026-11-27-superior-339-766-40min/run.sh
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-27-superior-339-766-40min
for s in 339 766; do
    /usr/bin/time -v -o $D/superior-$s.time $DEMON solve superior-canfield $s \
        --max-memory 7G --forget-when-full --timeout 2400 --format json > $D/superior-$s.json &
done
wait
