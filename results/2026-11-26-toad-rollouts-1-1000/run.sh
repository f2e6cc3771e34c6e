#!/bin/bash
# American Toad and Double Easthaven seeds 1-1,000 at 2 M nodes with
# rollouts (97af323), 2 jobs sharing 4 GiB (2 GiB a deal).
#   DEMON=target/release/demon results/2026-11-26-toad-rollouts-1-1000/run.sh
set -u
cd "$(dirname "$0")"
DEMON=${DEMON:-../../target/release/demon}
for g in american-toad double-easthaven; do
  $DEMON batch $g --seeds 1..1000 --max-nodes 2M --jobs 2 --max-memory 4G --csv $g.csv > $g.out 2>&1
done
