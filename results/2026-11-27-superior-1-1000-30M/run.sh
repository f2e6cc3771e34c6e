#!/bin/sh
# Superior Canfield, seeds 1-1,000, at 30 M nodes and 4 GiB a deal, one job,
# default search settings (0ea0f60: K+ plays a lower talon level adds only,
# fresh states looked up in another chain, rollouts off by default here).
# Run from the repository root: DEMON=target/release/demon results/2026-11-27-superior-1-1000-30M/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-27-superior-1-1000-30M
/usr/bin/time -v -o $D/run.log $DEMON batch superior-canfield \
    --seeds 1..1000 --max-nodes 30M --max-memory 4G --jobs 1 \
    --csv $D/deals.csv --resume 2> $D/run.out > $D/summary.txt
