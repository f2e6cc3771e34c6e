#!/bin/bash
# Variegated Canfield seeds 1-100: the 35 deals still unknown at 30 M
# nodes with the rollouts (results/2026-11-28-restarts-retry), solved
# again at 30 M nodes by the exhaustive search alone (--no-rollouts
# --no-probes): how many of them are lost deals that the rollouts kept
# the search from proving. One deal at a time, 4 GiB; resumable
# (--resume). Run from the repository root:
#   DEMON=target/release/demon results/2026-11-28-vc-search-alone/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-28-vc-search-alone
/usr/bin/time -v -o $D/variegated-canfield-1-100.log $DEMON batch variegated-canfield \
    --retry-unknown results/2026-11-28-restarts-retry/variegated-canfield-1-100.csv \
    --max-nodes 30M --no-rollouts --no-probes --max-memory 4G --jobs 1 \
    --csv $D/variegated-canfield-1-100.csv --resume \
    > $D/variegated-canfield-1-100.out 2> $D/variegated-canfield-1-100.err
