#!/bin/sh
# Variegated Canfield: the deals of seeds FIRST-LAST (1-100, 101-200 or
# 201-300) that the two-deck run at 2 M nodes left unknown, solved again
# at 30 M nodes, 4 GiB a deal, two deals at a time.
# variegated-canfield-FIRST-LAST.2M.csv holds that run's rows for those
# seeds, copied from ../2026-11-26-two-deck-1-1000.
# Run from the repository root: DEMON=target/release/demon results/2026-11-27-two-deck-retry-30M/run-vc.sh 1-100
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-27-two-deck-retry-30M
G=variegated-canfield
R=$G-$1
/usr/bin/time -v -o $D/$R.log $DEMON batch $G \
    --retry-unknown $D/$R.2M.csv --max-nodes 30M \
    --max-memory 8G --jobs 2 --csv $D/$R.csv --resume > $D/$R.out 2> $D/$R.err
$DEMON merge $D/$R.2M.csv --retried $D/$R.csv > $D/$R.merged.out
