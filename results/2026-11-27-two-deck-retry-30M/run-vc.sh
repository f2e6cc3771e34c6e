#!/bin/sh
# Variegated Canfield: the deals of seeds 1-100 that the two-deck run at
# 2 M nodes left unknown (variegated-canfield-1-100.2M.csv holds that run's
# rows for seeds 1-100, copied from ../2026-11-26-two-deck-1-1000), solved
# again at 30 M nodes, 4 GiB a deal, two deals at a time.
# Run from the repository root: DEMON=target/release/demon results/2026-11-27-two-deck-retry-30M/run-vc.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-27-two-deck-retry-30M
G=variegated-canfield
/usr/bin/time -v -o $D/$G.log $DEMON batch $G \
    --retry-unknown $D/$G-1-100.2M.csv --max-nodes 30M \
    --max-memory 8G --jobs 2 --csv $D/$G.csv --resume > $D/$G.out 2> $D/$G.err
$DEMON merge $D/$G-1-100.2M.csv --retried $D/$G.csv > $D/$G.merged.out
