#!/bin/sh
# Variegated Canfield and Double Easthaven, seeds 1-1,000 at 2 M nodes a
# deal (the node limit of the earlier runs of these seeds), after the
# rollouts' lowest-foundation weight (92285f7) and two-deck share (6121ce1).
# Run from the repository root: DEMON=target/release/demon results/2026-11-26-two-deck-1-1000/run.sh GAME
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-26-two-deck-1-1000
G=$1
/usr/bin/time -v -o $D/$G.log $DEMON batch $G --seeds 1..1000 --max-nodes 2M \
    --max-memory 2G --jobs 1 --csv $D/$G.csv --resume > $D/$G.out 2> $D/$G.err
