#!/bin/sh
# Canfield (any group moves) seeds 1-1,000, one job at 4 GiB, default settings (from the repository's root).
set -e
D=results/2026-11-26-canfield-any-1-1000-free
DEMON=${DEMON:-target/release/demon}
/usr/bin/time -v $DEMON batch canfield --group-moves any --seeds 1..1000 \
    --max-memory 4G --jobs 1 --csv $D/deals.csv > $D/run.out 2> $D/run.log
