#!/bin/sh
# Superior Canfield's deals of seeds 1-1,000 still unknown at 100 M nodes
# (../2026-11-26-superior-free-classes/deals.csv) that
# ../2026-11-26-superior-1G did not reach (it stopped after seed 339):
# 500, 664, 766, 818 and 973, solved again at 1,000 M nodes with the same
# options: the search alone (--no-rollouts), 6 GiB, forgetting explored
# positions when the table is full.
# Run from the repository root: DEMON=target/release/demon results/2026-11-26-superior-1G-rest/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-26-superior-1G-rest
/usr/bin/time -v -o $D/run.log $DEMON batch superior-canfield --retry-unknown $D/unknown-5.csv \
    --max-nodes 1000M --max-memory 6G --forget-when-full --no-rollouts --jobs 1 \
    --csv $D/deals.csv --resume 2> $D/run.out
