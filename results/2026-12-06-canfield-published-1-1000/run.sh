#!/bin/sh
# Canfield under Solvitaire's rules (--group-moves any --tableau-wrap base:
# the rules of Blake & Gent's published 71.245 %), seeds 1-1,000, with
# 022530e: every deal at 4 GiB with no node limit, one deal at a time,
# each searched by two threads sharing its table (--threads 2), default
# search settings otherwise, the machine otherwise idle.
# Run from the repository root: DEMON=target/release/demon results/2026-12-06-canfield-published-1-1000/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-12-06-canfield-published-1-1000
/usr/bin/time -v -o $D/run.log $DEMON batch canfield --group-moves any --tableau-wrap base \
    --seeds 1..1000 --max-memory 4G --jobs 1 --threads 2 \
    --csv $D/deals.csv --resume 2> $D/run.out > $D/summary.txt
