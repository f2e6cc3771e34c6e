#!/bin/sh
# Canfield under Solvitaire's rules (--group-moves any --tableau-wrap base:
# the rules of Blake & Gent's published 71.245 %), seeds 1-1,000, after the
# dead-end test learned which talon cards can come up (0507a17): every
# deal at 30 M nodes and 4 GiB, one job; then the deals left unknown again
# with no node limit, 4 GiB, one job. Default search settings (rollouts on).
# Run from the repository root: DEMON=target/release/demon results/2026-11-26-canfield-published-talon-1-1000/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-26-canfield-published-talon-1-1000
/usr/bin/time -v -o $D/run.log $DEMON batch canfield --group-moves any --tableau-wrap base \
    --seeds 1..1000 --max-nodes 30M --max-memory 4G --jobs 1 \
    --csv $D/deals.csv --resume 2> $D/run.out
/usr/bin/time -v -o $D/retry.log $DEMON batch canfield --group-moves any --tableau-wrap base \
    --retry-unknown $D/deals.csv --max-memory 4G --jobs 1 \
    --csv $D/retry.csv --resume 2> $D/retry.out
