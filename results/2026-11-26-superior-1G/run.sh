#!/bin/sh
# Superior Canfield's six deals of seeds 1-1,000 still unknown at 100 M nodes
# (../2026-11-26-superior-free-classes/deals.csv), solved again at 1,000 M
# nodes: the search alone (no rollouts, which do not find these wins), 6 GiB,
# forgetting explored positions when the table is full.
# Run from the repository root: DEMON=target/release/demon results/2026-11-26-superior-1G/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-26-superior-1G
/usr/bin/time -v -o $D/run.log $DEMON batch superior-canfield --retry-unknown $D/unknown-6.csv \
    --max-nodes 1000M --max-memory 6G --forget-when-full --no-rollouts --jobs 1 \
    --csv $D/deals.csv --resume 2> $D/run.out
