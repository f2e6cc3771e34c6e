#!/bin/bash
# American Toad's two deals still unknown at 300 M nodes with the restarts
# (547 and 812, results/2026-11-28-restarts-retry), at 1 G nodes: the
# restarts alone (the `nested` example, 64 MiB) had won 547 at its
# 23,521st restart, after 252 M moves. Two deals at a time, 4 GiB each;
# resumable (--resume). Run from the repository root:
#   DEMON=target/release/demon results/2026-11-28-toad-retry-1G/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-28-toad-retry-1G
/usr/bin/time -v -o $D/american-toad.log $DEMON batch american-toad \
    --retry-unknown results/2026-11-28-restarts-retry/american-toad.csv --max-nodes 1G \
    --max-memory 8G --jobs 2 --csv $D/american-toad.csv --resume > $D/american-toad.out 2> $D/american-toad.err
$DEMON merge results/2026-11-26-two-deck-1-1000/american-toad.csv \
    --retried results/2026-11-27-two-deck-retry-30M/american-toad.csv \
    --retried results/2026-11-28-toad-retry-100M-300M/american-toad-100M.csv \
    --retried results/2026-11-28-toad-retry-100M-300M/american-toad-300M.csv \
    --retried results/2026-11-28-restarts-retry/american-toad.csv \
    --retried $D/american-toad.csv > $D/american-toad.merged.out
