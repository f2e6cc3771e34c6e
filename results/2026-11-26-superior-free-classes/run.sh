#!/bin/sh
# Superior Canfield's eight deals of seeds 1-1,000 still unknown before free
# tableau classes, solved again with them (from the repository's root).
set -e
D=results/2026-11-26-superior-free-classes
DEMON=${DEMON:-target/release/demon}
/usr/bin/time -v $DEMON batch superior-canfield --retry-unknown $D/unknown-8.csv \
    --max-nodes 100M --max-memory 4G --jobs 1 --csv $D/deals.csv > $D/run.out 2> $D/run.log
