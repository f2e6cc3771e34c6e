#!/bin/sh
# The deals of seeds 1-1,000 that the two-deck run at 2 M nodes
# (../2026-11-26-two-deck-1-1000) left unknown, solved again at 30 M nodes,
# 4 GiB a deal, two deals at a time.
# Run from the repository root: DEMON=target/release/demon results/2026-11-27-two-deck-retry-30M/run.sh GAME
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-27-two-deck-retry-30M
G=$1
/usr/bin/time -v -o $D/$G.log $DEMON batch $G \
    --retry-unknown results/2026-11-26-two-deck-1-1000/$G.csv --max-nodes 30M \
    --max-memory 8G --jobs 2 --csv $D/$G.csv --resume > $D/$G.out 2> $D/$G.err
$DEMON merge results/2026-11-26-two-deck-1-1000/$G.csv --retried $D/$G.csv > $D/$G.merged.out
