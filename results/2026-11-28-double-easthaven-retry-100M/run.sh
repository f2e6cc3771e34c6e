#!/bin/sh
# Double Easthaven's deals of seeds 1-1,000 still unknown at 30 M nodes
# (../2026-11-27-two-deck-retry-30M), solved again at 100 M nodes, 4 GiB a
# deal, two deals at a time; resumable (--resume).
# Run from the repository root:
#   DEMON=target/release/demon results/2026-11-28-double-easthaven-retry-100M/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-28-double-easthaven-retry-100M
R=results/2026-11-27-two-deck-retry-30M
/usr/bin/time -v -o $D/double-easthaven.log $DEMON batch double-easthaven \
    --retry-unknown $R/double-easthaven.csv --max-nodes 100M --max-memory 8G --jobs 2 \
    --csv $D/double-easthaven.csv --resume > $D/double-easthaven.out 2> $D/double-easthaven.err
$DEMON merge results/2026-11-26-two-deck-1-1000/double-easthaven.csv \
    --retried $R/double-easthaven.csv --retried $D/double-easthaven.csv > $D/double-easthaven.merged.out
